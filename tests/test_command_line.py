"""The command line: options read alike by every command, help, version, and one inert line per refusal."""

from __future__ import annotations

import errno
import json
import os

from commands import parser as command_parser
from commands.basics import LAB_VERSION
from lab_io.errors import IngestionError, UsageError, one_line
from tests.support import ROOT, LabTestCase, run_lab

REFERENCE = str(ROOT / "expected-result.json")


class ManifestOption(LabTestCase):
    """``--manifest`` before or after the command means the same to every command that reads one."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = str(self.copy_inputs())

    def test_before_and_after_the_command_give_the_same_run(self):
        commands = [
            ["validate", REFERENCE],
            ["show", "--policy", "paragraph"],
            ["sweep", "--sizes", "80", "220"],
            ["export", REFERENCE, "--policy", "paragraph"],
        ]
        for command in commands:
            with self.subTest(command=command[0]):
                after = run_lab(*command, "--manifest", self.manifest, env={"NO_COLOR": "1"})
                before = run_lab("--manifest", self.manifest, *command, env={"NO_COLOR": "1"})
                self.assertEqual(after.returncode, 0, after.stderr)
                self.assertEqual((before.returncode, before.stdout, before.stderr), (0, after.stdout, after.stderr))

    def test_validate_with_a_manifest_checks_the_pins_from_either_place(self):
        for args in (
            ["validate", REFERENCE, "--manifest", self.manifest],
            ["--manifest", self.manifest, "validate", REFERENCE],
        ):
            with self.subTest(args=args[0]):
                completed = run_lab(*args)
                self.assertEqual(completed.returncode, 0, completed.stderr)
                self.assertIn("current: its documents match the pins of", completed.stdout)

    def test_pin_takes_its_manifest_from_either_place_and_needs_one(self):
        (self.folder / "docs" / "extra.md").write_text("# Extra\n\nMore text.\n", encoding="utf-8")
        completed = run_lab("--manifest", "manifest.json", "pin", "docs/extra.md", cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        sources = json.loads((self.folder / "manifest.json").read_text(encoding="utf-8"))["sources"]
        self.assertEqual([source["source_id"] for source in sources][-1], "docs/extra")
        self.assert_one_line_refusal(run_lab("pin", "docs/extra.md", cwd=self.folder), "usage", exit_code=2)

    def test_two_different_manifests_are_a_usage_error(self):
        completed = run_lab("--manifest", self.manifest, "show", "--manifest", str(ROOT / "manifest.json"))
        self.assert_one_line_refusal(completed, "usage", exit_code=2)
        same = run_lab("--manifest", self.manifest, "show", "--manifest", self.manifest, env={"NO_COLOR": "1"})
        self.assertEqual(same.returncode, 0, same.stderr)

    def test_a_command_that_reads_no_manifest_refuses_one(self):
        completed = run_lab("--manifest", self.manifest, "diff", REFERENCE, REFERENCE)
        self.assert_one_line_refusal(completed, "usage", exit_code=2)


class HelpAndVersion(LabTestCase):
    def test_version(self):
        completed = run_lab("--version")
        self.assertEqual(completed.returncode, 0)
        self.assertEqual(completed.stdout, f"run.py (chunk-boundary lab) {LAB_VERSION}\n")

    def test_help_and_version_on_a_full_stdout_are_refused(self):
        for args in (["--version"], ["--help"], ["pin", "--help"]):
            with self.subTest(args=args):
                completed = run_lab(*args, stdout_capacity=10)
                self.assertEqual(
                    (completed.returncode, completed.stderr),
                    (
                        2,
                        f"error: output_unwritable: stdout: {os.strerror(errno.ENOSPC)} after 10 bytes; "
                        "the output is incomplete\n",
                    ),
                )

    def test_no_arguments_print_the_usage_and_exit_2(self):
        completed = run_lab()
        self.assertEqual(completed.returncode, 2)
        self.assertEqual(completed.stdout, "")
        # One line, as every refusal is, naming both forms of the command line.
        lines = completed.stderr.splitlines()
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("error: usage: run.py: no command or --output given"), lines)
        self.assertIn("--output FILE", lines[0])
        self.assertIn("COMMAND [options]", lines[0])

    def test_every_command_has_an_example_and_the_exit_codes(self):
        commands = [None, "validate", "show", "diff", "export", "pin", "sweep", "scan", "context", "judge", "retrieve"]
        for command in commands:
            with self.subTest(command=command):
                completed = run_lab(*([] if command is None else [command]), "--help")
                self.assertEqual(completed.returncode, 0)
                example = completed.stdout.split("example:\n", 1)[1].splitlines()[0]
                self.assertTrue(example.startswith("  python run.py"), example)
                if command is not None:
                    self.assertIn(f"python run.py {command}", example)
                self.assertIn("2  usage", completed.stdout)

    def test_each_command_is_added_by_its_own_function(self):
        parser = command_parser.build_parser()
        names = parser._subparsers._group_actions[0].choices
        self.assertEqual(
            list(names), ["validate", "show", "diff", "export", "pin", "sweep", "scan", "context", "judge", "retrieve"]
        )
        self.assertEqual(len(command_parser.COMMANDS), len(names))


class OneInertLine(LabTestCase):
    """Untrusted text in any refusal is one line with its control characters escaped."""

    HOSTILE = "a\nb\rc\x1b[2J\u202ed"

    def assert_inert(self, completed, code: str, exit_code: int) -> None:
        self.assert_one_line_refusal(completed, code, exit_code)
        for raw in ("\x1b", "\r", "\u202e"):
            self.assertNotIn(raw, completed.stderr)

    def test_the_error_type_renders_its_own_message(self):
        error = IngestionError("code", "where\n\x1b[31m", "what\r\n")
        self.assertEqual(str(error), "code: where\\n\\x1b[31m: what\\r\\n")
        self.assertEqual(one_line("plain text é"), "plain text é")
        self.assertEqual(one_line("\udcff"), "\\udcff")
        self.assertEqual(str(UsageError("c", "w", "\x85\u2028")), "c: w: \\x85\\u2028")

    def test_paths_with_control_characters_in_load_errors(self):
        hostile = str(self.folder / self.HOSTILE)
        cases = [
            (["--manifest", hostile, "--output", str(self.folder / "r.json")], "file_missing", 1),
            (["--manifest", hostile, "show"], "file_missing", 1),
            (["sweep", "--manifest", hostile], "file_missing", 1),
            (["validate", REFERENCE, "--manifest", hostile], "file_missing", 1),
            (["validate", hostile], "file_missing", 1),
            (["diff", hostile, REFERENCE], "file_missing", 1),
            (["export", hostile, "--policy", "paragraph"], "file_missing", 1),
            (["--output", hostile + "/"], "output_is_folder", 2),
        ]
        for args, code, exit_code in cases:
            with self.subTest(args=args[:2]):
                self.assert_inert(run_lab(*args), code, exit_code)

    def test_pin_paths_with_control_characters(self):
        self.copy_inputs()
        before = (self.folder / "manifest.json").read_bytes()
        completed = run_lab("pin", "docs/" + self.HOSTILE + ".md", "--manifest", "manifest.json", cwd=self.folder)
        self.assert_inert(completed, "path_unprintable", 1)
        # The path shown as JSON with every non-ASCII character escaped, as errors.quoted promises.
        shown = json.dumps("docs/" + self.HOSTILE + ".md", ensure_ascii=True)
        self.assertEqual(
            completed.stderr,
            f"error: path_unprintable: manifest.json: pin {shown}: {shown} holds a control or format character\n",
        )
        self.assertEqual((self.folder / "manifest.json").read_bytes(), before)

    def test_usage_errors_from_argparse(self):
        cases = [
            ["valid\x1b[2Jate"],
            ["--output", "x.json", "--bogus\nsecond line"],
            ["show", "--policy", "para\ngraph"],
            ["validate", REFERENCE, "--index-id", "paragraph=\x1b"],
        ]
        for args in cases:
            with self.subTest(args=args):
                self.assert_inert(run_lab(*args), "usage", 2)

    def test_bytes_that_are_not_utf8_in_pin_arguments(self):
        self.copy_inputs()
        (self.folder / "docs" / "extra.md").write_text("# Extra\n\nMore text.\n", encoding="utf-8")
        before = (self.folder / "manifest.json").read_bytes()
        # What Python makes of the byte 0xff in argv (surrogateescape).
        bad = "caf\udcff"
        for option in ("--title", "--url", "--fact-status", "--source-id", "--version"):
            with self.subTest(option=option):
                completed = run_lab("pin", "docs/extra.md", "--manifest", "manifest.json", option, bad, cwd=self.folder)
                self.assert_inert(completed, "argument_not_utf8", 2)
                self.assertIn(option, completed.stderr)
                self.assertIn("\\udcff", completed.stderr)
        completed = run_lab("pin", "docs/\udcff.md", "--manifest", "manifest.json", cwd=self.folder)
        self.assert_inert(completed, "argument_not_utf8", 2)
        self.assertEqual((self.folder / "manifest.json").read_bytes(), before)
