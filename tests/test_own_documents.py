"""The lab on the user's own documents: pinning, many span checks, the size sweep, current results.

Expected values come from the spec's rules and from offsets found in the
texts themselves (``str.index``), never from reading the lab's output back.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import random
import shutil
from pathlib import Path

import chunk_index
import source_pins
from checks import size_sweep, span_checks
from lab_io.errors import IngestionError
from load_documents import Manifest, load_manifest
from results import validate
from tests.support import ROOT, LabTestCase, run_lab

WIDGET = "# Widget API\n\n## Open\n\nCall open_widget(name).\n\nThis call refuses a name that is already open.\n\n## Close\n\nCall close_widget(name) when done.\n"
GADGET = "# Gadget API\n\n## Start\n\nRun start_gadget() once.\n"
REFERENCE_INSTRUCTION = "Call save_copy(path, text)"
REFERENCE_QUALIFIER = "This operation refuses an existing path."


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def chunk_ids(result: dict, source_id: str) -> set[str]:
    """Every chunk id of ``source_id`` across the result's three indexes."""
    return {
        chunk["chunk_id"]
        for index in result["indexes"].values()
        for chunk in index["chunks"]
        if chunk["source_id"] == source_id
    }


def quote_check(name: str, source_id: str, instruction: str, qualifier: str) -> dict:
    """A span check that gives both quotes alone, to be located in the source."""
    return {
        "name": name,
        "source_id": source_id,
        "instruction": {"quote": instruction},
        "qualifier": {"quote": qualifier},
    }


class OwnDocumentsTestCase(LabTestCase):
    """Helpers to write sources and manifests into the test's folder."""

    def write_source(self, relative: str, text: str) -> Path:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        return path

    def lab(self, *args: str):
        """Run the lab from the test's folder, so PATH arguments are typed as a user would."""
        return run_lab(*args, cwd=self.folder)

    def read_json(self, name: str) -> dict:
        return json.loads((self.folder / name).read_text(encoding="utf-8"))


class PinNewSourceTests(OwnDocumentsTestCase):
    """pin starts a manifest, appends sources with honest defaults, and a build uses them."""

    def test_pin_starts_a_manifest_with_defaults_and_stable_format(self) -> None:
        source = self.write_source("docs/widget.md", WIDGET)
        completed = self.lab("pin", "docs/widget.md", "--manifest", "manifest.json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        manifest_bytes = (self.folder / "manifest.json").read_bytes()
        value = json.loads(manifest_bytes)
        expected_entry = {
            "source_id": "docs/widget",
            "path": "docs/widget.md",
            "title": "docs/widget",
            "sha256": file_sha256(source),
            "version": "1.0",
            "url": "local:docs/widget.md",
            "fact_status": source_pins.DEFAULT_FACT_STATUS,
        }
        self.assertEqual(value, {"sources": [expected_entry], "span_checks": []})
        self.assertEqual(list(value["sources"][0]), list(expected_entry))
        self.assertEqual(manifest_bytes, (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        self.assertIn(file_sha256(source), completed.stdout)

    def test_flags_set_metadata_and_existing_entries_keep_their_order(self) -> None:
        manifest = self.copy_inputs()
        before = json.loads(manifest.read_text(encoding="utf-8"))
        self.write_source("docs/gadget.md", GADGET)
        completed = self.lab(
            "pin",
            "docs/gadget.md",
            "--manifest",
            "manifest.json",
            "--source-id",
            "gadget-api",
            "--version",
            "3.2",
            "--title",
            "Gadget",
            "--url",
            "https://example.invalid/gadget",
            "--fact-status",
            "reviewed",
        )
        self.assertEqual(completed.returncode, 0, completed.stderr)
        after = json.loads(manifest.read_text(encoding="utf-8"))
        self.assertEqual(after["sources"][:2], before["sources"])
        self.assertEqual(after["span_checks"], before["span_checks"])
        added = after["sources"][2]
        self.assertEqual(
            (added["source_id"], added["version"], added["title"], added["url"], added["fact_status"]),
            ("gadget-api", "3.2", "Gadget", "https://example.invalid/gadget", "reviewed"),
        )

    def test_pinning_an_unchanged_file_writes_nothing(self) -> None:
        manifest = self.copy_inputs()
        before = manifest.read_bytes()
        os.utime(manifest, (1_000_000, 1_000_000))
        completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("unchanged", completed.stdout)
        self.assertEqual(manifest.read_bytes(), before)
        self.assertEqual(os.stat(manifest).st_mtime, 1_000_000)

    def test_from_an_empty_folder_to_a_sweep(self) -> None:
        self.write_source("docs/widget.md", WIDGET)
        self.write_source("docs/gadget.md", GADGET)
        for name in ("docs/widget.md", "docs/gadget.md"):
            completed = self.lab("pin", name, "--manifest", "manifest.json")
            self.assertEqual(completed.returncode, 0, completed.stderr)
        manifest = self.folder / "manifest.json"
        check = quote_check(
            "open-refuses", "docs/widget", "Call open_widget(name).", "This call refuses a name that is already open."
        )
        self.set_span_checks(manifest, [check])
        first = self.lab("--manifest", "manifest.json", "--output", "first.json")
        self.assertEqual(first.returncode, 0, first.stderr)
        sweep = self.lab("sweep", "--manifest", "manifest.json", "--json")
        self.assertEqual(sweep.returncode, 0, sweep.stderr)
        # The two sentences are the whole section body, so the pair first shares a chunk at their paragraphs' extent.
        instruction_start = WIDGET.index("Call open_widget")
        qualifier_end = WIDGET.index("already open.\n") + len("already open.\n")
        self.assertEqual(
            json.loads(sweep.stdout)["pairs"][0]["smallest_heading_aware_target"], qualifier_end - instruction_start
        )
        self.write_source("docs/widget.md", WIDGET + "\nClosing twice is harmless.\n")
        repin = self.lab("pin", "docs/widget.md", "--manifest", "manifest.json")
        self.assertEqual(repin.returncode, 0, repin.stderr)
        second = self.lab("--manifest", "manifest.json", "--output", "second.json")
        self.assertEqual(second.returncode, 0, second.stderr)
        old, new = self.read_json("first.json"), self.read_json("second.json")
        self.assertFalse(chunk_ids(old, "docs/widget") & chunk_ids(new, "docs/widget"))
        self.assertEqual(chunk_ids(old, "docs/gadget"), chunk_ids(new, "docs/gadget"))
        for policy in chunk_index.DEFAULT_POLICY_NAMES:
            self.assertNotEqual(old["indexes"][policy]["index_id"], new["indexes"][policy]["index_id"])


class RepinTests(OwnDocumentsTestCase):
    """Re-pinning after an edit: new ids, old results stale, stale span checks refused."""

    def test_edit_and_repin_changes_ids_and_makes_the_old_result_stale(self) -> None:
        manifest = self.copy_inputs()
        self.assertEqual(self.lab("--manifest", "manifest.json", "--output", "old.json").returncode, 0)
        source = self.folder / "docs" / "aster-copy-v2.md"
        old_sha256 = file_sha256(source)
        source.write_bytes(source.read_bytes() + b"\nA new closing paragraph.\n")
        new_sha256 = file_sha256(source)
        repin = self.lab("pin", "docs/aster-copy-v2.md", "--manifest", "manifest.json")
        self.assertEqual(repin.returncode, 0, repin.stderr)
        self.assertIn(f"old sha256 {old_sha256}", repin.stdout)
        self.assertIn(f"new sha256 {new_sha256}", repin.stdout)
        self.assertIn("every chunk id", repin.stdout)
        self.assertEqual(json.loads(manifest.read_text(encoding="utf-8"))["sources"][1]["sha256"], new_sha256)
        build = self.lab("--manifest", "manifest.json", "--output", "new.json")
        self.assertEqual(build.returncode, 0, build.stderr)
        old, new = self.read_json("old.json"), self.read_json("new.json")
        self.assertFalse(chunk_ids(old, "aster-copy-v2") & chunk_ids(new, "aster-copy-v2"))
        self.assertEqual(chunk_ids(old, "aster-copy-v1"), chunk_ids(new, "aster-copy-v1"))
        self.assert_validated(self.lab("validate", "old.json"), "old.json", self.folder / "old.json")
        stale = self.lab("validate", "old.json", "--manifest", "manifest.json")
        self.assert_one_line_refusal(stale, "stale_result")
        self.assertIn(f"aster-copy-v2: saved sha256 {old_sha256[:12]}…, manifest pins {new_sha256[:12]}…", stale.stderr)
        self.assertTrue(stale.stderr.rstrip("\n").endswith("; rebuild the result"), stale.stderr)
        self.assertNotIn("aster-copy-v1", stale.stderr)
        validated = self.lab("validate", "new.json", "--manifest", "manifest.json")
        self.assert_validated(validated, "new.json", self.folder / "new.json", manifest="manifest.json")

    def test_repin_that_makes_a_span_check_stale_is_refused(self) -> None:
        manifest = self.copy_inputs()
        before = manifest.read_bytes()
        source = self.folder / "docs" / "aster-copy-v1.md"
        text = source.read_text(encoding="utf-8")
        inserted = "Read this first.\n\n"
        body_start = text.index(REFERENCE_INSTRUCTION)
        source.write_text(text[:body_start] + inserted + text[body_start:], encoding="utf-8")
        completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json")
        self.assert_one_line_refusal(completed, "stale_span_check")
        moved = body_start + len(inserted)
        self.assertIn(f"occurs once, at [{moved}, {moved + len(REFERENCE_INSTRUCTION)})", completed.stderr)
        self.assertEqual(manifest.read_bytes(), before)

    def edit_before_the_reference_pair(self, inserted: str) -> tuple[int, int]:
        """Insert ``inserted`` before the fixture pair's instruction; the pair's old starts, instruction first."""
        source = self.folder / "docs" / "aster-copy-v1.md"
        text = source.read_text(encoding="utf-8")
        starts = text.index(REFERENCE_INSTRUCTION), text.index(REFERENCE_QUALIFIER)
        source.write_text(text[: starts[0]] + inserted + text[starts[0] :], encoding="utf-8")
        return starts

    def test_a_stale_repin_counts_the_stale_spans_and_names_reanchor(self) -> None:
        self.copy_inputs()
        self.edit_before_the_reference_pair("Read this first.\n\n")
        completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json")
        self.assert_one_line_refusal(completed, "stale_span_check")
        self.assertIn(
            "; 2 spans of the files pinned here no longer hold their quotes: span_checks[0] (", completed.stderr
        )
        self.assertIn("pin again with --reanchor", completed.stderr)

    def test_reanchor_moves_each_span_whose_quote_occurs_once(self) -> None:
        manifest = self.copy_inputs()
        inserted = "Read this first.\n\n"
        instruction, qualifier = self.edit_before_the_reference_pair(inserted)
        shift = len(inserted)
        completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json", "--reanchor")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        name = json.loads(manifest.read_text(encoding="utf-8"))["span_checks"][0]["name"]
        for role, start, quote in (
            ("instruction", instruction, REFERENCE_INSTRUCTION),
            ("qualifier", qualifier, REFERENCE_QUALIFIER),
        ):
            self.assertIn(
                f'moved span_checks[0] ("{name}").{role}: [{start}, {start + len(quote)}) '
                f"-> [{start + shift}, {start + shift + len(quote)})",
                completed.stdout.splitlines(),
            )
        check = json.loads(manifest.read_text(encoding="utf-8"))["span_checks"][0]
        self.assertEqual(
            (check["instruction"]["start"], check["qualifier"]["start"]), (instruction + shift, qualifier + shift)
        )
        build = self.lab("--manifest", "manifest.json", "--output", "result.json")
        self.assertEqual(build.returncode, 0, build.stderr)

    def test_drop_stale_removes_a_page_deleted_from_the_folder_with_its_checks(self) -> None:
        self.write_source("docs/a.md", "# A\n\nCall start_a() first.\n\nIt must not run twice.\n")
        self.write_source("docs/b.md", "# B\n\nCall start_b() first.\n\nIt needs a lock.\n")
        self.assertEqual(self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs").returncode, 0)
        manifest = self.folder / "m.json"
        checks = [
            quote_check("a1", "docs/a", "Call start_a() first.", "It must not run twice."),
            quote_check("b1", "docs/b", "Call start_b() first.", "It needs a lock."),
            quote_check("a2", "docs/a", "Call start_a() first.", "It must not run twice."),
        ]
        self.set_span_checks(manifest, checks)
        # A review accepted docs/a's pair (scan names it by its page and the caveat's first line): both checks of it
        # say so when they go, and that no scan can find it again.
        self.assertEqual(self.lab("scan", "--accept", "scan:docs/a:5", "--manifest", "m.json").returncode, 0)
        (self.folder / "docs" / "a.md").unlink()
        before = manifest.read_bytes()
        # Without --drop-stale, or pinning file by file, a deleted page is still refused, with the way out.
        for args in (("docs",), ("--drop-stale", "docs/b.md")):
            with self.subTest(args=args):
                refused = self.lab("pin", "--manifest", "m.json", *args)
                self.assert_one_line_refusal(refused, "source_missing")
                self.assertIn("pin its folder again with --drop-stale", refused.stderr)
                self.assertEqual(manifest.read_bytes(), before)
        dropped = self.lab("pin", "--manifest", "m.json", "--drop-stale", "docs")
        self.assertEqual(dropped.returncode, 0, dropped.stderr)
        accepted = "; a review accepted it: scan names that decision as unmatched, scan --forget-unmatched drops it"
        self.assertEqual(
            dropped.stdout.splitlines()[:3],
            [
                'dropped source "docs/a": "docs/a.md" no longer exists (with its 2 span checks, each named below)',
                'dropped span_checks[0] ("a1"): its source "docs/a" was removed' + accepted,
                'dropped span_checks[2] ("a2"): its source "docs/a" was removed' + accepted,
            ],
        )
        value = self.read_json("m.json")
        self.assertEqual([entry["source_id"] for entry in value["sources"]], ["docs/b"])
        self.assertEqual([check["name"] for check in value["span_checks"]], ["b1"])
        self.assertEqual(self.lab("--manifest", "m.json", "--output", "r.json").returncode, 0)
        # A page with one check says it in the singular.
        self.write_source("docs/c.md", "# C\n\nCall start_c() first.\n\nIt needs a key.\n")
        self.assertEqual(self.lab("pin", "--manifest", "m.json", "docs").returncode, 0)
        self.set_span_checks(
            manifest, [*value["span_checks"], quote_check("c1", "docs/c", "Call start_c() first.", "It needs a key.")]
        )
        (self.folder / "docs" / "c.md").unlink()
        dropped = self.lab("pin", "--manifest", "m.json", "--drop-stale", "docs")
        self.assertEqual(
            dropped.stdout.splitlines()[:2],
            [
                'dropped source "docs/c": "docs/c.md" no longer exists (with its span check, named below)',
                'dropped span_checks[1] ("c1"): its source "docs/c" was removed',
            ],
        )
        # As the dropped lines say: scan names the accepted decision as matching no pair now.
        self.assertIn(
            '"scan:docs/a:5" (accepted); scan --forget-unmatched drops them',
            self.lab("scan", "--manifest", "m.json").stdout,
        )

    def test_a_dropped_check_no_scan_declares_again_is_printed_whole(self) -> None:
        # docs/own-documents.md: a check of the user's own, or one holding a query, is not lost with its quote: its
        # whole entry follows the lines naming the drops, one line of inert JSON; a scan's own check gets none.
        self.write_source("docs/a.md", "# A\n\nCall start_a() first.\n\nIt must not run twice.\n")
        self.write_source("docs/b.md", "# B\n\nCall start_b() first.\n\nIt needs a lock.\n")
        self.assertEqual(self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs").returncode, 0)
        asked = {
            **quote_check("own", "docs/a", "Call start_a() first.", "It must not run twice."),
            "query": "déjà twice\u202e?",
        }
        scanned = quote_check("scan:docs/a:5", "docs/a", "Call start_a() first.", "It must not run twice.")
        queried = {
            **quote_check("scan:docs/b:5", "docs/b", "Call start_b() first.", "It needs a lock."),
            "query": "lock?",
        }
        self.set_span_checks(self.folder / "m.json", [asked, scanned, queried])
        self.write_source("docs/a.md", "# A\n\nCall start_a() first.\n\nIt may run twice.\n")
        (self.folder / "docs" / "b.md").unlink()
        dropped = self.lab("pin", "--manifest", "m.json", "--drop-stale", "docs")
        self.assertEqual(dropped.returncode, 0, dropped.stderr)
        lines = dropped.stdout.splitlines()
        named = [line for line in lines if line.startswith("dropped span_checks[")]
        # The removed page's check first, then the checks whose quote is gone, as every pin names them.
        self.assertEqual(
            [line.split(": its ")[0] for line in named],
            [
                'dropped span_checks[2] ("scan:docs/b:5")',
                'dropped span_checks[0] ("own")',
                'dropped span_checks[1] ("scan:docs/a:5")',
            ],
        )
        entries = [line for line in lines if line.startswith("entry of ")]
        prefixes = [
            'entry of span_checks[2] ("scan:docs/b:5"), which no scan declares again as it was: ',
            'entry of span_checks[0] ("own"), which no scan declares again as it was: ',
        ]
        self.assertEqual([entry[: len(prefix)] for entry, prefix in zip(entries, prefixes)], prefixes)
        self.assertEqual(len(entries), 2, dropped.stdout)
        # Each entry reads back as the check the manifest held; the query's override is an escape, never raw.
        self.assertEqual(
            [json.loads(entry[len(prefix) :]) for entry, prefix in zip(entries, prefixes)], [queried, asked]
        )
        self.assertIn("twice\\u202e?", entries[1])
        self.assertNotIn("\u202e", dropped.stdout)
        # A letter that prints is printed as it is, as the manifest holds it: the entry reads as the user wrote it.
        self.assertIn('"query": "déjà twice', entries[1])
        self.assertNotIn("\\u00e9", entries[1])
        # They follow every line that names a drop.
        self.assertLess(max(lines.index(line) for line in named), lines.index(entries[0]))
        self.assertEqual(self.read_json("m.json")["span_checks"], [])

    def test_every_span_check_moved_is_named(self) -> None:
        # 25 checks moved by one edit: each line is the only record of an edit made to the manifest, so none is
        # cut short as the pinned pages are.
        body = "".join(f"Call f{n}(x) to start.\n\nIt must not run {n} times.\n\n" for n in range(25))
        page = self.write_source("docs/many.md", "# Many\n\n" + body)
        completed = self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs/many.md")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        text = page.read_text(encoding="utf-8")
        checks = []
        for n in range(25):
            instruction, qualifier = f"Call f{n}(x) to start.", f"It must not run {n} times."
            spans = [
                {"start": text.index(quote), "end": text.index(quote) + len(quote), "quote": quote}
                for quote in (instruction, qualifier)
            ]
            checks.append({"name": f"c{n}", "source_id": "docs/many", "instruction": spans[0], "qualifier": spans[1]})
        self.set_span_checks(self.folder / "m.json", checks)
        page.write_text(text.replace("# Many\n\n", "# Many\n\nRead this first.\n\n"), encoding="utf-8")
        moved = self.lab("pin", "--manifest", "m.json", "--reanchor", "docs/many.md")
        self.assertEqual(moved.returncode, 0, moved.stderr)
        lines = moved.stdout.splitlines()
        self.assertEqual(len([line for line in lines if line.startswith("moved span_checks[")]), 50)
        self.assertFalse([line for line in lines if line.startswith("… ")], moved.stdout)

    def test_every_span_check_dropped_is_named_and_overlapping_quotes_count_as_the_check_counts(self) -> None:
        body = "".join(f"Call f{n}(x) to start.\n\nIt must not run {n} times.\n\n" for n in range(25))
        page = self.write_source("docs/many.md", "# Many\n\nSay no.\n\n" + body)
        self.assertEqual(
            self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs/many.md").returncode, 0
        )
        checks = [
            quote_check(f"c{n}", "docs/many", f"Call f{n}(x) to start.", f"It must not run {n} times.")
            for n in range(25)
        ]
        self.set_span_checks(self.folder / "m.json", [quote_check("n", "docs/many", "no no", "Call f0(x)"), *checks])
        text = page.read_text(encoding="utf-8")
        page.write_text(
            text.replace("It must not run", "It may run").replace("Say no.", "No no no no."), encoding="utf-8"
        )
        dropped = self.lab("pin", "--manifest", "m.json", "--drop-stale", "docs/many.md")
        self.assertEqual(dropped.returncode, 0, dropped.stderr)
        lines = [line for line in dropped.stdout.splitlines() if line.startswith("dropped ")]
        self.assertEqual(len(lines), 26, dropped.stdout)
        # "no no" starts at two places of "No no no no." (3 and 6, overlapping): twice, as the manifest's check counts.
        self.assertTrue(lines[0].endswith("which occurs 2 times in the new text"), lines[0])

    def test_a_refusal_after_drop_stale_offers_neither_option_again(self) -> None:
        # A check of another source, not pinned here, holds offsets that hold other text: --drop-stale never reads
        # it, and the refusal says to fix it by hand, not to give --reanchor or --drop-stale.
        manifest = self.copy_inputs()
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"][0]["qualifier"]["start"] += 1
        value["span_checks"][0]["qualifier"]["end"] += 1
        manifest.write_text(json.dumps(value, indent=2), encoding="utf-8")
        self.write_source("docs/other.md", "# Other\n\nText.\n")
        refused = self.lab("pin", "docs/other.md", "--manifest", "manifest.json", "--drop-stale")
        self.assertEqual(refused.returncode, 1, refused.stderr)
        self.assertEqual(len(refused.stderr.splitlines()), 1, refused.stderr)
        self.assertNotIn("--reanchor", refused.stderr)
        self.assertNotIn("--drop-stale", refused.stderr)
        self.assertIn("fix such a check by hand", refused.stderr)

    def test_drop_stale_removes_a_quote_only_check_whose_quote_is_gone(self) -> None:
        manifest = self.copy_inputs()
        self.set_span_checks(
            manifest, [quote_check("reference", "aster-copy-v1", REFERENCE_INSTRUCTION, REFERENCE_QUALIFIER)]
        )
        source = self.folder / "docs" / "aster-copy-v1.md"
        text = source.read_text(encoding="utf-8")
        source.write_text(text.replace(REFERENCE_QUALIFIER, "It is fine."), encoding="utf-8")
        # Without the option the pin is refused, and the refusal offers it.
        refused = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json")
        self.assert_one_line_refusal(refused, "quote_not_found")
        self.assertIn("--drop-stale also removes", refused.stderr)
        # A quote given alone has no offsets to move: --reanchor would not help, so it is not offered.
        self.assertNotIn("--reanchor", refused.stderr)
        completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json", "--drop-stale")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn(
            'dropped span_checks[0] ("reference"): its qualifier quotes ',
            completed.stdout,
        )
        self.assertIn(", which occurs 0 times in the new text", completed.stdout)
        self.assertEqual(json.loads(manifest.read_text(encoding="utf-8"))["span_checks"], [])

    def test_a_malformed_span_source_is_refused_in_one_line_by_every_pin(self) -> None:
        manifest = self.copy_inputs()
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"][0]["qualifier"]["source_id"] = ["x"]
        manifest.write_text(json.dumps(value, indent=2), encoding="utf-8")
        for extra in ((), ("--reanchor",)):
            with self.subTest(extra=extra):
                completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json", *extra)
                self.assertEqual(
                    (completed.returncode, completed.stdout, completed.stderr),
                    (
                        1,
                        "",
                        'error: pair_across_sources: manifest.json: span_checks[0] ("save-copy-refuses-existing-path"): instruction in "aster-copy-v1", '
                        'qualifier in ["x"]: no chunk crosses a source, so the pair could never share one; '
                        "declare both spans in one source; the manifest is unchanged\n",
                    ),
                )
                self.assertEqual(manifest.read_text(encoding="utf-8"), json.dumps(value, indent=2))

    def test_reanchor_leaves_a_quote_that_now_occurs_twice_refused(self) -> None:
        manifest = self.copy_inputs()
        before = manifest.read_bytes()
        # The edit moves both quotes and repeats the instruction, so it has no one new place.
        self.edit_before_the_reference_pair("Note.\n\n" + REFERENCE_INSTRUCTION + ".\n\n")
        completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json", "--reanchor")
        self.assert_one_line_refusal(completed, "stale_span_check")
        self.assertIn("occurs 2 times", completed.stderr)
        self.assertEqual(manifest.read_bytes(), before)
        # --reanchor was given: the way on is --drop-stale or a fix by hand, never --reanchor again.
        self.assertNotIn("pin again with --reanchor", completed.stderr)
        self.assertIn(
            "--drop-stale also removes each check whose quote is gone or occurs more than once", completed.stderr
        )

    def test_drop_stale_removes_a_check_whose_quote_has_no_one_place(self) -> None:
        manifest = self.copy_inputs()
        name = json.loads(manifest.read_text(encoding="utf-8"))["span_checks"][0]["name"]
        self.edit_before_the_reference_pair("Note.\n\n" + REFERENCE_INSTRUCTION + ".\n\n")
        completed = self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json", "--drop-stale")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        dropped = [line for line in completed.stdout.splitlines() if line.startswith("dropped ")]
        self.assertEqual(len(dropped), 1, completed.stdout)
        self.assertTrue(dropped[0].startswith(f'dropped span_checks[0] ("{name}"): its instruction quotes '), dropped)
        self.assertTrue(dropped[0].endswith(", which occurs 2 times in the new text"), dropped)
        # Its qualifier moved to its one new place, but the check is named once, as dropped.
        self.assertFalse([line for line in completed.stdout.splitlines() if line.startswith("moved ")])
        self.assertEqual(json.loads(manifest.read_text(encoding="utf-8"))["span_checks"], [])
        build = self.lab("--manifest", "manifest.json", "--output", "result.json")
        self.assertEqual(build.returncode, 0, build.stderr)

    def pin_a_spool_page_and_cut_it(self, cut: str) -> tuple[Path, bytes, str]:
        """Pin a page with one check below a long paragraph, then replace the page by ``cut`` (shorter than the
        check's offsets); the manifest, its bytes before the re-pin, and the check's name."""
        instruction, qualifier = "Call wind_spool(n).", "It must not wind past 40 turns."
        text = "# Spool\n\n" + "Spools hold paper. " * 10 + "\n\n" + instruction + "\n\n" + qualifier + "\n"
        page = self.write_source("docs/spool.md", text)
        self.assertEqual(
            self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs/spool.md").returncode, 0
        )
        spans = [
            {"start": text.index(quote), "end": text.index(quote) + len(quote), "quote": quote}
            for quote in (instruction, qualifier)
        ]
        manifest = self.folder / "m.json"
        self.set_span_checks(
            manifest, [{"name": "wind", "source_id": "docs/spool", "instruction": spans[0], "qualifier": spans[1]}]
        )
        # Both spans start past the end of the cut page: the offsets no longer lie inside its text.
        self.assertLess(len(cut), spans[0]["start"])
        page.write_text(cut, encoding="utf-8")
        return manifest, manifest.read_bytes(), "wind"

    def test_a_page_cut_shorter_than_a_span_is_refused_with_where_its_quote_went_and_reanchor_offered(self) -> None:
        cut = "# Spool\n\nCall wind_spool(n).\n\nIt must not wind past 40 turns.\n"
        manifest, before, name = self.pin_a_spool_page_and_cut_it(cut)
        refused = self.lab("pin", "--manifest", "m.json", "docs/spool.md")
        self.assert_one_line_refusal(refused, "span_out_of_range")
        self.assertIn(f'span_checks[0] ("{name}").instruction: ', refused.stderr)
        at = cut.index("Call wind_spool(n).")
        self.assertIn(f"its quote occurs once, at [{at}, {at + len('Call wind_spool(n).')})", refused.stderr)
        self.assertIn("pin again with --reanchor", refused.stderr)
        self.assertEqual(manifest.read_bytes(), before)
        moved = self.lab("pin", "--manifest", "m.json", "--reanchor", "docs/spool.md")
        self.assertEqual(moved.returncode, 0, moved.stderr)
        check = json.loads(manifest.read_text(encoding="utf-8"))["span_checks"][0]
        self.assertEqual(check["instruction"]["start"], at)

    def test_a_span_past_the_end_whose_quote_is_gone_is_offered_drop_stale_after_reanchor(self) -> None:
        manifest, before, name = self.pin_a_spool_page_and_cut_it("# Spool\n\nSpools hold paper.\n")
        refused = self.lab("pin", "--manifest", "m.json", "--reanchor", "docs/spool.md")
        self.assert_one_line_refusal(refused, "span_out_of_range")
        self.assertIn("its quote occurs 0 times", refused.stderr)
        self.assertNotIn("pin again with --reanchor", refused.stderr)
        self.assertIn("--drop-stale also removes each check whose quote is gone", refused.stderr)
        self.assertEqual(manifest.read_bytes(), before)
        dropped = self.lab("pin", "--manifest", "m.json", "--drop-stale", "docs/spool.md")
        self.assertEqual(dropped.returncode, 0, dropped.stderr)
        self.assertIn(f'dropped span_checks[0] ("{name}"): its instruction quotes ', dropped.stdout)
        self.assertEqual(json.loads(manifest.read_text(encoding="utf-8"))["span_checks"], [])

    def test_quote_only_checks_follow_an_edit(self) -> None:
        manifest = self.copy_inputs()
        self.set_span_checks(
            manifest, [quote_check("reference", "aster-copy-v1", REFERENCE_INSTRUCTION, REFERENCE_QUALIFIER)]
        )
        source = self.folder / "docs" / "aster-copy-v1.md"
        inserted = "Read this first.\n\n"
        text = source.read_text(encoding="utf-8")
        at = text.index(REFERENCE_INSTRUCTION)
        source.write_text(text[:at] + inserted + text[at:], encoding="utf-8")
        self.assertEqual(self.lab("pin", "docs/aster-copy-v1.md", "--manifest", "manifest.json").returncode, 0)
        check = load_manifest(manifest).span_checks[0]
        self.assertEqual(
            check.instruction.as_list(), [at + len(inserted), at + len(inserted) + len(REFERENCE_INSTRUCTION)]
        )

    def test_two_edited_files_are_pinned_together(self) -> None:
        manifest = self.copy_inputs()
        before = manifest.read_bytes()
        for name in ("aster-copy-v1.md", "aster-copy-v2.md"):
            path = self.folder / "docs" / name
            path.write_bytes(path.read_bytes() + b"\nAppended.\n")
        alone = self.lab("pin", "docs/aster-copy-v2.md", "--manifest", "manifest.json")
        self.assert_one_line_refusal(alone, "hash_mismatch")
        self.assertIn("pin both files in one call", alone.stderr)
        self.assertEqual(manifest.read_bytes(), before)
        together = self.lab("pin", "docs/aster-copy-v1.md", "docs/aster-copy-v2.md", "--manifest", "manifest.json")
        self.assertEqual(together.returncode, 0, together.stderr)
        self.assertEqual(len(load_manifest(manifest).sources), 2)


# A task page that repeats its steps, as Kubernetes' do. Offsets, counted by hand: the note [8, 44); "Create the
# Pod:" [54, 69) and [134, 149); "Do not reuse its name." [102, 124) and [252, 274); "Do not run it as root."
# [182, 204); "Delete your Pod:" [206, 222); "## Two" starts at 126; 275 characters in all.
PODS = (
    "# Pods\n\n"
    "Note: a Pod cannot outlive its node.\n\n"
    "## One\n\n"
    "Create the Pod:\n\n"
    "    kubectl apply -f one.yaml\n\n"
    "Do not reuse its name.\n\n"
    "## Two\n\n"
    "Create the Pod:\n\n"
    "    kubectl apply -f two.yaml\n\n"
    "Do not run it as root.\n\n"
    "Delete your Pod:\n\n"
    "    kubectl delete pod two\n\n"
    "Do not reuse its name.\n"
)
CREATE, REUSE, AS_ROOT, DELETE = (
    "Create the Pod:",
    "Do not reuse its name.",
    "Do not run it as root.",
    "Delete your Pod:",
)
NOTE = "Note: a Pod cannot outlive its node."


def offsets_check(name: str, instruction: tuple[int, str], qualifier: tuple[int, str]) -> dict:
    """A span check of docs/pods with both spans given by start and quote."""
    spans = [{"start": start, "end": start + len(quote), "quote": quote} for start, quote in (instruction, qualifier)]
    return {"name": name, "source_id": "docs/pods", "instruction": spans[0], "qualifier": spans[1]}


POD_CHECKS = {
    "node": offsets_check("node", (54, CREATE), (8, NOTE)),
    "one": offsets_check("one", (54, CREATE), (102, REUSE)),
    "two": offsets_check("two", (134, CREATE), (182, AS_ROOT)),
    "delete": offsets_check("delete", (206, DELETE), (252, REUSE)),
}


class RefusedSpanPlaceTests(LabTestCase):
    """Which span a refusal names is read back from its place, whatever the check's name."""

    def test_a_long_names_shortened_form_is_read_too(self) -> None:
        import source_pins
        from lab_io.errors import quoted_name

        for name in ("cpu", "n" * 300, 'a "quoted" \\ name'):
            with self.subTest(name=name[:10]):
                where = f"m.json: span_checks[5] ({quoted_name(name)}).qualifier"
                self.assertEqual(source_pins.REFUSED_SPAN.search(where).groups(), ("5", "qualifier"))


class ReanchorAmongPlacesTests(OwnDocumentsTestCase):
    """--reanchor and --drop-stale move a span whose quote now occurs at several places only to a clear one.

    The rule (docs/own-documents.md): the place whose start is nearest the old start, when every other is at least
    twice as far, when the check's other span, if it moves too, moves by the same shift, and when the nearest span
    before or after the old start whose move is certain (it holds, or its quote occurs once) moved by that shift.
    """

    def pin_pods(self, names: list[str]) -> Path:
        page = self.write_source("docs/pods.md", PODS)
        self.assertEqual(
            self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs/pods.md").returncode, 0
        )
        self.set_span_checks(self.folder / "m.json", [copy.deepcopy(POD_CHECKS[name]) for name in names])
        return page

    def check_starts(self) -> dict[str, tuple[int, int]]:
        checks = self.read_json("m.json")["span_checks"]
        return {check["name"]: (check["instruction"]["start"], check["qualifier"]["start"]) for check in checks}

    def refused_reanchor(self) -> str:
        """``pin --reanchor`` of the edited page, refused in one line that leaves the manifest as it was."""
        before = (self.folder / "m.json").read_bytes()
        refused = self.lab("pin", "--manifest", "m.json", "--reanchor", "docs/pods.md")
        self.assert_one_line_refusal(refused, "stale_span_check")
        self.assertEqual((self.folder / "m.json").read_bytes(), before)
        return refused.stderr

    def pin_lines(self, option: str) -> list[str]:
        """The moved and dropped lines of ``pin OPTION`` on the edited page, which succeeds."""
        completed = self.lab("pin", "--manifest", "m.json", option, "docs/pods.md")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return [line for line in completed.stdout.splitlines() if line.startswith(("moved ", "dropped "))]

    def test_the_nearest_and_the_next_nearest_of_sorted_places(self) -> None:
        for offsets, old_start, expected in (
            ([10, 101, 400], 100, (101, 10)),
            ([95, 105], 100, (95, 105)),
            ([7], 0, (7, None)),
            ([1, 2, 3, 4, 5, 6, 50], 49, (50, 6)),
            ([1, 2, 3, 4, 5, 6, 50], 0, (1, 2)),
            ([1, 2, 3, 4, 5, 6, 50], 90, (50, 6)),
        ):
            with self.subTest(offsets=offsets, old_start=old_start):
                self.assertEqual(source_pins.nearest_places(offsets, old_start), expected)

    def test_clearly_nearest_means_every_other_place_at_least_twice_as_far(self) -> None:
        for old_start, nearest, runner_up, expected in (
            (100, 101, 10, True),
            (100, 110, 120, True),
            (100, 110, 119, False),
            (100, 95, 105, False),
            (100, 7, None, True),
        ):
            with self.subTest(old_start=old_start, nearest=nearest, runner_up=runner_up):
                self.assertIs(source_pins.clearly_nearest(old_start, nearest, runner_up), expected)

    def test_the_anchors_around_an_old_start_are_the_nearest_on_each_side(self) -> None:
        anchors = source_pins.Anchors([50, 180, 300], {50: {0}, 180: {77}, 300: {3, 77}})
        for old_start, expected in (
            (134, ({0}, {77})),
            (10, (None, {0})),
            (180, ({77}, {77})),
            (200, ({77}, {3, 77})),
            (400, ({3, 77}, None)),
        ):
            with self.subTest(old_start=old_start):
                self.assertEqual(anchors.around(old_start), expected)
        self.assertEqual(source_pins.shift_words({77, 0, -3}), "-3 or 0 or +77")

    def test_one_character_added_above_repeated_steps_moves_each_to_its_nearest_place(self) -> None:
        # "cannot" -> "can not" inside the note: every later start moves by +1, every repeat of a quote alike.
        page = self.pin_pods(["node", "one", "two", "delete"])
        page.write_text(PODS.replace("cannot", "can not"), encoding="utf-8")
        refused = self.refused_reanchor()
        # The check whose quote really changed is refused; the only stale span left is its qualifier.
        self.assertEqual(
            refused.split("; the manifest is unchanged")[0],
            'error: stale_span_check: m.json: span_checks[0] ("node").qualifier: text at [8, 44) is "Note: a Pod can not '
            'outlive its node", the manifest quotes "Note: a Pod cannot outlive its node.", which occurs 0 times',
        )
        among = "the nearest of the 2 places its quote occurs"
        self.assertEqual(
            self.pin_lines("--drop-stale"),
            [
                f'moved span_checks[1] ("one").instruction: [54, 69) -> [55, 70), {among} (next nearest [135, 150))',
                f'moved span_checks[1] ("one").qualifier: [102, 124) -> [103, 125), {among} (next nearest [253, 275))',
                f'moved span_checks[2] ("two").instruction: [134, 149) -> [135, 150), {among} (next nearest [55, 70))',
                'moved span_checks[2] ("two").qualifier: [182, 204) -> [183, 205)',
                'moved span_checks[3] ("delete").instruction: [206, 222) -> [207, 223)',
                f'moved span_checks[3] ("delete").qualifier: [252, 274) -> [253, 275), {among} '
                "(next nearest [103, 125))",
                'dropped span_checks[0] ("node"): its qualifier quotes "Note: a Pod cannot outlive its node.", which '
                "occurs 0 times in the new text",
            ],
        )
        self.assertEqual(self.check_starts(), {"one": (55, 103), "two": (135, 183), "delete": (207, 253)})

    def test_an_edit_between_a_checks_spans_moves_the_later_one_alone(self) -> None:
        # "-f one.yaml" -> "-f pod-one.yaml" at offset 92: +4 from there on; check one's instruction, above, holds,
        # and its qualifier moves as two's qualifier, quoted once, after it does.
        page = self.pin_pods(["one", "two", "delete"])
        page.write_text(PODS.replace("-f one.yaml", "-f pod-one.yaml"), encoding="utf-8")
        among = "the nearest of the 2 places its quote occurs"
        self.assertEqual(
            self.pin_lines("--reanchor"),
            [
                # The edit lies between check one's spans: its instruction holds at 54, its qualifier 48 -> 52 from it.
                f'moved span_checks[0] ("one").qualifier: [102, 124) -> [106, 128), {among} (next nearest [256, 278)); '
                "its two spans are now 4 characters farther apart",
                f'moved span_checks[1] ("two").instruction: [134, 149) -> [138, 153), {among} (next nearest [54, 69))',
                'moved span_checks[1] ("two").qualifier: [182, 204) -> [186, 208)',
                'moved span_checks[2] ("delete").instruction: [206, 222) -> [210, 226)',
                f'moved span_checks[2] ("delete").qualifier: [252, 274) -> [256, 278), {among} '
                "(next nearest [106, 128))",
            ],
        )
        self.assertEqual(self.check_starts(), {"one": (54, 106), "two": (138, 186), "delete": (210, 256)})

    def test_a_step_repeated_just_above_is_not_taken_for_the_one_that_moved(self) -> None:
        # 77 characters inserted at 134, holding a "Create the Pod:" 27 characters in: that copy, at 161, is nearer
        # check two's old instruction start than the instruction itself, now at 211, but its qualifier, quoted once,
        # moved by +77: the two would part, so neither place is taken.
        page = self.pin_pods(["one", "two"])
        step = "First remove the old one.\n\nCreate the Pod:\n\n    kubectl apply -f again.yaml\n\n"
        page.write_text(PODS[:134] + step + PODS[134:], encoding="utf-8")
        refused = self.refused_reanchor()
        self.assertEqual(
            refused.split("; the manifest is unchanged")[0],
            'error: stale_span_check: m.json: span_checks[1] ("two").instruction: text at [134, 149) is "First remove th", '
            'the manifest quotes "Create the Pod:", which occurs 3 times, at [54, 69), [161, 176), [211, 226); '
            "--reanchor took none of its 3 places: the nearest, [161, 176), would move it by +27, its qualifier by "
            "+77, and an edit above both would move them alike",
        )
        self.assertEqual(
            self.pin_lines("--drop-stale"),
            [
                'dropped span_checks[1] ("two"): its instruction quotes "Create the Pod:", which occurs 3 times in the '
                "new text"
            ],
        )
        self.assertEqual(self.check_starts(), {"one": (54, 102)})

    def test_a_copy_inserted_between_a_checks_spans_is_not_taken_when_the_spans_around_disagree(self) -> None:
        # 40 characters inserted at 102, holding a "Do not reuse its name." 16 in: check one's instruction, above,
        # holds, so its qualifier's copy at 118 is not refused by the check itself; but the spans around the old
        # start 102 moved by 0 (one's instruction, at 54) and +40 (two's qualifier, quoted once, at 182), not +16.
        page = self.pin_pods(["one", "two"])
        page.write_text(PODS[:102] + "Mind the name:\n\nDo not reuse its name.\n\n" + PODS[102:], encoding="utf-8")
        refused = self.refused_reanchor()
        self.assertIn(
            "which occurs 3 times, at [118, 140), [142, 164), [292, 314); --reanchor took none of its 3 places: the "
            "nearest, [118, 140), would move it by +16, but the nearest spans before and after it that hold their "
            "quotes or moved to their one place moved by 0 and +40, and an edit moves a span as the text around it; "
            "the manifest is unchanged",
            refused,
        )
        self.assertEqual(
            self.pin_lines("--drop-stale"),
            [
                'moved span_checks[1] ("two").instruction: [134, 149) -> [174, 189), the nearest of the 2 places its '
                "quote occurs (next nearest [54, 69))",
                'moved span_checks[1] ("two").qualifier: [182, 204) -> [222, 244)',
                'dropped span_checks[0] ("one"): its qualifier quotes "Do not reuse its name.", which occurs 3 '
                "times in the new text",
            ],
        )
        self.assertEqual(self.check_starts(), {"two": (174, 222)})

    def test_two_spans_each_with_several_places_that_would_part_move_neither(self) -> None:
        # 24 characters inserted at 54, holding a "Create the Pod:" 7 in: check one's instruction would take that
        # copy (+7), its qualifier "Do not reuse its name." its own place (+24); each is clearly nearest on its own.
        page = self.pin_pods(["one", "two"])
        page.write_text(PODS[:54] + "Then:\n\nCreate the Pod:\n\n" + PODS[54:], encoding="utf-8")
        refused = self.refused_reanchor()
        self.assertIn(
            "; --reanchor took none of its 3 places: the nearest, [61, 76), would move it by +7, its qualifier by "
            "+24, and an edit above both would move them alike; the manifest is unchanged; 2 spans of the files "
            'pinned here no longer hold their quotes: span_checks[0] ("one").instruction, span_checks[0] ("one")'
            ".qualifier (",
            refused,
        )
        # Check two moved by +24, both spans alike: its instruction from the 3 places "Create the Pod:" has now.
        self.assertEqual(
            self.pin_lines("--drop-stale"),
            [
                'moved span_checks[1] ("two").instruction: [134, 149) -> [158, 173), the nearest of the 3 places its '
                "quote occurs (next nearest [78, 93))",
                'moved span_checks[1] ("two").qualifier: [182, 204) -> [206, 228)',
                'dropped span_checks[0] ("one"): its instruction quotes "Create the Pod:", which occurs 3 times in the '
                "new text",
            ],
        )
        self.assertEqual(self.check_starts(), {"two": (158, 206)})

    def test_places_equally_near_the_old_start_are_refused_and_named(self) -> None:
        # 80 characters inserted before "## Two" (126): check two's instruction, at 134, now lies at 214, and the
        # first "Create the Pod:", above the edit, stays at 54: both 80 from 134.
        page = self.pin_pods(["one", "two"])
        wait = "Wait until the old Pod is gone: kubectl get pods must stop listing it by name.\n\n"
        self.assertEqual(len(wait), 80)
        new_text = PODS[:126] + wait + PODS[126:]
        page.write_text(new_text, encoding="utf-8")
        refused = self.refused_reanchor()
        self.assertEqual(
            refused.split("; the manifest is unchanged")[0],
            f'error: stale_span_check: m.json: span_checks[1] ("two").instruction: text at [134, 149) is '
            f'"{new_text[134:149]}", the manifest quotes "Create the Pod:", which occurs 2 times, at [54, 69), '
            "[214, 229); --reanchor took none of its 2 places: the two nearest its old start 134, [54, 69) and "
            "[214, 229), lie 80 and 80 characters from it, so neither is clearly the one it was (the nearer must be "
            "twice as near)",
        )
        self.assertEqual(
            self.pin_lines("--drop-stale"),
            [
                'dropped span_checks[1] ("two"): its instruction quotes "Create the Pod:", which occurs 2 times in the '
                "new text"
            ],
        )
        self.assertEqual(self.check_starts(), {"one": (54, 102)})


class BadPinInputTests(OwnDocumentsTestCase):
    """Every refused pin is one line with a stable code and leaves the manifest untouched."""

    def test_bad_files_are_refused(self) -> None:
        manifest = self.copy_inputs()
        before = manifest.read_bytes()
        (self.folder / "outside.md").write_text("# Outside\n\ntext\n", encoding="utf-8")
        inner = self.folder / "inner"
        inner.mkdir()
        shutil.move(str(manifest), inner / "manifest.json")
        shutil.move(str(self.folder / "docs"), inner / "docs")
        manifest = inner / "manifest.json"
        docs = inner / "docs"
        (docs / "no-heading.md").write_text("text before any heading\n# Late\n", encoding="utf-8")
        (docs / "latin1.md").write_bytes(b"# Caf\xe9\n")
        (docs / "nul.md").write_text("# A\n\x00\n", encoding="utf-8")
        (docs / "blank.md").write_text(" \n\n", encoding="utf-8")
        (docs / "huge.md").write_bytes(b"# Huge\n" + b"x" * 70_000)
        os.symlink("aster-copy-v1.md", docs / "link.md")
        # A folder is pinned file by file now (tests/test_pin_folder.py); a FIFO is still not a file.
        os.mkfifo(docs / "fifo.md")
        cases = [
            ("docs/missing.md", {}, "source_missing"),
            ("../outside.md", {}, "path_outside"),
            (str(self.folder / "outside.md"), {}, "path_outside"),
            ("docs/fifo.md", {}, "source_not_file"),
            ("docs/link.md", {}, "path_link"),
            ("docs/no-heading.md", {}, "heading_required"),
            ("docs/latin1.md", {}, "not_utf8"),
            ("docs/nul.md", {}, "nul_character"),
            ("docs/blank.md", {}, "blank_text"),
            ("docs/huge.md", {}, "source_too_large"),
            ("docs/aster-copy-v1.md", {"version": "v2"}, "bad_version"),
            ("docs/aster-copy-v1.md", {"title": ""}, "empty_field"),
            ("docs/aster-copy-v1.md", {"source_id": "renamed"}, "source_id_mismatch"),
            ("docs/blank.md", {"source_id": "aster-copy-v1"}, "blank_text"),
        ]
        for typed, metadata, code in cases:
            with self.subTest(path=typed, metadata=metadata):
                request = source_pins.PinRequest(os.path.join(inner, typed), **metadata)
                with self.assertRaises(IngestionError) as raised:
                    source_pins.pin_sources(manifest, [request])
                self.assertEqual(raised.exception.code, code)
                self.assertEqual(manifest.read_bytes(), before)

    def test_duplicate_id_of_a_new_file_is_refused(self) -> None:
        manifest = self.copy_inputs()
        self.write_source("docs/other.md", GADGET)
        with self.assertRaises(IngestionError) as raised:
            source_pins.pin_sources(
                manifest, [source_pins.PinRequest(str(self.folder / "docs/other.md"), source_id="aster-copy-v1")]
            )
        self.assertEqual(raised.exception.code, "duplicate_source_id")

    def test_refusals_on_the_command_line_are_one_line(self) -> None:
        manifest = self.copy_inputs()
        (self.folder / "linked.json").symlink_to(manifest)
        before = manifest.read_bytes()
        cases = [
            (("pin", "docs/missing.md", "--manifest", "manifest.json"), "source_missing", 1),
            (("pin", "../x.md", "--manifest", "manifest.json"), "path_outside", 1),
            (("pin", "docs/aster-copy-v1.md", "--manifest", "missing-folder/m.json"), "output_folder_missing", 2),
            (("pin", "docs/aster-copy-v1.md", "--manifest", "linked.json"), "output_is_link", 2),
            (
                (
                    "pin",
                    "docs/aster-copy-v1.md",
                    "docs/aster-copy-v2.md",
                    "--manifest",
                    "manifest.json",
                    "--title",
                    "t",
                ),
                "pin_metadata",
                2,
            ),
            (("pin", "docs/aster-copy-v1.md"), "usage", 2),
        ]
        for args, code, exit_code in cases:
            with self.subTest(args=args):
                self.assert_one_line_refusal(self.lab(*args), code, exit_code)
                self.assertEqual(manifest.read_bytes(), before)


class SpanCheckInputTests(OwnDocumentsTestCase):
    """Span checks given by quote alone, and the ways a span check is refused."""

    def manifest_with(self, check: dict) -> Path:
        manifest = self.copy_inputs()
        self.set_span_checks(manifest, [check])
        return manifest

    def test_a_quote_alone_is_located(self) -> None:
        manifest = self.manifest_with(
            quote_check("reference", "aster-copy-v1", REFERENCE_INSTRUCTION, REFERENCE_QUALIFIER)
        )
        text = (self.folder / "docs" / "aster-copy-v1.md").read_text(encoding="utf-8")
        check = load_manifest(manifest).span_checks[0]
        start = text.index(REFERENCE_QUALIFIER)
        self.assertEqual(check.qualifier.as_list(), [start, start + len(REFERENCE_QUALIFIER)])

    def test_bad_span_checks_are_refused(self) -> None:
        text = (ROOT / "docs" / "aster-copy-v1.md").read_text(encoding="utf-8")
        word = "document"
        count = text.count(word)
        cases = [
            (
                quote_check("c", "aster-copy-v1", "Call nothing()", REFERENCE_QUALIFIER),
                "quote_not_found",
                "occurs 0 times",
            ),
            (
                quote_check("c", "aster-copy-v1", REFERENCE_INSTRUCTION, word),
                "quote_ambiguous",
                f"occurs {count} times",
            ),
            (
                {
                    "name": "c",
                    "source_id": "aster-copy-v1",
                    "instruction": {"quote": REFERENCE_INSTRUCTION},
                    "qualifier": {"start": len(text) - 2, "end": len(text) + 5, "quote": "x"},
                },
                "span_out_of_range",
                f"text of {len(text)} characters",
            ),
            (
                {
                    "name": "c",
                    "source_id": "aster-copy-v1",
                    "instruction": {"quote": REFERENCE_INSTRUCTION},
                    "qualifier": {"source_id": "aster-copy-v2", "quote": "Call list_copies()"},
                },
                "pair_across_sources",
                '"aster-copy-v2"',
            ),
            (
                {
                    "name": "c",
                    "source_id": "aster-copy-v1",
                    "instruction": {"start": 51, "quote": REFERENCE_INSTRUCTION},
                    "qualifier": {"quote": REFERENCE_QUALIFIER},
                },
                "span_fields",
                "quote alone",
            ),
        ]
        for check, code, detail in cases:
            with self.subTest(code=code):
                manifest = self.manifest_with(check)
                before = manifest.read_bytes()
                completed = self.lab("--manifest", "manifest.json", "--output", "result.json")
                self.assert_one_line_refusal(completed, code)
                self.assertIn(detail, completed.stderr)
                self.assertFalse((self.folder / "result.json").exists())
                pinned = self.lab("pin", "docs/aster-copy-v2.md", "--manifest", "manifest.json")
                self.assert_one_line_refusal(pinned, code)
                self.assertEqual(manifest.read_bytes(), before)


class ManyPairsTests(OwnDocumentsTestCase):
    """Several named pairs per policy, none at all, and the single reference pair."""

    def fixture_checks(self) -> tuple[list[dict], dict[str, dict[str, bool]]]:
        """Three pairs in aster-copy-v1 and, derived from offsets and the spec, which policy keeps each."""
        text = (ROOT / "docs" / "aster-copy-v1.md").read_text(encoding="utf-8")
        listing = "Call list_copies()"
        listing_qualifier = "Listing documents does not create or replace a document."
        # fixed-char keeps a pair when one 80-character slice from the body start holds both ends.
        body_start = text.index("## List documents\n") + len("## List documents\n")
        first_slice = (text.index(listing) - body_start) // 80
        last_slice = (text.index(listing_qualifier) + len(listing_qualifier) - 1 - body_start) // 80
        checks = [
            quote_check("reference", "aster-copy-v1", REFERENCE_INSTRUCTION, REFERENCE_QUALIFIER),
            quote_check("one-paragraph", "aster-copy-v1", listing, listing_qualifier),
            quote_check("across-a-heading", "aster-copy-v1", REFERENCE_INSTRUCTION, listing),
        ]
        expected = {
            # The spec's stated verdicts for the reference pair.
            "reference": {"fixed-char": False, "paragraph": False, "heading-aware": True},
            # One paragraph holds both, so paragraph and heading-aware chunks do.
            "one-paragraph": {"fixed-char": first_slice == last_slice, "paragraph": True, "heading-aware": True},
            # No chunk crosses a heading.
            "across-a-heading": {"fixed-char": False, "paragraph": False, "heading-aware": False},
        }
        return checks, expected

    def test_several_pairs_some_kept_some_split(self) -> None:
        manifest = self.copy_inputs()
        checks, expected = self.fixture_checks()
        self.set_span_checks(manifest, checks)
        completed = self.lab("--manifest", "manifest.json", "--output", "result.json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        result = self.read_json("result.json")
        for comparison in result["comparisons"]:
            policy = comparison["strategy"]
            with self.subTest(policy=policy):
                self.assertEqual(list(comparison), list(span_checks.PAIRS_COMPARISON_KEYS))
                verdicts = {pair["name"]: pair["instruction_and_qualifier_share_chunk"] for pair in comparison["pairs"]}
                wanted = {name: by_policy[policy] for name, by_policy in expected.items()}
                self.assertEqual(verdicts, wanted)
                kept = sum(wanted.values())
                self.assertEqual(comparison["pairs_kept_together"], kept)
                self.assertIn(f"{policy}", completed.stdout)
                self.assertRegex(
                    completed.stdout,
                    rf"(?m)^{policy}(?: \([a-z]+ [0-9]+\))? +{comparison['chunk_count']}  .*  {kept} of 3$",
                )
                self.assertEqual({pair["source_id"] for pair in comparison["pairs"]}, {"aster-copy-v1"})
        self.assertEqual(result["fixture_scope"], chunk_index.FIXTURE_SCOPE)
        self.assert_validated(self.lab("validate", "result.json"), "result.json", self.folder / "result.json")

    def test_a_flipped_pair_verdict_is_refused(self) -> None:
        manifest = self.copy_inputs()
        checks, _ = self.fixture_checks()
        self.set_span_checks(manifest, checks)
        result = span_checks.build_checked_result(load_manifest(manifest).sources, load_manifest(manifest).span_checks)
        validate.validate_result(copy.deepcopy(result))
        for policy_position in range(len(chunk_index.DEFAULT_POLICY_NAMES)):
            for recount in (False, True):
                with self.subTest(policy=chunk_index.DEFAULT_POLICY_NAMES[policy_position], recount=recount):
                    forged = copy.deepcopy(result)
                    comparison = forged["comparisons"][policy_position]
                    pair = comparison["pairs"][0]
                    pair["instruction_and_qualifier_share_chunk"] = not pair["instruction_and_qualifier_share_chunk"]
                    if recount:
                        comparison["pairs_kept_together"] = sum(
                            item["instruction_and_qualifier_share_chunk"] for item in comparison["pairs"]
                        )
                    with self.assertRaises(IngestionError) as raised:
                        validate.validate_result(forged)
                    self.assertEqual(raised.exception.code, "comparison_mismatch")
        moved = copy.deepcopy(result)
        moved["comparisons"][0]["pairs"][0]["source_id"] = "nowhere"
        with self.assertRaises(IngestionError) as raised:
            validate.validate_result(moved)
        self.assertEqual(raised.exception.code, "comparison_pair")
        past = copy.deepcopy(result)
        past["comparisons"][0]["pairs"][0]["qualifier_span"] = [0, 10_000]
        with self.assertRaises(IngestionError) as raised:
            validate.validate_result(past)
        self.assertEqual(raised.exception.code, "comparison_span")

    def test_the_sweep_of_no_span_checks_names_the_scan_of_its_manifest(self) -> None:
        from checks import size_sweep

        cell = {"chunk_count": 3, "mean_chunk_chars": 40.0, "pairs_kept_together": 0}
        sweep = {
            "pair_count": 0,
            "rows": [{"size": 100, "heading-aware": cell, "fixed-char": cell}],
            "paragraph": cell,
            "pairs": [],
            "largest_target": None,
        }
        # Typed as printed: the scan of the manifest the sweep read; the fixture's, which no review writes, has none.
        for command, scan in (
            ("run.py sweep --manifest 'my docs/m.json'", "run.py scan --manifest 'my docs/m.json' --add-checks"),
            (size_sweep.SWEEP_COMMAND, "run.py scan --manifest M --add-checks"),
        ):
            with self.subTest(command=command):
                last = size_sweep.sweep_table(sweep, command=command).splitlines()[-1]
                self.assertTrue(last.startswith(f"no span checks declared: {scan} declares"), last)

    def test_no_span_checks_builds_indexes_with_empty_comparisons(self) -> None:
        manifest = self.copy_inputs()
        self.set_span_checks(manifest, [])
        completed = self.lab("--manifest", "manifest.json", "--output", "result.json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("no span checks declared", completed.stdout)
        # A newcomer with a freshly pinned folder is pointed at the command that finds pairs, for the manifest built.
        self.assertIn(": run.py scan --manifest manifest.json --add-checks declares", completed.stdout)
        result = self.read_json("result.json")
        self.assertEqual([comparison["pairs"] for comparison in result["comparisons"]], [[], [], []])
        validated = self.lab("validate", "result.json", "--manifest", "manifest.json")
        self.assert_validated(validated, "result.json", self.folder / "result.json", manifest="manifest.json")

    def test_the_single_reference_pair_keeps_the_reference_bytes(self) -> None:
        completed = self.lab("--output", str(self.folder / "result.json"))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual((self.folder / "result.json").read_bytes(), (ROOT / "expected-result.json").read_bytes())
        self.assertRegex(completed.stdout, r"(?m)^heading-aware \(target 220\) +7  .*  1 of 1$")

    def test_own_documents_do_not_claim_the_fixture_scope(self) -> None:
        self.write_source("docs/widget.md", WIDGET)
        source_pins_outcome = source_pins.pin_sources(
            self.folder / "manifest.json", [source_pins.PinRequest(str(self.folder / "docs/widget.md"))]
        )
        (self.folder / "manifest.json").write_bytes(source_pins_outcome.manifest_bytes)
        manifest = load_manifest(self.folder / "manifest.json")
        result = span_checks.build_checked_result(manifest.sources, manifest.span_checks)
        self.assertEqual(result["fixture_scope"], chunk_index.OWN_DOCUMENTS_SCOPE)


class SweepTests(OwnDocumentsTestCase):
    """The size sweep and the exact smallest heading-aware target."""

    def test_fixture_pair_first_shares_a_chunk_at_its_paragraphs_extent(self) -> None:
        text = (ROOT / "docs" / "aster-copy-v1.md").read_text(encoding="utf-8")
        instruction_start = text.index(REFERENCE_INSTRUCTION)
        qualifier_end = text.index(REFERENCE_QUALIFIER) + len(REFERENCE_QUALIFIER)
        # The pair's paragraphs run from the start of the instruction's paragraph to the
        # end of the qualifier's, "\n" included; the first is the section's first
        # paragraph, so no earlier paragraph can pull the group's start back.
        paragraphs_start = text.rindex("\n\n", 0, instruction_start) + 2
        paragraphs_end = text.index("\n\n", qualifier_end) + 1
        self.assertEqual((paragraphs_start, paragraphs_end), (51, 270))
        expected = paragraphs_end - paragraphs_start
        completed = run_lab("sweep", "--json", "--sizes", str(expected - 1), str(expected), "220")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        sweep = json.loads(completed.stdout)
        self.assertEqual(sweep["pairs"][0]["smallest_heading_aware_target"], expected)
        kept = {row["size"]: row["heading-aware"]["pairs_kept_together"] for row in sweep["rows"]}
        self.assertEqual(kept, {expected - 1: 0, expected: 1, 220: 1})
        table = run_lab("sweep")
        self.assertEqual(table.returncode, 0, table.stderr)
        self.assertIn(f"save-copy-refuses-existing-path (aster-copy-v1): {expected}", table.stdout)
        for size in (40, 600):
            self.assertRegex(table.stdout, rf"\n +{size} ")

    def test_the_default_range_holds_the_sizes_the_manifest_builds(self) -> None:
        cases = [
            # The lesson's sizes (none set): 40 to 600 in steps of 20.
            ((), list(range(40, 601, 20))),
            ((("heading-aware", 600),), list(range(40, 601, 20))),
            # A pipeline's 1,000: twenty steps of 100, to 2,000.
            ((("fixed-char", 1000), ("heading-aware", 1000)), [100 * n for n in range(1, 21)]),
            # Steps of 1234 // 10 = 123, to 2,460; the sizes set (80, 1234) are added.
            ((("fixed-char", 80), ("heading-aware", 1234)), sorted([80, 1234] + [123 * n for n in range(1, 21)])),
        ]
        for sizes, expected in cases:
            with self.subTest(sizes=sizes):
                manifest = Manifest(Path("."), (), (), "blocks-3", sizes)
                self.assertEqual(list(size_sweep.default_sizes(manifest)), expected)

    def test_smallest_target_is_exact_where_grouping_is_not_monotonic(self) -> None:
        layouts = [
            [(0, 10), (11, 20), (21, 40)],
            [(0, 10), (11, 30), (31, 40)],
            [(0, 5), (6, 50), (51, 60), (61, 100)],
            [(0, 30), (31, 35), (36, 70), (71, 72)],
        ]
        # More layouts with paragraph lengths from a fixed seed, so a failure always reproduces.
        lengths = random.Random(4).choices(range(1, 40), k=60)
        for first in range(0, 60, 6):
            layout = []
            position = 0
            for length in lengths[first : first + 6]:
                layout.append((position, position + length))
                position += length + 1
            layouts.append(layout)

        def brute_force(paragraphs: list[tuple[int, int]], start: int, end: int) -> int | None:
            limit = paragraphs[-1][1] + 1
            for target in range(1, limit):
                groups = chunk_index.grouped_spans(paragraphs, target)
                if any(group_start <= start and end <= group_end for group_start, group_end in groups):
                    return target
            return None

        for paragraphs in layouts:
            for first in range(len(paragraphs)):
                for last in range(first, len(paragraphs)):
                    start, end = paragraphs[first][0], paragraphs[last][1]
                    with self.subTest(paragraphs=paragraphs, span=(start, end)):
                        self.assertEqual(
                            size_sweep.smallest_grouping_target(paragraphs, start, end),
                            brute_force(paragraphs, start, end),
                        )
        # At 29 (= 40 - 11) the first two paragraphs group and the pair splits.
        self.assertEqual(size_sweep.smallest_grouping_target([(0, 10), (11, 20), (21, 40)], 11, 40), 40)

    def test_a_heading_between_the_spans_means_never(self) -> None:
        manifest = self.copy_inputs()
        self.set_span_checks(
            manifest, [quote_check("split", "aster-copy-v1", REFERENCE_INSTRUCTION, "Call list_copies()")]
        )
        completed = self.lab("sweep", "--manifest", "manifest.json", "--sizes", "600")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("split (aster-copy-v1): never: a heading separates them", completed.stdout)

    def test_the_main_job_prints_twenty_verdict_lines_and_counts_the_rest(self) -> None:
        manifest = self.copy_inputs()
        checks = [
            quote_check(f"ref-{number:02}", "aster-copy-v1", REFERENCE_INSTRUCTION, REFERENCE_QUALIFIER)
            for number in range(23)
        ]
        self.set_span_checks(manifest, checks)
        completed = self.lab("--manifest", "manifest.json", "--output", "result.json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        lines = completed.stdout.splitlines()
        self.assertIn("heading-aware", lines[3])
        self.assertTrue(lines[3].endswith("23 of 23"), lines[3])
        verdicts = [line for line in lines if line.startswith("ref-")]
        self.assertEqual(verdicts[0], "ref-00: fixed-char split, paragraph split, heading-aware same chunk")
        self.assertEqual(len(verdicts), 20)
        # The show it names reads the manifest this build read, not the lesson's fixture beside run.py.
        hint = "run.py show --manifest manifest.json --split-only"
        self.assertIn(
            f"… 3 more pairs: the result's comparisons hold every verdict; {hint} draws the split ones", lines
        )
        self.assertEqual(len(self.read_json("result.json")["comparisons"][0]["pairs"]), 23)
        shown = self.lab(*hint.split()[1:])
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("ref-22", shown.stdout)

    def test_the_sweep_the_last_line_names_is_one_to_paste(self) -> None:
        from commands.sweep import sweep_command

        cases = {
            None: "run.py sweep",
            "m.json": "run.py sweep --manifest m.json",
            "my docs/m.json": "run.py sweep --manifest 'my docs/m.json'",
        }
        for manifest, command in cases.items():
            with self.subTest(manifest=manifest):
                self.assertEqual(sweep_command(manifest), command)

    def test_the_pair_aware_split_ones_past_twenty_are_drawn_by_the_manifest_s_show(self) -> None:
        # 21 steps, each caveat under the heading after its instruction's: pair-aware leaves every one split.
        page = "".join(
            f"# Step {n}\n\nCall step_{n}() first.\n\n# After {n}\n\nstep_{n} refuses a closed handle.\n\n"
            for n in range(21)
        )
        self.write_source("docs/steps.md", page)
        self.assertEqual(self.lab("pin", "docs/steps.md", "--manifest", "m.json").returncode, 0)
        checks = [
            quote_check(f"apart-{n:02}", "docs/steps", f"Call step_{n}() first.", f"step_{n} refuses a closed handle.")
            for n in range(21)
        ]
        manifest = self.folder / "m.json"
        self.set_span_checks(manifest, checks)
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["policies"] = {"pair-aware": 220}
        manifest.write_text(json.dumps(value, indent=2), encoding="utf-8")
        completed = self.lab("--manifest", "m.json", "--output", "result.json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        hint = "run.py show --manifest m.json --policy pair-aware --split-only"
        self.assertIn(f"  … 1 more: {hint} draws them", completed.stdout.splitlines())
        shown = self.lab(*hint.split()[1:])
        self.assertEqual(shown.returncode, 0, shown.stderr)
        self.assertIn("apart-20", shown.stdout)

    def test_the_show_the_summary_names_is_one_to_paste(self) -> None:
        from commands.main_job import manifest_option

        cases = {None: "", "m.json": " --manifest m.json", "my docs/m.json": " --manifest 'my docs/m.json'"}
        for manifest, option in cases.items():
            with self.subTest(manifest=manifest):
                self.assertEqual(manifest_option(manifest), option)

    def test_more_than_twenty_pairs_are_counted_and_the_smallest_targets_listed(self) -> None:
        # 21 copies of the fixture pair (smallest target 219: its paragraphs span [51, 270)), two
        # pairs inside the one paragraph of "List documents" and one across a heading: 24 pairs.
        manifest = self.copy_inputs()
        checks = [
            quote_check(f"ref-{number:02}", "aster-copy-v1", REFERENCE_INSTRUCTION, REFERENCE_QUALIFIER)
            for number in range(21)
        ]
        checks += [
            quote_check(f"inside-{number}", "aster-copy-v1", "Call list_copies()", "Listing documents does not")
            for number in range(2)
        ]
        checks.append(quote_check("across", "aster-copy-v1", REFERENCE_INSTRUCTION, "Call list_copies()"))
        self.set_span_checks(manifest, checks)
        completed = self.lab("sweep", "--manifest", "manifest.json", "--sizes", "220")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        lines = completed.stdout.splitlines()
        tail = lines[lines.index("smallest heading-aware target that keeps each pair together:") + 1 :]
        expected = [
            "  2 pairs: any target: one paragraph holds both",
            "  1 pair: never: a heading separates them",
            "  21 need a target, smallest first:",
            *(f"  ref-{number:02} (aster-copy-v1): 219" for number in range(20)),
            "  … 1 more: sweep --json lists every pair",
            'to build one of these targets, set it in the manifest, e.g. the largest: "policies": {"heading-aware": 219}',
        ]
        self.assertEqual(tail, expected)

    def test_the_example_target_is_the_largest_listed(self) -> None:
        # Two pairs whose smallest targets differ: the list runs smallest first, the example names the largest.
        pairs = [
            {"name": "b", "source_id": "s", "smallest_heading_aware_target": 480, "verdict": 480},
            {"name": "a", "source_id": "s", "smallest_heading_aware_target": 120, "verdict": 120},
        ]
        self.assertEqual(
            size_sweep.condensed_pair_lines(pairs),
            [
                "  2 need a target, smallest first:",
                "  a (s): 120",
                "  b (s): 480",
                'to build one of these targets, set it in the manifest, e.g. the largest: "policies": {"heading-aware": 480}',
            ],
        )

    def test_sweep_prints_the_line_with_the_manifests_own_sizes(self) -> None:
        # A block-grammar manifest starts at fixed-char 1,000 and heading-aware 1,000: the printed line keeps the first.
        self.write_source("docs/widget.md", WIDGET)
        pinned = self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs/widget.md")
        self.assertEqual(pinned.returncode, 0, pinned.stderr)
        check = quote_check(
            "open-refuses", "docs/widget", "Call open_widget(name).", "This call refuses a name that is already open."
        )
        self.set_span_checks(self.folder / "m.json", [check])
        swept = self.lab("sweep", "--manifest", "m.json", "--sizes", "20", "40")
        self.assertEqual(swept.returncode, 0, swept.stderr)
        # The pair first shares a heading-aware chunk at its two paragraphs' extent.
        target = WIDGET.index("already open.\n") + len("already open.\n") - WIDGET.index("Call open_widget")
        self.assertIn(
            f'to build it: "policies": {{"fixed-char": 1000, "heading-aware": {target}}}', swept.stdout.splitlines()
        )

    def test_the_line_that_builds_a_target_keeps_the_manifests_other_sizes(self) -> None:
        # Pasted as printed, the line replaces the manifest's "policies": a size left out would fall back to the
        # lesson's default (fixed-char 80), so the others the manifest sets are printed with it, in their order.
        pairs = [{"name": "a", "source_id": "s", "smallest_heading_aware_target": 480, "verdict": 480}]
        sizes = (("fixed-char", 1000), ("heading-aware", 1000), ("pair-aware", 700))
        self.assertEqual(
            size_sweep.build_lines(pairs, sizes),
            ['to build it: "policies": {"fixed-char": 1000, "heading-aware": 480, "pair-aware": 700}'],
        )
        self.assertEqual(
            size_sweep.build_lines(pairs, (("fixed-char", 1000), ("pair-aware", 700))),
            ['to build it: "policies": {"fixed-char": 1000, "heading-aware": 480, "pair-aware": 700}'],
        )
        self.assertEqual(
            size_sweep.condensed_pair_lines(pairs, (("fixed-char", 1000),))[-1],
            'to build one of these targets, set it in the manifest, e.g. the largest: "policies": '
            '{"fixed-char": 1000, "heading-aware": 480}',
        )
        self.assertEqual(size_sweep.build_lines(pairs), ['to build it: "policies": {"heading-aware": 480}'])

    def pin_two_pair_page(self) -> None:
        """Pin ``docs/page.md``: paragraphs P0 [4, 14), P1 [15, 24), P2 [25, 34), P3 [35, 44) after "# T\n", and
        the pairs b-c (P1, P2) and c-d (P2, P3) as span checks."""
        self.write_source(
            "docs/page.md", "# T\n" + "a" * 9 + "\n\n" + "b" * 8 + "\n\n" + "c" * 8 + "\n\n" + "d" * 8 + "\n"
        )
        completed = self.lab("pin", "docs/page.md", "--manifest", "manifest.json")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        checks = [quote_check("b-c", "docs/page", "b" * 8, "c" * 8), quote_check("c-d", "docs/page", "c" * 8, "d" * 8)]
        self.set_span_checks(self.folder / "manifest.json", checks)

    def test_a_row_of_the_table_that_keeps_more_than_the_largest_target_is_named(self) -> None:
        # The page below: at 40 one group spans P0 to P3, 44 - 4, so both pairs share it; the largest of the pairs'
        # own targets, 20, keeps 1 of 2. The advice names the row, never contradicting the table above it.
        self.pin_two_pair_page()
        completed = self.lab("sweep", "--manifest", "manifest.json", "--sizes", "19", "20", "40")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(
            completed.stdout.splitlines()[-1],
            "at 20, the largest of these targets, 1 of 2 pairs are kept together; the table's 40 keeps more, 2 of 2",
        )

    def test_the_largest_target_is_checked_against_every_pair(self) -> None:
        # Paragraphs P0 [4, 14), P1 [15, 24), P2 [25, 34), P3 [35, 44) after "# T\n"; groups start at P0.
        # Pair b-c (P1, P2) first shares a group at 19 (P0 alone, then P1+P2 spans 34 - 15);
        # pair c-d (P2, P3) at 20, where P0+P1 spans 24 - 4 and P2+P3 spans 44 - 25: P1 and P2 part.
        self.pin_two_pair_page()
        completed = self.lab("sweep", "--manifest", "manifest.json", "--sizes", "19", "20")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        lines = completed.stdout.splitlines()
        self.assertIn("  b-c (docs/page): 19", lines)
        self.assertIn("  c-d (docs/page): 20", lines)
        self.assertEqual(
            lines[-1],
            "at 20, the largest of these targets, 1 of 2 pairs are kept together; "
            "groups shift as the target grows, so try sizes near it: run.py sweep --manifest manifest.json --sizes "
            "18 20 22",
        )
        # The line ends with a command to type as it is: this manifest's sweep at a tenth below and above the
        # target (typed without the manifest, it would sweep the lesson's fixture instead).
        tried = self.lab(*lines[-1].split(": ")[-1].split()[1:])
        self.assertEqual(tried.returncode, 0, tried.stderr)
        self.assertIn("  b-c (docs/page): 19", tried.stdout.splitlines())
        self.assertEqual([line.split()[0] for line in tried.stdout.splitlines()[2:5]], ["18", "20", "22"])
        sweep = json.loads(self.lab("sweep", "--manifest", "manifest.json", "--json").stdout)
        self.assertEqual(sweep["largest_target"], {"size": 20, "pairs_kept_together": 1})

    def test_a_swept_size_builds_an_index_the_validator_accepts(self) -> None:
        # The sweep's config at 219 is the one a manifest setting "heading-aware": 219 builds.
        manifest = load_manifest(ROOT / "manifest.json")
        index = chunk_index.build_index(size_sweep.sweep_config("heading-aware", 219), manifest.sources)
        self.assertIs(validate.validate_index(index), index)
        self.assertEqual(index["config"], {"strategy": "heading-aware", "version": 1, "max_chars": 219})

    def test_bad_sizes_are_usage_errors(self) -> None:
        for value in ("0", "-5", "x", "70000", "1.5"):
            with self.subTest(value=value):
                self.assert_one_line_refusal(run_lab("sweep", "--sizes", value), "usage", 2)


class CurrentResultTests(OwnDocumentsTestCase):
    """validate --manifest and --index-id catch what a self-consistent result cannot show."""

    def test_a_fully_reforged_result_is_caught_only_by_pins_held_outside(self) -> None:
        manifest = self.copy_inputs()
        real = self.lab("--manifest", "manifest.json", "--output", "real.json")
        self.assertEqual(real.returncode, 0, real.stderr)
        loaded = load_manifest(manifest)
        forged_sources = [dict(source) for source in loaded.sources]
        forged_sources[1]["text"] = forged_sources[1]["text"].replace("Call", "Never call", 1)
        forged_sources[1]["sha256"] = chunk_index.sha(forged_sources[1]["text"])
        check = loaded.span_checks[0]
        forged = span_checks.build_result(
            forged_sources, check.source_id, check.instruction.as_list(), check.qualifier.as_list()
        )
        self.write_json("forged.json", forged)
        self.assert_validated(self.lab("validate", "forged.json"), "forged.json", self.folder / "forged.json")
        recorded = self.read_json("real.json")["indexes"]
        pins = [f"--index-id={policy}={recorded[policy]['index_id']}" for policy in chunk_index.DEFAULT_POLICY_NAMES]
        validated = self.lab("validate", "real.json", *pins)
        self.assert_validated(
            validated, "real.json", self.folder / "real.json", recorded=("fixed-char", "paragraph", "heading-aware")
        )
        refused = self.lab("validate", "forged.json", *pins)
        self.assert_one_line_refusal(refused, "index_id_mismatch")
        for policy in chunk_index.DEFAULT_POLICY_NAMES:
            self.assertIn(f"{policy}: saved index_id {forged['indexes'][policy]['index_id'][:12]}…", refused.stderr)
        stale = self.lab("validate", "forged.json", "--manifest", "manifest.json")
        self.assert_one_line_refusal(stale, "stale_result")
        self.assertIn("aster-copy-v2: saved sha256", stale.stderr)

    def test_a_changed_span_check_makes_a_result_stale(self) -> None:
        manifest = self.copy_inputs()
        self.assertEqual(self.lab("--manifest", "manifest.json", "--output", "result.json").returncode, 0)
        self.set_span_checks(
            manifest, [quote_check("other", "aster-copy-v1", "Call list_copies()", "Listing documents")]
        )
        refused = self.lab("validate", "result.json", "--manifest", "manifest.json")
        self.assert_one_line_refusal(refused, "stale_span_checks")
        # The lesson's result answers its one check in the spec's shape, which names none: said so.
        self.assertIn("(the result answers the spec's one unnamed check; the manifest declares 1)", refused.stderr)

    def test_a_stale_result_names_the_checks_it_differs_by(self) -> None:
        from source_pins import checks_difference

        checks = (argparse.Namespace(name="a"), argparse.Namespace(name="b"))
        saved = [{"pairs": [{"name": "b"}, {"name": "c"}]}]
        self.assertEqual(
            checks_difference(checks, saved),
            "the manifest declares 1 the result does not: a; the result answers 1 the manifest does not: c",
        )
        self.assertEqual(
            checks_difference(checks[1:], [{"pairs": [{"name": "b"}]}]), "checks of the same names declare other spans"
        )

    def test_span_checks_in_another_order_are_named_as_such(self) -> None:
        # The result lists its pairs in manifest order (docs/own-documents.md), so a reordered manifest is not
        # what the result answers; the refusal says only the order changed.
        manifest = self.copy_inputs()
        listing = quote_check("listing", "aster-copy-v1", "Call list_copies()", "Listing documents")
        saving = quote_check("saving", "aster-copy-v1", "Call save_copy(path, text)", "This operation refuses")
        self.set_span_checks(manifest, [listing, saving])
        self.assertEqual(self.lab("--manifest", "manifest.json", "--output", "result.json").returncode, 0)
        self.set_span_checks(manifest, [saving, listing])
        refused = self.lab("validate", "result.json", "--manifest", "manifest.json")
        self.assertEqual(
            (refused.returncode, refused.stderr),
            (
                1,
                "error: stale_span_checks: result.json: the comparisons answer the same span checks in another order "
                'than the manifest declares now ("saving" is span_checks[0], pairs[1] in the result): rebuild with '
                "the main job\n",
            ),
        )

    def test_malformed_index_ids_are_usage_errors(self) -> None:
        good = "a" * 64
        for value in ("fixed-char", "nope=" + good, "paragraph=abc", "heading-aware=" + good.upper()):
            with self.subTest(value=value):
                self.assert_one_line_refusal(
                    run_lab("validate", "expected-result.json", "--index-id", value), "usage", 2
                )
        twice = run_lab(
            "validate", "expected-result.json", "--index-id", "paragraph=" + good, "--index-id", "paragraph=" + good
        )
        self.assert_one_line_refusal(twice, "index_id_twice", 2)
