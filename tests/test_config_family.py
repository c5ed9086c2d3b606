"""The config family: both grammars and the user's own sizes, built, validated, shown, exported; forgeries refused.

Expectations come from the rules (``docs/SPEC.md``, "The config family"),
never from reading the lab's output back.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import json
from pathlib import Path

import chunk_index
import run
import source_pins
from checks import span_checks
from lab_io.errors import IngestionError
from load_documents import load_manifest
from results import validate
from tests.support import Completed, LabTestCase, loaded_source, reforge_index, run_lab

SIMPLE_TEXT = "# Use\nOne.\n\nTwo.\n"
# Front matter, text before the first heading, and a fence holding a "#" comment and a blank line.
BLOCKS_PAGE = (
    "---\ntitle: Copies\n---\nStart here.\n\n# Save\nCall save_copy(path, text).\n\n"
    "```sh\n# not a heading\n\nls\n```\n\n!!! warning\n    It refuses an existing path.\n"
)


def call(argv: list[str]) -> tuple[int, str, str]:
    """``run.main(argv)`` in this process: exit code, stdout, stderr.

    Stdout has a byte buffer under it, as a real one does: ``show`` and
    ``export`` write their bytes there.
    """
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run.main(argv)
    out.flush()
    return code, out.buffer.getvalue().decode("utf-8"), err.getvalue()


class Identity(LabTestCase):
    def test_the_same_text_under_two_grammars_gives_other_chunk_and_index_ids(self):
        sources = [loaded_source(SIMPLE_TEXT)]
        for name in chunk_index.DEFAULT_POLICY_NAMES:
            with self.subTest(policy=name):
                lesson = chunk_index.build_index(chunk_index.policy_config(name), sources)
                blocks = chunk_index.build_index(chunk_index.policy_config(name, None, "blocks"), sources)
                # Same documents and the same spans on this plain text: only the grammar differs.
                self.assertEqual(lesson["documents"], blocks["documents"])
                self.assertEqual(
                    [(chunk["start"], chunk["end"]) for chunk in lesson["chunks"]],
                    [(chunk["start"], chunk["end"]) for chunk in blocks["chunks"]],
                )
                lesson_ids = {chunk["chunk_id"] for chunk in lesson["chunks"]}
                self.assertFalse(lesson_ids & {chunk["chunk_id"] for chunk in blocks["chunks"]})
                self.assertNotEqual(lesson["index_id"], blocks["index_id"])

    def test_configs_of_each_grammar(self):
        self.assertEqual(
            list(chunk_index.policy_config("heading-aware", 288, "blocks").items()),
            [("strategy", "heading-aware"), ("version", 1), ("max_chars", 288), ("markdown", "blocks")],
        )
        # The lesson's configs stay exactly as the spec writes them: three keys.
        self.assertEqual(
            chunk_index.manifest_configs(),
            {
                "fixed-char": {"strategy": "fixed-char", "version": 1, "max_chars": 80},
                "paragraph": {"strategy": "paragraph", "version": 1, "max_chars": None},
                "heading-aware": {"strategy": "heading-aware", "version": 1, "max_chars": 220},
            },
        )
        configs = chunk_index.manifest_configs("blocks", (("fixed-char", 500),))
        self.assertEqual(
            [(config["max_chars"], config["markdown"]) for config in configs.values()],
            [(500, "blocks"), (None, "blocks"), (220, "blocks")],
        )

    def test_the_family_is_recognised_by_digest(self):
        members = [
            ({"strategy": "fixed-char", "version": 1, "max_chars": 1}, "fixed-char"),
            ({"strategy": "heading-aware", "version": 1, "max_chars": 65_536, "markdown": "blocks"}, "heading-aware"),
            ({"markdown": "blocks", "max_chars": None, "version": 1, "strategy": "paragraph"}, "paragraph"),
        ]
        for config, name in members:
            with self.subTest(config=config):
                self.assertEqual(chunk_index.policy_of_config(config), name)
        outsiders = [
            {"strategy": "heading-aware", "version": 1, "max_chars": 0},
            {"strategy": "heading-aware", "version": 1, "max_chars": 65_537},
            {"strategy": "heading-aware", "version": 1, "max_chars": True},
            {"strategy": "fixed-char", "version": 1, "max_chars": 1.0},
            {"strategy": "heading-aware", "version": 1, "max_chars": 800.0, "markdown": "blocks"},
            {"strategy": "heading-aware", "version": 1, "max_chars": "800"},
            {"strategy": "heading-aware", "version": 2, "max_chars": 220},
            {"strategy": "heading-aware", "version": True, "max_chars": 220, "markdown": "blocks"},
            {"strategy": "paragraph", "version": 1, "max_chars": 5},
            {"strategy": "paragraph", "version": 1, "max_chars": None, "markdown": "lesson"},
            {"strategy": "paragraph", "version": 1, "max_chars": None, "markdown": "Blocks"},
            {"strategy": "paragraph", "version": 1, "max_chars": None, "markdown": None},
            {"strategy": "paragraph", "version": 1},
            {"strategy": "sentence", "version": 1, "max_chars": None},
            ["paragraph", 1, None],
        ]
        for config in outsiders:
            with self.subTest(config=config):
                self.assertIsNone(chunk_index.policy_of_config(config))


class BlocksResultForgeries(LabTestCase):
    def setUp(self):
        super().setUp()
        configs = chunk_index.manifest_configs("blocks", (("heading-aware", 60),))
        self.result = span_checks.build_checked_result([loaded_source(BLOCKS_PAGE)], (), configs)

    def refusal(self, mutate) -> IngestionError:
        forged = copy.deepcopy(self.result)
        mutate(forged)
        with self.assertRaises(IngestionError) as caught:
            validate.validate_result(forged)
        return caught.exception

    def test_the_untouched_result_validates_and_needs_no_heading_at_offset_0(self):
        self.assertFalse(BLOCKS_PAGE.startswith("#"))
        self.assertIs(validate.validate_result(self.result), self.result)

    def test_forgeries_are_refused_even_with_recomputed_hashes(self):
        def move_boundary(result):
            chunks = result["indexes"]["paragraph"]["chunks"]
            chunks[0]["end"] += 1
            chunks[0]["text"] = BLOCKS_PAGE[chunks[0]["start"] : chunks[0]["end"]]
            reforge_index(result["indexes"]["paragraph"])

        def config_change(policy, **changes):
            def mutate(result):
                result["indexes"][policy]["config"].update(changes)
                reforge_index(result["indexes"][policy])

            return mutate

        def drop_grammar(result):
            del result["indexes"]["heading-aware"]["config"]["markdown"]
            reforge_index(result["indexes"]["heading-aware"])

        cases = [
            ("index_mismatch", move_boundary),
            ("unsupported_chunk_config", config_change("paragraph", markdown="lesson")),
            ("unsupported_chunk_config", config_change("heading-aware", max_chars=60.0)),
            ("unsupported_chunk_config", config_change("heading-aware", max_chars=True)),
            ("unsupported_chunk_config", config_change("heading-aware", max_chars=0)),
            # A size in the family rebuilds other groups than the saved ones.
            ("index_mismatch", config_change("heading-aware", max_chars=1000)),
            # Without "markdown" the config asks for the lesson grammar, which wants a heading at offset 0.
            ("heading_required", drop_grammar),
        ]
        for code, mutate in cases:
            with self.subTest(code=code):
                self.assertEqual(self.refusal(mutate).code, code)

    def test_indexes_of_two_grammars_in_one_result_are_refused(self):
        # On a plain text the lesson's paragraph index validates on its own, so only the mix is wrong.
        result = span_checks.build_checked_result(
            [loaded_source(SIMPLE_TEXT)], (), chunk_index.manifest_configs("blocks")
        )
        result["indexes"]["paragraph"] = chunk_index.build_index(
            chunk_index.policy_config("paragraph"), [loaded_source(SIMPLE_TEXT)]
        )
        with self.assertRaises(IngestionError) as caught:
            validate.validate_result(result)
        self.assertEqual(caught.exception.code, "grammar_mismatch")
        self.assertEqual(caught.exception.where, "indexes.paragraph.config")


class SharedReading(LabTestCase):
    def test_one_reading_serves_every_index_of_a_build_but_never_another_text(self):
        cache: dict = {}
        first = chunk_index.document_sections_once(loaded_source(SIMPLE_TEXT), "blocks", cache)
        self.assertIs(chunk_index.document_sections_once(loaded_source(SIMPLE_TEXT), "blocks", cache), first)
        # Same source id, other text (a forged document in one saved index): read again.
        edited = chunk_index.document_sections_once(loaded_source(SIMPLE_TEXT + "Three.\n"), "blocks", cache)
        self.assertEqual([block.end for block in edited[0].blocks], [11, 24])
        # Same text, other grammar: its own reading.
        self.assertIsNot(chunk_index.document_sections_once(loaded_source(SIMPLE_TEXT), "lesson", cache), first)

    def test_a_result_with_one_other_text_is_refused_though_readings_are_shared(self):
        # A self-consistent heading-aware index of a longer text: had the fixed-char reading been reused
        # for it, its rebuilt spans would differ (index_mismatch); read afresh, it re-derives, and only
        # the comparison of documents across the result refuses it.
        configs = chunk_index.manifest_configs("blocks")
        result = span_checks.build_checked_result([loaded_source(SIMPLE_TEXT)], (), configs)
        edited = SIMPLE_TEXT.replace("Two.", "Two and a half.")
        result["indexes"]["heading-aware"] = chunk_index.build_index(configs["heading-aware"], [loaded_source(edited)])
        with self.assertRaises(IngestionError) as caught:
            validate.validate_result(result)
        self.assertEqual(caught.exception.code, "documents_mismatch")


class ManifestSettings(LabTestCase):
    def write_manifest(self, extra: dict, text: str = SIMPLE_TEXT) -> Path:
        (self.folder / "docs").mkdir(exist_ok=True)
        (self.folder / "docs" / "page.md").write_text(text, encoding="utf-8")
        entry = {key: value for key, value in loaded_source(text).items() if key != "text"}
        return self.write_json("manifest.json", {"sources": [entry], **extra})

    def test_grammar_and_sizes_are_read(self):
        manifest = load_manifest(
            self.write_manifest({"markdown": "blocks", "policies": {"heading-aware": 65_536, "fixed-char": 1}})
        )
        self.assertEqual(manifest.grammar, "blocks")
        self.assertEqual(manifest.policy_sizes, (("fixed-char", 1), ("heading-aware", 65_536)))
        plain = load_manifest(self.write_manifest({}))
        self.assertEqual((plain.grammar, plain.policy_sizes), ("lesson", ()))

    def test_refusals(self):
        cases = [
            ({"markdown": "Blocks"}, "unknown_grammar"),
            ({"markdown": "commonmark"}, "unknown_grammar"),
            ({"markdown": None}, "unknown_grammar"),
            ({"markdown": 1}, "unknown_grammar"),
            ({"policies": [["heading-aware", 288]]}, "policies_not_object"),
            ({"policies": None}, "policies_not_object"),
            ({"policies": {"paragraph": 5}}, "unknown_policy"),
            ({"policies": {"sentence": 5}}, "unknown_policy"),
            ({"policies": {"heading-aware": True}}, "policy_size"),
            ({"policies": {"heading-aware": 288.0}}, "policy_size"),
            ({"policies": {"heading-aware": "288"}}, "policy_size"),
            ({"policies": {"fixed-char": 0}}, "policy_size"),
            ({"policies": {"fixed-char": 65_537}}, "policy_size"),
            ({"policies": {"fixed-char": None}}, "policy_size"),
            ({"chunking": {}}, "unknown_field"),
        ]
        for extra, code in cases:
            with self.subTest(extra=extra):
                with self.assertRaises(IngestionError) as caught:
                    load_manifest(self.write_manifest(extra))
                self.assertEqual(caught.exception.code, code)

    def test_pin_checks_a_file_with_the_manifests_grammar(self):
        manifest_path = self.write_manifest({"markdown": "blocks"}, BLOCKS_PAGE)
        (self.folder / "docs" / "intro.md").write_text("No heading here.\n", encoding="utf-8")
        outcome = source_pins.pin_sources(manifest_path, [source_pins.PinRequest(str(self.folder / "docs/intro.md"))])
        self.assertEqual([change.kind for change in outcome.changes], ["new"])
        self.assertEqual(json.loads(outcome.manifest_bytes)["markdown"], "blocks")
        lesson_path = self.write_manifest({})
        with self.assertRaises(IngestionError) as caught:
            source_pins.pin_sources(lesson_path, [source_pins.PinRequest(str(self.folder / "docs/intro.md"))])
        self.assertEqual(caught.exception.code, "heading_required")


class UserSizesEndToEnd(LabTestCase):
    """The commands a user runs, in-process, on the fixture with their own sizes or the block grammar."""

    def manifest_with(self, **settings) -> Path:
        manifest_path = self.copy_inputs()
        value = json.loads(manifest_path.read_text(encoding="utf-8"))
        value.update(settings)
        manifest_path.write_text(json.dumps(value), encoding="utf-8")
        return manifest_path

    def test_a_user_size_is_built_validated_shown_and_exported(self):
        manifest_path = self.manifest_with(policies={"heading-aware": 800})
        result_path = self.folder / "result.json"
        code, _out, err = call(["--manifest", str(manifest_path), "--output", str(result_path)])
        self.assertEqual(code, 0, err)
        result = json.loads(result_path.read_text(encoding="utf-8"))
        self.assertEqual(
            result["indexes"]["heading-aware"]["config"], {"strategy": "heading-aware", "version": 1, "max_chars": 800}
        )
        self.assertEqual(result["indexes"]["fixed-char"]["config"]["max_chars"], 80)
        self.assert_validated(Completed([], *call(["validate", str(result_path)])), str(result_path), result_path)
        exported = self.folder / "chunks.jsonl"
        code, _out, err = call(["export", str(result_path), "--policy", "heading-aware", "--output", str(exported)])
        self.assertEqual(code, 0, err)
        records = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
        self.assertTrue(records)
        for record in records:
            self.assertEqual(
                {key: record["metadata"][key] for key in ("strategy", "max_chars", "markdown")},
                {"strategy": "heading-aware", "max_chars": 800, "markdown": "lesson"},
            )
        code, out, err = call(["show", "--manifest", str(manifest_path), "--policy", "heading-aware"])
        self.assertEqual(code, 0, err)
        self.assertIn('"max_chars": 800', out)

    def test_validate_against_a_manifest_refuses_a_result_of_other_sizes_or_grammar(self):
        result_path = self.folder / "result.json"
        manifest_path = self.manifest_with(policies={"heading-aware": 800})
        self.assertEqual(call(["--manifest", str(manifest_path), "--output", str(result_path)])[0], 0)
        self.assertEqual(call(["validate", str(result_path), "--manifest", str(manifest_path)])[0], 0)
        for settings, found in (
            ({"policies": {"heading-aware": 801}}, "heading-aware: saved max_chars 800, the manifest builds 801"),
            ({"markdown": "blocks", "policies": {"heading-aware": 800}}, 'fixed-char: built with the "lesson" grammar'),
        ):
            with self.subTest(settings=settings):
                value = json.loads((self.folder / "manifest.json").read_text(encoding="utf-8"))
                value.pop("markdown", None)
                value.update(settings)
                (self.folder / "manifest.json").write_text(json.dumps(value), encoding="utf-8")
                code, out, err = call(["validate", str(result_path), "--manifest", str(manifest_path)])
                self.assertEqual((code, out), (1, ""))
                self.assertTrue(err.startswith("error: stale_configs: "), err)
                self.assertIn(found, err)
                self.assertEqual(len(err.splitlines()), 1)

    def test_the_size_sweep_finds_is_the_line_that_builds_it(self):
        manifest_path = self.manifest_with()
        code, out, err = call(["sweep", "--manifest", str(manifest_path), "--sizes", "200", "240"])
        self.assertEqual(code, 0, err)
        line = out.splitlines()[-1]
        prefix = "to build it: "
        self.assertTrue(line.startswith(prefix), line)
        # The printed setting, pasted into the manifest, builds an index that keeps the pair.
        manifest_path = self.manifest_with(**json.loads("{" + line[len(prefix) :] + "}"))
        manifest = load_manifest(manifest_path)
        result = span_checks.build_checked_result(
            manifest.sources,
            manifest.span_checks,
            chunk_index.manifest_configs(manifest.grammar, manifest.policy_sizes),
        )
        self.assertTrue(result["comparisons"][2]["instruction_and_qualifier_share_chunk"])

    def test_a_blocks_manifest_builds_a_result_validate_accepts(self):
        manifest_path = self.manifest_with(markdown="blocks", policies={"fixed-char": 500})
        result_path = self.folder / "result.json"
        code, _out, err = call(["--manifest", str(manifest_path), "--output", str(result_path)])
        self.assertEqual(code, 0, err)
        result = json.loads(result_path.read_text(encoding="utf-8"))
        self.assertEqual([index["config"].get("markdown") for index in result["indexes"].values()], ["blocks"] * 3)
        self.assertEqual(call(["validate", str(result_path)])[0], 0)

    def test_the_real_command_builds_a_docs_page_with_the_block_grammar(self):
        # One end-to-end run through a subprocess, as a user types it.
        (self.folder / "docs").mkdir()
        (self.folder / "docs" / "copies.md").write_bytes(b"\xef\xbb\xbf" + BLOCKS_PAGE.replace("\n", "\r\n").encode())
        entry = {key: value for key, value in loaded_source(BLOCKS_PAGE, "copies").items() if key != "text"}
        entry["sha256"] = hashlib.sha256((self.folder / "docs" / "copies.md").read_bytes()).hexdigest()
        check = {
            "name": "save-refuses-existing",
            "source_id": "copies",
            "instruction": {"quote": "Call save_copy(path, text)"},
            "qualifier": {"quote": "It refuses an existing path."},
        }
        manifest = {
            "markdown": "blocks",
            "policies": {"heading-aware": 800},
            "sources": [entry],
            "span_checks": [check],
        }
        self.write_json("manifest.json", manifest)
        completed = run_lab("--manifest", "manifest.json", "--output", "result.json", cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        result = json.loads((self.folder / "result.json").read_text(encoding="utf-8"))
        paragraph = result["indexes"]["paragraph"]
        # The BOM and "\r" are gone from the text, and the fence is one chunk under its own section's title.
        self.assertEqual(paragraph["documents"][0]["text"], BLOCKS_PAGE)
        fence_start = BLOCKS_PAGE.index("```sh")
        fence_end = BLOCKS_PAGE.index("```\n", fence_start + 3) + 4
        fence_chunks = [chunk for chunk in paragraph["chunks"] if chunk["start"] <= fence_start < chunk["end"]]
        self.assertEqual([(chunk["start"], chunk["end"]) for chunk in fence_chunks], [(fence_start, fence_end)])
        self.assertEqual([chunk["section_title"] for chunk in paragraph["chunks"]], ["copies", "Save", "Save", "Save"])
        self.assertEqual(
            [comparison["instruction_and_qualifier_share_chunk"] for comparison in result["comparisons"]],
            [False, False, True],
        )
        self.assertEqual(call(["validate", str(self.folder / "result.json")])[0], 0)
