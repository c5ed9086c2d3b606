"""Tests for ``run.py diff`` and ``run.py export``: the re-embedding plan and the upsert records.

Expectations come from the contract's rules and the fixture's known offsets:
a chunk id covers the document revision, so every chunk of an edited source
gets a new id; a paragraph's text does not depend on where it sits, so the
unchanged paragraphs of an edited source keep their text hash.
"""

from __future__ import annotations

import json
import unittest
from pathlib import Path
from unittest import mock

import chunk_index
from checks import span_checks
from lab_io.errors import IngestionError
from lab_io.indented_json import saved_json_bytes
from load_documents import load_manifest, normalize_newlines
from results import reembed, validate
from tests.support import MANIFEST, ROOT, LabTestCase, fixture_result, reforge_index, run_lab

EDITED_SOURCE = "docs/aster-copy-v1.md"
# The edit sits in the "After a refusal" paragraph, after the manifest's span
# checks (which quote [51, 77) and [131, 171) of this source), so they still hold.
ORIGINAL_PHRASE = "report the path conflict to the caller."
EDITED_PHRASE = "report the path conflict to the calling code."
INSTRUCTION_SPAN = (51, 77)
QUALIFIER_SPAN = (131, 171)
# Upsert metadata: the chunk's payload without what the record holds elsewhere
# (text) or leaves out (section_id), then the index id.
NOT_IN_METADATA = frozenset({"chunk_id", "section_id", "text"})


def chunk_ids(chunks: list[dict], source_id: str | None = None) -> list[str]:
    """The ids of ``chunks`` (of one source, if given), in order."""
    return [chunk["chunk_id"] for chunk in chunks if source_id is None or chunk["source_id"] == source_id]


class ReembedTestCase(LabTestCase):
    """Saved files for the diff tests, all inside the test's temporary folder."""

    def save_fixture_result(self, name: str = "old.json") -> Path:
        return self.write_json(name, fixture_result())

    def edit_copied_source(self, folder: Path, old: str, new: str) -> Path:
        """Copy the inputs to ``folder``, replace ``old`` by ``new`` in one source, re-pin it."""
        manifest_path = self.copy_inputs(folder)
        source_path = folder / EDITED_SOURCE
        text = source_path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise AssertionError(f"{old!r} should occur once in {EDITED_SOURCE}")
        source_path.write_bytes(text.replace(old, new).encode("utf-8"))
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        for source in manifest["sources"]:
            if source["path"] == EDITED_SOURCE:
                source["sha256"] = chunk_index.sha(source_path.read_text(encoding="utf-8"))
        manifest_path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        return manifest_path

    def build_edited_result(self) -> Path:
        """The result of a copy of the inputs with one sentence of aster-copy-v1 edited, built by run.py."""
        folder = self.folder / "edited"
        folder.mkdir()
        manifest_path = self.edit_copied_source(folder, ORIGINAL_PHRASE, EDITED_PHRASE)
        output = self.folder / "new.json"
        completed = run_lab("--manifest", str(manifest_path), "--output", str(output))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return output

    def edited_paragraph(self) -> str:
        """The edited source's paragraph holding the new phrase: one line of the fixture, with its ``\\n``."""
        text = (self.folder / "edited" / EDITED_SOURCE).read_text(encoding="utf-8")
        return next(line for line in text.splitlines(keepends=True) if EDITED_PHRASE in line)


class DiffOfIdenticalFilesTest(ReembedTestCase):
    def test_fixture_result_against_itself_keeps_every_chunk(self) -> None:
        path = self.save_fixture_result()
        diff = reembed.diff_files(path, path)
        expected = fixture_result()
        self.assertEqual(
            [(policy.old_policy, policy.new_policy) for policy in diff.policies],
            [(name, name) for name in chunk_index.DEFAULT_POLICY_NAMES],
        )
        for policy in diff.policies:
            with self.subTest(policy=policy.old_policy):
                self.assertEqual(chunk_ids(policy.kept), chunk_ids(expected["indexes"][policy.old_policy]["chunks"]))
                self.assertEqual(policy.removed, [])
                self.assertEqual(policy.added, [])
                self.assertEqual([change["status"] for change in policy.documents], ["unchanged", "unchanged"])
        self.assertEqual(diff.embeddings_to_compute, 0)

    def test_summary_ends_with_nothing_to_embed(self) -> None:
        path = self.save_fixture_result()
        completed = run_lab("diff", str(path), str(path))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(completed.stdout.splitlines()[-1], "embeddings to compute: 0")
        self.assertEqual(completed.stderr, "")


class DiffDocumentLinesTest(unittest.TestCase):
    """The summary names the documents that moved and counts the rest, so a large docs set stays readable."""

    def change(self, source_id: str, status: str) -> dict:
        if status != "changed":
            return {"source_id": source_id, "status": status}
        return {"source_id": source_id, "status": status, "reasons": ["text"], "changed_fields": ["sha256"]}

    def test_unchanged_documents_are_counted_not_listed(self) -> None:
        cases = [
            (["unchanged", "unchanged"], ["  2 documents unchanged"]),
            (["unchanged"], ["  1 document unchanged"]),
            (
                ["unchanged", "changed", "unchanged", "added"],
                [
                    '  "b": revision changed (text: sha256); every chunk id of it changes',
                    '  "d": added',
                    "  2 other documents unchanged",
                ],
            ),
            (["removed"], ['  "a": removed']),
        ]
        for statuses, expected in cases:
            with self.subTest(statuses=statuses):
                changes = [self.change(name, status) for name, status in zip("abcd", statuses)]
                self.assertEqual(reembed.document_lines(changes), expected)

    def test_a_long_list_stops_at_twenty_and_files_sharing_no_page_are_said_to(self) -> None:
        # 3 pages removed and 25 added: two files of other pages; the first 20 changes named, 8 counted by kind.
        changes = [self.change(f"old-{n}", "removed") for n in range(3)]
        changes += [self.change(f"new-{n:02d}", "added") for n in range(25)]
        lines = reembed.document_lines(changes)
        self.assertTrue(lines[0].startswith("  note: the two files share no document"), lines[0])
        self.assertEqual(len(lines), 1 + 20 + 1)
        self.assertEqual(lines[-1], "  … 8 more (8 added): --json lists every document")


class DiffAfterSourceEditTest(ReembedTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.old_path = self.save_fixture_result()
        self.new_path = self.build_edited_result()
        self.old = fixture_result()["indexes"]

    def test_every_id_of_the_edited_source_changes_and_the_other_is_kept(self) -> None:
        diff = reembed.diff_files(self.old_path, self.new_path)
        for policy in diff.policies:
            old_chunks = self.old[policy.old_policy]["chunks"]
            with self.subTest(policy=policy.old_policy):
                self.assertEqual(chunk_ids(policy.kept), chunk_ids(old_chunks, "aster-copy-v2"))
                self.assertEqual(chunk_ids(policy.removed), chunk_ids(old_chunks, "aster-copy-v1"))
                self.assertEqual({chunk["source_id"] for chunk in policy.added}, {"aster-copy-v1"})

    def test_edited_revision_is_explained_by_text(self) -> None:
        diff = reembed.diff_files(self.old_path, self.new_path, "paragraph", "paragraph")
        changes = {change["source_id"]: change for change in diff.policies[0].documents}
        self.assertEqual(changes["aster-copy-v1"]["status"], "changed")
        self.assertEqual(changes["aster-copy-v1"]["reasons"], ["text"])
        self.assertEqual(changes["aster-copy-v1"]["changed_fields"], ["sha256", "normalized_text_sha256"])
        self.assertEqual(changes["aster-copy-v2"]["status"], "unchanged")

    def test_only_the_edited_paragraph_needs_an_embedding(self) -> None:
        diff = reembed.diff_files(self.old_path, self.new_path, "paragraph", "paragraph")
        paragraph = diff.policies[0]
        old_v1 = [chunk for chunk in self.old["paragraph"]["chunks"] if chunk["source_id"] == "aster-copy-v1"]
        # One sentence edited inside one paragraph: the paragraphs are the same
        # runs of lines, so each old paragraph but the edited one reappears verbatim.
        self.assertEqual(len(paragraph.added), len(old_v1))
        self.assertEqual([chunk["text"] for chunk in paragraph.needing_embedding], [self.edited_paragraph()])
        unchanged_texts = [chunk["text"] for chunk in old_v1 if ORIGINAL_PHRASE not in chunk["text"]]
        self.assertEqual([chunk["text"] for chunk in paragraph.reusable], unchanged_texts)
        self.assertEqual(diff.embeddings_to_compute, 1)

    def test_end_to_end_summary_and_json(self) -> None:
        summary = run_lab("diff", str(self.old_path), str(self.new_path), "--policy", "paragraph")
        self.assertEqual(summary.returncode, 0, summary.stderr)
        self.assertEqual(summary.stdout.splitlines()[-1], "embeddings to compute: 1")
        machine = run_lab("diff", str(self.old_path), str(self.new_path), "--policy", "paragraph", "--json")
        self.assertEqual(machine.returncode, 0, machine.stderr)
        plan = json.loads(machine.stdout)
        self.assertEqual(
            list(plan), ["diff_version", "old", "new", "policies", "only_old", "only_new", "embeddings_to_compute"]
        )
        self.assertEqual(plan["embeddings_to_compute"], 1)
        (pair,) = plan["policies"]
        self.assertEqual((pair["old_policy"], pair["new_policy"]), ("paragraph", "paragraph"))
        self.assertEqual(pair["kept_chunk_ids"], chunk_ids(self.old["paragraph"]["chunks"], "aster-copy-v2"))
        self.assertEqual(len(pair["needs_embedding"]), 1)
        self.assertEqual(pair["needs_embedding"][0]["text_sha256"], chunk_index.sha(self.edited_paragraph()))


class DiffOfVerdictsTest(ReembedTestCase):
    """Between two results, the span checks added and removed and the verdicts that changed, per policy."""

    def build(self, manifest: Path, name: str) -> Path:
        output = self.folder / name
        completed = run_lab("--manifest", str(manifest), "--output", str(output))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return output

    def built_before_and_with_pair_aware(self, manifest: Path, target: int) -> tuple[Path, Path, dict]:
        """``old.json`` built from ``manifest``, then ``new.json`` with a pair-aware policy at ``target`` added to
        it, and the new file's pair-aware index."""
        old = self.build(manifest, "old.json")
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["policies"] = {"pair-aware": target}
        manifest.write_text(json.dumps(value), encoding="utf-8")
        new = self.build(manifest, "new.json")
        return old, new, json.loads(new.read_text(encoding="utf-8"))["indexes"]["pair-aware"]

    def test_a_policy_only_one_side_holds_is_named_and_its_chunks_counted(self) -> None:
        old, new, index = self.built_before_and_with_pair_aware(self.copy_inputs(), 220)
        chunks, distinct = len(index["chunks"]), len({chunk["text_sha256"] for chunk in index["chunks"]})
        completed = run_lab("diff", str(old), str(new), "--json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        document = json.loads(completed.stdout)
        self.assertEqual(document["only_old"], [])
        self.assertEqual(
            document["only_new"],
            [
                {
                    "policy": "pair-aware",
                    "index_id": index["index_id"],
                    "chunks": chunks,
                    "embeddings_to_compute": distinct,
                }
            ],
        )
        # The three policies both hold are unchanged: the new index's texts are all there is to embed.
        self.assertEqual(document["embeddings_to_compute"], distinct)
        summary = run_lab("diff", str(old), str(new)).stdout.splitlines()
        self.assertIn(
            f"pair-aware: only in the new file: a new index of {chunks} chunks, {distinct} distinct to embed", summary
        )
        self.assertEqual(summary[-1], f"embeddings to compute: {distinct}")
        # Narrowed to one policy on a side, the other indexes are not compared, nor counted.
        narrowed = json.loads(run_lab("diff", str(old), str(new), "--old-policy", "paragraph", "--json").stdout)
        self.assertEqual((narrowed["only_old"], narrowed["only_new"], narrowed["embeddings_to_compute"]), ([], [], 0))
        # Narrowed to the policy the old file lacks, nothing is compared: that index is the new one, all to embed.
        asked = json.loads(run_lab("diff", str(old), str(new), "--new-policy", "pair-aware", "--json").stdout)
        self.assertEqual(
            ([entry["policy"] for entry in asked["only_new"]], asked["only_old"], asked["embeddings_to_compute"]),
            (["pair-aware"], [], distinct),
        )
        backwards = run_lab("diff", str(new), str(old), "--json").stdout
        self.assertEqual(
            json.loads(backwards)["only_old"],
            [{"policy": "pair-aware", "index_id": index["index_id"], "chunks": chunks}],
        )
        self.assertEqual(json.loads(backwards)["embeddings_to_compute"], 0)

    def test_the_count_to_embed_is_written_with_thousands_separators_as_every_count_of_the_summary(self) -> None:
        (self.folder / "docs").mkdir()
        paragraphs = "\n\n".join(f"Paragraph {number}." for number in range(1_100))
        (self.folder / "docs" / "many.md").write_text(f"# Many\n\n{paragraphs}\n", encoding="utf-8")
        manifest = self.folder / "m.json"
        self.assertEqual(run_lab("pin", "--manifest", str(manifest), "docs", cwd=self.folder).returncode, 0)
        old, new, index = self.built_before_and_with_pair_aware(manifest, 1)
        # At a target of 1 every paragraph is a chunk of its own: 1,100 texts, each new.
        distinct = len({chunk["text_sha256"] for chunk in index["chunks"]})
        self.assertEqual(distinct, 1_100)
        summary = run_lab("diff", str(old), str(new)).stdout.splitlines()
        self.assertIn("pair-aware: only in the new file: a new index of 1,100 chunks, 1,100 distinct to embed", summary)
        self.assertEqual(summary[-1], "embeddings to compute: 1,100")

    def test_the_chunks_to_embed_are_listed_up_to_twenty(self) -> None:
        from results import reembed

        needed = [
            {
                "source_id": "p",
                "order": n,
                "start": n,
                "end": n + 1,
                "start_line": 1,
                "end_line": 1,
                "text": f"t{n}",
                "text_sha256": str(n),
            }
            for n in range(23)
        ]
        policy = reembed.PolicyDiff(
            "paragraph", "paragraph", "a", "b", [], [], [], needed, [], needed, [], [], [], None
        )
        lines = reembed.policy_lines(policy, False)
        self.assertEqual(sum(line.startswith("  embed ") for line in lines), 20)
        self.assertEqual(lines[-1], "  … 3 more chunks to embed: --json lists every one")

    def test_a_check_of_the_same_name_with_other_quotes_is_named(self) -> None:
        manifest = self.copy_inputs()
        self.assertEqual(run_lab("scan", "--add-checks", "--manifest", str(manifest)).returncode, 0)
        old = self.build(manifest, "old.json")
        # The check keeps its name, its qualifier now another sentence of the page (as --drop-stale then --add-checks
        # give after an edit of the quote).
        value = json.loads(manifest.read_text(encoding="utf-8"))
        check = next(entry for entry in value["span_checks"] if entry["name"] == "scan:aster-copy-v2:7")
        check["qualifier"] = {"quote": "This version's conflict response uses a different teaching contract."}
        manifest.write_text(json.dumps(value), encoding="utf-8")
        new = self.build(manifest, "new.json")
        document = json.loads(run_lab("diff", str(old), str(new), "--policy", "paragraph", "--json").stdout)
        self.assertEqual(
            [entry["name"] for entry in document["policies"][0]["checks"]["requoted"]], ["scan:aster-copy-v2:7"]
        )
        summary = run_lab("diff", str(old), str(new), "--policy", "paragraph").stdout
        self.assertIn(
            '  other quotes: "scan:aster-copy-v2:7" (its instruction or qualifier reads otherwise now; ', summary
        )

    def test_a_check_removed_and_a_verdict_flipped_are_named(self) -> None:
        manifest = self.copy_inputs()
        self.assertEqual(run_lab("scan", "--add-checks", "--manifest", str(manifest)).returncode, 0)
        old = self.build(manifest, "old.json")
        # One scanned check left out, and heading-aware at 100: the fixture's instruction paragraph, [50, 130), and
        # the qualifier's after it no longer fit one group of 100, so its pair is split there now.
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"] = [check for check in value["span_checks"] if check["name"] != "scan:aster-copy-v2:7"]
        value["policies"] = {"heading-aware": 100}
        manifest.write_text(json.dumps(value), encoding="utf-8")
        new = self.build(manifest, "new.json")
        completed = run_lab("diff", str(old), str(new), "--policy", "heading-aware", "--json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        document = json.loads(completed.stdout)
        self.assertEqual(document["diff_version"], 5)
        checks = document["policies"][0]["checks"]
        self.assertEqual(checks["added"], [])
        self.assertEqual([check["name"] for check in checks["removed"]], ["scan:aster-copy-v2:7"])
        self.assertIn(
            {"name": "save-copy-refuses-existing-path", "kept_together_before": True, "kept_together": False},
            checks["changed"],
        )
        summary = run_lab("diff", str(old), str(new), "--policy", "heading-aware").stdout.splitlines()
        self.assertIn('  now split: "save-copy-refuses-existing-path" (kept before)', summary)
        self.assertIn('  check removed: "scan:aster-copy-v2:7"', summary)
        # A single index holds no verdicts: nothing to compare.
        self.assertIsNone(reembed.check_changes(None, {"paragraph": {}}, "paragraph", "paragraph"))

    def test_a_results_one_unnamed_check_is_matched_by_its_spans(self) -> None:
        # The fixture's result holds one check in the spec's shape, which names none; the same check, named, is in a
        # result of four: it is no check removed, and the three others are added.
        old = self.save_fixture_result()
        manifest = self.copy_inputs()
        self.assertEqual(run_lab("scan", "--add-checks", "--manifest", str(manifest)).returncode, 0)
        new = self.build(manifest, "new.json")
        checks = reembed.diff_files(old, new, "paragraph", "paragraph").policies[0].checks
        self.assertEqual(checks["removed"], [])
        self.assertEqual(checks["changed"], [])
        self.assertEqual(
            sorted(check["name"] for check in checks["added"]),
            ["scan:aster-copy-v1:13", "scan:aster-copy-v1:7#2", "scan:aster-copy-v2:7"],
        )

    def test_identical_results_differ_by_no_check(self) -> None:
        path = self.save_fixture_result()
        policy = reembed.diff_files(path, path).policies[0]
        self.assertEqual(policy.checks, {"added": [], "removed": [], "changed": [], "requoted": []})
        self.assertEqual(reembed.check_lines(policy.checks), [])


class DiffRevisionReasonsTest(ReembedTestCase):
    def test_reasons_follow_the_changed_fields(self) -> None:
        cases = [
            (["sha256", "normalized_text_sha256"], ["text"]),
            (["sha256"], ["metadata"]),
            (["version"], ["version"]),
            (["version", "url"], ["version", "metadata"]),
            (["title", "sha256", "normalized_text_sha256"], ["text", "metadata"]),
            ([], []),
        ]
        for changed_fields, reasons in cases:
            with self.subTest(changed_fields=changed_fields):
                self.assertEqual(reembed.revision_change_reasons(changed_fields), reasons)

    def test_version_bump_changes_revision_for_the_version_alone(self) -> None:
        sources = [dict(source) for source in load_manifest(self.copy_inputs()).sources]
        old_index = chunk_index.build_index(chunk_index.policy_config("paragraph"), sources)
        sources[0]["version"] = "1.1"
        new_index = chunk_index.build_index(chunk_index.policy_config("paragraph"), sources)
        policy = reembed.diff_indexes("paragraph", old_index, "paragraph", new_index)
        self.assertEqual(policy.documents[0]["reasons"], ["version"])
        self.assertEqual(policy.documents[0]["changed_fields"], ["version"])
        # Same text, new ids: every embedding is reusable by text hash.
        self.assertEqual(len(policy.reusable), len(chunk_ids(old_index["chunks"], "aster-copy-v1")))
        self.assertEqual(policy.embeddings_to_compute, 0)

    def test_summary_shows_untrusted_text_escaped(self) -> None:
        manifest_path = self.edit_copied_source(
            self.folder / "escape", "After a refusal,", "After \x1b[2J</evidence> a refusal,"
        )
        manifest = load_manifest(manifest_path)
        check = manifest.span_checks[0]
        result = span_checks.build_result(
            manifest.sources, check.source_id, check.instruction.as_list(), check.qualifier.as_list()
        )
        new_path = self.write_json("escape.json", result)
        completed = run_lab("diff", str(self.save_fixture_result()), str(new_path), "--policy", "paragraph")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertNotIn("\x1b", completed.stdout)
        self.assertIn("\\u001b[2J</evidence>", completed.stdout)


class DiffBetweenPoliciesTest(ReembedTestCase):
    def expect_paragraph_to_heading_aware(self, policy: reembed.PolicyDiff) -> None:
        """Every id changes (the config is part of it); a one-paragraph group keeps its paragraph's text."""
        indexes = fixture_result()["indexes"]
        paragraph_spans = {
            (chunk["source_id"], chunk["start"], chunk["end"]) for chunk in indexes["paragraph"]["chunks"]
        }
        heading_chunks = indexes["heading-aware"]["chunks"]
        self.assertEqual(policy.kept, [])
        self.assertEqual(chunk_ids(policy.removed), chunk_ids(indexes["paragraph"]["chunks"]))
        self.assertEqual(chunk_ids(policy.added), chunk_ids(heading_chunks))
        single = [
            chunk for chunk in heading_chunks if (chunk["source_id"], chunk["start"], chunk["end"]) in paragraph_spans
        ]
        self.assertEqual(chunk_ids(policy.reusable), chunk_ids(single))
        # The group that joins the instruction and its qualifier is the one new text.
        (grouped,) = policy.needing_embedding
        self.assertEqual(grouped["source_id"], "aster-copy-v1")
        self.assertLessEqual(grouped["start"], INSTRUCTION_SPAN[0])
        self.assertLessEqual(QUALIFIER_SPAN[1], grouped["end"])

    def test_two_policies_of_one_result(self) -> None:
        path = self.save_fixture_result()
        diff = reembed.diff_files(path, path, "paragraph", "heading-aware")
        (policy,) = diff.policies
        self.assertEqual((policy.old_policy, policy.new_policy), ("paragraph", "heading-aware"))
        self.expect_paragraph_to_heading_aware(policy)
        self.assertEqual(diff.embeddings_to_compute, 1)

    def test_two_single_index_files(self) -> None:
        indexes = fixture_result()["indexes"]
        old_path = self.write_json("paragraph.json", indexes["paragraph"])
        new_path = self.write_json("heading-aware.json", indexes["heading-aware"])
        diff = reembed.diff_files(old_path, new_path)
        (policy,) = diff.policies
        self.expect_paragraph_to_heading_aware(policy)
        completed = run_lab("diff", str(old_path), str(new_path))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("paragraph -> heading-aware:", completed.stdout.splitlines())
        self.assertEqual(completed.stdout.splitlines()[-1], "embeddings to compute: 1")

    def test_result_against_one_index_pairs_the_same_policy(self) -> None:
        result_path = self.save_fixture_result()
        index_path = self.write_json("heading-aware.json", fixture_result()["indexes"]["heading-aware"])
        (policy,) = reembed.diff_files(result_path, index_path).policies
        self.assertEqual((policy.old_policy, policy.new_policy), ("heading-aware", "heading-aware"))
        self.assertEqual(policy.added, [])

    def test_policy_missing_from_a_single_index_is_refused(self) -> None:
        index_path = self.write_json("heading-aware.json", fixture_result()["indexes"]["heading-aware"])
        completed = run_lab("diff", str(index_path), str(index_path), "--policy", "paragraph")
        self.assert_one_line_refusal(completed, "policy_not_in_file")
        self.assertIn(str(index_path), completed.stderr)


class MissingPolicyTest(unittest.TestCase):
    """A policy the saved file does not hold is refused, and pair-aware's refusal says how a build gets it."""

    def indexes(self, target: int) -> dict[str, dict]:
        return {
            "fixed-char": {"config": chunk_index.policy_config("fixed-char", 1000)},
            "paragraph": {"config": chunk_index.policy_config("paragraph")},
            "heading-aware": {"config": chunk_index.policy_config("heading-aware", target)},
        }

    def test_pair_aware_names_the_manifest_line_at_heading_aware_s_target(self) -> None:
        # pair-aware is built only when the manifest's "policies" names it, and it groups as heading-aware does at
        # the same target: a result of heading-aware at 640 is told to add "pair-aware": 640.
        saved = reembed.SavedIndexes(Path("r.json"), "result", self.indexes(640))
        with self.assertRaises(IngestionError) as caught:
            reembed.selected_indexes(saved, "pair-aware")
        self.assertEqual(caught.exception.code, "policy_not_in_file")
        message = str(caught.exception)
        self.assertIn("holds fixed-char, paragraph, heading-aware only; pair-aware was asked for", message)
        self.assertIn('"policies" names it: add "pair-aware": 640, then build again', message)

    def test_another_missing_policy_gets_no_such_hint(self) -> None:
        # A single saved index holds one policy: no manifest line builds another into it.
        saved = reembed.SavedIndexes(Path("i.json"), "index", {"paragraph": self.indexes(640)["paragraph"]})
        for policy in ("pair-aware", "heading-aware"):
            with self.subTest(policy=policy), self.assertRaises(IngestionError) as caught:
                reembed.selected_indexes(saved, policy)
            self.assertNotIn('"policies"', str(caught.exception))


class MissingPolicyRefusedFirstTest(ReembedTestCase):
    """``export --policy P`` (and ``diff``'s) on a file without P is refused as soon as its configs are read.

    A new user's trial: on a 117 MB result the refusal came after validating the
    whole file (1.6 s of CPU, against 0.45 s to parse it). Nothing is re-derived
    before it now: no index is built from the file, nor the manifest's build it
    would be compared with, and the line is the one the validated file gets.
    """

    def refusal(self, path: Path) -> str:
        # The fixture's heading-aware target is 220: the line's hint names it (selected_indexes).
        return (
            f"error: policy_not_in_file: {path}: holds fixed-char, paragraph, heading-aware only; pair-aware was "
            'asked for; a build makes pair-aware only when its manifest\'s "policies" names it: add '
            '"pair-aware": 220, then build again\n'
        )

    def run_unbuilt(self, *args: str):
        """``run_lab(*args)`` with every build a validation or a manifest's expected result makes counted."""
        import commands.validate

        with mock.patch.object(
            validate, "build_policy_indexes", wraps=validate.build_policy_indexes
        ) as built, mock.patch.object(
            validate, "build_index", wraps=validate.build_index
        ) as index_built, mock.patch.object(
            commands.validate, "manifest_build", wraps=commands.validate.manifest_build
        ) as manifest_built:
            completed = run_lab(*args)
        self.assertEqual((built.call_count, index_built.call_count, manifest_built.call_count), (0, 0, 0))
        return completed

    def test_a_result_without_the_policy_is_refused_before_any_build(self) -> None:
        laid_out = self.folder / "result.json"
        laid_out.write_bytes((ROOT / "expected-result.json").read_bytes())
        # Laid out otherwise, the file is parsed whole and checked field by field: still before any build.
        other = self.folder / "other.json"
        other.write_text(json.dumps(json.loads(laid_out.read_text(encoding="utf-8")), indent=1), encoding="utf-8")
        for path in (laid_out, other):
            output = self.folder / "chunks.jsonl"
            with self.subTest(path=path.name):
                completed = self.run_unbuilt("export", str(path), "--policy", "pair-aware", "--output", str(output))
                self.assertEqual((completed.returncode, completed.stderr), (1, self.refusal(path)))
                self.assertFalse(output.exists())
                completed = self.run_unbuilt("diff", str(path), str(path), "--policy", "pair-aware")
                self.assertEqual((completed.returncode, completed.stderr), (1, self.refusal(path)))

    def test_the_manifests_build_is_not_made_for_a_file_without_the_policy(self) -> None:
        # This manifest builds pair-aware; the file of its documents, built before, holds none.
        manifest_path = self.copy_inputs()
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        manifest["policies"] = {"pair-aware": 220}
        manifest_path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        path = self.folder / "result.json"
        path.write_bytes((ROOT / "expected-result.json").read_bytes())
        output = self.folder / "chunks.jsonl"
        completed = self.run_unbuilt(
            "export", str(path), "--policy", "pair-aware", "--manifest", str(manifest_path), "--output", str(output)
        )
        self.assertEqual((completed.returncode, completed.stderr), (1, self.refusal(path)))
        self.assertFalse(output.exists())

    def test_a_single_index_of_another_policy_is_refused_before_its_rebuild(self) -> None:
        path = self.write_json("paragraph.json", fixture_result()["indexes"]["paragraph"])
        completed = self.run_unbuilt("export", str(path), "--policy", "heading-aware")
        line = f"error: policy_not_in_file: {path}: holds paragraph only; heading-aware was asked for\n"
        self.assertEqual((completed.returncode, completed.stderr), (1, line))

    def test_a_file_holding_the_policy_is_still_validated_whole(self) -> None:
        # The early look decides nothing else: a tampered chunk of the policy asked for is refused as before.
        result = fixture_result()
        result["indexes"]["paragraph"]["chunks"][1]["end"] += 1
        path = self.write_json("tampered.json", result)
        completed = run_lab("export", str(path), "--policy", "paragraph")
        self.assert_one_line_refusal(completed, "index_mismatch")


class DiffRefusesTamperedInputTest(ReembedTestCase):
    def tampered_result(self, name: str) -> Path:
        """The fixture result with one paragraph chunk's text changed and every hash recomputed."""
        result = fixture_result()
        chunk = result["indexes"]["paragraph"]["chunks"][0]
        chunk["text"] = chunk["text"].replace("Call", "call")
        reforge_index(result["indexes"]["paragraph"])
        return self.write_json(name, result)

    def test_tampered_side_is_named(self) -> None:
        good = self.save_fixture_result("good.json")
        bad = self.tampered_result("tampered.json")
        for old, new in ((bad, good), (good, bad)):
            with self.subTest(old=old.name, new=new.name):
                completed = run_lab("diff", str(old), str(new))
                self.assert_one_line_refusal(completed, "index_mismatch")
                self.assertIn(f"{bad}: indexes.paragraph.chunks[0].text", completed.stderr)
                self.assertEqual(completed.stdout, "")

    def test_unreadable_inputs_are_refused(self) -> None:
        good = self.save_fixture_result("good.json")
        not_json = self.folder / "not.json"
        not_json.write_text("{", encoding="utf-8")
        cases = [
            (self.folder / "missing.json", "file_missing"),
            (not_json, "json_syntax"),
            (self.write_json("other.json", {"hello": 1}), "unknown_artifact"),
        ]
        for path, code in cases:
            with self.subTest(code=code):
                self.assert_one_line_refusal(run_lab("diff", str(good), str(path)), code)


class ExportTest(ReembedTestCase):
    def source_texts(self) -> dict[str, str]:
        """Each fixture source's normalized text, read from the pinned file itself."""
        texts = {}
        for name in ("aster-copy-v1", "aster-copy-v2"):
            raw = (ROOT / "docs" / f"{name}.md").read_bytes()
            texts[name] = normalize_newlines(raw.decode("utf-8"))
        return texts

    def test_no_records_to_a_terminal_unless_asked(self) -> None:
        # Without --output, records go to stdout when it is a pipe or a file; to a terminal they are refused on one
        # line (exit 2), as gzip refuses, unless --output - asks for them.
        path = self.save_fixture_result("result.json")
        piped = run_lab("export", str(path), "--policy", "paragraph")
        self.assertEqual(piped.returncode, 0, piped.stderr)
        self.assertEqual(len(piped.stdout.splitlines()), 8)
        with mock.patch("commands.export.stdout_is_terminal", return_value=True):
            completed = run_lab("export", str(path), "--policy", "paragraph")
        self.assertEqual((completed.returncode, completed.stdout), (2, ""))
        self.assertTrue(completed.stderr.startswith("error: export_to_terminal: export: "), completed.stderr)
        self.assertEqual(len(completed.stderr.splitlines()), 1)
        with mock.patch("commands.export.stdout_is_terminal", return_value=True):
            asked = run_lab("export", str(path), "--policy", "paragraph", "--output", "-")
        self.assertEqual(asked.returncode, 0, asked.stderr)

    def test_every_line_is_one_upsert_record_of_the_index(self) -> None:
        path = self.save_fixture_result("result.json")
        texts = self.source_texts()
        for name in chunk_index.DEFAULT_POLICY_NAMES:
            index = fixture_result()["indexes"][name]
            with self.subTest(policy=name):
                completed = run_lab("export", str(path), "--policy", name, "--output", "-")
                self.assertEqual(completed.returncode, 0, completed.stderr)
                records = [json.loads(line) for line in completed.stdout.split("\n")[:-1]]
                self.assertTrue(completed.stdout.endswith("\n"))
                self.assertEqual([record["id"] for record in records], chunk_ids(index["chunks"]))
                for record, chunk in zip(records, index["chunks"]):
                    metadata = record["metadata"]
                    self.assertEqual(list(record), ["id", "text", "metadata"])
                    config_keys = (
                        ["strategy", "markdown"] if name == "paragraph" else ["strategy", "max_chars", "markdown"]
                    )
                    self.assertEqual(
                        list(metadata),
                        [key for key in chunk if key not in NOT_IN_METADATA] + ["index_id", *config_keys],
                    )
                    self.assertEqual(metadata["strategy"], name)
                    self.assertEqual(metadata["markdown"], "lesson")
                    self.assertEqual(metadata.get("max_chars"), {"fixed-char": 80, "heading-aware": 220}.get(name))
                    self.assertEqual((metadata["start"], metadata["end"]), (chunk["start"], chunk["end"]))
                    self.assertEqual(record["text"], texts[metadata["source_id"]][metadata["start"] : metadata["end"]])
                    self.assertEqual(metadata["text_sha256"], chunk_index.sha(record["text"]))
                    self.assertEqual(metadata["index_id"], index["index_id"])

    def test_file_output_matches_stdout(self) -> None:
        path = self.save_fixture_result("result.json")
        output = self.folder / "chunks.jsonl"
        written = run_lab("export", str(path), "--policy", "heading-aware", "--output", str(output))
        self.assertEqual(written.returncode, 0, written.stderr)
        printed = run_lab("export", str(path), "--policy", "heading-aware")
        self.assertEqual(output.read_text(encoding="utf-8"), printed.stdout)
        self.assertEqual(len(printed.stdout.splitlines()), 7)

    def test_with_its_manifest_a_current_result_is_compared_with_the_manifest_build(self) -> None:
        path = self.folder / "result.json"
        path.write_bytes(saved_json_bytes(fixture_result()))
        plain = run_lab("export", str(path), "--policy", "heading-aware")
        self.assertEqual(plain.returncode, 0, plain.stderr)

        def exported_with(manifest: Path):
            """The export of ``path`` with ``--manifest manifest``: the same records as without, whatever it is."""
            completed = run_lab("export", str(path), "--policy", "heading-aware", "--manifest", str(manifest))
            self.assertEqual(completed.returncode, 0, completed.stderr)
            self.assertEqual(completed.stdout, plain.stdout)
            return completed

        # The file is the manifest's build byte for byte: it is not rebuilt from its own documents.
        with mock.patch.object(validate, "identical_rebuild", side_effect=AssertionError("rebuilt from the file")):
            compared = exported_with(MANIFEST)
        # Another manifest's documents: the file is rebuilt from its own, as without --manifest.
        other = self.folder / "other"
        other.mkdir()
        other_manifest = self.edit_copied_source(other, ORIGINAL_PHRASE, EDITED_PHRASE)
        with mock.patch.object(validate, "file_opens_with", side_effect=AssertionError("compared with its build")):
            elsewhere = exported_with(other_manifest)
        # Exported as saved, but the line says the file is not of the sources that manifest pins now.
        self.assertIn(
            f"; note: {path} is not a build of {other_manifest}'s sources as pinned now "
            "(validate FILE --manifest M names what differs)",
            elsewhere.stderr,
        )
        self.assertNotIn("note:", compared.stderr)
        self.assertNotIn("note:", plain.stderr)
        # A manifest that cannot be read (mistyped, or a page edited and not re-pinned) says so too.
        missing = self.folder / "no-such-manifest.json"
        self.assertIn(
            f"; note: {missing} was not read (file_missing: validate FILE --manifest M says why), so {path} was "
            "checked on its own documents",
            exported_with(missing).stderr,
        )

    def test_single_index_file_exports(self) -> None:
        index = fixture_result()["indexes"]["paragraph"]
        path = self.write_json("paragraph.json", index)
        data = reembed.export_lines(reembed.exported_index(path, "paragraph"))
        self.assertEqual(len(data.decode("utf-8").splitlines()), len(index["chunks"]))

    def test_refusals_leave_outputs_untouched(self) -> None:
        path = self.save_fixture_result("result.json")
        before = path.read_bytes()
        existing = self.folder / "existing.jsonl"
        existing.write_text("keep me\n", encoding="utf-8")
        tampered = fixture_result()
        tampered["indexes"]["fixed-char"]["chunks"][2]["end"] -= 1
        tampered["indexes"]["fixed-char"]["chunks"][2]["text"] = tampered["indexes"]["fixed-char"]["chunks"][2]["text"][
            :-1
        ]
        reforge_index(tampered["indexes"]["fixed-char"])
        tampered_path = self.write_json("tampered.json", tampered)
        single_path = self.write_json("paragraph.json", fixture_result()["indexes"]["paragraph"])
        cases = [
            (("export", str(path), "--policy", "paragraph", "--output", str(path)), "output_is_input", 2),
            (("export", str(tampered_path), "--policy", "fixed-char", "--output", str(existing)), "index_mismatch", 1),
            (
                (
                    "export",
                    str(tampered_path),
                    "--policy",
                    "fixed-char",
                    "--manifest",
                    str(MANIFEST),
                    "--output",
                    str(existing),
                ),
                "index_mismatch",
                1,
            ),
            (
                ("export", str(single_path), "--policy", "fixed-char", "--output", str(existing)),
                "policy_not_in_file",
                1,
            ),
        ]
        for args, code, exit_code in cases:
            with self.subTest(code=code):
                self.assert_one_line_refusal(run_lab(*args), code, exit_code)
        self.assertEqual(path.read_bytes(), before)
        self.assertEqual(existing.read_text(encoding="utf-8"), "keep me\n")
        self.assertEqual(
            sorted(entry.name for entry in self.folder.iterdir()),
            ["existing.jsonl", "paragraph.json", "result.json", "tampered.json"],
        )


class ExportLineBreaksTest(unittest.TestCase):
    def test_unicode_line_separators_stay_inside_one_record(self):
        text = "# T\n\nfirst\u2028second\u2029third\x85fourth\n"
        source = {
            "source_id": "s",
            "path": "s.md",
            "title": "s",
            "sha256": "0" * 64,
            "version": "1.0",
            "url": "local:s.md",
            "fact_status": "test",
            "text": text,
        }
        index = chunk_index.build_index(chunk_index.policy_config("paragraph"), [source])
        exported = reembed.export_lines(index).decode("utf-8")
        self.assertEqual(len(exported.splitlines()), 1)
        self.assertEqual(json.loads(exported)["text"], "first\u2028second\u2029third\x85fourth\n")


class ExportColumnsTest(unittest.TestCase):
    """Records laid out a column at a time: the bytes ``json_line`` writes record by record."""

    def chunk(self, order: int, text: str, title: object = "Setup") -> dict:
        return {
            "chunk_id": f"c{order}",
            "source_id": "guide\u202e",
            "version": "1.0",
            "document_revision": "r",
            "section_id": "s",
            "section_title": title,
            "order": order,
            "start": order * 10,
            "end": order * 10 + len(text),
            "start_line": 1,
            "end_line": 2,
            "text": text,
            "text_sha256": "h",
        }

    def test_one_record_by_hand(self):
        pieces = list(reembed.upsert_line_pieces([self.chunk(0, 'a "b"\n\x7f')], "i", {"strategy": "paragraph"}))
        expected = (
            '{"id":"c0","text":"a \\"b\\"\\n\\u007f","metadata":{"source_id":"guide\\u202e","version":"1.0",'
            '"document_revision":"r","section_title":"Setup","order":0,"start":0,"end":7,"start_line":1,'
            '"end_line":2,"text_sha256":"h","index_id":"i","strategy":"paragraph"}}\n'
        )
        self.assertEqual(pieces, [expected.encode("utf-8")])

    def test_same_bytes_as_record_by_record(self):
        texts = ["plain", "caf\u00e9 \u00a0 \U0001f600", "x\u2028y\x85z\u200b", "tab\there", "del\x7f"]
        # 2,100 records: two whole pieces of 1,024 lines (LINES_PER_PIECE) and a short third one.
        cases = {
            "strings": [self.chunk(order, texts[order % len(texts)]) for order in range(2100)],
            # A title of another type in one record: that piece is laid out record by record.
            "mixed types": [self.chunk(order, "t", None if order == 1500 else "Setup") for order in range(2100)],
        }
        config_fields = {"strategy": "heading-aware", "max_chars": 800, "markdown": "blocks-3"}
        for name, chunks in cases.items():
            with self.subTest(name):
                records = [reembed.upsert_record(chunk, "i\u2029", config_fields) for chunk in chunks]
                expected = "".join(map(reembed.json_line, records)).encode("utf-8")
                pieces = list(reembed.upsert_line_pieces(chunks, "i\u2029", config_fields))
                self.assertEqual(b"".join(pieces), expected)
                self.assertEqual(len(pieces), 3)
                # The texts' JSON as a build made it, reused piece by piece.
                texts_json = [json.dumps(chunk["text"], ensure_ascii=False) for chunk in chunks]
                reused = reembed.upsert_line_pieces(chunks, "i\u2029", config_fields, texts_json)
                self.assertEqual(b"".join(reused), expected)


if __name__ == "__main__":
    unittest.main()


class ValidateExportTest(ReembedTestCase):
    """``validate EXPORT.jsonl --manifest M``: the upsert file compared with export's output of the manifest's build."""

    def exported(self, *options: str) -> tuple[Path, Path]:
        """The fixture's inputs copied, built and exported with ``options``: the manifest and the export."""
        manifest = self.copy_inputs()
        result = self.folder / "result.json"
        self.assertEqual(run_lab("--manifest", str(manifest), "--output", str(result)).returncode, 0)
        export = self.folder / "records.jsonl"
        completed = run_lab("export", str(result), *options, "--output", str(export))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return manifest, export

    def test_an_export_as_written_is_re_derived(self) -> None:
        for options in (("--policy", "paragraph"), ("--policy", "fixed-char", "--carry-caveats")):
            with self.subTest(options=options):
                manifest, export = self.exported(*options)
                completed = run_lab("validate", str(export), "--manifest", str(manifest))
                self.assertEqual((completed.returncode, completed.stderr), (0, ""))
                policy = options[1]
                count = len(fixture_result()["indexes"][policy]["chunks"])
                self.assertTrue(
                    completed.stdout.startswith(f"ok: {export}: export re-derived exactly: {count} {policy} records"),
                    completed.stdout,
                )

    def test_a_record_changed_with_its_hashes_recomputed_is_refused_at_its_line(self) -> None:
        manifest, export = self.exported("--policy", "paragraph")
        lines = export.read_text(encoding="utf-8").splitlines()
        record = json.loads(lines[1])
        record["text"] = record["text"].replace("a", "A", 1)
        record["metadata"]["text_sha256"] = chunk_index.sha(record["text"])
        lines[1] = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        export.write_text("\n".join(lines) + "\n", encoding="utf-8")
        completed = run_lab("validate", str(export), "--manifest", str(manifest))
        self.assertEqual((completed.returncode, completed.stdout), (1, ""))
        self.assertTrue(completed.stderr.startswith(f"error: export_differs: {export}:2: text is "), completed.stderr)
        self.assertEqual(len(completed.stderr.splitlines()), 1)

    def test_an_export_cut_short_or_without_its_manifest_is_refused(self) -> None:
        manifest, export = self.exported("--policy", "paragraph")
        lines = export.read_text(encoding="utf-8").splitlines(keepends=True)
        export.write_text("".join(lines[:3]), encoding="utf-8")
        completed = run_lab("validate", str(export), "--manifest", str(manifest))
        count = len(fixture_result()["indexes"]["paragraph"]["chunks"])
        self.assertEqual(
            completed.stderr,
            f"error: export_differs: {export}:4: the file ends after 3 records; the build of {manifest} exports "
            f"{count}\n",
        )
        completed = run_lab("validate", str(export))
        self.assertEqual(completed.returncode, 2)
        self.assertTrue(completed.stderr.startswith(f"error: export_needs_manifest: {export}: "), completed.stderr)

    def test_an_export_written_back_by_another_tool_is_told_as_one(self) -> None:
        # json.dumps's defaults (spaces after the separators): the same records, other bytes, refused as an export.
        manifest, export = self.exported("--policy", "paragraph")
        lines = [json.dumps(json.loads(line)) for line in export.read_text(encoding="utf-8").splitlines()]
        export.write_text("\n".join(lines) + "\n", encoding="utf-8")
        completed = run_lab("validate", str(export), "--manifest", str(manifest))
        self.assertTrue(completed.stderr.startswith(f"error: export_differs: {export}:1: "), completed.stderr)
        self.assertIn("laid out otherwise", completed.stderr)

    def test_an_export_on_stdin_is_re_derived_and_one_with_its_caveats_says_how_many(self) -> None:
        manifest, export = self.exported("--policy", "fixed-char", "--carry-caveats")
        completed = run_lab("validate", "-", "--manifest", str(manifest), stdin=export.read_text(encoding="utf-8"))
        self.assertEqual((completed.returncode, completed.stderr), (0, ""))
        self.assertIn(", carrying 1 caveat, as export writes the build of", completed.stdout)


class MovedPairsTest(unittest.TestCase):
    """A pair an edit only shifted is told from a new one by what its spans hold and the distance between them."""

    def test_a_shifted_pair_is_moved_and_the_others_added_or_removed(self) -> None:
        def pair(source_id: str, instruction: list[int], qualifier: list[int]) -> dict:
            return {"source_id": source_id, "instruction_span": instruction, "qualifier_span": qualifier}

        # "Call get_a() to read a. It never writes a." [0, 23) [24, 43); 13 characters added before it, the rest
        # the same; "Call get_b() …" stands where "get_a" stood in another result: the same shape, other texts.
        old_text = "Call get_a() to read a. It never writes a.\nCall get_b() to read b. It never writes b.\n"
        new_text = "Intro added. " + old_text
        removed = [pair("a", [0, 23], [24, 43]), pair("a", [43, 66], [67, 86])]
        added = [pair("a", [13, 36], [37, 56])]
        moved, new, gone = reembed.moved_pairs(added, removed, {"a": old_text}, {"a": new_text})
        self.assertEqual(moved, [(removed[0], added[0])])
        self.assertEqual((new, gone), ([], [removed[1]]))
        # A pair replaced by another of the same shape on an unchanged page is not moved.
        replaced = [pair("a", [43, 66], [67, 86])]
        moved, new, gone = reembed.moved_pairs(replaced, removed[:1], {"a": old_text}, {"a": old_text})
        self.assertEqual((moved, new, gone), ([], replaced, removed[:1]))
