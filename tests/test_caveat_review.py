"""Review decisions that stick, pairs imported from another tool, and the evaluation against hand labels.

The fixture's aster-copy-v1 holds four caveats the rules find (docs/caveats.md, "A walk-through on the
fixture"); offsets here are found in the text with ``str.index`` on the quoted sentence.
"""

from __future__ import annotations

import hashlib
import json
import re
from unittest import mock

from checks.caveats import decisions, evaluation
from tests.support import ROOT, LabTestCase
from tests.test_caveat_scan import main_quietly

V1_TEXT = (ROOT / "docs" / "aster-copy-v1.md").read_text(encoding="utf-8")
LESSON_SENTENCE = "Call save_copy(path, text) to store a new document in the synthetic Aster API."
REFUSES = "This operation refuses an existing path."
NEVER = "Use replace_copy only after checking the current revision; save_copy never overwrites a document."
AFTER_REFUSAL = "After a refusal, keep the original document unchanged and report the path conflict to the caller."
LISTING = "Call list_copies() to return the currently stored document names."
DOES_NOT = "Listing documents does not create or replace a document."
TEACHING = "This is a local teaching contract, not a production incident."


def span(quote: str) -> list[int]:
    start = V1_TEXT.index(quote)
    return [start, start + len(quote)]


class ReviewTest(LabTestCase):
    """``scan --reject`` and ``--accept``: recorded beside the manifest, kept across edits and re-pins."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = self.copy_inputs()
        self.decisions = self.folder / "manifest.decisions.json"

    def scanned(self) -> dict:
        code, out, err = main_quietly("scan", "--json", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        return json.loads(out)

    def check_names(self) -> list[str]:
        return [check["name"] for check in json.loads(self.manifest.read_text(encoding="utf-8"))["span_checks"]]

    def test_a_rejected_pair_stays_out_after_an_edit_and_a_re_pin(self) -> None:
        self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(self.manifest))[0], 0)
        self.assertIn("scan:aster-copy-v1:13", self.check_names())
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out,
            f"rejected 1 pair (1 scanned check removed: scan:aster-copy-v1:13): {self.manifest}, decisions in "
            f"{self.decisions}\n",
        )
        # The check scan added for it is gone; the others stay.
        self.assertEqual(
            self.check_names(), ["save-copy-refuses-existing-path", "scan:aster-copy-v1:7#2", "scan:aster-copy-v2:7"]
        )
        recorded = json.loads(self.decisions.read_text(encoding="utf-8"))
        self.assertEqual(
            recorded,
            {
                "decisions_version": 1,
                "decisions": [
                    {
                        "decision": "reject",
                        "name": "scan:aster-copy-v1:13",
                        "source_id": "aster-copy-v1",
                        "instruction": {"start": span(LISTING)[0], "end": span(LISTING)[1], "quote": LISTING},
                        "qualifier": {"start": span(DOES_NOT)[0], "end": span(DOES_NOT)[1], "quote": DOES_NOT},
                    }
                ],
            },
        )
        report = self.scanned()
        self.assertEqual(report["rejected"], 1)
        self.assertNotIn(DOES_NOT, [pair["qualifier"]["quote"] for pair in report["pairs"]])
        # The pair is tier 2: at --tier 1 the listing would not hold it, so no rejection left it out.
        code, out, _ = main_quietly("scan", "--json", "--tier", "1", "--manifest", str(self.manifest))
        self.assertEqual((code, json.loads(out)["rejected"]), (0, 0))
        # Two lines above the listing section move the pair to line 15; the re-pinned text still holds it.
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(
            V1_TEXT.replace("## List documents\n", "An added paragraph.\n\n## List documents\n"), encoding="utf-8"
        )
        code, _, err = main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))
        self.assertEqual(code, 0, err)
        report = self.scanned()
        self.assertEqual(report["rejected"], 1)
        self.assertNotIn(DOES_NOT, [pair["qualifier"]["quote"] for pair in report["pairs"]])
        code, out, _ = main_quietly("scan", "--add-checks", "--manifest", str(self.manifest))
        self.assertEqual(code, 0)
        self.assertNotIn("scan:aster-copy-v1:15", self.check_names())
        code, out, _ = main_quietly("context", "--scanned", "--json", "--manifest", str(self.manifest))
        self.assertEqual(code, 0)
        self.assertFalse(any(name.startswith("scan:aster-copy-v1:15") for name in json.loads(out)["checks"]))

    def test_a_decision_an_edit_left_unmatched_is_named(self) -> None:
        name = "scan:aster-copy-v1:13"
        self.assertEqual(main_quietly("scan", "--manifest", str(self.manifest), "--reject", name)[0], 0)
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertNotIn("matches no pair", out)
        # One word of the rejected caveat changes: the decision's quote is no longer the page's.
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(V1_TEXT.replace(DOES_NOT, DOES_NOT.replace("does not", "never")), encoding="utf-8")
        code, _, err = main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))
        self.assertEqual(code, 0, err)
        line = (
            "1 decision of the decisions file matches no pair found now (an edit or a newer scan_version gave its "
            f'caveat other quotes or another instruction, or its page is no longer pinned): "{name}" (rejected); scan '
            "--forget-unmatched drops them"
        )
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertIn(line, out.splitlines())
        # With --json the document stays JSON: the line goes to stderr.
        code, out, err = main_quietly("scan", "--json", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, line + "\n"))
        self.assertEqual(json.loads(out)["rejected"], 0)

    def test_a_pair_rejected_anew_after_an_edit_is_told_apart_from_its_old_decision(self) -> None:
        # The README's way after an edit: the scan names the decision the edit undid, the pair is rejected anew.
        # Both decisions hold the pair's name, so the line naming the old one gives the caveat it quotes.
        name = "scan:aster-copy-v1:13"
        self.assertEqual(main_quietly("scan", "--manifest", str(self.manifest), "--reject", name)[0], 0)
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(V1_TEXT.replace(DOES_NOT, DOES_NOT.replace("does not", "never")), encoding="utf-8")
        code, _, err = main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))
        self.assertEqual(code, 0, err)
        self.assertEqual(main_quietly("scan", "--manifest", str(self.manifest), "--reject", name)[0], 0)
        # The old caveat's first 40 characters, as one-line JSON, cut with "…".
        old = f'"{name}" (rejected; caveat "{DOES_NOT[:40]}"…)'
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertIn(f"pinned): {old}; scan --forget-unmatched drops them", out)
        code, out, err = main_quietly("scan", "--forget-unmatched", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertIn(f"forgot 1 decision that no pair found now matches: {old}: ", out)
        # The decision made anew still holds.
        self.assertEqual(self.scanned()["rejected"], 1)

    def test_a_declared_checks_old_name_decides_its_pair_as_named_now(self) -> None:
        self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(self.manifest))[0], 0)
        # Two lines above the listing section move the pair from line 13 to 15; its check keeps its name.
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(
            V1_TEXT.replace("## List documents\n", "An added paragraph.\n\n## List documents\n"), encoding="utf-8"
        )
        self.assertEqual(main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))[0], 0)
        # The name a saved report shows decides the pair, as scan names it now, and a note says so.
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out,
            'note: --reject "scan:aster-copy-v1:13": a declared check\'s name; scan finds its pair now as '
            f'"scan:aster-copy-v1:15"\nrejected 1 pair (1 scanned check removed: scan:aster-copy-v1:13): {self.manifest}, '
            f"decisions in {self.decisions}\n",
        )
        names = [check["name"] for check in json.loads(self.manifest.read_text(encoding="utf-8"))["span_checks"]]
        self.assertNotIn("scan:aster-copy-v1:13", names)
        decided = json.loads(self.decisions.read_text(encoding="utf-8"))["decisions"]
        self.assertEqual(
            [(entry["decision"], entry["name"]) for entry in decided], [("reject", "scan:aster-copy-v1:15")]
        )

    def test_an_accepted_check_dropped_with_its_quote_says_how_to_get_it_back(self) -> None:
        name = "scan:aster-copy-v1:13"
        self.assertEqual(main_quietly("scan", "--manifest", str(self.manifest), "--accept", name)[0], 0)
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(V1_TEXT.replace(" " + DOES_NOT, ""), encoding="utf-8")
        code, out, err = main_quietly("pin", "--manifest", str(self.manifest), "--drop-stale", str(page))
        self.assertEqual(code, 0, err)
        dropped = [line for line in out.splitlines() if line.startswith("dropped ")]
        self.assertEqual(len(dropped), 1, out)
        self.assertTrue(
            dropped[0].endswith(
                "; a review accepted it: scan --accept declares it again once the scan finds its pair again"
            ),
            dropped[0],
        )
        # The text back: the pair is found again, accepted, and no check holds it until --accept declares it.
        page.write_text(V1_TEXT, encoding="utf-8")
        self.assertEqual(main_quietly("pin", "--manifest", str(self.manifest), str(page))[0], 0)
        code, out, _ = main_quietly("scan", "--manifest", str(self.manifest))
        self.assertIn(" · accepted, no check holds it: --accept declares it", out)
        self.assertEqual(main_quietly("scan", "--manifest", str(self.manifest), "--accept", name)[0], 0)
        code, out, _ = main_quietly("scan", "--manifest", str(self.manifest))
        self.assertNotIn("no check holds it", out)

    def test_one_option_takes_several_names(self) -> None:
        code, out, err = main_quietly(
            "scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13", "scan:aster-copy-v2:7"
        )
        self.assertEqual((code, err), (0, ""))
        self.assertTrue(out.startswith("rejected 2 pairs (0 scanned checks removed): "), out)
        self.assertEqual(len(json.loads(self.decisions.read_text(encoding="utf-8"))["decisions"]), 2)

    def test_a_check_without_its_source_or_quotes_has_no_decision_key(self) -> None:
        import source_pins

        self.assertIsNone(source_pins.accepted_check_key({"name": "x", "instruction": {"quote": "a"}}))
        self.assertEqual(
            source_pins.accepted_check_key(
                {"source_id": "s", "instruction": {"quote": "Call  it."}, "qualifier": {"quote": "It\nfails."}}
            ),
            ("s", "Call it.", "It fails."),
        )

    def test_forget_unmatched_without_a_decisions_file_says_so(self) -> None:
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--forget-unmatched")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, f"decisions unchanged: there is no decisions file ({self.decisions})\n")
        self.assertFalse(self.decisions.exists())
        self.assertEqual(
            main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")[0], 0
        )
        code, out, _ = main_quietly(
            "scan", "--manifest", str(self.manifest), "--forget-unmatched", "--source", "aster-copy-v2"
        )
        self.assertEqual(
            out,
            f"decisions unchanged: every decision on the pages scanned in {self.decisions} matches a pair found now\n",
        )

    def test_a_decision_overturned_says_so(self) -> None:
        name = "scan:aster-copy-v1:13"
        self.assertEqual(main_quietly("scan", "--manifest", str(self.manifest), "--reject", name)[0], 0)
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--accept", name)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out,
            f"accepted 1 pair (1 span check added; 1 rejected before, now accepted): {self.manifest}, decisions in "
            f"{self.decisions}\n",
        )

    def test_a_name_that_is_another_pairs_check_now_is_noted(self) -> None:
        self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(self.manifest))[0], 0)
        # Six lines after the title: the pairs of lines 7 and 13 are on lines 13 and 19 now. The check named
        # "scan:aster-copy-v1:13" holds the listing pair, which scan names ":19"; ":13" is the refuses pair's name now.
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(V1_TEXT.replace("API\n\n", "API\n\nOne.\n\nTwo.\n\nThree.\n\n", 1), encoding="utf-8")
        self.assertEqual(main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))[0], 0)
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out.splitlines()[-1],
            'note: "scan:aster-copy-v1:13" is the pair scan names so now; the declared check of that name is the pair '
            'scan finds as "scan:aster-copy-v1:19"',
        )

    def test_a_decision_on_a_page_no_longer_pinned_is_named(self) -> None:
        name = "scan:aster-copy-v1:13"
        self.assertEqual(main_quietly("scan", "--manifest", str(self.manifest), "--reject", name)[0], 0)
        # The page goes from the manifest, and the checks on it with it.
        value = json.loads(self.manifest.read_text(encoding="utf-8"))
        value["sources"] = [source for source in value["sources"] if source["source_id"] != "aster-copy-v1"]
        value["span_checks"] = [check for check in value["span_checks"] if check["source_id"] != "aster-copy-v1"]
        self.manifest.write_text(json.dumps(value), encoding="utf-8")
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out.splitlines()[-1],
            "1 decision of the decisions file matches no pair found now (an edit or a newer scan_version gave its "
            f'caveat other quotes or another instruction, or its page is no longer pinned): "{name}" (rejected); scan '
            "--forget-unmatched drops them",
        )
        # --forget-unmatched drops it from the decisions file; the line is gone.
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--forget-unmatched")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out, f'forgot 1 decision that no pair found now matches: "{name}" (rejected): {self.decisions}\n'
        )
        self.assertEqual(json.loads(self.decisions.read_text(encoding="utf-8"))["decisions"], [])
        code, out, _ = main_quietly("scan", "--manifest", str(self.manifest))
        self.assertNotIn("matches no pair", out)
        code, out, _ = main_quietly("scan", "--manifest", str(self.manifest), "--forget-unmatched")
        self.assertEqual(out, f"decisions unchanged: every decision in {self.decisions} matches a pair found now\n")

    def test_an_accepted_pair_becomes_a_span_check(self) -> None:
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--accept", "scan:aster-copy-v1:13")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, f"accepted 1 pair (1 span check added): {self.manifest}, decisions in {self.decisions}\n")
        self.assertEqual(self.check_names(), ["save-copy-refuses-existing-path", "scan:aster-copy-v1:13"])
        pair = next(pair for pair in self.scanned()["pairs"] if pair["name"] == "scan:aster-copy-v1:13")
        self.assertEqual((pair["decision"], pair["declared_as"]), ("accept", "scan:aster-copy-v1:13"))
        # Deciding it again replaces the decision.
        main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")
        entries = json.loads(self.decisions.read_text(encoding="utf-8"))["decisions"]
        self.assertEqual([entry["decision"] for entry in entries], ["reject"])
        # Rejecting it once more changes nothing, and says it was rejected before; the manifest is not written, even
        # one formatted by hand.
        self.manifest.write_text(json.dumps(json.loads(self.manifest.read_text(encoding="utf-8"))), encoding="utf-8")
        before = (self.manifest.read_bytes(), self.manifest.stat().st_ino)
        code, out, _ = main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")
        self.assertEqual((self.manifest.read_bytes(), self.manifest.stat().st_ino), before)
        self.assertEqual(
            (code, out),
            (
                0,
                # (the manifest is as it was: only the decisions file is written)
                f"rejected 1 pair (0 scanned checks removed; 1 rejected before): decisions in {self.decisions} "
                f"({self.manifest} unchanged)\n",
            ),
        )
        self.assertEqual(
            [entry["decision"] for entry in json.loads(self.decisions.read_text())["decisions"]], ["reject"]
        )

    def test_a_name_given_twice_is_one_decision(self) -> None:
        # --accept NAME --accept NAME declares the pair once (not again as NAME~2), and counts it once.
        name = "scan:aster-copy-v1:13"
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--accept", name, "--accept", name)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, f"accepted 1 pair (1 span check added): {self.manifest}, decisions in {self.decisions}\n")
        self.assertEqual(self.check_names(), ["save-copy-refuses-existing-path", name])
        code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--reject", name, "--reject", name)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out,
            f"rejected 1 pair (1 scanned check removed: {name}; 1 accepted before, now rejected): {self.manifest}, "
            f"decisions in {self.decisions}\n",
        )

    def test_a_hand_declared_check_is_never_removed(self) -> None:
        code, out, _ = main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:7")
        self.assertEqual(code, 0)
        self.assertIn("(0 scanned checks removed)", out)
        self.assertEqual(self.check_names(), ["save-copy-refuses-existing-path"])

    def test_a_decision_covers_every_pair_with_its_quotes(self) -> None:
        # Two sections repeat one instruction and its caveat: two pairs (caveats on lines 6 and 11), one key.
        section = "Call save_copy(path) to store a document.\nThis does not replace a document.\n"
        page = self.folder / "docs" / "twice.md"
        page.write_text(f"# Copies\n\n## Save\n\n{section}\n## Save again\n\n{section}", encoding="utf-8")
        manifest = self.folder / "twice.json"
        self.assertEqual(main_quietly("pin", "--manifest", str(manifest), str(page))[0], 0)
        self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(manifest))[0], 0)
        first, second = "scan:docs/twice:6", "scan:docs/twice:11"
        code, out, err = main_quietly("scan", "--manifest", str(manifest), "--accept", first, "--reject", second)
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(
            err,
            f'error: usage: scan: "{first}" (--accept) and "{second}" (--reject) have the same source and quotes, so '
            "one decision covers both; give one of them\n",
        )
        code, out, err = main_quietly("scan", "--manifest", str(manifest), "--reject", first)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out,
            f"rejected 1 pair and 1 more with the same source and quotes ({second}; 2 scanned checks removed: {first}, "
            f"{second}): "
            f"{manifest}, decisions in {self.folder / 'twice.decisions.json'}\n",
        )
        self.assertEqual(json.loads(manifest.read_text(encoding="utf-8"))["span_checks"], [])
        code, out, _ = main_quietly("scan", "--json", "--manifest", str(manifest))
        self.assertEqual((json.loads(out)["rejected"], json.loads(out)["pairs"]), (2, []))

    def test_a_long_cover_names_five_and_counts_the_rest(self) -> None:
        from types import SimpleNamespace

        from commands.scan import covering

        covered = [SimpleNamespace(name=f"scan:p:{line}") for line in (4, 9, 14, 19, 24, 29, 34, 39)]
        self.assertEqual(
            covering(["scan:p:9"], covered, "0 span checks added"),
            "1 pair and 7 more with the same source and quotes (scan:p:4, scan:p:14, scan:p:19, scan:p:24, "
            "scan:p:29 and 2 more; 0 span checks added",
        )

    def test_refusals_write_nothing(self) -> None:
        before = self.manifest.read_bytes()
        cases = [
            (["--reject", "scan:nope:1"], 2, 'error: unknown_name: --reject: "scan:nope:1" is not a pair scan finds'),
            (
                ["--accept", "scan:aster-copy-v1:13", "--reject", "scan:aster-copy-v1:13"],
                2,
                'error: usage: scan: "scan:aster-copy-v1:13" is given to both --accept and --reject',
            ),
            (
                ["--reject", "scan:aster-copy-v1:13", "--add-checks"],
                2,
                "error: usage: scan: --add-checks and --accept/--reject do different things",
            ),
        ]
        for options, exit_code, message in cases:
            with self.subTest(options=options):
                code, out, err = main_quietly("scan", "--manifest", str(self.manifest), *options)
                self.assertEqual((code, out), (exit_code, ""))
                self.assertTrue(err.startswith(message), err)
                self.assertEqual(len(err.splitlines()), 1)
                self.assertEqual(self.manifest.read_bytes(), before)
                self.assertFalse(self.decisions.exists())
        code, _, err = main_quietly("scan", "--reject", "scan:aster-copy-v1:13")
        self.assertEqual(
            (code, err), (2, "error: usage: scan: --accept/--reject needs --manifest M: the manifest to change\n")
        )

    def test_a_name_typed_without_its_prefix_or_a_letter_off_is_refused_naming_the_pair_meant(self) -> None:
        # docs/caveats.md: an unknown name is refused naming the found pairs whose names are closest to it.
        before = self.manifest.read_bytes()
        for typed in ("aster-copy-v1:13", "scan:aster-copy-v:13"):
            with self.subTest(typed=typed):
                code, out, err = main_quietly("scan", "--manifest", str(self.manifest), "--reject", typed)
                self.assertEqual((code, out), (2, ""))
                self.assertEqual(len(err.splitlines()), 1, err)
                self.assertTrue(err.startswith(f'error: unknown_name: --reject: "{typed}" is not a pair scan'), err)
                self.assertIn('; the closest: "scan:aster-copy-v1:13"', err)
                self.assertEqual(self.manifest.read_bytes(), before)
                self.assertFalse(self.decisions.exists())

    def test_a_name_the_shell_cut_at_its_spaces_is_refused_saying_how_to_quote_it(self) -> None:
        # A page id from a path with a space: "Kust File/p" pinned from the test's folder; the caveat on line 5.
        folder = self.folder / "API" / "Kust File"
        folder.mkdir(parents=True)
        (folder / "p.md").write_text("# P\n\nCall run() once.\n\nNever call run() twice.\n", encoding="utf-8")
        manifest = self.folder / "spaced.json"
        code, _, err = main_quietly(
            "pin", str(self.folder / "API"), "--manifest", str(manifest), "--markdown", "blocks-10"
        )
        self.assertEqual(code, 0, err)
        code, out, _ = main_quietly("scan", "--manifest", str(manifest))
        self.assertIn("scan:API/Kust File/p:5 · tier 1", out)
        self.assertIn("(NAME: the pair's name above, quoted: a name holds a space)", out)
        before = manifest.read_bytes()
        code, out, err = main_quietly("scan", "--manifest", str(manifest), "--accept", "scan:API/Kust", "File/p:5")
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(
            err,
            'error: unknown_name: --accept: "scan:API/Kust" is not a pair scan finds; with the 1 after it, '
            '"scan:API/Kust File/p:5" is: a name that holds spaces is one argument, quoted (--accept '
            "'scan:API/Kust File/p:5')\n",
        )
        self.assertEqual(manifest.read_bytes(), before)
        code, out, err = main_quietly("scan", "--manifest", str(manifest), "--accept", "scan:API/Kust File/p:5")
        self.assertEqual(code, 0, err)

    def test_a_name_with_a_run_of_spaces_cut_by_the_shell_is_found_too(self) -> None:
        # "My  Docs" (two spaces): the shell cuts the unquoted name into two words, which join with one.
        folder = self.folder / "My  Docs"
        folder.mkdir()
        (folder / "p.md").write_text("# P\n\nCall run() once.\n\nNever call run() twice.\n", encoding="utf-8")
        manifest = self.folder / "spaced.json"
        code, _, err = main_quietly("pin", str(folder), "--manifest", str(manifest), "--markdown", "blocks-10")
        self.assertEqual(code, 0, err)
        code, out, err = main_quietly("scan", "--manifest", str(manifest), "--reject", "scan:My", "Docs/p:5")
        self.assertEqual((code, out), (2, ""))
        self.assertIn("\"scan:My  Docs/p:5\" is: a name that holds spaces is one argument, quoted", err)

    def pages_read(self, *args: str) -> tuple[list[str], int]:
        """The source ids a scan command read, in order, and its exit code."""
        from checks.caveats import pairing

        read = []
        real = pairing.scan_sections

        def recording(source_id, *rest, **keywords):
            read.append(source_id)
            return real(source_id, *rest, **keywords)

        with mock.patch.object(pairing, "scan_sections", recording):
            code = main_quietly("scan", "--manifest", str(self.manifest), *args)[0]
        return read, code

    def test_a_review_reads_only_the_pages_its_names_hold(self) -> None:
        # docs/caveats.md: a pair's name holds its source, and a page's findings are its own, so --reject of a pair of
        # aster-copy-v1 reads aster-copy-v1 alone; a name found on no page named (mistyped) reads every page, for the
        # closest names.
        self.assertEqual(self.pages_read("--reject", "scan:aster-copy-v1:13"), (["aster-copy-v1"], 0))
        self.assertEqual(
            self.pages_read("--accept", "scan:aster-copy-v2:7", "--reject", "scan:aster-copy-v1:7#2"),
            (["aster-copy-v1", "aster-copy-v2"], 0),
        )
        # (the page named is read first, then every page)
        self.assertEqual(
            self.pages_read("--reject", "scan:aster-copy-v1:99"),
            (["aster-copy-v1", "aster-copy-v1", "aster-copy-v2"], 2),
        )
        # A declared check's name holds no source: its check's source is read.
        self.assertEqual(self.pages_read("--accept", "save-copy-refuses-existing-path"), (["aster-copy-v1"], 0))
        # --add-checks and --forget-unmatched read every page.
        self.assertEqual(self.pages_read("--add-checks"), (["aster-copy-v1", "aster-copy-v2"], 0))
        self.assertEqual(self.pages_read("--forget-unmatched")[0], ["aster-copy-v1", "aster-copy-v2"])

    def test_a_review_of_the_named_pages_decides_as_one_of_every_page(self) -> None:
        # The same decisions through --source naming every page (every page read) give the same bytes.
        other = self.folder / "other"
        other.mkdir()
        every = self.copy_inputs(other)
        decided = ("--accept", "scan:aster-copy-v2:7", "--reject", "scan:aster-copy-v1:13")
        for manifest, extra in (
            (self.manifest, ()),
            (every, ("--source", "aster-copy-v1", "--source", "aster-copy-v2")),
        ):
            self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(manifest))[0], 0)
            code, out, err = main_quietly("scan", "--manifest", str(manifest), *extra, *decided)
            self.assertEqual((code, err), (0, ""))
            self.assertIn("accepted 1 pair", out)
        self.assertEqual(self.manifest.read_bytes(), every.read_bytes())
        self.assertEqual(self.decisions.read_bytes(), (other / "manifest.decisions.json").read_bytes())

    def test_a_malformed_decisions_file_is_refused(self) -> None:
        named = "; this is the manifest's review decisions file (scan --accept and --reject write it): restore it, or "
        for value, code_name in (
            (json.dumps({"decisions": []}), "bad_decisions"),
            (json.dumps({"decisions_version": 1, "decisions": [{"decision": "maybe"}]}), "bad_decisions"),
            ("<!doctype html>\n", "json_syntax"),
        ):
            with self.subTest(value=value):
                self.decisions.write_text(value, encoding="utf-8")
                code, _, err = main_quietly("scan", "--manifest", str(self.manifest))
                self.assertEqual(code, 1)
                self.assertTrue(err.startswith(f"error: {code_name}: "), err)
                self.assertIn(named, err)

    def test_no_output_replaces_the_decisions_file(self) -> None:
        # scan reads the decisions file beside its manifest: given --manifest, every command protects that path as an
        # input, even before the file exists.
        code, _, err = main_quietly("scan", "--manifest", str(self.manifest), "--html", str(self.decisions))
        self.assertEqual(code, 2)
        self.assertTrue(err.startswith(f"error: output_is_input: {self.decisions}: "), err)
        self.assertFalse(self.decisions.exists())
        self.assertEqual(
            main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")[0], 0
        )
        before = self.decisions.read_bytes()
        result = self.folder / "result.json"
        self.assertEqual(main_quietly("--manifest", str(self.manifest), "--output", str(result))[0], 0)
        # Without --manifest (the lab's own read), an existing decisions file is refused by what it holds.
        for args, code_name in (
            (("--manifest", str(self.manifest), "--output", str(self.decisions)), "output_is_input"),
            (("export", str(result), "--policy", "paragraph", "--output", str(self.decisions)), "output_is_decisions"),
            (("--output", str(self.decisions)), "output_is_decisions"),
        ):
            with self.subTest(args=args[:2]):
                code, out, err = main_quietly(*args)
                self.assertEqual((code, out), (2, ""))
                self.assertTrue(err.startswith(f"error: {code_name}: {self.decisions}: "), err)
                self.assertEqual(self.decisions.read_bytes(), before)
        # scan --accept itself still rewrites it.
        self.assertEqual(
            main_quietly("scan", "--manifest", str(self.manifest), "--accept", "scan:aster-copy-v1:13")[0], 0
        )
        self.assertNotEqual(self.decisions.read_bytes(), before)

    def test_decisions_match_by_quotes_not_by_name(self) -> None:
        pair = decisions.Decision("reject", "old-name", "doc", "Call  f().", "It\nnever\tcloses.")
        self.assertEqual(pair.key(), ("doc", "Call f().", "It never closes."))
        self.assertEqual(decisions.decisions_path(self.folder / "lab.json"), self.folder / "lab.decisions.json")


class ImportTest(LabTestCase):
    """``scan --import``: pairs from any other tool, each quote checked against the pinned text."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = self.copy_inputs()

    def imported(self, *lines: object) -> tuple[int, str, str]:
        path = self.folder / "pairs.jsonl"
        path.write_text(
            "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines), encoding="utf-8"
        )
        return main_quietly("scan", "--manifest", str(self.manifest), "--import", str(path))

    def test_an_imported_pair_counts_as_not_reviewed(self) -> None:
        self.assertEqual(
            self.imported({"source_id": "aster-copy-v1", "instruction": LISTING, "caveat": DOES_NOT})[0], 0
        )
        # Four pairs found: the hand-written check holds one (read), --import declared another (not read).
        code, out, _ = main_quietly("scan", "--add-checks", "--manifest", str(self.manifest))
        self.assertEqual(code, 0)
        self.assertIn("; 3 of 4 pairs not reviewed: read them", out)

    def test_an_imported_pair_validates_like_a_declared_one(self) -> None:
        code, out, err = self.imported(
            {"source_id": "aster-copy-v1", "instruction": LISTING, "caveat": DOES_NOT},
            "",
            {
                "source_id": "aster-copy-v1",
                "instruction": {"quote": "Call save_copy(path, text)", "start": 51},
                "caveat": REFUSES,
            },
        )
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(
            out,
            f"added 1 span check from {self.folder / 'pairs.jsonl'} to {self.manifest} (1 already declared, 0 rejected)\n",
        )
        checks = json.loads(self.manifest.read_text(encoding="utf-8"))["span_checks"]
        # Its name is the source and the caveat's line: "## List documents" is line 11, the pair on line 13.
        self.assertEqual(
            checks[-1],
            {
                "name": "import:aster-copy-v1:13",
                "source_id": "aster-copy-v1",
                "instruction": {"start": span(LISTING)[0], "end": span(LISTING)[1], "quote": LISTING},
                "qualifier": {"start": span(DOES_NOT)[0], "end": span(DOES_NOT)[1], "quote": DOES_NOT},
            },
        )
        result = self.folder / "result.json"
        self.assertEqual(main_quietly("--manifest", str(self.manifest), "--output", str(result))[0], 0)
        code, out, _ = main_quietly("validate", str(result), "--manifest", str(self.manifest))
        self.assertEqual(code, 0, out)

    def test_a_bad_line_is_refused_naming_the_file_and_line(self) -> None:
        before = self.manifest.read_bytes()
        good = {"source_id": "aster-copy-v1", "instruction": LISTING, "caveat": DOES_NOT}
        where = f"{self.folder / 'pairs.jsonl'}:2"
        cases = [
            (
                {**good, "caveat": "Not in the text."},
                f'{where}: caveat: quote "Not in the text." is not in "aster-copy-v1"',
            ),
            (
                {**good, "caveat": "document"},
                f'{where}: caveat: quote "document" occurs more than once in "aster-copy-v1"',
            ),
            ({**good, "caveat": {"quote": DOES_NOT, "start": 3}}, f"{where}: caveat: quote"),
            ({**good, "source_id": "nope"}, f'{where}: source_id "nope" is not a source of the manifest'),
            ({**good, "qualifer": "typo"}, f'{where}: unknown field "qualifer"'),
            ({**good, "caveat": " padded "}, f"{where}: caveat: quote"),
            (
                '{"source_id": "aster-copy-v1", "source_id": "aster-copy-v1"}',
                f'{where}: field "source_id" is given twice',
            ),
            ("not json", f"{where}: not a JSON object: column 1: Expecting value"),
            # The string opens at column 15 and never closes: the parser's "starting at" needs the place after it.
            ('{"source_id": "aster', f"{where}: not a JSON object: column 15: Unterminated string starting here"),
            # The same sentence given as both: the caveat would be the instruction's own, no pair.
            ({**good, "caveat": LISTING}, f"{where}: the instruction [{span(LISTING)[0]}, {span(LISTING)[1]}) and the"),
        ]
        for line, message in cases:
            with self.subTest(line=line):
                code, out, err = self.imported(good, line)
                self.assertEqual((code, out), (1, ""))
                self.assertTrue(err.startswith(f"error: bad_import: {message}"), err)
                self.assertEqual(len(err.splitlines()), 1)
                self.assertEqual(self.manifest.read_bytes(), before)

    def test_a_quote_whose_whitespace_differs_names_the_text_as_it_is(self) -> None:
        # The page puts a blank line between the two sentences; a tool gave them on one line, and the listing
        # sentence with a double space.
        wrapped = "Call save_copy(path, text) to store a new document in the synthetic Aster API.\n\n" + REFUSES
        self.assertIn(wrapped, V1_TEXT)
        code, _, err = self.imported(
            {
                "source_id": "aster-copy-v1",
                "instruction": "Call list_copies() to return the currently  stored document names.",
                "caveat": DOES_NOT,
            },
            {"source_id": "aster-copy-v1", "instruction": " ".join(wrapped.split()), "caveat": NEVER},
            {
                "source_id": "aster-copy-v1",
                "instruction": {"quote": "After a refusal,  keep", "start": V1_TEXT.index(AFTER_REFUSAL)},
                "caveat": TEACHING,
            },
        )
        self.assertEqual((code, err), (0, ""))
        checks = json.loads(self.manifest.read_text(encoding="utf-8"))["span_checks"][-3:]
        wrapped_at = V1_TEXT.index(wrapped)
        keep_at = V1_TEXT.index(AFTER_REFUSAL)
        self.assertEqual(
            [check["instruction"] for check in checks],
            [
                {"start": span(LISTING)[0], "end": span(LISTING)[1], "quote": LISTING},
                {"start": wrapped_at, "end": wrapped_at + len(wrapped), "quote": wrapped},
                {"start": keep_at, "end": keep_at + len("After a refusal, keep"), "quote": "After a refusal, keep"},
            ],
        )
        where = f"{self.folder / 'pairs.jsonl'}:1"
        for caveat, message in (
            ("a  document", 'occurs more than once in "aster-copy-v1" with its whitespace read loosely'),
            ("does not  create or  replace a  documents", 'is not in "aster-copy-v1"'),
            # Two places that overlap ("a document" … "document" is no overlap; "the  synthetic" is once): a quote
            # of a repeated phrase, given reflowed, is as ambiguous as given exactly.
            ("a  document", "(at "),
        ):
            with self.subTest(caveat=caveat):
                code, out, err = self.imported({"source_id": "aster-copy-v1", "instruction": LISTING, "caveat": caveat})
                self.assertEqual((code, out), (1, ""))
                self.assertTrue(err.startswith(f"error: bad_import: {where}: caveat: "), err)
                self.assertIn(message, err)

    def test_a_rejected_pair_is_not_imported(self) -> None:
        self.assertEqual(
            main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:13")[0], 0
        )
        code, out, _ = self.imported({"source_id": "aster-copy-v1", "instruction": LISTING, "caveat": DOES_NOT})
        self.assertEqual(code, 0)
        self.assertIn("(of the pairs in", out)
        self.assertIn("0 already declared, 1 rejected)", out)


class EvaluateTest(LabTestCase):
    """``scan --evaluate``: the matching rule, and the three figures on a page labelled for the test."""

    def test_spans_match_by_half_of_the_shorter(self) -> None:
        self.assertTrue(evaluation.spans_match((0, 10), (5, 30)))  # 5 of the shorter 10
        self.assertFalse(evaluation.spans_match((0, 10), (6, 30)))  # 4 of 10
        self.assertTrue(evaluation.spans_match((10, 20), (0, 100)))  # one inside the other
        self.assertFalse(evaluation.spans_match((0, 10), (10, 20)))  # touching is no overlap

    def labels(self, folder_value: dict | None = None) -> str:
        # Labelled by the rules of docs/caveats.md ("What a caveat is"): the lesson's pair; the "never"
        # sentence as a caveat of the instruction after it (so the scan's pairing, by save_copy, is wrong);
        # the listing pair; and a general caveat the rules cannot find ("not a production incident").
        page = {
            "text_sha256": hashlib.sha256(V1_TEXT.encode("utf-8")).hexdigest(),
            "pairs": [
                {"instruction": span(LESSON_SENTENCE), "caveat": span(REFUSES)},
                {"instruction": span(AFTER_REFUSAL), "caveat": span(NEVER)},
                {"instruction": span(LISTING), "caveat": span(DOES_NOT)},
            ],
            "general_caveats": [{"caveat": span(TEACHING)}],
        }
        other = {"text_sha256": "0" * 64, "pairs": [], "general_caveats": []}
        return str(self.write_json("labels.json", folder_value or {"pages": [page, other]}))

    def test_the_figures(self) -> None:
        code, out, err = main_quietly("scan", "--evaluate", self.labels(), "--json")
        self.assertEqual((code, err), (0, ""))
        figures = json.loads(out)
        # The scan's three pairs on the page: the lesson's (tier 1, right), the "never" one (tier 1, its
        # instruction not the labelled one), the listing one (tier 2, right). aster-copy-v2 is not labelled.
        rows = {row["tier"]: row for row in figures["tiers"]}
        expected = {
            1: (2, 1, 4, 2, 3, 1, 0.5, 0.5, 0.3333),
            2: (3, 2, 4, 3, 3, 2, 0.6667, 0.75, 0.6667),
            3: (3, 2, 4, 3, 3, 2, 0.6667, 0.75, 0.6667),
        }
        keys = (
            "proposed",
            "right",
            "caveats",
            "caveats_found",
            "pairs",
            "pairs_found",
            "precision",
            "caveat_recall",
            "pair_recall",
        )
        for tier, values in expected.items():
            with self.subTest(tier=tier):
                self.assertEqual(tuple(rows[tier][key] for key in keys), values)
        self.assertEqual((figures["matched_pages"], figures["labelled_pages"]), (1, 2))
        code, out, _ = main_quietly("scan", "--evaluate", self.labels(), "--tier", "2")
        lines = out.splitlines()
        self.assertEqual(
            lines[2].split(),
            ["2", "and", "stronger", "*", "3", "2", "0.67", "3", "of", "4", "0.75", "2", "of", "3", "0.67"],
        )
        self.assertTrue(lines[5].startswith("matching: a proposed pair is right when its caveat matches"), lines[5])

    def test_bad_labels(self) -> None:
        cases = [
            ({"pages": "x"}, "bad_labels"),
            ({"pages": [{"text_sha256": "abc"}]}, "bad_labels"),
            (
                {"pages": [{"text_sha256": "0" * 64, "pairs": [{"instruction": [5, 2], "caveat": [0, 1]}]}]},
                "bad_labels",
            ),
            ({"pages": [{"text_sha256": "0" * 64}]}, "labels_not_in_manifest"),
        ]
        for value, code in cases:
            with self.subTest(value=value):
                exit_code, out, err = main_quietly("scan", "--evaluate", self.labels(value))
                self.assertEqual((exit_code, out), (1, ""))
                self.assertTrue(err.startswith(f"error: {code}: "), err)

    def test_a_refused_labels_file_is_refused_before_any_page_is_scanned(self) -> None:
        # docs/caveats.md: the labels are read first, so a wrong file costs no scan of the docs set.
        from commands import scan as scan_command

        def no_scan(*args, **kwargs):
            raise AssertionError("the pages were scanned before the labels were read")

        for value, code in (({"pages": "x"}, "bad_labels"), ({"pages": [{"text_sha256": "0" * 64}]}, "labels_not")):
            with self.subTest(code=code), mock.patch.object(scan_command, "scanned_pairs", no_scan):
                exit_code, out, err = main_quietly("scan", "--evaluate", self.labels(value))
                self.assertEqual((exit_code, out), (1, ""))
                self.assertTrue(err.startswith(f"error: {code}"), err)


class TrustFigures(LabTestCase):
    """The README's figures of how far to trust the scan are those of docs/caveats.md, "Where the scan stands"."""

    def test_the_readme_quotes_the_current_measure(self) -> None:
        def words(path: str) -> str:
            return " ".join((ROOT / path).read_text(encoding="utf-8").split())

        guide = re.search(
            r"The three sets the rules were first made on give ([\d.]+) to ([\d.]+) precision at tier 2\. The (\S+) "
            r"sets each measured once before any rule was made from them, from (\d+) public docs sites \([^)]*\), gave, "
            r"at that first measure, ([\d.]+) to ([\d.]+) precision, ([\d.]+) to ([\d.]+) caveat recall",
            words("docs/caveats.md").split("**Where the scan stands**", 1)[1],
        )
        readme = re.search(
            r"hand-labelled pages of (\d+) public docs sites: on the three sets the rules were first made on, "
            r"([\d.]+) to ([\d.]+) of the default tier's pairs are right; on (\S+) docs sets measured before any rule "
            r"had read them, ([\d.]+) to ([\d.]+) were right and ([\d.]+) to ([\d.]+) of the labelled caveats",
            words("README.md"),
        )
        self.assertIsNotNone(guide)
        self.assertIsNotNone(readme)
        found = guide.groups()
        self.assertEqual(readme.groups(), (found[3], *found[:3], *found[4:]))
