"""The strict JSON reader and the validator that re-derives saved indexes and results."""

from __future__ import annotations

import copy
import json
import os
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import chunk_index
from checks import span_checks
from lab_io.errors import IngestionError
from lab_io.indented_json import saved_json_bytes
from lab_io.strict_json import bounded_blocks, parse_json_bytes, read_bounded
from load_documents import load_manifest
from results import validate
from tests.support import MANIFEST, ROOT, LabTestCase, fixture_result, reforge_index


class StrictJson(LabTestCase):
    def test_refusals(self):
        cases = [
            ("json_duplicate_key", b'{"a": 1, "a": 2}'),
            ("json_number", b'{"a": NaN}'),
            ("json_number", b'{"a": Infinity}'),
            ("json_number", b"[-Infinity]"),
            ("json_number", b"[1e999]"),
            ("json_number", b"[-1e999]"),
            ("json_number", b"[" + b"9" * 5000 + b"]"),
            ("json_number", b"[9007199254740992]"),
            ("json_too_deep", b"[" * 9 + b"]" * 9),
            ("json_too_deep", b"[" * 100_000 + b"]" * 100_000),
            ("json_bom", b'\xef\xbb\xbf{"a": 1}'),
            ("json_encoding", b'{"a": "\xff"}'),
            ("json_trailing_data", b'{"a": 1} {"b": 2}'),
            ("json_syntax", b'{"a": 1,}'),
            ("json_syntax", b""),
            ("json_surrogate", b'["\\ud800"]'),
            ("json_surrogate", b'{"\\udfff": 1}'),
            ("json_surrogate", b'{"a": {"b": ["x", "\\uDBFF"]}}'),
        ]
        for code, data in cases:
            with self.subTest(code=code, data=data[:30]):
                with self.assertRaises(IngestionError) as caught:
                    parse_json_bytes(data, "case.json")
                self.assertEqual(caught.exception.code, code)

    def test_accepted_values(self):
        self.assertEqual(
            parse_json_bytes(b'{"a": [1, -2, 0.5, null, true, "\\u00e9"]}', "ok.json"),
            {"a": [1, -2, 0.5, None, True, "é"]},
        )
        self.assertEqual(parse_json_bytes(b"[" * 8 + b"]" * 8, "ok.json"), [[[[[[[[]]]]]]]])
        self.assertEqual(parse_json_bytes(b'["\\ud83d\\ude00", "\\\\ud800"]', "ok.json"), ["\U0001f600", "\\ud800"])

    def test_a_file_over_the_bound_is_refused_unparsed(self):
        path = self.folder / "big.json"
        path.write_bytes(b"[" + b"0," * 100 + b"0]")
        with self.assertRaises(IngestionError) as caught:
            read_bounded(path, 64, str(path))
        self.assertEqual(caught.exception.code, "file_too_large")

    def test_a_file_is_read_whole_up_to_the_bound(self):
        # 203 bytes: read whole at a bound of 203 or more, refused at 202; and a file that grows after its size was
        # taken is read on to the bound (its size, as fstat gave it, is what the first read asks for).
        path = self.folder / "big.json"
        path.write_bytes(b"[" + b"0," * 100 + b"0]")
        for limit in (203, 204, 64 * 1024 * 1024):
            with self.subTest(limit=limit):
                self.assertEqual(read_bounded(path, limit, str(path)), path.read_bytes())
        with self.assertRaises(IngestionError) as caught:
            read_bounded(path, 202, str(path))
        self.assertEqual(caught.exception.code, "file_too_large")
        real_fstat = os.fstat

        def shrunk(descriptor):
            # The size as it was before the last 100 bytes were written.
            result = real_fstat(descriptor)
            return os.stat_result((*result[:6], result.st_size - 100, *result[7:]))

        with mock.patch("lab_io.strict_json.os.fstat", shrunk):
            self.assertEqual(read_bounded(path, 1000, str(path)), path.read_bytes())
            with self.assertRaises(IngestionError) as caught:
                read_bounded(path, 150, str(path))
            self.assertEqual(caught.exception.code, "file_too_large")

    def test_a_file_over_the_bound_by_its_size_is_refused_unread(self):
        # 203 bytes at a bound of 64: refused before the first block of 16 is given (its size says so), where a
        # reading to the bound would give four blocks first.
        path = self.folder / "big.json"
        path.write_bytes(b"[" + b"0," * 100 + b"0]")
        blocks = bounded_blocks(path, 64, str(path), block_bytes=16)
        with self.assertRaises(IngestionError) as caught:
            next(blocks)
        self.assertEqual(caught.exception.code, "file_too_large")

    def test_a_file_read_in_blocks_is_refused_as_a_file_read_whole(self):
        path = self.folder / "big.json"
        path.write_bytes(b"[" + b"0," * 100 + b"0]")
        self.assertEqual(b"".join(bounded_blocks(path, 203, str(path), block_bytes=16)), path.read_bytes())
        cases = [(path, 64, "file_too_large"), (self.folder / "missing.json", 64, "file_missing")]
        cases.append((self.folder, 64, "not_a_file"))
        for target, limit, code in cases:
            with self.subTest(code=code):
                with self.assertRaises(IngestionError) as caught:
                    list(bounded_blocks(target, limit, str(target), block_bytes=16))
                self.assertEqual(caught.exception.code, code)


class TamperedIndex(unittest.TestCase):
    """The lab's second lesson: a changed chunk is refused even with every hash recomputed."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.result = fixture_result()

    def paragraph_index(self) -> dict:
        return copy.deepcopy(self.result["indexes"]["paragraph"])

    def assert_refused_at(self, index: dict, code: str, where: str, what: str | None = None) -> None:
        with self.assertRaises(IngestionError) as caught:
            validate.validate_index(index, "indexes.paragraph")
        self.assertEqual((caught.exception.code, caught.exception.where), (code, where), str(caught.exception))
        if what is not None:
            self.assertEqual(caught.exception.what, what)

    def test_the_untouched_index_passes(self):
        self.assertEqual(validate.validate_index(self.paragraph_index()), self.result["indexes"]["paragraph"])

    def test_changed_span_with_recomputed_hashes(self):
        index = self.paragraph_index()
        chunk = index["chunks"][1]
        text = index["documents"][0]["text"]
        chunk["end"] = 271
        chunk["text"] = text[chunk["start"] : 271]
        reforge_index(index)
        self.assert_refused_at(index, "index_mismatch", "indexes.paragraph.chunks[1].end", "saved 271, derived 270")

    def test_changed_order_with_recomputed_hashes(self):
        index = self.paragraph_index()
        index["chunks"][0]["order"], index["chunks"][1]["order"] = 1, 0
        reforge_index(index)
        self.assert_refused_at(index, "index_mismatch", "indexes.paragraph.chunks[0].order", "saved 1, derived 0")

    def test_swapped_chunks_renumbered_with_recomputed_hashes(self):
        index = self.paragraph_index()
        index["chunks"][0], index["chunks"][1] = index["chunks"][1], index["chunks"][0]
        index["chunks"][0]["order"], index["chunks"][1]["order"] = 0, 1
        reforge_index(index)
        self.assert_refused_at(index, "index_mismatch", "indexes.paragraph.chunks[0].start", "saved 131, derived 51")

    def test_changed_text_with_recomputed_hashes(self):
        index = self.paragraph_index()
        index["chunks"][1]["text"] = index["chunks"][1]["text"].replace("refuses", "accepts")
        reforge_index(index)
        self.assert_refused_at(index, "index_mismatch", "indexes.paragraph.chunks[1].text")

    def test_removed_chunk_with_recomputed_hashes(self):
        index = self.paragraph_index()
        del index["chunks"][-1]
        reforge_index(index)
        self.assert_refused_at(
            index, "index_mismatch", "indexes.paragraph.chunks", "saved 7 items, derived 8 (the first 7 agree)"
        )

    def test_a_chunk_removed_mid_list_is_named_by_the_count_and_where_the_lists_part(self):
        # Not as the shifted chunk [3] set beside derived chunk [3]: a chunk is missing, and [3] is where.
        index = self.paragraph_index()
        del index["chunks"][3]
        reforge_index(index)
        self.assert_refused_at(
            index,
            "index_mismatch",
            "indexes.paragraph.chunks",
            "saved 7 items, derived 8 (the first that differs is [3])",
        )
        # Chunks whose keys were reordered (a file re-dumped with sorted keys) are alike still: the place stays [3].
        index["chunks"] = [dict(sorted(chunk.items())) for chunk in index["chunks"]]
        self.assert_refused_at(
            index,
            "index_mismatch",
            "indexes.paragraph.chunks",
            "saved 7 items, derived 8 (the first that differs is [3])",
        )

    def test_changed_document_text_with_recomputed_document_hashes(self):
        index = self.paragraph_index()
        document = index["documents"][0]
        document["text"] = document["text"].replace("refuses", "accepts")
        rebuilt = chunk_index.document_record(document)
        document.update(
            normalized_text_sha256=rebuilt["normalized_text_sha256"], document_revision=rebuilt["document_revision"]
        )
        reforge_index(index)
        with self.assertRaises(IngestionError) as caught:
            validate.validate_index(index)
        self.assertEqual(caught.exception.code, "index_mismatch")


def copied_along(value: object, path: tuple) -> tuple[object, object]:
    """A copy of ``value`` in which only the containers along ``path`` are new, and the last one of them.

    Setting ``holder[path[-1]]`` then changes the copy alone; everything off
    the path is shared with ``value``, which the validator only reads. This
    keeps a test of thousands of mutations from copying the whole index each time.
    """
    copied = copy.copy(value)
    holder = copied
    for step in path[:-1]:
        holder[step] = copy.copy(holder[step])
        holder = holder[step]
    return copied, holder


def remembered_builds():
    """``validate.build_index`` answered from memory for inputs it has built before.

    ``build_index`` is a pure function of its config and sources, and the
    mutation tests rebuild the same few indexes thousands of times; what they
    test is the validator's refusals, so each distinct build runs once.
    """
    real_build_index = validate.build_index
    built: dict[str, dict] = {}

    def build_index(config, sources, section_cache=None):
        key = chunk_index.canonical_json([config, list(sources)])
        if key not in built:
            built[key] = real_build_index(config, sources, section_cache)
        return built[key]

    # The function itself, not a Mock calling it: a Mock's bookkeeping of thousands of calls no test reads.
    return mock.patch.object(validate, "build_index", build_index)


def assert_file_refused_alike(test: unittest.TestCase, forged: dict) -> None:
    """``forged``, saved as the lab saves a file, is refused by ``read_validated`` exactly as its parsed value is."""
    with test.assertRaises(IngestionError) as parsed:
        validate.validate_artifact(copy.deepcopy(forged))
    with tempfile.TemporaryDirectory(prefix="chunk-lab-test-") as folder:
        path = Path(folder) / "forged.json"
        path.write_bytes(saved_json_bytes(forged))
        with test.assertRaises(IngestionError) as read:
            validate.read_validated(path)
    found = (read.exception.code, read.exception.where, read.exception.what)
    test.assertEqual(found, (parsed.exception.code, parsed.exception.where, parsed.exception.what))


class MutationTestCase(unittest.TestCase):
    """Mutate a deep copy of ``self.saved`` and return what ``self.validate`` refuses it with.

    Each forged value is also saved as the lab saves a file and read back by
    ``read_validated``, whose quick check must end in exactly the refusal
    ``validate_artifact`` gives the parsed value.
    """

    saved: dict
    validate = staticmethod(validate.validate_index)

    def remember_builds(self) -> None:
        patcher = remembered_builds()
        patcher.start()
        self.addCleanup(patcher.stop)

    def refusal(self, mutate) -> IngestionError:
        forged = copy.deepcopy(self.saved)
        mutate(forged)
        with self.assertRaises(IngestionError) as caught:
            self.validate(forged)
        assert_file_refused_alike(self, forged)
        return caught.exception


class IndexRefusals(MutationTestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.saved = fixture_result()["indexes"]["fixed-char"]

    def test_refusals(self):
        document = lambda index: index["documents"][0]  # noqa: E731 - a short accessor keeps the table readable
        cases = [
            ("schema_version", lambda index: index.update(schema_version=2)),
            ("schema_version", lambda index: index.update(schema_version=True)),
            ("execution_mode", lambda index: index.update(execution_mode="online")),
            ("unsupported_chunk_config", lambda index: index["config"].update(max_chars=80.0)),
            ("unsupported_chunk_config", lambda index: index["config"].update(version=True)),
            ("unsupported_chunk_config", lambda index: index["config"].update(max_chars=0)),
            ("unsupported_chunk_config", lambda index: index["config"].update(markdown="lesson")),
            # A size in the family rebuilds other chunks than the saved ones.
            ("index_mismatch", lambda index: index["config"].update(max_chars=60)),
            ("index_fields", lambda index: index.pop("index_id")),
            ("index_fields", lambda index: index.update(extra=1)),
            ("no_documents", lambda index: index.update(documents=[])),
            ("chunks_not_list", lambda index: index.update(chunks={})),
            ("document_fields", lambda index: document(index).pop("url")),
            ("document_fields", lambda index: document(index).update(extra="x")),
            ("field_not_string", lambda index: document(index).update(title=None)),
            ("empty_field", lambda index: document(index).update(title="")),
            ("bad_version", lambda index: document(index).update(version="v1")),
            ("bad_sha256", lambda index: document(index).update(sha256="abc")),
            ("text_too_large", lambda index: document(index).update(text="# T\n" + "é" * 40_000)),
            ("blank_text", lambda index: document(index).update(text="  \n")),
            ("nul_character", lambda index: document(index).update(text="# T\n\x00\n")),
            ("carriage_return", lambda index: document(index).update(text="# T\r\nbody\n")),
            ("text_hash_mismatch", lambda index: document(index).update(normalized_text_sha256="0" * 64)),
            ("revision_mismatch", lambda index: document(index).update(document_revision="0" * 64)),
            ("duplicate_source_id", lambda index: index["documents"].append(copy.deepcopy(index["documents"][0]))),
            ("index_mismatch", lambda index: index["chunks"][0].update(start_line=True)),
            ("index_mismatch", lambda index: index.update(index_id="0" * 64)),
        ]
        for code, mutate in cases:
            with self.subTest(code=code):
                self.assertEqual(self.refusal(mutate).code, code)

    def test_a_text_that_no_longer_hashes_to_its_sha256_says_so_whole(self):
        # Two digests are shown whole, not cut "at offset 0 of 64 characters" as two texts would be.
        refused = self.refusal(lambda index: index["documents"][0].update(normalized_text_sha256="0" * 64))
        derived = self.saved["documents"][0]["normalized_text_sha256"]
        self.assertEqual(
            refused.what,
            f"the text does not hash to it (saved {'0' * 64}, the text's {derived}): the text or its hash was "
            "changed after the result was written",
        )

    def test_no_malformed_value_escapes_as_another_exception(self):
        """Replace every value of a saved index, one at a time, with values of the wrong kind."""
        odd_values = [None, True, 0, -1, 1.5, "", "x", [], {}, [None], {"": None}]
        index = fixture_result()["indexes"]["paragraph"]

        def paths(value, prefix=()):
            yield prefix
            if isinstance(value, dict):
                for key, item in value.items():
                    yield from paths(item, (*prefix, key))
            elif isinstance(value, list):
                for position, item in enumerate(value):
                    yield from paths(item, (*prefix, position))

        def sampled(path: tuple) -> bool:
            # Every chunk has the same fields: the first and the last stand for all of them.
            return not (len(path) > 1 and path[0] == "chunks" and path[1] not in (0, len(index["chunks"]) - 1))

        checked = 0
        self.remember_builds()
        for path in [path for path in paths(index) if sampled(path)][1:]:
            for odd in odd_values:
                forged, holder = copied_along(index, path)
                if holder[path[-1]] == odd and type(holder[path[-1]]) is type(odd):
                    continue
                holder[path[-1]] = odd
                with self.subTest(path=path, odd=odd):
                    with self.assertRaises(IngestionError):
                        validate.validate_index(forged)
                checked += 1
        self.assertGreater(checked, 500)


class ResultValidation(MutationTestCase):
    validate = staticmethod(validate.validate_result)

    @classmethod
    def setUpClass(cls) -> None:
        cls.result = fixture_result()
        cls.saved = cls.result

    def test_the_fixture_result_passes(self):
        self.assertEqual(validate.validate_artifact(copy.deepcopy(self.result))[0], "result")
        self.assertEqual(validate.validate_artifact(copy.deepcopy(self.result["indexes"]["paragraph"]))[0], "index")

    def test_a_flipped_verdict_is_refused(self):
        def flip(result):
            result["comparisons"][2]["instruction_and_qualifier_share_chunk"] = False

        error = self.refusal(flip)
        self.assertEqual(
            (error.code, error.where), ("comparison_mismatch", "comparisons[2].instruction_and_qualifier_share_chunk")
        )
        self.assertEqual(error.what, "saved false, derived true")

    def test_refusals(self):
        cases = [
            ("result_fields", lambda result: result.pop("fixture_scope")),
            ("execution_mode", lambda result: result.update(execution_mode="x")),
            ("fixture_scope", lambda result: result.update(fixture_scope=" ")),
            ("fixture_scope", lambda result: result.update(fixture_scope=chunk_index.OWN_DOCUMENTS_SCOPE)),
            ("indexes_fields", lambda result: result["indexes"].pop("paragraph")),
            (
                "config_mismatch",
                lambda result: result["indexes"].update(paragraph=copy.deepcopy(result["indexes"]["heading-aware"])),
            ),
            ("comparisons", lambda result: result["comparisons"].pop()),
            ("comparison_span", lambda result: result["comparisons"][0].update(instruction_span=[51.0, 77])),
            ("comparison_span", lambda result: result["comparisons"][0].update(instruction_span=[77, 51])),
            ("comparison_mismatch", lambda result: result["comparisons"][1].update(instruction_span=[51, 78])),
            ("comparison_mismatch", lambda result: result["comparisons"][0].update(chunk_count=12)),
            (
                "comparison_mismatch",
                lambda result: result["comparisons"][1]["instruction_containing_chunk_ids"].clear(),
            ),
            ("comparison_mismatch", lambda result: result["comparisons"].reverse()),
        ]
        for code, mutate in cases:
            with self.subTest(code=code):
                self.assertEqual(self.refusal(mutate).code, code)

    def test_no_malformed_comparison_escapes_as_another_exception(self):
        odd_values = [None, True, 0, -1, 1.5, "", "x", [], {}, [None], [51], [51, 77, 1], {"": None}]
        places = [("fixture_scope",), ("execution_mode",), ("comparisons",)]
        for position, comparison in enumerate(self.result["comparisons"]):
            places.append(("comparisons", position))
            if position not in (0, len(self.result["comparisons"]) - 1):
                # Every policy's comparison has the same fields: the first and the last stand for all.
                continue
            for key, value in comparison.items():
                places.append(("comparisons", position, key))
                if isinstance(value, list):
                    places.extend(("comparisons", position, key, item) for item in range(len(value)))
        self.remember_builds()
        for place in places:
            for odd in odd_values:
                forged, holder = copied_along(self.result, place)
                unchanged = holder[place[-1]] == odd and type(holder[place[-1]]) is type(odd)
                if unchanged:
                    continue
                holder[place[-1]] = odd
                with self.subTest(place=place, odd=odd):
                    with self.assertRaises(IngestionError):
                        validate.validate_result(forged)

    def test_a_tampered_index_inside_a_result_names_its_path(self):
        def tamper(result):
            index = result["indexes"]["heading-aware"]
            index["chunks"][0]["start"] = 50
            index["chunks"][0]["text"] = index["documents"][0]["text"][50:270]
            reforge_index(index)

        error = self.refusal(tamper)
        self.assertEqual(error.where, "indexes.heading-aware.chunks[0].start")

    def test_a_saved_file_round_trips_through_the_strict_reader(self):
        data = json.dumps(self.result, indent=2, ensure_ascii=False).encode("utf-8")
        self.assertEqual(validate.validate_artifact(parse_json_bytes(data, "result.json"))[0], "result")


class QuickValidation(LabTestCase):
    """A file the lab wrote is validated by rebuilding and comparing bytes; anything else by the strict reader."""

    def setUp(self) -> None:
        super().setUp()
        self.result = fixture_result()
        self.path = self.folder / "result.json"
        self.path.write_bytes(saved_json_bytes(self.result))

    def test_the_lab_s_own_file_is_rebuilt_not_parsed(self):
        with mock.patch.object(validate, "read_json_file", side_effect=AssertionError("read in full")):
            kind, artifact, as_expected = validate.read_validated(self.path)
        self.assertEqual((kind, artifact, as_expected), ("result", self.result, False))
        index_path = self.folder / "paragraph.json"
        index_path.write_bytes(saved_json_bytes(self.result["indexes"]["paragraph"]))
        with mock.patch.object(validate, "read_json_file", side_effect=AssertionError("read in full")):
            self.assertEqual(validate.read_validated(index_path)[:2], ("index", self.result["indexes"]["paragraph"]))

    def test_a_file_laid_out_otherwise_is_read_in_full_and_valid(self):
        layouts = {
            "indent 4": json.dumps(self.result, indent=4, ensure_ascii=False),
            "compact": json.dumps(self.result, separators=(",", ":")),
            "no final line break": json.dumps(self.result, indent=2, ensure_ascii=False),
        }
        for name, text in layouts.items():
            with self.subTest(layout=name):
                self.path.write_text(text, encoding="utf-8")
                with mock.patch.object(validate, "read_json_file", wraps=validate.read_json_file) as strict:
                    self.assertEqual(validate.read_validated(self.path)[:2], ("result", self.result))
                strict.assert_called_once()

    def test_a_repeated_key_in_a_chunk_is_refused_as_the_strict_reader_refuses_it(self):
        data = saved_json_bytes(self.result)
        line = b'          "order": 0,\n'
        self.assertIn(line, data)
        self.path.write_bytes(data.replace(line, line + line, 1))
        with self.assertRaises(IngestionError) as caught:
            validate.read_validated(self.path)
        self.assertEqual(caught.exception.code, "json_duplicate_key")

    def test_the_expected_build_is_compared_first(self):
        built = []

        def expected(encoded):
            # As the manifest's build does: the texts it turned to JSON, which the comparison lays out from.
            built.append(1)
            manifest = load_manifest(MANIFEST)
            return span_checks.build_checked_result(manifest.sources, manifest.span_checks, encoded=encoded)

        self.assertEqual(validate.read_validated(self.path, expected=expected), ("result", self.result, True))
        # Another file (a comparison's chunk count changed) is validated on its own, and refused.
        other = fixture_result()
        other["comparisons"][0]["chunk_count"] = 12
        self.path.write_bytes(saved_json_bytes(other))
        with self.assertRaises(IngestionError) as caught:
            validate.read_validated(self.path, expected=expected)
        self.assertEqual(caught.exception.code, "comparison_mismatch")
        # Nothing is built for a file that does not open as a saved result.
        self.path.write_bytes(saved_json_bytes(self.result["indexes"]["paragraph"]))
        self.assertEqual(validate.read_validated(self.path, expected=expected)[0], "index")
        self.assertEqual(len(built), 2)

    def test_chunkless_value(self):
        data = b'{\n  "chunks": [\n    {\n      "order": 0\n    }\n  ],\n  "index_id": "x"\n}\n'
        self.assertEqual(validate.chunkless_value(data), {"chunks": [], "index_id": "x"})
        self.assertIsNone(validate.chunkless_value(b'{"chunks": [], "index_id": "x"}'))
        # A list that never closes at its own indent, and text that is no JSON once the lists are left out.
        self.assertIsNone(validate.chunkless_value(b'{\n  "chunks": [\n    1\n ]}'))
        self.assertIsNone(validate.chunkless_value(b'{\n  "chunks": [\n    1\n  ]\n  "x": 1}'))
        # A result's indexes repeat one documents list: read once, shared; each chunk list left out.
        value = validate.chunkless_value(saved_json_bytes(self.result))
        indexes = list(value["indexes"].values())
        self.assertEqual(indexes[0]["documents"], self.result["indexes"]["fixed-char"]["documents"])
        self.assertTrue(all(index["documents"] is indexes[0]["documents"] for index in indexes))
        self.assertEqual([index["chunks"] for index in indexes], [[], [], []])

    def test_lists_revisions_reads_the_first_index_documents(self):
        path = self.folder / "result.json"
        path.write_bytes(saved_json_bytes(self.result))
        revisions = [document["document_revision"] for document in self.result["indexes"]["fixed-char"]["documents"]]
        self.assertTrue(validate.lists_revisions(path, revisions))
        self.assertFalse(validate.lists_revisions(path, revisions[:1]))
        self.assertFalse(validate.lists_revisions(path, revisions[::-1]))
        self.assertFalse(validate.lists_revisions(self.folder / "missing.json", revisions))
        # A single index lays its documents out at another depth; a file with no chunk list holds none before one.
        path.write_bytes(saved_json_bytes(self.result["indexes"]["paragraph"]))
        self.assertFalse(validate.lists_revisions(path, revisions))
        path.write_bytes(json.dumps(self.result).encode("utf-8"))
        self.assertFalse(validate.lists_revisions(path, revisions))

    def test_the_head_names_the_policies_its_comparisons_compare(self):
        # One comparison per index, before the first chunk list: the policies the file holds, read without its chunks.
        path = self.folder / "result.json"
        path.write_bytes(saved_json_bytes(self.result))
        self.assertEqual(
            validate.head_policies(validate.saved_head(path)), ["fixed-char", "paragraph", "heading-aware"]
        )
        examples = ROOT / "docs" / "examples" / "expected-result.json"
        self.assertEqual(
            validate.head_policies(validate.saved_head(examples)), ["fixed-char", "paragraph", "heading-aware"]
        )
        # The first index's config names its strategy too, a level deeper: not a comparison.
        path.write_bytes(saved_json_bytes(self.result["indexes"]["paragraph"]))
        self.assertEqual(validate.head_policies(validate.saved_head(path)), [])
        self.assertIsNone(validate.saved_head(self.folder / "missing.json"))

    def test_held_indexes_are_read_from_the_head_alone_or_not_at_all(self):
        indexes = self.result["indexes"]
        self.assertEqual(validate.held_indexes(self.result), ("result", indexes))
        self.assertEqual(validate.held_indexes(indexes["paragraph"]), ("index", {"paragraph": indexes["paragraph"]}))
        # What the head cannot tell is left to the validation, which names what is wrong.
        for value in (
            [],
            {"indexes": []},
            {"indexes": {**indexes, "bogus": {}}},
            {"indexes": {"paragraph": indexes["paragraph"]}},
            {"index_id": "x", "config": {"strategy": "paragraph", "version": 9}},
            {"sources": []},
        ):
            with self.subTest(value=str(value)[:60]):
                self.assertIsNone(validate.held_indexes(value))

    def test_chunk_lists_left_out_wherever_the_blocks_cut_them(self):
        data = (
            b'{\n  "a": {\n    "chunks": [\n      1\n    ]\n  },\n  "chunks": [\n    {\n      "x": "]"\n    }\n  ]\n}\n'
        )
        expected = b'{\n  "a": {\n    "chunks": []\n  },\n  "chunks": []\n}\n'
        self.assertEqual(validate.without_chunk_lists([data]), expected)
        for cut in range(len(data) + 1):
            with self.subTest(cut=cut):
                self.assertEqual(validate.without_chunk_lists([data[:cut], data[cut:]]), expected)
        self.assertEqual(validate.without_chunk_lists([data[at : at + 1] for at in range(len(data))]), expected)
        saved = saved_json_bytes(self.result)
        blocks = [saved[at : at + 7] for at in range(0, len(saved), 7)]
        self.assertEqual(validate.chunkless_value(iter(blocks)), validate.chunkless_value(saved))
        # No chunk list, one that never closes at its indent, an opening that does not start its line.
        for bad in (b'{"chunks": []}', b'{\n  "chunks": [\n    1\n ]}', b'{\n  "x": 1, "chunks": [\n  ]\n}'):
            with self.subTest(bad=bad):
                self.assertIsNone(validate.without_chunk_lists([bad]))


class ForgedButConsistent(unittest.TestCase):
    """Files a forger rebuilt end to end with the lab's own builder: consistent, yet refused."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.result = fixture_result()
        cls.sources = [
            {
                key: value
                for key, value in document.items()
                if key not in ("normalized_text_sha256", "document_revision")
            }
            for document in cls.result["indexes"]["paragraph"]["documents"]
        ]

    def refusal(self, value: dict, validate=validate.validate_result) -> IngestionError:
        with self.assertRaises(IngestionError) as caught:
            validate(value)
        assert_file_refused_alike(self, value)
        return caught.exception

    def test_one_index_rebuilt_from_other_text_with_recomputed_comparisons(self):
        # Joining the instruction's and qualifier's paragraphs flips the paragraph verdict.
        sources = copy.deepcopy(self.sources)
        text = sources[0]["text"]
        sources[0]["text"] = text[:130] + "." + text[131:]
        result = copy.deepcopy(self.result)
        result["indexes"]["paragraph"] = chunk_index.build_index(chunk_index.policy_config("paragraph"), sources)
        result["comparisons"] = span_checks.build_comparisons(result["indexes"], "aster-copy-v1", [51, 77], [131, 171])
        self.assertTrue(result["comparisons"][1]["instruction_and_qualifier_share_chunk"])
        error = self.refusal(result)
        self.assertEqual((error.code, error.where), ("documents_mismatch", "indexes.paragraph.documents[0].text"))

    def test_an_index_under_another_policy_s_name_with_recomputed_comparisons(self):
        result = copy.deepcopy(self.result)
        result["indexes"]["paragraph"] = copy.deepcopy(result["indexes"]["heading-aware"])
        result["comparisons"] = span_checks.build_comparisons(result["indexes"], "aster-copy-v1", [51, 77], [131, 171])
        error = self.refusal(result)
        self.assertEqual((error.code, error.where), ("config_mismatch", "indexes.paragraph.config"))

    def test_one_index_under_another_grammar_with_recomputed_comparisons(self):
        result = copy.deepcopy(self.result)
        config = chunk_index.manifest_configs("blocks")["fixed-char"]
        result["indexes"]["fixed-char"] = chunk_index.build_index(config, self.sources)
        result["comparisons"] = span_checks.build_comparisons(result["indexes"], "aster-copy-v1", [51, 77], [131, 171])
        error = self.refusal(result)
        self.assertEqual((error.code, error.where), ("grammar_mismatch", "indexes.paragraph.config"))

    def test_spans_past_every_text(self):
        result = copy.deepcopy(self.result)
        result["comparisons"] = span_checks.build_comparisons(
            result["indexes"], "aster-copy-v1", [900, 901], [902, 903]
        )
        error = self.refusal(result)
        self.assertEqual((error.code, error.where), ("comparison_span", "comparisons[0].instruction_span"))

    def test_a_qualifier_that_ends_the_text_is_valid(self):
        # The last character of the text is inside the text: [length - 1, length) is a span of it.
        length = len(self.sources[0]["text"])
        result = copy.deepcopy(self.result)
        result["comparisons"] = span_checks.build_comparisons(
            result["indexes"], "aster-copy-v1", [51, 77], [length - 1, length]
        )
        self.assertEqual(validate.validate_artifact(result)[0], "result")

    def test_an_empty_span_is_refused_even_with_consistent_comparisons(self):
        for span in ([77, 77], [0, 0]):
            with self.subTest(span=span):
                result = copy.deepcopy(self.result)
                result["comparisons"] = span_checks.build_comparisons(
                    result["indexes"], "aster-copy-v1", span, [131, 171]
                )
                error = self.refusal(result)
                self.assertEqual(
                    (error.code, error.where, error.what),
                    (
                        "comparison_span",
                        "comparisons[0].instruction_span",
                        f"{span} is not a span with 0 <= start < end",
                    ),
                )

    def test_document_paths_follow_the_loader_rules(self):
        cases = {
            "path_outside": ["../../etc/passwd", "docs/aster-copy-v2.md"],
            "path_absolute": ["/etc/passwd", "docs/aster-copy-v2.md"],
            "duplicate_path": ["docs/aster-copy-v1.md", "./docs/aster-copy-v1.md"],
        }
        for code, paths in cases.items():
            with self.subTest(code=code):
                sources = copy.deepcopy(self.sources)
                for source, path in zip(sources, paths):
                    source["path"] = path
                index = chunk_index.build_index(chunk_index.policy_config("heading-aware"), sources)
                self.assertEqual(self.refusal(index, validate.validate_index).code, code)


class QuotedValues(unittest.TestCase):
    def test_a_long_value_is_cut_before_it_is_escaped(self):
        from load_documents import quoted

        shown = quoted("ab\u200bc" * 30, limit=10)
        self.assertEqual(shown, '"ab\\u200bcab\\u200bcab"…')
        self.assertEqual(quoted("\x1b[2J"), '"\\u001b[2J"')


if __name__ == "__main__":
    unittest.main()


class NamedPairsComparisons(unittest.TestCase):
    """A named-pairs result's comparisons each list the pairs the first declares."""

    def test_a_pair_taken_out_of_one_comparison_is_named_there(self):
        # docs/examples' result: three comparisons of 6 pairs each. One pair taken out of the first: the second, which
        # still lists 6, is where the lists part (the verdict counts are derived from the first's pairs).
        saved = json.loads((ROOT / "docs" / "examples" / "expected-result.json").read_text(encoding="utf-8"))
        del saved["comparisons"][0]["pairs"][2]
        with self.assertRaises(IngestionError) as caught:
            validate.validate_result(saved)
        self.assertEqual(
            (caught.exception.code, caught.exception.where, caught.exception.what),
            (
                "comparison_mismatch",
                "comparisons[1].pairs",
                "lists 6 pairs where comparisons[0].pairs lists 5: every policy's comparison names the same pairs",
            ),
        )
