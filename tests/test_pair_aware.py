"""The pair-aware policy: its joins and cap derived by hand, its identity, validation, diff and export.

Expectations come from the rule in ``docs/SPEC.md`` ("The pair-aware policy")
applied by hand to the small text below, never from reading the lab's output back.
"""

from __future__ import annotations

import copy
import json

import chunk_index
from checks import span_checks
from commands import export
from lab_io.errors import IngestionError
from load_documents import Span, SpanCheck, load_manifest
from results import reembed, validate
from tests.support import LabTestCase, loaded_source, reforge_index, run_lab

# Offsets, by hand: "# Guide\n" is 8 characters, so the section body starts at 8.
#   A [8, 31)    "Call open(path) first.\n"
#   B [32, 56)   "Some middle words here.\n"
#   C [57, 84)   "It refuses a missing path.\n"
#   E [85, 97)   "Tail words.\n"
#   "# Other\n" at 98; its body starts at 106:
#   D [106, 122) "Unrelated text.\n"
GUIDE = "# Guide\nCall open(path) first.\n\nSome middle words here.\n\nIt refuses a missing path.\n\nTail words.\n\n# Other\nUnrelated text.\n"
INSTRUCTION = Span(8, 23, "Call open(path)")
# The qualifier with its line's newline: from 8 to 84 is 76 characters, 4 x 19.
QUALIFIER = Span(57, 84, "It refuses a missing path.\n")
MIDDLE = Span(32, 55, "Some middle words here.")
OTHER = Span(106, 121, "Unrelated text.")
HEADING_LINE = Span(0, 7, "# Guide")


def check(name: str, instruction: Span, qualifier: Span, source_id: str = "page") -> SpanCheck:
    return SpanCheck(name, source_id, instruction, qualifier)


def spans(index: dict) -> list[tuple[int, int]]:
    return [(chunk["start"], chunk["end"]) for chunk in index["chunks"]]


def pair_aware(target: int, checks: list[SpanCheck], text: str = GUIDE) -> dict:
    config = chunk_index.policy_config("pair-aware", target, "lesson", chunk_index.config_pairs(checks))
    return chunk_index.build_index(config, [loaded_source(text)])


def page_manifest(checks: list[dict], policies: dict | None = None) -> dict:
    """A lesson-grammar manifest pinning ``docs/page.md`` (``GUIDE``) with ``checks``."""
    # loaded_source's fields name docs/page.md; the manifest pins them without the text.
    source = {key: value for key, value in loaded_source(GUIDE).items() if key != "text"}
    manifest = {
        "sources": [source],
        "span_checks": checks,
    }
    if policies is not None:
        manifest["policies"] = policies
    return manifest


FAR = {
    "name": "far",
    "source_id": "page",
    "instruction": {"quote": "Call open(path)"},
    "qualifier": {"quote": "It refuses a missing path."},
}
NEAR = {
    "name": "near",
    "source_id": "page",
    "instruction": {"quote": "Some middle"},
    "qualifier": {"quote": "Tail words."},
}


class PageTestCase(LabTestCase):
    def pinned_page(self, checks: list[dict], policies: dict, name: str = "manifest.json"):
        """``GUIDE`` as ``docs/page.md`` in the test's folder, and a manifest ``name`` pinning it; its path."""
        (self.folder / "docs").mkdir(exist_ok=True)
        (self.folder / "docs" / "page.md").write_text(GUIDE, encoding="utf-8")
        return self.write_json(name, page_manifest(checks, policies))


class Joins(LabTestCase):
    def test_groups_between_the_spans_are_joined_and_the_rest_stay(self):
        cases = [
            # At 30 every paragraph is its own group; the pair [8, 84) joins A, B and C.
            (30, [check("p", INSTRUCTION, QUALIFIER)], [(8, 84), (85, 97), (106, 122)]),
            # At 40 C and E group ([57, 97): 97 - 57 = 40); the join reaches that group's end.
            (40, [check("p", INSTRUCTION, QUALIFIER)], [(8, 97), (106, 122)]),
            # Two pairs whose stretches meet in B chain into one chunk.
            (30, [check("p", INSTRUCTION, MIDDLE), check("q", MIDDLE, QUALIFIER)], [(8, 84), (85, 97), (106, 122)]),
            # A pair inside one group needs no join: heading-aware's groups.
            (
                30,
                [check("p", Span(8, 12, "Call"), Span(24, 30, "first."))],
                [(8, 31), (32, 56), (57, 84), (85, 97), (106, 122)],
            ),
            # The qualifier before the instruction: the stretch is the same.
            (30, [check("p", QUALIFIER, INSTRUCTION)], [(8, 84), (85, 97), (106, 122)]),
        ]
        for target, checks, expected in cases:
            with self.subTest(target=target, checks=[item.name for item in checks]):
                self.assertEqual(spans(pair_aware(target, checks)), expected)

    def test_no_pair_gives_heading_aware_spans_under_other_ids(self):
        heading_aware = chunk_index.build_index(chunk_index.policy_config("heading-aware", 30), [loaded_source(GUIDE)])
        alone = pair_aware(30, [])
        self.assertEqual(spans(alone), [(8, 31), (32, 56), (57, 84), (85, 97), (106, 122)])
        self.assertEqual(spans(alone), spans(heading_aware))
        self.assertNotEqual(alone["index_id"], heading_aware["index_id"])
        self.assertFalse({c["chunk_id"] for c in alone["chunks"]} & {c["chunk_id"] for c in heading_aware["chunks"]})

    def test_pairs_across_a_heading_or_in_a_heading_line_stay_split(self):
        checks = [check("across", INSTRUCTION, OTHER), check("heading", HEADING_LINE, MIDDLE)]
        index = pair_aware(30, checks)
        self.assertEqual(spans(index), [(8, 31), (32, 56), (57, 84), (85, 97), (106, 122)])
        statuses = [placement.status for placement in chunk_index.pair_placements(index["config"], index["documents"])]
        # config order: by source, then instruction span: the heading line [0, 7) first.
        self.assertEqual(statuses, ["outside_sections", "across_headings"])

    def test_joined_spans_on_bare_groups(self):
        self.assertEqual(chunk_index.joined_spans([(0, 10), (11, 20), (21, 40)], [(5, 15)]), [(0, 20), (21, 40)])
        self.assertEqual(
            chunk_index.joined_spans([(0, 10), (11, 20), (21, 40)], [(12, 19)]), [(0, 10), (11, 20), (21, 40)]
        )
        self.assertEqual(chunk_index.joined_spans([(0, 10), (11, 20), (21, 40)], [(0, 40)]), [(0, 40)])
        # A stretch starting in the blank between groups joins from the next group.
        self.assertEqual(chunk_index.joined_spans([(0, 10), (11, 20), (21, 40)], [(10, 25)]), [(0, 10), (11, 40)])


class Cap(PageTestCase):
    def test_a_pair_farther_apart_than_four_targets_stays_split_and_is_listed(self):
        pair = [check("p", INSTRUCTION, QUALIFIER)]
        # 76 characters apart: at 19 the cap is 76 (not farther apart), at 18 it is 72.
        kept = pair_aware(19, pair)
        self.assertEqual(spans(kept), [(8, 84), (85, 97), (106, 122)])
        split = pair_aware(18, pair)
        self.assertEqual(spans(split), [(8, 31), (32, 56), (57, 84), (85, 97), (106, 122)])
        [placement] = chunk_index.pair_placements(split["config"], split["documents"])
        self.assertEqual((placement.status, placement.distance), ("over_cap", 76))

    def test_the_summary_lists_each_pair_left_split_with_why(self):
        folder = self.folder
        checks = [
            {
                "name": "far",
                "source_id": "page",
                "instruction": {"quote": "Call open(path)"},
                "qualifier": {"quote": "It refuses a missing path."},
            },
            {
                "name": "across",
                "source_id": "page",
                "instruction": {"quote": "Tail words."},
                "qualifier": {"quote": "Unrelated text."},
            },
        ]
        manifest = self.pinned_page(checks, {"heading-aware": 18, "pair-aware": 18})
        completed = run_lab("--manifest", str(manifest), "--output", str(folder / "result.json"))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        lines = completed.stdout.splitlines()
        rows = {line.split()[0]: line.split() for line in lines[1:5]}
        self.assertEqual(rows["pair-aware"][-3:], ["0", "of", "2"])
        self.assertIn(
            "pair-aware respects 0 of 2 pairs (both spans in one section, at most 4 x 18 = 72 chars apart); 2 stay split:",
            lines,
        )
        self.assertIn("  far: over the cap: 75 chars apart, cap 72 (4 x 18)", lines)
        self.assertIn("  across: across headings: a heading lies between its spans", lines)

    def test_a_pair_over_the_cap_that_one_block_holds_is_counted_kept_not_listed(self):
        # "Call open(path)" [8, 23) and "first." [24, 30) lie in paragraph A [8, 31): 22 characters
        # apart, over the cap of 4 x 5 = 20, so the rule joins nothing, yet A is one chunk holding both.
        checks = [
            {
                "name": "first",
                "source_id": "page",
                "instruction": {"quote": "Call open(path)"},
                "qualifier": {"quote": "first."},
            },
            {
                "name": "across",
                "source_id": "page",
                "instruction": {"quote": "Tail words."},
                "qualifier": {"quote": "Unrelated text."},
            },
        ]
        manifest = self.pinned_page(checks, {"heading-aware": 5, "pair-aware": 5})
        completed = run_lab("--manifest", str(manifest), "--output", str(self.folder / "result.json"))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        lines = completed.stdout.splitlines()
        rows = {line.split()[0]: line.split() for line in lines[1:5]}
        self.assertEqual(rows["pair-aware"][-3:], ["1", "of", "2"])
        self.assertIn(
            "pair-aware respects 0 of 2 pairs (both spans in one section, at most 4 x 5 = 20 chars apart);"
            " 1 more, over the cap, lies in one chunk anyway; 1 stays split:",
            lines,
        )
        self.assertIn("  across: across headings: a heading lies between its spans", lines)
        self.assertFalse([line for line in lines if line.startswith("  first:")])


class Identity(LabTestCase):
    def test_the_pairs_are_bound_by_every_id_but_their_names_are_not(self):
        one = pair_aware(30, [check("p", INSTRUCTION, QUALIFIER)])
        renamed = pair_aware(30, [check("renamed", INSTRUCTION, QUALIFIER)])
        other = pair_aware(30, [check("p", INSTRUCTION, OTHER)])
        self.assertEqual(one["index_id"], renamed["index_id"])
        self.assertNotEqual(one["index_id"], other["index_id"])
        # The tail chunk [85, 97) has the same span in both, and still another id: the config differs.
        self.assertNotEqual(one["chunks"][1]["chunk_id"], other["chunks"][3]["chunk_id"])
        self.assertEqual(
            one["config"],
            {
                "strategy": "pair-aware",
                "version": 1,
                "max_chars": 30,
                "pairs": [{"source_id": "page", "instruction_span": [8, 23], "qualifier_span": [57, 84]}],
            },
        )

    def test_configs_outside_the_family_are_refused(self):
        good = pair_aware(30, [check("p", INSTRUCTION, QUALIFIER), check("q", MIDDLE, OTHER)])["config"]
        self.assertIsNotNone(chunk_index.family_config(good))
        forged = {
            "unsorted": lambda config: config["pairs"].reverse(),
            "repeated": lambda config: config["pairs"].append(dict(config["pairs"][0])),
            "bool bound": lambda config: config["pairs"][0]["instruction_span"].__setitem__(0, True),
            "empty span": lambda config: config["pairs"][0].__setitem__("qualifier_span", [9, 9]),
            "named": lambda config: config["pairs"][0].__setitem__("name", "p"),
            "no pairs": lambda config: config.pop("pairs"),
            "pairs on heading-aware": lambda config: config.__setitem__("strategy", "heading-aware"),
        }
        for label, forge in forged.items():
            with self.subTest(label):
                config = copy.deepcopy(good)
                forge(config)
                self.assertIsNone(chunk_index.family_config(config))


class Validation(PageTestCase):
    def setUp(self):
        super().setUp()
        self.manifest = self.pinned_page([FAR, NEAR], {"pair-aware": 30})
        self.result_path = self.folder / "result.json"
        completed = run_lab("--manifest", str(self.manifest), "--output", str(self.result_path))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.result = json.loads(self.result_path.read_text(encoding="utf-8"))

    def test_a_pair_aware_result_validates_and_holds_four_indexes(self):
        self.assertEqual(list(self.result["indexes"]), ["fixed-char", "paragraph", "heading-aware", "pair-aware"])
        self.assertEqual([c["strategy"] for c in self.result["comparisons"]], list(self.result["indexes"]))
        # far [8, 84) and near [32, 97) both join: one chunk [8, 97) in Guide.
        self.assertEqual(spans(self.result["indexes"]["pair-aware"]), [(8, 97), (106, 122)])
        completed = run_lab("validate", str(self.result_path), "--manifest", str(self.manifest))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("pair-aware 2 chunks", completed.stdout)

    def test_a_forged_pair_aware_index_is_refused_though_its_hashes_agree(self):
        index = copy.deepcopy(self.result["indexes"]["pair-aware"])
        # Cut the joined chunk back at the pair's own boundary and recompute every hash.
        index["chunks"][0]["end"] = 56
        index["chunks"][0]["text"] = GUIDE[8:56]
        index["chunks"][0]["end_line"] = 4
        reforge_index(index)
        with self.assertRaises(IngestionError) as raised:
            validate.validate_index(index)
        self.assertEqual((raised.exception.code, raised.exception.where), ("index_mismatch", "chunks[0].end"))

    def test_an_index_rebuilt_for_a_pair_its_text_does_not_hold_is_refused(self):
        index = copy.deepcopy(self.result["indexes"]["pair-aware"])
        index["config"]["pairs"][0]["qualifier_span"] = [57, 500]
        reforge_index(index)
        with self.assertRaises(IngestionError) as raised:
            validate.validate_index(index)
        self.assertEqual(raised.exception.code, "config_pair")
        self.assertEqual(raised.exception.where, "config.pairs[0].qualifier_span")

    def test_a_pair_added_or_removed_after_the_build_is_refused(self):
        # Build the other policies for one pair more (or less), keep the old pair-aware index: every hash agrees.
        manifest = load_manifest(self.manifest)
        extra = SpanCheck("extra", "page", Span(85, 96, "Tail words."), Span(106, 121, "Unrelated text."))
        for label, checks in (("added", (*manifest.span_checks, extra)), ("removed", manifest.span_checks[:1])):
            with self.subTest(label):
                configs = chunk_index.manifest_configs(manifest.grammar, manifest.policy_sizes, checks)
                rebuilt = span_checks.build_checked_result(manifest.sources, checks, configs)
                rebuilt["indexes"]["pair-aware"] = self.result["indexes"]["pair-aware"]
                rebuilt["comparisons"] = span_checks.checked_comparisons(rebuilt["indexes"], checks)
                with self.assertRaises(IngestionError) as raised:
                    validate.validate_result(json.loads(json.dumps(rebuilt)))
                self.assertEqual(raised.exception.code, "pairs_mismatch")
                self.assertEqual(raised.exception.where, "indexes.pair-aware.config.pairs")

    def test_validate_against_a_manifest_with_a_new_pair_names_it_stale(self):
        across = {
            "name": "across",
            "source_id": "page",
            "instruction": {"quote": "Tail words."},
            "qualifier": {"quote": "Unrelated text."},
        }
        newer = self.pinned_page([FAR, NEAR, across], {"pair-aware": 30}, "newer.json")
        completed = run_lab("validate", str(self.result_path), "--manifest", str(newer))
        self.assert_one_line_refusal(completed, "stale_configs")
        self.assertIn(
            "built for 2 pairs, the manifest declares 3 (1 added, 0 removed since the build)", completed.stderr
        )

    def test_diff_says_which_chunks_a_new_pair_re_cut(self):
        older = self.pinned_page([FAR], {"pair-aware": 30}, "older.json")
        old_path = self.folder / "old.json"
        self.assertEqual(run_lab("--manifest", str(older), "--output", str(old_path)).returncode, 0)
        completed = run_lab("diff", str(old_path), str(self.result_path), "--policy", "pair-aware", "--json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        [policy] = json.loads(completed.stdout)["policies"]
        # Old: [8, 84), [85, 97), [106, 122); the pair "near" joins the first two: [8, 97).
        self.assertEqual([(chunk["start"], chunk["end"]) for chunk in policy["recut"]], [(8, 97)])
        self.assertEqual(
            policy["pairs_added"], [{"source_id": "page", "instruction_span": [32, 43], "qualifier_span": [85, 96]}]
        )
        self.assertEqual(policy["pairs_removed"], [])
        self.assertEqual(policy["embeddings_to_compute"], 1)
        # Every id changed with the config: the summary says why, so a vector store keyed by id is not surprised.
        summary = run_lab("diff", str(old_path), str(self.result_path), "--policy", "pair-aware").stdout.splitlines()
        self.assertIn("  chunk ids: 0 kept, 3 removed, 2 added", summary)
        self.assertIn(
            "  every chunk id is new: a pair-aware index's pairs are part of its config, which each chunk id hashes, so "
            "a pair added, removed or moved (an edit above it shifts its spans) renames every chunk; only the new texts "
            "need embeddings",
            summary,
        )


class CarriedCaveats(PageTestCase):
    def setUp(self):
        super().setUp()
        self.manifest = self.pinned_page([FAR, NEAR], {"heading-aware": 30})
        self.result_path = self.folder / "result.json"
        self.assertEqual(run_lab("--manifest", str(self.manifest), "--output", str(self.result_path)).returncode, 0)

    def read_back(self, path) -> list[dict]:
        """Each line one JSON record in the upsert shape LangChain and LlamaIndex read: id, text, metadata."""
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for record in records:
            self.assertEqual(list(record), ["id", "text", "metadata"])
            self.assertIs(type(record["metadata"]), dict)
        return records

    def test_a_chunk_holding_an_instruction_without_its_caveat_carries_it(self):
        output = self.folder / "chunks.jsonl"
        completed = run_lab(
            "export", str(self.result_path), "--policy", "heading-aware", "--carry-caveats", "--output", str(output)
        )
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("; 2 chunks carry 2 caveats", completed.stdout)
        records = self.read_back(output)
        carried = {
            (r["metadata"]["start"], r["metadata"]["end"]): r["metadata"].get("carried_caveats") for r in records
        }
        # heading-aware at 30: A [8, 31) holds far's instruction, B [32, 56) near's; neither holds its qualifier.
        self.assertEqual(
            carried[(8, 31)],
            [
                {
                    "name": "far",
                    "source_id": "page",
                    "start": 57,
                    "end": 83,
                    "start_line": 6,
                    "end_line": 6,
                    "text": "It refuses a missing path.",
                    "holds_instruction": "whole",
                }
            ],
        )
        self.assertEqual([caveat["text"] for caveat in carried[(32, 56)]], ["Tail words."])
        self.assertIsNone(carried[(57, 84)])
        first = next(r for r in records if r["metadata"]["start"] == 8)
        self.assertEqual(first["metadata"]["carried_caveats_text"], "It refuses a missing path.")
        self.assertEqual(first["text"], GUIDE[8:31])

    def test_judge_credits_the_caveats_an_export_carries(self):
        output = self.folder / "carried.jsonl"
        completed = run_lab(
            "export", str(self.result_path), "--policy", "heading-aware", "--carry-caveats", "--output", str(output)
        )
        self.assertEqual(completed.returncode, 0, completed.stderr)
        judged = run_lab("judge", str(output), "--manifest", str(self.manifest), "--json")
        self.assertEqual(judged.returncode, 0, judged.stderr)
        document = json.loads(judged.stdout)
        self.assertEqual(document["judge_version"], 14)
        lab, row = document["policies"][2], document["policies"][-1]
        # heading-aware at 30 splits far and near (see above); both chunks holding an instruction carry its caveat.
        self.assertEqual((lab["pairs_kept_together"], lab["pairs_carried"]), (0, 0))
        self.assertEqual((row["pairs_kept_together"], row["pairs_carried"]), (0, 2))
        self.assertEqual([pair["caveat_carried"] for pair in row["pairs"]], [True, True])
        text = run_lab("judge", str(output), "--manifest", str(self.manifest), "--name", "mine").stdout
        row_line = next(line for line in text.splitlines() if line.startswith("mine "))
        self.assertTrue(row_line.endswith("  0 of 2, 2 more carried"), row_line)
        # fixed-char's 80-character slice [8, 88) holds far's [8, 31) and [57, 83).
        self.assertIn("far: fixed-char same chunk, paragraph split, heading-aware split, mine carried\n", text)
        self.assertIn("with them mine gives 2 of 2 pairs their caveat", text)
        # The plain export, and one whose carried text is another sentence, credit nothing.
        records = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
        for record in records:
            if "carried_caveats_text" in record["metadata"]:
                record["metadata"]["carried_caveats_text"] = "Some middle words here."
        output.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
        row = json.loads(run_lab("judge", str(output), "--manifest", str(self.manifest), "--json").stdout)["policies"][
            -1
        ]
        self.assertEqual(row["pairs_carried"], 0)
        records[0]["metadata"]["carried_caveats_text"] = ["It refuses a missing path."]
        output.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
        refused = run_lab("judge", str(output), "--manifest", str(self.manifest))
        self.assertEqual(refused.returncode, 1)
        self.assertEqual(
            refused.stderr,
            f'error: chunk_metadata: {output}:1: metadata.carried_caveats_text must be a string, found ["It refuses '
            'a missing path."]\n',
        )

    def test_judged_chunks_carry_caveats_too(self):
        chunks = self.folder / "mine.jsonl"
        # A plain splitter's chunks: the first sentence alone, then the rest of the Guide section.
        lines = [{"source_id": "page", "text": GUIDE[8:31]}, {"source_id": "page", "text": GUIDE[32:97]}]
        chunks.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        output = self.folder / "judged.jsonl"
        completed = run_lab(
            "export",
            "--chunks",
            str(chunks),
            "--manifest",
            str(self.manifest),
            "--carry-caveats",
            "--output",
            str(output),
        )
        self.assertEqual(completed.returncode, 0, completed.stderr)
        records = self.read_back(output)
        self.assertEqual([(r["metadata"]["start"], r["metadata"]["end"]) for r in records], [(8, 31), (32, 97)])
        self.assertEqual([c["name"] for c in records[0]["metadata"]["carried_caveats"]], ["far"])
        # [32, 97) holds near's instruction and its qualifier: nothing to carry.
        self.assertNotIn("carried_caveats", records[1]["metadata"])

    def test_carried_caveats_on_bare_chunks(self):
        pairs = [{"name": "p", "source_id": "page", "instruction_span": [8, 23], "qualifier_span": [57, 83]}]
        chunks = [
            {"source_id": "page", "start": 8, "end": 31},
            {"source_id": "page", "start": 8, "end": 84},
            {"source_id": "page", "start": 10, "end": 84},
        ]
        carried = reembed.carried_caveats(chunks, pairs, {"page": GUIDE})
        self.assertEqual(list(carried), [0])
        self.assertEqual(carried[0][0]["text"], "It refuses a missing path.")

    def test_an_instruction_no_chunk_holds_whole_is_carried_where_it_starts(self) -> None:
        # "Call open(path) first." is [8, 30); "It refuses a missing path." [57, 83); "Some middle words here." [32, 55).
        self.assertEqual(
            (GUIDE[8:30], GUIDE[57:83], GUIDE[32:55]),
            ("Call open(path) first.", "It refuses a missing path.", "Some middle words here."),
        )
        pairs = [
            # Its instruction runs from [8, 20) into [20, 40); neither holds it whole: carried at [8, 20).
            {"name": "cut", "source_id": "page", "instruction_span": [8, 30], "qualifier_span": [57, 83]},
            # The qualifier [32, 55) comes first and lies in [20, 60), where the instruction [40, 83) starts.
            {"name": "before", "source_id": "page", "instruction_span": [40, 83], "qualifier_span": [32, 55]},
        ]
        chunks = [
            {"source_id": "page", "start": 8, "end": 20},
            {"source_id": "page", "start": 20, "end": 60},
            {"source_id": "page", "start": 60, "end": 84},
        ]
        carrying = reembed.carrying(chunks, pairs, {"page": GUIDE})
        self.assertEqual(list(carrying.carried), [0])
        [caveat] = carrying.carried[0]
        self.assertEqual((caveat["name"], caveat["holds_instruction"]), ("cut", "start"))
        self.assertEqual((carrying.split, carrying.held_at_start, carrying.unplaced), (2, 1, 0))
        # An instruction starting in no chunk (a gap at [30, 40)) is counted, never carried.
        gapped = [{"source_id": "page", "start": 8, "end": 30}, {"source_id": "page", "start": 40, "end": 84}]
        moved = [{**pairs[0], "name": "gap", "instruction_span": [32, 55]}]
        carrying = reembed.carrying(gapped, moved, {"page": GUIDE})
        self.assertEqual((carrying.carried, carrying.split, carrying.unplaced), ({}, 1, 1))

    def test_the_summary_counts_the_split_pairs_carried_nowhere(self) -> None:
        carrying = reembed.Carrying({0: [{"holds_instruction": "start"}]}, split=3, held_at_start=1, unplaced=1)
        self.assertEqual(
            export.carried_note(carrying),
            "; 1 chunk carries 1 caveat (1 where an instruction no chunk holds whole starts); 1 of the 3 split pairs "
            "carries none: the chunk where the instruction starts holds the caveat already; 1 pair carries none: no "
            "chunk holds where the instruction starts",
        )


class Commands(PageTestCase):
    def test_show_refuses_a_policy_the_manifest_does_not_build(self):
        completed = run_lab("show", "--policy", "pair-aware")
        self.assert_one_line_refusal(completed, "policy_not_built", 2)

    def test_a_bad_pair_aware_size_is_refused_while_loading(self):
        for size in (0, True, 220.0):
            with self.subTest(size=size):
                manifest = self.pinned_page([FAR], {"pair-aware": size})
                completed = run_lab("--manifest", str(manifest), "--output", str(self.folder / "r.json"))
                self.assert_one_line_refusal(completed, "policy_size")

    def test_sweep_cuts_pair_aware_as_a_build_does(self):
        manifest = self.pinned_page([FAR, NEAR], {"pair-aware": 30})
        completed = run_lab("sweep", "--manifest", str(manifest), "--sizes", "18", "30", "--json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        rows = {row["size"]: row["pair-aware"] for row in json.loads(completed.stdout)["rows"]}
        # At 30: [8, 97) and [106, 122). At 18 far (76 apart) is over the cap of 72; near
        # ([32, 96), 64 apart) still joins B, C and E: [8, 31), [32, 97), [106, 122).
        self.assertEqual((rows[30]["chunk_count"], rows[30]["pairs_kept_together"]), (2, 2))
        self.assertEqual((rows[18]["chunk_count"], rows[18]["kept_pairs"]), (3, ["near"]))
