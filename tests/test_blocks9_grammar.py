"""The block grammar, version 9 (``SPEC.md``, "The block grammar, version 9"): "blocks-8" with GitBook's and Jekyll's
Liquid tags read as Hugo shortcodes (rule U). Each rule on a short text written for the test; offsets counted by hand,
and "blocks-8" read on the same text to show what it made of it."""

from __future__ import annotations

import random
import unittest

from grammars.version9 import liquid_as_shortcodes
from tests.support import LabTestCase
from tests.test_blocks6_grammar import pinned_built_validated, read
from tests.test_fast_paths import random_page_lines


def read8(text: str):
    return read(text, "blocks-8")


def read9(text: str):
    return read(text, "blocks-9")


class LiquidTags(unittest.TestCase):
    """Rule U: a line of Liquid tags alone, outside a fence, is read as the Hugo markers it stands for."""

    def test_a_hint_is_an_admonition_labelled_with_its_style(self) -> None:
        # "# T\n" [0, 4); a blank line; '{% hint style="warning" %}\n' (27) [5, 32); "Mind the gap.\n" (14) [32, 46);
        # "{% endhint %}\n" (14) [46, 60); a blank line; "After.\n" [61, 68).
        text = '# T\n\n{% hint style="warning" %}\nMind the gap.\n{% endhint %}\n\nAfter.\n'
        self.assertEqual(len(text), 68)
        self.assertEqual(read9(text), [("T", 0, 4, [("admonition", 5, 60, "warning"), ("paragraph", 61, 68, "")])])
        # blocks-8: each tag line an MDX expression (its braces), the body a paragraph with the closing tag.
        self.assertEqual(
            read8(text),
            [("T", 0, 4, [("expression", 5, 32, ""), ("paragraph", 32, 60, ""), ("paragraph", 61, 68, "")])],
        )
        for style in ("danger", "info"):
            with self.subTest(style=style):
                self.assertEqual(
                    read9(text.replace("warning", style))[0][3][0], ("admonition", 5, 60 - 7 + len(style), style)
                )

    def test_tab_sets_are_layout_read_through(self) -> None:
        # "# T\n" [0, 4); a blank line; "{% tabs %}\n" (11) [5, 16); '{% tab title="Go" %}\n' (21) [16, 37); a blank
        # line; "```go\n" [38, 44); "x := 1\n" [44, 51); "```\n" [51, 55); a blank line; "{% endtab %}\n" (13) [56, 69);
        # "{% endtabs %}\n" (14) [69, 83); a blank line; "After.\n" [84, 91). The tag lines are no block.
        text = (
            '# T\n\n{% tabs %}\n{% tab title="Go" %}\n\n```go\nx := 1\n```\n\n{% endtab %}\n{% endtabs %}\n\nAfter.\n'
        )
        self.assertEqual(len(text), 91)
        self.assertEqual(read9(text), [("T", 0, 4, [("fence", 38, 55, ""), ("paragraph", 84, 91, "")])])
        self.assertEqual(
            read8(text),
            [
                (
                    "T",
                    0,
                    4,
                    [
                        ("expression", 5, 16, ""),
                        ("expression", 16, 37, ""),
                        ("fence", 38, 55, ""),
                        ("expression", 56, 69, ""),
                        ("expression", 69, 83, ""),
                        ("paragraph", 84, 91, ""),
                    ],
                )
            ],
        )

    def test_a_code_tag_is_kept_whole_and_an_embed_alone_is_no_block(self) -> None:
        # '{% code title="a.py" %}\n' (24) [5, 29); "```py\n" [29, 35); "x = 1\n" [35, 41); "```\n" [41, 45);
        # "{% endcode %}\n" (14) [45, 59); a blank line; '{% embed url="https://example.com" %}\n' (38) [60, 98);
        # a blank line; "After.\n" [99, 106).
        text = '# T\n\n{% code title="a.py" %}\n```py\nx = 1\n```\n{% endcode %}\n\n{% embed url="https://example.com" %}\n\nAfter.\n'
        self.assertEqual(len(text), 106)
        self.assertEqual(read9(text), [("T", 0, 4, [("shortcode", 5, 59, "code"), ("paragraph", 99, 106, "")])])

    def test_what_is_not_a_line_of_tags_alone_reads_as_before(self) -> None:
        # Tags shown in a fence, a tag beside text, a tag with no room to be rewritten in place ("{%x%}").
        for text in (
            '# T\n\n```md\n{% hint style="info" %}\nshown\n{% endhint %}\n```\n',
            "# T\n\nText {% tag %} here.\n",
            "# T\n\n{%x%}\n\nAfter.\n",
        ):
            with self.subTest(text=text):
                self.assertEqual(read9(text), read8(text))

    def test_jekyll_tags_alone_are_no_block(self) -> None:
        # "{% raw %}\n" (10) [5, 15); a blank line; "{{ page.title }}\n" (17) [16, 33); a blank line;
        # "{% endraw %}\n" (13) [34, 47); a blank line; "{% assign x = 1 %}\n" [48, 67): each tag line alone is no
        # block, the text between a paragraph.
        text = "# T\n\n{% raw %}\n\n{{ page.title }}\n\n{% endraw %}\n\n{% assign x = 1 %}\n"
        self.assertEqual(len(text), 67)
        self.assertEqual(read9(text), [("T", 0, 4, [("paragraph", 16, 33, "")])])
        # Nor inside a paragraph: a tag line ends the paragraph before it and starts none, as a comment line does.
        self.assertEqual(
            read9("# T\n\n{% raw %}\n{{ page.title }}\n{% endraw %}\n"), [("T", 0, 4, [("paragraph", 15, 32, "")])]
        )


class InPlace(unittest.TestCase):
    """The copy the grammar reads is the page line for line, the same length: every offset is the page's."""

    def test_the_rewriting(self) -> None:
        self.assertEqual(
            liquid_as_shortcodes('{% hint style="info" %}\nMind it.\n{% endhint %}\n'),
            '{{%hint type ="info"%}}\nMind it.\n{{% /hint %}}\n',
        )
        # A line of layout's tags is a comment of its length, its indent kept; one too short for a comment stays.
        self.assertEqual(
            liquid_as_shortcodes("{% endtabs %}\n  {%- if a -%}\n{%x%}\n"), "<!--......-->\n  <!--.....-->\n{%x%}\n"
        )

    def test_random_pages_keep_their_lengths_and_untagged_lines(self) -> None:
        rng = random.Random(9)
        pieces = [
            '{% hint style="warning" %}',
            "{% endhint %}",
            "{% tabs %}",
            "{%- endtab -%}",
            "{%x%}",
            "```",
            "a {% b %}",
        ]
        for _ in range(300):
            lines = random_page_lines(rng) + [rng.choice(pieces) for _ in range(rng.randint(0, 6))]
            rng.shuffle(lines)
            text = "\n".join(lines)
            with self.subTest(text=text):
                rewritten = liquid_as_shortcodes(text)
                self.assertEqual([len(line) for line in rewritten.split("\n")], [len(line) for line in lines])
                for before, after in zip(lines, rewritten.split("\n")):
                    if "{%" not in before:
                        self.assertEqual(after, before)
                # Every grammar reading is of offsets inside the page.
                for section in read9(text):
                    for _, start, end, _ in section[3]:
                        self.assertTrue(0 <= start < end <= len(text))


class Blocks9InTheLab(LabTestCase):
    """blocks-9 end to end: pinned, built, validated, its config named; a GitBook warning hint is one chunk."""

    def test_a_gitbook_page(self) -> None:
        page = '# T\n\nCall `f()`.\n\n{% hint style="warning" %}\nNever call it twice.\n{% endhint %}\n\n{% tabs %}\n'
        paragraph = pinned_built_validated(self, "blocks-9", page)
        texts = [chunk["text"] for chunk in paragraph["chunks"]]
        # Two paragraph chunks: the sentence, and the whole warning, tag lines and all; the lone "{% tabs %}" is none.
        self.assertEqual(texts, ["Call `f()`.\n", '{% hint style="warning" %}\nNever call it twice.\n{% endhint %}\n'])


class Mended(unittest.TestCase):
    """What a review of the first reading found: linear work, pairs as the page pairs them, fences as the grammar
    reads them, titles of the page's own text, Jekyll's highlight kept as code."""

    def test_long_lines_of_tags_are_read_in_one_pass(self) -> None:
        # A line of many tags then text, and one of many "{%" without a "%}": each read once (a pattern that could
        # split a tag in several ways took minutes on 14 tags).
        for line in ("{%- if x -%}" * 5000 + " text", "{% if page.x %}" * 5000 + " text", "{%" * 20000):
            with self.subTest(line=line[:20]):
                text = "# T\n\n" + line + "\n"
                self.assertEqual(liquid_as_shortcodes(text), text)
                read9(text)

    def test_a_hints_tags_pair_as_the_page_pairs_them(self) -> None:
        # The first hint's closing tag has text before it; the second's opening tag text after it. Neither hint is
        # a pair of lines alone, so neither is an admonition, and no closing tag reaches across the heading.
        text = (
            '# T\n\n{% hint style="info" %}\nNote. {% endhint %}\n\n## Setup\n\nRun it.\n\n'
            '{% hint style="warning" %} Careful.\n{% endhint %}\n'
        )
        self.assertEqual([title for title, _, _, _ in read9(text)], ["T", "Setup"])
        self.assertNotIn("admonition", [block[0] for section in read9(text) for block in section[3]])

    def test_a_fence_in_a_list_item_hides_its_tags(self) -> None:
        # "- ```" opens a fence in the item; the tags inside it are code, not a hint's lines.
        text = '# T\n\n- ```md\n  {% hint style="info" %}\n  shown\n  {% endhint %}\n  ```\n\nAfter.\n'
        self.assertEqual(liquid_as_shortcodes(text), text)

    def test_a_tag_line_is_in_no_heading(self) -> None:
        # A tag line over a setext underline is no heading's text: "{% endtabs %}" over "---" is a line that is no
        # block and a thematic break, as under blocks-8; a tab's tag over "Setup" and "=====" leaves "Setup" the title.
        text = "# T\n\nIntro.\n\n{% endtabs %}\n---\n\nText.\n"
        self.assertEqual([title for title, _, _, _ in read9(text)], ["T"])
        text = '# T\n\nIntro.\n\n{% tab title="Go" %}\nSetup\n=====\n\nText.\n'
        self.assertEqual([title for title, _, _, _ in read9(text)], ["T", "Setup"])

    def test_jekyll_highlight_is_code(self) -> None:
        # "{% highlight sh %}" … "{% endhighlight %}" is kept whole as Hugo's highlight: its "# install" heads nothing.
        text = "# T\n\n{% highlight sh %}\n# install it\nmake\n{% endhighlight %}\n"
        sections = read9(text)
        self.assertEqual([title for title, _, _, _ in sections], ["T"])
        self.assertEqual(sections[0][3], [("shortcode", 5, len(text), "highlight")])

    def test_a_long_tag_of_many_spaces_is_read_in_one_pass(self) -> None:
        # Content over 1,000 characters after 2,000 spaces: no tag rule U reads, found so without trying its splits.
        text = "# T\n\nSome text {%" + " " * 2000 + "x" * 1001 + "%}\n\n{%x" + " " * 100_000 + "y%}\n"
        self.assertEqual(liquid_as_shortcodes(text), text)

    def test_a_nested_fence_does_not_close_its_outer_one(self) -> None:
        # "    ```bash" inside a "```md" fence is the fence's text (rule K): the tags after it stay inside the fence.
        text = (
            '# T\n\n{% hint style="info" %}\nIntro.\n{% endhint %}\n\n```md\n1. Step\n\n    ```bash\n    cmd\n    ```\n'
            "{% endhint %}\n```\n\nMore text.\n\n## Next\n\nLast.\n"
        )
        sections = read9(text)
        self.assertEqual([title for title, _, _, _ in sections], ["T", "Next"])
        self.assertEqual([block[0] for block in sections[0][3]], ["admonition", "fence", "paragraph"])

    def test_a_pair_whose_tag_has_no_room_or_company_is_no_container(self) -> None:
        # An inner hint whose closing tag has no room is no container, and the outer warning stays whole around it.
        text = (
            '# T\n\n{% hint style="warning" %}\nOuter.\n\n{% hint style="info" %}\nInner.\n{%endhint%}\n\n'
            "More outer.\n{% endhint %}\n"
        )
        self.assertEqual(read9(text), [("T", 0, 4, [("admonition", 5, len(text), "warning")])])
        # A line of two kept tags closes the first hint and opens the second: neither pair is two lines of one tag
        # alone, so neither is a container, and the line is no block.
        text = (
            '# T\n\n{% hint style="warning" %}\nOuter.\n\n{% endhint %} {% hint style="info" %}\n\nMore outer.\n'
            "{% endhint %}\n"
        )
        self.assertEqual(
            [(kind, label) for _, _, _, blocks in read9(text) for kind, _, _, label in blocks], [("paragraph", "")] * 2
        )

    def test_names_keep_their_case(self) -> None:
        # Liquid's names are case-sensitive, as Hugo's are: "{% HINT %}" is no GitBook hint, and its lines no block.
        text = '# T\n\n{% HINT style="danger" %}\nMind it.\n{% endHINT %}\n'
        self.assertEqual(read9(text), [("T", 0, 4, [("paragraph", 31, 40, "")])])


class HugoMarkersAreNoLiquid(unittest.TestCase):
    """A page whose every "{%" opens a Hugo marker ("{{% note %}}") holds no Liquid tag: it is read as it is, and a
    Liquid tag beside Hugo markers is still rewritten."""

    def test_hugo_markers_alone(self) -> None:
        text = '# T\n\n{{% alert title="Note" %}}\nMind it.\n{{% /alert %}}\n\n{{%note%}}\n'
        self.assertEqual(liquid_as_shortcodes(text), text)

    def test_liquid_beside_hugo(self) -> None:
        text = '# T\n\n{{% alert %}}\nA.\n{{% /alert %}}\n\n{% hint style="info" %}\nMind it.\n{% endhint %}\n'
        # Only the hint's two lines change, each to a Hugo marker of its own length (rule U).
        expected = text.replace('{% hint style="info" %}', '{{%hint type ="info"%}}').replace(
            "{% endhint %}", "{{% /hint %}}"
        )
        self.assertEqual(liquid_as_shortcodes(text), expected)
