"""``run.py retrieve``: BM25 ranks computed by hand, the independent reading on docs/examples, run files."""

from __future__ import annotations

import json
import random
from pathlib import Path
from unittest import mock

import chunk_index
from checks import retrieval
from checks.retrieval import judged
from checks.retrieval.bm25 import LexicalIndex, query_tokens
from lab_io import progress
from lab_io.errors import IngestionError
from load_documents import Span, SpanCheck, load_manifest
from tests.retrieval_reference import ranked_positions, reference_ranks, words
from tests.support import ROOT, LabTestCase, run_lab
from tests.test_caveat_scan import main_quietly
from tests.test_progress import FakeClock, FakeTerminal

EXAMPLES = ROOT / "docs" / "examples" / "manifest.json"

# Three chunks of one section of source "s": 3, 5 and 2 tokens, N = 3, avg_length = 10 / 3.
PAGE = "open a file\nopen refuses an open name\nclose it\n"
LINES = ("open a file\n", "open refuses an open name\n", "close it\n")


def page_chunks() -> list[dict]:
    chunks = []
    start = 0
    for order, line in enumerate(LINES):
        chunks.append(
            {
                "source_id": "s",
                "order": order,
                "start": start,
                "end": start + len(line),
                "text": line,
                "section_id": "x",
            }
        )
        start += len(line)
    return chunks


def page_check(query: str | None = None) -> SpanCheck:
    instruction = "open a file"
    qualifier = "refuses an open name"
    at = PAGE.index(qualifier)
    return SpanCheck("c", "s", Span(0, len(instruction), instruction), Span(at, at + len(qualifier), qualifier), query)


def measured_page(check: SpanCheck) -> dict:
    return retrieval.measured((check,), {"lines": {"chunks": page_chunks()}}, None, None, 100, "test")


class ScoresByHand(LabTestCase):
    """The formula worked by hand on three chunks (docs/retrieval.md's example)."""

    def test_a_repeated_token_outscores_a_shorter_chunk(self):
        index = LexicalIndex(list(LINES))
        # idf(open) = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln(1.6) = 0.470004
        # chunk 0: 0.470004 * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 3 / (10/3))) = 0.470004 * 2.2 / 2.11 = 0.490051
        # chunk 1: 0.470004 * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 5 / (10/3))) = 0.470004 * 4.4 / 3.65 = 0.566580
        self.assertAlmostEqual(index.score(["open"], 0), 0.490051, places=6)
        self.assertAlmostEqual(index.score(["open"], 1), 0.566580, places=6)
        self.assertEqual(index.ranked(["open"], 10), [1, 0])

    def test_the_instruction_as_query(self):
        # a, file: idf = ln(1 + 2.5 / 1.5) = 0.980829; each 0.980829 * 2.2 / 2.11 = 1.022665 in chunk 0.
        # chunk 0 = 1.022665 + 1.022665 + 0.490051 = 2.535382; chunk 1 = 0.566580; chunk 2 holds none.
        index = LexicalIndex(list(LINES))
        self.assertAlmostEqual(index.score(query_tokens("open a file"), 0), 2.535382, places=6)
        pair = measured_page(page_check())["pairs"][0]["policies"]["lines"]
        # The caveat's chunk comes second; with its neighbour, the first chunk brings it back.
        self.assertEqual(pair, {"instruction_rank": 1, "caveat_rank": 2, "instruction_rank_w1": 1, "caveat_rank_w1": 1})

    def test_a_query_of_its_own(self):
        # name, refuses: idf 0.980829, in chunk 1 each 0.980829 * 2.2 / (1 + 1.65) = 0.814273, total 1.628546;
        # a: chunk 0 1.022665 (why: in no chunk). Chunk 1 first, then chunk 0.
        document = measured_page(page_check("why refuses a name?"))
        self.assertEqual(document["pairs"][0]["query"], "why refuses a name?")
        self.assertEqual(
            document["pairs"][0]["policies"]["lines"],
            {"instruction_rank": 2, "caveat_rank": 1, "instruction_rank_w1": 1, "caveat_rank_w1": 1},
        )

    def test_recall_and_characters(self):
        figures = measured_page(page_check())["policies"][0]
        self.assertEqual(figures["recall"]["caveat"]["w0"], {"1": 0.0, "3": 1.0, "5": 1.0, "10": 1.0})
        self.assertEqual(figures["recall"]["both"]["w1"], {"1": 1.0, "3": 1.0, "5": 1.0, "10": 1.0})
        # Two chunks come back (12 and 26 characters); with windows, chunk 0 brings 1, chunk 1 brings 0 and 2 (9).
        self.assertEqual(figures["mean_chars"]["w0"], {"1": 12.0, "3": 38.0, "5": 38.0, "10": 38.0})
        self.assertEqual(figures["mean_chars"]["w1"], {"1": 38.0, "3": 47.0, "5": 47.0, "10": 47.0})

    def test_ties_in_index_order_source_id_first(self):
        # Identical chunks score alike: index order decides, source "a" before "b" whatever the list's order.
        chunks = [
            {"source_id": source, "order": 0, "start": 0, "end": 4, "text": "save", "section_id": source}
            for source in ("b", "a")
        ]
        chunks.append({"source_id": "a", "order": 1, "start": 4, "end": 9, "text": " note", "section_id": "a"})
        check = SpanCheck("c", "b", Span(0, 4, "save"), Span(0, 4, "save"))
        document = retrieval.measured((check,), {"p": {"chunks": chunks}}, None, None, 100, "test")
        # Returned: a's "save" (index 0), then b's (index 2): b's span is covered at rank 2.
        self.assertEqual(document["pairs"][0]["policies"]["p"]["instruction_rank"], 2)

    def test_the_depth_cuts_the_list_ties_by_position(self):
        texts = [f"save word{number}" for number in range(12)] + ["the caveat"]
        index = LexicalIndex(texts)
        self.assertEqual(index.ranked(["save"], 10), list(range(10)))
        self.assertEqual(index.ranked(["caveat", "save"], 1), [12])


class IndependentReading(LabTestCase):
    """On docs/examples every rank equals the brute-force reading of the definition (tests/retrieval_reference.py)."""

    def test_every_rank_on_docs_examples(self):
        manifest = load_manifest(EXAMPLES)
        indexes = chunk_index.build_indexes(manifest.sources, chunk_index.manifest_policy_configs(manifest))
        document = retrieval.measured(manifest.span_checks, indexes, None, None, 100, "examples")
        self.assertEqual([row["policy"] for row in document["policies"]], list(indexes))
        for name, index in indexes.items():
            expected = reference_ranks(index["chunks"], manifest.span_checks)
            with self.subTest(policy=name):
                self.assertEqual([pair["policies"][name] for pair in document["pairs"]], expected)

    def test_pruning_keeps_every_rank_on_many_similar_chunks(self):
        # Hundreds of chunks sharing common words, so the walk stops early and looks up the rest.
        texts = [f"the call of the {'path ' * (n % 4)}text {n % 17} to store a document" for n in range(600)]
        index = LexicalIndex(texts)
        chunk_words = [words(text) for text in texts]
        for query in ("call 5 path", "the text 3 store document", "path 16 a of the"):
            with self.subTest(query=query):
                self.assertEqual(index.ranked(query_tokens(query), 25), ranked_positions(chunk_words, query, 25))

    def test_the_pruned_walk_agrees_with_every_chunk_scored_on_random_indexes(self):
        # Words drawn with skewed frequencies (a few common, many rare), repeated chunks for exact ties. Six random
        # indexes reach every branch of the index's walk, and each has queries whose walk stops early.
        draw = random.Random(22)
        vocabulary = [f"w{number}" for number in range(40)]
        weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
        switched = []
        for trial in range(6):
            texts = []
            for _ in range(draw.randrange(40, 160)):
                if texts and draw.random() < 0.1:
                    texts.append(draw.choice(texts))
                else:
                    texts.append(" ".join(draw.choices(vocabulary, weights, k=draw.randrange(1, 14))))
            index = LexicalIndex(texts)
            real = index.continued
            index.continued = lambda *args: switched.append(1) or real(*args)
            chunk_words = [words(text) for text in texts]
            for _ in range(6):
                query = " ".join(draw.sample(vocabulary, draw.randrange(1, 9)))
                for depth in (1, 3, 10):
                    with self.subTest(trial=trial, query=query, depth=depth):
                        self.assertEqual(
                            index.ranked(query_tokens(query), depth), ranked_positions(chunk_words, query, depth)
                        )
        # The walk stopped early and looked the rest up in some of them: the pruning itself was compared.
        self.assertGreater(len(switched), 10)

    def test_a_query_asked_again_is_answered_without_a_second_walk(self):
        texts = [f"the call of the {'path ' * (n % 4)}text {n % 17} to store a document" for n in range(600)]
        index = LexicalIndex(texts)
        chunk_words = [words(text) for text in texts]
        walked = []
        real = index.walked
        index.walked = lambda query, depth: walked.append((tuple(query), depth)) or real(query, depth)
        query = query_tokens("the text 3 store document")
        for depth in (25, 25, 5, 25):
            with self.subTest(depth=depth):
                self.assertEqual(
                    index.ranked(query, depth), ranked_positions(chunk_words, "the text 3 store document", depth)
                )
        # Asked at a depth once each: another depth is another answer.
        self.assertEqual(walked, [(tuple(query), 25), (tuple(query), 5)])


class ProgressOfTheRanking(LabTestCase):
    def test_the_time_left_counts_the_ranking_not_the_index_build(self):
        # The docs/examples pairs, ranked on one policy, on a clock that only the index build moves (100 s): the
        # time left after the first pair is the ranking's (none), not the build's share of it (minutes).
        manifest = load_manifest(EXAMPLES)
        indexes = chunk_index.build_indexes(manifest.sources, chunk_index.manifest_policy_configs(manifest))
        terminal = FakeTerminal()
        clock = FakeClock()
        with progress.Progress("building indexes", 1, 0, terminal, {}, clock) as line:
            clock.now += 10.0
            build = retrieval.lab_ranked_index

            def slow_build(name, chunks):
                clock.now += 100.0
                return build(name, chunks)

            with mock.patch.object(retrieval, "lab_ranked_index", slow_build), mock.patch.object(
                progress, "REFRESH_SECONDS", 0.0
            ):
                retrieval.measured(
                    manifest.span_checks, {"paragraph": indexes["paragraph"]}, None, None, 100, "x", line
                )
        pairs = len(manifest.span_checks)
        self.assertGreater(pairs, 2)
        self.assertIn(f"ranking paragraph's chunks: 1 of {pairs} pairs, about 1 s left", terminal.getvalue())
        self.assertNotIn("min left", terminal.getvalue())


class RunFiles(LabTestCase):
    """A user's own retriever's results, placed as judge places them and measured by the same rule."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = load_manifest(EXAMPLES)
        indexes = chunk_index.build_indexes(self.manifest.sources, chunk_index.manifest_policy_configs(self.manifest))
        self.chunks = sorted(indexes["paragraph"]["chunks"], key=lambda chunk: (chunk["source_id"], chunk["order"]))

    def record(self, chunk: dict) -> dict:
        return {"source_id": chunk["source_id"], "text": chunk["text"], "start": chunk["start"], "end": chunk["end"]}

    def write_lines(self, name: str, values: list) -> Path:
        path = self.folder / name
        path.write_text("".join(json.dumps(value) + "\n" for value in values), encoding="utf-8")
        return path

    def retrieve_json(self, *args: str) -> dict:
        completed = run_lab("retrieve", "--manifest", str(EXAMPLES), "--json", *args)
        self.assertEqual((completed.returncode, completed.stderr), (0, ""), completed.stderr)
        return json.loads(completed.stdout)

    def test_checks_without_a_query_are_counted_under_the_table(self):
        # The fixture's one check has no "query"; docs/examples' have theirs.
        completed = run_lab("retrieve")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(
            completed.stdout.splitlines()[-1],
            '1 of 1 span check has no "query": the baseline asks each with its instruction\'s own text, which the chunk '
            'holding it usually matches best; a check\'s "query", worded as your users ask, is the truer test '
            "(docs/retrieval.md)",
        )
        unasked = sum(check.query is None for check in self.manifest.span_checks)
        examples = run_lab("retrieve", "--manifest", str(EXAMPLES)).stdout
        self.assertEqual('no "query"' in examples, unasked > 0)

    def test_the_chunks_row_takes_its_name_from_name(self):
        chunk_file = self.write_lines("chunks.jsonl", [self.record(chunk) for chunk in self.chunks])
        document = self.retrieve_json("--chunks", str(chunk_file), "--name", "md-recursive-800")
        self.assertEqual(
            [row["policy"] for row in document["policies"]], [*chunk_index.DEFAULT_POLICY_NAMES, "md-recursive-800"]
        )
        for options, message in (
            (("--name", "x"), "error: usage: retrieve: --name names the row of --chunks FILE; give --chunks too\n"),
            (
                ("--chunks", str(chunk_file), "--name", "paragraph"),
                'error: judge_name: --name: "paragraph" names one of the lab\'s policies; give the judged chunks '
                "--name NAME\n",
            ),
        ):
            with self.subTest(options=options):
                completed = run_lab("retrieve", "--manifest", str(EXAMPLES), *options)
                self.assertEqual((completed.returncode, completed.stderr), (2, message))

    def test_chunks_that_carry_caveats_are_said_to_rank_by_their_text_alone(self):
        # An export --carry-caveats ranked as the export without them, and nothing said so (a new user's trial).
        records = [self.record(chunk) for chunk in self.chunks]
        for record in records[:2]:
            record["metadata"] = {"carried_caveats_text": "A caveat written for this test."}
        records[2]["metadata"] = {"carried_caveats_text": None}
        chunk_file = self.write_lines("carried.jsonl", records)
        index, carrying = judged.chunks_ranked_index(chunk_file, self.manifest, "manifest test", "mine")
        self.assertEqual(carrying, 2)
        self.assertEqual(
            judged.chunks_note(index, carrying),
            f"mine: {len(records):,} chunks; 2 of them carry caveats in metadata.carried_caveats_text, which retrieve "
            "does not read: each is ranked and covers by its text alone (judge credits them)",
        )
        self.assertEqual(judged.chunks_note(index), f"mine: {len(records):,} chunks")

    def test_a_run_of_a_policys_own_top_ten_gives_its_figures(self):
        chunk_words = [words(chunk["text"]) for chunk in self.chunks]
        lines = []
        for check in self.manifest.span_checks:
            query = check.query if check.query is not None else check.instruction.quote
            top = ranked_positions(chunk_words, query, 10)
            lines.append({"check": check.name, "results": [self.record(self.chunks[place]) for place in top]})
        run = self.write_lines("run.jsonl", lines)
        chunk_file = self.write_lines("chunks.jsonl", [self.record(chunk) for chunk in self.chunks])
        document = self.retrieve_json("--chunks", str(chunk_file), "--run", str(run))
        rows = {row["policy"]: row for row in document["policies"]}
        figures = ("recall", "mean_chars", "pairs")
        for name in ("chunks:chunks.jsonl", "run:run.jsonl"):
            with self.subTest(row=name):
                self.assertEqual(
                    {key: rows[name][key] for key in figures}, {key: rows["paragraph"][key] for key in figures}
                )
        for pair in document["pairs"]:
            ranks = pair["policies"]
            self.assertEqual(ranks["chunks:chunks.jsonl"], ranks["paragraph"])
            # The run holds ten results: a rank past ten is none there.
            capped = {
                key: rank if rank is not None and rank <= 10 else None for key, rank in ranks["paragraph"].items()
            }
            self.assertEqual(ranks["run:run.jsonl"], capped)

    def test_a_run_without_chunks_has_no_windows(self):
        lines = [{"check": check.name, "results": [self.record(self.chunks[0])]} for check in self.manifest.span_checks]
        document = self.retrieve_json("--run", str(self.write_lines("run.jsonl", lines)))
        row = document["policies"][-1]
        self.assertEqual((row["kind"], row["recall"]["caveat"]["w1"], row["mean_chars"]["w1"]), ("run", None, None))
        completed = run_lab("retrieve", "--manifest", str(EXAMPLES), "--run", str(self.folder / "run.jsonl"))
        self.assertIn("windows unknown (n/a): give --chunks", completed.stdout)

    def test_bad_run_files_are_refused_naming_file_and_line(self):
        names = [check.name for check in self.manifest.span_checks]
        good = [{"check": name, "results": []} for name in names]
        cases = [
            ("run_empty", [], None),
            ("run_blank_line", "blank", 2),
            ("json_syntax", "{", 2),
            ("run_not_object", [good[0], ["x"]], 2),
            ("run_fields", [good[0], {"check": names[1]}], 2),
            ("run_check_unknown", [good[0], {"check": "nope", "results": []}], 2),
            ("run_check_twice", [good[0], good[0]], 2),
            ("run_results_not_list", [good[0], {"check": names[1], "results": {}}], 2),
            ("chunk_no_text", [good[0], {"check": names[1], "results": [{"source_id": "x", "text": ""}]}], 2),
            ("chunk_source_unknown", [good[0], {"check": names[1], "results": [{"source_id": "x", "text": "a"}]}], 2),
            ("run_check_missing", good[:-1], None),
        ]
        for code, lines, line in cases:
            with self.subTest(code=code):
                path = self.folder / "bad.jsonl"
                if lines == "blank":
                    path.write_text(json.dumps(good[0]) + "\n\n" + json.dumps(good[1]) + "\n", encoding="utf-8")
                elif lines == "{":
                    path.write_text(json.dumps(good[0]) + "\n{\n", encoding="utf-8")
                else:
                    self.write_lines("bad.jsonl", lines)
                completed = run_lab("retrieve", "--manifest", str(EXAMPLES), "--run", str(path))
                self.assert_one_line_refusal(completed, code)
                where = f"{path}:{line}" if line is not None else f"{path}"
                self.assertTrue(completed.stderr.startswith(f"error: {code}: {where}:"), completed.stderr)

    def test_a_result_given_as_a_chunk_id_is_refused_with_what_a_result_is(self):
        # docs/retrieval.md: each result is a chunk record as judge reads it; an id alone cannot be placed.
        names = [check.name for check in self.manifest.span_checks]
        # docs/retrieval.md: an id is a string or a number, one with a fraction too.
        for result in ("c0ffee", 7, 12.5):
            with self.subTest(result=result):
                lines = [{"check": name, "results": [result]} for name in names]
                path = self.write_lines("ids.jsonl", lines)
                completed = run_lab("retrieve", "--manifest", str(EXAMPLES), "--run", str(path))
                self.assert_one_line_refusal(completed, "chunk_not_object")
                self.assertTrue(completed.stderr.startswith(f"error: chunk_not_object: {path}:1: results[0]: "))
                self.assertTrue(completed.stderr.rstrip("\n").endswith("not its id"), completed.stderr)
        # A result of another wrong kind is refused as before, with no word of ids.
        lines = [{"check": name, "results": [["x"]]} for name in names]
        completed = run_lab(
            "retrieve", "--manifest", str(EXAMPLES), "--run", str(self.write_lines("lists.jsonl", lines))
        )
        self.assert_one_line_refusal(completed, "chunk_not_object")
        self.assertNotIn("its id", completed.stderr)

    def test_a_value_of_the_wrong_type_is_named_by_its_json_type(self):
        # JSON's names for what was found (null, number, array), not Python's (NoneType, float, list).
        names = [check.name for check in self.manifest.span_checks]
        cases = (
            ([{"check": names[0], "results": 12.5}], "run_results_not_list", "results must be a list, found number"),
            ([{"check": names[0], "results": None}], "run_results_not_list", "results must be a list, found null"),
            ([[names[0]]], "run_not_object", "found array"),
            ([{"check": names[0], "results": [None]}], "chunk_not_object", "expected a JSON object, found null"),
        )
        for lines, code, said in cases:
            with self.subTest(code=code, said=said):
                completed = run_lab(
                    "retrieve", "--manifest", str(EXAMPLES), "--run", str(self.write_lines("typed.jsonl", lines))
                )
                self.assert_one_line_refusal(completed, code)
                self.assertIn(said, completed.stderr)
                self.assertNotIn("NoneType", completed.stderr)


class SavedResultAsRun(LabTestCase):
    def test_a_saved_result_given_as_run_is_named_as_such(self):
        # The result is valid JSON laid out on many lines: its line 1, "{", is no run line, and the refusal says
        # what the file is instead of the parser's complaint about a property name.
        saved = ROOT / "expected-result.json"
        code, out, err = main_quietly("retrieve", "--manifest", str(ROOT / "manifest.json"), "--run", str(saved))
        self.assertEqual((code, out), (1, ""))
        self.assertEqual(
            err,
            f"error: json_syntax: {saved}:1: this is a result or index the lab saved, not a run: --run reads your "
            "own retriever's results, one JSON object per line (docs/retrieval.md shows the shape); --chunks takes "
            "your own chunks\n",
        )


class CommandLine(LabTestCase):
    def test_the_fixture_table_writes_nothing(self):
        manifest_path = self.copy_inputs()
        before = sorted((path.name, path.stat().st_mtime_ns) for path in self.folder.rglob("*"))
        completed = run_lab("retrieve", "--manifest", str(manifest_path), cwd=self.folder)
        self.assertEqual((completed.returncode, completed.stderr), (0, ""))
        self.assertIn(
            "save-copy-refuses-existing-path: fixed-char 1 3 1, paragraph 1 2 1, heading-aware 1 1 1", completed.stdout
        )
        self.assertEqual(sorted((path.name, path.stat().st_mtime_ns) for path in self.folder.rglob("*")), before)

    def test_every_policy_the_manifest_builds_is_ranked(self):
        manifest_path = self.copy_inputs()
        value = json.loads(manifest_path.read_text(encoding="utf-8"))
        value["policies"] = {"pair-aware": 220}
        manifest_path.write_text(json.dumps(value), encoding="utf-8")
        completed = run_lab("retrieve", "--manifest", str(manifest_path), "--json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        document = json.loads(completed.stdout)
        names = ["fixed-char", "paragraph", "heading-aware", "pair-aware"]
        self.assertEqual([row["policy"] for row in document["policies"]], names)
        manifest = load_manifest(manifest_path)
        chunks = chunk_index.build_indexes(manifest.sources, chunk_index.manifest_policy_configs(manifest))
        expected = reference_ranks(chunks["pair-aware"]["chunks"], manifest.span_checks)
        self.assertEqual([pair["policies"]["pair-aware"] for pair in document["pairs"]], expected)

    def test_depth_is_bounded(self):
        for value in ("9", "10001", "ten", "-5"):
            with self.subTest(value=value):
                completed = run_lab("retrieve", "--depth", value)
                self.assert_one_line_refusal(completed, "usage", 2)

    def test_the_walk_is_bounded_before_ranking(self):
        manifest = load_manifest(EXAMPLES)
        indexes = chunk_index.build_indexes(manifest.sources, chunk_index.manifest_policy_configs(manifest))
        original = retrieval.MAX_WALK
        self.addCleanup(setattr, retrieval, "MAX_WALK", original)
        retrieval.MAX_WALK = 10
        with self.assertRaises(IngestionError) as caught:
            retrieval.measured(manifest.span_checks, indexes, None, None, 100, "examples")
        self.assertEqual(caught.exception.code, "retrieval_too_large")
        self.assertIn("fixed-char's 75 chunks for 6 queries could walk", str(caught.exception))


if __name__ == "__main__":
    import unittest

    unittest.main()
