"""The HTML report's pairs table: a reviewer decides a pair from its row, the instruction beside the caveat.

One short page written for the test, its pair inside a blockquote, built in-process under one policy; every
expected cell is worked out by hand from the page and the documented rules.
"""

from __future__ import annotations

import re
import unittest

import chunk_index
from checks import span_checks
from load_documents import Span, SpanCheck
from tests.support import loaded_source
from views import report

# Offsets by hand: "# Jobs\n" [0, 7), a blank line [7, 8), then a quote of five lines: line 3 "> Call …" opens at 8,
# its text after "> " at 10; line 4 "> on the default queue.\n"; line 5 ">\n"; lines 6 and 7 a quote in the quote.
LINES = (
    "# Jobs\n",
    "\n",
    "> Call `run(<job>)` to start a job\n",
    "> on the default queue.\n",
    ">\n",
    "> > It refuses a job that is already running on another\n",
    "> > worker; stop that one first, then call it again.\n",
)
TEXT = "".join(LINES)
# The instruction: from "Call" (offset 10) to the end of line 4, without its newline.
INSTRUCTION_START = 10
INSTRUCTION_END = len("".join(LINES[:4])) - 1
# The caveat: from "It" on line 6 (after "> > ") to the end of line 7, without its newline.
QUALIFIER_START = len("".join(LINES[:5])) + 4
QUALIFIER_END = len(TEXT) - 1


def cell_texts(row: str) -> list[str]:
    """The text of each cell of a table row, tags dropped and ``<br>`` read as a space."""
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)
    return [" ".join(re.sub(r"<[^>]+>", "", cell.replace("<br>", " ")).split()) for cell in cells]


class PairsTableTest(unittest.TestCase):
    """Each row shows the instruction and the caveat as prose, the page, the lines and each policy's verdict."""

    @classmethod
    def setUpClass(cls) -> None:
        source = loaded_source(TEXT, "jobs")
        instruction = Span(INSTRUCTION_START, INSTRUCTION_END, TEXT[INSTRUCTION_START:INSTRUCTION_END])
        qualifier = Span(QUALIFIER_START, QUALIFIER_END, TEXT[QUALIFIER_START:QUALIFIER_END])
        cls.check = SpanCheck("jobs-refuse-running", "jobs", instruction, qualifier)
        configs = {"heading-aware": chunk_index.policy_config("heading-aware")}
        result = span_checks.build_checked_result((source,), (cls.check,), configs)
        cls.page = report.html_report(result, (cls.check,))
        cls.table = re.search(r'<table class="pairs" id="pair-table">(.*?)</table>', cls.page, re.DOTALL).group(1)

    def test_the_quotes_are_what_the_check_holds(self) -> None:
        self.assertEqual(self.check.instruction.quote, "Call `run(<job>)` to start a job\n> on the default queue.")
        self.assertTrue(self.check.qualifier.quote.startswith("It refuses a job"))
        self.assertTrue(self.check.qualifier.quote.endswith("\n> > worker; stop that one first, then call it again."))

    def test_the_row_reads_as_prose(self) -> None:
        head = re.search(r"<thead>(.*?)</thead>", self.table).group(1)
        # A policy at the lesson's size is named without it ("heading-aware"; views.summary.policy_label).
        self.assertEqual(cell_texts(head), ["#", "pair", "instruction", "caveat", "page", "lines", "heading-aware"])
        row = re.search(r'<tr class="pair[^"]*">(.*?)</tr>', self.table).group(1)
        self.assertEqual(
            cell_texts(row),
            [
                "1",
                "jobs-refuse-running",
                # Line 4's one quote marker is the marker line 3 sits behind: left out, the two lines read as one.
                "Call `run(&lt;job&gt;)` to start a job on the default queue.",
                # Line 6 sits behind two markers, so line 7 loses both. On one line the caveat is 100 characters,
                # over 64: it is cut at the last space before character 64 (character 59, after "worker;"), so that
                # with the "…" it holds 60.
                "It refuses a job that is already running on another worker;…",
                "docs/jobs.md",
                # The instruction opens line 3, the caveat line 6.
                "3–6",
                # The section's body is under heading-aware's 220 characters: one chunk holds both spans.
                "kept same chunk",
            ],
        )

    def test_the_card_and_the_page_keep_the_markers(self) -> None:
        # The card quotes the instruction as the page holds it: its newline shown as ⏎, the marker kept.
        self.assertIn("<dd>Call `run(&lt;job&gt;)` to start a job⏎&gt; on the default queue.</dd>", self.page)
        # The page's text view shows line 7 as it is, both markers included.
        self.assertIn("&gt; &gt; worker; stop that one first, then call it again.", self.page)

    def test_a_path_wraps_between_its_folders(self) -> None:
        self.assertIn('<a href="#page-1">docs/<wbr>jobs.md</a>', self.table)

    def test_every_column_has_a_set_width(self) -> None:
        # Seven columns, each a <col> whose class the style sheet sizes (the two excerpts share what is left).
        widths = re.findall(r'<col class="(w-[a-z]+)">', self.table)
        self.assertEqual(widths, ["w-number", "w-name", "w-quote", "w-quote", "w-page", "w-lines", "w-verdict"])
        for width in set(widths) - {"w-quote"}:
            with self.subTest(width=width):
                self.assertRegex(report.REPORT_CSS, rf"\.{width} {{ width: [0-9.]+em; }}")
        self.assertIn("table-layout: fixed", report.REPORT_CSS)

    def test_the_filter_reads_the_pair_and_page_cells(self) -> None:
        # The script's filter box matches the pair's name and page: cells 1 and 4 of a row (0-based).
        self.assertIn("row.cells[1].textContent", report.SCRIPT)
        self.assertIn("row.cells[4].textContent", report.SCRIPT)


class ExcerptTest(unittest.TestCase):
    """``excerpt``: a quote's start on one line, its continuation lines without the quote's markers, inert."""

    def test_whitespace_is_one_space(self) -> None:
        self.assertEqual(report.excerpt("Never\n  close it twice.", 0, 23), "Never close it twice.")

    def test_markers_come_off_only_inside_a_quote(self) -> None:
        # Not in a quote, a line opening with ">" (a shell prompt in a paragraph's span, say) keeps it.
        self.assertEqual(report.excerpt("Run it\n> twice.", 0, 15), "Run it > twice.")
        # In a quote of depth 1, one marker comes off a later line; a second is the text's own.
        self.assertEqual(report.excerpt("> Run it\n> > twice.", 2, 19), "Run it > twice.")
        # A lazy continuation line without a marker is taken as it is.
        self.assertEqual(report.excerpt("> Run it\ntwice.", 2, 15), "Run it twice.")

    def test_a_word_longer_than_half_is_cut_inside(self) -> None:
        # No space past character 32: the cut falls at character 63, then "…" (64 in all).
        shown = report.excerpt("a " + "x" * 100, 0, 102)
        self.assertEqual(shown, "a " + "x" * 61 + "…")

    def test_controls_are_shown_not_run(self) -> None:
        self.assertEqual(report.excerpt("a \x1b[2J b", 0, 8), "a \\x1b[2J b")


if __name__ == "__main__":
    unittest.main()
