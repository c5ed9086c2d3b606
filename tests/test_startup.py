"""The main job's startup: a quick parser that parses as the full one does, and only the modules it uses."""

from __future__ import annotations

import ast
import contextlib
import glob
import io
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import unittest

from commands import main_job
from commands import parser as command_parser
from grammars import LazyPattern
from tests.support import MANIFEST, ROOT, LabTestCase, run_lab, syntax_nodes

# Modules only other commands use; the main job must not pay for importing them.
LAZY_MODULES = (
    "argparse",
    "checks.caveats",
    "checks.context_windows",
    "checks.size_sweep",
    "commands.options",
    "commands.parser",
    "commands.validate",
    # dataclasses imports inspect, and that ast, dis and tokenize: 9 ms of every start (docs/performance.md)
    "dataclasses",
    "grammars.version3",
    "judge",
    "results.reembed",
    "results.validate",
    "source_pins",
    "textwrap",
    "views.terminal",
)


class QuickParser(LabTestCase):
    """The main job's command line parses as the full parser parses it: without a parser, or with the quick one."""

    def quick_namespace(self, arguments: list[str]):
        """The quick parser's namespace for ``arguments``, or ``None`` when it hands them on."""
        try:
            return vars(command_parser.build_parser(quick=True).parse_args(arguments))
        except command_parser.FullParserNeeded:
            return None

    def test_main_job_command_lines_parse_as_the_full_parser_parses_them(self):
        cases = [
            ["--output", "out.json"],
            ["--output=out.json", "--html", "report.html"],
            ["--manifest", "m.json", "--output", "-"],
            ["--output", "a.json", "--output", "a.json"],
            ["--manifest=", "--output", "-"],
            ["--html", "report.html"],
        ]
        # A parse leaves the parser as it was (commands.parser reuses one per process): one serves every case.
        full = command_parser.build_parser()
        for arguments in cases:
            with self.subTest(arguments=arguments):
                quick = self.quick_namespace(arguments)
                self.assertIsNotNone(quick)
                self.assertEqual(quick, vars(full.parse_args(arguments)))

    def test_a_command_help_or_a_mistake_goes_to_the_full_parser(self):
        cases = [
            ["validate", "result.json"],
            ["--output", "x", "show"],
            ["valdate"],
            ["--output", "-", "extra"],
            ["-h"],
            ["--he"],
            ["--output", "x", "--help"],
            ["--output"],
            ["--output", "x", "--bogus"],
            ["-hx"],
            ["--out", "x"],
            ["--output", "a.json", "--output", "b.json"],
        ]
        for arguments in cases:
            with self.subTest(arguments=arguments):
                self.assertIsNone(self.quick_namespace(arguments))

    def test_plain_main_job_command_lines_need_no_parser_and_read_as_the_parser_reads_them(self):
        cases = [
            ["--output", "out.json"],
            ["--output", "-"],
            ["--output", ""],
            ["--html", "r.html", "--manifest", "m.json", "--output", "o.json"],
            ["--output", "a.json", "--output", "a.json"],
            ["--output", "validate"],
            ["--manifest", "a b", "--output", "x=y"],
        ]
        full = command_parser.build_parser()
        for arguments in cases:
            with self.subTest(arguments=arguments):
                self.assertEqual(vars(main_job.main_job_arguments(arguments)), vars(full.parse_args(arguments)))

    def test_anything_but_the_plain_form_is_left_to_the_parser(self):
        cases = [
            [],
            ["--output"],
            ["--out", "x"],
            ["--output=x"],
            ["--html", "r.html"],
            ["--manifest", "m.json"],
            ["--output", "-x"],
            ["--output", "--"],
            ["--output", "x", "validate"],
            ["validate", "x"],
            ["--output", "x", "-h", "y"],
            ["--version", "--output"],
            # Given twice with different values: the parser refuses it.
            ["--output", "a.json", "--output", "b.json"],
            ["--output", "x", "--html", "r.html", "--html", "s.html"],
        ]
        for arguments in cases:
            with self.subTest(arguments=arguments):
                self.assertIsNone(main_job.main_job_arguments(arguments))

    def test_a_command_line_naming_a_command_parses_as_the_full_parser_parses_it(self):
        cases = [
            ["validate", "result.json"],
            ["--manifest", "m.json", "validate", "--manifest", "m.json", "r.json"],
            ["--manifest", "export", "export", "--policy", "paragraph", "r.json"],
            ["--manifest", "m.json", "export", "--policy", "paragraph", "--carry-caveats", "r.json"],
            ["show", "--chunks", "c.jsonl"],
            ["judge", "c.jsonl", "--json"],
            ["scan", "--json"],
            ["sweep"],
            ["context", "--json"],
            ["diff", "a.json", "b.json"],
            ["pin", "docs"],
            ["--output", "x", "validate", "r.json"],
        ]
        full = command_parser.build_parser()
        for arguments in cases:
            with self.subTest(arguments=arguments):
                parser, args = command_parser.parsed_arguments(command_parser.build_parser(quick=True), arguments)
                self.assertEqual(vars(args), vars(full.parse_args(arguments)))
                self.assertFalse(parser.quick)

    def test_a_command_built_alone_has_the_full_parsers_help(self):
        full = command_parser.build_parser()._subparsers._group_actions[0].choices
        for name in command_parser.COMMANDS:
            with self.subTest(command=name):
                alone = command_parser.build_parser(quick=True, command=name)._subparsers._group_actions[0].choices
                self.assertEqual(alone[name].format_help(), full[name].format_help())

    def test_every_command_is_named_in_the_quick_parser_in_the_full_parsers_order(self):
        quick = command_parser.build_parser(quick=True)._subparsers._group_actions[0].choices
        full = command_parser.build_parser()._subparsers._group_actions[0].choices
        self.assertEqual(list(quick), list(full))


class CommandsModule(LabTestCase):
    """The command line's two halves: ``commands.main_job`` runs the main job, ``commands.parser`` parses everything else."""

    def test_the_main_job_spelled_for_the_parser_still_writes_the_reference(self):
        reference = (ROOT / "expected-result.json").read_bytes()
        output = str(self.folder / "result.json")
        cases = [
            ["--output=" + output],
            ["--output", output, "--output=" + output],
            ["--manifest", str(MANIFEST), "--output=" + output, "--html=" + str(self.folder / "report.html")],
        ]
        for arguments in cases:
            with self.subTest(arguments=arguments):
                # None of these is the plain form, so commands.parser parses them and main_job runs the main job.
                self.assertIsNone(main_job.main_job_arguments(arguments))
                completed = run_lab(*arguments)
                self.assertEqual(completed.returncode, 0, completed.stderr)
                self.assertEqual((self.folder / "result.json").read_bytes(), reference)
                (self.folder / "result.json").unlink()

    def test_no_module_of_the_command_line_imports_run(self):
        # Run as a script, run.py is __main__: an import of run would load a second copy of it.
        forbidden = {str(path.relative_to(ROOT)): {"run"} for path in (ROOT / "commands").glob("*.py")}
        # What the main job imports must not import the parsers either.
        forbidden["commands/basics.py"] = {"run", "commands.parser"}
        forbidden["commands/main_job.py"] = {"run"}
        for module, names in forbidden.items():
            nodes = syntax_nodes(ast.parse((ROOT / module).read_text(encoding="utf-8")))
            imported = {alias.name for node in nodes if isinstance(node, ast.Import) for alias in node.names}
            imported |= {node.module for node in nodes if isinstance(node, ast.ImportFrom)}
            with self.subTest(module=module):
                self.assertFalse(imported & names, imported & names)


class LazyPatterns(LabTestCase):
    """A ``LazyPattern`` matches as the compiled pattern does, whichever method is called first."""

    def test_each_method_answers_as_the_compiled_pattern(self):
        cases = [
            (r" {0,3}(=+|-+)[ \t]*", 0, ["===", "  --- ", "=-", "", "    ==="]),
            (r"^#{1,6} (.+)$", re.MULTILINE, ["# A\nb\n## C", "#A", "####### x"]),
        ]
        for pattern, flags, texts in cases:
            compiled = re.compile(pattern, flags)
            for method in ("match", "fullmatch", "search", "findall"):
                lazy = LazyPattern(pattern, flags)
                for text in texts:
                    with self.subTest(pattern=pattern, method=method, text=text):
                        found = getattr(lazy, method)(text)
                        expected = getattr(compiled, method)(text)
                        if method == "findall":
                            self.assertEqual(found, expected)
                        else:
                            self.assertEqual(found and found.span(), expected and expected.span())


class MainJobImports(LabTestCase):
    """The main job imports neither the other commands (``commands.parser``) nor their modules, parsers or help."""

    def answer_of(self, script: str, answer: str) -> object:
        """Run ``script`` in a fresh interpreter (stdout left out), then read the JSON it wrote to ``answer``."""
        path = self.folder / "answer.json"
        completed = subprocess.run(
            [sys.executable, "-c", f"import json, sys\nimport run\n{script}open({str(path)!r}, 'w').write({answer})\n"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return json.loads(path.read_text(encoding="utf-8"))

    def test_the_main_job_leaves_the_other_commands_modules_unimported(self):
        output = self.folder / "result.json"
        answer = self.answer_of(
            f"code = run.main(['--output', {str(output)!r}])\n",
            f"json.dumps([code, sorted(name for name in {LAZY_MODULES!r} if name in sys.modules)])",
        )
        self.assertEqual(answer, [0, []])
        self.assertEqual(output.read_bytes(), (ROOT / "expected-result.json").read_bytes())

    def test_show_and_the_html_report_leave_the_scans_rules_unimported(self):
        # They draw a pair's verdicts, which need no rule of scan's (whose patterns take a while to compile).
        report = self.folder / "report.html"
        answer = self.answer_of(
            "codes = [run.main(['show', '--policy', 'paragraph']),\n"
            f"         run.main(['--output', {str(self.folder / 'r.json')!r}, '--html', {str(report)!r}])]\n",
            "json.dumps([codes, 'checks.caveats.pairing' in sys.modules])",
        )
        self.assertEqual(answer, [[0, 0], False])
        self.assertTrue(report.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html>"))


class OldInterpreter(LabTestCase):
    """On Python older than 3.10, ``run.py`` says so in one line and exits 2 before importing the lab."""

    EXPECTED = "error: python_too_old: run.py: the chunk-boundary lab needs Python 3.10 or newer; this is Python 3.9\n"

    def test_a_version_below_3_10_is_refused_before_the_lab_is_imported(self):
        # The version is stood in for, so the check runs on whatever interpreter runs the tests.
        script = (
            "import runpy, sys\n"
            "sys.version_info = (3, 9, 18, 'final', 0)\n"
            f"runpy.run_path({str(ROOT / 'run.py')!r}, run_name='__main__')\n"
        )
        output = self.folder / "result.json"
        completed = subprocess.run(
            [sys.executable, "-c", script, "--output", str(output)],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual((completed.returncode, completed.stdout, completed.stderr), (2, "", self.EXPECTED))
        self.assertFalse(output.exists())

    def test_a_real_python_3_9_gets_the_same_line(self):
        interpreter = python_3_9()
        if interpreter is None:
            self.skipTest("no Python 3.9 on this machine")
        completed = subprocess.run(
            [interpreter, str(ROOT / "run.py"), "--output", str(self.folder / "result.json")],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual((completed.returncode, completed.stdout, completed.stderr), (2, "", self.EXPECTED))


class InterruptedStartup(unittest.TestCase):
    """Ctrl-C while ``run.py`` is still importing the lab ends as at any other moment: one line, exit 130."""

    def test_ctrl_c_during_the_import_is_one_line_and_exit_130(self):
        class InterruptingFinder:
            # Stands in for the key press: the import of the command line is where startup spends its time.
            def find_spec(self, name, path=None, target=None):
                if name == "commands.main_job":
                    raise KeyboardInterrupt
                return None

        saved = sys.modules.pop("commands.main_job")
        sys.meta_path.insert(0, InterruptingFinder())
        stderr = io.StringIO()
        try:
            with contextlib.redirect_stderr(stderr), self.assertRaises(SystemExit) as stopped:
                try:
                    runpy.run_path(str(ROOT / "run.py"), run_name="__main__")
                except KeyboardInterrupt:
                    self.fail("the interrupt escaped run.py as a traceback")
        finally:
            del sys.meta_path[0]
            sys.modules["commands.main_job"] = saved
        self.assertEqual(stopped.exception.code, 130)
        self.assertEqual(
            stderr.getvalue(),
            "error: interrupted: run.py: stopped by SIGINT; every output file is whole or as it was\n",
        )


def python_3_9() -> str | None:
    """A Python 3.9 that runs here (a version manager's shim may name one it cannot start), or ``None``."""
    candidates = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9*/bin/python3.9")))
    candidates.append(shutil.which("python3.9"))
    for path in filter(None, candidates):
        probe = subprocess.run(
            [path, "-c", "import sys; sys.exit(sys.version_info[:2] != (3, 9))"], capture_output=True
        )
        if probe.returncode == 0:
            return path
    return None
