"""The hints a command prints after a run from the user's own manifest: each one typed as printed."""

from __future__ import annotations

import json
from unittest import mock

from commands import show
from tests.support import LabTestCase, run_lab

# Written for this test: a page of one heading and two paragraphs.
PAGE = "# Widgets\n\nCall open_widget(name) first.\n\nIt refuses a name already open.\n"


class NoSpanChecksHintTests(LabTestCase):
    """show's overview and judge name the scan of the manifest they read when it declares no span check."""

    def manifest_without_checks(self) -> None:
        manifest = self.copy_inputs()
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"] = []
        (self.folder / "m.json").write_text(json.dumps(value), encoding="utf-8")
        manifest.unlink()

    def test_show_overview_names_the_scan_of_its_manifest(self) -> None:
        self.manifest_without_checks()
        # Two sources over a bound of one: the docs set's overview.
        with mock.patch.object(show, "OVERVIEW_SOURCES", 1):
            completed = run_lab("show", "--manifest", "m.json", cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn(
            "no span checks declared: 'run.py scan --manifest m.json --add-checks' declares", completed.stdout
        )
        self.assertNotIn("--manifest M ", completed.stdout)

    def test_judge_names_the_scan_of_its_manifest(self) -> None:
        self.manifest_without_checks()
        chunks = self.folder / "chunks.jsonl"
        chunks.write_text(json.dumps({"source_id": "aster-copy-v1", "text": "Call save_copy"}) + "\n", encoding="utf-8")
        completed = run_lab("judge", "chunks.jsonl", "--manifest", "m.json", cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn(
            "no span checks declared: 'run.py scan --manifest m.json --add-checks' declares", completed.stdout
        )
        self.assertNotIn("--manifest M ", completed.stdout)
