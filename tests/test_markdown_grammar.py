"""The block grammar, rule by rule: small texts and the spans each rule gives, counted by hand.

Every expected offset below is worked out from the rule in ``docs/SPEC.md``
("The block grammar") and the lengths of the lines written next to it, never
read back from the grammar's own output.
"""

from __future__ import annotations

import hashlib
import json
import unittest

import chunk_index
import grammars
from lab_io.errors import IngestionError
from load_documents import load_manifest
from tests.support import LabTestCase, loaded_source

TITLE = "Guide"


def outline(text: str, title: str = TITLE) -> list[tuple]:
    """Sections as ``(title, heading_start, body_start, body_end, [(kind, start, end, label), ...])``."""
    return [
        (
            section.title,
            section.heading_start,
            section.body_start,
            section.body_end,
            [(block.kind, block.start, block.end, block.label) for block in section.blocks],
        )
        for section in grammars.document_sections(text, "blocks", "test", title)
    ]


def block_spans(text: str) -> list[tuple]:
    """Every block of every section, as ``(kind, start, end, label)``."""
    return [block for section in outline(text) for block in section[4]]


def source(text: str, source_id: str = "guide") -> dict:
    """A loaded source holding ``text``, titled ``TITLE``."""
    return loaded_source(text, source_id, TITLE)


class FrontMatter(unittest.TestCase):
    def test_yaml_front_matter_belongs_to_no_section(self):
        # "---\n" [0, 4), "title: A\n" [4, 13), "---\n" [13, 17), "# Intro\n" [17, 25), "Body\n" [25, 30)
        text = "---\ntitle: A\n---\n# Intro\nBody\n"
        self.assertEqual(outline(text), [("Intro", 17, 25, 30, [("paragraph", 25, 30, "")])])

    def test_toml_front_matter_then_text_is_a_section_titled_with_the_source(self):
        # "+++\n" [0, 4), "a = 1\n" [4, 10), "+++\n" [10, 14), "Text\n" [14, 19)
        text = "+++\na = 1\n+++\nText\n"
        self.assertEqual(outline(text), [(TITLE, 14, 14, 19, [("paragraph", 14, 19, "")])])

    def test_the_closing_delimiter_must_match_the_opening_one(self):
        # "---\n" [0, 4), "+++\n" [4, 8), "---  \n" [8, 14) closes (trailing spaces allowed), "x\n" [14, 16)
        text = "---\n+++\n---  \nx\n"
        self.assertEqual(outline(text), [(TITLE, 14, 14, 16, [("paragraph", 14, 16, "")])])

    def test_unclosed_front_matter_is_refused(self):
        for text in ("---\ntitle: A\n# Intro\nBody\n", "+++\n", "---"):
            with self.subTest(text=text):
                with self.assertRaises(IngestionError) as caught:
                    outline(text)
                self.assertEqual(caught.exception.code, "front_matter_unclosed")

    def test_a_delimiter_line_after_offset_0_is_not_front_matter(self):
        # "\n" [0, 1), "---\n" [1, 5), "a\n" [5, 7), "---\n" [7, 11), "b\n" [11, 13). The first "---" has no
        # paragraph above it, so it is a thematic break (no block); the second makes "a" a setext heading.
        self.assertEqual(outline("\n---\na\n---\nb\n"), [("a", 5, 11, 13, [("paragraph", 11, 13, "")])])

    def test_front_matter_is_in_no_chunk_of_any_policy(self):
        text = "---\ntitle: A\n---\nIntro.\n\n# Setup\nRun it.\n"
        front_matter_end = len("---\ntitle: A\n---\n")
        configs = chunk_index.manifest_configs("blocks", (("fixed-char", 5), ("heading-aware", 8)))
        for name, config in configs.items():
            with self.subTest(policy=name):
                chunks = chunk_index.build_index(config, [source(text)])["chunks"]
                self.assertTrue(chunks)
                self.assertTrue(all(chunk["start"] >= front_matter_end for chunk in chunks))
                self.assertFalse(any("title: A" in chunk["text"] for chunk in chunks))


class TextBeforeTheFirstHeading(unittest.TestCase):
    def test_text_before_the_first_heading_is_a_section_titled_with_the_source(self):
        # "Intro text.\n" [0, 12), "\n" [12, 13), "# A\n" [13, 17), "Body\n" [17, 22)
        text = "Intro text.\n\n# A\nBody\n"
        self.assertEqual(
            outline(text),
            [
                (TITLE, 0, 0, 13, [("paragraph", 0, 12, "")]),
                ("A", 13, 17, 22, [("paragraph", 17, 22, "")]),
            ],
        )

    def test_a_text_without_headings_is_one_section(self):
        self.assertEqual(outline("a\n\nb"), [(TITLE, 0, 0, 4, [("paragraph", 0, 2, ""), ("paragraph", 3, 4, "")])])

    def test_sections_without_blocks_are_skipped(self):
        # "# A\n" [0, 4), "\n" [4, 5), "# B\n" [5, 9), "x\n" [9, 11)
        self.assertEqual(outline("# A\n\n# B\nx\n"), [("B", 5, 9, 11, [("paragraph", 9, 11, "")])])

    def test_the_lesson_grammar_still_wants_a_heading(self):
        with self.assertRaises(IngestionError) as caught:
            grammars.document_sections("Intro\n# A\nx\n", "lesson", "test", TITLE)
        self.assertEqual(caught.exception.code, "heading_required")

    def test_an_unknown_grammar_is_refused(self):
        with self.assertRaises(IngestionError) as caught:
            grammars.document_sections("# A\nx\n", "commonmark", "test", TITLE)
        self.assertEqual(caught.exception.code, "unknown_grammar")


class FencedCode(unittest.TestCase):
    def test_a_fence_is_opaque_to_headings_and_blank_lines(self):
        # "# T\n" [0, 4), "```python\n" [4, 14), "# comment\n" [14, 24), "\n" [24, 25),
        # "x = 1\n" [25, 31), "```\n" [31, 35), "After\n" [35, 41)
        text = "# T\n```python\n# comment\n\nx = 1\n```\nAfter\n"
        self.assertEqual(outline(text), [("T", 0, 4, 41, [("fence", 4, 35, ""), ("paragraph", 35, 41, "")])])

    def test_closing_fences(self):
        cases = [
            # a longer closing run of the same character closes: "~~~~\n" [0, 5), "a\n" [5, 7), "~~~~~\n" [7, 13)
            ("~~~~\na\n~~~~~\n", [("fence", 0, 13, "")]),
            # the other character does not close: 4 + 2 + 4 + 2 + 4 = 16
            ("```\na\n~~~\nb\n```\n", [("fence", 0, 16, "")]),
            # a shorter run does not close, so "# x" stays inside: 5 + 2 + 4 + 4 + 5 = 20
            ("````\na\n```\n# x\n````\n", [("fence", 0, 20, "")]),
            # text after the closing run: not a close, the fence runs on: 4 + 6 + 4 = 14
            ("```\n``` x\n```\n", [("fence", 0, 14, "")]),
            # up to three spaces of indent on both fences: 7 + 2 + 7 = 16
            ("   ```\nx\n   ```\n", [("fence", 0, 16, "")]),
        ]
        for text, expected in cases:
            with self.subTest(text=text):
                self.assertEqual(block_spans(text), expected)

    def test_an_unclosed_fence_runs_to_the_end_of_the_text(self):
        # "```\n" 4 + "# not a heading\n" 16 + "\n" 1 + "text\n" 5 = 26
        self.assertEqual(outline("```\n# not a heading\n\ntext\n"), [(TITLE, 0, 0, 26, [("fence", 0, 26, "")])])

    def test_lines_that_do_not_open_a_fence(self):
        for line in ("    ```", "``", "``` a`b", "~~"):
            with self.subTest(line=line):
                self.assertIsNone(grammars.fence_opening(line))
        self.assertEqual(grammars.fence_opening("  ~~~~ py"), ("~", 4))
        self.assertEqual(grammars.fence_opening("```a~b"), ("`", 3))

    def test_a_fence_interrupts_a_paragraph(self):
        # "text\n" [0, 5), "```\n" [5, 9), "x\n" [9, 11), "```\n" [11, 15)
        self.assertEqual(block_spans("text\n```\nx\n```\n"), [("paragraph", 0, 5, ""), ("fence", 5, 15, "")])


class AtxHeadings(unittest.TestCase):
    def test_titles(self):
        cases = [
            ("# A", "A"),
            ("   ### B ###", "B"),
            ("# C#", "C#"),
            ("# A # B #", "A # B"),
            ("##\tTab", "Tab"),
            ("# trailing  ", "trailing"),
            ("#", ""),
            ("### ###", ""),
            ("###### six", "six"),
        ]
        for line, title in cases:
            with self.subTest(line=line):
                self.assertEqual(grammars.atx_heading_title(line), title)

    def test_lines_that_are_not_headings(self):
        for line in ("    # four spaces", "#hashtag", "####### seven", "\t# tab", "text # not"):
            with self.subTest(line=line):
                self.assertIsNone(grammars.atx_heading_title(line))

    def test_an_indented_heading_with_a_closing_run(self):
        # "  ## Setup ##\n" is 14 characters, "run\n" [14, 18)
        self.assertEqual(outline("  ## Setup ##\nrun\n"), [("Setup", 0, 14, 18, [("paragraph", 14, 18, "")])])

    def test_a_heading_interrupts_a_paragraph(self):
        # "a\n" [0, 2), "## B\n" [2, 7), "c\n" [7, 9)
        self.assertEqual(
            outline("a\n## B\nc\n"),
            [(TITLE, 0, 0, 2, [("paragraph", 0, 2, "")]), ("B", 2, 7, 9, [("paragraph", 7, 9, "")])],
        )


class SetextHeadings(unittest.TestCase):
    def test_underlined_paragraphs_are_headings(self):
        # "Title\n" [0, 6), "=====\n" [6, 12), "Body\n" [12, 17), "\n" [17, 18),
        # "Two\n" [18, 22), "lines\n" [22, 28), "---\n" [28, 32), "More\n" [32, 37)
        text = "Title\n=====\nBody\n\nTwo\nlines\n---\nMore\n"
        self.assertEqual(
            outline(text),
            [
                ("Title", 0, 12, 18, [("paragraph", 12, 17, "")]),
                ("Two lines", 18, 32, 37, [("paragraph", 32, 37, "")]),
            ],
        )

    def test_an_underline_without_a_paragraph_above_is_not_a_heading(self):
        # "a\n" [0, 2), "\n" [2, 3), "---\n" [3, 7), "\n" [7, 8), "===\n" [8, 12): the "---" is a thematic
        # break (no block), the "===" paragraph text.
        self.assertEqual(block_spans("a\n\n---\n\n===\n"), [("paragraph", 0, 2, ""), ("paragraph", 8, 12, "")])

    def test_an_underline_under_a_list_or_a_quote_is_not_a_heading(self):
        # "> q\n" [0, 4) is a quote; "---\n" [4, 8) under it is a thematic break, in no block
        self.assertEqual(block_spans("> q\n---\n"), [("quote", 0, 4, "")])
        # "- a\n" [0, 4) opens a list; "===\n" [4, 8) under it is a lazy continuation line of the item
        self.assertEqual(block_spans("- a\n===\n"), [("list", 0, 8, "")])


class Admonitions(unittest.TestCase):
    def test_an_admonition_holds_its_indented_body_and_the_blank_lines_inside_it(self):
        # '!!! warning "Mind"\n' [0, 19), "    Body one.\n" [19, 33), "\n" [33, 34),
        # "    Body two.\n" [34, 48), "\n" [48, 49), "After\n" [49, 55)
        text = '!!! warning "Mind"\n    Body one.\n\n    Body two.\n\nAfter\n'
        self.assertEqual(block_spans(text), [("admonition", 0, 48, "warning"), ("paragraph", 49, 55, "")])

    def test_collapsible_admonitions_and_their_labels(self):
        cases = [
            ("??? note\n", [("admonition", 0, 9, "note")]),
            # "???+ Tip\n" [0, 9), "    x\n" [9, 15)
            ("???+ Tip\n    x\n", [("admonition", 0, 15, "tip")]),
            # a body indented less than four columns ends it: "!!! Danger\n" [0, 11), "  two\n" [11, 17)
            ("!!! Danger\n  two\n", [("admonition", 0, 11, "danger"), ("paragraph", 11, 17, "")]),
            # a tab indents to column 4: "!!! info\n" [0, 9), "\tx\n" [9, 12)
            ("!!! info\n\tx\n", [("admonition", 0, 12, "info")]),
            # no type, no admonition
            ('!!! "Title"\n', [("paragraph", 0, 12, "")]),
        ]
        for text, expected in cases:
            with self.subTest(text=text):
                self.assertEqual(block_spans(text), expected)

    def test_a_fence_in_the_body_keeps_comments_and_blank_lines(self):
        # "!!! tip\n" [0, 8), "    ```sh\n" [8, 18), "# c\n" [18, 22) (under-indented, inside the fence),
        # "\n" [22, 23), "    ```\n" [23, 31), "x\n" [31, 33)
        text = "!!! tip\n    ```sh\n# c\n\n    ```\nx\n"
        self.assertEqual(outline(text), [(TITLE, 0, 0, 33, [("admonition", 0, 31, "tip"), ("paragraph", 31, 33, "")])])


class Quotes(unittest.TestCase):
    def test_quote_runs_and_alerts(self):
        # "> [!WARNING]\n" [0, 13), "> Careful.\n" [13, 24), "\n" [24, 25),
        # "> plain\n" [25, 33), "> quote\n" [33, 41), "Text\n" [41, 46)
        text = "> [!WARNING]\n> Careful.\n\n> plain\n> quote\nText\n"
        self.assertEqual(
            block_spans(text), [("quote", 0, 24, "warning"), ("quote", 25, 41, ""), ("paragraph", 41, 46, "")]
        )

    def test_alert_labels(self):
        cases = [
            ("> [!NOTE]", "note"),
            (">[!Tip]  ", "tip"),
            ("> [!note] extra", ""),
            ("> note", ""),
            ("   > [!IMPORTANT]", "important"),
        ]
        for line, label in cases:
            with self.subTest(line=line):
                self.assertEqual(grammars.quote_label(line), label)

    def test_a_quoted_hash_is_not_a_heading(self):
        # "> # not a heading\n" [0, 18), ">\n" [18, 20), "> x\n" [20, 24)
        self.assertEqual(outline("> # not a heading\n>\n> x\n"), [(TITLE, 0, 0, 24, [("quote", 0, 24, "")])])


class Lists(unittest.TestCase):
    def test_items_continuations_and_blank_lines_between_items(self):
        # "- one\n" [0, 6), "  cont\n" [6, 13), "\n" [13, 14), "- two\n" [14, 20), "\n" [20, 21),
        # "  para of two\n" [21, 35), "lazy line\n" [35, 45), "\n" [45, 46), "After\n" [46, 52)
        text = "- one\n  cont\n\n- two\n\n  para of two\nlazy line\n\nAfter\n"
        self.assertEqual(block_spans(text), [("list", 0, 45, ""), ("paragraph", 46, 52, "")])

    def test_ordered_items(self):
        # "1. a\n" [0, 5), "2) b\n" [5, 10), "\n" [10, 11), "Text\n" [11, 16)
        self.assertEqual(block_spans("1. a\n2) b\n\nText\n"), [("list", 0, 10, ""), ("paragraph", 11, 16, "")])

    def test_a_heading_ends_a_list(self):
        # "- a\n" [0, 4), "# H\n" [4, 8), "x\n" [8, 10)
        self.assertEqual(
            outline("- a\n# H\nx\n"),
            [(TITLE, 0, 0, 4, [("list", 0, 4, "")]), ("H", 4, 8, 10, [("paragraph", 8, 10, "")])],
        )

    def test_an_item_continuation_after_a_blank_line_must_reach_the_content_column(self):
        # "1. a\n" [0, 5) content column 3, "\n" [5, 6), "  b\n" [6, 10) reaches only column 2
        self.assertEqual(block_spans("1. a\n\n  b\n"), [("list", 0, 5, ""), ("paragraph", 6, 10, "")])

    def test_a_fence_in_an_item_keeps_its_comment_and_blank_line(self):
        # "- Run:\n" [0, 7), "  ```sh\n" [7, 15), "# comment\n" [15, 25), "\n" [25, 26), "ls\n" [26, 29),
        # "  ```\n" [29, 35), "Done\n" [35, 40): no lazy continuation after a fence
        text = "- Run:\n  ```sh\n# comment\n\nls\n  ```\nDone\n"
        self.assertEqual(outline(text), [(TITLE, 0, 0, 40, [("list", 0, 35, ""), ("paragraph", 35, 40, "")])])

    def test_list_item_markers(self):
        cases = [
            ("- a", (2, "a")),
            ("1.  go", (4, "go")),
            ("-", (2, "")),
            ("10) x", (4, "x")),
            ("*      far", (2, "far")),
        ]
        for line, expected in cases:
            with self.subTest(line=line):
                self.assertEqual(grammars.list_item(line), expected)
        for line in ("-a", "---", "1.5 apples", "    - deep", "1234567890. long"):
            with self.subTest(line=line):
                self.assertIsNone(grammars.list_item(line))


class Tables(unittest.TestCase):
    def test_a_table_runs_over_its_piped_rows(self):
        # "| a | b |\n" [0, 10), "|---|:-:|\n" [10, 20), "| 1 | 2 |\n" [20, 30), "\n" [30, 31), "Text\n" [31, 36)
        text = "| a | b |\n|---|:-:|\n| 1 | 2 |\n\nText\n"
        self.assertEqual(block_spans(text), [("table", 0, 30, ""), ("paragraph", 31, 36, "")])

    def test_pipes_without_a_delimiter_row_are_a_paragraph(self):
        self.assertEqual(block_spans("| a |\n| b |\n"), [("paragraph", 0, 12, "")])

    def test_a_table_interrupts_a_paragraph(self):
        # "Intro\n" [0, 6), "a | b\n" [6, 12), "--|--\n" [12, 18)
        self.assertEqual(block_spans("Intro\na | b\n--|--\n"), [("paragraph", 0, 6, ""), ("table", 6, 18, "")])

    def test_delimiter_rows(self):
        for line in ("|---|", "--|--", "| :-- | --: | :-: |", " |-| "):
            with self.subTest(line=line):
                self.assertTrue(grammars.is_table_delimiter(line))
        for line in ("---", "| a |", "|", "|-|x|", "| -- - |"):
            with self.subTest(line=line):
                self.assertFalse(grammars.is_table_delimiter(line))


class ThematicBreaks(unittest.TestCase):
    def test_a_break_between_blocks_belongs_to_no_block(self):
        # "Intro\n" [0, 6), "\n" [6, 7), "---\n" [7, 11), "\n" [11, 12), "Next\n" [12, 17)
        self.assertEqual(block_spans("Intro\n\n---\n\nNext\n"), [("paragraph", 0, 6, ""), ("paragraph", 12, 17, "")])

    def test_a_star_or_underscore_break_ends_a_paragraph(self):
        # "Intro\n" [0, 6), "***\n" [6, 10), "Next\n" [10, 15); "Intro\n" [0, 6), " _ _ _\n" [6, 13), "Next\n" [13, 18)
        self.assertEqual(block_spans("Intro\n***\nNext\n"), [("paragraph", 0, 6, ""), ("paragraph", 10, 15, "")])
        self.assertEqual(block_spans("Intro\n _ _ _\nNext\n"), [("paragraph", 0, 6, ""), ("paragraph", 13, 18, "")])

    def test_a_spaced_break_is_not_a_list_item(self):
        # "a\n" [0, 2), "\n" [2, 3), "- - -\n" [3, 9), "\n" [9, 10), "* b\n" [10, 14)
        self.assertEqual(block_spans("a\n\n- - -\n\n* b\n"), [("paragraph", 0, 2, ""), ("list", 10, 14, "")])

    def test_a_dash_line_under_a_paragraph_is_still_a_setext_underline(self):
        self.assertEqual(outline("Title\n---\nBody\n")[0][:3], ("Title", 0, 10))

    def test_lines_that_are_not_breaks(self):
        for line in ("--", "**", "* - *", "***a", "    ***", "-_-"):
            with self.subTest(line=line):
                self.assertIsNone(grammars.THEMATIC_BREAK.fullmatch(line))
        for line in ("***", "---", "___", " * * *", "-----", "_\t_ _"):
            with self.subTest(line=line):
                self.assertIsNotNone(grammars.THEMATIC_BREAK.fullmatch(line))


class BlocksAndPolicies(unittest.TestCase):
    TEXT = "# Use\nRun it:\n\n```sh\n# comment\n\nls\n```\n\n!!! warning\n    Mind the path.\n"

    def test_a_fence_with_a_comment_and_blank_lines_stays_one_chunk(self):
        # "# Use\n" [0, 6), "Run it:\n" [6, 14), "\n" [14, 15), "```sh\n" [15, 21), "# comment\n" [21, 31),
        # "\n" [31, 32), "ls\n" [32, 35), "```\n" [35, 39), "\n" [39, 40), "!!! warning\n" [40, 52), "    Mind the path.\n" [52, 71)
        expected = {"paragraph": [(6, 14), (15, 39), (40, 71)], "heading-aware": [(6, 14), (15, 39), (40, 71)]}
        configs = chunk_index.manifest_configs("blocks", (("heading-aware", 10),))
        for name, spans in expected.items():
            with self.subTest(policy=name):
                chunks = chunk_index.build_index(configs[name], [source(self.TEXT)])["chunks"]
                self.assertEqual([(chunk["start"], chunk["end"]) for chunk in chunks], spans)
                self.assertEqual({chunk["section_title"] for chunk in chunks}, {"Use"})

    def test_heading_aware_groups_blocks_with_the_lessons_rule(self):
        # Groups while block_end - group_start <= target: 39 - 6 = 33 joins at 33, 71 - 6 = 65 does not.
        configs = chunk_index.manifest_configs("blocks", (("heading-aware", 33),))
        chunks = chunk_index.build_index(configs["heading-aware"], [source(self.TEXT)])["chunks"]
        self.assertEqual([(chunk["start"], chunk["end"]) for chunk in chunks], [(6, 39), (40, 71)])

    def test_the_lesson_grammar_cuts_the_same_fence(self):
        # The contrast the block grammar exists for: a section "comment" and a paragraph break inside the fence.
        text = "# Use\n```sh\n# comment\n\nls\n```\n"
        chunks = chunk_index.build_index(chunk_index.policy_config("paragraph"), [source(text)])["chunks"]
        self.assertIn("comment", {chunk["section_title"] for chunk in chunks})
        # "# Use\n" [0, 6), "```sh\n" [6, 12), "# comment\n" [12, 22), "\n" [22, 23), "ls\n" [23, 26), "```\n" [26, 30)
        blocks = chunk_index.build_index(chunk_index.policy_config("paragraph", None, "blocks"), [source(text)])
        self.assertEqual([(chunk["start"], chunk["end"]) for chunk in blocks["chunks"]], [(6, 30)])

    def test_fixed_char_slices_the_body_only(self):
        # "# A\n" [0, 4), body "abcdef\n" [4, 11) in slices of 3: [4, 7), [7, 10), [10, 11) (the last is "\n", blank)
        config = chunk_index.policy_config("fixed-char", 3, "blocks")
        chunks = chunk_index.build_index(config, [source("# A\nabcdef\n")])["chunks"]
        self.assertEqual([(chunk["start"], chunk["end"]) for chunk in chunks], [(4, 7), (7, 10)])

    def test_a_block_ends_after_its_last_newline_or_at_the_end_of_the_text(self):
        self.assertEqual(block_spans("a\n\n> b"), [("paragraph", 0, 2, ""), ("quote", 3, 6, "")])

    def test_every_block_of_a_mixed_page_lies_inside_its_section_body_without_overlap(self):
        text = (
            "---\nt: 1\n---\nIntro\n\nTitle\n===\n- a\n  ```\n# x\n  ```\n> [!TIP]\n> y\n"
            "| a |\n|---|\n!!! note\n    z\n\n## End\ntext"
        )
        previous_end = 0
        for _title, _heading_start, body_start, body_end, blocks in outline(text):
            for _kind, start, end, _label in blocks:
                self.assertLessEqual(body_start, start)
                self.assertLessEqual(end, body_end)
                self.assertLessEqual(previous_end, start)
                self.assertLess(start, end)
                previous_end = end


class LoadingUnderTheBlockGrammar(LabTestCase):
    def write_manifest(self, raw: bytes, grammar: str | None) -> None:
        (self.folder / "docs").mkdir()
        (self.folder / "docs" / "page.md").write_bytes(raw)
        entry = {
            "source_id": "page",
            "path": "docs/page.md",
            "title": "Page",
            "sha256": hashlib.sha256(raw).hexdigest(),
            "version": "1.0",
            "url": "local:docs/page.md",
            "fact_status": "test text",
        }
        manifest = {"sources": [entry]}
        if grammar is not None:
            manifest["markdown"] = grammar
        (self.folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")

    def test_a_leading_byte_order_mark_is_dropped_under_blocks_only(self):
        raw = b"\xef\xbb\xbf# T\r\nBody\r\n"
        self.write_manifest(raw, "blocks")
        manifest = load_manifest(self.folder / "manifest.json")
        self.assertEqual(manifest.grammar, "blocks")
        # sha256 pins the raw bytes, mark included; the text has neither the mark nor a "\r".
        self.assertEqual(manifest.sources[0]["sha256"], hashlib.sha256(raw).hexdigest())
        self.assertEqual(manifest.sources[0]["text"], "# T\nBody\n")

    def test_the_lesson_grammar_keeps_the_mark_and_refuses_the_text(self):
        self.write_manifest(b"\xef\xbb\xbf# T\nBody\n", None)
        manifest = load_manifest(self.folder / "manifest.json")
        self.assertEqual(manifest.sources[0]["text"], "\ufeff# T\nBody\n")
        with self.assertRaises(IngestionError) as caught:
            chunk_index.build_index(chunk_index.policy_config("paragraph"), manifest.sources)
        self.assertEqual(caught.exception.code, "heading_required")

    def test_crlf_text_is_split_after_normalization(self):
        # normalized: "Intro\n" [0, 6), "\n" [6, 7), "```\n" [7, 11), "# c\n" [11, 15), "```\n" [15, 19)
        self.write_manifest(b"Intro\r\n\r\n```\r\n# c\r\n```\r\n", "blocks")
        text = load_manifest(self.folder / "manifest.json").sources[0]["text"]
        self.assertEqual(text, "Intro\n\n```\n# c\n```\n")
        sections = grammars.document_sections(text, "blocks", "page", "Page")
        self.assertEqual(
            [
                (section.title, [(block.kind, block.start, block.end) for block in section.blocks])
                for section in sections
            ],
            [("Page", [("paragraph", 0, 6), ("fence", 7, 19)])],
        )


if __name__ == "__main__":
    unittest.main()
