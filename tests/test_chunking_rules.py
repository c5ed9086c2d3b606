"""The spec's chunking rules and identities, checked against offsets derived from the fixture text.

Expectations here come from the rules in docs/SPEC.md applied by hand to known
offsets (``text.index`` of a sentence, the heading lines), and from hashes
computed directly with ``hashlib``: never from the lab's own output.
"""

from __future__ import annotations

import hashlib
import json
import unittest

import chunk_index
import grammars
from checks import span_checks
from lab_io.errors import IngestionError
from load_documents import load_manifest
from tests.support import MANIFEST


def spec_digest(value: object) -> str:
    """The spec's digest, written out independently of ``chunk_index.digest``."""
    encoded = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


def spec_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class FixtureTexts(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.sources = {source["source_id"]: source for source in load_manifest(MANIFEST).sources}
        cls.v1 = cls.sources["aster-copy-v1"]["text"]
        cls.v2 = cls.sources["aster-copy-v2"]["text"]

    def paragraph(self, text: str, opening: str) -> tuple[int, int]:
        """The span of the one-line paragraph that opens with ``opening``, its ``\\n`` included."""
        start = text.index(opening)
        return start, text.index("\n", start) + 1


class SectionsAndParagraphs(FixtureTexts):
    def test_sections_skip_the_blank_title_body(self):
        sections = grammars.heading_sections(self.v1)
        titles = [section.title for section in sections]
        self.assertEqual(titles, ["Create a copy", "List documents", "Untrusted example text"])
        create = sections[0]
        self.assertEqual(create.heading_start, self.v1.index("## Create a copy"))
        self.assertEqual(create.body_start, self.v1.index("## Create a copy") + len("## Create a copy\n"))
        self.assertEqual(create.body_end, self.v1.index("## List documents"))
        self.assertEqual(sections[-1].body_end, len(self.v1))

    def test_text_without_a_heading_at_offset_zero_is_refused(self):
        for text in ("plain text\n", "\n# Late heading\nbody\n", "#NoSpace\nbody\n"):
            with self.subTest(text=text):
                with self.assertRaises(IngestionError) as caught:
                    grammars.heading_sections(text)
                self.assertEqual(caught.exception.code, "heading_required")

    def test_headings_of_any_level_end_a_section(self):
        text = "# A\nintro\n###### Deep\nbody\n####### not a heading\n"
        sections = grammars.heading_sections(text)
        self.assertEqual([section.title for section in sections], ["A", "Deep"])
        self.assertEqual(text[sections[1].body_start : sections[1].body_end], "body\n####### not a heading\n")

    def test_paragraphs_are_runs_of_non_blank_lines_with_their_newline(self):
        self.assertEqual(grammars.paragraph_spans("\nab\ncd\n\nef\n", 0, 11), [(1, 7), (8, 11)])
        self.assertEqual(grammars.paragraph_spans("ab\n  \t\ncd", 0, 9), [(0, 3), (7, 9)])
        self.assertEqual(grammars.paragraph_spans("\n\n", 0, 2), [])

    def test_fixture_paragraphs(self):
        create = grammars.heading_sections(self.v1)[0]
        spans = grammars.paragraph_spans(self.v1, create.body_start, create.body_end)
        expected = [
            self.paragraph(self.v1, "Call save_copy"),
            self.paragraph(self.v1, "This operation refuses"),
            self.paragraph(self.v1, "After a refusal"),
        ]
        self.assertEqual(spans, expected)
        self.assertEqual(expected[:2], [(51, 130), (131, 270)])


class Policies(FixtureTexts):
    def test_fixed_char_slices_start_at_the_body_and_drop_blank_ones(self):
        create = grammars.heading_sections(self.v1)[0]
        spans = chunk_index.fixed_char_spans(self.v1, create.body_start, create.body_end, 80)
        self.assertEqual(spans[0], (50, 130))
        self.assertEqual([end - start for start, end in spans[:-1]], [80] * (len(spans) - 1))
        self.assertEqual(spans[-1][1], create.body_end)
        self.assertEqual(chunk_index.fixed_char_spans("ab   \n   \ncd", 0, 12, 4), [(0, 4), (8, 12)])

    def test_grouping_target_counts_from_the_group_start(self):
        paragraphs = [(51, 130), (131, 270), (271, 431)]
        # 270 - 51 = 219 <= 220 joins the second paragraph; 431 - 51 = 380 does not.
        # The bound is inclusive: at 219 the two still join, at 218 they do not.
        self.assertEqual(chunk_index.grouped_spans(paragraphs, 220), [(51, 270), (271, 431)])
        self.assertEqual(chunk_index.grouped_spans(paragraphs, 219), [(51, 270), (271, 431)])
        self.assertEqual(chunk_index.grouped_spans(paragraphs, 218), paragraphs)
        self.assertEqual(chunk_index.grouped_spans([(0, 500)], 220), [(0, 500)])

    def test_counts_and_verdicts_the_spec_names(self):
        result = span_checks.build_result(tuple(self.sources.values()), "aster-copy-v1", [51, 77], [131, 171])
        verdicts = {
            comparison["strategy"]: (comparison["chunk_count"], comparison["instruction_and_qualifier_share_chunk"])
            for comparison in result["comparisons"]
        }
        self.assertEqual(verdicts, {"fixed-char": (13, False), "paragraph": (8, False), "heading-aware": (7, True)})

    def test_no_chunk_crosses_a_heading_and_order_counts_per_document(self):
        for name in chunk_index.DEFAULT_POLICY_NAMES:
            index = chunk_index.build_index(chunk_index.policy_config(name), tuple(self.sources.values()))
            for source_id, source in self.sources.items():
                with self.subTest(policy=name, source=source_id):
                    chunks = [chunk for chunk in index["chunks"] if chunk["source_id"] == source_id]
                    self.assertEqual([chunk["order"] for chunk in chunks], list(range(len(chunks))))
                    for chunk in chunks:
                        self.assertNotIn("\n#", source["text"][chunk["start"] : chunk["end"] - 1])
                        self.assertEqual(chunk["text"], source["text"][chunk["start"] : chunk["end"]])


class Identities(FixtureTexts):
    def test_document_revision_follows_the_spec(self):
        document = chunk_index.document_record(self.sources["aster-copy-v1"])
        identity = {key: value for key, value in self.sources["aster-copy-v1"].items() if key != "text"}
        identity["normalized_text_sha256"] = spec_sha(self.v1)
        self.assertEqual(document["document_revision"], spec_digest(identity))
        self.assertEqual(list(document), list(chunk_index.DOCUMENT_KEYS))

    def test_heading_aware_chunk_id_follows_the_spec(self):
        config = {"strategy": "heading-aware", "version": 1, "max_chars": 220}
        index = chunk_index.build_index(chunk_index.policy_config("heading-aware"), tuple(self.sources.values()))
        revision = index["documents"][0]["document_revision"]
        heading_start = self.v1.index("## Create a copy")
        start, end = 51, 270
        payload = {
            "source_id": "aster-copy-v1",
            "version": "1.0",
            "document_revision": revision,
            "section_id": spec_digest({"document_revision": revision, "heading_start": heading_start}),
            "section_title": "Create a copy",
            "order": 0,
            "start": start,
            "end": end,
            "start_line": self.v1.count("\n", 0, start) + 1,
            "end_line": self.v1.count("\n", 0, end - 1) + 1,
            "text": self.v1[start:end],
            "text_sha256": spec_sha(self.v1[start:end]),
        }
        expected = {"chunk_id": spec_digest({"config": config, **payload}), **payload}
        self.assertEqual(index["chunks"][0], expected)
        self.assertEqual((payload["start_line"], payload["end_line"]), (5, 7))

    def test_index_id_is_the_digest_of_the_body(self):
        index = chunk_index.build_index(chunk_index.policy_config("paragraph"), tuple(self.sources.values()))
        body = {key: value for key, value in index.items() if key != "index_id"}
        self.assertEqual(index["index_id"], spec_digest(body))
        self.assertEqual(list(index), list(chunk_index.INDEX_KEYS))

    def test_line_numbers_match_counting_from_the_start(self):
        text = "# T\n\nab\ncd\n\n\nef\n"
        for name in chunk_index.DEFAULT_POLICY_NAMES:
            config = chunk_index.policy_config(name)
            source = {**self.sources["aster-copy-v1"], "text": text}
            for chunk in chunk_index.build_index(config, [source])["chunks"]:
                with self.subTest(policy=name, chunk=chunk["order"]):
                    self.assertEqual(chunk["start_line"], text.count("\n", 0, chunk["start"]) + 1)
                    self.assertEqual(chunk["end_line"], text.count("\n", 0, chunk["end"] - 1) + 1)

    def test_configs_are_compared_by_digest(self):
        self.assertEqual(
            chunk_index.policy_of_config({"strategy": "fixed-char", "version": 1, "max_chars": 80}), "fixed-char"
        )
        forged = [
            {"strategy": "fixed-char", "version": 1, "max_chars": 80.0},
            {"strategy": "fixed-char", "version": True, "max_chars": 80},
            {"strategy": "paragraph", "version": 1, "max_chars": 0},
            {"strategy": "heading-aware", "version": 1, "max_chars": 0},
            {"strategy": "heading-aware", "version": 1, "max_chars": 65_537},
            {"strategy": "heading-aware", "version": 1, "max_chars": 220, "extra": 1},
            {"strategy": "heading-aware", "version": 1, "max_chars": 220, "markdown": "lesson"},
        ]
        for config in forged:
            with self.subTest(config=config):
                self.assertIsNone(chunk_index.policy_of_config(config))

    def test_supported_configs_cannot_be_mutated_through_a_copy(self):
        config = chunk_index.policy_config("fixed-char")
        config["max_chars"] = 10
        self.assertEqual(chunk_index.policy_config("fixed-char")["max_chars"], 80)


if __name__ == "__main__":
    unittest.main()
