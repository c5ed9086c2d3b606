"""``context_windows``: smallest windows, recall by k, characters returned, precision and IoU.

Chunks are written by hand as the dicts ``policy_context`` takes; expected
figures are computed here from their offsets. The fixture's windows come from
the spec's chunk offsets (docs/SPEC.md): instruction ``[51, 77)``, qualifier
``[131, 171)``; fixed-char slices ``[50, 130)`` (order 0) and ``[130, 210)``
(order 1); paragraph chunks ``[51, 130)`` (0) and ``[131, 270)`` (1); one
heading-aware chunk ``[51, 270)`` (0).
"""

from __future__ import annotations

import json
import re
from unittest import mock

import chunk_index
from checks import context_windows, span_checks
from load_documents import Span, SpanCheck, load_manifest, located_span
from tests.support import MANIFEST, LabTestCase
from tests.test_caveat_scan import main_quietly
from views import report


def chunk(order: int, start: int, end: int, section: str = "A", source: str = "s") -> dict:
    return {"source_id": source, "order": order, "start": start, "end": end, "section_id": section}


def check(name: str, instruction: tuple[int, int], qualifier: tuple[int, int], source: str = "s") -> SpanCheck:
    """A check whose quotes are all non-whitespace (``"x"`` repeated to each span's length), as a loader would hold."""
    return SpanCheck(
        name,
        source,
        Span(*instruction, "x" * (instruction[1] - instruction[0])),
        Span(*qualifier, "x" * (qualifier[1] - qualifier[0])),
    )


# Four 10-character chunks; the fourth opens section B.
FOUR = [chunk(0, 0, 10), chunk(1, 10, 20), chunk(2, 20, 30), chunk(3, 30, 40, "B")]


class WindowTest(LabTestCase):
    """The smallest k, within the section and crossing headings, and the section rule."""

    def windows(self, chunks: list[dict], *checks: SpanCheck) -> list[dict]:
        return context_windows.policy_context("p", chunks, checks)["windows"]

    def test_windows_on_four_chunks(self) -> None:
        cases = [
            # (instruction, qualifier, window, crossing, section)
            ((2, 5), (6, 9), 0, 0, True),
            ((2, 5), (12, 15), 1, 1, True),
            ((2, 5), (25, 28), 2, 2, True),
            ((2, 5), (8, 15), 1, 1, True),  # the union of chunks 0 and 1 covers it
            ((2, 5), (32, 35), None, 3, False),  # across the heading of B
            ((22, 25), (2, 5), 2, 2, True),  # a qualifier before its instruction
        ]
        for instruction, qualifier, window, crossing, section in cases:
            with self.subTest(instruction=instruction, qualifier=qualifier):
                found = self.windows(FOUR, check("c", instruction, qualifier))[0]
                self.assertEqual(
                    found, {"name": "c", "window": window, "window_crossing_headings": crossing, "section": section}
                )

    def test_an_instruction_no_chunk_holds_whole_is_anchored_where_it_begins(self) -> None:
        # [8, 12) lies across chunks 0 and 1: the anchor is chunk 0, which holds 8; the qualifier
        # [25, 28) is in chunk 2, two positions on. Never kept, even when k = 0 would cover the qualifier.
        figures = context_windows.policy_context("p", FOUR, (check("c", (8, 12), (25, 28)),))
        self.assertEqual(figures["windows"][0]["window"], 2)
        self.assertEqual((figures["kept"], figures["anchored_at_start"], figures["not_recoverable"]), (0, 1, 0))
        self.assertEqual(figures["recall"]["1"], 0.0)
        self.assertEqual(figures["recall"]["2"], 1.0)
        self.assertIn(
            "1 anchored where the instruction begins (no chunk holds it whole)",
            context_windows.context_summary_line(figures),
        )
        before = context_windows.policy_context("p", FOUR, (check("c", (8, 12), (2, 5)),))
        self.assertEqual((before["windows"][0]["window"], before["kept"]), (0, 0))
        # Its qualifier [2, 5) is in the anchor chunk 0: k=0 recovers it, the table's k=0 counts it, "kept" does not.
        self.assertIn(
            "1 anchored where the instruction begins (no chunk holds it whole; 1 of them with the qualifier at k=0, "
            "in the table's k=0 but not kept)",
            context_windows.context_summary_line(before),
        )

    def test_an_instruction_beginning_in_no_chunk_is_not_recoverable(self) -> None:
        gapped = [chunk(0, 0, 10), chunk(1, 12, 20)]
        figures = context_windows.policy_context("p", gapped, (check("c", (10, 14), (15, 18)),))
        self.assertEqual(figures["windows"][0]["window"], None)
        self.assertEqual((figures["anchored_at_start"], figures["not_recoverable"]), (0, 1))
        self.assertEqual(figures["recall"]["3"], 0.0)
        self.assertIn("1 not recoverable", context_windows.context_summary_line(figures))

    def test_a_gap_in_the_qualifier_is_never_covered(self) -> None:
        gapped = [chunk(0, 0, 10), chunk(1, 12, 20)]
        self.assertEqual(self.windows(gapped, check("c", (2, 5), (8, 15)))[0]["window"], None)

    def test_overlapping_holders_pick_the_smallest_window(self) -> None:
        # Chunks 0 and 1 both hold the instruction [8, 10); only chunk 1 also holds the qualifier.
        overlapping = [chunk(0, 0, 10), chunk(1, 5, 20), chunk(2, 15, 30)]
        self.assertEqual(self.windows(overlapping, check("c", (8, 10), (16, 19)))[0]["window"], 0)

    def test_sources_are_apart(self) -> None:
        two = [chunk(0, 0, 10, source="a"), chunk(0, 0, 10, source="b"), chunk(1, 10, 20, source="b")]
        found = self.windows(two, check("c", (2, 5), (12, 15), source="a"))[0]
        self.assertEqual((found["window"], found["window_crossing_headings"]), (None, None))

    def test_order_not_list_position_decides_neighbours(self) -> None:
        shuffled = [FOUR[2], FOUR[0], FOUR[3], FOUR[1]]
        self.assertEqual(self.windows(shuffled, check("c", (2, 5), (25, 28)))[0]["window"], 2)


class ManyHoldersTest(LabTestCase):
    """Many chunks holding one instruction (a judged file of repeated chunks) share one look at the qualifier."""

    def test_the_qualifier_is_looked_up_once_per_section_not_per_holder(self) -> None:
        # 600 identical chunks [0, 10) hold the instruction [2, 5); each one used to look the qualifier's
        # chunks up again, 600 x 600 steps. The windows: none reaches [20, 25); chunk 600 holds [12, 15).
        repeated = [chunk(order, 0, 10) for order in range(600)] + [chunk(600, 10, 20)]
        with mock.patch.object(context_windows, "touching", wraps=context_windows.touching) as looked_up:
            figures = context_windows.policy_context("p", repeated, (check("far", (2, 5), (20, 25)),))
        self.assertEqual(figures["windows"][0]["window"], None)
        self.assertLessEqual(looked_up.call_count, 3)
        # The nearest holder of the instruction to chunk 600 is chunk 599: one step away.
        self.assertEqual(self.windows(repeated, check("near", (2, 5), (12, 15)))[0]["window"], 1)

    def windows(self, chunks: list[dict], *checks: SpanCheck) -> list[dict]:
        return context_windows.policy_context("p", chunks, checks)["windows"]

    def test_a_window_joins_helpers_on_both_sides(self) -> None:
        # The qualifier [10, 20) is half in chunk 0 and half in chunk 2; the anchor is chunk 1.
        sides = [chunk(0, 8, 15), chunk(1, 0, 8), chunk(2, 15, 22)]
        self.assertEqual(self.windows(sides, check("c", (2, 5), (10, 20)))[0]["window"], 1)


# "Call save. It refuses an existing path.": the instruction [0, 10), the qualifier [11, 39);
# offset 21 is the space between "refuses" and "an".
PAGE = "Call save. It refuses an existing path."


def page_check(instruction: tuple[int, int] = (0, 10), qualifier: tuple[int, int] = (11, 39)) -> SpanCheck:
    """A check whose quotes are the page's text at its spans, as the loader checks them."""
    return SpanCheck("c", "s", Span(*instruction, PAGE[slice(*instruction)]), Span(*qualifier, PAGE[slice(*qualifier)]))


def in_section_a(source_id: str, offset: int) -> str:
    """``section_of`` for judged chunks that all lie in section A."""
    return "A"


class WhitespaceGapTest(LabTestCase):
    """A window recovers a span when its judged chunks hold every non-whitespace character of it, as coverage counts."""

    def windows(self, chunks: list[dict], span_check: SpanCheck, section_of=in_section_a) -> dict:
        return context_windows.policy_context("p", chunks, (span_check,), section_of)["windows"][0]

    def test_the_loader_finds_the_pages_quotes_at_the_hand_counted_offsets(self) -> None:
        # "Call save." is 10 characters, then one space; the qualifier's 28 characters end the page.
        for quote, span in (
            ("Call save.", (0, 10)),
            ("It refuses an existing path.", (11, 39)),
            ("refuses an", (14, 24)),
        ):
            with self.subTest(quote=quote):
                self.assertEqual(located_span(quote, PAGE, "s", "check"), Span(*span, quote))

    def test_a_one_space_gap_where_a_splitter_cut_is_recovered(self) -> None:
        # Chunk 0 [0, 21) ends with "refuses", chunk 1 [22, 39) starts with "an": only the space is in neither.
        stripped = [chunk(0, 0, 21), chunk(1, 22, 39)]
        found = self.windows(stripped, page_check())
        self.assertEqual(found, {"name": "c", "window": 1, "window_crossing_headings": 1, "section": True})

    def test_gaps_holding_a_character_stay_gaps(self) -> None:
        cases = [
            ("a lost letter", [chunk(0, 0, 21), chunk(1, 23, 39)]),  # [21, 23) is " a"
            ("the qualifier's last character", [chunk(0, 0, 21), chunk(1, 22, 38)]),  # "." at 38
            ("its first character", [chunk(0, 0, 10), chunk(1, 12, 39)]),  # "I" at 11
        ]
        for label, chunks in cases:
            with self.subTest(label):
                found = self.windows(chunks, page_check())
                self.assertEqual(
                    (found["window"], found["window_crossing_headings"], found["section"]), (None, None, False)
                )

    def test_whitespace_at_a_span_edge_need_not_be_held(self) -> None:
        # The instruction quoted with its following space, [0, 11); chunk 0 [0, 10) was stripped of it.
        # It still holds every non-whitespace character, so it anchors the pair; chunk 1 holds the qualifier.
        found = self.windows([chunk(0, 0, 10), chunk(1, 11, 39)], page_check(instruction=(0, 11)))
        self.assertEqual((found["window"], found["window_crossing_headings"]), (1, 1))
        # The qualifier quoted with the space before it, [10, 39): chunk 1 [11, 39) holds it.
        found = self.windows([chunk(0, 0, 10), chunk(1, 11, 39)], page_check(qualifier=(10, 39)))
        self.assertEqual(found["window"], 1)

    def test_the_labs_own_chunks_hold_spans_exactly_as_the_main_job_compares(self) -> None:
        # Without section_of the chunks are the lab's: the instruction [0, 11) with its space is not
        # held by chunk 0 [0, 10), so the anchor falls back to where it begins; the one-space gap
        # at 21 is a gap, so no window recovers the qualifier.
        found = self.windows([chunk(0, 0, 10), chunk(1, 11, 39)], page_check(instruction=(0, 11)), None)
        figures = context_windows.policy_context("p", [chunk(0, 0, 10), chunk(1, 11, 39)], (page_check((0, 11)),))
        self.assertEqual((found["window"], figures["anchored_at_start"]), (1, 1))
        found = self.windows([chunk(0, 0, 21), chunk(1, 22, 39)], page_check(), None)
        self.assertEqual((found["window"], found["section"]), (None, False))

    def test_the_cover_joins_across_whitespace_only(self) -> None:
        cover = context_windows.SpanCover(Span(0, 7, "ab cd e"), judged=True)
        cover.add(3, 5)
        cover.add(0, 2)
        self.assertEqual((cover.starts, cover.ends, cover.whole), ([0], [5], False))
        cover.add(6, 9)
        self.assertEqual((cover.starts, cover.ends, cover.whole), ([0], [7], True))
        self.assertEqual(context_windows.trimmed(Span(4, 10, " ab c ")), (5, 9))
        self.assertEqual(context_windows.trimmed(Span(4, 6, "  ")), (4, 6))
        exact = context_windows.SpanCover(Span(0, 7, "ab cd e"))
        exact.add(0, 2)
        exact.add(3, 7)
        self.assertEqual((exact.starts, exact.ends, exact.whole), ([0, 3], [2, 7], False))


class PairSectionTest(LabTestCase):
    """The "within the section" window is bounded by the pair's section, not by where its anchor starts."""

    def test_an_anchor_starting_in_the_section_before(self) -> None:
        # Section B's heading is at 5. Chunk 0 [0, 10) starts in A and reaches into B, where the
        # instruction [6, 9) lies; chunk 1 [10, 20) holds the qualifier [12, 15), also in B.
        chunks = [dict(chunk(0, 0, 10, "A"), section_ids=["A", "B"]), chunk(1, 10, 20, "B")]
        pair = (check("c", (6, 9), (12, 15)),)

        def section_of(source_id: str, offset: int) -> str:
            return "A" if offset < 5 else "B"

        figures = context_windows.policy_context("p", chunks, pair, section_of)
        self.assertEqual(
            figures["windows"][0], {"name": "c", "window": 1, "window_crossing_headings": 1, "section": True}
        )
        # Section B's chunks are both: 20 characters, as k = 1 returns.
        self.assertEqual((figures["mean_chars"]["1"], figures["mean_chars"]["section"]), (20, 20))
        # Without the pair's section, the anchor's (A) bounds the window: chunk 1 is outside it.
        alone = context_windows.policy_context("p", chunks, pair)["windows"][0]
        self.assertEqual((alone["window"], alone["window_crossing_headings"]), (None, 1))


class FiguresTest(LabTestCase):
    """Recall, characters returned, precision and IoU on spans with known overlaps."""

    def test_two_chunks(self) -> None:
        chunks = [chunk(0, 0, 10), chunk(1, 10, 20)]
        figures = context_windows.policy_context("p", chunks, (check("c", (2, 4), (12, 16)),))
        # k=0 returns [0, 10): 2 relevant characters of 10; union with the 6 relevant is 14.
        self.assertEqual(figures["mean_chars"]["0"], 10)
        self.assertEqual(figures["precision"]["0"], 0.2)
        self.assertEqual(figures["iou"]["0"], round(2 / 14, 4))
        # k=1 returns [0, 20): all 6 relevant of 20.
        self.assertEqual(figures["mean_chars"]["1"], 20)
        self.assertEqual(figures["precision"]["1"], 0.3)
        self.assertEqual(figures["iou"]["1"], 0.3)
        self.assertEqual(figures["recall"], {"0": 0.0, "1": 1.0, "2": 1.0, "3": 1.0, "section": 1.0})
        self.assertEqual(figures["kept"], 0)

    def test_overlaps_count_twice_in_characters_once_in_the_union(self) -> None:
        chunks = [chunk(0, 0, 10), chunk(1, 6, 16)]
        figures = context_windows.policy_context("p", chunks, (check("c", (2, 4), (12, 14)),))
        self.assertEqual(figures["mean_chars"]["1"], 20)
        # The union [0, 16) holds all 4 relevant characters.
        self.assertEqual(figures["precision"]["1"], 0.25)
        self.assertEqual(figures["iou"]["1"], 0.25)

    def test_the_section_rule_and_means_over_pairs(self) -> None:
        checks = (check("near", (2, 5), (12, 15)), check("far", (2, 5), (32, 35)))
        figures = context_windows.policy_context("p", FOUR, checks)
        self.assertEqual(figures["recall"]["section"], 0.5)
        self.assertEqual(figures["recall_crossing_headings"]["3"], 1.0)
        # Section A is chunks 0-2, 30 characters, for both pairs.
        self.assertEqual(figures["mean_chars"]["section"], 30)
        near = 6 / 30
        far = 3 / 30  # only the instruction lies in section A
        self.assertEqual(figures["precision"]["section"], round((near + far) / 2, 4))
        # k=3 within the section returns the same three chunks.
        self.assertEqual(figures["mean_chars"]["3"], 30)
        # At k=1 each pair gets chunks 0 and 1: 20 characters.
        self.assertEqual(figures["mean_chars"]["1"], 20)

    def test_no_checks(self) -> None:
        figures = context_windows.policy_context("p", FOUR, ())
        self.assertEqual((figures["pairs"], figures["recall"]["0"]), (0, 0.0))
        self.assertEqual(context_windows.context_summary_line(figures), "p: no span checks")


class FixtureContextTest(LabTestCase):
    """On the fixture: k=1 under fixed-char and paragraph, k=0 under heading-aware."""

    SPEC_CHUNKS = {
        "fixed-char": [(50, 130), (130, 210)],
        "paragraph": [(51, 130), (131, 270)],
        "heading-aware": [(51, 270)],
    }

    def test_windows_from_the_spec_offsets(self) -> None:
        manifest = load_manifest(MANIFEST)
        indexes = chunk_index.build_indexes(manifest.sources)
        for name, spans in self.SPEC_CHUNKS.items():
            with self.subTest(policy=name):
                holds_instruction = next(n for n, (start, end) in enumerate(spans) if start <= 51 and 77 <= end)
                holds_qualifier = next(n for n, (start, end) in enumerate(spans) if start <= 131 and 171 <= end)
                expected = abs(holds_qualifier - holds_instruction)
                v1 = [chunk for chunk in indexes[name]["chunks"] if chunk["source_id"] == "aster-copy-v1"]
                self.assertEqual([(c["start"], c["end"]) for c in v1[: len(spans)]], spans)
                figures = context_windows.policy_context(name, indexes[name]["chunks"], manifest.span_checks)
                self.assertEqual(figures["windows"][0]["window"], expected)
                self.assertEqual(figures["recall"][str(expected)], 1.0)

    def test_command_json_and_summary(self) -> None:
        code, out, err = main_quietly("context", "--json")
        self.assertEqual((code, err), (0, ""))
        policies = {figures["policy"]: figures for figures in json.loads(out)["policies"]}
        self.assertEqual(policies["fixed-char"]["recall"]["0"], 0.0)
        self.assertEqual(policies["fixed-char"]["recall"]["1"], 1.0)
        self.assertEqual(policies["paragraph"]["recall"]["1"], 1.0)
        self.assertEqual(policies["heading-aware"]["recall"]["0"], 1.0)
        code, out, _ = main_quietly("context")
        self.assertEqual(code, 0)
        # Paragraph: k=0 returns [51, 130), 79 characters; k=1 adds [131, 270), 139 more.
        self.assertIn(f"paragraph: 0 of 1 kept; k=1 recovers 1 of 1 at {(79 + 139) / 79:.1f}x the characters", out)
        self.assertIn("fixed-char: 0 of 1 kept; k=1 recovers 1 of 1 at 2.0x the characters", out)
        self.assertIn("heading-aware: 1 of 1 kept; k=0 suffices", out)

    def test_scanned_pairs_join_the_declared(self) -> None:
        code, out, _ = main_quietly("context", "--scanned", "--json")
        self.assertEqual(code, 0)
        self.assertEqual(
            json.loads(out)["checks"],
            [
                "save-copy-refuses-existing-path",
                "scan:aster-copy-v1:7#2",
                "scan:aster-copy-v1:13",
                "scan:aster-copy-v2:7",
            ],
        )
        # --tier 1 keeps only the scanned pairs of tier 1: the "never" prohibition linked by save_copy.
        code, out, _ = main_quietly("context", "--scanned", "--tier", "1", "--json")
        self.assertEqual(code, 0)
        self.assertEqual(json.loads(out)["checks"], ["save-copy-refuses-existing-path", "scan:aster-copy-v1:7#2"])

    def test_a_tier_without_scanned_is_refused(self) -> None:
        # The declared checks have no tier: --tier alone would filter nothing, so it is a usage error.
        code, out, err = main_quietly("context", "--tier", "1")
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(
            err, "error: usage: context: --tier picks among the pairs scan finds; add --scanned to measure them\n"
        )
        # Named by the command, as every usage refusal is; so is --no-cache without a scan.
        code, out, err = main_quietly("context", "--no-cache")
        self.assertEqual(
            (code, out, err),
            (2, "", "error: usage: context: --no-cache is about the scan's cache; add --scanned to scan\n"),
        )


class ReportWindowTest(LabTestCase):
    """The HTML report lists every span check and outlines the window that recovers a split one."""

    def report(self, checks: tuple) -> str:
        manifest = load_manifest(MANIFEST)
        result = span_checks.build_checked_result(manifest.sources, checks)
        return report.html_report(result, checks)

    def test_the_fixture_pair(self) -> None:
        checks = load_manifest(MANIFEST).span_checks
        page = self.report(checks)
        row = re.search(r'<tr class="pair[^"]*">(.*?)</tr>', page).group(1)
        cells = [
            re.sub(r"<[^>]+>", " ", cell.replace("<wbr>", "")).split()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)
        ]
        self.assertEqual(
            [" ".join(cell) for cell in cells],
            [
                "1",
                "save-copy-refuses-existing-path",
                # The fixture's instruction, 26 characters, and its qualifier, 40: under 64, whole.
                "Call save_copy(path, text)",
                "This operation refuses an existing path.",
                "docs/aster-copy-v1.md",
                # The instruction opens line 5, the caveat line 7.
                "5–7",
                "split · fixed-width cut k=1 recovers it (chunks 0–1)",
                "split · block break k=1 recovers it (chunks 0–1)",
                "kept same chunk",
            ],
        )
        # The k=1 window is chunks 0 and 1 of aster-copy-v1 under fixed-char ([50, 130) and [130, 210)) and
        # under paragraph ([51, 130) and [131, 270)); heading-aware keeps the pair and outlines none.
        caption = r'<span class="s\d win">(?:<span class="cutname">[^<]*</span>)?<span class="cap"[^>]*>'
        outlined = re.findall(caption + r"chunk (\d+) [^<]* (\[\d+, \d+\))", page)
        self.assertEqual(outlined, [("0", "[50, 130)"), ("0", "[51, 130)"), ("1", "[130, 210)"), ("1", "[131, 270)")])

    def test_names_are_escaped(self) -> None:
        base = load_manifest(MANIFEST).span_checks[0]
        hostile = SpanCheck("scan:</td><script>x</script>", base.source_id, base.instruction, base.qualifier)
        page = self.report((hostile,))
        self.assertNotIn("<script>x", page)
        # The table's link may break the name after each "/" (an inert <wbr>, outside every entity).
        self.assertIn('<a href="#pair-1">scan:&lt;/<wbr>td&gt;&lt;script&gt;x&lt;/<wbr>script&gt;</a>', page)
        self.assertIn("<h3>1. scan:&lt;/td&gt;&lt;script&gt;x&lt;/script&gt;</h3>", page)


class NoChecksTest(LabTestCase):
    """A manifest without span checks gets one line saying how to get some."""

    def test_hint(self) -> None:
        manifest = self.copy_inputs()
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"] = []
        manifest.write_text(json.dumps(value), encoding="utf-8")
        code, out, err = main_quietly("context", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, context_windows.NO_CHECKS + "\n")
