"""The pinned-source loader: what it hands the builder and every refusal the spec lists."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import load_documents
from lab_io.errors import IngestionError
from load_documents import SOURCE_FIELDS, load_manifest
from tests.support import LabTestCase


class LoaderTestCase(LabTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.manifest_path = self.copy_inputs()
        self.manifest = json.loads(self.manifest_path.read_text(encoding="utf-8"))

    def save_manifest(self) -> Path:
        self.manifest_path.write_text(json.dumps(self.manifest, indent=2), encoding="utf-8")
        return self.manifest_path

    def pin_file(self, relative: str, data: bytes, entry: int = 0) -> None:
        """Write ``data`` to ``relative`` and pin it as source ``entry`` (fresh, correct hash)."""
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.manifest["sources"][entry]["path"] = relative
        self.manifest["sources"][entry]["sha256"] = hashlib.sha256(data).hexdigest()
        # A new text no longer holds the fixture's quoted spans.
        self.manifest["span_checks"] = []

    def assert_refused(self, code: str) -> IngestionError:
        with self.assertRaises(IngestionError) as caught:
            load_manifest(self.save_manifest())
        self.assertEqual(caught.exception.code, code, str(caught.exception))
        return caught.exception


class WhatTheBuilderGets(LoaderTestCase):
    def test_sources_hold_exactly_the_seven_fields_and_text_sorted_by_source_id(self):
        self.manifest["sources"].reverse()
        manifest = load_manifest(self.save_manifest())
        self.assertEqual([source["source_id"] for source in manifest.sources], ["aster-copy-v1", "aster-copy-v2"])
        for source in manifest.sources:
            self.assertEqual(list(source), [*SOURCE_FIELDS, "text"])

    def test_line_endings_are_normalized_after_the_hash_check(self):
        self.pin_file("docs/crlf.md", b"# Title\r\n\r\nline one\rline two\r\n")
        text = load_manifest(self.save_manifest()).sources[0]["text"]
        self.assertEqual(text, "# Title\n\nline one\nline two\n")

    def test_span_checks_are_confirmed_against_the_text(self):
        check = load_manifest(self.save_manifest()).span_checks[0]
        self.assertEqual((check.instruction.start, check.instruction.end), (51, 77))
        self.assertEqual(check.qualifier.quote, "This operation refuses an existing path.")

    def test_works_from_any_working_directory(self):
        previous = os.getcwd()
        self.addCleanup(os.chdir, previous)
        os.chdir(self.folder / "docs")
        self.assertEqual(len(load_manifest(self.manifest_path).sources), 2)


class EditedPinnedSource(LoaderTestCase):
    """The lab's first lesson: a pinned file edited without re-pinning fails at load time."""

    def test_one_changed_byte_is_refused_before_decoding(self):
        source = self.folder / "docs" / "aster-copy-v1.md"
        data = source.read_bytes()
        source.write_bytes(data.replace(b"refuses", b"accepts"))
        error = self.assert_refused("hash_mismatch")
        self.assertIn("aster-copy-v1", str(error))
        self.assertIn("34257e6c9c3e", str(error))

    def test_every_edited_page_is_counted_in_the_one_line(self):
        # Both pages edited: the first in the manifest's order is named whole, the other counted and named after it.
        for name in ("aster-copy-v1.md", "aster-copy-v2.md"):
            source = self.folder / "docs" / name
            source.write_bytes(source.read_bytes() + b"\nAn added line.\n")
        error = self.assert_refused("hash_mismatch")
        self.assertTrue(str(error).startswith("hash_mismatch: ") and 'sources[0] ("aster-copy-v1")' in str(error))
        self.assertTrue(str(error).endswith('; 1 more page differs from its pin too: "aster-copy-v2"'), str(error))

    def test_a_page_gone_after_the_edited_one_is_counted_with_its_reason(self):
        source = self.folder / "docs" / "aster-copy-v1.md"
        source.write_bytes(source.read_bytes() + b"\nAn added line.\n")
        (self.folder / "docs" / "aster-copy-v2.md").unlink()
        error = self.assert_refused("hash_mismatch")
        self.assertTrue(
            str(error).endswith('; 1 more page differs from its pin too: "aster-copy-v2" (source_missing)'), str(error)
        )

    def test_a_pin_edited_in_its_last_digit_is_shown_in_full(self):
        # Two 12-digit prefixes would read alike: the digests are shown as far as they differ, here whole.
        actual = hashlib.sha256((self.folder / "docs" / "aster-copy-v1.md").read_bytes()).hexdigest()
        edited = actual[:-1] + ("0" if actual[-1] != "0" else "1")
        self.manifest["sources"][0]["sha256"] = edited
        error = self.assert_refused("hash_mismatch")
        self.assertIn(f"manifest pins {edited}, file has {actual};", str(error))

    def test_invalid_utf8_with_a_stale_pin_reports_the_hash_not_the_encoding(self):
        source = self.folder / "docs" / "aster-copy-v1.md"
        source.write_bytes(b"# T\n\xff\xfe\n")
        self.assert_refused("hash_mismatch")


class SourceRefusals(LoaderTestCase):
    def test_file_contents(self):
        cases = {
            "source_too_large": b"# T\n" + b"x" * 65_536,
            "not_utf8": b"# T\n\xff\n",
            "nul_character": b"# T\n\x00\n",
            "blank_text": b" \n\r\n\t",
        }
        for code, data in cases.items():
            with self.subTest(code=code):
                self.pin_file("docs/case.md", data)
                self.assert_refused(code)

    def test_exactly_the_size_bound_is_accepted(self):
        data = b"# T\n" + b"x" * (65_536 - 5) + b"\n"
        self.pin_file("docs/bound.md", data)
        self.assertEqual(len(load_manifest(self.save_manifest()).sources[0]["text"]), 65_536)

    def test_paths(self):
        outside = self.folder.parent / f"{self.folder.name}-outside.md"
        cases = {
            "path_absolute": str(self.folder / "docs" / "aster-copy-v1.md"),
            "path_outside": "../outside.md",
            "source_missing": "docs/missing.md",
            "source_not_file": "docs",
            "path_unprintable": "docs/aster\x00copy-v1.md",
        }
        for code, relative in cases.items():
            with self.subTest(code=code):
                self.manifest["sources"][0]["path"] = relative
                self.assert_refused(code)
        self.assertFalse(outside.exists())

    def test_a_missing_source_says_where_it_was_sought(self):
        # Paths are relative to the manifest's folder, not to where the command runs: the refusal names the path
        # looked at (here absolute: the test's folder is outside the current one, which is not the manifest's).
        self.manifest["sources"][0]["path"] = "docs/missing.md"
        error = self.assert_refused("source_missing")
        sought = self.folder.resolve() / "docs" / "missing.md"
        self.assertTrue(
            str(error).endswith(
                f'"docs/missing.md" does not exist (sought at "{sought}": a source\'s path is relative to the '
                "manifest's folder)"
            ),
            str(error),
        )

    def test_a_link_anywhere_on_the_path(self):
        (self.folder / "linked-docs").symlink_to(self.folder / "docs", target_is_directory=True)
        (self.folder / "docs" / "link.md").symlink_to(self.folder / "docs" / "aster-copy-v1.md")
        for relative in ("linked-docs/aster-copy-v1.md", "docs/link.md"):
            with self.subTest(path=relative):
                self.manifest["sources"][0]["path"] = relative
                self.assert_refused("path_link")

    def test_fields(self):
        cases = [
            ("missing_field", lambda entry: entry.pop("url")),
            ("unknown_field", lambda entry: entry.update(extra="x")),
            ("field_not_string", lambda entry: entry.update(title=1)),
            ("field_not_string", lambda entry: entry.update(version=1.0)),
            ("empty_field", lambda entry: entry.update(fact_status="")),
            ("bad_version", lambda entry: entry.update(version="1")),
            ("bad_version", lambda entry: entry.update(version="1.0.0")),
            ("bad_version", lambda entry: entry.update(version="1.0\n")),
            ("bad_version", lambda entry: entry.update(version="\uff11.\uff10")),
            ("bad_version", lambda entry: entry.update(version="\u0661.0")),
            ("bad_sha256", lambda entry: entry.update(sha256=entry["sha256"].upper())),
        ]
        original = json.loads(json.dumps(self.manifest))
        for code, mutate in cases:
            with self.subTest(code=code, case=cases.index((code, mutate))):
                self.manifest = json.loads(json.dumps(original))
                mutate(self.manifest["sources"][0])
                error = self.assert_refused(code)
                self.assertIn("sources[0]", error.where)

    def test_duplicates(self):
        cases = {
            "duplicate_source_id": {"source_id": "aster-copy-v1"},
            "duplicate_path": {"path": "docs/./aster-copy-v1.md"},
        }
        original = json.loads(json.dumps(self.manifest))
        for code, change in cases.items():
            with self.subTest(code=code):
                self.manifest = json.loads(json.dumps(original))
                self.manifest["sources"][1].update(change)
                self.assert_refused(code)


class ManifestRefusals(LoaderTestCase):
    def test_shape(self):
        cases = [
            ("manifest_not_object", []),
            ("no_sources", {"sources": []}),
            ("unknown_field", {"sources": [], "extra": 1}),
            ("source_not_object", {"sources": ["docs/aster-copy-v1.md"]}),
        ]
        for code, value in cases:
            with self.subTest(code=code):
                self.manifest = value
                self.assert_refused(code)

    def test_span_checks(self):
        cases = [
            ("stale_span_check", ("instruction", "start", 52)),
            ("stale_span_check", ("qualifier", "quote", "This operation accepts an existing path.")),
            ("span_out_of_range", ("qualifier", "end", 10_000)),
            ("span_out_of_range", ("instruction", "start", -1)),
            ("span_not_int", ("instruction", "end", 77.0)),
            ("span_not_int", ("instruction", "start", True)),
            ("span_quote", ("instruction", "quote", "")),
        ]
        original = json.loads(json.dumps(self.manifest))
        for code, (role, key, value) in cases:
            with self.subTest(code=code, role=role, key=key, value=value):
                self.manifest = json.loads(json.dumps(original))
                self.manifest["span_checks"][0][role][key] = value
                error = self.assert_refused(code)
                self.assertIn(f'span_checks[0] ("save-copy-refuses-existing-path").{role}', error.where)

    def test_a_span_the_wrong_way_round_is_named_so(self):
        # Both offsets inside the text: the span is empty or reversed, not out of the text.
        start = self.manifest["span_checks"][0]["qualifier"]["start"]
        for end in (start, start - 1):
            with self.subTest(end=end):
                self.manifest["span_checks"][0]["qualifier"]["end"] = end
                error = self.assert_refused("span_out_of_range")
                self.assertTrue(
                    error.what.startswith(f"[{start}, {end}) is reversed or empty: end must come after start"),
                    error.what,
                )
        self.manifest["span_checks"][0]["qualifier"]["end"] = 10_000
        self.assertIn("is not inside the text of", self.assert_refused("span_out_of_range").what)

    def test_span_check_of_an_unknown_source(self):
        self.manifest["span_checks"][0]["source_id"] = "aster-copy-v9"
        self.assert_refused("span_check_source")


class SpanCheckQuery(LoaderTestCase):
    """A span check's optional ``query``: a string holding a word, read as it is; without it nothing changes."""

    def test_a_query_is_read_as_written(self):
        self.manifest["span_checks"][0]["query"] = "how do I save a copy?"
        check = load_manifest(self.save_manifest()).span_checks[0]
        self.assertEqual(check.query, "how do I save a copy?")

    def test_a_check_without_a_query_has_none(self):
        self.assertIsNone(load_manifest(self.save_manifest()).span_checks[0].query)

    def test_bad_queries_are_refused_with_their_place(self):
        for value in ("", "  ", "?!", None, 7, ["save"]):
            with self.subTest(value=value):
                self.manifest["span_checks"][0]["query"] = value
                error = self.assert_refused("span_check_query")
                self.assertEqual(
                    error.where, f'{self.manifest_path}: span_checks[0] ("save-copy-refuses-existing-path")'
                )

    def test_other_keys_are_still_refused(self):
        self.manifest["span_checks"][0]["question"] = "how?"
        error = self.assert_refused("span_check_fields")
        self.assertIn("optionally query, found instruction, name, qualifier, question, source_id", str(error))


class QuoteNotFoundHint(LabTestCase):
    """A quote found nowhere as written, but once with its white space read loosely, is refused with where that is
    and the text as it stands there (a new user quoted a sentence the page breaks over two lines)."""

    def test_the_place_and_the_text_read_loosely(self):
        text = "Intro.\n\nUse the widget\nregistry to pull."
        with self.assertRaises(IngestionError) as raised:
            load_documents.located_span("Use the widget registry", text, "docs/auth", "m.json: span_checks[0]")
        self.assertEqual(raised.exception.code, "quote_not_found")
        self.assertEqual(
            raised.exception.what,
            '"Use the widget registry" occurs 0 times in "docs/auth"; with its white space read loosely it occurs '
            'once, at [8, 31) (line 3), as "Use the widget\\nregistry": quote that',
        )

    def test_no_hint_when_loose_reading_finds_none_or_two(self):
        for text in ("Use the gadget registry.", "Use the widget\nregistry. Use the widget  registry."):
            with self.subTest(text=text):
                with self.assertRaises(IngestionError) as raised:
                    load_documents.located_span("Use the widget registry", text, "docs/auth", "m.json")
                self.assertEqual(raised.exception.what, '"Use the widget registry" occurs 0 times in "docs/auth"')


class QuoteNotFoundHintEdges(LabTestCase):
    """The loose reading counts places as a quote's own search does, overlapping ones included, and maps the one it
    finds back through every run of white space before it."""

    def test_overlapping_places_are_two(self):
        # "a a a" read loosely starts at 2 and at 4 of "x a a a a y": no hint that the refusal would then contradict.
        with self.assertRaises(IngestionError) as raised:
            load_documents.located_span("a  a  a", "x a a a a y", "doc", "w")
        self.assertEqual(raised.exception.what, '"a  a  a" occurs 0 times in "doc"')

    def test_runs_of_every_kind_before_and_inside_the_place(self):
        text = "a\n\n b \t c\nd e"
        with self.assertRaises(IngestionError) as raised:
            load_documents.located_span("b c d", text, "doc", "w")
        self.assertTrue(raised.exception.what.endswith('at [4, 11) (line 3), as "b \\t c\\nd": quote that'))
        self.assertEqual(text[4:11], "b \t c\nd")
