"""The block grammar, version 2 ("blocks-2"): the docs-site containers "blocks" misses, rule by rule, and its ids.

Every expected offset below is worked out by hand from the rules in
``docs/SPEC.md`` ("The block grammar, version 2") and the lengths of the lines
written next to it, never read back from the grammar's own output.
"""

from __future__ import annotations

import copy
import hashlib
import json
import unittest
from pathlib import Path

import chunk_index
import grammars
import source_pins
from checks import span_checks
from checks.caveats import pairing
from lab_io.errors import IngestionError
from load_documents import decode_source_text, load_manifest
from results import validate
from tests.support import LabTestCase, loaded_source, reforge_index, run_lab

TITLE = "Guide"


def outline(text: str, grammar: str = "blocks-2") -> list[tuple]:
    """Sections as ``(title, heading_start, body_start, body_end, [(kind, start, end, label), ...])``."""
    return [
        (
            section.title,
            section.heading_start,
            section.body_start,
            section.body_end,
            [(block.kind, block.start, block.end, block.label) for block in section.blocks],
        )
        for section in grammars.document_sections(text, grammar, "test", TITLE)
    ]


def block_spans(text: str, grammar: str = "blocks-2") -> list[tuple]:
    """Every block of every section, as ``(kind, start, end, label)``."""
    return [block for section in outline(text, grammar) for block in section[4]]


def call(argv: list[str]) -> tuple[int, str, str]:
    """``run.main(argv)`` in this process (``tests.support.run_lab``): exit code, stdout, stderr."""
    completed = run_lab(*argv)
    return completed.returncode, completed.stdout, completed.stderr


# "# T\n" [0, 4); "/// warning | Mind\n" [4, 23); "Body.\n" [23, 29); "\n" [29, 30);
# "```\n" [30, 34); "///\n" [34, 38) inside the fence; "```\n" [38, 42); "///\n" [42, 46); "After\n" [46, 52).
SLASH_PAGE = "# T\n/// warning | Mind\nBody.\n\n```\n///\n```\n///\nAfter\n"


class PymdownxBlocks(unittest.TestCase):
    def test_a_block_runs_from_its_opening_line_to_its_closing_line_and_a_fence_inside_is_opaque(self):
        self.assertEqual(
            outline(SLASH_PAGE),
            [("T", 0, 4, 52, [("admonition", 4, 46, "warning"), ("paragraph", 46, 52, "")])],
        )

    def test_the_first_block_grammar_still_reads_the_same_page_as_before(self):
        # "blocks" is unchanged: the marker line joins the body's paragraph and the closing "///" the next one.
        self.assertEqual(
            block_spans(SLASH_PAGE, "blocks"),
            [("paragraph", 4, 29, ""), ("fence", 30, 42, ""), ("paragraph", 42, 52, "")],
        )

    def test_a_block_closes_at_exactly_as_many_slashes_so_blocks_nest(self):
        # "//// note\n" [0, 10); "/// details | More\n" [10, 29); "Inner\n" [29, 35); "///\n" [35, 39);
        # "Outer\n" [39, 45); "////\n" [45, 50); "After\n" [50, 56).
        text = "//// note\n/// details | More\nInner\n///\nOuter\n////\nAfter\n"
        self.assertEqual(block_spans(text), [("admonition", 0, 50, "note"), ("paragraph", 50, 56, "")])
        # "/// note\n" [0, 9); "A\n" [9, 11); "////\n" [11, 16) does not close it; "B\n" [16, 18); "///\n" [18, 22).
        self.assertEqual(block_spans("/// note\nA\n////\nB\n///\n"), [("admonition", 0, 22, "note")])

    def test_opening_and_closing_lines(self):
        cases = [
            ("/// Note\nA\n///\n", [("admonition", 0, 15, "note")]),
            ("///Tip|Title\nA\n///\n", [("admonition", 0, 19, "tip")]),
            ("   /// danger\nA\n   ///  \n", [("admonition", 0, 25, "danger")]),
            ("/// details |\nA\n///\n", [("admonition", 0, 20, "details")]),
            # "/// note\n" [0, 9); "A\n" [9, 11); "    ///\n" [11, 19) is indented 4: no close; to the end.
            ("/// note\nA\n    ///\n", [("admonition", 0, 19, "note")]),
        ]
        for text, expected in cases:
            with self.subTest(text=text):
                self.assertEqual(block_spans(text), expected)

    def test_lines_that_do_not_open_a_block_are_paragraph_text(self):
        for line in ("///", "/// ", "///1abc", "/path/to/file", "    /// note", "/// note extra", "// note"):
            with self.subTest(line=line):
                text = f"{line}\nB\n"
                self.assertEqual(block_spans(text), [("paragraph", 0, len(text), "")])

    def test_an_unclosed_block_runs_to_the_end_of_the_text_and_hides_headings(self):
        text = "/// danger\nA\n\n# Not a heading\n\nB\n"
        self.assertEqual(outline(text), [(TITLE, 0, 0, len(text), [("admonition", 0, len(text), "danger")])])

    def test_a_block_interrupts_a_paragraph_and_a_list(self):
        # "Text\n" [0, 5); "/// note\n" [5, 14); "B\n" [14, 16); "///\n" [16, 20).
        self.assertEqual(
            block_spans("Text\n/// note\nB\n///\n"), [("paragraph", 0, 5, ""), ("admonition", 5, 20, "note")]
        )
        # "- item\n" [0, 7); "/// note\n" [7, 16); "///\n" [16, 20).
        self.assertEqual(block_spans("- item\n/// note\n///\n"), [("list", 0, 7, ""), ("admonition", 7, 20, "note")])


class ColonContainers(unittest.TestCase):
    def test_a_container_with_a_title(self):
        # "::: warning Mind the path\n" [0, 26); "Body.\n" [26, 32); ":::\n" [32, 36); "After\n" [36, 42).
        text = "::: warning Mind the path\nBody.\n:::\nAfter\n"
        self.assertEqual(block_spans(text), [("admonition", 0, 36, "warning"), ("paragraph", 36, 42, "")])

    def test_nesting_with_longer_colon_runs_outside(self):
        # ":::::info[Parent]\n" [0, 18); "P\n" [18, 20); "::::danger[Child]\n" [20, 38); "C\n" [38, 40);
        # ":::tip\n" [40, 47); "G\n" [47, 49); ":::\n" [49, 53); "::::\n" [53, 58); ":::::\n" [58, 64);
        # "end\n" [64, 68).
        text = ":::::info[Parent]\nP\n::::danger[Child]\nC\n:::tip\nG\n:::\n::::\n:::::\nend\n"
        self.assertEqual(block_spans(text), [("admonition", 0, 64, "info"), ("paragraph", 64, 68, "")])

    def test_a_run_at_least_as_long_closes_and_a_shorter_one_does_not(self):
        # ":::note\n" [0, 8); "A\n" [8, 10); "::::\n" [10, 15); "B\n" [15, 17).
        self.assertEqual(
            block_spans(":::note\nA\n::::\nB\n"), [("admonition", 0, 15, "note"), ("paragraph", 15, 17, "")]
        )
        # "::::note\n" [0, 9); "A\n" [9, 11); ":::\n" [11, 15); "B\n" [15, 17); "::::\n" [17, 22).
        self.assertEqual(block_spans("::::note\nA\n:::\nB\n::::\n"), [("admonition", 0, 22, "note")])

    def test_a_marker_line_in_a_fence_closes_nothing(self):
        # ":::tip\n" [0, 7); "```md\n" [7, 13); ":::\n" [13, 17); "```\n" [17, 21); ":::\n" [21, 25).
        self.assertEqual(block_spans(":::tip\n```md\n:::\n```\n:::\n"), [("admonition", 0, 25, "tip")])

    def test_opening_lines(self):
        for line, label in (
            (":::note", "note"),
            ("::: Warning", "warning"),
            (":::tip{.wide}", "tip"),
            ("::: code-group", "code-group"),
            ("  ::: details Click me", "details"),
        ):
            with self.subTest(line=line):
                text = f"{line}\nA\n:::\n"
                self.assertEqual(block_spans(text), [("admonition", 0, len(text), label)])

    def test_lines_that_do_not_open_a_container_are_paragraph_text(self):
        for line in (":::", "::: ", ":: note", ":::1", "    :::note", ":::note:", "::: {.note}"):
            with self.subTest(line=line):
                text = f"{line}\nB\n"
                self.assertEqual(block_spans(text), [("paragraph", 0, len(text), "")])


class ContentTabs(unittest.TestCase):
    def test_each_tab_is_one_block_and_its_fence_stays_whole(self):
        # '=== "Python"\n' [0, 13); "    ```py\n" [13, 23); "    # comment\n" [23, 37); "\n" [37, 38);
        # "    x = 1\n" [38, 48); "    ```\n" [48, 56); "\n" [56, 57); '=== "Shell"\n' [57, 69);
        # "    ls\n" [69, 76); "\n" [76, 77); "After\n" [77, 83).
        text = '=== "Python"\n    ```py\n    # comment\n\n    x = 1\n    ```\n\n=== "Shell"\n    ls\n\nAfter\n'
        self.assertEqual(
            outline(text),
            [(TITLE, 0, 0, 83, [("tab", 0, 56, ""), ("tab", 57, 76, ""), ("paragraph", 77, 83, "")])],
        )

    def test_a_fence_opened_in_a_tab_runs_to_its_close_whatever_the_indent(self):
        # '=== "A"\n' [0, 8); "    ```\n" [8, 16); "x\n" [16, 18); "\n" [18, 19); "    ```\n" [19, 27); "y\n" [27, 29).
        self.assertEqual(
            block_spans('=== "A"\n    ```\nx\n\n    ```\ny\n'), [("tab", 0, 27, ""), ("paragraph", 27, 29, "")]
        )

    def test_opening_lines(self):
        for line in ('=== "Tab"', '===+ "Open"', '===! "New set"', '=== "Say "hi""  '):
            with self.subTest(line=line):
                text = f"{line}\n    body\n"
                self.assertEqual(block_spans(text), [("tab", 0, len(text), "")])

    def test_lines_that_do_not_open_a_tab(self):
        for line in ("=== Tab", ' === "Tab"', "===", '==== "Tab"', '==="Tab"'):
            with self.subTest(line=line):
                text = f"{line}\n\n    body\n"
                spans = block_spans(text)
                self.assertNotIn("tab", [kind for kind, *_ in spans])

    def test_a_tab_interrupts_a_paragraph(self):
        # "Intro\n" [0, 6); '=== "A"\n' [6, 14); "    a\n" [14, 20).
        self.assertEqual(block_spans('Intro\n=== "A"\n    a\n'), [("paragraph", 0, 6, ""), ("tab", 6, 20, "")])


class EverythingElseAsBlocks(unittest.TestCase):
    PAGES = (
        "---\ntitle: A\n---\nIntro.\n\n# A\nBody\n",
        "Title\n=====\nBody\n\n- one\n  cont\n\n- two\n\nAfter\n",
        '!!! warning "Mind"\n    Body one.\n\n    Body two.\n\nAfter\n',
        "> [!WARNING]\n> Careful.\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n***\n# T\n```\n# c\n```\n",
        "a: b\n=: c\n/ d\nx === y\n",
    )

    def test_pages_without_the_new_syntax_read_as_under_blocks(self):
        for text in self.PAGES:
            with self.subTest(text=text):
                self.assertEqual(outline(text), outline(text, "blocks"))

    def test_the_byte_order_mark_is_dropped_after_the_hash_check_as_under_blocks(self):
        raw = b"\xef\xbb\xbf# T\r\n"
        self.assertEqual(decode_source_text(raw, "page.md", "test", "blocks-2"), "# T\n")
        self.assertEqual(decode_source_text(raw, "page.md", "test", "lesson"), "\ufeff# T\n")

    def test_unclosed_front_matter_is_refused(self):
        with self.assertRaises(IngestionError) as caught:
            outline("---\ntitle: A\n/// note\n")
        self.assertEqual(caught.exception.code, "front_matter_unclosed")

    def test_the_lesson_refusal_names_the_newest_block_grammar(self):
        # The newest grammar, whichever it is (blocks-10 now).
        newest = grammars.GRAMMARS[-1]
        self.assertEqual(newest, "blocks-10")
        hint = f"use the {newest} grammar (pin --markdown {newest})"
        cases = (
            ("/// note\nA\n///\n", f"found an admonition \"/// note\" at line 1, not a '# ' heading; {hint}"),
            (":::tip\nA\n:::\n", f"found an admonition \":::tip\" at line 1, not a '# ' heading; {hint}"),
            ('=== "Tab"\n    a\n', f'found a content tab "=== \\"Tab\\"" at line 1, not a \'# \' heading; {hint}'),
        )
        for text, message in cases:
            with self.subTest(text=text):
                with self.assertRaises(IngestionError) as caught:
                    grammars.document_sections(text, "lesson", "test")
                self.assertEqual((caught.exception.code, caught.exception.what), ("heading_required", message))


class Identity(unittest.TestCase):
    def test_configs_carry_the_grammar_so_ids_differ_from_blocks(self):
        self.assertEqual(
            list(chunk_index.policy_config("paragraph", None, "blocks-2").items()),
            [("strategy", "paragraph"), ("version", 1), ("max_chars", None), ("markdown", "blocks-2")],
        )
        sources = [loaded_source("# Use\nOne.\n\nTwo.\n")]
        for name in chunk_index.DEFAULT_POLICY_NAMES:
            with self.subTest(policy=name):
                first = chunk_index.build_index(chunk_index.policy_config(name, None, "blocks"), sources)
                second = chunk_index.build_index(chunk_index.policy_config(name, None, "blocks-2"), sources)
                self.assertEqual(
                    [(chunk["start"], chunk["end"]) for chunk in first["chunks"]],
                    [(chunk["start"], chunk["end"]) for chunk in second["chunks"]],
                )
                self.assertFalse({c["chunk_id"] for c in first["chunks"]} & {c["chunk_id"] for c in second["chunks"]})
                self.assertNotEqual(first["index_id"], second["index_id"])

    def test_the_family_takes_blocks_2_by_digest_only(self):
        member = {"strategy": "heading-aware", "version": 1, "max_chars": 300, "markdown": "blocks-2"}
        self.assertEqual(chunk_index.policy_of_config(member), "heading-aware")
        for grammar in ("Blocks-2", "blocks2", "blocks-99", "blocks-2 "):
            with self.subTest(grammar=grammar):
                self.assertIsNone(chunk_index.policy_of_config({**member, "markdown": grammar}))

    def test_the_ids_of_blocks_and_the_lesson_did_not_move(self):
        # The chunk ids of a "blocks" and a lesson build of one text, as the rules of SPEC.md give them.
        text = "# Use\nOne.\n"
        source = loaded_source(text)
        fields = {key: value for key, value in source.items() if key != "text"}
        revision = chunk_index.digest({**fields, "normalized_text_sha256": chunk_index.sha(text)})
        section = chunk_index.digest({"document_revision": revision, "heading_start": 0})
        for grammar in ("lesson", "blocks"):
            with self.subTest(grammar=grammar):
                config = chunk_index.policy_config("paragraph", None, grammar)
                payload = {
                    "document_revision": revision,
                    "end": 11,
                    "end_line": 2,
                    "start_line": 2,
                    "order": 0,
                    "section_id": section,
                    "section_title": "Use",
                    "source_id": "page",
                    "start": 6,
                    "text": "One.\n",
                    "text_sha256": chunk_index.sha("One.\n"),
                    "version": "1.0",
                }
                index = chunk_index.build_index(config, [source])
                self.assertEqual(index["chunks"][0]["chunk_id"], chunk_index.digest({"config": config, **payload}))


# A page as FastAPI's docs write it: a pymdownx warning after the instruction it limits.
FASTAPI_LIKE = (
    "# Responses\n\nCall save_copy(path, text) to store a document.\n\n"
    "/// warning | Mind\n\nIt refuses an existing path.\n\n///\n\n## Next\n\nMore.\n"
)


class Blocks2ManifestEndToEnd(LabTestCase):
    def write_manifest(self, markdown: str = "blocks-2") -> Path:
        (self.folder / "docs").mkdir(exist_ok=True)
        raw = b"\xef\xbb\xbf" + FASTAPI_LIKE.encode("utf-8")
        (self.folder / "docs" / "responses.md").write_bytes(raw)
        entry = {key: value for key, value in loaded_source(FASTAPI_LIKE, "responses").items() if key != "text"}
        entry["path"] = "docs/responses.md"
        entry["sha256"] = hashlib.sha256(raw).hexdigest()
        check = {
            "name": "save-refuses-existing",
            "source_id": "responses",
            "instruction": {"quote": "Call save_copy(path, text)"},
            "qualifier": {"quote": "It refuses an existing path."},
        }
        return self.write_json("manifest.json", {"markdown": markdown, "sources": [entry], "span_checks": [check]})

    def test_build_validate_and_a_tampered_index_refused(self):
        manifest_path = self.write_manifest()
        result_path = self.folder / "result.json"
        code, _out, err = call(["--manifest", str(manifest_path), "--output", str(result_path)])
        self.assertEqual(code, 0, err)
        result = json.loads(result_path.read_text(encoding="utf-8"))
        self.assertEqual([index["config"]["markdown"] for index in result["indexes"].values()], ["blocks-2"] * 3)
        # The BOM is gone; the warning block, marker lines included, is one paragraph-policy chunk.
        block_start = FASTAPI_LIKE.index("/// warning")
        block_end = FASTAPI_LIKE.index("///\n", block_start + 3) + 4
        paragraph = result["indexes"]["paragraph"]
        self.assertEqual(paragraph["documents"][0]["text"], FASTAPI_LIKE)
        self.assertIn((block_start, block_end), [(chunk["start"], chunk["end"]) for chunk in paragraph["chunks"]])
        self.assertEqual(call(["validate", str(result_path)])[0], 0)

        def move_boundary(forged):
            chunks = forged["indexes"]["paragraph"]["chunks"]
            moved = next(chunk for chunk in chunks if chunk["start"] == block_start)
            moved["end"] -= 4
            moved["text"] = FASTAPI_LIKE[moved["start"] : moved["end"]]
            reforge_index(forged["indexes"]["paragraph"])

        def first_grammar(forged):
            # The same chunks claimed for "blocks", every hash recomputed: "blocks" cuts the page otherwise.
            for index in forged["indexes"].values():
                index["config"]["markdown"] = "blocks"
                reforge_index(index)

        def one_index_of_another_grammar(forged):
            forged["indexes"]["heading-aware"]["config"]["markdown"] = "blocks"
            reforge_index(forged["indexes"]["heading-aware"])

        for mutate, code in (
            (move_boundary, "index_mismatch"),
            (first_grammar, "index_mismatch"),
            (one_index_of_another_grammar, "grammar_mismatch"),
        ):
            with self.subTest(mutate=mutate.__name__):
                forged = copy.deepcopy(result)
                mutate(forged)
                with self.assertRaises(IngestionError) as caught:
                    validate.validate_result(forged)
                self.assertEqual(caught.exception.code, code)

    def test_the_heading_aware_policy_keeps_the_pair_and_scan_finds_the_warning(self):
        manifest = load_manifest(self.write_manifest())
        self.assertEqual(manifest.grammar, "blocks-2")
        configs = chunk_index.manifest_configs(manifest.grammar, manifest.policy_sizes)
        result = span_checks.build_checked_result(manifest.sources, manifest.span_checks, configs)
        self.assertEqual(
            [comparison["instruction_and_qualifier_share_chunk"] for comparison in result["comparisons"]],
            [False, False, True],
        )
        # Under "blocks-2" the block is the caveat, its body without the marker lines (scan_version 2);
        # "blocks" sees one cue sentence.
        pairs, _unpaired = pairing.scan_sources(manifest.sources, "blocks-2")
        body_start = FASTAPI_LIKE.index("It refuses")
        body_end = body_start + len("It refuses an existing path.")
        self.assertEqual(
            [(pair.cue, pair.qualifier.start, pair.qualifier.end) for pair in pairs],
            [("warning admonition", body_start, body_end)],
        )
        self.assertEqual([pair.cue for pair in pairing.scan_sources(manifest.sources, "blocks")[0]], ["refuses"])

    def test_every_command_takes_a_blocks_2_manifest(self):
        manifest = str(self.write_manifest())
        result_path, chunks_path = str(self.folder / "result.json"), str(self.folder / "chunks.jsonl")
        self.assertEqual(call(["--manifest", manifest, "--output", result_path])[0], 0)
        code, _out, err = call(["export", result_path, "--policy", "paragraph", "--output", chunks_path])
        self.assertEqual(code, 0, err)
        records = [json.loads(line) for line in Path(chunks_path).read_text(encoding="utf-8").splitlines()]
        self.assertEqual({record["metadata"]["markdown"] for record in records}, {"blocks-2"})
        for argv in (
            ["validate", result_path],
            ["show", "--manifest", manifest, "--policy", "paragraph"],
            ["diff", result_path, result_path],
            ["sweep", "--manifest", manifest, "--sizes", "50", "300"],
            ["scan", "--manifest", manifest],
            ["context", "--manifest", manifest],
            ["judge", "--manifest", manifest, chunks_path],
        ):
            with self.subTest(command=argv[0]):
                code, out, err = call(argv)
                self.assertEqual((code, err.count("error:")), (0, 0), err)
                self.assertTrue(out or err)

    def test_pin_starts_a_blocks_2_manifest_and_refuses_a_switch(self):
        (self.folder / "docs").mkdir()
        (self.folder / "docs" / "page.md").write_text(":::note\nNo heading here.\n:::\n", encoding="utf-8")
        page = [source_pins.PinRequest(str(self.folder / "docs" / "page.md"))]
        code, _out, err = call(
            ["pin", "--markdown", "blocks-2", "--manifest", str(self.folder / "new.json"), page[0].path]
        )
        self.assertEqual(code, 0, err)
        fresh = json.loads((self.folder / "new.json").read_text(encoding="utf-8"))
        self.assertEqual(
            (fresh["markdown"], [entry["path"] for entry in fresh["sources"]]), ("blocks-2", ["docs/page.md"])
        )
        for existing, asked in (("blocks", "blocks-2"), ("blocks-2", "blocks")):
            with self.subTest(existing=existing):
                path = self.write_json("old.json", {"markdown": existing, "sources": [], "span_checks": []})
                with self.assertRaises(IngestionError) as caught:
                    source_pins.pin_sources(path, page, asked)
                self.assertEqual(caught.exception.code, "grammar_switch")


if __name__ == "__main__":
    unittest.main()
