"""A file of the lab's own given where another kind goes is named for what it is.

docs/strict-input.md: a reader's refusal of a manifest, an export, a decisions file or a command's ``--json``
report given as chunks, a run, pairs to import or hand labels says which of the lab's files it is. The files
are written by hand here, in the shapes the documents give each kind.
"""

from __future__ import annotations

from unittest import mock

from tests.support import LabTestCase, run_lab

# The first lines the lab tells each kind by.
OTHER_MANIFEST = '{\n  "sources": [],\n  "span_checks": []\n}\n'
EXPORT = '{"id": "c1", "text": "Call it.", "metadata": {"source_id": "nowhere"}}\n'
SCAN_REPORT = '{\n  "scan_version": 1,\n  "pairs": []\n}\n'


class LabFileGivenInTheWrongPlace(LabTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.manifest = self.copy_inputs()
        for name, text in (("other.json", OTHER_MANIFEST), ("chunks.jsonl", EXPORT), ("pairs.json", SCAN_REPORT)):
            (self.folder / name).write_text(text, encoding="utf-8")

    def refused(self, *args: str):
        completed = run_lab(*args, "--manifest", str(self.manifest), cwd=self.folder)
        self.assertEqual(completed.returncode, 1, completed.stderr)
        self.assertEqual(len(completed.stderr.splitlines()), 1, completed.stderr)
        self.assertTrue(completed.stderr.startswith("error: "), completed.stderr)
        return completed.stderr

    def test_each_reader_names_the_lab_file_it_was_given(self) -> None:
        cases = [
            (("judge", "other.json"), "this file is a manifest (", "not chunks"),
            (("retrieve", "--run", "chunks.jsonl"), "this file is an export the lab wrote (", "not a run"),
            (("scan", "--import", "pairs.json"), "this file is a command's --json report (", "not pairs to import"),
            (("scan", "--evaluate", "other.json"), "this file is a manifest (", "not hand labels"),
        ]
        for args, kind, wanted in cases:
            with self.subTest(args=args):
                stderr = self.refused(*args)
                self.assertIn(f"; {kind}", stderr)
                self.assertTrue(stderr.rstrip("\n").endswith(wanted), stderr)

    def test_a_file_of_the_kind_the_reader_takes_is_refused_for_its_own_fault_alone(self) -> None:
        # An export is chunks: judge refuses its unknown source, not its kind.
        stderr = self.refused("judge", "chunks.jsonl")
        self.assertTrue(stderr.startswith("error: chunk_source_unknown: "), stderr)
        self.assertNotIn("this file is", stderr)


# A saved result as the documents give its head: the spec's mode, then its indexes (docs/SPEC.md).
SAVED_RESULT = '{\n  "execution_mode": "offline-synthetic-source-processing",\n  "indexes": {}\n}\n'


class LabFileOverTheReadersBound(LabTestCase):
    """A docs set's saved result is larger than a chunk file's, a pairs file's or a manifest's bound: the bound's
    refusal still names the file for what it is (docs/strict-input.md, docs/judge.md). The bounds are made small
    here so that files of a few lines pass them."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = self.copy_inputs()
        for name, text in (("result.json", SAVED_RESULT), ("chunks.jsonl", EXPORT)):
            (self.folder / name).write_text(text, encoding="utf-8")

    def refusal(self, *args: str) -> str:
        completed = run_lab(*args, cwd=self.folder)
        self.assertEqual(completed.returncode, 1, completed.stderr)
        self.assertEqual(len(completed.stderr.splitlines()), 1, completed.stderr)
        return completed.stderr.rstrip("\n")

    def test_a_result_over_the_line_bound_of_chunks_is_named_a_result(self) -> None:
        import judge.chunk_files

        manifest = str(self.manifest)
        # The result's 4 lines are over a bound of 3.
        with mock.patch.object(judge.chunk_files, "MAX_CHUNK_LINES", 3):
            for args in (
                ("judge", "result.json"),
                ("retrieve", "--chunks", "result.json"),
                ("show", "--chunks", "result.json"),
            ):
                with self.subTest(args=args):
                    stderr = self.refusal(*args, "--manifest", manifest)
                    self.assertTrue(
                        stderr.startswith("error: too_many_chunks: result.json: 4 lines; at most 3; "), stderr
                    )
                    self.assertTrue(
                        stderr.endswith("this file is a saved result or index (the main job writes it), not chunks"),
                        stderr,
                    )

    def test_an_export_within_the_line_bound_is_still_refused_for_its_own_fault_alone(self) -> None:
        import judge.chunk_files

        with mock.patch.object(judge.chunk_files, "MAX_CHUNK_LINES", 0):
            stderr = self.refusal("judge", "chunks.jsonl", "--manifest", str(self.manifest))
        # An export is chunks: over the bound it is refused for its size, and not named as the wrong kind.
        self.assertTrue(stderr.startswith("error: too_many_chunks: chunks.jsonl: "), stderr)
        self.assertNotIn("this file is", stderr)

    def test_a_result_over_the_byte_bound_of_a_run_is_named_a_result(self) -> None:
        import judge

        with mock.patch.object(judge, "MAX_CHUNKS_BYTES", 16):
            stderr = self.refusal("retrieve", "--run", "result.json", "--manifest", str(self.manifest))
        self.assertTrue(
            stderr.startswith("error: file_too_large: result.json: larger than the 16-byte bound; "), stderr
        )
        self.assertTrue(
            stderr.endswith("this file is a saved result or index (the main job writes it), not a run"), stderr
        )

    def test_an_export_or_result_over_the_bound_of_pairs_to_import_is_named(self) -> None:
        import load_documents

        # The bound is 64 times a lesson source's: 64 bytes here, under each file's length.
        with mock.patch.object(load_documents, "MAX_SOURCE_BYTES", 1):
            for name, kind in (
                ("chunks.jsonl", "an export the lab wrote ("),
                ("result.json", "a saved result or index ("),
            ):
                with self.subTest(name=name):
                    stderr = self.refusal("scan", "--import", name, "--manifest", str(self.manifest))
                    self.assertTrue(
                        stderr.startswith(f"error: file_too_large: {name}: larger than the 64-byte bound; "), stderr
                    )
                    self.assertIn(f"; this file is {kind}", stderr)
                    self.assertTrue(stderr.endswith("not pairs to import"), stderr)

    def test_a_result_over_a_manifests_bound_is_refused_as_not_a_manifest(self) -> None:
        import load_documents

        smaller = load_documents.DOCS_SET_BOUNDS._replace(manifest_bytes=32)
        with mock.patch.object(load_documents, "DOCS_SET_BOUNDS", smaller):
            result = self.refusal("--manifest", "result.json", "--output", "out.json")
            export = self.refusal("judge", "chunks.jsonl", "--manifest", "chunks.jsonl")
        self.assertTrue(
            result.startswith("error: not_a_manifest: result.json: is a saved result or index, not a manifest; "),
            result,
        )
        self.assertTrue(
            export.startswith("error: file_too_large: chunks.jsonl: larger than the 32-byte bound; "), export
        )
        self.assertTrue(
            export.endswith(
                "; this file is an export the lab wrote (JSON Lines of chunk records; judge and retrieve --chunks read it), not a manifest"
            ),
            export,
        )
        self.assertFalse((self.folder / "out.json").exists())
