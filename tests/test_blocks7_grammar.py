"""The block grammar, version 7 (``SPEC.md``, "The block grammar, version 7"): "blocks-6" with a Hugo shortcode around
a heading read through, and a paragraph of blank space no block. Each rule on a short text written for the test;
offsets counted by hand, and "blocks-6" read on the same text to show it unchanged there."""

from __future__ import annotations

import random
import unittest

from grammars.shortcodes import shortcode_pairs
from grammars.version7 import markdown_body, without_code_bodies
from tests.support import LabTestCase
from tests.test_blocks6_grammar import TITLE, pinned_built_validated, read


def read7(text: str):
    return read(text, "blocks-7")


class ShortcodesAroundHeadings(unittest.TestCase):
    """Rule Q: a shortcode whose body is Markdown, with a heading line inside, is not kept whole."""

    def test_tabs_around_headings(self) -> None:
        # "# Install\n" [0, 10); a blank line; "Pick one.\n" [11, 21); a blank line; "{{< tabs >}}\n" (13) [22, 35);
        # '{{% tab "pip" %}}\n' (18) [35, 53); a blank line; "### pip\n" [54, 62); a blank line;
        # "Run `pip install x`.\n" (21) [63, 84); a blank line; "{{% /tab %}}\n" (13) [85, 98);
        # '{{% tab "uv" %}}\n' (17) [98, 115); a blank line; "### uv\n" [116, 123); a blank line;
        # "Run `uv add x`.\n" (16) [124, 140); a blank line; "{{% /tab %}}\n" [141, 154); "{{< /tabs >}}\n" (14)
        # [154, 168).
        text = (
            '# Install\n\nPick one.\n\n{{< tabs >}}\n{{% tab "pip" %}}\n\n### pip\n\nRun `pip install x`.\n\n'
            '{{% /tab %}}\n{{% tab "uv" %}}\n\n### uv\n\nRun `uv add x`.\n\n{{% /tab %}}\n{{< /tabs >}}\n'
        )
        self.assertEqual(len(text), 168)
        # Every marker line is no block; each tab's heading opens its section.
        self.assertEqual(
            read7(text),
            [
                ("Install", 0, 10, [("paragraph", 11, 21, "")]),
                ("pip", 54, 62, [("paragraph", 63, 84, "")]),
                ("uv", 116, 123, [("paragraph", 124, 140, "")]),
            ],
        )
        # blocks-6: one shortcode block [22, 168) labelled "tabs", and neither heading opens a section.
        self.assertEqual(read(text), [("Install", 0, 10, [("paragraph", 11, 21, ""), ("shortcode", 22, 168, "tabs")])])

    def test_marker_lines_end_a_paragraph(self) -> None:
        # "Intro.\n" [0, 7); "{{< steps >}}\n" (14) [7, 21) ends it; "## One\n" [21, 28); "Do it.\n" [28, 35), ended by
        # "{{< /steps >}}\n" (15) [35, 50).
        text = "Intro.\n{{< steps >}}\n## One\nDo it.\n{{< /steps >}}\n"
        self.assertEqual(len(text), 50)
        self.assertEqual(
            read7(text), [(TITLE, 0, 0, [("paragraph", 0, 7, "")]), ("One", 21, 28, [("paragraph", 28, 35, "")])]
        )
        self.assertEqual(read(text), [(TITLE, 0, 0, [("paragraph", 0, 7, ""), ("shortcode", 7, 50, "steps")])])

    def test_marker_lines_end_an_html_block(self) -> None:
        # "{{< tabs >}}\n" [0, 13); "## A\n" [13, 18); "<p>See the table.</p>\n" (22) [18, 40), an HTML block that runs
        # on to a blank line; "{{< /tabs >}}\n" (14) [40, 54) ends it; "After.\n" [54, 61).
        text = "{{< tabs >}}\n## A\n<p>See the table.</p>\n{{< /tabs >}}\nAfter.\n"
        self.assertEqual(len(text), 61)
        self.assertEqual(read7(text), [("A", 13, 18, [("html", 18, 40, "p"), ("paragraph", 54, 61, "")])])
        self.assertEqual(read(text), [(TITLE, 0, 0, [("shortcode", 0, 54, "tabs"), ("paragraph", 54, 61, "")])])
        # "{{% tab %}}\n" (12) [0, 12); '<div class="x">\n' (16) [12, 28); a blank line; "## A\n" [29, 34); a blank
        # line; "text\n" [35, 40); a blank line; "</div>\n" [41, 48), tags alone up to "{{% /tab %}}\n" (13) [48, 61):
        # no block; a blank line; "After.\n" [62, 69).
        text = '{{% tab %}}\n<div class="x">\n\n## A\n\ntext\n\n</div>\n{{% /tab %}}\n\nAfter.\n'
        self.assertEqual(len(text), 69)
        self.assertEqual(read7(text), [("A", 29, 34, [("paragraph", 35, 40, ""), ("paragraph", 62, 69, "")])])
        self.assertEqual(read(text), [(TITLE, 0, 0, [("shortcode", 0, 61, "tab"), ("paragraph", 62, 69, "")])])

    def test_a_comment_runs_on_to_its_end(self) -> None:
        # "{{% tab %}}\n" [0, 12); "## A\n" [12, 17); "<!--\n" [17, 22) opens a comment that runs on through
        # "{{% /tab %}}\n" (13) [22, 35) to "-->\n" [35, 39): no block, and no "-->" left as text; "Text.\n" [39, 45).
        text = "{{% tab %}}\n## A\n<!--\n{{% /tab %}}\n-->\nText.\n"
        self.assertEqual(len(text), 45)
        self.assertEqual(read7(text), [("A", 12, 17, [("paragraph", 39, 45, "")])])
        self.assertEqual(read(text), [(TITLE, 0, 0, [("shortcode", 0, 35, "tab"), ("paragraph", 35, 45, "")])])

    def test_marker_lines_read_as_blank_lines_for_headings(self) -> None:
        # "{{< tabs >}}\n" [0, 13); "Title\n" [13, 19) and "-----\n" [19, 25), a setext heading right under the marker
        # line; "text\n" [25, 30); "{{< /tabs >}}\n" [30, 44).
        text = "{{< tabs >}}\nTitle\n-----\ntext\n{{< /tabs >}}\n"
        self.assertEqual(len(text), 44)
        self.assertEqual(read7(text), [("Title", 13, 25, [("paragraph", 25, 30, "")])])
        self.assertEqual(read(text), [(TITLE, 0, 0, [("shortcode", 0, 44, "tabs")])])
        # "{{% tab %}}\n" (12) [0, 12); "## A\n" [12, 17); '<img src="a.png">\n' (18) [17, 35), tags alone;
        # "{{% /tab %}}\n" (13) [35, 48); "{{% tab %}}\n" [48, 60); "## B\n" [60, 65); "Text.\n" [65, 71);
        # "{{% /tab %}}\n" [71, 84). "## B" is no line of the image's HTML block: the second tab is headed too, and
        # section "A", of the image alone, holds no block.
        text = '{{% tab %}}\n## A\n<img src="a.png">\n{{% /tab %}}\n{{% tab %}}\n## B\nText.\n{{% /tab %}}\n'
        self.assertEqual(len(text), 84)
        self.assertEqual(read7(text), [("B", 60, 65, [("paragraph", 65, 71, "")])])
        self.assertEqual(read(text), [(TITLE, 0, 0, [("shortcode", 0, 48, "tab"), ("shortcode", 48, 84, "tab")])])
        # "{{< tabs >}}\n" [0, 13); a blank line; "{{% tab %}}\n" [14, 26); a blank line; "text\n" [27, 32);
        # "{{% /tab %}}\n" [32, 45) ends the paragraph, so "---\n" [45, 49) is a break, not an underline: no heading in
        # the tabs, kept whole; "{{< /tabs >}}\n" [49, 63).
        text = "{{< tabs >}}\n\n{{% tab %}}\n\ntext\n{{% /tab %}}\n---\n{{< /tabs >}}\n"
        self.assertEqual(len(text), 63)
        self.assertEqual(read7(text), [(TITLE, 0, 0, [("shortcode", 0, 63, "tabs")])])
        self.assertEqual(read(text), [(TITLE, 0, 0, [("shortcode", 0, 63, "tabs")])])

    def test_any_percent_shortcode_has_a_markdown_body(self) -> None:
        # "{{% foo %}}\n" (12) [0, 12); "## A\n" [12, 17); "Text.\n" [17, 23); "{{% /foo %}}\n" (13) [23, 36). Hugo
        # renders a {{% %}} body as Markdown, whatever the shortcode's name; a {{< foo >}} of a name it does not know
        # is a template of its own, kept whole.
        text = "{{% foo %}}\n## A\nText.\n{{% /foo %}}\n"
        self.assertEqual(len(text), 36)
        self.assertEqual(read7(text), [("A", 12, 17, [("paragraph", 17, 23, "")])])
        angle = "{{< foo >}}\n## A\nText.\n{{< /foo >}}\n"
        self.assertEqual(read7(angle), [(TITLE, 0, 0, [("shortcode", 0, 36, "foo")])])

    def test_nested_shortcodes_are_judged_each_on_its_own(self) -> None:
        # "{{< tabs >}}\n" [0, 13); '{{% tab "a" %}}\n' (16) [13, 29); a blank line; "### A\n" [30, 36); a blank line;
        # "Use a.\n" [37, 44); a blank line; "{{% /tab %}}\n" [45, 58); '{{% tab "b" %}}\n' [58, 74); a blank line;
        # "Use b.\n" [75, 82); a blank line; "{{% /tab %}}\n" [83, 96); "{{< /tabs >}}\n" [96, 110).
        text = (
            '{{< tabs >}}\n{{% tab "a" %}}\n\n### A\n\nUse a.\n\n{{% /tab %}}\n{{% tab "b" %}}\n\nUse b.\n\n'
            "{{% /tab %}}\n{{< /tabs >}}\n"
        )
        self.assertEqual(len(text), 110)
        # Tab "b" holds no heading: kept whole, [58, 96), in the section "A" opened inside tab "a".
        self.assertEqual(read7(text), [("A", 30, 36, [("paragraph", 37, 44, ""), ("shortcode", 58, 96, "tab")])])
        self.assertEqual(read(text), [(TITLE, 0, 0, [("shortcode", 0, 110, "tabs")])])


class ShortcodesKeptWhole(unittest.TestCase):
    """Rule Q: every other paired shortcode is kept whole, as under "blocks-6"."""

    def assert_as_blocks6(self, text: str, expected) -> None:
        self.assertEqual(read7(text), expected)
        self.assertEqual(read(text), expected)

    def test_a_callout_around_a_heading(self) -> None:
        # "{{% warning %}}\n" (16) [0, 16); "## Careful\n" [16, 27); "It never retries.\n" [27, 45);
        # "{{% /warning %}}\n" (17) [45, 62): a theme draws one callout.
        text = "{{% warning %}}\n## Careful\nIt never retries.\n{{% /warning %}}\n"
        self.assertEqual(len(text), 62)
        self.assert_as_blocks6(text, [(TITLE, 0, 0, [("admonition", 0, 62, "warning")])])

    def test_code_heads_nothing(self) -> None:
        # "{{< highlight sh >}}\n" (21) [0, 21); "# not a heading\n" (16) [21, 37); "{{< /highlight >}}\n" (19) [37, 56).
        text = "{{< highlight sh >}}\n# not a heading\n{{< /highlight >}}\n"
        self.assertEqual(len(text), 56)
        self.assert_as_blocks6(text, [(TITLE, 0, 0, [("shortcode", 0, 56, "highlight")])])
        # Inside tabs, a code shortcode's "# c" and a fence's "# install" make no heading line of the tabs either:
        # "{{< tabs >}}\n" [0, 13), "{{< highlight sh >}}\n" [13, 34), "# c\n" [34, 38), "{{< /highlight >}}\n"
        # [38, 57), "{{< /tabs >}}\n" [57, 71).
        text = "{{< tabs >}}\n{{< highlight sh >}}\n# c\n{{< /highlight >}}\n{{< /tabs >}}\n"
        self.assertEqual(len(text), 71)
        self.assert_as_blocks6(text, [(TITLE, 0, 0, [("shortcode", 0, 71, "tabs")])])
        # "{{< tabs >}}\n" [0, 13), "```sh\n" [13, 19), "# install\n" [19, 29), "```\n" [29, 33), "{{< /tabs >}}\n"
        # [33, 47).
        text = "{{< tabs >}}\n```sh\n# install\n```\n{{< /tabs >}}\n"
        self.assertEqual(len(text), 47)
        self.assert_as_blocks6(text, [(TITLE, 0, 0, [("shortcode", 0, 47, "tabs")])])

    def test_a_marker_with_text_after_it(self) -> None:
        # "{{< tabs >}} Pick one.\n" (23) [0, 23); a blank line; "## A\n" [24, 29); a blank line; "Use a.\n" [30, 37);
        # a blank line; "{{< /tabs >}}\n" [38, 52): the opening marker is not alone on its line.
        text = "{{< tabs >}} Pick one.\n\n## A\n\nUse a.\n\n{{< /tabs >}}\n"
        self.assertEqual(len(text), 52)
        self.assert_as_blocks6(text, [(TITLE, 0, 0, [("shortcode", 0, 52, "tabs")])])

    def test_no_heading_inside(self) -> None:
        # "{{< tabs >}}\n" [0, 13); "Use a.\n" [13, 20); "{{< /tabs >}}\n" [20, 34); a blank line; "After.\n" [35, 42).
        text = "{{< tabs >}}\nUse a.\n{{< /tabs >}}\n\nAfter.\n"
        self.assertEqual(len(text), 42)
        self.assert_as_blocks6(text, [(TITLE, 0, 0, [("shortcode", 0, 34, "tabs"), ("paragraph", 35, 42, "")])])

    def test_markdown_body(self) -> None:
        for line, expected in (
            ("{{% codetab %}}", True),
            ('{{< tabs "Python" "Go" >}}', True),
            ("  {{< details >}}  ", True),
            ("{{% warning %}}", False),
            ('{{< alert color="warning" >}}', False),
            ("{{< highlight go >}}", False),
            ("{{% code %}}", False),
            ('{{< figure src="a.png" >}}', False),
            ("{{< tabs >}} text", False),
            ("{{< /tabs >}}", False),
            ("    {{< tabs >}}", False),
        ):
            with self.subTest(line=line):
                self.assertEqual(markdown_body(line), expected)


class CodeBodies(unittest.TestCase):
    """Rule Q: a line strictly inside a code shortcode's pair is never a heading line, however the pairs nest."""

    def test_nested_code_shortcodes(self) -> None:
        # Lines: 0 "{{< tabs >}}", 1 "{{< code >}}", 2 "{{< highlight >}}", 3 "# a", 4 "{{< /highlight >}}",
        # 5 "# b", 6 "{{< /code >}}", 7 "## H", 8 "{{< /tabs >}}": lines 2 to 5 are inside the code pair (1, 6), 3 inside
        # the highlight pair (2, 4) too; "## H" is outside both.
        texts = [
            "{{< tabs >}}",
            "{{< code >}}",
            "{{< highlight >}}",
            "# a",
            "{{< /highlight >}}",
            "# b",
            "{{< /code >}}",
            "## H",
            "{{< /tabs >}}",
        ]
        pairs = {2: 4, 1: 6, 0: 8}
        self.assertEqual(
            without_code_bodies(texts, pairs),
            ["{{< tabs >}}", "{{< code >}}", "", "", "", "", "{{< /code >}}", "## H", "{{< /tabs >}}"],
        )

    def test_random_nestings_equal_the_definition(self) -> None:
        # The definition: line i is blank when some code pair (o, c) has o < i < c; every other line is as it was.
        pieces = ("{{< code >}}", "{{< /code >}}", "{{% highlight sh %}}", "{{% /highlight %}}", "{{< tabs >}}")
        pieces += ("{{< /tabs >}}", "# c", "text", "{{< code >}}x{{< /code >}}")
        rng = random.Random(7)
        for _ in range(300):
            texts = [rng.choice(pieces) for _ in range(rng.randint(0, 14))]
            pairs = shortcode_pairs(texts)
            code = [(o, c) for o, c in pairs.items() if "code" in texts[o] or "highlight" in texts[o]]
            expected = ["" if any(o < i < c for o, c in code) else text for i, text in enumerate(texts)]
            with self.subTest(texts=texts):
                self.assertEqual(without_code_bodies(texts, pairs), expected)


class BlankSpaceParagraphs(unittest.TestCase):
    """Rule R: a paragraph of character references for blank space, tags and comments alone is no block."""

    def test_a_spacer_is_no_block(self) -> None:
        # "# T\n" [0, 4); a blank line; "&nbsp;\n" [5, 12); a blank line; "Text.\n" [13, 19).
        text = "# T\n\n&nbsp;\n\nText.\n"
        self.assertEqual(len(text), 19)
        self.assertEqual(read7(text), [("T", 0, 4, [("paragraph", 13, 19, "")])])
        self.assertEqual(read(text), [("T", 0, 4, [("paragraph", 5, 12, ""), ("paragraph", 13, 19, "")])])
        # "&nbsp;&#160;\n" (13) [5, 18) and "<br>\n" [18, 23) are one paragraph of blank space and a tag; then "Text.\n"
        # [24, 30).
        text = "# T\n\n&nbsp;&#160;\n<br>\n\nText.\n"
        self.assertEqual(len(text), 30)
        self.assertEqual(read7(text), [("T", 0, 4, [("paragraph", 24, 30, "")])])
        # A section of nothing else holds no block: it is no section.
        self.assertEqual(read7("# T\n\n&emsp;\n"), [])

    def test_text_beside_a_reference_is_text(self) -> None:
        # "A&nbsp;B\n" [5, 14) is text; "&amp;\n" [15, 21) shows an ampersand; "&NBSP;\n" [22, 29) is no reference HTML
        # knows (names are case-sensitive), so it shows as written.
        text = "# T\n\nA&nbsp;B\n\n&amp;\n\n&NBSP;\n"
        self.assertEqual(len(text), 29)
        expected = [("T", 0, 4, [("paragraph", 5, 14, ""), ("paragraph", 15, 21, ""), ("paragraph", 22, 29, "")])]
        self.assertEqual(read7(text), expected)
        self.assertEqual(read(text), expected)

    def test_references_of_blank_space(self) -> None:
        for reference in (
            "&nbsp;",
            "&ensp;",
            "&emsp;",
            "&thinsp;",
            "&ZeroWidthSpace;",
            "&#160;",
            "&#0160;",
            "&#xA0;",
            "&#xa0;",
            "&#8194;",
            "&#8195;",
            "&#8201;",
            "&#8203;",
            "&#x200B;",
            "&#X2009;",
        ):
            # "# T\n\n" [0, 5), the reference and its line's end, a blank line, then "Text.\n" (6).
            with self.subTest(reference=reference):
                self.assertEqual(
                    read7(f"# T\n\n{reference}\n\nText.\n")[0][3],
                    [("paragraph", 7 + len(reference), 13 + len(reference), "")],
                )


class Blocks7InTheLab(LabTestCase):
    """blocks-7 end to end: pinned, built, its config named, a heading inside tabs its own section."""

    def test_pin_and_build(self) -> None:
        # "{{< tabs >}}\n" [0, 13); a blank line; "## Setup\n" [14, 23); a blank line; "Run it.\n" [24, 32); a blank
        # line; "{{< /tabs >}}\n" [33, 47).
        paragraph = pinned_built_validated(self, "blocks-7", "{{< tabs >}}\n\n## Setup\n\nRun it.\n\n{{< /tabs >}}\n")
        # One chunk, "Run it.\n" alone: the marker lines are no block (under blocks-6, one chunk [0, 47)).
        self.assertEqual([(c["start"], c["end"]) for c in paragraph["chunks"]], [(24, 32)])
