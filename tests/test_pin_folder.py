"""``pin DIR``: a whole docs folder pinned in one command, the grammar a manifest starts with,
the lesson grammar's refusals that say what they found, and which manifest a build read.

Expected ids, orders and messages come from the documented rules (README, docs/own-documents.md),
written out by hand here, never read back from the lab's output.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import os
import shutil
import unittest
from pathlib import Path

import grammars
import run
import source_pins
from commands import basics
from lab_io.errors import IngestionError, UsageError
from lab_io.indented_json import saved_json_bytes
from load_documents import MAX_MANIFEST_BYTES
from tests.support import ROOT, Completed, LabTestCase, run_lab

HOME = "# Home\n\nWelcome to the synthetic widget docs.\n"
GUIDE = "# Guide\n\nCall open_widget(name) first.\n\nIt refuses a name already open.\n"
API = "# API\n\nRun close_widget(name) when done.\n"


def run_main(*argv: str) -> tuple[int, str, str]:
    """``run.main(argv)`` in this process, with its stdout (bytes and text) and stderr captured."""
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    stderr = io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = run.main(list(argv))
    stdout.flush()
    return code, stdout.buffer.getvalue().decode("utf-8"), stderr.getvalue()


class FolderTestCase(LabTestCase):
    """A docs folder in the test's temporary folder, and the manifest beside it."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = self.folder / "manifest.json"
        self.docs = self.folder / "docs"

    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    def write_site(self) -> None:
        """Three pages, two of them ``index.md``, plus things a folder pin passes over."""
        self.write("docs/index.md", HOME)
        self.write("docs/guide/index.md", GUIDE)
        self.write("docs/guide-api.md", API)
        self.write("docs/.git/HEAD.md", "# not a page\n\ntext\n")
        self.write("docs/.cache/page.md", "# cached\n\ntext\n")
        self.write("docs/.hidden.md", "# hidden\n\ntext\n")
        self.write("docs/logo.png", b"\x89PNG not markdown")
        self.write("docs/mkdocs.yml", "nav: []\n")

    def pin(self, *paths: str, markdown: str | None = None, all_or_nothing: bool = False) -> source_pins.PinOutcome:
        """Pin ``paths`` (relative to the test folder) into the manifest, writing it as the CLI would."""
        requests = [source_pins.PinRequest(str(self.folder / path)) for path in paths]
        outcome = source_pins.pin_sources(self.manifest, requests, markdown, all_or_nothing=all_or_nothing)
        if outcome.manifest_bytes is not None:
            self.manifest.write_bytes(outcome.manifest_bytes)
        return outcome

    def manifest_value(self) -> dict:
        return json.loads(self.manifest.read_text(encoding="utf-8"))


class FolderWalkTests(FolderTestCase):
    """Which files a folder stands for, in which order, and under which ids."""

    def test_every_markdown_file_sorted_by_path_with_ids_from_the_path(self) -> None:
        self.write_site()
        outcome = self.pin("docs")
        sources = self.manifest_value()["sources"]
        # Components compare in order: "guide" < "guide-api.md" < "index.md", so the folder comes first.
        self.assertEqual(
            [source["path"] for source in sources], ["docs/guide/index.md", "docs/guide-api.md", "docs/index.md"]
        )
        self.assertEqual(
            [source["source_id"] for source in sources], ["docs/guide/index", "docs/guide-api", "docs/index"]
        )
        self.assertEqual([source["title"] for source in sources], [source["source_id"] for source in sources])
        self.assertEqual(sources[2]["url"], "local:docs/index.md")
        self.assertEqual(sources[2]["sha256"], hashlib.sha256(HOME.encode("utf-8")).hexdigest())
        self.assertEqual([change.kind for change in outcome.changes], ["new", "new", "new"])
        self.assertEqual(outcome.skipped, ())

    def test_ids_are_relative_to_the_manifest_not_to_the_folder_typed(self) -> None:
        self.write_site()
        self.pin("docs/guide")
        self.assertEqual([source["source_id"] for source in self.manifest_value()["sources"]], ["docs/guide/index"])

    def test_links_and_non_regular_files_are_skipped_with_a_line(self) -> None:
        self.write_site()
        os.symlink("index.md", self.docs / "alias.md")
        os.symlink("guide", self.docs / "shortcut")
        os.symlink("mkdocs.yml", self.docs / "config.yml")
        os.mkfifo(self.docs / "pipe.md")
        outcome = self.pin("docs")
        prefix = str(self.docs)
        self.assertEqual(
            list(outcome.skipped),
            [
                f"skipped {prefix}/alias.md: a link; pin the file or folder it points to",
                f"skipped {prefix}/pipe.md: not a regular file",
                f"skipped {prefix}/shortcut: a link; pin the file or folder it points to",
            ],
        )
        self.assertEqual(len(self.manifest_value()["sources"]), 3)

    def test_an_id_already_held_gets_the_first_free_number(self) -> None:
        self.write("docs/index.md", HOME)
        self.write("docs/index-2.md", API)
        self.write("other/docs/index.md", GUIDE)
        # Pinned by hand with an id a folder walk would derive for another file.
        self.pin("other/docs/index.md")
        value = self.manifest_value()
        value["sources"][0]["source_id"] = "docs/index"
        self.manifest.write_text(json.dumps(value), encoding="utf-8")
        self.pin("docs")
        ids = {source["path"]: source["source_id"] for source in self.manifest_value()["sources"]}
        # Sorted walk: index-2.md keeps its own id, then index.md finds docs/index and docs/index-2 taken.
        self.assertEqual(
            ids,
            {"other/docs/index.md": "docs/index", "docs/index-2.md": "docs/index-2", "docs/index.md": "docs/index-3"},
        )

    def test_a_file_pinned_by_hand_gets_the_id_a_folder_pin_gives_it(self) -> None:
        self.write_site()
        self.pin("docs/guide/index.md")
        outcome = self.pin("docs")
        sources = self.manifest_value()["sources"]
        self.assertEqual(sources[0]["source_id"], "docs/guide/index")
        self.assertEqual([change.kind for change in outcome.changes], ["unchanged", "new", "new"])

    def test_a_folder_and_a_file_in_it_pin_the_file_once(self) -> None:
        self.write_site()
        outcome = self.pin("docs", "docs/index.md")
        self.assertEqual(len(outcome.changes), 3)


class ExcludeTests(FolderTestCase):
    """``pin DIR --exclude GLOB``: a folder's pages (or subfolders) left out, the count said, a GLOB that missed
    named."""

    def test_a_subfolder_and_a_glob_are_left_out_and_counted(self) -> None:
        self.write_site()
        self.write("docs/fa/index.md", HOME)
        self.write("docs/fa/guide.md", GUIDE)
        code, out, err = run_main(
            "pin", str(self.docs), "--manifest", str(self.manifest), "--markdown", "blocks-10",
            "--exclude", "fa", "--exclude", "guide-*", "--exclude", "drafts",
        )  # fmt: skip
        self.assertEqual((code, err), (0, ""))
        # Of the five pages, "fa/index.md" and "fa/guide.md" (under the folder "fa") and "guide-api.md" are left out.
        self.assertEqual(
            [source["path"] for source in self.manifest_value()["sources"]], ["docs/guide/index.md", "docs/index.md"]
        )
        lines = out.splitlines()
        self.assertIn("excluded: 3 pages left out by --exclude (any pinned before as they were)", lines)
        self.assertIn("note: --exclude drafts left out no page of the folders pinned", lines)

    def test_a_page_pinned_before_is_kept_as_it_was(self) -> None:
        self.write_site()
        self.pin("docs", markdown="blocks-10")
        before = self.manifest.read_bytes()
        code, out, err = run_main("pin", str(self.docs), "--manifest", str(self.manifest), "--exclude", "guide")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(self.manifest.read_bytes(), before)
        self.assertIn("excluded: 1 page left out by --exclude (any pinned before as they were)", out.splitlines())

    def test_every_page_left_out_or_no_folder_is_refused(self) -> None:
        self.write_site()
        code, out, err = run_main(
            "pin", str(self.docs), "--manifest", str(self.manifest), "--markdown", "blocks-10", "--exclude", "*"
        )
        self.assertEqual((code, out), (1, ""))
        self.assertTrue(err.startswith("error: no_markdown_files: "), err)
        self.assertTrue(err.rstrip().endswith("every one of its 3 pages is left out by --exclude"), err)
        page = str(self.docs / "index.md")
        code, out, err = run_main("pin", page, "--manifest", str(self.manifest), "--exclude", "guide")
        self.assertEqual(
            (code, out, err),
            (
                2,
                "",
                "error: pin_exclude: --exclude: leaves out pages of a folder PATH, and none is given: name the "
                "folder\n",
            ),
        )
        self.assertFalse(self.manifest.exists())


class RepeatedPinTests(FolderTestCase):
    """Pinning the same folder again changes nothing but what was edited or added."""

    def test_a_second_run_writes_nothing_and_says_so_in_one_line(self) -> None:
        self.write_site()
        self.pin("docs")
        before = self.manifest.read_bytes()
        outcome = self.pin("docs")
        self.assertIsNone(outcome.manifest_bytes)
        self.assertEqual(self.manifest.read_bytes(), before)
        self.assertEqual(
            source_pins.pin_report_lines(outcome), ["unchanged: 3 sources already pinned at their current bytes"]
        )

    def test_an_edited_file_is_repinned_and_a_new_one_appended(self) -> None:
        self.write_site()
        self.pin("docs")
        self.write("docs/guide/index.md", GUIDE + "\nIt never blocks.\n")
        self.write("docs/zz/extra.md", API)
        outcome = self.pin("docs")
        kinds = {change.path: change.kind for change in outcome.changes}
        self.assertEqual(
            kinds,
            {
                "docs/guide/index.md": "repinned",
                "docs/guide-api.md": "unchanged",
                "docs/index.md": "unchanged",
                "docs/zz/extra.md": "new",
            },
        )
        sources = self.manifest_value()["sources"]
        self.assertEqual(sources[-1]["source_id"], "docs/zz/extra")
        lines = source_pins.pin_report_lines(outcome)
        self.assertEqual(lines[0], "re-pinned docs/guide/index: docs/guide/index.md")
        self.assertEqual(lines[-1], "unchanged: 2 sources already pinned at their current bytes")


class LongPinReportTests(FolderTestCase):
    """A docs set of hundreds of pages gets a report a screen long: 20 lines of a kind, the rest counted."""

    def test_twenty_pinned_lines_then_a_count_and_every_line_with_list(self) -> None:
        for number in range(23):
            self.write(f"docs/page-{number:02d}.md", f"# Page {number}\n\nText of page {number}.\n")
        self.write("docs/page-22.md", b"# Not UTF-8 \xff\n")
        code, stdout, stderr = run_main(
            "pin", "--markdown", "blocks-3", "--manifest", str(self.manifest), str(self.docs)
        )
        self.assertEqual((code, stderr), (0, ""))
        lines = stdout.splitlines()
        pinned = [line for line in lines if line.startswith("pinned ")]
        self.assertEqual([line.split(":")[0] for line in pinned], [f"pinned docs/page-{n:02d}" for n in range(20)])
        self.assertEqual(
            lines[-3:],
            [
                "… 2 more sources (2 new): the manifest holds every pin; the same pin with --list prints each",
                "passed over: 1 page the lab cannot take, each named above (pin --all-or-nothing refuses the whole pin instead)",
                # 23 pages, one not UTF-8.
                f"wrote {self.manifest} (22 sources, 0 span checks)",
            ],
        )
        self.manifest.unlink()
        code, stdout, _ = run_main(
            "pin", "--list", "--markdown", "blocks-3", "--manifest", str(self.manifest), str(self.docs)
        )
        self.assertEqual(code, 0)
        self.assertEqual(sum(line.startswith("pinned ") for line in stdout.splitlines()), 22)
        self.assertNotIn("more sources", stdout)


class SharedMetadataTests(FolderTestCase):
    """--version and --fact-status given with a folder apply to every file pinned in that call."""

    def test_a_folder_shares_version_and_fact_status(self) -> None:
        self.write_site()
        self.pin("docs/index.md")
        requests = [source_pins.PinRequest(str(self.docs), version="2.1", fact_status="synthetic example")]
        outcome = source_pins.pin_sources(self.manifest, requests)
        self.manifest.write_bytes(outcome.manifest_bytes)
        sources = self.manifest_value()["sources"]
        self.assertEqual(
            {(source["version"], source["fact_status"]) for source in sources}, {("2.1", "synthetic example")}
        )
        kinds = {change.path: change.kind for change in outcome.changes}
        self.assertEqual(kinds["docs/index.md"], "repinned")


class RemovedPageTests(FolderTestCase):
    """A page deleted from the folder is not dropped from the manifest behind the user's back (only by --drop-stale)."""

    def test_a_deleted_page_refuses_the_pin_and_says_how_to_remove_it(self) -> None:
        self.write_site()
        self.pin("docs")
        before = self.manifest.read_bytes()
        (self.docs / "index.md").unlink()
        with self.assertRaises(IngestionError) as raised:
            self.pin("docs")
        self.assertEqual(raised.exception.code, "source_missing")
        self.assertTrue(
            raised.exception.what.endswith(
                "pin its folder again with --drop-stale, which removes its entry and its span checks, naming each; "
                "or remove them from the manifest by hand)"
            )
        )
        self.assertEqual(self.manifest.read_bytes(), before)

    def test_a_page_whose_bytes_are_pinned_under_another_id_is_dropped_naming_that_id(self) -> None:
        # A page renamed in the folder lost its checks and its review decisions with no word of the rename (a new
        # user's trial): the dropped line names the page that holds its very bytes; a page deleted outright, none.
        self.write_site()
        self.pin("docs")
        (self.docs / "guide-api.md").rename(self.docs / "reference.md")
        (self.docs / "index.md").unlink()
        requests = [source_pins.PinRequest(str(self.docs))]
        outcome = source_pins.pin_sources(self.manifest, requests, drop_stale=True)
        self.assertEqual(
            list(outcome.dropped),
            [
                'dropped source "docs/guide-api": "docs/guide-api.md" no longer exists; "docs/reference" '
                '("docs/reference.md") holds its very bytes: if it was renamed, its checks and review decisions do '
                "not follow it (scan --add-checks proposes its pairs again, one rejected before too, and scan names "
                "the old decisions as unmatched)",
                'dropped source "docs/index": "docs/index.md" no longer exists',
            ],
        )


class LabFileAsPageTests(FolderTestCase):
    """A file named to pin that is one of the lab's own files (docs/own-documents.md, Refusals) is refused, not pinned
    as a page: its JSON would be chunked and scanned as the docs' text."""

    # Each as the documents describe the kind, written by hand: the first lines the lab tells it by.
    LAB_FILES = [
        ("other.json", '{"sources": [], "span_checks": []}\n', "is a manifest"),
        ("m.decisions.json", '{"decisions_version": 1, "decisions": []}\n', "is a manifest's review decisions file"),
        ("result.json", '{\n  "execution_mode": "offline",\n  "indexes": {}\n}\n', "is a saved result or index"),
        ("chunks.jsonl", '{"id": "c1", "text": "Call it.", "metadata": {"source_id": "docs/index"}}\n', "is an export"),
        ("pairs.json", '{"scan_version": 1, "pairs": []}\n', "is a command's --json report"),
    ]

    def named_file_refused(self, name: str, content: str, code_name: str) -> str:
        """The one-line refusal (``code_name``, exit 1) of ``name``, written with ``content``, named to pin into a
        pinned site, the manifest left as it was."""
        before = self.manifest.read_bytes()
        self.write(name, content)
        code, stdout, stderr = run_main("pin", "--manifest", str(self.manifest), str(self.folder / name))
        self.assertEqual((code, stdout), (1, ""))
        self.assertEqual(len(stderr.splitlines()), 1, stderr)
        self.assertTrue(stderr.startswith(f"error: {code_name}: "), stderr)
        self.assertEqual(self.manifest.read_bytes(), before)
        return stderr

    def test_each_lab_file_named_to_pin_is_refused_and_the_manifest_kept(self) -> None:
        self.write_site()
        self.pin("docs")
        for name, content, kind in self.LAB_FILES:
            with self.subTest(name=name):
                self.assertIn(f'"{name}" {kind}', self.named_file_refused(name, content, "source_is_lab_file"))

    def test_a_file_of_code_styles_or_data_named_to_pin_is_refused_and_the_manifest_kept(self) -> None:
        # docs/own-documents.md: a file named with the suffix of code, a style sheet or data is no page; its
        # folder passes it over.
        self.write_site()
        self.pin("docs")
        before = self.manifest.read_bytes()
        for name, content, kind in (
            ("docs/conftest.py", "# Fixtures\n\nimport pytest\n", "code (.py)"),
            ("docs/script.JS", "// Call init() first.\n", "code (.js)"),
            ("docs/styles.css", "body { margin: 0; }\n", "a style sheet (.css)"),
            ("docs/site.json", '{"navigation": []}\n', "data (.json)"),
            ("docs/nav.yml", "# Nav\n\nnav: []\n", "data (.yml)"),
            ("docs/limits.csv", "name,limit\nqueue,5\n", "data (.csv)"),
            # An SVG is text a page's reader would take; a PNG is refused for what it is, before its bytes.
            ("docs/favicon.svg", '<svg xmlns="http://www.w3.org/2000/svg"><title>Q</title></svg>\n', "an image (.svg)"),
            ("docs/logo.PNG", "\x89PNG\r\n", "an image (.png)"),
        ):
            with self.subTest(name=name):
                stderr = self.named_file_refused(name, content, "source_not_a_page")
                self.assertIn(f'"{name}" is {kind}, not a Markdown page', stderr)
        # The folder holding them passes them over: pinned again, it changes nothing.
        code, _, stderr = run_main("pin", "--manifest", str(self.manifest), str(self.folder / "docs"))
        self.assertEqual((code, stderr), (0, ""))
        self.assertEqual(self.manifest.read_bytes(), before)

    def test_a_text_file_or_a_page_that_reads_like_json_is_still_pinned(self) -> None:
        self.write("notes.txt", "# Notes\n\nCall open_widget(name) once.\n")
        # A page is a page by its name, whatever its first line holds.
        self.write("docs/data.md", '{"sources": [], "span_checks": []}\n')
        self.pin("notes.txt", "docs/data.md", markdown="blocks-6")
        self.assertEqual([entry["source_id"] for entry in self.manifest_value()["sources"]], ["notes", "docs/data"])

    def run_beside_a_pipe(self, pipe: Path, *argv: str) -> tuple[int, str, str]:
        """``run_main(*argv)``, failed if it waits on ``pipe`` (each blocked open then let through, to end)."""
        import threading

        outcome = []
        running = threading.Thread(target=lambda: outcome.append(run_main(*argv)), daemon=True)
        running.start()
        running.join(5)
        if running.is_alive():
            while running.is_alive():
                with contextlib.suppress(OSError):
                    os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
                running.join(0.1)
            self.fail(f"{argv[0]} opened the named pipe and waited on it")
        return outcome[0]

    @unittest.skipUnless(hasattr(os, "mkfifo"), "named pipes are POSIX")
    def test_a_named_pipe_named_to_pin_or_judge_is_refused_not_waited_on(self) -> None:
        # A pipe is no regular file (source_not_file, not_a_file): telling whether a file is one of the lab's own
        # must not open it, where a read waits for a writer that never comes.
        self.write_site()
        self.pin("docs")
        before = self.manifest.read_bytes()
        pipe = self.folder / "pipe"
        os.mkfifo(pipe)
        for argv, code in (
            (("pin", "--manifest", str(self.manifest), str(pipe)), "source_not_file"),
            (("judge", str(pipe), "--manifest", str(self.manifest)), "not_a_file"),
        ):
            with self.subTest(command=argv[0]):
                exit_code, stdout, stderr = self.run_beside_a_pipe(pipe, *argv)
                self.assertEqual((exit_code, stdout), (1, ""))
                self.assertTrue(stderr.startswith(f"error: {code}: "), stderr)
                self.assertEqual(self.manifest.read_bytes(), before)


class FolderRefusalTests(FolderTestCase):
    """A folder pin is refused as a whole, in one line naming the file, and the manifest is left as it was."""

    BAD_PAGES = [
        ("docs/b/latin1.md", b"# Caf\xe9\n", "not_utf8"),
        ("docs/b/huge.md", b"# Huge\n" + b"x" * 70_000, "source_too_large"),
        ("docs/b/blank.md", b"\n \n", "blank_text"),
        ("docs/b/intro.md", b"Intro first.\n# Late\n", "heading_required"),
    ]

    def test_all_or_nothing_refuses_the_whole_folder_at_a_bad_page(self) -> None:
        self.write_site()
        self.pin("docs")
        before = self.manifest.read_bytes()
        for relative, content, code in self.BAD_PAGES:
            with self.subTest(file=relative):
                bad = self.write(relative, content)
                self.addCleanup(bad.unlink, missing_ok=True)
                with self.assertRaises(IngestionError) as raised:
                    self.pin("docs", all_or_nothing=True)
                self.assertEqual(raised.exception.code, code)
                self.assertIn(json.dumps(str(bad)), str(raised.exception))
                self.assertEqual(self.manifest.read_bytes(), before)
                bad.unlink()

    def test_a_bad_page_is_passed_over_with_its_reason_and_the_rest_pinned(self) -> None:
        self.write_site()
        for relative, content, _ in self.BAD_PAGES:
            self.write(relative, content)
        # (--markdown lesson: asked for, the lesson grammar passes over the page with no '# ' heading too)
        outcome = self.pin("docs", markdown="lesson")
        ids = [source["source_id"] for source in self.manifest_value()["sources"]]
        self.assertEqual(ids, ["docs/guide/index", "docs/guide-api", "docs/index"])
        # Sorted by path: docs/b/blank, docs/b/huge, docs/b/intro, docs/b/latin1.
        codes = [line.split(": ")[1] for line in outcome.passed_over]
        self.assertEqual(codes, ["blank_text", "source_too_large", "heading_required", "not_utf8"])
        self.assertEqual(
            outcome.passed_over[0], f"passed over {self.docs}/b/blank.md: blank_text: text is empty or only whitespace"
        )
        lines = source_pins.pin_report_lines(outcome)
        self.assertEqual(
            lines[-1],
            "passed over: 4 pages the lab cannot take, each named above (pin --all-or-nothing refuses the whole pin instead)",
        )

    def test_a_page_whose_name_cannot_be_shown_is_passed_over(self) -> None:
        # An ESC in a file name, and bytes that are not UTF-8 (read back as lone surrogates): the page's fault.
        self.write_site()
        escaped = self.write("docs/esc\x1b[2J.md", b"# S\n\nText.\n")
        undecodable = self.docs / os.fsdecode(b"bad\xed\xa0\x80.md")
        undecodable.write_bytes(b"# S\n\nText.\n")
        outcome = self.pin("docs")
        ids = [source["source_id"] for source in self.manifest_value()["sources"]]
        self.assertEqual(ids, ["docs/guide/index", "docs/guide-api", "docs/index"])
        reasons = sorted(line.rsplit('.md" ', 1)[1] for line in outcome.passed_over)
        self.assertEqual(reasons, ["holds a control or format character", "holds bytes that are not UTF-8"])
        self.assertTrue(all(": path_unprintable: " in line for line in outcome.passed_over))
        with self.assertRaises(IngestionError) as raised:
            self.pin("docs", all_or_nothing=True)
        self.assertEqual(raised.exception.code, "path_unprintable")
        escaped.unlink()
        undecodable.unlink()

    def test_a_folder_of_only_bad_pages_is_refused(self) -> None:
        self.write("docs/latin1.md", b"# Caf\xe9\n")
        with self.assertRaises(IngestionError) as raised:
            self.pin("docs")
        self.assertEqual(raised.exception.code, "no_pinnable_files")
        self.assertFalse(self.manifest.exists())

    def test_folders_the_lab_will_not_walk(self) -> None:
        self.write_site()
        (self.folder / "empty" / ".git").mkdir(parents=True)
        self.write("empty/.git/x.md", HOME)
        self.write("empty/notes.txt", "no markdown here\n")
        inner = self.folder / "inner"
        inner.mkdir()
        cases = [
            (self.manifest, "empty", "no_markdown_files"),
            (inner / "manifest.json", "docs", "path_outside"),
        ]
        for manifest, typed, code in cases:
            with self.subTest(folder=typed):
                request = source_pins.PinRequest(str(self.folder / typed))
                with self.assertRaises(IngestionError) as raised:
                    source_pins.pin_sources(manifest, [request])
                self.assertEqual(raised.exception.code, code)
                self.assertFalse(os.path.lexists(manifest))

    def test_a_linked_docs_folder_is_refused_before_it_is_listed(self) -> None:
        # The pages live in another checkout; the manifest's folder holds only a link to them.
        self.write("elsewhere/docs/index.md", HOME)
        self.write("elsewhere/docs/guide/index.md", GUIDE)
        project = self.folder / "project"
        project.mkdir()
        os.symlink(self.folder / "elsewhere" / "docs", project / "docs")
        hint = (
            "the lab follows no link: keep the manifest in a folder that holds the files themselves "
            "(e.g. at the docs repository's root) and pin them from there"
        )
        # "docs/" as typed (lstat of "docs/" follows the link), "docs", and a real folder behind the link.
        for typed in ("docs/", "docs", "docs/guide/"):
            with self.subTest(typed=typed):
                completed = run_lab("pin", "--manifest", "m.json", typed, cwd=project)
                self.assertEqual(completed.returncode, 1)
                self.assertEqual(
                    completed.stderr, f'error: path_link: m.json: pin "{typed}": "docs" is a link; {hint}\n'
                )
                self.assertFalse(os.path.lexists(project / "m.json"))

    def test_a_folder_outside_says_where_the_manifest_belongs(self) -> None:
        self.write_site()
        inner = self.folder / "inner"
        inner.mkdir()
        completed = run_lab("pin", "--manifest", "m.json", "../docs", cwd=inner)
        self.assertEqual(completed.returncode, 1)
        self.assertEqual(
            completed.stderr,
            f'error: path_outside: m.json: pin "../docs": "../docs" is not inside the manifest\'s folder "{inner}"; '
            "a manifest pins files under its own folder: put the manifest in a folder that holds the docs "
            "(e.g. at the docs repository's root, --manifest DOCS_REPO/m.json) and pin from there\n",
        )

    def test_one_file_metadata_flags_are_refused_for_a_folder(self) -> None:
        self.write_site()
        for field in ("source_id", "title", "url"):
            with self.subTest(field=field):
                request = source_pins.PinRequest(str(self.docs), **{field: "x"})
                with self.assertRaises(UsageError) as raised:
                    source_pins.pin_sources(self.manifest, [request])
                self.assertEqual(raised.exception.code, "pin_metadata")
                self.assertFalse(self.manifest.exists())

    def test_a_manifest_over_its_bound_is_refused_before_it_is_written(self) -> None:
        self.write_site()
        self.pin("docs")
        value = self.manifest_value()
        # Pad one field so the manifest sits 100 bytes under its bound: it loads, but one more pin cannot fit.
        size = len(saved_json_bytes(value))
        value["sources"][0]["fact_status"] += "x" * (MAX_MANIFEST_BYTES - 100 - size)
        self.manifest.write_bytes(saved_json_bytes(value))
        self.assertEqual(self.manifest.stat().st_size, MAX_MANIFEST_BYTES - 100)
        before = self.manifest.read_bytes()
        self.write("docs/new.md", API)
        with self.assertRaises(IngestionError) as raised:
            self.pin("docs")
        self.assertEqual(raised.exception.code, "manifest_too_large")
        self.assertEqual(self.manifest.read_bytes(), before)


class LessonRefusalMessageTests(FolderTestCase):
    """What the lesson grammar found where it wanted a '# ' heading at offset 0, and what to do."""

    HINT = "use the blocks-10 grammar (pin --markdown blocks-10)"
    RULE = "the lesson grammar needs a '# ' heading at offset 0"

    def test_each_opening_is_named(self) -> None:
        cases = [
            ("---\ntitle: Queue\n---\n# Queue\n", f'found "---" front matter at line 1; {self.HINT}'),
            ('+++\ntitle = "Queue"\n+++\n# Queue\n', f'found "+++" front matter at line 1; {self.HINT}'),
            ("\ufeff# Queue\n\ntext\n", f"found a UTF-8 byte order mark at offset 0; {self.RULE}; {self.HINT}"),
            ("\n# Queue\n\ntext\n", f"found a blank line at line 1; {self.RULE}; {self.HINT}"),
            (
                "Some intro before any heading.\n# Queue\n",
                f"found text \"Some intro before any heading.\" at line 1, not a '# ' heading; {self.HINT}",
            ),
            (
                "!!! note\n    Read me first.\n",
                f"found an admonition \"!!! note\" at line 1, not a '# ' heading; {self.HINT}",
            ),
            (
                "```sh\n# not a heading\n```\n",
                f"found a code fence \"```sh\" at line 1, not a '# ' heading; {self.HINT}",
            ),
            ("> [!NOTE]\n> Read me.\n", f"found a blockquote \"> [!NOTE]\" at line 1, not a '# ' heading; {self.HINT}"),
            ("- one\n- two\n", f"found a list item \"- one\" at line 1, not a '# ' heading; {self.HINT}"),
            ("| a | b |\n|---|---|\n", f"found a table row \"| a | b |\" at line 1, not a '# ' heading; {self.HINT}"),
            ("<p>Logo</p>\n# A\n", f"found HTML \"<p>Logo</p>\" at line 1, not a '# ' heading; {self.HINT}"),
            (
                "Queue\n=====\n\ntext\n",
                f'found a setext heading "Queue" underlined with "===" at line 1; {self.RULE}; {self.HINT}',
            ),
            (
                "#Queue\n\ntext\n",
                f"found \"#Queue\" at line 1, not a '# ' heading (one to six #, one space, a title); {self.HINT}",
            ),
        ]
        for text, message in cases:
            with self.subTest(text=text):
                with self.assertRaises(IngestionError) as raised:
                    grammars.heading_sections(text, "docs/page.md")
                self.assertEqual(raised.exception.code, "heading_required")
                self.assertEqual(raised.exception.what, message)

    def test_a_long_first_line_is_cut_and_escaped(self) -> None:
        text = "Intro \x1b[2J " + "word " * 30 + "\n# Late\n"
        message = grammars.lesson_opening_problem(text)
        self.assertTrue(message.startswith('found text "Intro \\u001b[2J word word'), message)
        self.assertNotIn("\x1b", message)
        self.assertIn('"… at line 1', message)

    def test_pin_names_the_file_and_what_it_found(self) -> None:
        self.write("docs/index.md", HOME)
        self.write("docs/start.md", "---\ntitle: Start\n---\n# Start\n\ntext\n")
        # A new manifest with no --markdown: the lesson grammar by default, which this page does not fit. A docs
        # folder pinned so would start a manifest of its few pages that open on a '# ' heading: refused, unwritten.
        code, stdout, stderr = run_main("pin", "--manifest", str(self.manifest), str(self.docs))
        self.assertEqual((code, stdout), (1, ""))
        self.assertEqual(
            stderr,
            f"error: grammar_for_docs: {self.manifest}: 1 page of 2 found are ones the lesson grammar (a new "
            "manifest's without --markdown) cannot take and a block grammar reads: no '# ' heading at offset 0, MDX, "
            'or over 65,536 bytes (the first: "docs/start.md"); pin --markdown blocks-10 reads a docs site\'s pages, '
            "--markdown lesson passes them over; nothing was written\n",
        )
        self.assertFalse(self.manifest.exists())
        # An MDX page and a page over the lesson's bound are ones a block grammar reads too.
        for name, text in (("guide.mdx", "# Guide\n\ntext\n"), ("big.md", "# Big\n\n" + "word " * 14_000)):
            with self.subTest(page=name):
                other = self.write(f"other/{name}", text)
                self.write("other/index.md", HOME)
                code, _, stderr = run_main("pin", "--manifest", str(self.manifest), str(self.folder / "other"))
                self.assertEqual(code, 1, stderr)
                self.assertIn(f'(the first: "other/{name}")', stderr)
                self.assertFalse(self.manifest.exists())
                other.unlink()
        code, stdout, stderr = run_main("pin", "--markdown", "lesson", "--manifest", str(self.manifest), str(self.docs))
        self.assertEqual(code, 0, stderr)
        self.assertIn(
            f'passed over {self.docs}/start.md: heading_required: found "---" front matter at line 1; {self.HINT}\n',
            stdout,
        )
        self.manifest.unlink()
        code, stdout, stderr = run_main("pin", "--all-or-nothing", "--manifest", str(self.manifest), str(self.docs))
        self.assertEqual(code, 1)
        self.assertEqual(stdout, "")
        where = f'{self.manifest}: pin "{self.docs}/start.md"'
        self.assertEqual(stderr, f'error: heading_required: {where}: found "---" front matter at line 1; {self.HINT}\n')
        self.assertFalse(self.manifest.exists())


class GrammarChoiceTests(FolderTestCase):
    """pin --markdown starts a manifest with a grammar; an existing manifest keeps its own."""

    def test_lesson_is_the_default_and_writes_no_key(self) -> None:
        self.write_site()
        self.pin("docs", markdown="lesson")
        self.assertEqual(list(self.manifest_value()), ["sources", "span_checks"])

    def test_switching_an_existing_manifest_is_refused(self) -> None:
        self.write_site()
        self.pin("docs")
        before = self.manifest.read_bytes()
        with self.assertRaises(IngestionError) as raised:
            self.pin("docs", markdown="blocks")
        self.assertEqual(raised.exception.code, "grammar_switch")
        self.assertIn('set "markdown": "blocks" in the manifest by hand', raised.exception.what)
        self.assertEqual(self.manifest.read_bytes(), before)

    def test_blocks_starts_a_manifest_that_takes_real_pages(self) -> None:
        self.write("docs/index.md", "---\ntitle: Home\n---\nIntro before any heading.\n\n# Home\n\ntext\n")
        self.write("docs/guide/index.md", "\ufeffGuide\n=====\n\n```sh\n# a comment\n\nrun\n```\n")
        self.pin("docs", markdown="blocks")
        value = self.manifest_value()
        self.assertEqual(value["markdown"], "blocks")
        self.assertEqual([source["source_id"] for source in value["sources"]], ["docs/guide/index", "docs/index"])
        self.assertIsNone(self.pin("docs", markdown="blocks").manifest_bytes)
        self.assertIsNone(self.pin("docs").manifest_bytes)
        with self.assertRaises(IngestionError) as raised:
            self.pin("docs", markdown="lesson")
        self.assertEqual(raised.exception.code, "grammar_switch")


class WhichManifestTests(FolderTestCase):
    """The summary names the manifest it built from; the fallback says when it ignores ./manifest.json."""

    def setUp(self) -> None:
        super().setUp()
        self.addCleanup(os.chdir, os.getcwd())

    def test_the_fallback_names_the_fixture_and_notes_the_ignored_manifest(self) -> None:
        self.write("manifest.json", "{}")
        os.chdir(self.folder)
        output = self.folder / "result.json"
        code, stdout, stderr = run_main("--output", str(output))
        self.assertEqual(code, 0, stderr)
        self.assertEqual(output.read_bytes(), (ROOT / "expected-result.json").read_bytes())
        self.assertEqual(
            stderr,
            "note: manifest.json in the current folder is not used: without --manifest the lab reads the lesson's "
            "fixture manifest beside run.py; pass --manifest manifest.json to use yours\n",
        )
        self.assertEqual(
            stdout.splitlines()[-2:],
            ["built from manifest.json beside run.py (the lesson's fixture)", f"wrote {output}"],
        )

    def test_scan_and_context_note_the_ignored_manifest_too(self) -> None:
        # Like the main job, show, sweep and judge: a user in their docs folder who forgot --manifest is told.
        self.write("manifest.json", "{}")
        os.chdir(self.folder)
        for command in ("scan", "context"):
            with self.subTest(command=command):
                code, stdout, stderr = run_main(command)
                self.assertEqual(code, 0, stderr)
                self.assertTrue(stderr.startswith("note: manifest.json in the current folder is not used"), stderr)

    def test_a_manifest_of_another_name_is_noted_too(self) -> None:
        self.write_site()
        self.manifest = self.folder / "m.json"
        self.pin("docs")
        # A saved result names its sources too, after its execution mode; it is no manifest.
        self.write("result.json", '{"execution_mode": "x", "sources": []}')
        self.write("m.decisions.json", '{"sources": []}')
        os.chdir(self.folder)
        for command in ("scan", "show"):
            with self.subTest(command=command):
                code, _, stderr = run_main(command)
                self.assertEqual(code, 0, stderr)
                self.assertEqual(
                    stderr,
                    "note: m.json in the current folder looks like a manifest and is not used: without --manifest "
                    "the lab reads the lesson's fixture manifest beside run.py; pass --manifest m.json to use it\n",
                )
        # A name is the folder's to choose: one that does not print is shown escaped.
        self.write("z\x1b[2J.json", '{"sources": []}')
        self.assertIn('"z\\u001b[2J.json"', basics.unused_manifest_note(self.folder))
        os.unlink(self.folder / "z\x1b[2J.json")
        self.write("other.json", '\n  {"markdown": "blocks-4", "sources": []}')
        self.assertIn(
            "m.json and other.json in the current folder look like manifests and are not used",
            basics.unused_manifest_note(self.folder),
        )
        # Three are named; a fourth is told of, not named.
        self.write("p.json", '{"sources": []}')
        self.assertIn("m.json, other.json and p.json in the current folder", basics.unused_manifest_note(self.folder))
        self.write("q.json", '{"sources": []}')
        note = basics.unused_manifest_note(self.folder)
        self.assertIn("m.json, other.json, p.json and others in the current folder look like manifests", note)
        self.assertNotIn("q.json", note)

    def test_with_several_manifests_the_note_names_the_one_that_holds_what_was_asked(self) -> None:
        # Written for this test: a broken copy first in the alphabet, holding neither the page nor the check.
        page = {"source_id": "docs/guide", "path": "docs/guide.md", "sha256": "0" * 64}
        check = {"name": "guide-pair", "source_id": "docs/guide"}
        self.write(
            "bad1.json",
            json.dumps({"sources": [{**page, "source_id": "other", "path": "docs/other.md"}], "span_checks": []}),
        )
        self.write("m.json", json.dumps({"sources": [page], "span_checks": [check]}))
        self.write("chunks.jsonl", json.dumps({"source_id": "docs/guide.md", "text": "Call open_widget(name) first."}))
        os.chdir(self.folder)
        lead = (
            "bad1.json and m.json in the current folder look like manifests and are not used: without --manifest the "
            "lab reads the lesson's fixture manifest beside run.py; "
        )
        cases = (
            (
                ("show", "--check", "guide-pair"),
                'm.json holds span check "guide-pair": pass --manifest m.json to use it',
            ),
            (("show", "--source", "docs/guide"), 'm.json holds source "docs/guide": pass --manifest m.json to use it'),
            # judge matches a chunk's source by its path too, as it matches the pinned pages.
            (("judge", "chunks.jsonl"), 'm.json holds source "docs/guide.md": pass --manifest m.json to use it'),
            (
                ("show", "--check", "nowhere"),
                'pass one of the 2 as --manifest to use it (none of them holds span check "nowhere" either)',
            ),
        )
        for argv, tail in cases:
            with self.subTest(argv=argv):
                code, _, stderr = run_main(*argv)
                self.assertNotEqual(code, 0)
                self.assertEqual(stderr.count("\n"), 1, stderr)
                self.assertTrue(stderr.endswith(f"(note: {lead}{tail})\n"), stderr)
        # Nothing looked for: neither is picked, the note counts them.
        code, _, stderr = run_main("show")
        self.assertEqual(code, 0, stderr)
        self.assertEqual(stderr, f"note: {lead}pass one of the 2 as --manifest to use it\n")
        # Both holding it: both named, none picked.
        self.write("bad1.json", json.dumps({"sources": [page], "span_checks": [check]}))
        code, _, stderr = run_main("show", "--check", "guide-pair")
        self.assertTrue(
            stderr.endswith(
                'bad1.json and m.json hold span check "guide-pair": pass --manifest with the one you meant)\n'
            ),
            stderr,
        )

    def test_no_note_beside_run_py_or_in_a_folder_without_a_manifest(self) -> None:
        self.assertIsNone(basics.unused_manifest_note(ROOT))
        self.assertIsNone(basics.unused_manifest_note(self.folder))

    def test_a_given_manifest_is_named_as_typed(self) -> None:
        self.write_site()
        self.pin("docs")
        os.chdir(self.folder)
        code, stdout, stderr = run_main("--manifest", "manifest.json", "--output", "result.json")
        self.assertEqual(code, 0, stderr)
        self.assertEqual(stderr, "")
        self.assertEqual(stdout.splitlines()[-2:], ["built from manifest.json", "wrote result.json"])

    def test_output_to_stdout_is_only_the_result(self) -> None:
        self.write("manifest.json", "{}")
        os.chdir(self.folder)
        code, stdout, stderr = run_main("--output", "-")
        self.assertEqual(code, 0, stderr)
        self.assertEqual(stdout.encode("utf-8"), (ROOT / "expected-result.json").read_bytes())
        # The note comes once the run has ended, after the table and the summary on stderr.
        self.assertTrue(stderr.splitlines()[-1].startswith("note: manifest.json in the current folder is not used"))
        self.assertIn("built from manifest.json beside run.py (the lesson's fixture)\n", stderr)

    def test_a_refusal_with_the_note_is_still_one_line(self) -> None:
        # A user in their docs folder who forgot --manifest and names a check of theirs: the fixture's manifest has
        # no such check, and the refusal says in the same line which manifest was read and how to pass theirs.
        self.write("manifest.json", "{}")
        os.chdir(self.folder)
        code, stdout, stderr = run_main("show", "--check", "mine")
        self.assertEqual((code, stdout), (2, ""))
        self.assertEqual(len(stderr.splitlines()), 1, stderr)
        self.assertTrue(stderr.startswith('error: unknown_name: --check: "mine" is not in the manifest'), stderr)
        self.assertTrue(
            stderr.endswith(
                " (note: manifest.json in the current folder is not used: without --manifest the lab reads the "
                "lesson's fixture manifest beside run.py; pass --manifest manifest.json to use yours)\n"
            ),
            stderr,
        )


class ExampleCorpusTests(LabTestCase):
    """docs/examples and docs/examples/sites: each saved result is what a fresh build of its manifest writes."""

    EXAMPLES = ROOT / "docs" / "examples"
    # Each corpus's folder (holding manifest.json and expected-result.json) and its pages' folder in it.
    CORPORA = (("", "parcel-queue"), ("sites", "lantern-cache"))

    def test_a_fresh_build_reproduces_the_saved_result(self) -> None:
        for corpus, _ in self.CORPORA:
            with self.subTest(corpus=corpus or "."):
                output = self.folder / "examples.json"
                folder = self.EXAMPLES / corpus
                code, stdout, stderr = run_main("--manifest", str(folder / "manifest.json"), "--output", str(output))
                self.assertEqual(code, 0, stderr)
                self.assertEqual(output.read_bytes(), (folder / "expected-result.json").read_bytes())

    def test_rebuild_py_writes_the_saved_manifest_and_result_byte_for_byte(self) -> None:
        # Run on a copy of the pages: the script then writes the copy's files, never the saved ones.
        copy = self.folder / "examples"
        for corpus, pages in self.CORPORA:
            shutil.copytree(self.EXAMPLES / corpus / pages, copy / corpus / pages)
        specification = importlib.util.spec_from_file_location("rebuild", self.EXAMPLES / "rebuild.py")
        rebuild = importlib.util.module_from_spec(specification)
        specification.loader.exec_module(rebuild)
        rebuild.HERE = copy
        printed = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
        with contextlib.redirect_stdout(printed):
            self.assertEqual(rebuild.main(), 0)
        written = []
        for corpus, _ in self.CORPORA:
            for name in ("manifest.json", "expected-result.json"):
                with self.subTest(corpus=corpus or ".", name=name):
                    self.assertEqual((copy / corpus / name).read_bytes(), (self.EXAMPLES / corpus / name).read_bytes())
                written.append(str((copy / corpus / name).resolve()))
        self.assertEqual(printed.buffer.getvalue().decode("utf-8").splitlines()[-1], "rebuilt " + ", ".join(written))

    def test_the_pages_keep_their_deliberate_bytes(self) -> None:
        pages = self.EXAMPLES / "parcel-queue"
        self.assertIn(b"\r\n", (pages / "guide" / "retries.md").read_bytes())
        self.assertNotIn(b"\n", (pages / "guide" / "retries.md").read_bytes().replace(b"\r\n", b""))
        self.assertTrue((pages / "reference" / "index.md").read_bytes().startswith(b"\xef\xbb\xbf# Reference\n"))
        self.assertTrue((pages / "index.md").read_bytes().startswith(b"---\n"))
        self.assertTrue((pages / "quickstart.md").read_bytes().startswith(b"+++\n"))


class PinFolderCommandLineTests(FolderTestCase):
    """The real command, as a user types it from the docs' parent folder."""

    def test_a_real_docs_folder_with_the_block_grammar_builds_and_validates(self) -> None:
        shutil.copytree(ROOT / "docs" / "examples" / "parcel-queue", self.docs)
        self.addCleanup(os.chdir, os.getcwd())
        os.chdir(self.folder)
        code, stdout, stderr = run_main("pin", "--markdown", "blocks", "--manifest", "m.json", "docs/")
        self.assertEqual((code, stderr), (0, ""))
        # Six pages, CRLF and BOM included, each under its path: the two index.md stay distinct.
        self.assertEqual(
            [line.split(":")[0] for line in stdout.splitlines()],
            [
                "pinned docs/guide/index",
                "pinned docs/guide/retries",
                "pinned docs/index",
                "pinned docs/quickstart",
                "pinned docs/reference/index",
                "pinned docs/reference/limits",
                "wrote m.json (6 sources, 0 span checks)",
            ],
        )
        code, stdout, stderr = run_main("--manifest", "m.json", "--output", "result.json")
        self.assertEqual((code, stderr), (0, ""))
        self.assertEqual(stdout.splitlines()[-2:], ["built from m.json", "wrote result.json"])
        validated = Completed([], *run_main("validate", "result.json", "--manifest", "m.json"))
        self.assert_validated(validated, "result.json", self.folder / "result.json", manifest="m.json")

    def test_help_gives_the_default_source_id_a_pin_gives(self) -> None:
        completed = run_lab("pin", "--help")
        self.assertEqual(completed.returncode, 0)
        # The id of docs/guide-api.md is its path without the suffix (README), not the bare file name.
        self.assertIn(
            "default: its path relative to the manifest's folder, without the suffix: docs/guide.md is docs/guide",
            " ".join(completed.stdout.split()),
        )
        self.write_site()
        run_lab("pin", "--manifest", "manifest.json", "docs/guide-api.md", cwd=self.folder)
        self.assertEqual([source["source_id"] for source in self.manifest_value()["sources"]], ["docs/guide-api"])

    def test_pin_a_folder_then_build(self) -> None:
        self.write_site()
        first = run_lab("pin", "--manifest", "manifest.json", "docs/", cwd=self.folder)
        self.assertEqual(first.returncode, 0, first.stderr)
        # A new manifest without --markdown: one note naming the grammar it starts with, and how to choose another.
        self.assertEqual(first.stderr.count("\n"), 1)
        self.assertTrue(first.stderr.startswith("note: this new manifest reads its sources with the lesson grammar"))
        self.assertIn("pin --markdown blocks", first.stderr)
        again = run_lab("pin", "--manifest", "manifest.json", "docs/", cwd=self.folder)
        self.assertEqual((again.returncode, again.stderr), (0, ""))
        lines = first.stdout.splitlines()
        self.assertEqual(
            [line.split(",")[0] for line in lines],
            [
                "pinned docs/guide/index: docs/guide/index.md",
                "pinned docs/guide-api: docs/guide-api.md",
                "pinned docs/index: docs/index.md",
                # (Cut at its first comma: "(3 sources, 0 span checks)".)
                "wrote manifest.json (3 sources",
            ],
        )
        again = run_lab("pin", "--manifest", "manifest.json", "docs/", cwd=self.folder)
        self.assertEqual(
            again.stdout.splitlines(),
            [
                "unchanged: 3 sources already pinned at their current bytes",
                "manifest unchanged: manifest.json (3 sources, 0 span checks)",
            ],
        )


if __name__ == "__main__":
    unittest.main()


class PageTitleTests(FolderTestCase):
    """A new page's title: its front matter's top-level ``title`` under a block grammar, else its id."""

    def titles(self) -> dict[str, str]:
        return {source["source_id"]: source["title"] for source in self.manifest_value()["sources"]}

    def write_titled_site(self) -> None:
        self.write("docs/index.md", "---\ntitle: Parcel Queue\ndate: 2026-01-01\n---\nIntro before any heading.\n")
        self.write("docs/install.md", '\ufeff+++\r\ntitle = "Install"\r\n+++\r\n# Steps\r\n\r\nRun it.\r\n')
        self.write("docs/plain.md", "# Plain\n\nNo front matter.\n")

    def test_a_folder_pin_takes_each_page_s_front_matter_title(self) -> None:
        self.write_titled_site()
        code, _, stderr = run_main("pin", "--markdown", "blocks-4", "--manifest", str(self.manifest), str(self.docs))
        self.assertEqual(code, 0, stderr)
        # A BOM and CRLF line ends are read past as the loader reads them.
        self.assertEqual(
            self.titles(), {"docs/index": "Parcel Queue", "docs/install": "Install", "docs/plain": "docs/plain"}
        )
        # The title names the text before the first heading in every index.
        code, _, stderr = run_main("--manifest", str(self.manifest), "--output", str(self.folder / "r.json"))
        self.assertEqual(code, 0, stderr)
        chunks = json.loads((self.folder / "r.json").read_text(encoding="utf-8"))["indexes"]["heading-aware"]["chunks"]
        first = next(chunk for chunk in chunks if chunk["source_id"] == "docs/index")
        self.assertEqual(
            (first["section_title"], first["start"]),
            ("Parcel Queue", len("---\ntitle: Parcel Queue\ndate: 2026-01-01\n---\n")),
        )

    def test_titles_id_and_title_keep_to_what_was_asked(self) -> None:
        self.write_titled_site()
        argv = ("pin", "--markdown", "blocks-4", "--manifest", str(self.manifest))
        self.assertEqual(run_main(*argv, "--titles", "id", str(self.docs))[0], 0)
        self.assertEqual(
            self.titles(), {"docs/index": "docs/index", "docs/install": "docs/install", "docs/plain": "docs/plain"}
        )
        self.manifest.unlink()
        self.assertEqual(run_main(*argv, "--title", "Home", str(self.docs / "index.md"))[0], 0)
        self.assertEqual(self.titles(), {"docs/index": "Home"})
        stderr = io.StringIO()
        with self.assertRaises(SystemExit) as raised, contextlib.redirect_stderr(stderr):
            run.main([*argv, "--titles", "page", str(self.docs)])
        self.assertEqual(raised.exception.code, 2)
        self.assertIn("--titles", stderr.getvalue())

    def test_a_page_pinned_before_keeps_its_title(self) -> None:
        self.write_titled_site()
        self.pin("docs", markdown="blocks-4")
        self.write("docs/index.md", "---\ntitle: Renamed\n---\nIntro before any heading.\n")
        self.pin("docs")
        self.assertEqual(self.titles()["docs/index"], "Parcel Queue")

    def test_a_title_left_to_the_id_is_named_with_why(self) -> None:
        # pin says which front-matter title it did not take, and why; a page with no title, or one given --title,
        # has no such line.
        self.write("docs/a.md", '---\ntitle: "Esc \\u001b[31mRED"\n---\n# A\n')
        self.write("docs/b.md", "---\ntitle: >\n  Folded\n---\n# B\n")
        self.write("docs/c.md", "---\ntitle: Fine\n---\n# C\n")
        self.write("docs/d.md", "# D\n")
        self.write("docs/e.md", f"---\ntitle: {'w' * 301}\n---\n# E\n")
        outcome = self.pin("docs", markdown="blocks-8")
        self.assertEqual(
            list(outcome.titles_passed_over),
            [
                f"title of {self.folder / 'docs/a.md'} left to its id \"docs/a\": the front matter's title holds a "
                "character that does not print (a control or an invisible one)",
                f"title of {self.folder / 'docs/b.md'} left to its id \"docs/b\": the front matter's title is not a "
                "one-line string the lab reads (a block scalar, a list, an anchor, a tag or a bad quote)",
                f"title of {self.folder / 'docs/e.md'} left to its id \"docs/e\": the front matter's title is longer "
                "than 300 characters",
            ],
        )
        self.assertEqual(source_pins.pin_report_lines(outcome)[:3], list(outcome.titles_passed_over))
        self.manifest.unlink()
        requests = [source_pins.PinRequest(str(self.folder / "docs/a.md"), title="Given")]
        outcome = source_pins.pin_sources(self.manifest, requests, "blocks-8")
        self.assertEqual(outcome.titles_passed_over, ())

    def test_the_lesson_grammar_reads_no_front_matter(self) -> None:
        self.assertIsNone(source_pins.front_matter_title("---\ntitle: A\n---\n# A\n", grammars.LESSON_GRAMMAR))

    def test_which_values_are_taken(self) -> None:
        cases = {
            "---\ntitle: Get started\n---\n": "Get started",
            "---\ntitle:   Spaced out   \n---\n": "Spaced out",
            "---\ntitle: Run it # a comment\n---\n": "Run it",
            "---\ntitle: C# in a word\n---\n": "C# in a word",
            "---\ntitle: 'It''s here'\n---\n": "It's here",
            '---\ntitle: "Say \\"hi\\" \\u00e9" # c\n---\n': 'Say "hi" é',
            '+++\ntitle = "Install"\n+++\n': "Install",
            "+++\ntitle = 'C:\\path'\n+++\n": "C:\\path",
            "---\ndate: 1\ntitle: Second key\n---\n": "Second key",
            # Left to the id: nothing or no title, a block scalar, a flow list, a nested or TOML-in-YAML key,
            # a mapping, an unclosed or trailing-text quote, an escape JSON does not read, a lone surrogate,
            # whitespace alone, a title too long to be one.
            "no front matter\n": None,
            "---\ndate: 1\n---\n": None,
            "---\ntitle:\n---\n": None,
            "---\ntitle: >\n  folded\n---\n": None,
            "---\ntitle: [a, b]\n---\n": None,
            "---\nparams:\n  title: nested\n---\n": None,
            "---\ntitle = A\n---\n": None,
            "+++\ntitle: A\n+++\n": None,
            "+++\ntitle = Bare\n+++\n": None,
            "---\ntitle: a: b\n---\n": None,
            "---\ntitle: 'open\n---\n": None,
            '---\ntitle: "a" b\n---\n': None,
            '---\ntitle: "\\x41"\n---\n': None,
            '---\ntitle: "\\ud800"\n---\n': None,
            "---\ntitle: '   '\n---\n": None,
            f"---\ntitle: {'w' * 301}\n---\n": None,
            f"---\ntitle: {'w' * 300}\n---\n": "w" * 300,
            # A long run of spaces is trimmed, not tried split by split; a TOML table's keys are the table's.
            f"---\ntitle: a{' ' * 5000}b\n---\n": None,
            f"---\ntitle: Spaced{' ' * 200}\n---\n": "Spaced",
            '+++\ndate = 2020\n[params]\ntitle = "nested"\n+++\n': None,
            '+++\ntitle = "Top"\n[params]\ntitle = "nested"\n+++\n': "Top",
            "---\ntitle:x\n---\n": None,
            # No value, and values that do not print as they are or name nothing.
            "---\ntitle: ~\n---\n": None,
            '---\ntitle: "a\\u0000b"\n---\n': None,
            '---\ntitle: "\\u200b"\n---\n': None,
            "---\ntitle: '--'\n---\n": None,
        }
        for text, expected in cases.items():
            with self.subTest(text=text[:40]):
                self.assertEqual(source_pins.front_matter_title(text, "blocks-4"), expected)
