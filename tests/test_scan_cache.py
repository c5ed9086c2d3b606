"""The scan cache: a second scan reads only the pages that changed, and answers as a scan of every page does.

The cases run on a copy of the fixture. Its aster-copy-v1 page holds "Listing documents does not create or
replace a document." on line 13, which the rules pair with the sentence before it (``tests/test_caveat_review.py``
walks through the page's pairs); the tests count the pages the rules read by counting ``scan_sections`` calls.
"""

from __future__ import annotations

import json
import os
from unittest import mock

from checks.caveats import pairing, scan_cache
from tests.support import ROOT, LabTestCase
from tests.test_caveat_scan import main_quietly

V1_TEXT = (ROOT / "docs" / "aster-copy-v1.md").read_text(encoding="utf-8")
DOES_NOT = "Listing documents does not create or replace a document."


class CacheCase(LabTestCase):
    """A copy of the fixture, scanned with the cache the tests otherwise turn off (``tests/__init__.py``)."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = self.copy_inputs()
        self.cache = self.folder / ".lab-cache" / "manifest.scan.json"
        environment = mock.patch.dict(os.environ, {scan_cache.NO_CACHE_VARIABLE: ""})
        environment.start()
        self.addCleanup(environment.stop)

    def scan(self, *options: str) -> tuple[str, list[str]]:
        """``scan --json`` of the copy: its output and the source ids the rules read."""
        read: list[str] = []
        real = pairing.scan_sections

        def counted(source_id, *args, **kwargs):
            read.append(source_id)
            return real(source_id, *args, **kwargs)

        with mock.patch.object(pairing, "scan_sections", counted):
            code, out, err = main_quietly("scan", "--json", "--tier", "3", "--manifest", str(self.manifest), *options)
        self.assertEqual((code, err), (0, ""))
        return out, read


class ScanCacheTest(CacheCase):
    """``scan`` and ``context --scanned`` read only the pages that changed, and answer the same."""

    def test_a_scan_of_one_page_keeps_the_others_findings(self) -> None:
        whole, read = self.scan()
        self.assertEqual(read, ["aster-copy-v1", "aster-copy-v2"])
        # --source reads its page (cached: none), and the cache still holds both pages for the next whole scan.
        one, read = self.scan("--source", "aster-copy-v2")
        self.assertEqual(read, [])
        self.assertEqual({pair["source_id"] for pair in json.loads(one)["pairs"]}, {"aster-copy-v2"})
        self.assertEqual(
            set(json.loads(self.cache.read_text(encoding="utf-8"))["pages"]), {"aster-copy-v1", "aster-copy-v2"}
        )
        again, read = self.scan()
        self.assertEqual((again, read), (whole, []))

    def test_a_second_scan_reads_no_page_and_answers_the_same(self) -> None:
        first, read = self.scan()
        self.assertEqual(read, ["aster-copy-v1", "aster-copy-v2"])
        self.assertTrue(self.cache.is_file())
        self.assertEqual((self.cache.parent / ".gitignore").read_text(encoding="utf-8").splitlines()[-1], "*")
        second, read = self.scan()
        self.assertEqual((second, read), (first, []))
        # The name and quotes are made again from the pinned text: line 13, counted by hand.
        pair = next(pair for pair in json.loads(second)["pairs"] if pair["qualifier"]["quote"] == DOES_NOT)
        self.assertEqual(pair["name"], "scan:aster-copy-v1:13")
        self.assertEqual(pair["qualifier"]["start"], V1_TEXT.index(DOES_NOT))
        self.assertEqual(self.scan("--no-cache"), (first, ["aster-copy-v1", "aster-copy-v2"]))

    def test_an_edited_page_is_read_again_and_only_it(self) -> None:
        self.scan()
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(
            V1_TEXT.replace("## List documents\n", "An added paragraph.\n\n## List documents\n"), encoding="utf-8"
        )
        code, _, err = main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))
        self.assertEqual(code, 0, err)
        cached, read = self.scan()
        self.assertEqual(read, ["aster-copy-v1"])
        self.assertEqual(cached, self.scan("--no-cache")[0])
        # Two lines above the listing section: the pair is on line 15 now.
        names = [pair["name"] for pair in json.loads(cached)["pairs"] if pair["qualifier"]["quote"] == DOES_NOT]
        self.assertEqual(names, ["scan:aster-copy-v1:15"])

    def test_a_pair_of_every_instruction_form_is_read_back(self) -> None:
        # scan_version 22's form, "api description": a sentence that describes what the caveat names.
        page = self.folder / "docs" / "aster-copy-v1.md"
        described = "The `dependencies` parameter is an optional list of decorators."
        caveat = "If one of the `dependencies` is missing, the `decorate` method raises an exception."
        page.write_text(f"{V1_TEXT}\n## Decorators\n\n{described}\n\n{caveat}\n", encoding="utf-8")
        code, _, err = main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))
        self.assertEqual(code, 0, err)
        first, _ = self.scan()
        second, read = self.scan()
        self.assertEqual((second, read), (first, []))
        pair = next(pair for pair in json.loads(second)["pairs"] if pair["qualifier"]["quote"] == caveat)
        self.assertEqual((pair["instruction"]["quote"], pair["instruction_rule"]), (described, "api description"))

    def test_a_cache_the_lab_did_not_write_is_read_past(self) -> None:
        first, _ = self.scan()
        written = json.loads(self.cache.read_text(encoding="utf-8"))
        entry = written["pages"]["aster-copy-v1"]
        length = len(V1_TEXT)
        broken = {
            "not JSON": b"{",
            "another kind": json.dumps({**written, "lab_cache": "other"}).encode(),
            "another key": json.dumps({**written, "key": "0" * 64}).encode(),
            "pages not an object": json.dumps({**written, "pages": []}).encode(),
        }
        for label, pair in {
            "a span past the text": [0, 5, length - 1, length + 1, *entry["pairs"][0][4:]],
            "an empty span": [0, 5, 7, 7, *entry["pairs"][0][4:]],
            "a tier out of range": [*entry["pairs"][0][:7], 9, *entry["pairs"][0][8:]],
            "a rule not a string": [*entry["pairs"][0][:4], 1, *entry["pairs"][0][5:]],
            "a short row": entry["pairs"][0][:3],
            "a boolean offset": [True, 5, *entry["pairs"][0][2:]],
        }.items():
            pages = {**written["pages"], "aster-copy-v1": {**entry, "pairs": [pair]}}
            broken[label] = json.dumps({**written, "pages": pages}).encode()
        broken["another title"] = json.dumps(
            {**written, "pages": {**written["pages"], "aster-copy-v1": {**entry, "title": "Other"}}}
        ).encode()
        for label, data in broken.items():
            with self.subTest(label):
                self.cache.write_bytes(data)
                out, read = self.scan()
                self.assertEqual(out, first)
                self.assertIn("aster-copy-v1", read)
                # Written again, as the lab writes it: the next scan reads nothing.
                self.assertEqual(self.scan(), (first, []))

    def test_no_cache_reads_and_writes_none(self) -> None:
        first, _ = self.scan("--no-cache")
        self.assertFalse(self.cache.parent.exists())
        self.scan()
        self.cache.write_bytes(b"{")
        self.assertEqual(self.scan("--no-cache"), (first, ["aster-copy-v1", "aster-copy-v2"]))
        self.assertEqual(self.cache.read_bytes(), b"{")
        with mock.patch.dict(os.environ, {scan_cache.NO_CACHE_VARIABLE: "1"}):
            self.assertEqual(self.scan(), (first, ["aster-copy-v1", "aster-copy-v2"]))
        self.assertEqual(self.cache.read_bytes(), b"{")

    def test_a_refused_scan_writes_no_cache(self) -> None:
        code, _, err = main_quietly("scan", "--manifest", str(self.manifest), "--reject", "scan:aster-copy-v1:99")
        # A name no scan found is a usage error (exit 2).
        self.assertEqual(code, 2)
        self.assertIn("scan:aster-copy-v1:99", err)
        self.assertFalse(self.cache.parent.exists())

    def test_a_cache_that_cannot_be_written_is_skipped(self) -> None:
        (self.folder / ".lab-cache").write_text("a file where the folder would be", encoding="utf-8")
        first, _ = self.scan()
        self.assertEqual(self.scan(), (first, ["aster-copy-v1", "aster-copy-v2"]))

    def test_the_key_moves_with_the_grammar_and_the_code(self) -> None:
        self.assertNotEqual(scan_cache.rules_key("blocks-3"), scan_cache.rules_key("blocks-4"))
        module = self.folder / "module.py"
        module.write_text("A = 1\n", encoding="utf-8")
        with mock.patch.object(scan_cache, "lab_modules", return_value=[module]), mock.patch.object(
            scan_cache, "LAB_ROOT", self.folder
        ):
            before = scan_cache.rules_key("blocks-3")
            module.write_text("A = 2\n", encoding="utf-8")
            self.assertNotEqual(scan_cache.rules_key("blocks-3"), before)
            module.unlink()
            self.assertIsNone(scan_cache.rules_key("blocks-3"))
        modules = [path.relative_to(ROOT).as_posix() for path in scan_cache.lab_modules()]
        self.assertIn("checks/caveats/rules.py", modules)
        self.assertIn("grammars/blocks.py", modules)
        self.assertFalse(any(path.startswith("tests/") for path in modules))
        self.assertIn("run.py", modules)
        # A folder that is no package of the lab (a virtual environment, a docs set) is not walked.
        with mock.patch.object(scan_cache, "LAB_ROOT", self.folder):
            (self.folder / "lab").mkdir()
            (self.folder / "lab" / "__init__.py").write_text("", encoding="utf-8")
            (self.folder / ".venv" / "lib").mkdir(parents=True)
            (self.folder / ".venv" / "lib" / "site.py").write_text("", encoding="utf-8")
            (self.folder / "run.py").write_text("", encoding="utf-8")
            found = [path.relative_to(self.folder).as_posix() for path in scan_cache.lab_modules()]
        self.assertEqual(found, ["lab/__init__.py", "run.py"])

    def test_context_scanned_shares_the_cache(self) -> None:
        self.scan()
        read: list[str] = []
        real = pairing.scan_sections
        with mock.patch.object(pairing, "scan_sections", lambda *a, **k: read.append(a[0]) or real(*a, **k)):
            code, _, err = main_quietly("context", "--scanned", "--manifest", str(self.manifest))
        self.assertEqual((code, err, read), (0, "", []))
        code, _, err = main_quietly("context", "--no-cache", "--manifest", str(self.manifest))
        self.assertEqual(code, 2)
        self.assertIn("--no-cache", err)


class ScanCacheHardeningTest(CacheCase):
    """What a cache the lab did not write can and cannot do (``checks/caveats/scan_cache.py``)."""

    def test_words_that_do_not_print_are_read_past(self) -> None:
        first, _ = self.scan()
        written = json.loads(self.cache.read_text(encoding="utf-8"))
        entry = written["pages"]["aster-copy-v1"]
        for place, value in ((4, "error\x1b[31m"), (6, "term\nx"), (8, "no form")):
            row = list(entry["pairs"][0])
            row[place] = value
            with self.subTest(value=value):
                pages = {**written["pages"], "aster-copy-v1": {**entry, "pairs": [row]}}
                self.cache.write_text(json.dumps({**written, "pages": pages}), encoding="utf-8")
                self.assertEqual(self.scan(), (first, ["aster-copy-v1"]))

    def test_what_the_manifest_declares_is_found_afresh(self) -> None:
        self.scan()
        written = json.loads(self.cache.read_text(encoding="utf-8"))
        entry = written["pages"]["aster-copy-v1"]
        # A pair no rule finds, its offsets within the page: a listing view would show it; a declaration must not.
        invented = [0, 5, 10, 20, "prohibition", "must not", "nearest", 1, "imperative", 1]
        pages = {**written["pages"], "aster-copy-v1": {**entry, "pairs": [*entry["pairs"], invented]}}
        self.cache.write_text(json.dumps({**written, "pages": pages}), encoding="utf-8")
        code, _, err = main_quietly("scan", "--add-checks", "--tier", "3", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        qualifiers = [check["qualifier"]["quote"] for check in json.loads(self.manifest.read_text())["span_checks"]]
        self.assertNotIn(V1_TEXT[10:20], qualifiers)
        self.assertIn(DOES_NOT, qualifiers)

    def test_the_lab_s_own_manifests_get_no_cache(self) -> None:
        self.assertIsNone(scan_cache.cache_path(ROOT / "manifest.json"))
        self.assertIsNone(scan_cache.cache_path(ROOT / "docs" / "examples" / "manifest.json"))
        self.assertEqual(scan_cache.cache_path(self.manifest), self.cache)

    def test_no_cache_through_a_link_or_a_fifo(self) -> None:
        first, _ = self.scan()
        elsewhere = self.folder / "elsewhere"
        elsewhere.mkdir()
        # A cache file that is a link, and a cache folder that is one: read past, and never written through.
        self.cache.unlink()
        self.cache.symlink_to(elsewhere / "target.json")
        self.assertEqual(self.scan(), (first, ["aster-copy-v1", "aster-copy-v2"]))
        self.assertFalse((elsewhere / "target.json").exists())
        self.cache.unlink()
        os.mkfifo(self.cache)
        self.assertEqual(self.scan(), (first, ["aster-copy-v1", "aster-copy-v2"]))
        self.cache.unlink()
        for name in os.listdir(self.cache.parent):
            os.unlink(self.cache.parent / name)
        self.cache.parent.rmdir()
        self.cache.parent.symlink_to(elsewhere, target_is_directory=True)
        self.assertEqual(self.scan(), (first, ["aster-copy-v1", "aster-copy-v2"]))
        self.assertEqual(os.listdir(elsewhere), [])

    def test_a_report_written_where_the_cache_would_be_is_kept(self) -> None:
        self.scan()
        page = self.folder / "docs" / "aster-copy-v1.md"
        page.write_text(
            V1_TEXT.replace("## List documents\n", "A new paragraph.\n\n## List documents\n"), encoding="utf-8"
        )
        self.assertEqual(main_quietly("pin", "--manifest", str(self.manifest), "--reanchor", str(page))[0], 0)
        code, _, err = main_quietly("scan", "--manifest", str(self.manifest), "--html", str(self.cache))
        self.assertEqual(code, 0, err)
        self.assertTrue(self.cache.read_text(encoding="utf-8").startswith("<!DOCTYPE html>"))
