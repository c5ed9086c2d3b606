"""The hints a command prints after a run from the user's own manifest: each one typed as printed."""

from __future__ import annotations

import json
import shlex
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
        self.assertIn("no span checks declared: run.py scan --manifest m.json --add-checks declares", completed.stdout)
        self.assertNotIn("--manifest M ", completed.stdout)

    def test_judge_names_the_scan_of_its_manifest(self) -> None:
        self.manifest_without_checks()
        chunks = self.folder / "chunks.jsonl"
        chunks.write_text(json.dumps({"source_id": "aster-copy-v1", "text": "Call save_copy"}) + "\n", encoding="utf-8")
        completed = run_lab("judge", "chunks.jsonl", "--manifest", "m.json", cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("no span checks declared: run.py scan --manifest m.json --add-checks declares", completed.stdout)
        self.assertNotIn("--manifest M ", completed.stdout)


class QuotedManifestHintTests(LabTestCase):
    """A manifest quoted for a shell stands in the hint without quotes of the hint's own around it."""

    def test_the_no_span_checks_line_pastes_as_the_scan_of_that_manifest(self) -> None:
        manifest = self.copy_inputs(self.folder / "my docs")
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"] = []
        (self.folder / "my docs" / "m 1.json").write_text(json.dumps(value), encoding="utf-8")
        completed = run_lab("--manifest", "my docs/m 1.json", "--output", "r.json", cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        line = next(line for line in completed.stdout.splitlines() if line.startswith("no span checks declared: "))
        command = line.removeprefix("no span checks declared: ").split(" declares ")[0]
        # Pasted into a shell, the printed words are the scan's own arguments, the manifest's path one of them.
        self.assertEqual(shlex.split(command), ["run.py", "scan", "--manifest", "my docs/m 1.json", "--add-checks"])
