"""The block grammar, version 4 (``SPEC.md``, "The block grammar, version 4"): "blocks-3" with link definitions and
the markup of headings read. Each rule on a short text written for the test; offsets counted by hand."""

from __future__ import annotations

import json
import unittest

import grammars
from tests.support import LabTestCase, run_lab

TITLE = "Page"


def read(text: str, grammar: str = "blocks-4") -> list[tuple[str, list[tuple[str, int, int]]]]:
    """Each section's title and its blocks as (kind, start, end)."""
    return [
        (section.title, [(block.kind, block.start, block.end) for block in section.blocks])
        for section in grammars.document_sections(text, grammar, "test", TITLE)
    ]


class LinkDefinitions(unittest.TestCase):
    """Rule I: a paragraph of link reference definitions alone belongs to no block."""

    def test_a_paragraph_of_definitions_is_no_block(self) -> None:
        # "# A\n" [0, 4); "Use the fonts.\n" [4, 19) (a block ends after its last line's newline); a blank line;
        # then the definitions, 40 and 45 characters: [20, 105).
        text = (
            "# A\n"
            "Use the fonts.\n"
            "\n"
            "  [Google Fonts]: changing-the-fonts.md\n"
            '[limits]: ../privacy.md#limitations "Limits"\n'
        )
        self.assertEqual(len(text), 105)
        self.assertEqual(read(text), [("A", [("paragraph", 4, 19)])])
        # blocks-3 read the definitions as a paragraph of text.
        self.assertEqual(read(text, "blocks-3"), [("A", [("paragraph", 4, 19), ("paragraph", 20, 105)])])

    def test_a_paragraph_with_text_keeps_its_definitions(self) -> None:
        # A definition cannot interrupt a paragraph (CommonMark): with a line of text it is the paragraph's text.
        text = "# A\nSee [the fonts][f].\n[f]: fonts.md\n"
        # "See [the fonts][f].\n" is 20 characters, "[f]: fonts.md\n" 14: one paragraph [4, 38).
        self.assertEqual(read(text), [("A", [("paragraph", 4, 38)])])
        # Nor is a footnote's definition, or a line that only opens like one, a link definition.
        for body in ("[^1]: It fails on Windows.\n", "[a]: b is text, not a title.\n", "[a]:\n"):
            with self.subTest(body=body):
                self.assertEqual(read("# A\n" + body), [("A", [("paragraph", 4, 4 + len(body))])])


class ShortcodeCalls(unittest.TestCase):
    """Rule I: a paragraph of shortcode calls alone belongs to no block; one with text, or Hugo's escaped call, stays."""

    def test_calls_alone_are_no_block(self) -> None:
        # "# A\n\n" [0, 5); the call's line [5, 29); a blank line; "Text.\n" [30, 36).
        text = "# A\n\n{{< new-in 0.154.0 />}}\n\nText.\n"
        self.assertEqual(read(text), [("A", [("paragraph", 30, 36)])])
        self.assertEqual(read(text, "blocks-3"), [("A", [("paragraph", 5, 29), ("paragraph", 30, 36)])])
        body = '{{% include "a.md" %}}\n{{< img src="a.png" >}} <br>\n'
        self.assertEqual(read("# A\nText.\n\n" + body), [("A", [("paragraph", 4, 10)])])

    def test_a_section_of_calls_alone_is_skipped_and_heading_aware_spans_them_between_text(self) -> None:
        # "Text one.\n" [4, 14), the call's line [15, 35), "Text two.\n" [36, 46); "## B" holds a call alone: no
        # block, so no section (as an empty one), under every policy.
        text = "# A\nText one.\n\n{{< new-in 0.1 />}}\n\nText two.\n\n## B\n\n\t{{< youtube x >}}\n"
        self.assertEqual(read(text), [("A", [("paragraph", 4, 14), ("paragraph", 36, 46)])])

    def test_calls_beside_text_and_escaped_calls_stay(self) -> None:
        for body in ('See {{< ref "x" >}} here.\n', "{{</* note */>}}\n"):
            with self.subTest(body=body):
                self.assertEqual(read("# A\n" + body), [("A", [("paragraph", 4, 4 + len(body))])])


class HeadingMarkup(unittest.TestCase):
    """Rule J: a heading's comments and tags leave its title, as a trailing attribute list of bare names does."""

    def test_titles(self) -> None:
        cases = [
            ("## 0.1.0 <small>February 9, 2016</small>", "0.1.0 February 9, 2016"),
            ("#### <!-- md:setting config.enabled -->", "md:setting config.enabled"),
            ("## Changes to `*.html` files { data-search-exclude }", "Changes to `*.html` files"),
            ("## The `<div>` element", "The `<div>` element"),
            ("## Check { #check }", "Check"),
            ("## Set {x}", "Set {x}"),
            ("## x < y and y > z", "x < y and y > z"),
            ("## Icons <!-- md:flag experimental --> { .new }", "Icons"),
            ('## <a id="install"></a> Install', "Install"),
            # Only a tag as CommonMark writes one leaves, and nothing else of the text changes.
            ("## Map<K, V>", "Map<K, V>"),
            ("## `a<b`   x", "`a<b`   x"),
            # A heading of tags alone keeps the title blocks-3 gives it: there is no other.
            ('## <img src="logo.png">', '<img src="logo.png">'),
            # A quoted value may hold a ">", and an escaped "<" is text.
            ('## a <a title="x>y">z</a>', "a z"),
            ("## Use \\<T> here", "Use \\<T> here"),
        ]
        for heading, title in cases:
            with self.subTest(heading=heading):
                text = heading + "\nText\n"
                sections = grammars.document_sections(text, "blocks-4", "t", TITLE)
                # No offset moves: the body starts after the heading's line.
                self.assertEqual(
                    [(s.title, s.heading_start, s.body_start) for s in sections], [(title, 0, len(heading) + 1)]
                )

    def test_blocks_3_keeps_its_titles(self) -> None:
        self.assertEqual(read("## 0.1.0 <small>Feb</small>\nText\n", "blocks-3")[0][0], "0.1.0 <small>Feb</small>")


class FencesShownInFences(unittest.TestCase):
    """Rule K: a fence shown inside a fence does not end it when the page's elements are paired."""

    TEXT = "# A\n\n```md\n    ```c\n    int x;\n    ```\n```\n\n<div markdown>\n\nSome text.\n\n</div>\n\nafter\n"

    def test_a_tab_is_four_columns(self) -> None:
        # The shown fence indented by a tab (4 columns) is as deep as one indented by four spaces.
        text = self.TEXT.replace("    ```c\n    int x;\n    ```", "\t```c\n\tint x;\n\t```")
        kinds = [kind for kind, _, _ in read(text)[0][1]]
        self.assertEqual(kinds, ["fence", "html", "paragraph"])

    def test_the_element_after_it_is_kept_whole(self) -> None:
        text = self.TEXT
        fence = (text.index("```md"), text.index("```\n\n<div") + 4)
        div = (text.index("<div"), text.index("</div>") + len("</div>\n"))
        after = (text.index("after"), len(text))
        self.assertEqual(read(text), [("A", [("fence", *fence), ("html", *div), ("paragraph", *after)])])
        # blocks-3 took the shown fence's last line for the end of the outer one, and its closing line for a
        # new fence, so the element found no closing tag: its tags alone belonged to no block.
        text_only = (text.index("Some text."), text.index("Some text.") + len("Some text.\n"))
        self.assertEqual(
            read(text, "blocks-3"), [("A", [("fence", *fence), ("paragraph", *text_only), ("paragraph", *after)])]
        )


class MdxRendersNothing(unittest.TestCase):
    """Rule L: MDX's import and export lines and a comment alone are no block; an element ends before a heading."""

    def test_import_lines_and_comments_are_no_block(self) -> None:
        text = '---\ntitle: T\n---\nimport X from "./x"\nimport Y from "./y"\n\n# A\n\n{/* keep it short */}\n\nText.\n'
        body = (text.index("Text."), len(text))
        self.assertEqual(read(text), [("A", [("paragraph", *body)])])
        # An expression that is not a comment is kept, as under blocks-3.
        kept = "# A\n\n{props.name}\n\nText.\n"
        self.assertEqual(read(kept), read(kept, "blocks-3"))

    def test_only_esm_statements_leave(self) -> None:
        # In a .md page a line may open on "export" or "import" and be prose or shell: it stays, as under blocks-3.
        text = "# A\n\nSet it:\n\nexport AWS_PROFILE=prod\n\nimport this to see the Zen.\n"
        self.assertEqual(read(text), read(text, "blocks-3"))

    def test_a_hash_line_in_a_fence_after_the_closing_tag_is_no_heading(self) -> None:
        text = "# A\n\n<Tabs>\nx text\n</Tabs>\n```bash\n# install it\nnpm i\n```\n\nAfter.\n"
        element = (text.index("<Tabs>"), text.index("```\n\nAfter") + len("```\n"))
        self.assertEqual(read(text), [("A", [("html", *element), ("paragraph", text.index("After."), len(text))])])

    def test_an_element_of_tags_alone_cut_at_a_heading_is_no_block(self) -> None:
        text = "# A\n\n<Tabs>\n<TabItem>\n</TabItem>\n</Tabs>\n## Second\n\nBody.\n"
        self.assertEqual(read(text), [("Second", [("paragraph", text.index("Body."), len(text))])])

    def test_an_element_ends_before_a_heading_after_its_closing_tag(self) -> None:
        text = "# A\n\n<Tabs>\n<TabItem>\nx\n</TabItem>\n</Tabs>\n## Second\n\nSecond body.\n"
        element = (text.index("<Tabs>"), text.index("## Second"))
        body = (text.index("Second body."), len(text))
        self.assertEqual(read(text), [("A", [("html", *element)]), ("Second", [("paragraph", *body)])])
        # blocks-3 ran the element on to the blank line, heading included: no section "Second".
        self.assertEqual([title for title, _ in read(text, "blocks-3")], ["A"])


class Blocks4InTheLab(LabTestCase):
    """blocks-4 end to end: pinned, built, its config named, and its ids apart from blocks-3's."""

    def test_pin_and_build(self) -> None:
        docs = self.folder / "docs"
        docs.mkdir()
        (docs / "a.md").write_text(
            "# A <small>new</small>\n\nUse it.\n\n  [x]: https://example.org\n", encoding="utf-8"
        )
        pinned = run_lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs", cwd=self.folder)
        self.assertEqual(pinned.returncode, 0, pinned.stderr)
        self.assertEqual(json.loads((self.folder / "m.json").read_text(encoding="utf-8"))["markdown"], "blocks-4")
        built = run_lab("--manifest", "m.json", "--output", "r.json", cwd=self.folder)
        self.assertEqual(built.returncode, 0, built.stderr)
        result = json.loads((self.folder / "r.json").read_text(encoding="utf-8"))
        paragraph = result["indexes"]["paragraph"]
        self.assertEqual(
            paragraph["config"], {"strategy": "paragraph", "version": 1, "max_chars": None, "markdown": "blocks-4"}
        )
        # "# A <small>new</small>\n" is 23 characters, then a blank line: one chunk, "Use it.\n" [24, 32), titled
        # without the tag; the definitions are in none.
        self.assertEqual([(c["start"], c["end"], c["section_title"]) for c in paragraph["chunks"]], [(24, 32, "A new")])
        validated = run_lab("validate", "r.json", "--manifest", "m.json", cwd=self.folder)
        self.assertEqual(validated.returncode, 0, validated.stderr)


if __name__ == "__main__":
    unittest.main()
