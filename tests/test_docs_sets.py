"""Whole docs sets: the bounds a block-grammar manifest reads and writes with, pages a folder pin passes
over, links it never follows, the manifest that is never its own source, ids from paths, and the sizes
a new manifest starts with.

Expected bounds, ids, lines and sizes are the documented ones (docs/own-documents.md, docs/strict-input.md,
docs/markdown-grammar.md), written out by hand here, never read back from the lab's constants or output.
"""

from __future__ import annotations

import json
import os
import unittest
from pathlib import Path
from unittest import mock

import load_documents
from tests.support import LabTestCase, run_lab

PAGE = "# Page\n\nCall open_widget(name) first.\n\nIt refuses a name already open.\n"


class DocsSetTestCase(LabTestCase):
    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    def lab(self, *args: str):
        return run_lab(*args, cwd=self.folder)

    def manifest_value(self, name: str = "m.json") -> dict:
        return json.loads((self.folder / name).read_text(encoding="utf-8"))


class BoundsTests(DocsSetTestCase):
    """The lesson keeps its bounds (64 KiB a page, 1 MiB a manifest); a block grammar reads 8 MiB pages and 64 MiB manifests."""

    def test_a_page_over_the_lesson_bound_pins_and_builds_under_a_block_grammar(self) -> None:
        # 100,000 bytes: over the lesson's 65,536, far under a docs set's 8 MiB (8,388,608).
        self.write("docs/notes.md", "# Release notes\n\n" + ("Fixed a bug. " * 20 + "\n") * 400)
        self.assertGreater((self.folder / "docs/notes.md").stat().st_size, 65_536)
        pinned = self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs/notes.md")
        self.assertEqual(pinned.returncode, 0, pinned.stderr)
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        self.assertEqual(self.lab("validate", "r.json", "--manifest", "m.json").returncode, 0)
        refused = self.lab("pin", "--manifest", "lesson.json", "docs/notes.md")
        self.assert_one_line_refusal(refused, "source_too_large")
        self.assertIn("is over 65,536 bytes", refused.stderr)

    def test_a_page_over_the_docs_set_bound_is_refused(self) -> None:
        self.write("docs/huge.md", b"# Huge\n" + b"x" * (8 * 1024 * 1024))
        refused = self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs/huge.md")
        self.assert_one_line_refusal(refused, "source_too_large")
        self.assertIn("is over 8,388,608 bytes", refused.stderr)

    def padded_manifest(self, markdown: str | None, size: int) -> Path:
        """A new manifest of one pinned page whose fact status pads its file to ``size`` bytes."""
        self.write("docs/page.md", PAGE)
        (self.folder / "m.json").unlink(missing_ok=True)
        args = ["pin", "--manifest", "m.json", "docs/page.md"] + (["--markdown", markdown] if markdown else [])
        self.assertEqual(self.lab(*args).returncode, 0)
        manifest = self.folder / "m.json"
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["sources"][0]["fact_status"] += "x" * (size - manifest.stat().st_size)
        manifest.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
        self.assertEqual(manifest.stat().st_size, size)
        return manifest

    def test_a_manifest_over_a_mebibyte_reads_under_a_block_grammar_only(self) -> None:
        self.padded_manifest("blocks-2", (1 << 20) + 100)
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        self.padded_manifest(None, (1 << 20) + 100)
        refused = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assert_one_line_refusal(refused, "file_too_large")
        self.assertIn("larger than the 1,048,576-byte bound of a manifest read with the lesson grammar", refused.stderr)

    def test_scan_add_checks_refuses_a_manifest_it_could_not_read_back_and_leaves_it_unchanged(self) -> None:
        manifest = self.padded_manifest(None, (1 << 20) - 200)
        before = manifest.read_bytes()
        refused = self.lab("scan", "--add-checks", "--manifest", "m.json")
        self.assert_one_line_refusal(refused, "manifest_too_large")
        self.assertIn("over the 1,048,576 a manifest read with the lesson grammar may hold", refused.stderr)
        self.assertIn("the manifest is unchanged", refused.stderr)
        self.assertEqual(manifest.read_bytes(), before)
        # Under a block grammar the same checks fit, and every command reads the manifest scan wrote.
        self.padded_manifest("blocks-2", (1 << 20) - 200)
        added = self.lab("scan", "--add-checks", "--manifest", "m.json")
        self.assertEqual(added.returncode, 0, added.stderr)
        self.assertGreater(manifest.stat().st_size, 1 << 20)
        for args in (("--output", "r.json"), ("scan",), ("pin", "docs/page.md")):
            with self.subTest(command=args[0]):
                completed = self.lab(*args, "--manifest", "m.json")
                self.assertEqual(completed.returncode, 0, completed.stderr)

    def test_scan_add_checks_is_held_to_the_bound_it_reads_with(self) -> None:
        manifest = self.padded_manifest("blocks-2", 4_000)
        before = manifest.read_bytes()
        smaller = load_documents.Bounds(source_bytes=8 << 20, manifest_bytes=4_050, folder_files=50_000)
        with mock.patch.object(load_documents, "DOCS_SET_BOUNDS", smaller):
            refused = self.lab("scan", "--add-checks", "--manifest", "m.json")
        self.assert_one_line_refusal(refused, "manifest_too_large")
        self.assertIn("over the 4,050 a manifest read with the blocks-2 grammar may hold", refused.stderr)
        self.assertEqual(manifest.read_bytes(), before)

    def test_a_folder_over_the_grammar_s_file_bound_is_refused_before_any_file_is_read(self) -> None:
        for name in ("a", "b", "c"):
            self.write(f"docs/{name}.md", PAGE)
        small = load_documents.Bounds(source_bytes=65_536, manifest_bytes=1 << 20, folder_files=2)
        with mock.patch.object(load_documents, "LESSON_BOUNDS", small):
            refused = self.lab("pin", "--manifest", "m.json", "docs")
            self.assert_one_line_refusal(refused, "too_many_files")
            self.assertIn("3 pages, more than the 2 a manifest read with the lesson grammar holds", refused.stderr)
            taken = self.lab("pin", "--markdown", "blocks-2", "--manifest", "docs-set.json", "docs")
        self.assertEqual(taken.returncode, 0, taken.stderr)

    def test_a_result_validate_could_not_read_is_never_written(self) -> None:
        from commands import main_job

        (self.folder / "r.json").write_bytes(b"kept")
        with mock.patch.object(main_job, "MAX_ARTIFACT_BYTES", 20_000):
            refused = self.lab("--manifest", str(self.copy_inputs()), "--output", "r.json")
        self.assert_one_line_refusal(refused, "result_too_large")
        self.assertIn("would pass the 20,000 bytes validate, show and export read", refused.stderr)
        self.assertEqual((self.folder / "r.json").read_bytes(), b"kept")
        self.assertEqual(sorted(path.name for path in self.folder.iterdir()), ["docs", "manifest.json", "r.json"])


class FolderWalkTests(DocsSetTestCase):
    """Pages passed over with their reason, links never followed, the manifest never a source, ids from paths."""

    def test_pages_a_block_grammar_cannot_take_are_passed_over_and_named(self) -> None:
        self.write("docs/good.md", PAGE)
        self.write("docs/latin1.md", b"# Caf\xe9\n")
        self.write("docs/open.md", "---\ntitle: never closed\n# Page\n")
        completed = self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        lines = completed.stdout.splitlines()
        self.assertEqual(
            lines[:2],
            [
                'passed over docs/latin1.md: not_utf8: "docs/latin1.md": byte 5 is not UTF-8',
                'passed over docs/open.md: front_matter_unclosed: front matter opened by "---" at line 1 '
                'is never closed by a "---" line',
            ],
        )
        self.assertIn("passed over: 2 pages the lab cannot take, each named above", completed.stdout)
        self.assertEqual([source["path"] for source in self.manifest_value()["sources"]], ["docs/good.md"])
        refused = self.lab("pin", "--all-or-nothing", "--markdown", "blocks-2", "--manifest", "all.json", "docs")
        self.assert_one_line_refusal(refused, "not_utf8")
        self.assertFalse((self.folder / "all.json").exists())

    def test_an_already_pinned_page_that_breaks_is_refused_not_passed_over(self) -> None:
        self.write("docs/good.md", PAGE)
        self.write("docs/other.md", PAGE)
        self.assertEqual(self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs").returncode, 0)
        before = (self.folder / "m.json").read_bytes()
        self.write("docs/other.md", b"# Caf\xe9\n")
        refused = self.lab("pin", "--manifest", "m.json", "docs")
        self.assert_one_line_refusal(refused, "not_utf8")
        self.assertEqual((self.folder / "m.json").read_bytes(), before)

    def test_an_mdx_page_is_passed_over_by_a_grammar_that_does_not_read_mdx(self) -> None:
        self.write("docs/good.md", PAGE)
        self.write("docs/intro.mdx", "import {Note} from './note.jsx'\n\n# Intro\n\nText.\n")
        completed = self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn(
            "passed over docs/intro.mdx: an MDX page; only the grammars blocks-3 to blocks-10 read MDX (pin --markdown "
            "blocks-10 into a new manifest)",
            completed.stdout.splitlines(),
        )
        refused = self.lab("pin", "--all-or-nothing", "--markdown", "blocks-2", "--manifest", "all.json", "docs")
        self.assert_one_line_refusal(refused, "mdx_page")

    @unittest.skipUnless(hasattr(os, "symlink"), "links need os.symlink")
    def test_links_are_skipped_with_a_line_and_never_followed(self) -> None:
        self.write("docs/good.md", PAGE)
        docs = self.folder / "docs"
        os.symlink("missing-folder", docs / "dangling")
        os.symlink("loop", docs / "loop")
        os.symlink("loop.md", docs / "loop.md")
        locked = docs / "locked"
        locked.mkdir()
        os.symlink("locked", docs / "into-locked")
        os.symlink("missing.png", docs / "logo.png")
        locked.chmod(0)
        self.addCleanup(locked.chmod, 0o755)
        completed = self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        link = "a link; pin the file or folder it points to"
        self.assertEqual(
            completed.stdout.splitlines()[:4],
            [
                f"skipped docs/dangling: {link}",
                f"skipped docs/into-locked: {link}",
                f"skipped docs/loop: {link}",
                f"skipped docs/loop.md: {link}",
            ],
        )
        self.assertNotIn("logo.png", completed.stdout)

    def test_the_manifest_is_never_one_of_its_sources_whatever_its_name(self) -> None:
        self.write("docs/good.md", PAGE)
        first = self.lab("pin", "--markdown", "blocks-2", "--manifest", "docs/m.md", "docs")
        self.assertEqual(first.returncode, 0, first.stderr)
        second = self.lab("pin", "--manifest", "docs/m.md", "docs")
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertEqual(
            second.stdout.splitlines(),
            [
                "skipped docs/m.md: the manifest itself is never one of its sources",
                "unchanged: 1 source already pinned at their current bytes",
                # The one page pinned, no span check declared.
                "manifest unchanged: docs/m.md (1 source, 0 span checks)",
            ],
        )
        self.assertEqual([source["path"] for source in self.manifest_value("docs/m.md")["sources"]], ["good.md"])
        named = self.lab("pin", "--manifest", "docs/m.md", "docs/m.md")
        self.assertEqual(named.returncode, 0, named.stderr)
        self.assertIn("skipped docs/m.md: the manifest itself is never one of its sources", named.stdout)
        self.assertEqual(self.lab("--manifest", "docs/m.md", "--output", "r.json").returncode, 0)

    def test_files_named_one_by_one_get_the_ids_a_folder_pin_gives_them(self) -> None:
        self.write("docs/index.md", PAGE)
        self.write("docs/guide/index.md", PAGE)
        by_name = self.lab("pin", "--manifest", "m.json", "docs/index.md", "docs/guide/index.md")
        self.assertEqual(by_name.returncode, 0, by_name.stderr)
        by_folder = self.lab("pin", "--manifest", "folder.json", "docs")
        self.assertEqual(by_folder.returncode, 0, by_folder.stderr)
        self.assertEqual(
            [source["source_id"] for source in self.manifest_value()["sources"]], ["docs/index", "docs/guide/index"]
        )
        self.assertEqual(
            sorted(source["source_id"] for source in self.manifest_value("folder.json")["sources"]),
            ["docs/guide/index", "docs/index"],
        )


class PipelineSizesTests(DocsSetTestCase):
    """pin --markdown starts a manifest at 1,000 characters a policy; the table names each size; lesson sizes say so."""

    def test_a_block_grammar_manifest_starts_at_a_pipeline_s_sizes(self) -> None:
        self.write("docs/page.md", PAGE)
        self.assertEqual(self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs").returncode, 0)
        self.assertEqual(self.manifest_value()["policies"], {"fixed-char": 1000, "heading-aware": 1000})
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        labels = [line.split("  ")[0] for line in built.stdout.splitlines()[1:4]]
        self.assertEqual(labels, ["fixed-char (width 1,000)", "paragraph", "heading-aware (target 1,000)"])
        self.assertNotIn("note:", built.stdout)

    def test_a_block_grammar_build_at_the_lesson_s_sizes_says_so_in_one_line(self) -> None:
        self.write("docs/page.md", PAGE)
        self.assertEqual(self.lab("pin", "--markdown", "blocks-2", "--manifest", "m.json", "docs").returncode, 0)
        value = self.manifest_value()
        value["policies"] = {"fixed-char": 80}
        (self.folder / "m.json").write_text(json.dumps(value), encoding="utf-8")
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        notes = [line for line in built.stdout.splitlines() if line.startswith("note:")]
        self.assertEqual(
            notes,
            [
                "note: built at the lesson's sizes (fixed-char 80, heading-aware 220), cut for its two short pages, "
                "not a pipeline's; set \"policies\" in the manifest to your pipeline's (pin --markdown starts a new "
                "manifest at fixed-char 1,000, heading-aware 1,000)"
            ],
        )

    # A list is one block (never cut): lines 5-9, 80 characters, its last newline included.
    LIST_ITEMS = (
        "- one item here\n",
        "- two item here\n",
        "- three item here\n",
        "- four item here\n",
        "- five items\n",
    )

    def pinned_list_page(self) -> dict:
        """The page of a paragraph and ``LIST_ITEMS``, pinned under blocks-3: the manifest's value."""
        self.write("docs/page.md", "# Page\n\nCall f().\n\n" + "".join(self.LIST_ITEMS))
        self.assertEqual(self.lab("pin", "--markdown", "blocks-3", "--manifest", "m.json", "docs").returncode, 0)
        return self.manifest_value()

    def test_a_chunk_over_twice_its_target_is_named_under_the_table(self) -> None:
        items = self.LIST_ITEMS
        value = self.pinned_list_page()
        value["policies"] = {"fixed-char": 1000, "heading-aware": 30}
        (self.folder / "m.json").write_text(json.dumps(value), encoding="utf-8")
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        list_length = len("".join(items))
        self.assertEqual(list_length, 80)
        self.assertIn(
            "over twice its target: 1 chunk of heading-aware; heading-aware's largest, 80 characters at target 30: "
            "docs/page lines 5-9; a block (a list, a table, a fence, a container, an HTML or JSX element) "
            "is never cut, "
            "so one longer than the target is a chunk of its own\n",
            built.stdout,
        )
        # At 40 the list (80) is not over twice the target: no line.
        value["policies"] = {"fixed-char": 1000, "heading-aware": 40}
        (self.folder / "m.json").write_text(json.dumps(value), encoding="utf-8")
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        self.assertNotIn("over twice", built.stdout)

    def test_the_pairs_kept_only_by_such_a_chunk_are_counted(self) -> None:
        # The list of the test above, 80 characters, one chunk at target 30: a pair inside it is kept together by it,
        # one between "Call f()." (its own chunk) and the list is split; the line counts the first.
        value = self.pinned_list_page()
        value["policies"] = {"fixed-char": 1000, "heading-aware": 30}
        value["span_checks"] = [
            {
                "name": "inside",
                "source_id": "docs/page",
                "instruction": {"quote": "one item here"},
                "qualifier": {"quote": "five items"},
            },
            {
                "name": "across",
                "source_id": "docs/page",
                "instruction": {"quote": "Call f()."},
                "qualifier": {"quote": "two item here"},
            },
        ]
        (self.folder / "m.json").write_text(json.dumps(value), encoding="utf-8")
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        line = next(line for line in built.stdout.splitlines() if line.startswith("over twice"))
        self.assertTrue(line.endswith("; of the pairs kept together, 1 of heading-aware's 1 lie in such a chunk"), line)

    def test_a_pair_aware_chunk_over_twice_its_target_by_a_join_is_said_to_be_one(self) -> None:
        # Three paragraphs of 25 to 27 characters: heading-aware at 30 keeps each alone, pair-aware joins all three
        # for the pair (26 + 2 + 25 + 2 + 27 = 82 characters apart at most, within 4 x 30), over twice 30 with no
        # block longer than the target.
        instruction, middle, qualifier = (
            "Call start_widget(x) now.",
            "Then wait for its signal.",
            "It must not start twice.",
        )
        page = f"# Page\n\n{instruction}\n\n{middle}\n\n{qualifier}\n"
        self.write("docs/page.md", page)
        self.assertEqual(self.lab("pin", "--markdown", "blocks-3", "--manifest", "m.json", "docs").returncode, 0)
        value = self.manifest_value()
        value["policies"] = {"fixed-char": 1000, "heading-aware": 30, "pair-aware": 30}
        value["span_checks"] = [
            {
                "name": "start",
                "source_id": "docs/page",
                "instruction": {"quote": instruction},
                "qualifier": {"quote": qualifier},
            }
        ]
        (self.folder / "m.json").write_text(json.dumps(value), encoding="utf-8")
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        line = next(line for line in built.stdout.splitlines() if "over twice" in line)
        self.assertTrue(line.startswith("over twice its target: 1 chunk of pair-aware; pair-aware's largest, "), line)
        self.assertTrue(
            line.endswith(
                "; pair-aware also joins the groups a declared pair would be cut across (its spans at most 4 x the "
                "target apart), so a chunk of it can pass twice the target without a long block"
            ),
            line,
        )

    def pinned_and_built(self):
        """The pages written under docs/ pinned under blocks-6 into m.json, and the main job's run on them."""
        self.assertEqual(self.lab("pin", "--markdown", "blocks-6", "--manifest", "m.json", "docs").returncode, 0)
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertEqual(built.returncode, 0, built.stderr)
        return built

    def test_a_page_of_components_alone_is_named_under_the_table(self) -> None:
        # An API page whose text the site fills in from a component: front matter, a heading and the element alone.
        self.write("docs/api.md", '---\ntitle: x\n---\n# x\n\n<Autofunction function="pkg.x" />\n')
        self.write("docs/page.md", PAGE)
        built = self.pinned_and_built()
        self.assertIn(
            "1 source of 2 holds no chunk under any policy (headings, front matter, elements or components alone, "
            "which the grammar reads as nothing to retrieve; a site that fills a component in at build time is not "
            "read here): docs/api\n",
            built.stdout,
        )

    def test_a_page_that_pulls_text_in_is_named_under_the_table(self) -> None:
        # A Hugo include shortcode on one page; the same shortcode shown in a fence on another pulls nothing in.
        self.write("docs/statsd.md", '# StatsD\n\nSend metrics to StatsD.\n\n{{< docs/shared source="k6" >}}\n')
        self.write("docs/shortcodes.md", '# Shortcodes\n\nWrite one like this:\n\n```\n{{% include "a.md" %}}\n```\n')
        built = self.pinned_and_built()
        self.assertIn(
            "1 source pulls other files' text in where the site is built (an include shortcode, an mdBook or Liquid "
            "include, an MDX partial or raw import, a snippet line): the lab reads each page as written, so that text "
            "is in none of its chunks: docs/statsd\n",
            built.stdout,
        )

    def test_a_fence_closes_at_its_own_kind_of_line(self) -> None:
        from views.summary import includes_text

        include = '{{< include "y.md" >}}\n'
        for text, pulls in (
            ("~~~\n```\n~~~\n\n" + include, True),  # the ``` inside the ~~~ fence closes nothing
            ("````\n```\n" + include + "````\n", False),  # a shorter run closes nothing either
            ("```\n" + include, False),  # a fence never closed runs to the end
            ("{{< embedded-video id=1 >}}\n", False),
            ('import Warning from "../components/_Warning.mdx"\n\n<Warning />\n', True),  # an MDX partial, used
            ('import Warning from "../components/_Warning.mdx"\n\nNo use of it.\n', False),
            ('import Note from "./_note.mdx"\n\n<NoteCard />\n', False),  # another component's name
            ('```jsx\nimport Note from "./_note.mdx";\n\n<Note />\n```\n', False),  # shown in a fence
            ('import Note from "./_note.mdx"\n\n```jsx\n<Note />\n```\n', False),  # used only in a fence
            ('import { Tabs } from "@theme/Tabs"\n\n<Tabs />\n', False),  # a component, not a page's text
            ("{{#rustdoc_include ../listings/ch02/main.rs:here}}\n", True),  # mdBook
            ("{{#include ../listings/main.rs}}\n", True),
            ("```rust\n{{#include ../listings/main.rs}}\n```\n", True),  # mdBook fills a listing's fence in
            ("```\n\\{{#include ../listings/main.rs}}\n```\n", False),  # escaped: shown as written
            ('{{< shared id="metric-queries" >}}\nText.\n{{< /shared >}}\n', False),  # the page's own text, shared out
            ('{{< docs/shared source="loki" lookup="x.md" >}}\n', True),
            ('Intro.\n  --8<-- "a.md"\n', True),  # a snippet line, indented
            ('Say --8<-- "a.md" mid-line.\n', False),  # a snippet mark is one only at its line's start
            ('```\n--8<-- "a.md"\n```\n', False),
            ("a 8<- b\n--8<-\n", False),  # its dashes run two or more on both sides
            ("x " + "8<-" * 2000 + '\n--8<-- "a.md"\n', True),  # a line of many marks, then a snippet line
        ):
            with self.subTest(text=text):
                self.assertEqual(includes_text(text), pulls)

    def test_a_snippet_an_mdx_file_exports_pulls_its_text_in_where_the_page_uses_it(self) -> None:
        from views.summary import includes_text

        # docs/own-documents.md: an MDX partial is a Markdown or MDX file imported as a component, by its default
        # export or by name (a Mintlify snippet), counted where the page uses it as an element.
        for text, pulls in (
            ('import { Limits } from "/snippets/limits.mdx"\n\n<Limits kind="queue" />\n', True),
            ("import { Limits, urls } from '/snippets/limits.mdx'\n\nSee <Limits />.\n", True),
            ('import { Limits as QueueLimits } from "/snippets/limits.mdx"\n\n<QueueLimits />\n', True),
            ('import { Limits as QueueLimits } from "/snippets/limits.mdx"\n\n<Limits />\n', False),  # not its name
            ('import Intro, { Outro } from "./_parts.mdx"\n\n<Outro />\n', True),
            ('import setup from "/snippets/setup.mdx"\n\n<setup />\n', True),  # a lowercase default import
            ('import { urls } from "/snippets/vars.mdx"\n\n<Card href={urls.queue} />\n', False),  # a value
            ('import { Limits } from "/snippets/limits.jsx"\n\n<Limits />\n', False),  # code, not a page's text
            ('import { Limits } from "/snippets/limits.mdx"\n\n```jsx\n<Limits />\n```\n', False),
            ('Text: import { Limits } from "/snippets/limits.mdx"\n\n<Limits />\n', False),  # not at a line's start
        ):
            with self.subTest(text=text):
                self.assertEqual(includes_text(text), pulls)

    def test_a_raw_import_pulls_its_file_in_where_the_page_shows_it(self) -> None:
        from views.summary import includes_text

        # docs/own-documents.md: a raw import is a file's text imported as a string (Docusaurus's raw-loader, a
        # bundler's ?raw), counted where the page writes it as an expression of its own, as a code block's text.
        show = '<CodeBlock language="ts">{Limits}</CodeBlock>\n'
        for text, pulls in (
            ("import Limits from '!!raw-loader!./limits.ts';\n\n" + show, True),
            ('import Limits from "../../src/limits.ts?raw";\n\n' + show, True),
            ('import Limits from "!!../../src/limits.ts?raw"\n\n<CodeBlock>{ Limits }</CodeBlock>\n', True),
            ("import Limits from './limits.ts?raw';\n\nNo use of it.\n", False),
            ("import Limits from './limits.ts?raw';\n\n<CodeBlock>{LimitsTable}</CodeBlock>\n", False),  # another
            ("import Limits from './limits.ts?rawish';\n\n" + show, False),  # no raw query
            ("import Limits from './limits.ts';\n\n" + show, False),  # a module's value, not a file's text
            ("```jsx\nimport Limits from './limits.ts?raw';\n\n" + show + "```\n", False),  # shown in a fence
            ("import Limits from './limits.ts?raw';\n\n```jsx\n" + show + "```\n", False),  # used only in a fence
            ("Text: import Limits from './limits.ts?raw';\n\n" + show, False),  # not at a line's start
        ):
            with self.subTest(text=text):
                self.assertEqual(includes_text(text), pulls)

    def test_the_lesson_grammar_keeps_the_lesson_s_sizes_without_a_note(self) -> None:
        self.write("docs/page.md", PAGE)
        self.assertEqual(self.lab("pin", "--manifest", "m.json", "docs").returncode, 0)
        self.assertNotIn("policies", self.manifest_value())
        built = self.lab("--manifest", "m.json", "--output", "r.json")
        self.assertNotIn("note:", built.stdout)
        self.assertIn("heading-aware (target 220)", built.stdout)


if __name__ == "__main__":
    unittest.main()
