"""``judge.placement``: the placement rule, offsets read as the splitter saw the file, whitespace-only chunks.

Each text is written for its test and every expected offset is counted by
hand in the comment above it. The rule (docs/judge.md): a chunk starts at or
after the previous chunk's start and ends at or past its end, the end of a chunk
whose text ends in a non-whitespace character counted with the whitespace
after it; a given offset is trusted only when its text is there and the rule
holds; a verbatim place wins over a whitespace-insensitive one.
"""

from __future__ import annotations

import unittest

from judge.chunk_files import ChunkRecord
from judge.placement import FileText, OffsetFrame, lab_offset, locate_chunks


def records(*chunks: tuple[str, int | None], end: bool = False) -> tuple[ChunkRecord, ...]:
    """Plain records of source ``page`` from ``(text, start)`` pairs; with ``end``, each ends at start + its length."""
    made = []
    for line, (text, start) in enumerate(chunks, start=1):
        stop = start + len(text) if end and start is not None else None
        made.append(ChunkRecord(line, "plain", "page", text, start, stop, "start"))
    return tuple(made)


def placed(text: str, chunk_records: tuple[ChunkRecord, ...], file_text: str | None = None) -> list[tuple]:
    """``(state, start, end, offset_issue)`` of each record placed in ``text``."""
    files = None if file_text is None else {"page": file_text}
    locations = locate_chunks(chunk_records, ({"source_id": "page", "text": text},), files)
    return [(location.state, location.start, location.end, location.offset_issue) for location in locations]


class PlacementRuleTest(unittest.TestCase):
    """Where the rule places chunks that real splitters emit, and which given offsets it refuses."""

    # a0 b1 _2 a3 b4 .5 _6 a7 b8 _9 a10 b11 .12 _13 e14 n15 d16 \n17
    REPEATED = "ab ab. ab ab. end\n"

    def test_a_chunk_may_start_where_the_previous_one_starts(self) -> None:
        # LangChain carries "ab" into the next chunk: "ab" [0, 2), then "ab ab." from the same start
        # [0, 6), though "ab ab." recurs at [7, 13); then "ab ab. end" [7, 17).
        chunks = [("ab", 0), ("ab ab.", 0), ("ab ab. end", 7)]
        expected = [(0, 2), (0, 6), (7, 17)]
        self.assertEqual([place[1:3] for place in placed(self.REPEATED, records(*chunks))], expected)
        self.assertEqual([place[0] for place in placed(self.REPEATED, records(*chunks))], ["exact_offset"] * 3)
        unplaced = records(*((text, None) for text, _ in chunks))
        self.assertEqual(
            placed(self.REPEATED, unplaced), [("exact_order", start, end, None) for start, end in expected]
        )

    def test_a_given_offset_inside_the_previous_chunk_is_wrong(self) -> None:
        # l0 i1 s2 t3 _4 =5 _6 [7 [8 1-9 ]10 ,11 _12 [13 2-14 ]15 ]16 \n17: the first chunk is [0, 16);
        # a "]" given at 10 holds the text but ends inside it; its own place is [16, 17).
        text = "list = [[1], [2]]\n"
        result = placed(text, records(("list = [[1], [2]", 0), ("]", 10)))
        self.assertEqual(result, [("exact_offset", 0, 16, None), ("exact_order", 16, 17, "out_of_order")])

    def test_a_given_offset_before_the_previous_start_is_wrong(self) -> None:
        # "ab." [3, 6), then "ab ab." given at 0: it holds the text but starts before 3; the first
        # place by the rule is the second copy, [7, 13).
        result = placed(self.REPEATED, records(("ab.", 3), ("ab ab.", 0)))
        self.assertEqual(result, [("exact_offset", 3, 6, None), ("exact_order", 7, 13, "out_of_order")])

    def test_a_repeated_chunk_given_the_first_copy_s_offset_is_wrong(self) -> None:
        # text.find answers 0 for both copies of "ab ab."; the second may not take [0, 6) again
        # (the whitespace after it would otherwise let it "reach past" 6): it is [7, 13).
        for given in (0, None):
            with self.subTest(given=given):
                result = placed(self.REPEATED, records(("ab ab.", 0), ("ab ab.", given)))
                issue = "out_of_order" if given is not None else None
                self.assertEqual(result, [("exact_offset", 0, 6, None), ("exact_order", 7, 13, issue)])

    def test_an_out_of_order_chunk_at_its_only_place_keeps_its_offset(self) -> None:
        # "end" [14, 17), then "ab. end" given at 10: it holds the text but starts before 14, so the
        # rule refuses it; no place after 14 holds it, and it occurs once, at [10, 17): the offset agrees.
        result = placed(self.REPEATED, records(("end", 14), ("ab. end", 10)))
        self.assertEqual(result, [("exact_offset", 14, 17, None), ("exact_unique", 10, 17, None)])

    def test_a_verbatim_place_wins_over_an_earlier_whitespace_insensitive_one(self) -> None:
        # Lines: "<div>\n" [0, 6), "  <div>\n" [6, 14), "    <div>\n" [14, 24), "    </div>\n" [24, 35)
        # ("</div>" at 28), "  </div>\n" [35, 44) ("</div>" at 37), "</div>\n" [44, 51).
        text = "<div>\n  <div>\n    <div>\n    </div>\n  </div>\n</div>\n"
        # The first chunk ends after the first "</div>", at 34; "</div>\n</div>" is verbatim only at
        # [37, 50); whitespace set aside it matches from 28 already, [28, 43).
        result = placed(text, records(("<div>\n  <div>\n    <div>\n    </div>", None), ("</div>\n</div>", None)))
        self.assertEqual(result, [("exact_order", 0, 34, None), ("exact_order", 37, 50, None)])

    def test_an_end_counts_the_chunk_s_own_trailing_whitespace(self) -> None:
        # a0 a1 _2 b3 b4 _5 _6 _7 c8 c9 _10 b11 b12 _13 _14 _15 d16 d17 \n18. Token chunks that overlap:
        # "aa bb " [0, 6); "bb   " [3, 8), whose last letter lies inside [0, 6) but whose spaces reach
        # past it (a later copy is at [11, 16)); then "cc bb   dd\n" [8, 19).
        text = "aa bb   cc bb   dd\n"
        result = placed(text, records(("aa bb ", None), ("bb   ", None), ("cc bb   dd\n", None)))
        self.assertEqual([place[1:3] for place in result], [(0, 6), (3, 8), (8, 19)])

    def test_a_stripped_chunk_counts_the_whitespace_after_it(self) -> None:
        # "A B\n\nC\n": "A B" [0, 3); LangChain's overlap carries "B", stripped, as a chunk of its own:
        # [2, 3) ends inside [0, 3), but the blank line after it reaches past 3.
        result = placed("A B\n\nC\n", records(("A B", 0), ("B", 2), ("C", 5)))
        self.assertEqual(
            result, [("exact_offset", 0, 3, None), ("exact_offset", 2, 3, None), ("exact_offset", 5, 6, None)]
        )


class StrippedChunkOffsetTest(unittest.TestCase):
    """A splitter that strips each chunk's text but keeps the offsets of what it cut: the offsets are right."""

    def test_the_blank_lines_the_offsets_hold_are_set_aside(self) -> None:
        # "Intro." [0, 6), "\n\n", "## Usage" [8, 16), "\n", "Run it." [17, 24), "\n\n", "More." [26, 31): the
        # splitter cut [6, 26) (the blank lines on both sides) and wrote its text stripped, "## Usage\nRun it."
        # [8, 24), with the offsets 6 and 26.
        text = "Intro.\n\n## Usage\nRun it.\n\nMore.\n"
        chunk = ChunkRecord(1, "plain", "page", "## Usage\nRun it.", 6, 26, "start")
        self.assertEqual(placed(text, (chunk,)), [("exact_order", 8, 24, None)])
        # Text that is not white space between the two starts is a wrong offset, as before.
        wrong = ChunkRecord(1, "plain", "page", "## Usage\nRun it.", 2, 24, "start")
        self.assertEqual(placed(text, (wrong,))[0][3], "text_differs")

    def test_a_start_alone_before_its_text_is_wrong(self) -> None:
        # The same page; "## Usage\nRun it." given at 6 with no end spans its own 16 characters, [6, 22): it does
        # not hold the place found, [8, 24).
        text = "Intro.\n\n## Usage\nRun it.\n\nMore.\n"
        chunk = ChunkRecord(1, "plain", "page", "## Usage\nRun it.", 6, None, "start")
        self.assertEqual(placed(text, (chunk,)), [("exact_order", 8, 24, "text_differs")])

    def test_a_text_that_keeps_its_white_space_was_not_stripped_there(self) -> None:
        # "Call run().\n" is at [9, 21) of "# Guide\n\nCall run().\n\nIt refuses twice.\n"; given as [8, 22) it
        # would be a cut stripped at both sides, but the text still ends in its line break: the offsets are
        # one early, not a stripped cut's.
        text = "# Guide\n\nCall run().\n\nIt refuses twice.\n"
        chunk = ChunkRecord(1, "plain", "page", "Call run().\n", 8, 22, "start")
        self.assertEqual(placed(text, (chunk,)), [("exact_order", 9, 21, "text_differs")])
        stripped = ChunkRecord(1, "plain", "page", "Call run().", 8, 22, "start")
        self.assertEqual(placed(text, (stripped,)), [("exact_order", 9, 20, None)])

    def test_a_stripped_cut_that_repeats_the_end_of_the_chunk_before_is_where_its_offsets_say(self) -> None:
        # "# Setup" [0, 7), "Then call run" [9, 22), "run" [24, 27), "Done." [29, 34): cuts [0, 9), [9, 24),
        # [24, 29), [29, 35) at the blank lines, each text stripped. "run" also ends the chunk before, at [19, 22),
        # where the rule allows a chunk ending with it; its offsets hold it, blank line and all, at 24.
        text = "# Setup\n\nThen call run\n\nrun\n\nDone.\n"
        cuts = ((0, 9), (9, 24), (24, 29), (29, 35))
        made = tuple(
            ChunkRecord(line, "plain", "page", text[start:end].strip(), start, end, "start")
            for line, (start, end) in enumerate(cuts, start=1)
        )
        self.assertEqual(
            placed(text, made),
            [("exact_order", 0, 7, None), ("exact_order", 9, 22, None), ("exact_order", 24, 27, None),
             ("exact_order", 29, 34, None)],
        )  # fmt: skip

    def test_a_text_that_keeps_a_line_break_the_span_beyond_holds_was_not_stripped(self) -> None:
        # "Call run().\n" [9, 21) of "# Guide\n\nCall run().\n    run --fast\n", given [8, 22): the span beyond the
        # text holds "\n" before it and " " after it; the text keeps a "\n" at its end, so nothing stripped it.
        text = "# Guide\n\nCall run().\n    run --fast\n"
        chunk = ChunkRecord(1, "plain", "page", "Call run().\n", 8, 22, "start")
        self.assertEqual(placed(text, (chunk,)), [("exact_order", 9, 21, "text_differs")])

    def test_a_cut_stripped_at_one_side_is_read_at_that_side(self) -> None:
        # "Para two." [8, 17) of "Intro.\n\nPara two.\n\nEnd.\n", its line break kept: [6, 18) reaches before the
        # text only, over "\n\n", and the text keeps no white space at its start: a cut stripped at its start.
        text = "Intro.\n\nPara two.\n\nEnd.\n"
        chunk = ChunkRecord(1, "plain", "page", "Para two.\n", 6, 18, "start")
        self.assertEqual(placed(text, (chunk,)), [("exact_order", 8, 18, None)])

    def test_a_span_past_the_text_s_end_is_no_stripped_cut(self) -> None:
        # "End.\n" [8, 13) of the 13 characters "Intro.\n\nEnd.\n", given [6, 20): past the end, never a cut's span.
        chunk = ChunkRecord(1, "plain", "page", "End.\n", 6, 20, "start")
        self.assertEqual(placed("Intro.\n\nEnd.\n", (chunk,)), [("exact_order", 8, 13, "text_differs")])

    def test_a_cut_stripped_of_its_line_breaks_alone_keeps_its_indentation(self) -> None:
        # "Intro text." [0, 11), "\n\n", "    indented code" [13, 30), "\n\n", "More." [32, 37): a splitter that
        # strips "\n" alone cut [11, 30) and kept the code's four spaces. The white space beyond the text, "\n\n",
        # holds no space: a cut stripped of line breaks, right.
        text = "Intro text.\n\n    indented code\n\nMore.\n"
        chunk = ChunkRecord(1, "plain", "page", "    indented code", 11, 30, "start")
        self.assertEqual(placed(text, (chunk,)), [("exact_order", 13, 30, None)])


def sliding_windows(text: str) -> list[tuple[int, int]]:
    """A sliding-window splitter as users write one: 800-character windows every 700 characters."""
    return [(i, min(i + 800, len(text))) for i in range(0, len(text), 700)]


class ContainedWindowTest(unittest.TestCase):
    """A chunk that ends where the previous one ends (a sliding window's last window) follows the rule."""

    # 35 lines of 41 characters, so line k starts at 41 * k: a heading, a note, 32 numbered steps, the note again.
    NOTE = "Note: a retry waits for the server reply\n"
    STEPS = "".join(f"Step {k:02d}: wait twice as long, then retry.\n" for k in range(1, 33))
    PAGE = "# Retries: when and how the client waits\n" + NOTE + STEPS + NOTE

    def test_the_page_is_as_counted(self) -> None:
        self.assertEqual((len(self.NOTE), len(self.PAGE)), (41, 1_435))
        # Windows start at 0, 700 and 1400; the last is cut at the page's end, 1435, inside [700, 1435).
        self.assertEqual(sliding_windows(self.PAGE), [(0, 800), (700, 1435), (1400, 1435)])
        # 1400 = 34 * 41 + 6: the last window is the closing note from its 7th character, which the opening
        # note (line 1, from 41) holds too, at [47, 82).
        self.assertEqual(self.PAGE[1400:1435], self.NOTE[6:])
        self.assertEqual(self.PAGE[47:82], self.NOTE[6:])

    def test_the_last_window_of_a_sliding_window_splitter_is_exact_at_its_offset(self) -> None:
        spans = [(0, 800), (700, 1435), (1400, 1435)]
        chunks = tuple(
            ChunkRecord(line, "plain", "page", self.PAGE[start:end], start, end, "start")
            for line, (start, end) in enumerate(spans, start=1)
        )
        self.assertEqual(placed(self.PAGE, chunks), [("exact_offset", start, end, None) for start, end in spans])

    def test_without_offsets_the_last_window_is_placed_where_the_previous_one_ends(self) -> None:
        # Nothing reaches past 1435, the page's end; the note's tail also at [47, 82) lies before 700.
        spans = [(0, 800), (700, 1435), (1400, 1435)]
        chunks = records(*((self.PAGE[start:end], None) for start, end in spans))
        self.assertEqual(placed(self.PAGE, chunks), [("exact_order", start, end, None) for start, end in spans])

    def test_a_window_may_end_where_the_previous_one_ends_inside_the_page(self) -> None:
        # o0 n1 e2 _3 t4 w5 o6 _7 t8 h9 r10 e11 e12 \n13 #14 _15 F16 o17 u18 r19 \n20 f21 i22 v23 e24 \n25.
        # Windows of 8 every 6 within the first section [0, 14): [0, 8), [6, 14), then "e\n" [12, 14), inside
        # [6, 14) and ending with it; then the next section, [14, 26). "e\n" recurs at [24, 26), past 14.
        text = "one two three\n# Four\nfive\n"
        spans = [(0, 8), (6, 14), (12, 14), (14, 26)]
        chunks = records(*((text[start:end], start) for start, end in spans))
        self.assertEqual(placed(text, chunks), [("exact_offset", start, end, None) for start, end in spans])

    def test_placed_by_text_a_chunk_goes_past_the_previous_end_before_it_goes_back_to_it(self) -> None:
        # x0 a1 b2 a3 b4: windows of 3 without overlap, "xab" [0, 3) and "ab" [3, 5). "ab" also ends "xab",
        # [1, 3), which the rule allows; the place reaching past 3 comes first.
        self.assertEqual(
            placed("xabab", records(("xab", None), ("ab", None))),
            [("exact_order", 0, 3, None), ("exact_order", 3, 5, None)],
        )

    def test_modulo_whitespace_a_chunk_may_end_where_the_previous_one_ends(self) -> None:
        # a0 _1 b2 \n3 c4 _5 d6 \n7 a8 _9 b10 \n11 c12 _13 d14: 15 characters. "a b\nc d\na b" [0, 11), then
        # "a b\nc d" [8, 15) to the end; "b c d" is nowhere verbatim and, whitespace aside, at [2, 7) and
        # [10, 15): the second ends where the previous chunk ends.
        text = "a b\nc d\na b\nc d"
        result = placed(text, records(("a b\nc d\na b", 0), ("a b\nc d", 8), ("b c d", None)))
        self.assertEqual(
            result,
            [("exact_offset", 0, 11, None), ("exact_offset", 8, 15, None), ("modulo_whitespace", 10, 15, None)],
        )

    def test_the_previous_chunk_s_span_is_still_not_taken_again(self) -> None:
        # "ab ab. ab ab. end\n": "ab ab. end" [7, 17), then "end" given at 14: inside [7, 17) and ending with it.
        # "ab ab. end" given at 7 twice: the second is the previous span again, so not trusted there (not
        # "exact_offset"); its one place in the source is that span, so the offset is not reported.
        text = "ab ab. ab ab. end\n"
        self.assertEqual(
            placed(text, records(("ab ab. end", 7), ("end", 14))),
            [("exact_offset", 7, 17, None), ("exact_offset", 14, 17, None)],
        )
        self.assertEqual(
            placed(text, records(("ab ab. end", 7), ("ab ab. end", 7))),
            [("exact_offset", 7, 17, None), ("exact_unique", 7, 17, None)],
        )


class WhitespaceOnlyChunksTest(unittest.TestCase):
    """A chunk of whitespace alone is judged like any other, after the previous chunk's end when it can be."""

    def test_chunks_of_blank_lines_are_placed_in_order(self) -> None:
        # "# T\n" [0, 4), "\n" [4, 5), "One.\n" [5, 10), "\n\n" [10, 12), "Two.\n" [12, 17): the cuts of
        # semantic-text-splitter with trim=False. "\n\n" also fits [9, 11), inside "One.\n".
        text = "# T\n\nOne.\n\n\nTwo.\n"
        chunks = ["# T\n", "\n", "One.\n", "\n\n", "Two.\n"]
        expected = [(0, 4), (4, 5), (5, 10), (10, 12), (12, 17)]
        result = placed(text, records(*((chunk, None) for chunk in chunks)))
        self.assertEqual([place[1:3] for place in result], expected)
        with_offsets = placed(text, records(*zip(chunks, (start for start, _ in expected)), end=True))
        self.assertEqual(with_offsets, [("exact_offset", start, end, None) for start, end in expected])


class SplitterFrameTest(unittest.TestCase):
    """Offsets that count the byte order mark or the ``\\r`` of ``\\r\\n`` are mapped to the lab's text."""

    # The lab's text: "# Guide" [0, 7), "\n" 7 and 8, "Call run()." [9, 20), "\n" 20 and 21,
    # "It refuses twice." [22, 39), "\n" 39; 40 characters.
    LAB = "# Guide\n\nCall run().\n\nIt refuses twice.\n"
    # The file: a byte order mark, then every "\n" as "\r\n": 1 + 40 + 5 = 46 characters.
    FILE = "\ufeff" + LAB.replace("\n", "\r\n")

    def test_the_map_from_the_file_s_offsets(self) -> None:
        file = FileText(self.LAB, self.FILE)
        self.assertTrue(file.mark_dropped)
        both = file.dropped(OffsetFrame(True, True))
        # The mark at 0; the "\r" at 8 and 10 (before "Call" at 12), 23 and 25, 44.
        self.assertEqual(both, [0, 8, 10, 23, 25, 44])
        self.assertEqual([lab_offset(offset, both) for offset in (0, 1, 12, 27, 46)], [0, 0, 9, 22, 40])
        # Read with universal newlines, the splitter's text has the mark alone: "Call" at 10.
        self.assertEqual(lab_offset(10, file.dropped(OffsetFrame(True, False))), 9)

    def test_offsets_that_count_the_mark_and_the_carriage_returns(self) -> None:
        # The file's own slices: "\ufeff# Guide\r\n" [0, 10), "Call run().\r\n" [12, 25), "It refuses twice.\r\n" [27, 46).
        chunks = [("\ufeff# Guide\n", 0, 10), ("Call run().\n", 12, 25), ("It refuses twice.\n", 27, 46)]
        made = tuple(
            ChunkRecord(line, "plain", "page", text, start, end, "start", True)
            for line, (text, start, end) in enumerate(chunks, start=1)
        )
        result = placed(self.LAB, made, self.FILE)
        self.assertEqual(
            result, [("exact_offset", 0, 8, None), ("exact_offset", 9, 21, None), ("exact_offset", 22, 40, None)]
        )

    def test_offsets_that_count_the_mark_alone(self) -> None:
        # LangChain on open(path, encoding="utf-8"): the mark kept, line ends read as "\n"; chunk_size=20
        # cuts "\ufeff# Guide" at 0, "Call run()." at 10, "It refuses twice." at 23.
        made = records(("\ufeff# Guide", 0), ("Call run().", 10), ("It refuses twice.", 23))
        result = placed(self.LAB, made, self.FILE)
        self.assertEqual(
            result, [("exact_offset", 0, 7, None), ("exact_offset", 9, 20, None), ("exact_offset", 22, 39, None)]
        )

    def test_stripped_cuts_that_count_the_carriage_returns(self) -> None:
        # Without the mark: "# Guide\r\n\r\nCall run().\r\n\r\nIt refuses twice.\r\n", 45 characters. A splitter
        # cut [0, 11), [11, 26) and [26, 45), the blank lines inside, and stripped each text (no "\r" left in any):
        # the texts show no frame, and no offset holds its text verbatim in either. As stripped cuts only the
        # file's frame holds them: "\r" at 7, 9, 22, 24 and 43, so 11 -> 9 and 26 -> 22, [9, 22) "Call run().\n\n".
        file = self.LAB.replace("\n", "\r\n")
        made = tuple(
            ChunkRecord(line, "plain", "page", text, start, end, "start")
            for line, (text, start, end) in enumerate(
                (("# Guide", 0, 11), ("Call run().", 11, 26), ("It refuses twice.", 26, 45)), start=1
            )
        )
        result = placed(self.LAB, made, file)
        self.assertEqual(
            result, [("exact_order", 0, 7, None), ("exact_order", 9, 20, None), ("exact_order", 22, 39, None)]
        )

    def test_stripped_cuts_that_count_the_mark_are_told_by_the_last_one(self) -> None:
        # The lab's text "\n# Guide\n\nCall run().\n\nIt refuses twice.\n\n" (42 characters); the file has a byte order
        # mark before it, so every file offset is one more. Cuts [1, 10), [10, 22), [22, 43) of the file, each text
        # stripped: read as the lab's offsets the first two hold their text too, white space around it ([1, 10) is
        # "# Guide\n\n"), but the last ends past the lab's 42; counting the mark, all three hold.
        lab = "\n# Guide\n\nCall run().\n\nIt refuses twice.\n\n"
        made = tuple(
            ChunkRecord(line, "plain", "page", text, start, end, "start")
            for line, (text, start, end) in enumerate(
                (("# Guide", 1, 10), ("Call run().", 10, 22), ("It refuses twice.", 22, 43)), start=1
            )
        )
        locations = locate_chunks(made, ({"source_id": "page", "text": lab},), {"page": "\ufeff" + lab})
        self.assertEqual({location.frame for location in locations}, {OffsetFrame(True, False)})
        self.assertEqual(
            [(location.start, location.offset_issue) for location in locations], [(1, None), (10, None), (23, None)]
        )

    def test_stripped_chunks_of_a_text_read_with_its_mark_and_universal_newlines(self) -> None:
        # The file "\ufeff\r\n# A\r\n\r\nB b\r\n"; Python's default text read keeps the mark and reads "\n":
        # "\ufeff\n# A\n\nB b\n" (11 characters), where a stripping splitter cut [0, 7) and [7, 11), "\ufeff\n# A"
        # (strip stops at the mark) and "B b". The first text, its mark set aside, is "\n# A", stripped "# A": both
        # hold as stripped cuts in the mark's frame; in the one that also counts "\r", [7, 11) is "B b" verbatim,
        # by chance, and the first does not hold.
        lab = "\n# A\n\nB b\n"
        made = (
            ChunkRecord(1, "plain", "page", "\ufeff\n# A", 0, 7, "start"),
            ChunkRecord(2, "plain", "page", "B b", 7, 11, "start"),
        )
        locations = locate_chunks(made, ({"source_id": "page", "text": lab},), {"page": "\ufeff\r\n# A\r\n\r\nB b\r\n"})
        self.assertEqual({location.frame for location in locations}, {OffsetFrame(True, False)})
        self.assertEqual([location.offset_issue for location in locations], [None, None])

    def test_the_lab_s_own_offsets_stay_as_they_are(self) -> None:
        made = records(("# Guide", 0), ("Call run().", 9), ("It refuses twice.", 22))
        result = placed(self.LAB, made, self.FILE)
        self.assertEqual(
            result, [("exact_offset", 0, 7, None), ("exact_offset", 9, 20, None), ("exact_offset", 22, 39, None)]
        )


if __name__ == "__main__":
    unittest.main()


class ScannedText(str):
    """A source text that adds up how many characters its ``find`` calls may scan."""

    scanned = 0

    def find(self, needle, start=0, end=None):
        stop = len(self) if end is None else min(end, len(self))
        ScannedText.scanned += max(stop - start, 0)
        return super().find(needle, start, end)


class SearchCostTest(unittest.TestCase):
    """No span is walked again per chunk: the searches scan about the text once, not once per chunk."""

    def test_a_page_long_chunk_then_a_thousand_one_letter_chunks(self) -> None:
        # 600 lines "ab cd ef.\n" (10 characters each): 6,000 characters. The first chunk holds them all, so
        # no "a" can come after it: each of the 1,000 is ambiguous. A search that resumed at the previous
        # start and walked every "a" inside it would scan about 6,000 characters per chunk, 6,000,000 in all.
        text = ScannedText("ab cd ef.\n" * 600)
        chunks = records((str(text), None), *(("a", None) for _ in range(1_000)))
        ScannedText.scanned = 0
        locations = locate_chunks(chunks, ({"source_id": "page", "text": text},))
        self.assertEqual([location.state for location in locations[:2]], ["exact_order", "ambiguous"])
        self.assertEqual({location.state for location in locations[1:]}, {"ambiguous"})
        # The first chunk's search, then one short search past its end and one for the first places of "a".
        self.assertLess(ScannedText.scanned, 3 * len(text) + 10 * len(chunks))
