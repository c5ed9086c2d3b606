"""The lab's messages on a deep docs tree: names shown whole, where two texts part, short lists, counts.

The pages live three folders deep under a long common prefix, as a docs
site's do (``content/en/docs/tasks/configure-pod-container/...``): their ids
share their first 60 characters and differ only at the end, which is what a
message must keep.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import re
import unittest

import run
from commands import parser as command_parser
from lab_io.errors import IngestionError, quoted, quoted_name, text_difference
from results import validate
from tests.support import ROOT, LabTestCase, fixture_result, reforge_index, run_lab

DEEP = "content/en/docs/tasks/configure-pod-container"
PAGES = ("assign-cpu-resource", "assign-memory-resource")
INSTRUCTION = "To set a limit, add the `limits` field."
QUALIFIER = "The limit must not be lower than the request."


def page_text(name: str) -> str:
    return f"# {name}\n\n{INSTRUCTION}\n\n{QUALIFIER}\n"


class QuotedNames(unittest.TestCase):
    """``quoted_name`` keeps a name whole up to 200 characters, and its start and end past that."""

    def test_a_name_is_whole_up_to_the_bound(self) -> None:
        name = f"{DEEP}/{PAGES[0]}"
        self.assertEqual(quoted_name(name), f'"{name}"')
        self.assertEqual(quoted_name("x" * 200), '"' + "x" * 200 + '"')

    def test_a_longer_name_loses_its_middle_and_keeps_its_end(self) -> None:
        name = "docs/" + "x" * 280 + "/assign-cpu"
        shown = quoted_name(name)
        # 60 characters of its start, 140 of its end, each quoted.
        self.assertEqual(shown, '"docs/' + "x" * 55 + '"…"' + "x" * 129 + '/assign-cpu"')

    def test_a_name_stays_inert(self) -> None:
        self.assertEqual(quoted_name("a\x1b[2J\n"), '"a\\u001b[2J\\n"')
        # Cut before it is escaped: the escapes on both sides are whole.
        self.assertEqual(quoted_name("\x1b" * 201, limit=6), '"\\u001b\\u001b"…"' + "\\u001b" * 4 + '"')

    def test_page_text_is_still_cut_at_sixty(self) -> None:
        self.assertEqual(quoted("y" * 61), '"' + "y" * 60 + '"…')


class DeepTreeTestCase(LabTestCase):
    """Two pages under ``DEEP`` pinned into ``m.json`` with one span check each, at offsets."""

    def setUp(self) -> None:
        super().setUp()
        for name in PAGES:
            path = self.folder / DEEP / f"{name}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(page_text(name), encoding="utf-8")
        pinned = self.lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "content")
        self.assertEqual(pinned.returncode, 0, pinned.stderr)
        manifest = json.loads((self.folder / "m.json").read_text(encoding="utf-8"))
        manifest["span_checks"] = [self.span_check(name) for name in PAGES]
        (self.folder / "m.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")

    def span_check(self, name: str) -> dict:
        text = page_text(name)
        spans = {}
        for role, quote in (("instruction", INSTRUCTION), ("qualifier", QUALIFIER)):
            start = text.index(quote)
            spans[role] = {"start": start, "end": start + len(quote), "quote": quote}
        return {"name": f"scan:{DEEP}/{name}:3", "source_id": f"{DEEP}/{name}", **spans}

    def lab(self, *args: str):
        return run_lab(*args, cwd=self.folder)


class WholeNames(DeepTreeTestCase):
    def test_a_hash_mismatch_names_the_source_and_its_path_whole(self) -> None:
        (self.folder / DEEP / "assign-memory-resource.md").write_text("# edited\n", encoding="utf-8")
        completed = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assert_one_line_refusal(completed, "hash_mismatch")
        self.assertIn(
            f'm.json: sources[1] ("{DEEP}/assign-memory-resource"): "{DEEP}/assign-memory-resource.md": ',
            completed.stderr,
        )

    def test_an_unknown_check_is_answered_with_names_that_tell_apart(self) -> None:
        completed = self.lab("show", "--manifest", "m.json", "--check", "nosuch")
        self.assert_one_line_refusal(completed, "unknown_name", 2)
        self.assertIn(
            f'"nosuch" is not in the manifest; it has 2 span checks: "scan:{DEEP}/assign-cpu-resource:3", '
            f'"scan:{DEEP}/assign-memory-resource:3"\n',
            completed.stderr,
        )

    def test_a_pair_name_on_a_moved_line_is_answered_with_its_page_s_nearest_lines(self) -> None:
        from commands.basics import closest_names

        # After an edit, scan names the pair of check "scan:docs/tasks:134" by its line now, 136.
        known = ["scan:docs/tasks:513", "scan:docs/tasks:436", "scan:docs/tasks:134", "scan:docs/other:136"]
        self.assertEqual(closest_names("tasks:\u00b2", known), [])  # "²" is a digit to str.isdigit, never a line
        for typed in ("scan:docs/tasks:136", "docs/tasks:136", "tasks:136"):
            with self.subTest(typed=typed):
                self.assertEqual(
                    closest_names(typed, known), ["scan:docs/tasks:134", "scan:docs/tasks:436", "scan:docs/tasks:513"]
                )

    def test_a_near_miss_is_answered_with_the_closest_names_first(self) -> None:
        completed = self.lab("show", "--manifest", "m.json", "--source", f"{DEEP}/assign-memory")
        self.assert_one_line_refusal(completed, "unknown_name", 2)
        self.assertIn(
            f'is not in the manifest; it has 2 sources; the closest: "{DEEP}/assign-memory-resource", '
            f'"{DEEP}/assign-cpu-resource"\n',
            completed.stderr,
        )

    def test_a_folder_given_as_a_source_is_every_page_under_it(self) -> None:
        # Both pages lie under DEEP: typed as a folder (as its path, or as an id prefix ending at a slash), it is both.
        pages = [arg for name in PAGES for arg in ("--source", f"{DEEP}/{name}")]
        for command, extra in (("show", ("--policy", "paragraph")), ("scan", ("--json", "--no-cache"))):
            named = self.lab(command, "--manifest", "m.json", *extra, *pages)
            self.assertEqual(named.returncode, 0, named.stderr)
            for typed in (DEEP, f"./{DEEP}/", f"{DEEP}/", "content/en"):
                with self.subTest(typed=typed, command=command):
                    completed = self.lab(command, "--manifest", "m.json", *extra, "--source", typed)
                    self.assertEqual((completed.returncode, completed.stderr), (0, ""))
                    self.assertEqual(completed.stdout, named.stdout)

    def test_a_folder_with_no_pinned_page_is_an_unknown_name(self) -> None:
        # "content/e" begins both ids, but not at a slash: no folder of theirs, and refused as any unknown name.
        for typed in (f"{DEEP}/none/", "content/e", "elsewhere/"):
            for command in ("show", "scan"):
                with self.subTest(typed=typed, command=command):
                    completed = self.lab(command, "--manifest", "m.json", "--source", typed)
                    self.assert_one_line_refusal(completed, "unknown_name", 2)
                    self.assertIn(f'--source: "{typed}" is not in the manifest; it has 2 sources', completed.stderr)

    def test_a_name_typed_without_its_folders_is_answered_with_the_one_it_ends(self) -> None:
        # difflib alone weighs "assign-cpu-resource" against a 65-character id at under its 0.6 cutoff.
        cases = (
            ("--source", "assign-cpu-resource", f'it has 2 sources; the closest: "{DEEP}/assign-cpu-resource"\n'),
            (
                "--check",
                "assign-cpu-resource:3",
                f'it has 2 span checks; the closest: "scan:{DEEP}/assign-cpu-resource:3"\n',
            ),
            # "resource" ends both ids but after a "-", inside a word: no tail, so the ids are listed as before.
            (
                "--source",
                "resource",
                f'it has 2 sources: "{DEEP}/assign-cpu-resource", "{DEEP}/assign-memory-resource"\n',
            ),
        )
        for option, typed, answer in cases:
            with self.subTest(option=option, typed=typed):
                completed = self.lab("show", "--manifest", "m.json", option, typed)
                self.assert_one_line_refusal(completed, "unknown_name", 2)
                self.assertTrue(
                    completed.stderr.endswith(f'"{typed}" is not in the manifest; {answer}'), completed.stderr
                )

    def test_each_moved_span_names_its_check_whole(self) -> None:
        for name in PAGES:
            path = self.folder / DEEP / f"{name}.md"
            path.write_text(page_text(name).replace("\n\n", "\n\nRead this first.\n\n", 1), encoding="utf-8")
        completed = self.lab("pin", "--manifest", "m.json", "--reanchor", "content")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        moved = [line for line in completed.stdout.splitlines() if line.startswith("moved ")]
        # Two pages, two spans each; "# assign-cpu-resource\n\n" is 23 characters, the page of memory 26.
        self.assertEqual(
            moved,
            [
                f'moved span_checks[0] ("scan:{DEEP}/assign-cpu-resource:3").instruction: [23, 62) -> [41, 80)',
                f'moved span_checks[0] ("scan:{DEEP}/assign-cpu-resource:3").qualifier: [64, 109) -> [82, 127)',
                f'moved span_checks[1] ("scan:{DEEP}/assign-memory-resource:3").instruction: [26, 65) -> [44, 83)',
                f'moved span_checks[1] ("scan:{DEEP}/assign-memory-resource:3").qualifier: [67, 112) -> [85, 130)',
            ],
        )


class StaleQuoteShown(LabTestCase):
    def test_a_long_quote_edited_near_its_end_is_shown_where_it_parts(self) -> None:
        sentence = "Set the CPU request with the resources field of the container, and never above the node's capacity."
        page = self.folder / DEEP / "assign-cpu-resource.md"
        page.parent.mkdir(parents=True)
        page.write_text(f"# cpu\n\n{sentence}\n\n{QUALIFIER}\n", encoding="utf-8")
        self.assertEqual(
            run_lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "content", cwd=self.folder).returncode, 0
        )
        manifest = json.loads((self.folder / "m.json").read_text(encoding="utf-8"))
        qualifier = 9 + len(sentence)
        manifest["span_checks"] = [
            {
                "name": "cpu",
                "source_id": f"{DEEP}/assign-cpu-resource",
                "instruction": {"start": 7, "end": 7 + len(sentence), "quote": sentence},
                "qualifier": {"start": qualifier, "end": qualifier + len(QUALIFIER), "quote": QUALIFIER},
            }
        ]
        (self.folder / "m.json").write_text(json.dumps(manifest), encoding="utf-8")
        page.write_text(page.read_text(encoding="utf-8").replace("never above", "never over"), encoding="utf-8")
        completed = run_lab("pin", "--manifest", "m.json", "content", cwd=self.folder)
        self.assert_one_line_refusal(completed, "stale_span_check")
        # "never above" against "never over": they part at the "a"; the text shows 20 characters before it, and to
        # its end (fewer than 40 after it), the quote too: one ellipsis each, before the quotes.
        at = 7 + sentence.index("above")
        self.assertIn(
            f'span_checks[0] ("cpu").instruction: text at [7, {7 + len(sentence)}) parts from the manifest\'s quote at '
            f'offset {at}: the text has …"ontainer, and never over the node\'s capacity.\\n", '
            f'the quote …"ontainer, and never above the node\'s capacity.", which occurs 0 times;',
            completed.stderr,
        )


class ShortLists(LabTestCase):
    def test_a_result_of_other_sources_names_three_and_counts_the_rest(self) -> None:
        pages = [self.folder / DEEP / f"page-{number}.md" for number in range(5)]
        pages[0].parent.mkdir(parents=True)
        for page in pages:
            page.write_text(f"# {page.stem}\n\nText.\n", encoding="utf-8")
        self.assertEqual(
            run_lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "content", cwd=self.folder).returncode, 0
        )
        self.assertEqual(run_lab("--manifest", "m.json", "--output", "r.json", cwd=self.folder).returncode, 0)
        for page in pages:
            page.write_text(f"# {page.stem}\n\nOther text.\n", encoding="utf-8")
        self.assertEqual(run_lab("pin", "--manifest", "m.json", "content", cwd=self.folder).returncode, 0)
        completed = run_lab("validate", "r.json", "--manifest", "m.json", cwd=self.folder)
        self.assert_one_line_refusal(completed, "stale_result")
        named = [part.split(": saved sha256")[0] for part in completed.stderr.split("; ")[:3]]
        self.assertEqual(named, [f"error: stale_result: r.json: {DEEP}/page-0", f"{DEEP}/page-1", f"{DEEP}/page-2"])
        self.assertTrue(completed.stderr.endswith("; and 2 more; rebuild the result\n"), completed.stderr)


class WhereTextsPart(unittest.TestCase):
    """Two differing texts are shown whole when short, else around the first character that differs."""

    def test_short_texts_are_shown_whole(self) -> None:
        self.assertEqual(text_difference("abc", "abd"), 'saved "abc", derived "abd"')

    def test_long_texts_are_shown_from_where_they_part(self) -> None:
        saved = "a" * 200 + "X" + "b" * 712
        derived = "a" * 200 + "Y" + "b" * 712
        # 20 characters before offset 200 and 40 from it, an ellipsis at each end that was cut.
        self.assertEqual(
            text_difference(saved, derived),
            'at offset 200 of 913 characters: saved …"'
            + "a" * 20
            + "X"
            + "b" * 39
            + '"…, derived …"'
            + "a" * 20
            + "Y"
            + "b" * 39
            + '"…',
        )

    def test_a_text_that_begins_the_other_ends_its_excerpt_where_it_ends(self) -> None:
        self.assertEqual(
            text_difference("c" * 70, "c" * 75, ("old", "new")),
            'at offset 70 (old 70 characters, new 75): old …"' + "c" * 20 + '", new …"' + "c" * 25 + '"',
        )

    def test_a_tampered_chunk_text_is_refused_where_it_was_changed(self) -> None:
        index = copy.deepcopy(fixture_result()["indexes"]["heading-aware"])
        original = index["chunks"][0]["text"]
        index["chunks"][0]["text"] = original.replace("refuses", "replaces")
        reforge_index(index)
        with self.assertRaises(IngestionError) as caught:
            validate.validate_index(index, "indexes.heading-aware")
        # "refuses" and "replaces" share "re": the texts part two characters into the word.
        offset = original.index("refuses") + 2
        self.assertEqual(caught.exception.where, "indexes.heading-aware.chunks[0].text")
        self.assertEqual(
            caught.exception.what,
            f"at offset {offset} (saved {len(original) + 1} characters, derived {len(original)}): "
            f'saved …"{index["chunks"][0]["text"][offset - 20 : offset + 40]}"…, '
            f'derived …"{original[offset - 20 : offset + 40]}"…'.replace("\n", "\\n"),
        )


class JsonLinesHint(LabTestCase):
    """A JSON Lines file given to validate is named as such, and judge as the command that reads it."""

    HINT = (
        "; this looks like JSON Lines, one object per line (an export, or chunk records), which 'run.py judge FILE' "
        "reads; this command reads a result or index the lab saved, one JSON document\n"
    )

    def refusal(self, text: str) -> str:
        (self.folder / "chunks.jsonl").write_text(text, encoding="utf-8")
        completed = run_lab("validate", "chunks.jsonl", cwd=self.folder)
        self.assert_one_line_refusal(completed, "json_trailing_data")
        return completed.stderr

    def test_chunk_records_are_named_json_lines(self) -> None:
        records = "".join(json.dumps({"text": f"chunk {n}", "source_id": "a"}) + "\n" for n in range(3))
        self.assertEqual(self.refusal(records), "error: json_trailing_data: chunks.jsonl:2:1: Extra data" + self.HINT)

    def test_other_trailing_data_gets_no_hint(self) -> None:
        cases = {
            "arrays, one a line": "[1]\n[2]\n",
            "two objects on line 1": '{"a": 1} {"b": 2}\n',
            "an object over two lines, then text": '{"a":\n 1}\nmore\n',
        }
        for name, text in cases.items():
            with self.subTest(name):
                self.assertNotIn("JSON Lines", self.refusal(text))


class UsageNamesTheCommand(unittest.TestCase):
    def test_an_unknown_option_after_a_command_names_the_command(self) -> None:
        cases = {
            ("retrieve", "--k", "3"): "error: usage: run.py retrieve: unrecognized arguments: --k 3 (see --help)\n",
            (
                "validate",
                "a.json",
                "b.json",
            ): "error: usage: run.py validate: unrecognized arguments: b.json (see --help)\n",
            (
                "show",
                "--bogus\x1b[2J",
            ): "error: usage: run.py show: unrecognized arguments: --bogus\\x1b[2J (see --help)\n",
            # Before any command, the options are the main job's.
            ("--bogus", "retrieve"): "error: usage: run.py: unrecognized arguments: --bogus (see --help)\n",
            # A mistyped option is matched against the command's own options...
            (
                "scan",
                "--manfest",
                "m.json",
            ): "error: usage: run.py scan: unrecognized arguments: --manfest m.json; did you mean --manifest? "
            "(see --help)\n",
            # ... and an abbreviation is not run as the option it starts (the manifest named is never read).
            (
                "scan",
                "--add-check",
                "--manifest",
                "nowhere.json",
            ): "error: usage: run.py scan: unrecognized arguments: --add-check; did you mean --add-checks? "
            "(see --help)\n",
            ("pin", "page.md", "--drop=y"): "error: usage: run.py pin: unrecognized arguments: --drop=y; did you "
            "mean --drop-stale? (see --help)\n",
            # A main-job option a command lacks says where it belongs, not the close match argparse's list gives.
            ("context", "--html", "c.html"): "error: usage: run.py context: unrecognized arguments: --html c.html; "
            "--html is the main job's report (run.py --manifest M --output result.json --html FILE), and scan's and "
            "judge's; this command has none (see --help)\n",
            ("sweep", "--output=s.json"): "error: usage: run.py sweep: unrecognized arguments: --output=s.json; this "
            "command prints on stdout: redirect it to a file (> FILE) (see --help)\n",
            ("scan", "--htm", "x"): "error: usage: run.py scan: unrecognized arguments: --htm x; did you mean --html? "
            "(see --help)\n",
            # A command that writes the manifest says so, rather than to redirect its report.
            (
                "pin",
                "--output=m.json",
                "docs",
            ): "error: usage: run.py pin: unrecognized arguments: --output=m.json; pin "
            "writes the manifest --manifest M names, and prints what it did (see --help)\n",
        }
        for args, line in cases.items():
            with self.subTest(args=args):
                completed = run_lab(*args)
                self.assertEqual((completed.returncode, completed.stderr), (2, line))

    def test_a_close_option_is_one_the_word_begins_or_is_near_without_the_dashes(self) -> None:
        # Every option begins with "--": counted in, it alone made "--check" look like "--help" (a new user's trial).
        options = ["--help", "--manifest", "--sizes", "--json", "--drop-stale", "--dry"]
        cases = {
            "--check": "",  # "check" and "help" share two letters of nine
            "--list": "",  # "list" and "manifest" share three of twelve
            "--tier": "",
            "--manfest": "; did you mean --manifest?",  # one letter left out
            "--size": "; did you mean --sizes?",  # the one option it begins
            "--drop": "; did you mean --drop-stale?",
            "--dr": "; did you mean --dry?",  # begins two: the closer, "dr" and "dry" sharing two letters of five
        }
        for typed, hint in cases.items():
            with self.subTest(typed=typed):
                self.assertEqual(command_parser.closest_option([typed, "x"], options), hint)

    def test_a_mistyped_command_is_matched_against_the_commands(self) -> None:
        # argparse lists the choices (its wording of them varies between Python versions); the lab adds the closest.
        for typed, close in (("scna", "; did you mean scan?"), ("valdate", "; did you mean validate?"), ("xyz", "")):
            with self.subTest(typed=typed):
                completed = run_lab(typed)
                self.assertEqual(completed.returncode, 2)
                self.assertTrue(completed.stderr.startswith("error: usage: run.py: argument COMMAND: invalid choice: "))
                self.assertTrue(completed.stderr.endswith(f"){close} (see --help)\n"), completed.stderr)

    def test_a_policy_typed_as_a_command_is_told_where_policies_go(self) -> None:
        # "run.py pair-aware" (a new user's trial): a policy is what the main job builds, pair-aware when the
        # manifest's "policies" names it; every policy name is answered so, none matched to a command.
        pair_aware = '; pair-aware is a policy, not a command: name it in the manifest\'s "policies" '
        built = "is a policy, not a command: the main job builds it (run.py --output result.json)"
        for typed, hint in (
            ("pair-aware", pair_aware + '({"pair-aware": 400}) and the main job builds it'),
            ("paragraph", f"; paragraph {built}"),
            ("heading-aware", f"; heading-aware {built}"),
            ("fixed-char", f"; fixed-char {built}"),
        ):
            with self.subTest(typed=typed):
                completed = run_lab(typed)
                self.assertEqual(completed.returncode, 2)
                self.assertTrue(completed.stderr.endswith(f"){hint} (see --help)\n"), completed.stderr)

    def test_a_mistyped_main_job_option_is_named_not_the_value_after_it(self) -> None:
        # argparse would read "m.json" as the command's name and refuse that ("invalid choice: 'm.json'").
        usage = "error: usage: run.py: unrecognized arguments: {} (see --help)\n"
        cases = {
            ("--manfest", "m.json", "--output", "x.json"): usage.format("--manfest; did you mean --manifest?"),
            ("--outptu", "x.json"): usage.format("--outptu; did you mean --output?"),
            ("--output", "x.json", "--html=y.html", "--bogus", "z"): usage.format("--bogus"),
            # Spelled in full or not at all: an abbreviation is refused, with the option it begins named.
            ("--o", "x.json"): usage.format("--o; did you mean --output?"),
            ("--mani", "m.json", "--output", "x.json"): usage.format("--mani; did you mean --manifest?"),
            ("--output", "x.json", "--htm=y.html", "--bogus", "z"): usage.format("--htm=y.html; did you mean --html?"),
            ("--man", "m.json", "export", "r.json"): usage.format("--man; did you mean --manifest?"),
            ("-o", "x.json"): usage.format("-o"),
        }
        for args, line in cases.items():
            with self.subTest(args=args):
                err = io.StringIO()
                # A usage error leaves argparse's way, by SystemExit, as a command line's does.
                with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as exited:
                    run.main(list(args))
                self.assertEqual((exited.exception.code, err.getvalue()), (2, line))

    def test_the_options_checked_before_a_command_are_the_main_parser_s(self) -> None:
        # unknown_leading_option names MAIN_OPTIONS and VALUE_OPTIONS itself: they must be the parser's own.
        from commands import parser

        built = parser.build_parser(quick=True)
        longs = {option for action in built._actions for option in action.option_strings if option.startswith("--")}
        # A store action takes the value after it (--manifest M); --help and --version take none.
        takes_value = {
            option
            for action in built._actions
            for option in action.option_strings
            if option.startswith("--") and isinstance(action, argparse._StoreAction)
        }
        self.assertEqual(set(parser.MAIN_OPTIONS), longs)
        self.assertEqual(set(parser.VALUE_OPTIONS), takes_value)


# A number of four or more digits written without a separator: what no count in a table may look like.
UNSEPARATED = re.compile(r"(?<![\d,.])\d{4,}")
PAIRS = 1200


class OptionsSpelledOnce(LabTestCase):
    """Every option is spelled in full and, when it takes one value, given it once: nothing is run on a guess."""

    def test_an_abbreviated_option_is_refused_before_anything_is_written(self) -> None:
        # What a new user's trial ran: "--o x" built into x, "--htm y" after "--html report.htm" wrote only y.
        usage = "error: usage: run.py: unrecognized arguments: {} (see --help)\n"
        cases = {
            ("--o", "x"): "--o; did you mean --output?",
            ("--out=x",): "--out=x; did you mean --output?",
            ("--mani", "m.json", "--output", "x"): "--mani; did you mean --manifest?",
            ("--output", "x", "--html", "report.htm", "--htm", "y"): "--htm; did you mean --html?",
        }
        for args, refused in cases.items():
            with self.subTest(args=args):
                completed = run_lab(*args, cwd=self.folder)
                self.assertEqual(
                    (completed.returncode, completed.stdout, completed.stderr), (2, "", usage.format(refused))
                )
                self.assertEqual(list(self.folder.iterdir()), [])

    def test_a_single_valued_option_given_twice_with_different_values_is_refused(self) -> None:
        twice = "error: usage: {}: {} is given twice with different values ({} and {}) (see --help)\n"
        cases = {
            ("--output", "a.json", "--output", "b.json"): twice.format("run.py", "--output", "a.json", "b.json"),
            ("--output=a.json", "--output", "b.json"): twice.format("run.py", "--output", "a.json", "b.json"),
            ("--output", "r.json", "--html", "report.htm", "--html", "y"): twice.format(
                "run.py", "--html", "report.htm", "y"
            ),
            ("--manifest", "a.json", "--manifest", "b.json", "--output", "r.json"): twice.format(
                "run.py", "--manifest", "a.json", "b.json"
            ),
            # As --manifest before a command and after it (merged_manifest), worded alike.
            ("--manifest", "a.json", "scan", "--manifest", "b.json"): twice.format(
                "run.py", "--manifest", "a.json", "b.json"
            ),
            ("scan", "--html", "a.html", "--html", "b.html"): twice.format("run.py scan", "--html", "a.html", "b.html"),
            ("export", "r.json", "--policy", "paragraph", "--policy", "fixed-char"): twice.format(
                "run.py export", "--policy", "paragraph", "fixed-char"
            ),
            ("sweep", "--sizes", "100", "200", "--sizes", "300"): twice.format(
                "run.py sweep", "--sizes", "100 200", "300"
            ),
        }
        for args, line in cases.items():
            with self.subTest(args=args):
                completed = run_lab(*args, cwd=self.folder)
                self.assertEqual((completed.returncode, completed.stdout, completed.stderr), (2, "", line))
                self.assertEqual(list(self.folder.iterdir()), [])

    def test_the_same_value_twice_is_that_value(self) -> None:
        reference = (ROOT / "expected-result.json").read_bytes()
        output = str(self.folder / "r.json")
        for args in (("--output", output, "--output", output), ("--output", output, "--output=" + output)):
            with self.subTest(args=args):
                completed = run_lab(*args)
                self.assertEqual(completed.returncode, 0, completed.stderr)
                self.assertEqual((self.folder / "r.json").read_bytes(), reference)


class FileWithoutItsOption(LabTestCase):
    """A file named where no word belongs: the refusal names the option that takes it."""

    def test_a_file_given_without_its_option_names_the_option(self) -> None:
        # A manifest is recognised by opening as one, whatever its name; any other .json word of the main job's
        # place is the --output it lacks; a word that is neither gets the plain refusal.
        self.copy_inputs()
        (self.folder / "pins.json").write_text('{"sources": []}\n', encoding="utf-8")
        (self.folder / "notes.txt").write_text("notes\n", encoding="utf-8")
        # What a saved result opens with, whatever follows (lab_io.outputs.existing_kind).
        (self.folder / "r.json").write_text('{"execution_mode": "offline"}\n', encoding="utf-8")
        result_hint = "; r.json is a saved result: this command builds from the manifest (--manifest M), and validate, diff and export read a result"
        unrecognized = "error: usage: run.py {}: unrecognized arguments: {} (see --help)\n"
        for args, line in (
            (
                ("scan", "manifest.json"),
                unrecognized.format("scan", "manifest.json; a manifest is given as --manifest manifest.json"),
            ),
            (
                ("show", "pins.json"),
                unrecognized.format("show", "pins.json; a manifest is given as --manifest pins.json"),
            ),
            (("sweep", "notes.txt"), unrecognized.format("sweep", "notes.txt")),
            (("scan", "absent.json"), unrecognized.format("scan", "absent.json")),
            (("context", "r.json"), unrecognized.format("context", "r.json" + result_hint)),
            # validate reads a result: a second one is only one word too many.
            (("validate", "r.json", "r.json"), unrecognized.format("validate", "r.json")),
            (
                ("retrieve", "mine.jsonl"),
                unrecognized.format("retrieve", "mine.jsonl; did you mean --chunks mine.jsonl?"),
            ),
            (("judge", "a.jsonl", "b.jsonl"), unrecognized.format("judge", "b.jsonl")),
        ):
            with self.subTest(args=args):
                completed = run_lab(*args, cwd=self.folder)
                self.assertEqual((completed.returncode, completed.stderr), (2, line))
        for args, close in (
            (("manifest.json",), "; a manifest is given as --manifest manifest.json"),
            (("--manifest", "manifest.json", "result.json"), "; did you mean --output result.json?"),
            (("notes.txt",), ""),
        ):
            with self.subTest(args=args):
                completed = run_lab(*args, cwd=self.folder)
                self.assertEqual(completed.returncode, 2)
                self.assertTrue(completed.stderr.startswith("error: usage: run.py: argument COMMAND: invalid choice: "))
                self.assertTrue(completed.stderr.endswith(f"){close} (see --help)\n"), completed.stderr)

    def test_a_saved_command_report_naming_sources_is_no_manifest(self) -> None:
        # judge --json names "sources" in each row's coverage (docs/judge.md, "--json"), near its head; it is a
        # command's report (its first key judge_version), so neither the hint nor the note calls it a manifest.
        from commands.basics import other_manifests
        from lab_io.outputs import looks_like_manifest

        judged = self.folder / "judged.json"
        judged.write_text(
            '{\n  "judge_version": 14,\n  "name": "c.jsonl",\n  "policies": [{"coverage": {"sources": []}}]\n}\n',
            encoding="utf-8",
        )
        pins = self.folder / "pins.json"
        pins.write_text('{"sources": []}\n', encoding="utf-8")
        self.assertEqual((looks_like_manifest(judged), looks_like_manifest(pins)), (False, True))
        self.assertEqual(other_manifests(self.folder), ["pins.json"])
        completed = run_lab("scan", "judged.json", cwd=self.folder)
        self.assertEqual(
            (completed.returncode, completed.stderr),
            (2, "error: usage: run.py scan: unrecognized arguments: judged.json (see --help)\n"),
        )


class CountsSeparated(unittest.TestCase):
    """Every count a table prints has its thousands separated by a comma (1,200 pairs, 1,150 kept)."""

    def test_the_main_jobs_table(self) -> None:
        from views import summary

        result = copy.deepcopy(fixture_result())
        pairs = [{"name": f"c{n}", "instruction_and_qualifier_share_chunk": n < 1150} for n in range(PAIRS)]
        for comparison in result["comparisons"]:
            comparison["pairs"] = pairs
        rows = summary.summary_rows(result)
        self.assertEqual([row[-1] for row in rows[1:]], ["1,150 of 1,200"] * 3)

    def test_the_context_table(self) -> None:
        from checks import context_windows

        windows = [
            {"name": f"c{n}", "window": 0 if n < 1150 else 1, "window_crossing_headings": 1} for n in range(PAIRS)
        ]
        keys = ("0", "1", "2", "3", "section")
        figures = {
            "policy": "paragraph",
            "pairs": PAIRS,
            "kept": 1150,
            "windows": windows,
            "mean_chars": {key: 1500.0 for key in keys},
            "precision": {key: 0.5 for key in keys},
            "iou": {key: 0.5 for key in keys},
            "anchored_at_start": 1100,
            "not_recoverable": 0,
        }
        table = context_windows.context_table([figures], [])
        self.assertIn("\nparagraph  1,200  1,150 (0)  1,200 (1,200)  1,200 (1,200)  1,200 (1,200)    1,200\n", table)
        self.assertIn("1,500 · 0.50 · 0.50", table)
        self.assertIn("paragraph: 1,150 of 1,200 kept; k=1 recovers 1,200 of 1,200 at 1.0x the characters", table)
        self.assertEqual(UNSEPARATED.findall(table), [])

    def test_the_retrieve_table(self) -> None:
        from checks.retrieval.report import retrieval_table

        ranks = {"instruction_rank": 1, "caveat_rank": 2, "instruction_rank_w1": 1, "caveat_rank_w1": 1}
        document = {
            "pairs": [{"name": f"c{n}", "policies": {"paragraph": ranks}} for n in range(PAIRS)],
            "policies": [
                {
                    "policy": "paragraph",
                    "chunks": 14828,
                    "pairs": PAIRS,
                    "mean_chars": {"w0": {"1": 1500.0, "3": 4500.0}, "w1": {"1": 3000.0, "3": 9000.0}},
                }
            ],
            "ks": [1, 3],
            "baseline": {"depth": 100},
        }
        table = retrieval_table(document)
        self.assertIn("\nparagraph  14,828  1,200  0 (1,200)  1,200 (1,200)\n", table)
        self.assertEqual(UNSEPARATED.findall(table), [])

    def test_the_sweep_table(self) -> None:
        from checks import size_sweep

        def cell(chunks: int, kept: int) -> dict:
            return {"chunk_count": chunks, "mean_chunk_chars": 500.0, "pairs_kept_together": kept}

        sweep = {
            "pair_count": PAIRS,
            "rows": [
                {"size": 100, "heading-aware": cell(14282, 447), "fixed-char": cell(30048, 3)},
                {"size": 10000, "heading-aware": cell(3874, 1200), "fixed-char": cell(3875, 1150)},
            ],
            "paragraph": cell(14828, 447),
            "pairs": [],
            "largest_target": None,
        }
        lines = size_sweep.sweep_table(sweep).splitlines()
        # The columns widen to hold the separated figures, and stay aligned.
        self.assertEqual(
            lines[:4],
            [
                "        heading-aware target                fixed-char width",
                "  size  chunks  mean chars  kept pairs      chunks  mean chars  kept pairs",
                "   100  14,282       500.0    447 of 1,200  30,048       500.0      3 of 1,200",
                "10,000   3,874       500.0  1,200 of 1,200   3,875       500.0  1,150 of 1,200",
            ],
        )
        self.assertEqual(UNSEPARATED.findall("\n".join(lines)), [])


class MeansSeparated(LabTestCase):
    """A mean chunk size of 1,000 characters or more has its thousands separated, as every other figure beside it."""

    def test_the_main_job_judge_and_sweep_tables(self) -> None:
        # One paragraph of 300 five-letter words less the last space, 1,499 characters, and its line's newline: a
        # paragraph chunk of 1,500 (SPEC.md, "Paragraphs"); heading-aware at 1,000 keeps that block whole too.
        (self.folder / "docs").mkdir()
        (self.folder / "docs" / "long.md").write_text("# Long\n\n" + ("word " * 300).strip() + "\n", encoding="utf-8")
        self.assertEqual(
            run_lab("pin", "--markdown", "blocks-4", "--manifest", "m.json", "docs", cwd=self.folder).returncode, 0
        )
        built = run_lab("--manifest", "m.json", "--output", "r.json", cwd=self.folder)
        run_lab("export", "r.json", "--policy", "paragraph", "--output", "c.jsonl", cwd=self.folder)
        judged = run_lab("judge", "c.jsonl", "--manifest", "m.json", cwd=self.folder)
        swept = run_lab("sweep", "--manifest", "m.json", "--sizes", "2000", cwd=self.folder)
        for output in (built.stdout, judged.stdout):
            paragraph = next(line for line in output.splitlines() if line.startswith("paragraph "))
            self.assertEqual(paragraph.split()[1:4], ["1", "1,500.0", "1,500"], paragraph)
        self.assertIn("paragraph (no size): 1 chunk, mean 1,500.0 chars,", swept.stdout)
        self.assertEqual(UNSEPARATED.findall(swept.stdout), [])


if __name__ == "__main__":
    unittest.main()
