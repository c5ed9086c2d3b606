"""The block grammar, version 6 (``SPEC.md``, "The block grammar, version 6"): "blocks-5" with an element around a
heading read through. Each rule on a short text written for the test; offsets counted by hand, and "blocks-5" read
on the same text to show it unchanged."""

from __future__ import annotations

import json
import unittest

import grammars
from grammars.version6 import headed_pairs, heading_lines
from tests.support import LabTestCase
from tests.test_caveat_scan import main_quietly

TITLE = "Page"


def read(text: str, grammar: str = "blocks-6") -> list[tuple[str, int, int, list[tuple[str, int, int, str]]]]:
    """Each section's title, heading offset and body start, and its blocks as (kind, start, end, label)."""
    return [
        (
            section.title,
            section.heading_start,
            section.body_start,
            [(block.kind, block.start, block.end, block.label) for block in section.blocks],
        )
        for section in grammars.document_sections(text, grammar, "test", TITLE)
    ]


class ElementsAroundHeadings(unittest.TestCase):
    """Rule P: an element with a heading line inside is not kept whole; its headings open sections."""

    def test_details_around_a_heading(self) -> None:
        # "# T\n" [0, 4); a blank line; "Intro.\n" [5, 12); a blank line; "<details>\n" [13, 23);
        # "<summary>More</summary>\n" (9 + 4 + 10 + 1) [23, 47); a blank line; "## Inner heading\n" (17) [48, 65);
        # a blank line; "Call `f()`.\n" (12) [66, 78); a blank line; "It never retries.\n" (18) [79, 97); a blank
        # line; "</details>\n" (11) [98, 109); a blank line; "## After\n" [110, 119); a blank line; "Text.\n" [120, 126).
        text = (
            "# T\n\nIntro.\n\n<details>\n<summary>More</summary>\n\n## Inner heading\n\nCall `f()`.\n\n"
            "It never retries.\n\n</details>\n\n## After\n\nText.\n"
        )
        self.assertEqual(len(text), 126)
        # The opening lines are an HTML block that holds the summary's text; "</details>" is tags alone, no block.
        self.assertEqual(
            read(text),
            [
                ("T", 0, 4, [("paragraph", 5, 12, ""), ("html", 13, 47, "details")]),
                ("Inner heading", 48, 65, [("paragraph", 66, 78, ""), ("paragraph", 79, 97, "")]),
                ("After", 110, 119, [("paragraph", 120, 126, "")]),
            ],
        )
        # blocks-5: one html block [13, 109) through "</details>", and "Inner heading" opens no section.
        self.assertEqual(
            read(text, "blocks-5"),
            [
                ("T", 0, 4, [("paragraph", 5, 12, ""), ("html", 13, 109, "details")]),
                ("After", 110, 119, [("paragraph", 120, 126, "")]),
            ],
        )

    def test_mdx_tabs_around_headings(self) -> None:
        # "# Install\n" [0, 10); a blank line; "Pick one.\n" [11, 21); a blank line; "<Tabs>\n" [22, 29);
        # '<TabItem label="npm">\n' (22) [29, 51); a blank line; "### npm\n" [52, 60); a blank line;
        # "Run `npm i x`.\n" (15) [61, 76); a blank line; "</TabItem>\n" (11) [77, 88); '<TabItem label="pnpm">\n'
        # (23) [88, 111); a blank line; "### pnpm\n" [112, 121); a blank line; "Run `pnpm add x`.\n" (18) [122, 140);
        # a blank line; "</TabItem>\n" [141, 152); "</Tabs>\n" [152, 160).
        text = (
            '# Install\n\nPick one.\n\n<Tabs>\n<TabItem label="npm">\n\n### npm\n\nRun `npm i x`.\n\n</TabItem>\n'
            '<TabItem label="pnpm">\n\n### pnpm\n\nRun `pnpm add x`.\n\n</TabItem>\n</Tabs>\n'
        )
        self.assertEqual(len(text), 160)
        self.assertEqual(
            read(text),
            [
                ("Install", 0, 10, [("paragraph", 11, 21, "")]),
                ("npm", 52, 60, [("paragraph", 61, 76, "")]),
                ("pnpm", 112, 121, [("paragraph", 122, 140, "")]),
            ],
        )
        self.assertEqual(
            read(text, "blocks-5"), [("Install", 0, 10, [("paragraph", 11, 21, ""), ("html", 22, 160, "tabs")])]
        )

    def test_tag_lines_end_before_a_heading_and_end_a_paragraph(self) -> None:
        # "<Steps>\n" [0, 8) alone, no block; "### One\n" [8, 16); "Do it.\n" [16, 23), ended by "</Steps>\n" [23, 32),
        # which is tags alone. The section before "One" holds nothing: no section.
        text = "<Steps>\n### One\nDo it.\n</Steps>\n"
        self.assertEqual(len(text), 32)
        self.assertEqual(read(text), [("One", 8, 16, [("paragraph", 16, 23, "")])])
        self.assertEqual(read(text, "blocks-5"), [(TITLE, 0, 0, [("html", 0, 32, "steps")])])

    def test_a_jsx_opening_tag_with_an_expression_is_a_tag_line(self) -> None:
        # "<Tabs syncKey={pm}>\n" (20) [0, 20); a blank line; "## A\n" [21, 26); a blank line; "Use a.\n" [27, 34);
        # a blank line; "</Tabs>\n" [35, 43).
        text = "<Tabs syncKey={pm}>\n\n## A\n\nUse a.\n\n</Tabs>\n"
        self.assertEqual(len(text), 43)
        self.assertEqual(read(text), [("A", 21, 26, [("paragraph", 27, 34, "")])])
        self.assertEqual(read(text, "blocks-5"), [(TITLE, 0, 0, [("html", 0, 43, "tabs")])])

    def test_a_setext_heading_inside_counts(self) -> None:
        # "<div>\n" [0, 6); a blank line; "Title\n" [7, 13); "-----\n" [13, 19); a blank line; "Text\n" [20, 25);
        # a blank line; "</div>\n" [26, 33).
        text = "<div>\n\nTitle\n-----\n\nText\n\n</div>\n"
        self.assertEqual(len(text), 33)
        self.assertEqual(read(text), [("Title", 7, 19, [("paragraph", 20, 25, "")])])
        self.assertEqual(read(text, "blocks-5"), [(TITLE, 0, 0, [("html", 0, 33, "div")])])

    def test_an_opening_line_with_text(self) -> None:
        # '<div class="note">Read this first.\n' (18 + 16 + 1) [0, 35): condition 6, an HTML block of its own that
        # holds text; a blank line; "## Part\n" [36, 44); a blank line; "Body.\n" [45, 51); a blank line;
        # "</div>\n" [52, 59).
        text = '<div class="note">Read this first.\n\n## Part\n\nBody.\n\n</div>\n'
        self.assertEqual(len(text), 59)
        self.assertEqual(
            read(text), [(TITLE, 0, 0, [("html", 0, 35, "div")]), ("Part", 36, 44, [("paragraph", 45, 51, "")])]
        )
        self.assertEqual(read(text, "blocks-5"), [(TITLE, 0, 0, [("html", 0, 59, "div")])])
        # A JSX tag with text after it and no CommonMark start was never kept whole: "<Note>Read this.\n" (6 + 10 + 1)
        # [0, 17) is a paragraph under both grammars; a blank line; "## Part\n" [18, 26); a blank line; "Body.\n"
        # [27, 33); a blank line; "</Note>\n" [34, 42), tags alone.
        text = "<Note>Read this.\n\n## Part\n\nBody.\n\n</Note>\n"
        self.assertEqual(len(text), 42)
        expected = [(TITLE, 0, 0, [("paragraph", 0, 17, "")]), ("Part", 18, 26, [("paragraph", 27, 33, "")])]
        self.assertEqual(read(text), expected)
        self.assertEqual(read(text, "blocks-5"), expected)


class ElementsKeptWhole(unittest.TestCase):
    """Rule P: an element without a heading line inside is kept whole, as under "blocks-5"."""

    def test_no_heading_inside(self) -> None:
        # "<div>\n" [0, 6); a blank line; "Text\n" [7, 12); a blank line; "</div>\n" [13, 20); a blank line;
        # "After\n" [21, 27): rule E's own example.
        text = "<div>\n\nText\n\n</div>\n\nAfter\n"
        expected = [(TITLE, 0, 0, [("html", 0, 20, "div"), ("paragraph", 21, 27, "")])]
        self.assertEqual(read(text), expected)
        self.assertEqual(read(text, "blocks-5"), expected)

    def test_heading_like_lines_in_code_comments_and_breaks(self) -> None:
        # "<details>\n" [0, 10); a blank line; "```sh\n" [11, 17); "# install it\n" (13) [17, 30);
        # "pip install x\n" (14) [30, 44); "```\n" [44, 48); a blank line; "</details>\n" (11) [49, 60).
        text = "<details>\n\n```sh\n# install it\npip install x\n```\n\n</details>\n"
        self.assertEqual(len(text), 60)
        expected = [(TITLE, 0, 0, [("html", 0, 60, "details")])]
        self.assertEqual(read(text), expected)
        self.assertEqual(read(text, "blocks-5"), expected)
        # A comment's "# line", "    # indented code", and "---" under a tag line (no setext underline: CommonMark's
        # HTML block runs on to the blank line) head nothing either.
        for inside in (
            "<!--\n# not a heading\n-->\n",
            "    # code\n",
            "<p>\nText\n---\n</p>\n",
            "<pre>\n# x\n</pre>\n",
        ):
            with self.subTest(inside=inside):
                text = "<div>\n\nText.\n" + inside + "\n</div>\n"
                self.assertEqual(read(text), [(TITLE, 0, 0, [("html", 0, len(text), "div")])])

    def test_a_hash_line_after_text_in_an_html_block(self) -> None:
        # "<details>\n" [0, 10); "<summary>More</summary>\n" [10, 34); "## Inner\n" [34, 43); a blank line;
        # "Text.\n" [44, 50); a blank line; "</details>\n" [51, 62). CommonMark's HTML block holds the summary's
        # text when "## Inner" comes, so that line is raw HTML, as GitHub shows it: the element is kept whole.
        text = "<details>\n<summary>More</summary>\n## Inner\n\nText.\n\n</details>\n"
        self.assertEqual(len(text), 62)
        expected = [(TITLE, 0, 0, [("html", 0, 62, "details")])]
        self.assertEqual(read(text), expected)
        self.assertEqual(read(text, "blocks-5"), expected)

    def test_nested_elements_are_judged_each_on_its_own(self) -> None:
        # "<Tabs>\n" [0, 7); '<TabItem label="a">\n' (20) [7, 27); a blank line; "### A\n" [28, 34); a blank line;
        # "Use a.\n" [35, 42); a blank line; "</TabItem>\n" [43, 54); '<TabItem label="b">\n' [54, 74); a blank line;
        # "Use b.\n" [75, 82); a blank line; "</TabItem>\n" [83, 94); "</Tabs>\n" [94, 102).
        text = (
            '<Tabs>\n<TabItem label="a">\n\n### A\n\nUse a.\n\n</TabItem>\n<TabItem label="b">\n\nUse b.\n\n'
            "</TabItem>\n</Tabs>\n"
        )
        self.assertEqual(len(text), 102)
        # Tab "b" holds no heading: kept whole, its closing line's tail ending before "</Tabs>", a headed element's.
        self.assertEqual(read(text), [("A", 28, 34, [("paragraph", 35, 42, ""), ("html", 54, 94, "tabitem")])])
        self.assertEqual(read(text, "blocks-5"), [(TITLE, 0, 0, [("html", 0, 102, "tabs")])])
        # The pairs: lines 1 to 7 and 8 to 12 are the tabs, 0 to 13 the whole; a heading inside the first is inside
        # the outer one too.
        lines = text.splitlines()
        self.assertEqual(headed_pairs(lines, {1: 7, 8: 12, 0: 13}), {1: 7, 0: 13})


class HeadingLines(unittest.TestCase):
    """What counts as a heading line inside an element (``heading_lines``)."""

    def test_heading_lines(self) -> None:
        cases = [
            (["## A", "text", "   # B", "    # code"], [0, 2]),
            # A setext underline under plain text; "---" after a blank line or a list item is a break, not one.
            (["Title", "===", "", "---", "- item", "---", "Two", "lines", "---"], [1, 8]),
            # Fences at any indent, closed at most 3 columns deeper; comments and raw blocks from a line's start.
            (["  ```", "# a", "      ```", "# b", "  ```", "# c"], [5]),
            (["<!-- x", "# a", "-->", "# b", "<script>", "# c", "</script>", "# d"], [3, 7]),
            # Under tags and comments alone a "#" line is a heading, as MDX reads it; once CommonMark's HTML block
            # holds text, it is that block's, on to the blank line (a "# comment<br />" in a table's cell).
            (["<Box>", "<!-- c -->", "## Checklist", "<div>Text", "## Not"], [2]),
            (["<table>", "<tr><td>Run it:<br />", "# a comment<br />", "</td></tr>", "</table>", "", "# H"], [6]),
            # A run opened by an HTML block's line, a brace, a component or a container is no paragraph: its "---"
            # underlines nothing. Inline HTML opens a paragraph, as CommonMark reads "<span>a</span>".
            (
                [
                    "<div>",
                    "---",
                    "",
                    "{x}",
                    "---",
                    "",
                    "::note",
                    "---",
                    "",
                    ":::note",
                    "---",
                    "",
                    "<span>a</span>",
                    "---",
                ],
                [13],
            ),
        ]
        for texts, expected in cases:
            with self.subTest(texts=texts):
                self.assertEqual(heading_lines(texts), expected)


def pinned_built_validated(test: LabTestCase, grammar: str, page: str) -> dict:
    """``page`` pinned as ``docs/a.md`` under ``grammar``, built and validated in-process as a user's three commands;
    the built paragraph index, after checking the manifest and the config name the grammar."""
    docs = test.folder / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(page, encoding="utf-8")
    manifest, result = test.folder / "m.json", test.folder / "r.json"
    code, _, err = main_quietly("pin", "--markdown", grammar, "--manifest", str(manifest), str(docs))
    test.assertEqual(code, 0, err)
    test.assertEqual(json.loads(manifest.read_text(encoding="utf-8"))["markdown"], grammar)
    code, _, err = main_quietly("--manifest", str(manifest), "--output", str(result))
    test.assertEqual(code, 0, err)
    paragraph = json.loads(result.read_text(encoding="utf-8"))["indexes"]["paragraph"]
    test.assertEqual(
        paragraph["config"], {"strategy": "paragraph", "version": 1, "max_chars": None, "markdown": grammar}
    )
    code, _, err = main_quietly("validate", str(result), "--manifest", str(manifest))
    test.assertEqual(code, 0, err)
    return paragraph


class Blocks6InTheLab(LabTestCase):
    """blocks-6 end to end: pinned, built, its config named, a heading inside <details> its own section."""

    def test_pin_and_build(self) -> None:
        # "<details>\n" [0, 10); a blank line; "## Setup\n" [11, 20); a blank line; "Run it.\n" [21, 29); a blank
        # line; "</details>\n" [30, 41).
        paragraph = pinned_built_validated(self, "blocks-6", "<details>\n\n## Setup\n\nRun it.\n\n</details>\n")
        # One chunk, "Run it.\n" alone: the tags are no block (under blocks-5, one chunk [0, 41)).
        self.assertEqual([(c["start"], c["end"]) for c in paragraph["chunks"]], [(21, 29)])
