"""The one write path (``lab_io/outputs.py``): whole or nothing, for files and stdout, under faults and signals.

Most cases run in-process; a real process is used only where nothing else
shows the behaviour (a closed stdout, a signal arriving while files are staged).
"""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from unittest import mock

import run
from commands import parser as command_parser
from commands import validate as validate_command
from lab_io import outputs
from lab_io.errors import UsageError
from tests.support import ROOT, RUN_PY, LabTestCase, run_lab

REFERENCE = ROOT / "expected-result.json"


def staged_leftovers(folder: Path) -> list[str]:
    """Names of staged files (``.NAME.XXXXXXXX.tmp``) left in ``folder``."""
    return sorted(path.name for path in folder.iterdir() if path.name.startswith(".") and path.name.endswith(".tmp"))


class StreamWithoutDescriptor:
    """A text stream with no file descriptor whose buffer's writes return ``results`` in turn (see ``mock``)."""

    def __init__(self, results: list) -> None:
        self.buffer = mock.Mock()
        self.buffer.write.side_effect = results
        self.closed = False

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno")

    def flush(self) -> None:
        pass


class ClosedPipe(io.RawIOBase):
    """A pipe whose reader has gone: every write is ``EPIPE``."""

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


class StreamedFiles(LabTestCase):
    """Content as bytes or as pieces, renamed into place only when every piece is on disk."""

    def test_pieces_are_written_in_order_and_counted(self):
        target = self.folder / "out.jsonl"
        pieces = (f"line {number}\n".encode("ascii") for number in range(1000))
        written = outputs.write_atomically(target, pieces)
        expected = b"".join(f"line {number}\n".encode("ascii") for number in range(1000))
        self.assertEqual(target.read_bytes(), expected)
        self.assertEqual(written, len(expected))

    def test_write_outputs_reports_the_bytes_of_each_target(self):
        first = self.folder / "a.json"
        second = self.folder / "b.html"
        sizes = outputs.write_outputs([(first, b"12345"), (second, iter([b"ab", b"", b"cde"]))])
        self.assertEqual(sizes, {first: 5, second: 5})

    def test_a_failing_piece_leaves_the_old_file_and_no_staged_file(self):
        target = self.folder / "out.json"
        target.write_bytes(b"old\n")

        def pieces():
            yield b"new part one\n"
            raise ValueError("the producer failed")

        with self.assertRaises(ValueError):
            outputs.write_atomically(target, pieces())
        self.assertEqual(target.read_bytes(), b"old\n")
        self.assertEqual(staged_leftovers(self.folder), [])

    def test_a_piece_that_is_not_bytes_is_refused(self):
        with self.assertRaises(TypeError):
            outputs.write_atomically(self.folder / "out.json", iter(["text, not bytes"]))
        self.assertEqual(list(self.folder.iterdir()), [])

    def test_short_writes_are_completed_and_a_stuck_write_is_a_full_disk(self):
        target = self.folder / "out.json"
        real_write = os.write

        def one_byte_at_a_time(descriptor, data):
            return real_write(descriptor, bytes(data[:1]))

        with mock.patch.object(outputs.os, "write", side_effect=one_byte_at_a_time):
            self.assertEqual(outputs.write_atomically(target, b"abcdef"), 6)
        self.assertEqual(target.read_bytes(), b"abcdef")
        # A write that takes nothing is a full disk at once; were it tried again, the test would fail, not hang.
        stuck = [0, AssertionError("a write that took nothing was tried again")]
        with mock.patch.object(outputs.os, "write", side_effect=stuck), self.assertRaises(UsageError) as caught:
            outputs.emit(b"never\n", target)
        self.assertEqual(caught.exception.code, "output_unwritable")
        self.assertEqual(caught.exception.where, str(target))
        self.assertEqual(target.read_bytes(), b"abcdef")
        self.assertEqual(staged_leftovers(self.folder), [])

    def test_a_long_valid_name_gets_a_staged_name_within_the_limit(self):
        for name in ("a" * 250 + ".json", "é" * 120 + ".json"):
            with self.subTest(length=len(name.encode("utf-8"))):
                target = self.folder / name
                outputs.write_atomically(target, b"{}\n")
                self.assertEqual(target.read_bytes(), b"{}\n")
                # A dot, the prefix, a dot, eight random characters and ".tmp".
                staged_length = len(os.fsencode(outputs.staged_prefix(target))) + 8 + len(".tmp")
                self.assertLessEqual(staged_length, 255)
        self.assertEqual(staged_leftovers(self.folder), [])


class StagedFiles(LabTestCase):
    """A staged file is made as ``tempfile.mkstemp`` makes one: a new name beside the target, never an existing file."""

    def test_a_new_file_of_the_owner_alone_beside_the_target(self) -> None:
        target = self.folder / "out.json"
        descriptor, name = outputs.staged_file(target)
        os.close(descriptor)
        staged = Path(name)
        self.assertEqual(staged.parent, self.folder.resolve())
        # ".out.json." then eight characters of a-z, 0-9 and _ then ".tmp".
        self.assertRegex(staged.name, r"^\.out\.json\.[a-z0-9_]{8}\.tmp$")
        self.assertEqual(staged.stat().st_mode & 0o777, 0o600)
        self.assertEqual(staged.read_bytes(), b"")

    def test_an_existing_name_is_never_opened(self) -> None:
        target = self.folder / "out.json"
        # os.urandom gives eight zero bytes (the name ".out.json.aaaaaaaa.tmp"), then eight ones ("bbbbbbbb").
        taken = self.folder / ".out.json.aaaaaaaa.tmp"
        taken.write_bytes(b"someone else's")
        with mock.patch.object(outputs.os, "urandom", side_effect=[bytes(8), bytes([1] * 8)]):
            descriptor, name = outputs.staged_file(target)
        os.close(descriptor)
        self.assertEqual(Path(name).name, ".out.json.bbbbbbbb.tmp")
        self.assertEqual(taken.read_bytes(), b"someone else's")
        # Every name taken: refused after the tries, nothing opened.
        with mock.patch.object(outputs.os, "urandom", return_value=bytes(8)), self.assertRaises(FileExistsError):
            outputs.staged_file(target)


class Signals(LabTestCase):
    """SIGTERM, SIGHUP and SIGINT while files are staged: the staged files go, the old output stays."""

    def test_a_signal_while_staging_removes_the_staged_file(self):
        target = self.folder / "out.json"
        target.write_bytes(b"old\n")
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            with self.subTest(signal=number):
                before = signal.getsignal(number)

                def pieces():
                    yield b"first piece\n"
                    os.kill(os.getpid(), number)
                    yield b"second piece\n"

                with self.assertRaises(outputs.Interrupted) as caught:
                    outputs.write_atomically(target, pieces())
                self.assertEqual(caught.exception.signal_number, number)
                self.assertEqual(target.read_bytes(), b"old\n")
                self.assertEqual(staged_leftovers(self.folder), [])
                # The handler is the lab's only inside the write window.
                self.assertEqual(signal.getsignal(number), before)

    def test_a_signal_during_the_renames_waits_until_every_file_has_landed(self):
        result = self.folder / "result.json"
        report = self.folder / "report.html"
        real_replace = os.replace

        def replace_and_signal(source, target):
            real_replace(source, target)
            if Path(target) == result:
                os.kill(os.getpid(), signal.SIGTERM)

        with mock.patch.object(outputs.os, "replace", side_effect=replace_and_signal):
            with self.assertRaises(outputs.Interrupted):
                outputs.write_outputs([(result, b"result\n"), (report, b"report\n")])
        self.assertEqual((result.read_bytes(), report.read_bytes()), (b"result\n", b"report\n"))
        self.assertEqual(staged_leftovers(self.folder), [])

    def test_a_signal_the_lab_was_started_ignoring_stays_ignored(self):
        target = self.folder / "out.json"
        previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
        self.addCleanup(signal.signal, signal.SIGHUP, previous)

        def pieces():
            yield b"first piece\n"
            os.kill(os.getpid(), signal.SIGHUP)
            yield b"second piece\n"

        self.assertEqual(outputs.write_atomically(target, pieces()), len(b"first piece\nsecond piece\n"))
        self.assertEqual(target.read_bytes(), b"first piece\nsecond piece\n")
        self.assertIs(signal.getsignal(signal.SIGHUP), signal.SIG_IGN)

    def test_ctrl_c_is_one_line_and_exit_130(self):
        # The parser records each handler when it is built (once per process): built here before the stand-in.
        command_parser.parsed_command_line(["validate", str(REFERENCE)])
        with mock.patch.object(validate_command, "run_validate", side_effect=KeyboardInterrupt):
            completed = run_lab("validate", str(REFERENCE))
        self.assertEqual(completed.returncode, 130)
        self.assertEqual(len(completed.stderr.splitlines()), 1, completed.stderr)
        self.assertTrue(completed.stderr.startswith("error: interrupted: "), completed.stderr)

    def test_sigterm_in_a_real_run_exits_143_and_leaves_nothing(self):
        target = self.folder / "result.json"
        target.write_bytes(b"an earlier result\n")
        # The signal is sent from inside the write window, where only a real process can receive it.
        script = textwrap.dedent(f"""
            import os, signal, sys
            sys.path.insert(0, {str(ROOT)!r})
            import run
            from lab_io import outputs
            real_write = outputs.write_fully
            def write_then_stop(descriptor, piece, progress=None):
                os.kill(os.getpid(), signal.SIGTERM)
                return real_write(descriptor, piece, progress)
            outputs.write_fully = write_then_stop
            raise SystemExit(run.main(["--output", {str(target)!r}]))
            """)
        completed = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=self.folder
        )
        self.assertEqual(completed.returncode, 128 + signal.SIGTERM, completed.stderr)
        self.assertEqual(
            completed.stderr.splitlines(),
            ["error: interrupted: run.py: stopped by SIGTERM; every output file is whole or as it was"],
        )
        self.assertEqual(target.read_bytes(), b"an earlier result\n")
        self.assertEqual(staged_leftovers(self.folder), [])


class Stdout(LabTestCase):
    """A full or closed stdout is one line and exit 2, never a report of success."""

    def test_a_full_stdout_is_refused_by_every_command_that_writes_there(self):
        reference = str(REFERENCE)
        cases = [
            ["--output", "-"],
            ["export", reference, "--policy", "fixed-char"],
            ["show"],
            ["diff", reference, reference, "--json"],
            ["diff", reference, reference],
            ["validate", reference],
            ["sweep"],
        ]
        for args in cases:
            with self.subTest(args=args):
                completed = run_lab(*args, env={"NO_COLOR": "1"}, stdout_capacity=100)
                self.assertEqual(completed.returncode, 2, completed.stderr)
                self.assertEqual(
                    completed.stderr.splitlines()[-1],
                    f"error: output_unwritable: stdout: {os.strerror(errno.ENOSPC)} after 100 bytes; "
                    "the output is incomplete",
                )
                self.assertNotIn("wrote stdout", completed.stderr)
                self.assertNotIn("exported", completed.stderr)

    def test_the_table_after_a_written_file_fails_as_one_line_too(self):
        output = self.folder / "result.json"
        completed = run_lab("--output", str(output), stdout_capacity=10)
        self.assertEqual(
            (completed.returncode, completed.stdout, completed.stderr),
            (
                2,
                "policy    ",
                f"error: output_unwritable: stdout: {os.strerror(errno.ENOSPC)} after 10 bytes; "
                "the output is incomplete\n",
            ),
        )

    def test_a_stream_write_that_takes_nothing_is_a_full_stdout_not_a_loop(self):
        # A stream without a descriptor (as a test's capture) is written through its buffer.
        stream = StreamWithoutDescriptor([0, AssertionError("a write that took nothing was tried again")])
        with mock.patch.object(sys, "stdout", stream), self.assertRaises(UsageError) as caught:
            outputs.write_stdout(b"never\n")
        self.assertEqual(
            (caught.exception.code, caught.exception.where, caught.exception.what),
            ("output_unwritable", "stdout", f"{os.strerror(errno.ENOSPC)} after 0 bytes; the output is incomplete"),
        )

    def test_text_the_terminal_cannot_encode_is_escaped(self):
        raw = io.BytesIO()
        stdout = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
        with mock.patch.object(sys, "stdout", stdout):
            self.assertEqual(outputs.emit_text("caf\u00e9 \u2713"), len(b"caf\\xe9 \\u2713\n"))
        self.assertEqual(raw.getvalue(), b"caf\\xe9 \\u2713\n")

    def test_a_reader_that_went_away_ends_the_run_quietly(self):
        # A reader that stops early (``| head``): the next write meets a closed pipe.
        for args in (
            ["--output", "-"],
            ["validate", str(REFERENCE)],
            ["export", str(REFERENCE), "--policy", "paragraph"],
        ):
            with self.subTest(args=args):
                stdout = io.TextIOWrapper(ClosedPipe(), encoding="utf-8", write_through=True)
                stderr = io.StringIO()
                with mock.patch.object(sys, "stdout", stdout), mock.patch.object(sys, "stderr", stderr):
                    code = run.main(args)
                self.assertEqual((code, stderr.getvalue()), (0, ""))

    def test_a_closed_stdout_in_process_is_refused_before_any_work(self):
        output = self.folder / "result.json"
        stderr = io.StringIO()
        with mock.patch.object(sys, "stdout", None), mock.patch.object(sys, "stderr", stderr):
            code = run.main(["--output", str(output)])
        self.assertEqual(code, 2)
        self.assertEqual(
            stderr.getvalue(), "error: output_unwritable: stdout: is closed; run the command with stdout open\n"
        )
        self.assertFalse(output.exists())

    def test_a_closed_stdout_in_a_real_process(self):
        output = self.folder / "result.json"
        # ">&-" as a shell would do it: the lab starts with no file descriptor 1.
        completed = subprocess.run(
            ["sh", "-c", '"$0" "$@" >&-', sys.executable, str(RUN_PY), "--output", str(output)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(completed.returncode, 2, completed.stderr)
        self.assertEqual(
            completed.stderr, "error: output_unwritable: stdout: is closed; run the command with stdout open\n"
        )
        self.assertFalse(output.exists())


class OutputChecks(LabTestCase):
    """Outputs the lab refuses before any work, one check shared by every command that writes."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = self.copy_inputs()
        self.result = self.folder / "result.json"
        self.result.write_bytes(REFERENCE.read_bytes())

    def test_a_name_ending_in_a_slash_names_a_folder(self):
        for value in (str(self.folder / "newdir") + "/", str(self.folder / "docs") + "/"):
            with self.subTest(value=value):
                completed = run_lab("--manifest", str(self.manifest), "--output", value)
                self.assert_one_line_refusal(completed, "output_is_folder", exit_code=2)
        self.assertFalse((self.folder / "newdir").exists())

    def test_a_write_protected_output_is_refused_and_kept(self):
        protected = self.folder / "kept.json"
        protected.write_bytes(b"keep me\n")
        protected.chmod(0o444)
        self.addCleanup(protected.chmod, 0o644)
        for args in (
            ["--manifest", str(self.manifest), "--output", str(protected)],
            ["export", str(self.result), "--policy", "paragraph", "--output", str(protected)],
        ):
            with self.subTest(args=args[:2]):
                self.assert_one_line_refusal(run_lab(*args), "output_read_only", exit_code=2)
        self.assertEqual(protected.read_bytes(), b"keep me\n")
        self.assertEqual(protected.stat().st_mode & 0o777, 0o444)

    def test_no_output_replaces_a_manifest_or_a_page_the_command_does_not_read(self):
        # Without --manifest the lab reads its own; the user's manifest and pages beside it are still not outputs.
        users_manifest = self.folder / "m.json"
        users_manifest.write_bytes(self.manifest.read_bytes())
        # A manifest written by hand, its span checks first: "sources" only after the first 4 KB.
        value = json.loads(self.manifest.read_text(encoding="utf-8"))
        by_hand = self.folder / "by-hand.json"
        by_hand.write_text("\n" + json.dumps({"note": "x" * 5000, **value}), encoding="utf-8")
        # And one in the middle of a hand edit: a trailing comma, which no JSON reader takes.
        mid_edit = self.folder / "mid-edit.json"
        mid_edit.write_text(json.dumps(value, indent=2)[:-2] + ",\n}", encoding="utf-8")
        page = self.folder / "docs" / "aster-copy-v1.md"
        for target, code in (
            (users_manifest, "output_is_manifest"),
            (by_hand, "output_is_manifest"),
            (mid_edit, "output_is_manifest"),
            (page, "output_is_page"),
        ):
            before = target.read_bytes()
            for args in (
                ["export", str(self.result), "--policy", "paragraph", "--output", str(target)],
                ["--output", str(target)],
                ["--output", str(self.folder / "r.json"), "--html", str(target)],
            ):
                with self.subTest(target=target.name, args=args[:2]):
                    self.assert_one_line_refusal(run_lab(*args), code, exit_code=2)
                    self.assertEqual(target.read_bytes(), before)
        self.assertFalse((self.folder / "r.json").exists())
        # A page's name is refused even before the page exists: the lab writes none, so a second run would refuse it.
        self.assert_one_line_refusal(run_lab("--output", str(self.folder / "new.md")), "output_is_page", exit_code=2)
        self.assertFalse((self.folder / "new.md").exists())
        # A result is replaced as before, and pin still rewrites its own manifest, whatever its name.
        self.assertEqual(run_lab("--output", str(self.result)).returncode, 0)
        named_as_page = self.folder / "m.md"
        self.assertEqual(run_lab("pin", "--manifest", str(named_as_page), str(page)).returncode, 0)
        self.assertEqual(run_lab("pin", "--manifest", str(named_as_page), str(page)).returncode, 0)
        # But not over a page that is no manifest.
        self.assert_one_line_refusal(run_lab("pin", "--manifest", str(page), str(page)), "output_is_page", exit_code=2)

    def test_each_kind_of_file_the_lab_writes_is_replaced_only_by_its_kind(self):
        report, export = self.folder / "report.html", self.folder / "export.jsonl"
        result = self.result
        manifest = ["--manifest", str(self.manifest)]
        self.assertEqual(run_lab(*manifest, "--output", str(result), "--html", str(report)).returncode, 0)
        self.assertEqual(run_lab("export", str(result), "--policy", "paragraph", "--output", str(export)).returncode, 0)
        # Each again, over its own kind: replaced.
        self.assertEqual(run_lab(*manifest, "--output", str(result), "--html", str(report)).returncode, 0)
        self.assertEqual(run_lab("export", str(result), "--policy", "paragraph", "--output", str(export)).returncode, 0)
        for args, target, code in (
            (["scan", *manifest, "--html", str(result)], result, "output_is_result"),
            ([*manifest, "--output", str(report)], report, "output_is_report"),
            ([*manifest, "--output", str(self.folder / "r2.json"), "--html", str(export)], export, "output_is_export"),
            (["export", str(result), "--policy", "paragraph", "--output", str(report)], report, "output_is_report"),
        ):
            with self.subTest(args=args[:3], target=target.name):
                before = target.read_bytes()
                self.assert_one_line_refusal(run_lab(*args), code, exit_code=2)
                self.assertEqual(target.read_bytes(), before)
        # A file of the user's own, of no kind the lab writes, is theirs to overwrite.
        other = self.folder / "notes.html"
        other.write_text("<!DOCTYPE html>\n<title>mine</title>\n", encoding="utf-8")
        self.assertEqual(
            run_lab(*manifest, "--output", str(self.folder / "r3.json"), "--html", str(other)).returncode, 0
        )

    def test_the_kinds_are_told_whatever_the_layout(self):
        from lab_io.outputs import existing_kind

        result = json.loads(self.result.read_text(encoding="utf-8"))
        manifest = json.loads(self.manifest.read_text(encoding="utf-8"))
        cases = {
            # A result re-indented with its keys sorted, and one policy's index saved alone: validate reads both.
            "sorted.json": (json.dumps(result, sort_keys=True), "result"),
            "index.json": (json.dumps(result["indexes"]["paragraph"]), "result"),
            # A manifest saved with a byte order mark (which the loader refuses, so it still holds the pins).
            "bom.json": ("\ufeff" + json.dumps(manifest), "manifest"),
            # An export whose first record runs past the first 4 KB.
            "long.jsonl": (
                json.dumps(
                    {"id": "a" * 64, "text": "x " * 4000, "metadata": {"source_id": "p", "document_revision": "r"}}
                )
                + "\n",
                "export",
            ),
            # Nested past what a reader recurses through: no kind, and no traceback.
            "deep.json": ('{"a":' + "[" * 100_000 + "]" * 100_000 + ' , "x": "' + "y" * 5000 + '"}', None),
            # A command's --json saved by the shell.
            "diff.json": (json.dumps({"diff_version": 4, "policies": [{"chunk_id": "a", "text_sha256": "b"}]}), None),
        }
        for name, (text, kind) in cases.items():
            with self.subTest(name=name):
                path = self.folder / name
                path.write_text(text, encoding="utf-8")
                self.assertEqual(existing_kind(path), kind)

    def test_export_never_overwrites_the_manifest_or_a_source(self):
        source = self.folder / "docs" / "aster-copy-v1.md"
        cases = [
            # The manifest given, after or before the command, and a source it pins.
            ["export", str(self.result), "--policy", "paragraph", "--manifest", str(self.manifest), "--output"],
            ["--manifest", str(self.manifest), "export", str(self.result), "--policy", "paragraph", "--output"],
        ]
        for args in cases:
            for target in (self.manifest, source, self.result):
                with self.subTest(args=args[:2], target=target.name):
                    before = target.read_bytes()
                    completed = run_lab(*args, str(target))
                    self.assert_one_line_refusal(completed, "output_is_input", exit_code=2)
                    self.assertEqual(target.read_bytes(), before)
        # A manifest that cannot be loaded (a source fails its pin) still protects the sources it names.
        broken = self.folder / "broken.json"
        value = json.loads(self.manifest.read_text(encoding="utf-8"))
        value["sources"][0]["sha256"] = "0" * 64
        broken.write_text(json.dumps(value), encoding="utf-8")
        source_named = self.folder / value["sources"][0]["path"]
        before = source_named.read_bytes()
        completed = run_lab(
            "export",
            str(self.result),
            "--policy",
            "paragraph",
            "--manifest",
            str(broken),
            "--output",
            str(source_named),
        )
        self.assert_one_line_refusal(completed, "output_is_input", exit_code=2)
        self.assertEqual(source_named.read_bytes(), before)
        # Without --manifest, the lab's own manifest and sources are protected.
        for target in (ROOT / "manifest.json", ROOT / "docs" / "aster-copy-v2.md"):
            with self.subTest(target=target.name):
                completed = run_lab("export", str(self.result), "--policy", "paragraph", "--output", str(target))
                self.assert_one_line_refusal(completed, "output_is_input", exit_code=2)

    def test_the_pipe_message_offers_stdout_only_where_it_is_accepted(self):
        pipe = self.folder / "pipe"
        os.mkfifo(pipe)
        main_job = run_lab("--manifest", str(self.manifest), "--output", str(pipe))
        self.assert_one_line_refusal(main_job, "output_not_file", exit_code=2)
        self.assertIn("use '-' for stdout", main_job.stderr)
        pin = run_lab("pin", "docs/aster-copy-v1.md", "--manifest", str(pipe), cwd=self.folder)
        self.assert_one_line_refusal(pin, "output_not_file", exit_code=2)
        self.assertNotIn("'-'", pin.stderr)

    def test_write_outputs_names_the_target_not_the_staged_file(self):
        target = self.folder / "out.json"
        target.write_bytes(b"the earlier output\n")
        other = self.folder / "report.html"
        with mock.patch.object(outputs.os, "fsync", side_effect=OSError(errno.EFBIG, "File too large")):
            with self.assertRaises(UsageError) as caught:
                outputs.write_outputs([(target, b"{}"), (other, b"<p>")])
        error = caught.exception
        self.assertEqual((error.code, error.where, error.what), ("output_unwritable", str(target), "File too large"))
        self.assertEqual(target.read_bytes(), b"the earlier output\n")
        self.assertFalse(other.exists())
        self.assertEqual(staged_leftovers(self.folder), [])


# What the lab ships, as docs/strict-input.md states it, relative to the lab's folder.
SHIPPED_IN_STAND_IN = (
    "run.py",
    "chunk_index.py",
    "README.md",
    "manifest.json",
    "expected-result.json",
    ".gitignore",
    ".ci/run",
    "docs/SPEC.md",
    "docs/examples/manifest.json",
    "docs/examples/expected-result.json",
    "docs/examples/rebuild.py",
    "tests/support.py",
    "lab_io/outputs.py",
    "commands/main_job.py",
    "grammars/__init__.py",
    "views/summary.py",
    ".git/config",
)


class TheLabsOwnFiles(LabTestCase):
    """No output replaces a file the lab ships; a user's result in the checkout is still theirs to write.

    A temporary folder stands in for the lab's (``outputs.LAB_FOLDER``), so a
    check that fails replaces only the stand-in's files, never the real ones.
    """

    def setUp(self) -> None:
        super().setUp()
        self.lab = self.folder / "lab"
        for name in SHIPPED_IN_STAND_IN:
            (self.lab / name).parent.mkdir(parents=True, exist_ok=True)
            (self.lab / name).write_bytes(b"shipped\n")
        patch = mock.patch.object(outputs, "LAB_FOLDER", os.path.realpath(self.lab))
        patch.start()
        self.addCleanup(patch.stop)
        self.work = self.folder / "work"
        self.manifest = self.copy_inputs(self.work)
        self.result = self.work / "result.json"
        self.result.write_bytes(REFERENCE.read_bytes())

    def refusal_code(self, relative: str) -> str | None:
        """The code ``checked_output`` refuses ``lab/relative`` with, or ``None`` when it is accepted."""
        try:
            outputs.checked_output(str(self.lab / relative), ())
        except UsageError as error:
            return error.code
        return None

    def test_every_shipped_file_and_every_new_file_in_its_folders_is_refused(self):
        new_in_lab_folders = ("docs/notes.md", "tests/test_new.py", "commands/new.py", "views/x.json", ".ci/new")
        for relative in (*SHIPPED_IN_STAND_IN, *new_in_lab_folders, "new.py", "readme.md"):
            with self.subTest(relative=relative):
                self.assertEqual(self.refusal_code(relative), "output_is_lab_file")

    def test_a_result_of_the_users_own_in_the_checkout_is_allowed(self):
        (self.lab / "out").mkdir()
        (self.lab / "result.json").write_bytes(b"an earlier run\n")
        for relative in ("result.json", "report.html", "m.json", "out/result.json", "out/notes.py", "docs.json"):
            with self.subTest(relative=relative):
                self.assertIsNone(self.refusal_code(relative))
        # Run as the quick start does, twice: the second run replaces the first one's result.
        for _ in range(2):
            completed = run_lab("--manifest", str(self.manifest), "--output", str(self.lab / "result.json"))
            self.assertEqual(completed.returncode, 0, completed.stderr)
            self.assertEqual((self.lab / "result.json").read_bytes(), REFERENCE.read_bytes())

    def test_a_shipped_file_reached_through_a_linked_folder_is_refused(self):
        linked = self.folder / "linked"
        linked.symlink_to(self.lab, target_is_directory=True)
        self.assert_one_line_refusal(
            run_lab("--manifest", str(self.manifest), "--output", str(linked / "README.md")),
            "output_is_lab_file",
            exit_code=2,
        )

    def test_every_command_that_writes_refuses_and_leaves_the_file_as_it_was(self):
        chunks = self.work / "chunks.jsonl"
        chunks.write_text('{"source_id": "aster-copy-v1", "text": "Call save_copy"}\n', encoding="utf-8")
        manifest = str(self.manifest)
        runs = {
            "--output": lambda target: ["--manifest", manifest, "--output", target],
            "--html": lambda target: ["--manifest", manifest, "--output", str(self.result), "--html", target],
            "judge --html": lambda target: ["judge", str(chunks), "--manifest", manifest, "--html", target],
            "export --output": lambda target: ["export", str(self.result), "--policy", "paragraph", "--output", target],
            "pin --manifest": lambda target: ["pin", "--manifest", target, str(self.work / "docs")],
            "scan --add-checks": lambda target: ["scan", "--add-checks", "--manifest", target],
        }
        expected = {
            "README.md": "is one of the files the lab ships; writing it would replace it",
            "run.py": "is one of the lab's own program files; writing it would replace the lab",
            "docs/examples/manifest.json": (
                "is in the lab's own docs/ folder, whose files the lab ships; write outputs elsewhere"
            ),
        }
        for command, arguments in runs.items():
            for relative, message in expected.items():
                target = self.lab / relative
                with self.subTest(command=command, target=relative):
                    completed = run_lab(*arguments(str(target)), cwd=self.work)
                    self.assertEqual(
                        (completed.returncode, completed.stdout, completed.stderr),
                        (2, "", f"error: output_is_lab_file: {target}: {message}\n"),
                    )
                    self.assertEqual(target.read_bytes(), b"shipped\n")

    def test_the_real_checkout_is_protected_as_the_docs_state(self):
        outputs.LAB_FOLDER = os.path.realpath(ROOT)  # the patch of setUp restores the stand-in's afterwards
        packages = sorted(entry.name for entry in ROOT.iterdir() if (entry / "__init__.py").is_file())
        self.assertIn("lab_io", packages)
        shipped = ["README.md", "run.py", "docs/SPEC.md", "docs/examples/expected-result.json", ".ci/run"]
        for relative in (*shipped, *(f"{package}/__init__.py" for package in packages)):
            with self.subTest(relative=relative):
                with self.assertRaises(UsageError) as caught:
                    outputs.checked_output(str(ROOT / relative), ())
                self.assertEqual(caught.exception.code, "output_is_lab_file")
