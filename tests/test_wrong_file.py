"""A file of the lab's own given where another kind goes is named for what it is.

docs/strict-input.md: a reader's refusal of a manifest, an export, a decisions file or a command's ``--json``
report given as chunks, a run, pairs to import or hand labels says which of the lab's files it is. The files
are written by hand here, in the shapes the documents give each kind.
"""

from __future__ import annotations

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
