"""``run.py judge`` on chunk files as real pipelines write them: BOM and CRLF pages, blank chunks, the lab's export.

Every page is written for its test in a temporary folder and pinned there;
expected offsets are counted by hand in the comments. The export test
compares two computations the lab makes independently: a policy's row as
the lab builds it, and the same chunks read back from ``export`` and judged.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import ROOT, LabTestCase
from tests.test_judge import in_process

# The lab's text of the page below: "# Guide" [0, 7), "\n" at 7 and 8, "Call run()." [9, 20), "\n" at 20
# and 21, "It refuses twice." [22, 39), "\n" at 39: 40 characters. The file adds a byte order mark and
# a "\r" before each of the five "\n": 46 characters.
PAGE = "# Guide\n\nCall run().\n\nIt refuses twice.\n"
PAGE_BYTES = b"\xef\xbb\xbf" + PAGE.replace("\n", "\r\n").encode("utf-8")


class JudgeFilesTestCase(LabTestCase):
    def pinned(self, pages: dict[str, bytes], grammar: str = "blocks-2") -> Path:
        """A manifest in the test's folder pinning ``pages`` (name -> bytes) under ``grammar``."""
        manifest = self.folder / "manifest.json"
        for name, data in pages.items():
            (self.folder / name).write_bytes(data)
            code, _, stderr = in_process(
                "pin", str(self.folder / name), "--manifest", str(manifest), "--markdown", grammar
            )
            self.assertEqual(code, 0, stderr)
        return manifest

    def write_chunks(self, records: list[dict], name: str = "chunks.jsonl") -> Path:
        path = self.folder / name
        path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
        return path

    def exported(self, chunks: Path, manifest: Path) -> tuple[str, Path]:
        """``export --chunks`` of ``chunks`` into ``exported.jsonl``: what it printed, and the file, once it
        succeeded."""
        exported = self.folder / "exported.jsonl"
        code, stdout, stderr = in_process(
            "export", "--chunks", str(chunks), "--manifest", str(manifest), "--output", str(exported)
        )
        self.assertEqual((code, stderr), (0, ""))
        return stdout, exported

    def judged(self, chunks: Path, manifest: Path) -> dict:
        code, stdout, stderr = in_process("judge", str(chunks), "--manifest", str(manifest), "--json")
        self.assertEqual(code, 0, stderr)
        return json.loads(stdout)


def places(result: dict) -> list[tuple]:
    return [(chunk["state"], chunk["start"], chunk["end"], chunk["offset_wrong"]) for chunk in result["chunks"]]


class SplitterViewTest(JudgeFilesTestCase):
    """Offsets and text as the splitter read the file: its byte order mark, its ``\\r\\n`` line ends."""

    def test_langchain_on_a_file_read_with_its_byte_order_mark(self) -> None:
        manifest = self.pinned({"guide.md": PAGE_BYTES})
        # open(path, encoding="utf-8") keeps the mark and reads "\r\n" as "\n": the splitter's text is the
        # mark then the lab's text, so its start_index is the lab's offset plus one after the first chunk.
        records = [
            {"page_content": text, "metadata": {"source": "guide.md", "start_index": start}}
            for text, start in (("\ufeff# Guide", 0), ("Call run().", 10), ("It refuses twice.", 23))
        ]
        result = self.judged(self.write_chunks(records), manifest)
        expected = [("exact_offset", 0, 7, False), ("exact_offset", 9, 20, False), ("exact_offset", 22, 39, False)]
        self.assertEqual(places(result), expected)
        self.assertEqual(
            result["offset_frames"], [{"source_id": "guide", "byte_order_mark": True, "carriage_returns": False}]
        )
        self.assertEqual(result["policies"][-1]["coverage"]["total"]["uncovered_chars"], 0)
        code, stdout, _ = in_process("judge", str(self.folder / "chunks.jsonl"), "--manifest", str(manifest))
        self.assertIn(
            "  offsets of guide count the file's byte order mark, which the lab's normalized text drops: mapped to it",
            stdout.splitlines(),
        )

    def test_export_of_chunks_places_them_as_judge_does(self) -> None:
        # The LlamaIndex slices below, their mark and "\r" counted (the last ends at 46, past the lab's 40): export
        # --chunks maps them to the lab's text as judge does, every chunk located, none left out.
        manifest = self.pinned({"guide.md": PAGE_BYTES})
        slices = (("\ufeff# Guide\r\n", 0, 10), ("Call run().\r\n", 12, 25), ("It refuses twice.\r\n", 27, 46))
        chunks = self.write_chunks(
            [
                {"text": text, "metadata": {"file_name": "guide.md"}, "start_char_idx": start, "end_char_idx": end}
                for text, start, end in slices
            ]
        )
        stdout, exported = self.exported(chunks, manifest)
        # Each record's text is the source's, "\n" for the file's "\r\n" and without the mark: the line says so.
        self.assertEqual(
            stdout,
            f"exported 3 judged chunks of {chunks} (3 records with the source's text at its place, not the file's: "
            f"3 where it differs in line ends or a byte order mark only) to {exported}\n",
        )
        spans = [json.loads(line)["metadata"] for line in exported.read_text(encoding="utf-8").splitlines()]
        self.assertEqual([(entry["start"], entry["end"]) for entry in spans], [(0, 8), (9, 21), (22, 40)])

    def test_a_caveat_in_the_chunk_where_its_instruction_starts_is_counted(self) -> None:
        # "Never call run twice." [5, 26) then "Call run() once to start the server." [27, 63): the judged chunks cut
        # at 37, inside the instruction. No chunk holds it whole; the first, where it starts, holds the caveat:
        # context's anchor brings it, and export --carry-caveats carries nothing there.
        text = "# G\n\nNever call run twice. Call run() once to start the server.\n"
        manifest = self.pinned({"g.md": text.encode("utf-8")})
        self.set_span_checks(
            manifest,
            [
                {
                    "name": "once",
                    "source_id": "g",
                    "instruction": {"quote": "Call run() once to start the server."},
                    "qualifier": {"quote": "Never call run twice."},
                }
            ],
        )
        chunks = self.write_chunks(
            [{"text": text[:37], "source_id": "g", "start": 0}, {"text": text[37:], "source_id": "g", "start": 37}]
        )
        row = self.judged(chunks, manifest)["policies"][-1]
        self.assertEqual((row["pairs_kept_together"], row["pairs_at_instruction_start"]), (0, 1))
        self.assertEqual(
            [(pair["caveat_at_instruction_start"], pair["partial"]) for pair in row["pairs"]], [(True, False)]
        )
        # Chunks that overlap where the instruction starts, [0, 37) and [20, 40): export carries the caveat to one;
        # judge of that export counts the pair carried, once, not at the instruction's start.
        overlapping = self.write_chunks(
            [
                {"text": text[:37], "source_id": "g", "start": 0},
                {"text": text[20:40], "source_id": "g", "start": 20},
                {"text": text[40:], "source_id": "g", "start": 40},
            ],
            "overlapping.jsonl",
        )
        exported = self.folder / "carried.jsonl"
        code, stdout, stderr = in_process(
            "export", "--chunks", str(overlapping), "--manifest", str(manifest), "--carry-caveats", "--output",
            str(exported),
        )  # fmt: skip
        self.assertEqual((code, stderr), (0, ""))
        self.assertIn("1 chunk carries 1 caveat", stdout)
        row = self.judged(exported, manifest)["policies"][-1]
        self.assertEqual((row["pairs_carried"], row["pairs_at_instruction_start"]), (1, 0))

    def test_a_page_of_front_matter_alone_is_no_covered_page(self) -> None:
        # "index.md" holds front matter and nothing else: no text to cover, said apart from the page covered whole.
        manifest = self.pinned(
            {"guide.md": b"# Guide\n\nCall run().\n", "index.md": b"---\ntitle: Home\n---\n"}, grammar="blocks-3"
        )
        chunks = self.write_chunks([{"text": "# Guide\n\nCall run().\n", "source_id": "guide"}])
        code, stdout, stderr = in_process("judge", str(chunks), "--manifest", str(manifest))
        self.assertEqual((code, stderr), (0, ""))
        lines = stdout.splitlines()
        self.assertIn("coverage of guide: every non-whitespace character in exactly one chunk", lines)
        self.assertIn("1 source holds no text to cover (front matter alone, or blank)", lines)
        # With a page left out too, the page covered whole is "the other source with text".
        manifest = self.pinned({"more.md": b"# More\n\nStop it.\n"}, grammar="blocks-3")
        code, stdout, stderr = in_process("judge", str(chunks), "--manifest", str(manifest))
        self.assertEqual((code, stderr), (0, ""))
        self.assertIn(
            "coverage of the other 1 source with text: every non-whitespace character in exactly one chunk",
            stdout.splitlines(),
        )

    def test_ambiguous_chunks_are_in_a_pinned_page_so_no_hint_says_otherwise(self) -> None:
        # "Repeat me." is at [5, 15) and [17, 27) of the page, both before "B end." [29, 35), placed first: each of
        # the three after it is ambiguous, in the page twice; none is in another page.
        manifest = self.pinned({"n.md": b"# N\n\nRepeat me.\n\nRepeat me.\n\nB end.\n"})
        chunks = self.write_chunks(
            [{"text": "B end.", "source_id": "n"}] + [{"text": "Repeat me.", "source_id": "n"}] * 3
        )
        code, stdout, stderr = in_process("judge", str(chunks), "--manifest", str(manifest))
        self.assertEqual((code, stderr), (0, ""))
        self.assertEqual(
            stdout.splitlines()[0],
            f"{chunks.name}: located 1 of 4 plain records: 1 exact by order, 3 ambiguous; PARTIAL judgement: "
            "unlocated chunks are left out of every figure",
        )

    def test_export_of_chunks_says_how_many_records_hold_the_source_s_text_not_the_file_s(self) -> None:
        # A splitter that collapsed "Call run().\nIt refuses twice." to one line: the record holds the source's text
        # at that place, line break and all, and the line says one record does.
        manifest = self.pinned({"guide.md": b"# Guide\n\nCall run().\nIt refuses twice.\n"})
        chunks = self.write_chunks([{"text": "Call run(). It refuses twice.", "metadata": {"source": "guide.md"}}])
        stdout, exported = self.exported(chunks, manifest)
        self.assertEqual(
            stdout,
            f"exported 1 judged chunk of {chunks} (1 record with the source's text at its place, not the file's: "
            f"1 where it differs in white space) to {exported}\n",
        )
        record = json.loads(exported.read_text(encoding="utf-8"))
        self.assertEqual(record["text"], "Call run().\nIt refuses twice.")

    def test_export_of_chunks_counts_headings_and_line_ends_apart_from_white_space(self) -> None:
        # "# Guide\n\nCall run().\r\nIt refuses twice.\r\n\r\n## Limits\r\n\r\nNever call twice.\r\n": a chunk that
        # skips the "## Limits" line is placed only with heading lines set aside, so its record gains them; one
        # with the file's "\r\n" is the source's text once they are "\n", as the lab reads the page; one as the
        # source has it is no change.
        manifest = self.pinned(
            {
                "guide.md": b"# Guide\r\n\r\nCall run().\r\nIt refuses twice.\r\n\r\n## Limits\r\n\r\n"
                b"Never call twice.\r\n"
            }
        )
        chunks = self.write_chunks(
            [
                {"text": "# Guide", "metadata": {"source": "guide.md"}},
                {"text": "Call run().\r\nIt refuses twice.", "metadata": {"source": "guide.md"}},
                {"text": "It refuses twice.\n\nNever call twice.", "metadata": {"source": "guide.md"}},
            ]
        )
        stdout, exported = self.exported(chunks, manifest)
        self.assertEqual(
            stdout,
            f"exported 3 judged chunks of {chunks} (2 records with the source's text at its place, not the file's: "
            f"1 where the file's lacks heading lines, 1 where it differs in line ends or a byte order mark only) "
            f"to {exported}\n",
        )
        texts = [json.loads(line)["text"] for line in exported.read_text(encoding="utf-8").splitlines()]
        self.assertEqual(
            texts, ["# Guide", "Call run().\nIt refuses twice.", "It refuses twice.\n\n## Limits\n\nNever call twice."]
        )

    def test_llamaindex_nodes_that_count_every_carriage_return(self) -> None:
        manifest = self.pinned({"guide.md": PAGE_BYTES})
        # The file's own slices, mark and "\r" counted: "\ufeff# Guide\r\n" [0, 10), "Call run().\r\n"
        # [12, 25), "It refuses twice.\r\n" [27, 46); 46 is past the lab's 40 characters.
        slices = (("\ufeff# Guide\r\n", 0, 10), ("Call run().\r\n", 12, 25), ("It refuses twice.\r\n", 27, 46))
        records = [
            {"text": text, "metadata": {"file_name": "guide.md"}, "start_char_idx": start, "end_char_idx": end}
            for text, start, end in slices
        ]
        result = self.judged(self.write_chunks(records), manifest)
        expected = [("exact_offset", 0, 8, False), ("exact_offset", 9, 21, False), ("exact_offset", 22, 40, False)]
        self.assertEqual(places(result), expected)
        self.assertEqual(
            result["offset_frames"], [{"source_id": "guide", "byte_order_mark": True, "carriage_returns": True}]
        )

    def test_a_cut_between_the_carriage_return_and_its_line_feed(self) -> None:
        # Every 12 characters of the file read with newline="" (mark and "\r" kept; 46 characters: the mark, "# Guide"
        # [1, 8), "\r\n\r\n" [8, 12), "Call run()." [12, 23), "\r\n\r\n" [23, 27), "It refuses twice." [27, 44),
        # "\r\n"): the second slice, [12, 24), ends at the "\r" of 23, its "\n" the third's first character. In the
        # lab's text (see PAGE): "# Guide\n\n" [0, 9), "Call run()." [9, 20) with that "\r" dropped and the line feed
        # left to the next, "\n\nIt refuse" [20, 31), "s twice.\n" [31, 40): each exact at its offset, none over its
        # neighbour.
        manifest = self.pinned({"guide.md": PAGE_BYTES})
        text = PAGE_BYTES.decode("utf-8")
        records = [
            {"source_id": "guide", "text": text[start : start + 12], "start": start, "end": min(start + 12, len(text))}
            for start in range(0, len(text), 12)
        ]
        self.assertEqual(records[1]["text"], "Call run().\r")
        result = self.judged(self.write_chunks(records), manifest)
        self.assertEqual(
            places(result),
            [
                ("exact_offset", 0, 9, False),
                ("exact_offset", 9, 20, False),
                ("exact_offset", 20, 31, False),
                ("exact_offset", 31, 40, False),
            ],
        )
        self.assertEqual(result["policies"][-1]["coverage"]["total"]["overlap_chars"], 0)

    def test_an_offset_past_the_end_is_a_wrong_offset_and_the_chunk_is_placed(self) -> None:
        # The page without its mark and "\r": 40 characters, "It refuses twice.\n" at [22, 40) (see PAGE). An
        # offset past the end is as wrong as one inside the page (a page edited after chunking, a splitter counting
        # from 1): the chunk is placed by its text and the offset reported, as for any wrong offset.
        manifest = self.pinned({"guide.md": PAGE.encode("utf-8")})
        for text, start, end, place, note in (
            ("It refuses twice.\n", 23, 41, ("exact_order", 22, 40, True), ", as when offsets count from 1"),
            ("It refuses twice.\n", 26, 44, ("exact_order", 22, 40, True), ""),
            ("It refuses twice.\n", 45, None, ("exact_order", 22, 40, True), ""),
            ("It accepts twice.\n", 23, 41, ("not_found", None, None, True), None),
            ("It refuses twice.\n", 13, 13, ("exact_order", 22, 40, True), None),
        ):
            with self.subTest(text=text, start=start):
                chunks = self.write_chunks([{"source_id": "guide", "text": text, "start": start, "end": end}])
                self.assertEqual(places(self.judged(chunks, manifest)), [place])
                code, stdout, stderr = in_process("judge", str(chunks), "--manifest", str(manifest))
                self.assertEqual((code, stderr), (0, ""))
                lines = stdout.splitlines()
                self.assertTrue(lines[0].endswith("; 1 wrong offset, not trusted (listed below)"), lines[0])
                if end == start:
                    self.assertIn(
                        "  wrong offset, line 1: start 13: [13, 13) is an empty span; the chunk is found at [22, 40) "
                        "(exact by order)",
                        lines,
                    )
                if note is not None:
                    shift = f"; every one {start - 22} character{'' if start == 23 else 's'} after its chunk's place"
                    self.assertIn(f"offsets: 1 given, 1 wrong: not trusted{shift}{note}", lines)
                    # What the page holds from the offset to its end (40), or that it ends before the offset.
                    held = PAGE[start:].replace("\n", "\\n")
                    said = f'the source holds "{held}" at [{start}, 40)' if start < 40 else "past the source's end"
                    self.assertIn(
                        f"  wrong offset, line 1: start {start}: {said}; the chunk is found at [22, 40) (exact by order)",
                        lines,
                    )

    def test_an_exported_chunk_of_another_revision_says_so(self) -> None:
        # An export of the current pins, then one of its records moved past the page's end: of the pinned revision or
        # of another, it is a wrong offset, placed by its text; of another, a note says the page changed since.
        manifest = self.pinned({"guide.md": PAGE_BYTES})
        result, exported = self.folder / "result.json", self.folder / "export.jsonl"
        self.assertEqual(in_process("--manifest", str(manifest), "--output", str(result))[0], 0)
        self.assertEqual(in_process("export", str(result), "--policy", "paragraph", "--output", str(exported))[0], 0)
        record = json.loads(exported.read_text(encoding="utf-8").splitlines()[0])
        record["metadata"].update(start=12, end=47)
        pinned = record["metadata"]["document_revision"]
        for revision, noted in ((pinned, False), ("f" * 64, True)):
            with self.subTest(revision=revision):
                record["metadata"]["document_revision"] = revision
                chunks = self.write_chunks([record])
                self.assertEqual(places(self.judged(chunks, manifest))[0][3], True)
                code, stdout, _ = in_process("judge", str(chunks), "--manifest", str(manifest))
                self.assertEqual(code, 0)
                self.assertEqual("note: 1 record of 1 page is of another revision" in stdout, noted)
        # Offsets no text could hold are refused as they are, whatever the revision: no edit made them.
        chunks = self.folder / "chunks.jsonl"
        for start, end, refused in (
            (
                -3,
                5,
                "chunk_offset_out_of_range: {}:1: [-3, 5) starts before the text: an offset is 0 or more (offsets a "
                "splitter got wrong can be left out: each chunk is then placed by its text alone)",
            ),
            (30, 20, "chunk_offset_out_of_range: {}:1: [30, 20) ends before it starts"),
            (None, 5, "chunk_offset_incomplete: {}:1: an end offset (5) without a start"),
        ):
            with self.subTest(start=start, end=end):
                record["metadata"].update(start=start, end=end)
                code, _, stderr = in_process("judge", str(self.write_chunks([record])), "--manifest", str(manifest))
                self.assertEqual((code, stderr), (1, f"error: {refused.format(chunks)}\n"))


class BlankChunksTest(JudgeFilesTestCase):
    """A chunk of whitespace alone (semantic-text-splitter with trim=False) is judged, holding nothing that counts."""

    def test_blank_chunks_are_placed_and_counted(self) -> None:
        manifest = self.pinned({"guide.md": PAGE.encode("utf-8")})
        # "# Guide\n" [0, 8), "\n" [8, 9), "Call run().\n" [9, 21), "\n" [21, 22), "It refuses twice.\n" [22, 40).
        texts = ["# Guide\n", "\n", "Call run().\n", "\n", "It refuses twice.\n"]
        result = self.judged(self.write_chunks([{"source_id": "guide", "text": text} for text in texts]), manifest)
        spans = [(0, 8), (8, 9), (9, 21), (21, 22), (22, 40)]
        self.assertEqual(places(result), [("exact_order", start, end, False) for start, end in spans])
        # 6 + 10 + 15 non-whitespace characters, each in exactly one chunk.
        self.assertEqual(
            result["policies"][-1]["coverage"]["total"],
            {"non_whitespace_chars": 31, "uncovered_chars": 0, "overlap_chars": 0},
        )
        self.assertEqual(result["policies"][-1]["chunk_count"], 5)


class LabExportTest(JudgeFilesTestCase):
    """What ``export`` writes is judged, and agrees with the policy's own row exactly."""

    def exported(self, manifest: Path, policy: str) -> Path:
        result = self.folder / "result.json"
        if not result.exists():
            code, _, stderr = in_process("--manifest", str(manifest), "--output", str(result))
            self.assertEqual(code, 0, stderr)
        path = self.folder / f"{policy}.jsonl"
        code, _, stderr = in_process(
            "export", str(result), "--policy", policy, "--manifest", str(manifest), "--output", str(path)
        )
        self.assertEqual(code, 0, stderr)
        return path

    def test_an_export_made_before_an_edit_is_said_to_be(self) -> None:
        # "# Guide\n\nCall run().\n\nIt refuses twice.\n": the paragraph policy exports its two paragraphs.
        manifest = self.pinned({"guide.md": PAGE.encode("utf-8")})
        chunks = self.exported(manifest, "paragraph")
        (self.folder / "guide.md").write_text(PAGE + "\nOne more line.\n", encoding="utf-8")
        code, _, stderr = in_process("pin", str(self.folder / "guide.md"), "--manifest", str(manifest))
        self.assertEqual(code, 0, stderr)
        code, stdout, stderr = in_process("judge", str(chunks), "--manifest", str(manifest))
        self.assertEqual((code, stderr), (0, ""))
        self.assertEqual(
            stdout.splitlines()[1],
            "note: 2 records of 1 page are of another revision of the page than the manifest pins (exported before an "
            "edit): export again from a build of the current pins to judge them as they are now",
        )
        # --json counts them (judge_version 6) and --html says it as the terminal does.
        code, stdout, stderr = in_process("judge", str(chunks), "--manifest", str(manifest), "--json")
        self.assertEqual((code, stderr), (0, ""))
        self.assertEqual(json.loads(stdout)["stale_records"], {"records": 2, "pages": 1})
        report = self.folder / "judge.html"
        code, _, stderr = in_process("judge", str(chunks), "--manifest", str(manifest), "--html", str(report))
        self.assertEqual((code, stderr), (0, ""))
        self.assertIn("note: 2 records of 1 page are of another revision", report.read_text(encoding="utf-8"))
        # show --chunks draws the file under the same lines (docs/judge.md).
        code, stdout, stderr = in_process("show", "--chunks", str(chunks), "--manifest", str(manifest))
        self.assertEqual((code, stderr), (0, ""))
        self.assertIn("note: 2 records of 1 page are of another revision", stdout)
        # An export of the current pins draws no such note.
        (self.folder / "result.json").unlink()
        fresh = self.exported(manifest, "paragraph")
        code, stdout, _ = in_process("judge", str(fresh), "--manifest", str(manifest))
        self.assertNotIn("another revision", stdout)
        code, stdout, _ = in_process("judge", str(fresh), "--manifest", str(manifest), "--json")
        self.assertEqual(json.loads(stdout)["stale_records"], {"records": 0, "pages": 0})

    def test_each_policy_s_export_judges_as_its_own_row(self) -> None:
        # The lesson's fixture (lesson grammar) and docs/examples (blocks, a BOM page and a CRLF page).
        for manifest in (ROOT / "manifest.json", ROOT / "docs" / "examples" / "manifest.json"):
            for policy in ("fixed-char", "paragraph", "heading-aware"):
                with self.subTest(manifest=manifest.parent.name, policy=policy):
                    chunks = self.exported(manifest, policy)
                    result = self.judged(chunks, manifest)
                    self.assertEqual(result["shape"], "export")
                    self.assertEqual(result["located"]["exact_offset"], result["chunk_count"])
                    self.assertEqual(result["offsets_wrong"], 0)
                    lab = next(row for row in result["policies"] if row["policy"] == policy)
                    judged = result["policies"][-1]
                    for key in ("chunk_count", "mean_chars", "coverage", "pairs_kept_together", "pairs"):
                        self.assertEqual(judged[key], lab[key], key)
                    self.assertEqual({**judged["context"], "policy": policy}, lab["context"])
            (self.folder / "result.json").unlink()

    def test_show_draws_an_export(self) -> None:
        chunks = self.exported(ROOT / "manifest.json", "paragraph")
        code, stdout, stderr = in_process("show", "--chunks", str(chunks), "--policy", "paragraph")
        self.assertEqual((code, stderr), (0, ""))
        self.assertIn(f"═══ paragraph.jsonl (judged chunks from {chunks})", stdout)
        self.assertIn("    paragraph.jsonl: located 8 of 8 upsert records: 8 exact at the given offset", stdout)


class StubPagesTest(JudgeFilesTestCase):
    """A page with nothing under its headings has no section; a chunk on it is judged, shown and reported."""

    STUBS = {
        "lesson": {"stub.md": b"# Stub\n", "page.md": b"# Page\n\nText.\n"},
        "blocks": {"stub.md": b"# Stub\n", "setext.md": b"Stub\n====\n", "rules.md": b"- - -\n- - -\n"},
        "blocks-2": {"stub.md": b"# Stub\n", "setext.md": b"Stub\n====\n", "rules.md": b"- - -\n- - -\n"},
    }

    def test_every_grammar(self) -> None:
        for grammar, pages in self.STUBS.items():
            with self.subTest(grammar=grammar):
                for old in self.folder.iterdir():
                    old.unlink()
                manifest = self.pinned(pages, grammar)
                records = [{"source_id": name[:-3], "text": data.decode("utf-8")} for name, data in pages.items()]
                chunks = self.write_chunks(records)
                result = self.judged(chunks, manifest)
                self.assertTrue(result["complete"])
                code, stdout, stderr = in_process("show", "--manifest", str(manifest), "--chunks", str(chunks))
                self.assertEqual((code, stderr), (0, ""))
                # A stub's chunk lies in one section spanning the page, named by the source's title (its id).
                self.assertIn(" · section stub\n", stdout)
                report = self.folder / "report.html"
                code, _, stderr = in_process("judge", str(chunks), "--manifest", str(manifest), "--html", str(report))
                self.assertEqual(code, 0, stderr)
                self.assertTrue(report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>"))
