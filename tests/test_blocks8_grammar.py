"""The block grammar, version 8 (``SPEC.md``, "The block grammar, version 8"): "blocks-7" with an HTML definition list
read entry by entry, and an element of a ``{…}`` expression alone no block. Each rule on a short text written for the
test; offsets counted by hand, and "blocks-7" read on the same text to show it unchanged there."""

from __future__ import annotations

import random
import unittest

import grammars
from grammars.mdx import without_element_expressions
from grammars.version8 import entry_starts, markup_and_expressions_alone, opens_definition_list
from tests.support import LabTestCase
from tests.test_blocks6_grammar import TITLE, pinned_built_validated, read
from tests.test_fast_paths import random_page_lines


def read7(text: str):
    return read(text, "blocks-7")


def read8(text: str):
    return read(text, "blocks-8")


class DefinitionListEntries(unittest.TestCase):
    """Rule S: a <dl> kept whole whose entries are separated by blank lines is read entry by entry."""

    def test_each_entry_is_a_block(self) -> None:
        # "# T\n" [0, 4); a blank line; "<dl>\n" [5, 10); a blank line; "<dt>A</dt>\n" (11) [11, 22);
        # "<dd>Use a.</dd>\n" (16) [22, 38); a blank line; "<dt>-b</dt>\n" (12) [39, 51); "<dt>--bee</dt>\n" (15)
        # [51, 66); "<dd>Use b.</dd>\n" [66, 82); a blank line; "</dl>\n" [83, 89); a blank line; "After.\n" [90, 97).
        text = (
            "# T\n\n<dl>\n\n<dt>A</dt>\n<dd>Use a.</dd>\n\n<dt>-b</dt>\n<dt>--bee</dt>\n<dd>Use b.</dd>\n\n</dl>\n\n"
            "After.\n"
        )
        self.assertEqual(len(text), 97)
        # Two entries, the second of two terms and their description; the <dl> and </dl> lines are no block.
        self.assertEqual(
            read8(text),
            [("T", 0, 4, [("html", 11, 38, "dt"), ("html", 39, 82, "dt"), ("paragraph", 90, 97, "")])],
        )
        # blocks-7: the whole list is one html block [5, 89).
        self.assertEqual(read7(text), [("T", 0, 4, [("html", 5, 89, "dl"), ("paragraph", 90, 97, "")])])

    def test_entries_right_under_the_tags(self) -> None:
        # "<dl>\n" [0, 5); "<dt>A</dt>\n" [5, 16); "<dd>a.</dd>\n" (12) [16, 28); a blank line; "<dt>B</dt>\n" [29, 40);
        # "<dd>b.</dd>\n" [40, 52); "</dl>\n" [52, 58): the first entry is the list's first line of content, and the
        # last ends before </dl>.
        text = "<dl>\n<dt>A</dt>\n<dd>a.</dd>\n\n<dt>B</dt>\n<dd>b.</dd>\n</dl>\n"
        self.assertEqual(len(text), 58)
        self.assertEqual(read8(text), [(TITLE, 0, 0, [("html", 5, 28, "dt"), ("html", 29, 52, "dt")])])
        self.assertEqual(read7(text), [(TITLE, 0, 0, [("html", 0, 58, "dl")])])
        # Indented by two: "<dl>\n" [0, 5); "  <dt>A</dt>\n" (13) [5, 18); "  <dd>a.</dd>\n" (14) [18, 32); a blank line;
        # "  <dt>B</dt>\n" [33, 46); "  <dd>b.</dd>\n" [46, 60); "</dl>\n" [60, 66).
        text = "<dl>\n  <dt>A</dt>\n  <dd>a.</dd>\n\n  <dt>B</dt>\n  <dd>b.</dd>\n</dl>\n"
        self.assertEqual(len(text), 66)
        self.assertEqual(read8(text), [(TITLE, 0, 0, [("html", 5, 32, "dt"), ("html", 33, 60, "dt")])])

    def test_an_entry_keeps_the_blank_lines_of_its_description(self) -> None:
        # "<dl>\n" [0, 5); "<dt>A</dt>\n" [5, 16); "<dd>\n" [16, 21) opens a description closed at "</dd>\n" [85, 91); in
        # it a blank line, "First.\n" [22, 29), a blank line, and a nested list: "<dl>\n" [30, 35),
        # "<dt>x</dt><dd>y</dd>\n" (21) [35, 56), a blank line, "<dt>z</dt><dd>w</dd>\n" [57, 78), "</dl>\n" [78, 84);
        # then a blank line; a blank line; "<dt>B</dt>\n" [92, 103); "<dd>b.</dd>\n" [103, 115); "</dl>\n" [115, 121).
        text = (
            "<dl>\n<dt>A</dt>\n<dd>\n\nFirst.\n\n<dl>\n<dt>x</dt><dd>y</dd>\n\n<dt>z</dt><dd>w</dd>\n</dl>\n\n</dd>\n\n"
            "<dt>B</dt>\n<dd>b.</dd>\n</dl>\n"
        )
        self.assertEqual(len(text), 121)
        # The <dt> lines inside the open <dd> start no entry: the first entry runs to its </dd>.
        self.assertEqual(read8(text), [(TITLE, 0, 0, [("html", 5, 91, "dt"), ("html", 92, 115, "dt")])])
        self.assertEqual(read7(text), [(TITLE, 0, 0, [("html", 0, 121, "dl")])])

    def test_a_dt_line_in_a_fence_starts_no_entry(self) -> None:
        # "<dl>\n" [0, 5); "<dt>A</dt>\n" [5, 16); "<dd>a.</dd>\n" [16, 28); "```html\n" (8) [28, 36); a blank line;
        # "<dt>x</dt>\n" [37, 48); "```\n" [48, 52); a blank line; "<dt>B</dt>\n" [53, 64); "<dd>b.</dd>\n" [64, 76);
        # "</dl>\n" [76, 82).
        text = "<dl>\n<dt>A</dt>\n<dd>a.</dd>\n```html\n\n<dt>x</dt>\n```\n\n<dt>B</dt>\n<dd>b.</dd>\n</dl>\n"
        self.assertEqual(len(text), 82)
        self.assertEqual(read8(text), [(TITLE, 0, 0, [("html", 5, 52, "dt"), ("html", 53, 76, "dt")])])
        self.assertEqual(read7(text), [(TITLE, 0, 0, [("html", 0, 82, "dl")])])

    def test_an_entry_of_tags_alone_is_no_block(self) -> None:
        # "<dl>\n" [0, 5); "<dt>A</dt>\n" [5, 16); "<dd>a.</dd>\n" [16, 28); a blank line; "<dt></dt>\n" (10) [29, 39);
        # '<dd><img src="b.png"></dd>\n' (4 + 17 + 5 + 1) [39, 66); a blank line; "<dt>C</dt>\n" [67, 78);
        # "<dd>c.</dd>\n" [78, 90); "</dl>\n" [90, 96).
        text = (
            '<dl>\n<dt>A</dt>\n<dd>a.</dd>\n\n<dt></dt>\n<dd><img src="b.png"></dd>\n\n<dt>C</dt>\n<dd>c.</dd>\n</dl>\n'
        )
        self.assertEqual(len(text), 96)
        self.assertEqual(read8(text), [(TITLE, 0, 0, [("html", 5, 28, "dt"), ("html", 67, 90, "dt")])])

    def test_lists_kept_whole(self) -> None:
        for text, end in (
            # No blank line between the entries: one entry, as one block as before.
            ("<dl>\n<dt>A</dt>\n<dd>a.</dd>\n<dt>B</dt>\n<dd>b.</dd>\n</dl>\n", 57),
            # A line after </dl> with no blank line between: the block runs on through "More.\n" [58, 64).
            ("<dl>\n<dt>A</dt>\n<dd>a.</dd>\n\n<dt>B</dt>\n<dd>b.</dd>\n</dl>\nMore.\n", 64),
            # Text before the first entry ("Terms:\n" [5, 12)).
            ("<dl>\nTerms:\n\n<dt>A</dt>\n<dd>a.</dd>\n\n<dt>B</dt>\n<dd>b.</dd>\n</dl>\n", 66),
            # The opening tag is not alone on its line ("<dl><dt>A</dt>\n", 15).
            ("<dl><dt>A</dt>\n<dd>a.</dd>\n\n<dt>B</dt>\n<dd>b.</dd>\n</dl>\n", 57),
        ):
            with self.subTest(text=text):
                self.assertEqual(len(text), end)
                self.assertEqual(read8(text), [(TITLE, 0, 0, [("html", 0, end, "dl")])])
                self.assertEqual(read7(text), read8(text))

    def test_entry_starts(self) -> None:
        texts = ["<dl>", "", "<dt>A</dt>", "<dt>B</dt>", "<dd>b</dd>", "", "<DT class='x'>C</DT>", "", "<dtx>", "</dl>"]
        self.assertEqual(entry_starts(texts, 0, 9, {}), [2, 6])
        # Inside an element opened on line 4 and closed on line 7, line 6 starts no entry.
        self.assertEqual(entry_starts(texts, 0, 9, {4: 7}), [2])

    def test_opens_definition_list(self) -> None:
        for line, expected in (
            ("<dl>", True),
            ('<dl class="x">', True),
            ("   <DL>", True),
            ("<dl><dt>A</dt>", False),
            ("</dl>", False),
            ("    <dl>", False),
            ("<dlx>", False),
        ):
            with self.subTest(line=line):
                self.assertEqual(opens_definition_list(line), expected)


class ElementsOfExpressions(unittest.TestCase):
    """Rule T: an element whose content is an expression alone holds no text of the page's."""

    def test_a_code_block_of_an_imported_file_is_no_block(self) -> None:
        # "# T\n" [0, 4); a blank line; '<CodeBlock language="ts">{Source}</CodeBlock>\n' (25 + 8 + 12 + 1) [5, 51);
        # a blank line; "Text.\n" [52, 58).
        text = '# T\n\n<CodeBlock language="ts">{Source}</CodeBlock>\n\nText.\n'
        self.assertEqual(len(text), 58)
        self.assertEqual(read8(text), [("T", 0, 4, [("paragraph", 52, 58, "")])])
        self.assertEqual(read7(text), [("T", 0, 4, [("paragraph", 5, 51, ""), ("paragraph", 52, 58, "")])])

    def test_a_section_of_nothing_else_is_no_section(self) -> None:
        # "# A\n" [0, 4); a blank line; "<CodeBlock>{Source}</CodeBlock>\n" (32) [5, 37); a blank line; "# B\n" [38, 42);
        # a blank line; "Text.\n" [43, 49).
        text = "# A\n\n<CodeBlock>{Source}</CodeBlock>\n\n# B\n\nText.\n"
        self.assertEqual(len(text), 49)
        self.assertEqual(read8(text), [("B", 38, 42, [("paragraph", 43, 49, "")])])
        self.assertEqual(
            read7(text), [("A", 0, 4, [("paragraph", 5, 37, "")]), ("B", 38, 42, [("paragraph", 43, 49, "")])]
        )

    def test_an_html_block_of_an_element_of_an_expression(self) -> None:
        # "<CodeBlock>\n" (12) [0, 12); "{Source}\n" [12, 21); "</CodeBlock>\n" (13) [21, 34): an element kept whole;
        # a blank line; "Text.\n" [35, 41).
        text = "<CodeBlock>\n{Source}\n</CodeBlock>\n\nText.\n"
        self.assertEqual(len(text), 41)
        self.assertEqual(read8(text), [(TITLE, 0, 0, [("paragraph", 35, 41, "")])])
        self.assertEqual(read7(text), [(TITLE, 0, 0, [("html", 0, 34, "codeblock"), ("paragraph", 35, 41, "")])])

    def test_elements_of_such_elements(self) -> None:
        # "<Tabs>" (6), two "<TabItem>{A}</TabItem>" (22 each), "</Tabs>" (7) and the line's end: [0, 58); a blank
        # line; "Text.\n" [59, 65).
        text = "<Tabs><TabItem>{A}</TabItem><TabItem>{B}</TabItem></Tabs>\n\nText.\n"
        self.assertEqual(len(text), 65)
        self.assertEqual(read8(text), [(TITLE, 0, 0, [("paragraph", 59, 65, "")])])
        self.assertEqual(read7(text), [(TITLE, 0, 0, [("paragraph", 0, 58, ""), ("paragraph", 59, 65, "")])])

    def test_text_beside_an_expression_is_text(self) -> None:
        for text in (
            "<code>{a}</code>.\n",
            "Use <code>{a}</code>\n",
            "<b>x {a}</b>\n",
            "<br>{a}\n",
            "{a}\n",
        ):
            with self.subTest(text=text):
                self.assertEqual(len(read8(text)[0][3]), 1)
                self.assertEqual(read8(text), read7(text))

    def test_without_element_expressions(self) -> None:
        for text, expected in (
            ('<CodeBlock language="ts">{Source}</CodeBlock>', '<CodeBlock language="ts"></CodeBlock>'),
            ("<code>{a} {b}</code>.", "<code></code>."),
            ("<a>\n{x}\n</a>", "<a>\n\n</a>"),
            ("<a>{f({b: 1})}</a>", "<a></a>"),
            ("is {a}</p>", "is {a}</p>"),
            ("<p>x{a}</p>", "<p>x{a}</p>"),
            ("<a>{b</a>", "<a>{b</a>"),
            ("<a>{b}c</a>", "<a>{b}c</a>"),
        ):
            with self.subTest(text=text):
                self.assertEqual(without_element_expressions(text), expected)


class OnlyWhatTheRulesChange(unittest.TestCase):
    """On random pages, "blocks-8" finds "blocks-7"'s sections and blocks but for what rules S and T change."""

    def test_random_pages(self) -> None:
        rng = random.Random(83)
        wrong = []
        for _ in range(300):
            # After a first line, so no "---" opens front matter.
            text = "Intro.\n\n" + "\n".join(random_page_lines(rng)) + "\n"
            old = grammars.document_sections(text, "blocks-7", "t", TITLE)
            new = grammars.document_sections(text, "blocks-8", "t", TITLE)
            old_blocks = {block for section in old for block in section.blocks}
            new_blocks = {block for section in new for block in section.blocks}
            lists = [block for block in old_blocks - new_blocks if block.label == "dl"]
            for block in new_blocks - old_blocks:
                # An entry, inside a list blocks-7 kept whole.
                if block.label != "dt" or not any(dl.start <= block.start and block.end <= dl.end for dl in lists):
                    wrong.append((text, "new", block))
            for block in old_blocks - new_blocks:
                # A list read entry by entry, or a block of elements of expressions, tags and comments alone.
                if block.label != "dl" and not markup_and_expressions_alone(text[block.start : block.end]):
                    wrong.append((text, "gone", block))
            headings = {(section.heading_start, section.title) for section in old}
            if not {(section.heading_start, section.title) for section in new} <= headings:
                wrong.append((text, "sections", new))
        self.assertEqual(wrong, [])


class Blocks8InTheLab(LabTestCase):
    """blocks-8 end to end: pinned, built, its config named, each entry of a definition list a chunk of its own."""

    def test_pin_and_build(self) -> None:
        # "<dl>\n" [0, 5); a blank line; "<dt>A</dt>\n" [6, 17); "<dd>Use a.</dd>\n" [17, 33); a blank line;
        # "<dt>B</dt>\n" [34, 45); "<dd>Use b.</dd>\n" [45, 61); a blank line; "</dl>\n" [62, 68).
        page = "<dl>\n\n<dt>A</dt>\n<dd>Use a.</dd>\n\n<dt>B</dt>\n<dd>Use b.</dd>\n\n</dl>\n"
        paragraph = pinned_built_validated(self, "blocks-8", page)
        # Two chunks, one an entry (under blocks-7, one chunk [0, 68)).
        self.assertEqual([(c["start"], c["end"]) for c in paragraph["chunks"]], [(6, 33), (34, 61)])


if __name__ == "__main__":
    unittest.main()
