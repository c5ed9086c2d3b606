"""``run.py scan``: cues, sentences, the instruction rule, cautionary blocks, verdicts and ``--add-checks``.

Every text here is written for the test; offsets are found in it with
``str.index`` on the phrase a rule must pick, never read back from the scan.
The fixture's pair is the spec's: instruction ``[51, 77)`` inside the sentence
that ends at 129, qualifier ``[131, 171)``; fixed-char slices ``[50, 130)`` and
``[130, 210)``, paragraph chunks ``[51, 130)`` and ``[131, 270)``, one
heading-aware group ``[51, 270)`` (docs/SPEC.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from pathlib import Path
from unittest import mock

import chunk_index
import run
from checks import span_checks
from checks.caveats import declare, findings, masking, pairing
from checks.caveats import report as caveat_report
from checks.caveats import sentences, verdicts
from commands import scan as scan_command
from grammars import Block, Section
from lab_io.errors import UsageError
from load_documents import Manifest, Span, SpanCheck, load_manifest
from tests.support import MANIFEST, ROOT, LabTestCase, run_lab

V1 = "aster-copy-v1"
INSTRUCTION_SENTENCE = "Call save_copy(path, text) to store a new document in the synthetic Aster API."
QUALIFIER = "This operation refuses an existing path."


def lesson(body: str) -> str:
    """A one-section text: ``# T`` and ``## S`` headings, then ``body``."""
    return "# T\n\n## S\n\n" + body


def scan(text: str) -> tuple[list, list]:
    return pairing.scan_text("doc", text)


class CapturedStdout(io.StringIO):
    """A text stdout with a ``buffer``, as ``outputs.emit`` writes bytes to ``sys.stdout.buffer``."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.BytesIO()

    def text(self) -> str:
        return self.buffer.getvalue().decode("utf-8") + self.getvalue()


def main_quietly(*argv: str) -> tuple[int, str, str]:
    """``run.main(argv)`` in-process, stdout and stderr captured."""
    out = CapturedStdout()
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run.main(list(argv))
    return code, out.text(), err.getvalue()


class SentenceTest(LabTestCase):
    """Where sentences end inside one block."""

    def sentences(self, text: str) -> list[str]:
        masked, _ = masking.masked_code(text, masking.fence_spans(text))
        return [text[start:end] for start, end in sentences.sentence_spans(masked, 0, len(text))]

    def test_rules(self) -> None:
        cases = {
            "Call f(). It fails.\n": ["Call f().", "It fails."],
            "Use e.g. the x flag. Then stop.\n": ["Use e.g. the x flag.", "Then stop."],
            "Set `a. B` first. Done.\n": ["Set `a. B` first.", "Done."],
            "Run it (see the guide.) Then stop!\n": ["Run it (see the guide.)", "Then stop!"],
            "Version 2. it continues.\n": ["Version 2. it continues."],
            "Steps:\n- Call f()\n- Never call g()\n": ["Steps:", "Call f()", "Never call g()"],
            "> [!WARNING]\n> Never call g().\n": ["Never call g()."],
            '!!! note "Title"\n    It fails.\n': ["It fails."],
            "First line\nsecond line. Next.\n": ["First line\nsecond line.", "Next."],
            # The marker lines of blocks-2's blocks, opening and closing, are no sentences.
            "/// note | Reuse\nCall reuse(p).\nIt never overwrites.\n///\n": ["Call reuse(p).", "It never overwrites."],
            ":::tip Fast\nUse fast mode.\n:::\n": ["Use fast mode."],
            '=== "Python"\n\n    Call run(p).\n': ["Call run(p)."],
            '===!+ "Never delete it"\n    Call g(x).\n': ["Call g(x)."],
            # The marker lines of blocks-3's containers: shortcode markers alone, paired or self-closing, and
            # HTML or JSX tags and one-line comments alone (scan_version 5).
            "{{< steps >}}\n{{< step >}}\n**Add it**\n\nRun add(p).\n{{< /step >}}\n{{< /steps >}}\n": [
                "**Add it**",
                "Run add(p).",
            ],
            '{{% note %}}\nIt never\n{{< figure src="a.png" >}}\noverwrites.\n{{% /note %}}\n': [
                "It never",
                "overwrites.",
            ],
            '<Tabs groupId="os">\n<TabItem value="a">\nCall a(p).\n</TabItem>\n</Tabs>\n': ["Call a(p)."],
            "<div><p>\n<!-- Never shown. -->\nCall b(p).\n</p></div>\n": ["Call b(p)."],
            "- Step one:\n  {{% note %}}\n  Call c(p).\n  {{% /note %}}\n": ["Step one:", "Call c(p)."],
            # A closing marker after its sentence on one line is no sentence either.
            "Call d(p). {{% /note %}}\n": ["Call d(p)."],
            # Inline markup stays in its sentence: a shortcode in a link, an autolink on a line of its own.
            'See [it]({{< relref "x" >}}) first.\n': ['See [it]({{< relref "x" >}}) first.'],
            "See\n<https://example.org>\nfirst.\n": ["See\n<https://example.org>\nfirst."],
        }
        for text, expected in cases.items():
            with self.subTest(text=text):
                self.assertEqual(self.sentences(text), expected)

    def test_code_spans(self) -> None:
        cases = {
            "a `b` c": [(2, 5)],
            "a ` b `` c ``": [(6, 13)],  # a lone opener is literal; the search goes on
            "a ``b ` c`` d": [(2, 11)],  # a shorter run inside does not close
            "a `b\n\nnever` c": [],  # never across a blank line
            "a `b\nc` d": [(2, 7)],  # across a line break of one paragraph
        }
        for text, expected in cases.items():
            with self.subTest(text=text):
                self.assertEqual(masking.code_span_spans(text), expected)

    def test_code_only_yields_nothing(self) -> None:
        self.assertEqual(self.sentences("`a.b()`\n"), [])


class ContainerMarkersTest(LabTestCase):
    """Under blocks-3 the marker lines of shortcodes, HTML and JSX elements are in no quote (scan_version 5)."""

    def test_a_note_shortcode_caveat_starts_after_its_opening_line(self) -> None:
        text = "# Serve\n\nRun `tool serve` to start it.\n\n{{% note %}}\n`tool serve` refuses a port below 1024.\n{{% /note %}}\n"
        pairs, unpaired = pairing.scan_text("doc", text, "blocks-3")
        # "# Serve\n\n" is 9 characters, the instruction 29; the note's marker line is [40, 53), its sentence 39.
        self.assertEqual(unpaired, [])
        self.assertEqual(
            [
                (pair.instruction.start, pair.instruction.end, pair.qualifier.start, pair.qualifier.end)
                for pair in pairs
            ],
            [(9, 38, 53, 92)],
        )
        self.assertEqual(pairs[0].qualifier.quote, "`tool serve` refuses a port below 1024.")

    def test_a_warning_whose_text_follows_its_marker_on_one_line(self) -> None:
        text = "# Serve\n\nRun `tool serve` to start it.\n\n{{% warning %}} `tool serve` refuses port 80.\n{{% /warning %}}\n"
        pairs, _ = pairing.scan_text("doc", text, "blocks-3")
        # The block opens at 40; its marker and the space after it are 16 characters: the body is [56, 85).
        self.assertEqual(
            [(pair.cue, pair.qualifier.start, pair.qualifier.end) for pair in pairs], [("warning admonition", 56, 85)]
        )

    def test_esm_lines_instruct_nothing_and_a_jsx_note_loses_its_tag_lines(self) -> None:
        text = "# Use\n\nexport const meta = {title: 'Run it'}\n\n<Note type=\"info\">\n  `open(path)` raises `OSError` on a missing file.\n</Note>\n"
        pairs, unpaired = pairing.scan_text("doc", text, "blocks-3")
        # The ESM block [7, 44) is code, so no instruction is in reach; the tag line is [46, 65), the sentence
        # starts after two spaces of indentation at 67 and runs 48 characters.
        self.assertEqual(pairs, [])
        self.assertEqual([(item.span.start, item.span.end, item.rule) for item in unpaired], [(67, 115, "error")])

    def test_the_text_before_the_first_heading_is_named_by_the_source_title(self) -> None:
        page = "Run `tool serve` to start it.\n\n`tool serve` refuses a port below 1024.\n\n# Later\n\nText.\n"
        manifest = write_widget_manifest(self, page, {"markdown": "blocks-3"})
        code, out, err = main_quietly("scan", "--json", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual([pair["context"]["section"] for pair in json.loads(out)["pairs"]], ["widget"])
        code, out, err = main_quietly("scan", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertIn("  § widget", out.splitlines())

    def test_a_heading_in_quotes_shows_its_own_quotes_once(self) -> None:
        # docs/seeing-boundaries.md: the title runs to the line's end as the heading wrote it, in no quotes of the
        # view's own; what does not print is its escape and a backslash doubled, so no title passes for another.
        page = '# "Evaluating widgets" \\ \x1b[2J\n\nCall `deploy` first.\n\nIt never retries a failed push.\n'
        manifest = write_widget_manifest(self, page, {"markdown": "blocks-7"})
        shown = '"Evaluating widgets" \\\\ \\x1b[2J'
        code, out, err = main_quietly("scan", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertIn(f"  § {shown}", out.splitlines())
        code, out, err = main_quietly("show", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        captions = [line for line in out.splitlines() if line.lstrip().startswith("┌ chunk")]
        self.assertTrue(captions, out)
        for caption in captions:
            self.assertTrue(caption.endswith(f" · section {shown}"), caption)

    def test_a_source_titled_by_a_version_still_has_its_opening_scanned(self) -> None:
        # Release notes are found by their headings; the source's title names no heading of the page.
        text = "Run `tool serve` to start it.\n\n`tool serve` refuses a port below 1024.\n"
        sections = pairing.scanned_sections({"source_id": "doc", "text": text, "title": "1.2.0"}, "blocks-3")
        self.assertEqual([section.title for section in sections], ["1.2.0"])
        pairs, _ = pairing.scan_sections("doc", text, sections)
        self.assertEqual([(pair.instruction.start, pair.qualifier.start) for pair in pairs], [(0, 31)])


class IndentedCodeTest(LabTestCase):
    """Fenced code is code at any indentation (content tabs, list items, admonitions), under every grammar."""

    TAB_PAGE = lesson(
        "Call open_widget(name) to open it.\n\n"
        '=== "Python"\n\n'
        "    ```python\n"
        "    x = save(path)\n"
        "    # never call twice\n"
        "    ```\n\n"
        "It fails on a closed widget.\n"
    )

    def test_code_in_a_content_tab_is_neither_instruction_nor_caveat(self) -> None:
        caveat = "It fails on a closed widget."
        for grammar in ("lesson", "blocks"):
            with self.subTest(grammar=grammar):
                pairs, unpaired = pairing.scan_text("doc", self.TAB_PAGE, grammar)
                self.assertEqual(unpaired, [])
                # The code's call and its "never" comment are masked: the only pair is prose with prose.
                self.assertEqual(
                    [(pair.instruction.quote, pair.qualifier.quote, pair.cue) for pair in pairs],
                    [("Call open_widget(name) to open it.", caveat, "fails")],
                )
                # A blank line inside the code, which splits it into paragraphs for the grammar, keeps it code.
                code_only = lesson(
                    '=== "Python"\n\n    ```python\n    x = save(path)\n\n    # never call twice\n    ```\n'
                )
                self.assertEqual(pairing.scan_text("doc", code_only, grammar), ([], []))

    def test_fence_spans_at_any_indentation(self) -> None:
        opening = self.TAB_PAGE.index("    ```python")
        closing = self.TAB_PAGE.index("    ```\n\nIt") + len("    ```\n")
        self.assertEqual(masking.fence_spans(self.TAB_PAGE), [(opening, closing)])
        cases = {
            # A closing line at lesser indentation closes; one deeper than the opening (past three spaces) does not.
            "  - x\n\n      ~~~\n      a\n    ~~~\nb\n": [(7, 33)],
            # An opening indented past three columns outside any block is provisional: never closed, it is none.
            "    ```\n    a\n        ```\nb\n": [],
            "    ```\n    a\n    ```\nb\n": [(0, 22)],
            # A fence line nearer the margin drops it, and opens a fence of its own.
            "    ```\na\n```\nb\n```\n": [(10, 20)],
            # A backtick line whose info string holds a backtick opens nothing.
            "    ``` a`b\nc\n": [],
            # Tabs count as indentation too.
            "\t```\n\ta\n\t```\nb\n": [(0, 13)],
        }
        for text, expected in cases.items():
            with self.subTest(text=text):
                self.assertEqual(masking.fence_spans(text), expected)

    def test_an_unclosed_fence_ends_with_its_enclosing_block(self) -> None:
        # Any block but a paragraph bounds the fence, whatever its kind: a grammar's tab or container as well.
        container = "!!! note\n    ```python\n    x = 1  # never\n"
        for kind in ("admonition", "tab", "container"):
            with self.subTest(kind=kind):
                text = lesson(f"Call open_widget(name).\n\n{container}\nNever reuse the handle.\n")
                start = text.index("Call")
                blocks = (
                    Block("paragraph", start, start + len("Call open_widget(name).\n"), ""),
                    Block(kind, text.index(container), text.index(container) + len(container), "note"),
                    Block("paragraph", text.index("Never"), len(text), ""),
                )
                section = Section(text.index("## "), "S", start, len(text), blocks)
                pairs, _ = pairing.scan_sections("doc", text, [section])
                self.assertEqual(
                    [(pair.instruction.quote, pair.qualifier.quote) for pair in pairs],
                    [("Call open_widget(name).", "Never reuse the handle.")],
                )
        # Without a block around it, an unclosed fence at the margin runs to the end of the text ...
        text = lesson("Call open_widget(name).\n\n```\nx = 1\n\nNever reuse the handle.\n")
        self.assertEqual(scan(text), ([], []))
        # ... while an indented one never closed is no fence: it hides nothing.
        text = lesson("Call open_widget(name).\n\n    ```\n    x = 1\n\nNever reuse the handle.\n")
        pairs, _ = scan(text)
        self.assertEqual(
            [(pair.instruction.quote, pair.qualifier.quote) for pair in pairs],
            [("Call open_widget(name).", "Never reuse the handle.")],
        )


class FixtureScanTest(LabTestCase):
    """On the fixture: the lesson's pair, with the main job's verdicts."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = load_manifest(MANIFEST)
        self.report = caveat_report.scan_report(self.manifest, chunk_index.build_indexes(self.manifest.sources))

    def lesson_pair(self) -> dict:
        found = [pair for pair in self.report["pairs"] if pair["declared_as"] == "save-copy-refuses-existing-path"]
        self.assertEqual(len(found), 1)
        return found[0]

    def test_the_lesson_pair_is_found(self) -> None:
        pair = self.lesson_pair()
        self.assertEqual(pair["name"], "scan:aster-copy-v1:7")
        # "# Aster copy" and a blank line, "## Create a copy" and a blank line: the instruction is on line 5.
        self.assertEqual(pair["instruction"], {"start": 51, "end": 129, "quote": INSTRUCTION_SENTENCE, "line": 5})
        self.assertEqual(pair["qualifier"], {"start": 131, "end": 171, "quote": QUALIFIER, "line": 7})
        # "refuses" is an error cue of tier 1; "This operation" points back to the paragraph before; "Call": tier 1.
        self.assertEqual(
            (pair["rule"], pair["cue"], pair["link"], pair["instruction_rule"], pair["tier"]),
            ("error", "refuses", "anaphor This operation", "imperative", 1),
        )
        self.assertEqual(pair["context"], {"section": "Create a copy", "first_line": 5, "last_line": 7})

    def test_the_walk_through_shows_the_scan_as_it_prints(self) -> None:
        # docs/caveats.md, "A walk-through on the fixture": its console example is the scan's first lines, up to "...".
        docs = (ROOT / "docs" / "caveats.md").read_text(encoding="utf-8")
        command = "$ python run.py scan\n"
        shown = docs[docs.index(command) + len(command) :].split("\n...\n", 1)[0]
        completed = run_lab("scan")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(completed.stdout[: len(shown) + 1], shown + "\n")

    def test_verdicts_match_the_main_job(self) -> None:
        result = span_checks.build_checked_result(self.manifest.sources, self.manifest.span_checks)
        expected = {
            comparison["strategy"]: comparison["instruction_and_qualifier_share_chunk"]
            for comparison in result["comparisons"]
        }
        self.assertEqual(expected, {"fixed-char": False, "paragraph": False, "heading-aware": True})
        verdicts = self.lesson_pair()["policies"]
        self.assertEqual({name: verdict["same_chunk"] for name, verdict in verdicts.items()}, expected)
        # Slices restart every 80 characters from the body start at 50; the first paragraph ends at 130.
        self.assertEqual(
            verdicts["fixed-char"], {"same_chunk": False, "split_by": "fixed-width cut", "boundary": 50 + 80}
        )
        self.assertEqual(verdicts["paragraph"], {"same_chunk": False, "split_by": "block break", "boundary": 130})

    def test_the_size_target_reason(self) -> None:
        # aster-copy-v2: the instruction's paragraph and the two after it span more than 220 characters.
        text = next(source["text"] for source in self.manifest.sources if source["source_id"] == "aster-copy-v2")
        pair = next(pair for pair in self.report["pairs"] if pair["source_id"] == "aster-copy-v2")
        first_paragraph = text.index("In this separate")
        second_end = text.index("\n\n", text.index("This version's")) + 1
        self.assertGreater(second_end - first_paragraph, 220)
        self.assertEqual(pair["policies"]["heading-aware"]["split_by"], "size target")

    def test_table_and_json_in_process(self) -> None:
        code, out, err = main_quietly("scan")
        self.assertEqual((code, err), (0, ""))
        lines = out.splitlines()
        at = lines.index(
            'scan:aster-copy-v1:7 · tier 1 · error "refuses" · anaphor This operation · imperative · '
            "declared as save-copy-refuses-existing-path"
        )
        # The section's title, then lines 5 to 7 with both quotes marked, then the verdicts.
        self.assertEqual(lines[at + 1], "  § Create a copy")
        self.assertEqual(lines[at + 2], f"  5 │ I»{INSTRUCTION_SENTENCE}«")
        self.assertEqual(lines[at + 3], "  6 │")
        self.assertTrue(lines[at + 4].startswith(f"  7 │ C»{QUALIFIER}« Use replace_copy"), lines[at + 4])
        self.assertEqual(
            lines[at + 5],
            "  fixed-char split (fixed-width cut at 130), paragraph split (block break at 130), heading-aware same chunk",
        )
        # The fixture's manifest is the lesson's, which a review never writes: the line names --manifest M.
        self.assertEqual(
            lines[-1],
            "review: run.py scan --accept NAME --manifest M declares a pair as a span check; run.py scan --reject NAME "
            "--manifest M drops it for good (NAME: the pair's name above)",
        )
        code, out, err = main_quietly("scan", "--json")
        self.assertEqual(code, 0)
        report = json.loads(out)
        # The tier kept by default is 2 (findings.DEFAULT_TIER): every fixture pair is that strong or stronger.
        self.assertEqual((report["scan_version"], report["tier"], report["rejected"]), (74, 2, 0))
        # The four caveats of docs/caveats.md's walk-through, each with an instruction in reach.
        self.assertEqual(
            [(pair["name"], pair["rule"]) for pair in report["pairs"]],
            [
                ("scan:aster-copy-v1:7", "error"),
                ("scan:aster-copy-v1:7#2", "prohibition"),
                ("scan:aster-copy-v1:13", "limitation"),
                ("scan:aster-copy-v2:7", "prohibition"),
            ],
        )

    def test_end_to_end(self) -> None:
        completed = run_lab("scan")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertIn("4 pairs found in 2 sources", completed.stdout)


class SourceNarrowingTest(LabTestCase):
    """``scan --source ID``: the named pages alone are scanned, listed, reviewed and declared."""

    def test_the_table_counts_the_named_page_alone(self) -> None:
        # The fixture's second page holds one found pair (line 7); the first page's three are left out.
        code, out, err = main_quietly("scan", "--source", "aster-copy-v2")
        self.assertEqual((code, err), (0, ""))
        self.assertIn(
            "1 pair found in 1 source (tiers 1 and 2 of 3, tier 1 the surest; --tier 3 lists every pair)",
            out.splitlines(),
        )
        self.assertNotIn("scan:aster-copy-v1:", out)
        # Its pair is of tier 2 (kept at 2, not at 1); at tier 3, every pair kept, the line names no tier.
        code, out, _ = main_quietly("scan", "--source", "aster-copy-v2", "--tier", "1")
        self.assertIn(
            "0 pairs found in 0 sources (tier 1 of 3, the surest; --tier 3 lists every pair)", out.splitlines()
        )
        code, out, _ = main_quietly("scan", "--source", "aster-copy-v2", "--tier", "3")
        self.assertIn("1 pair found in 1 source", out.splitlines())
        code, out, _ = main_quietly("scan", "--json", "--source", "aster-copy-v2")
        self.assertEqual([pair["name"] for pair in json.loads(out)["pairs"]], ["scan:aster-copy-v2:7"])

    def test_names_and_paths_are_refused_as_show_refuses_them(self) -> None:
        code, out, err = main_quietly("scan", "--source", "aster-copy-v3")
        self.assertEqual((code, out), (2, ""))
        self.assertTrue(
            err.startswith('error: unknown_name: --source: "aster-copy-v3" is not in the manifest; it has 2 sources'),
            err,
        )
        # A page's path selects the page, as show takes it.
        self.assertEqual(
            main_quietly("scan", "--source", "docs/aster-copy-v1.md"), main_quietly("scan", "--source", "aster-copy-v1")
        )
        code, _, err = main_quietly("scan", "--source", "aster-copy-v1", "--evaluate", "labels.json")
        self.assertEqual(
            (code, err),
            (2, "error: usage: scan: --source does not narrow --evaluate: --evaluate reads the pages it names\n"),
        )

    def test_review_and_declaration_take_the_named_pages_pairs(self) -> None:
        manifest = self.copy_inputs()
        code, _, err = main_quietly(
            "scan", "--manifest", str(manifest), "--source", "aster-copy-v2", "--reject", "scan:aster-copy-v1:13"
        )
        self.assertEqual(code, 2)
        self.assertIn('"scan:aster-copy-v1:13" is not a pair scan finds in the pages --source names', err)
        code, out, _ = main_quietly("scan", "--add-checks", "--manifest", str(manifest), "--source", "aster-copy-v2")
        self.assertEqual(code, 0)
        self.assertIn(f"added 1 span check to {manifest} (0 already declared)", out)
        names = [check["name"] for check in json.loads(manifest.read_text(encoding="utf-8"))["span_checks"]]
        self.assertEqual(names, ["save-copy-refuses-existing-path", "scan:aster-copy-v2:7"])


class AddChecksTest(LabTestCase):
    """``scan --add-checks``: atomic, existing checks untouched, nothing twice."""

    def test_the_line_counts_the_pairs_no_review_decided(self) -> None:
        # The fixture's four found pairs: one is the hand-declared check, one is accepted first (which declares it), so
        # two are not reviewed.
        manifest = self.copy_inputs()
        code, _, _ = main_quietly("scan", "--accept", "scan:aster-copy-v1:13", "--manifest", str(manifest))
        self.assertEqual(code, 0)
        code, out, _ = main_quietly("scan", "--add-checks", "--manifest", str(manifest))
        self.assertEqual(code, 0)
        self.assertIn(
            "added 2 span checks to " + str(manifest) + " (2 already declared); 2 of 4 pairs not reviewed: read them",
            out,
        )

    def test_twice_adds_nothing_and_keeps_every_check(self) -> None:
        manifest = self.copy_inputs()
        before = json.loads(manifest.read_text(encoding="utf-8"))
        code, out, _ = main_quietly("scan", "--add-checks", "--manifest", str(manifest))
        self.assertEqual(code, 0)
        self.assertIn("added 3 span checks", out)
        after = json.loads(manifest.read_text(encoding="utf-8"))
        self.assertEqual(after["sources"], before["sources"])
        self.assertEqual(after["span_checks"][0], before["span_checks"][0])
        self.assertEqual(
            [check["name"] for check in after["span_checks"][1:]],
            ["scan:aster-copy-v1:7#2", "scan:aster-copy-v1:13", "scan:aster-copy-v2:7"],
        )
        written = manifest.read_bytes()
        code, out, _ = main_quietly("scan", "--add-checks", "--manifest", str(manifest))
        self.assertEqual(code, 0)
        self.assertIn("manifest unchanged", out)
        # The table and the counts, then that line: no pair's card again (scan shows them; --list with it, all).
        self.assertEqual(len(out.splitlines()), 6, out)
        self.assertNotIn("I»", out)
        code, out, _ = main_quietly("scan", "--add-checks", "--list", "--manifest", str(manifest))
        self.assertIn("I»", out)
        self.assertEqual(manifest.read_bytes(), written)
        # The main job and validate cover the added pairs from then on.
        result = self.folder / "result.json"
        self.assertEqual(main_quietly("--manifest", str(manifest), "--output", str(result))[0], 0)
        code, out, _ = main_quietly("validate", str(result), "--manifest", str(manifest))
        self.assertEqual(code, 0, out)
        saved = json.loads(result.read_text(encoding="utf-8"))
        self.assertEqual(len(saved["comparisons"][0]["pairs"]), 4)

    def test_a_taken_name_gets_a_suffix(self) -> None:
        manifest = self.copy_inputs()
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"].append(
            {
                "name": "scan:aster-copy-v2:7",
                "source_id": "aster-copy-v2",
                "instruction": {"quote": "Call names()"},
                "qualifier": {"quote": "to list the documents"},
            }
        )
        manifest.write_text(json.dumps(value), encoding="utf-8")
        self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(manifest))[0], 0)
        names = [check["name"] for check in json.loads(manifest.read_text(encoding="utf-8"))["span_checks"]]
        self.assertEqual(names[1], "scan:aster-copy-v2:7")
        self.assertIn("scan:aster-copy-v2:7~2", names)

    def test_add_checks_needs_a_named_manifest(self) -> None:
        # Without --manifest the lab falls back to the lesson's fixture; adding to it would move the reference.
        before = MANIFEST.read_bytes()
        with mock.patch.object(scan_command, "add_scanned_checks") as add:
            code, out, err = main_quietly("scan", "--add-checks")
        self.assertEqual(code, 2)
        self.assertEqual(err, "error: usage: scan: --add-checks needs --manifest M: the manifest to change\n")
        self.assertEqual(out, "")
        add.assert_not_called()
        self.assertEqual(MANIFEST.read_bytes(), before)

    def test_a_linked_manifest_is_refused_untouched(self) -> None:
        manifest = self.copy_inputs()
        link = self.folder / "link.json"
        os.symlink(manifest, link)
        before = manifest.read_bytes()
        code, _, err = main_quietly("scan", "--add-checks", "--manifest", str(link))
        self.assertEqual(code, 2)
        self.assertTrue(err.startswith("error: output_is_link: "), err)
        self.assertEqual(manifest.read_bytes(), before)

    def test_an_entry_that_would_not_load_leaves_the_manifest_untouched(self) -> None:
        manifest = self.copy_inputs()
        before = manifest.read_bytes()
        stale = {
            "name": "scan:aster-copy-v1:99",
            "source_id": V1,
            "instruction": {"start": 51, "end": 77, "quote": "not the text there"},
            "qualifier": {"start": 131, "end": 171, "quote": QUALIFIER},
        }
        with mock.patch.object(declare, "checks_to_add", return_value=[stale]):
            code, _, err = main_quietly("scan", "--add-checks", "--manifest", str(manifest))
        self.assertEqual(code, 1)
        self.assertTrue(err.startswith("error: stale_span_check: "), err)
        self.assertIn("the manifest is unchanged", err)
        self.assertEqual(manifest.read_bytes(), before)
        self.assertEqual(sorted(path.name for path in self.folder.iterdir()), ["docs", "manifest.json"])

    def test_overlap_is_the_same_pair(self) -> None:
        narrow = SpanCheck("x", V1, Span(51, 77, "Call save_copy(path, text)"), Span(131, 171, QUALIFIER))
        pair = findings.FoundPair(
            "scan:x:7",
            V1,
            Span(51, 129, INSTRUCTION_SENTENCE),
            Span(131, 171, QUALIFIER),
            "error",
            "refuses",
            "nearest",
            2,
            "imperative",
            7,
        )
        self.assertEqual(verdicts.declared_names([pair], (narrow,)), ["x"])
        elsewhere = SpanCheck("y", V1, Span(51, 77, "Call save_copy(path, text)"), Span(172, 180, "Use repl"))
        self.assertEqual(verdicts.declared_names([pair], (elsewhere,)), [None])


class UntrustedTextTest(LabTestCase):
    """Quotes from sources reach the terminal escaped."""

    def test_control_characters_are_escaped(self) -> None:
        text = lesson("Call open_widget(name) \x1b[2J now.\n\nIt never closes.\n")
        source = {"source_id": "doc", "path": "doc.md", "title": "doc", "version": "1", "url": "local:doc.md"}
        sources = [{**source, "sha256": "0" * 64, "fact_status": "written for the test", "text": text}]
        manifest = Manifest(Path("."), sources, ())
        report = caveat_report.scan_report(manifest, chunk_index.build_indexes(sources))
        self.assertEqual(len(report["pairs"]), 1)
        table = caveat_report.scan_table(report, {"doc": text})
        self.assertNotIn("\x1b", table)
        self.assertIn("  5 │ I»Call open_widget(name) \\x1b[2J now.«", table.splitlines())
        # Without the texts, the quotes alone, as escaped JSON.
        self.assertIn("\\u001b[2J", caveat_report.scan_table(report))

    def test_both_quotes_of_a_long_line_are_in_view(self) -> None:
        # One line of 300 characters: the instruction opens it, the caveat closes it, 200 characters of filler
        # between. Rows are wrapped at spaces to CONTEXT_WIDTH - 2: the first holds "»", the last "«" and the
        # caveat's own "»"; the rows between hold no mark and are one "…".
        instruction = "Call open_widget(name) first."
        filler = " ".join(["word"] * 40)
        caveat = "It never closes."
        line = f"{instruction} {filler} {caveat}"
        text = line + "\n"
        starts = {"instruction": 0, "qualifier": line.index(caveat)}
        spans = {
            role: {"start": start, "end": start + len(quote)}
            for (role, start), quote in zip(starts.items(), (instruction, caveat))
        }
        lines = caveat_report.context_lines(text, chunk_index.newline_offsets(text), *spans.values())
        self.assertTrue(lines[0].startswith(f"  1 │ I»{instruction}« word"), lines[0])
        self.assertTrue(lines[-1].startswith("    │ … "), lines[-1])
        self.assertTrue(lines[-1].endswith(f"C»{caveat}«"), lines[-1])
        self.assertTrue(all(len(row) <= caveat_report.CONTEXT_WIDTH + 8 for row in lines))
        # A line of 130 spaces between the two quotes' lines is one blank row (as one of 5,000 below).
        spaced = f"{instruction}\n{' ' * 130}\n{caveat}\n"
        spans = {
            "instruction": {"start": 0, "end": len(instruction)},
            "qualifier": {"start": spaced.index(caveat), "end": spaced.index(caveat) + len(caveat)},
        }
        self.assertEqual(
            caveat_report.context_lines(spaced, chunk_index.newline_offsets(spaced), *spans.values()),
            [f"  1 │ I»{instruction}«", "  2 │", f"  3 │ C»{caveat}«"],
        )
        wide = spaced.replace(" " * 130, " " * 5000)
        spans["qualifier"] = {"start": wide.index(caveat), "end": wide.index(caveat) + len(caveat)}
        self.assertEqual(
            caveat_report.context_lines(wide, chunk_index.newline_offsets(wide), *spans.values())[1], "  2 │"
        )
        # A line of 200,000 characters: only the stretches around its marks are shown, each quote in view.
        filler = "word " * 40_000
        huge = f"{instruction} {filler}{caveat}\n"
        spans = {
            "instruction": {"start": 0, "end": len(instruction)},
            "qualifier": {"start": huge.index(caveat), "end": huge.index(caveat) + len(caveat)},
        }
        rows = caveat_report.context_lines(huge, chunk_index.newline_offsets(huge), *spans.values())
        self.assertLessEqual(len(rows), 6)
        self.assertTrue(rows[0].startswith(f"  1 │ I»{instruction}«"), rows[0])
        self.assertTrue(rows[-1].endswith(f"C»{caveat}«"), rows[-1])
        self.assertTrue(all(len(row) <= caveat_report.CONTEXT_WIDTH + 8 for row in rows))
        # A line that fits is one row, whole.
        short = f"{instruction} {caveat}\n"
        spans["qualifier"] = {"start": len(instruction) + 1, "end": len(short) - 1}
        self.assertEqual(
            caveat_report.context_lines(short, chunk_index.newline_offsets(short), *spans.values()),
            [f"  1 │ I»{instruction}« C»{caveat}«"],
        )


class QuoteRolesTest(LabTestCase):
    """Which quote is the instruction and which the caveat, whichever comes first on the page (a new user read a
    caveat printed above its instruction as the instruction)."""

    def test_a_caveat_before_its_instruction_is_marked_as_the_caveat(self) -> None:
        text = "Only one widget opens at a time.\n\nCall open_widget(name) to open it.\n"
        caveat = {"start": 0, "end": text.index("\n")}
        start = text.index("Call")
        instruction = {"start": start, "end": text.index("\n", start)}
        self.assertEqual(
            caveat_report.context_lines(text, chunk_index.newline_offsets(text), instruction, caveat),
            ["  1 │ C»Only one widget opens at a time.«", "  2 │", "  3 │ I»Call open_widget(name) to open it.«"],
        )


class QuotedRowsTest(LabTestCase):
    """A quote wrapped over several rows shows its words, not only the rows of its two marks."""

    instruction = "Call open_widget(name) first."

    def shown(self, caveat_lines: list[str]) -> str:
        # The instruction on line 1, a blank line, then the caveat over ``caveat_lines``.
        caveat = "\n".join(caveat_lines)
        text = f"{self.instruction}\n\n{caveat}\n"
        start = text.index(caveat)
        spans = ({"start": 0, "end": len(self.instruction)}, {"start": start, "end": start + len(caveat)})
        return "\n".join(caveat_report.context_lines(text, chunk_index.newline_offsets(text), *spans))

    @staticmethod
    def words(first: int, last: int) -> list[str]:
        # Words of four characters: wrapped at spaces to CONTEXT_WIDTH - 4 = 106, a row holds 21 of them (104
        # characters, 109 with a 22nd), the first with its "»", so row k holds words 21k to 21k + 20.
        return [f"t{number:03d}" for number in range(first, last + 1)]

    def test_a_quote_of_three_rows_shows_its_middle_row(self) -> None:
        shown = self.shown([" ".join(self.words(0, 62))])
        for word in self.words(0, 62):
            self.assertIn(word, shown)

    def test_a_long_quote_shows_the_first_two_rows_of_its_middle_and_its_last(self) -> None:
        # 315 words, 15 rows: row 0 holds "»", rows 1 and 2 are shown, rows 3 to 13 are one gap, row 14 holds "«".
        shown = self.shown([" ".join(self.words(0, 314))])
        for word in ("t000", "t041", "t062", "t294", "t314"):
            self.assertIn(word, shown)
        for word in ("t063", "t150", "t293"):
            self.assertNotIn(word, shown)
        self.assertIn("│ … t294", shown)

    def test_a_line_inside_a_quote_opened_above_shows_its_first_rows(self) -> None:
        # Line 3 opens the quote with five words; line 4 is inside it from its start (rows of words 5 to 25, 26 to
        # 46, 47 to 67, 68 to 88, 89 to 109), and only its last row holds a mark.
        shown = self.shown([" ".join(self.words(0, 4)), " ".join(self.words(5, 109))])
        for word in ("t004", "t005", "t025", "t046", "t089", "t109"):
            self.assertIn(word, shown)
        for word in ("t047", "t088"):
            self.assertNotIn(word, shown)


class ShowNarrowingTest(LabTestCase):
    """``show --check``, ``--source`` and ``--split-only`` narrow the terminal view."""

    def show(self, *options: str) -> str:
        code, out, err = main_quietly("show", *options)
        self.assertEqual((code, err), (0, ""))
        return out

    def test_check_shows_only_the_text_around_its_pair(self) -> None:
        out = self.show("--policy", "paragraph", "--check", "save-copy-refuses-existing-path")
        lines = out.splitlines()
        # The paragraph chunks [51, 130) and [131, 270) hold the pair; the rest of aster-copy-v1 is elided.
        self.assertIn("      … [0, 51) not shown", lines)
        self.assertTrue(any("┌ chunk 0 · " in line and "· [51, 130) ·" in line for line in lines))
        self.assertTrue(any("┌ chunk 1 · " in line and "· [131, 270) ·" in line for line in lines))
        self.assertIn("  >>> split at offset 130 (line 6): instruction in chunk 0, qualifier in chunk 1", lines)
        self.assertIn("      … [270, 750) not shown", lines)
        self.assertFalse(any(line.startswith("─── aster-copy-v2") for line in lines))

    def test_source_keeps_one_document_whole(self) -> None:
        lines = self.show("--policy", "paragraph", "--source", "aster-copy-v2").splitlines()
        self.assertEqual([line.split(" · ")[0] for line in lines if line.startswith("─── ")], ["─── aster-copy-v2"])
        self.assertFalse(any("not shown" in line for line in lines))
        # The header's figures are those of the one shown source, and it says so.
        headers = [line for line in lines if line.startswith("═══ ")]
        self.assertEqual(len(headers), 1)
        self.assertTrue(headers[0].startswith("═══ paragraph over 1 of 2 sources: "), headers[0])

    def test_a_narrowed_pair_aware_header_says_its_config_lists_pairs_not_shown(self) -> None:
        # The fixture's one check is on aster-copy-v1; shown alone, aster-copy-v2's pair-aware index still lists it.
        manifest = self.copy_inputs()
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["policies"] = {"pair-aware": 220}
        manifest.write_text(json.dumps(value), encoding="utf-8")
        note = "(its config lists the manifest's 1 pair, 1 of them on sources not shown, and its ids hold them all)"
        for source, noted in (("aster-copy-v2", True), ("aster-copy-v1", False)):
            with self.subTest(source=source):
                out = self.show("--manifest", str(manifest), "--policy", "pair-aware", "--source", source)
                header = next(
                    line for line in out.splitlines() if line.startswith("═══ pair-aware over 1 of 2 sources")
                )
                self.assertEqual(header.endswith(note), noted, header)

    def test_split_only(self) -> None:
        out = self.show("--split-only")
        self.assertIn("    no split pair under heading-aware", out.splitlines())
        self.assertEqual(out.count("split at offset 130 (line 6)"), 2)

    def test_split_only_under_a_policy_that_splits_nothing_says_so(self) -> None:
        # heading-aware keeps the fixture's pair together: the answer is that nothing is split, not an empty filter.
        out = self.show("--split-only", "--policy", "heading-aware")
        self.assertEqual(out.splitlines()[-1], "nothing to show: no pair asked for is split under heading-aware")

    def test_a_page_path_given_as_source_selects_its_page(self) -> None:
        # The page's path relative to the manifest, however written, or absolute inside its folder: the page pinned
        # from it, as its id selects it.
        by_id = main_quietly("show", "--source", "aster-copy-v2")
        self.assertEqual(by_id[0], 0)
        absolute = str(ROOT / "docs" / "aster-copy-v2.md")
        for typed in ("docs/aster-copy-v2.md", "./docs/aster-copy-v2.md", "docs//aster-copy-v2.md", absolute):
            with self.subTest(typed=typed):
                self.assertEqual(main_quietly("show", "--source", typed), by_id)
        # Through a link to the manifest's folder (a shell's $PWD may name it so), the same page.
        link = self.folder / "lab"
        link.symlink_to(ROOT, target_is_directory=True)
        self.assertEqual(main_quietly("show", "--source", str(link / "docs" / "aster-copy-v2.md")), by_id)
        # A path outside the manifest's folder is no page of it.
        code, out, err = main_quietly("show", "--source", str(ROOT.parent / "docs" / "aster-copy-v2.md"))
        self.assertEqual((code, out), (2, ""))
        self.assertTrue(err.startswith("error: unknown_name: --source: "), err)

    def test_a_path_is_matched_however_the_manifest_wrote_it(self) -> None:
        from commands import show

        manifest = Manifest(Path("."), ({"source_id": "docs/a", "path": "./docs/a.md"},), ())
        for typed in ("docs/a.md", "./docs/a.md", "docs/./a.md"):
            with self.subTest(typed=typed):
                self.assertEqual(show.selected_sources([typed], manifest), ["docs/a"])
        with self.assertRaises(UsageError):
            show.selected_sources(["docs/b.md"], manifest)

    def test_an_unknown_name_is_refused(self) -> None:
        for option in ("--check", "--source"):
            with self.subTest(option=option):
                code, out, err = main_quietly("show", option, "no-such\x1b")
                self.assertEqual((code, out), (2, ""))
                self.assertTrue(err.startswith(f'error: unknown_name: {option}: "no-such\\u001b" is not in'), err)
                self.assertEqual(len(err.splitlines()), 1)


BLOCKS_PAGE = """# Widget API

## Open

Call open_widget(name) to open a widget.

!!! warning
    This call refuses a name that is already open.

## Close

Run close_widget(name) when you are done.

> [!CAUTION]
> Closing twice raises an error.

```python
close_widget(name)  # never call it twice
```
"""


def write_widget_manifest(test: LabTestCase, page: str, settings: dict | None = None) -> Path:
    """``page`` pinned as ``docs/widget.md`` in ``test``'s folder, in a manifest with no span checks; its path."""
    data = page.encode("utf-8")
    (test.folder / "docs").mkdir()
    (test.folder / "docs" / "widget.md").write_bytes(data)
    source = {
        "source_id": "widget",
        "path": "docs/widget.md",
        "title": "widget",
        "sha256": hashlib.sha256(data).hexdigest(),
        "version": "1.0",
        "url": "local:docs/widget.md",
        "fact_status": "written for the test",
    }
    return test.write_json("manifest.json", {**(settings or {}), "sources": [source], "span_checks": []})


class ReviewLineTest(LabTestCase):
    """The terminal scan ends on the two review commands for the manifest it read, quoted for a shell."""

    def test_the_review_line_names_the_manifest(self) -> None:
        manifest = write_widget_manifest(self, "# Widget\n\nRun `deploy` to ship it. It never retries.\n")
        named = manifest.with_name("my m.json")
        manifest.rename(named)
        code, out, err = main_quietly("scan", "--manifest", str(named))
        self.assertEqual((code, err), (0, ""))
        quoted = "'" + str(named) + "'"
        self.assertEqual(
            out.splitlines()[-1],
            f"review: run.py scan --accept NAME --manifest {quoted} declares a pair as a span check; "
            f"run.py scan --reject NAME --manifest {quoted} drops it for good (NAME: the pair's name above)",
        )

    def test_a_manifest_named_with_an_escape_sequence_reaches_the_terminal_inert(self) -> None:
        manifest = write_widget_manifest(self, "# Widget\n\nRun `deploy` to ship it. It never retries.\n")
        named = manifest.with_name("m\x1b[2Jx.json")
        manifest.rename(named)
        code, out, err = main_quietly("scan", "--manifest", str(named))
        self.assertEqual((code, err), (0, ""))
        # The shell's quoting of the name ('...'), then the whole as one JSON string, every character that does not
        # print escaped (the lab's rule for an untrusted name): the escape sequence is text, never a terminal command.
        shown = json.dumps("'" + str(named) + "'")
        self.assertIn("m\\u001b[2Jx.json", shown)
        self.assertNotIn("\x1b", out)
        self.assertEqual(
            out.splitlines()[-1],
            f"review: run.py scan --accept NAME --manifest {shown} declares a pair as a span check; "
            f"run.py scan --reject NAME --manifest {shown} drops it for good (NAME: the pair's name above)",
        )


class BlocksDocsEndToEndTest(LabTestCase):
    """A docs folder read with the block grammar: admonitions after instructions, scanned, declared, measured."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = write_widget_manifest(self, BLOCKS_PAGE, {"markdown": "blocks"})

    def test_scan_add_checks_build_validate_context(self) -> None:
        code, out, err = main_quietly("scan", "--json", "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""))
        pairs = json.loads(out)["pairs"]
        # A cautionary block's span is its body, without the marker lines (and a quote's ">").
        admonition = "This call refuses a name that is already open."
        alert = "Closing twice raises an error."
        self.assertEqual(
            [(pair["instruction"]["quote"], pair["qualifier"]["quote"], pair["cue"]) for pair in pairs],
            [
                ("Call open_widget(name) to open a widget.", admonition, "warning admonition"),
                ("Run close_widget(name) when you are done.", alert, "caution alert"),
            ],
        )
        # Each caveat is a block of its own: the paragraph policy splits both at the block break.
        self.assertEqual([pair["policies"]["paragraph"]["split_by"] for pair in pairs], ["block break"] * 2)
        code, out, _ = main_quietly("scan", "--add-checks", "--manifest", str(self.manifest))
        self.assertEqual(code, 0)
        self.assertIn("added 2 span checks", out)
        result = self.folder / "result.json"
        self.assertEqual(main_quietly("--manifest", str(self.manifest), "--output", str(result))[0], 0)
        code, out, err = main_quietly("validate", str(result), "--manifest", str(self.manifest))
        self.assertEqual((code, err), (0, ""), out)
        code, out, _ = main_quietly("context", "--json", "--manifest", str(self.manifest))
        self.assertEqual(code, 0)
        recall = {figures["policy"]: figures["recall"] for figures in json.loads(out)["policies"]}
        self.assertEqual(set(recall), {"fixed-char", "paragraph", "heading-aware"})
        self.assertEqual((recall["paragraph"]["0"], recall["paragraph"]["1"]), (0.0, 1.0))
        self.assertEqual(recall["heading-aware"]["0"], 1.0)


class SpanInNoChunkTest(LabTestCase):
    """A caveat the grammar reads as no block (a paragraph of shortcode calls alone, blocks-4 on) is apart, not split
    by a boundary: scan, the main job's pair-aware line and show say so alike."""

    PAGE = "# Widget\n\n## Deploy\n\n{{< new-in 0.159.2 />}}\n\nTo deploy the widget, run `deploy`.\n"

    def test_scan_and_the_pair_aware_line_say_apart(self) -> None:
        manifest = write_widget_manifest(self, self.PAGE, {"markdown": "blocks-6", "policies": {"pair-aware": 1000}})
        code, out, err = main_quietly("scan", "--json", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        report = json.loads(out)
        # "# Widget\n\n" [0, 10), "## Deploy\n\n" [10, 21): the badge [21, 44) dates the instruction after it.
        # Fixed-char's one chunk holds the page; the badge's
        # paragraph is in no paragraph or heading-aware chunk.
        (pair,) = report["pairs"]
        self.assertEqual((pair["qualifier"]["start"], pair["qualifier"]["quote"]), (21, "{{< new-in 0.159.2 />}}"))
        self.assertEqual(
            {name: (verdict["same_chunk"], verdict["split_by"]) for name, verdict in pair["policies"].items()},
            {
                "fixed-char": (True, None),
                "paragraph": (False, "apart"),
                "heading-aware": (False, "apart"),
                "pair-aware": (False, "apart"),
            },
        )
        self.assertEqual(
            [(policy["policy"], policy["split_by"]["apart"]) for policy in report["policies"]],
            [("fixed-char", 0), ("paragraph", 1), ("heading-aware", 1), ("pair-aware", 1)],
        )
        code, out, _ = main_quietly("scan", "--manifest", str(manifest))
        self.assertIn("paragraph apart (a span in no chunk), heading-aware apart (a span in no chunk)", out)
        self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(manifest))[0], 0)
        code, out, err = main_quietly("--manifest", str(manifest), "--output", str(self.folder / "result.json"))
        self.assertEqual((code, err), (0, ""))
        self.assertIn(
            "pair-aware respects 1 of 1 pair (both spans in one section, at most 4 x 1,000 = 4,000 chars apart); "
            "1 of them has a span in no chunk (text the grammar reads as no block), so no chunk holds both",
            out,
        )
        # The pair's own line says apart too: the badge is on line 5.
        self.assertIn(
            "scan:widget:5: fixed-char same chunk, paragraph apart, heading-aware apart, pair-aware apart\n", out
        )
        # judge of the paragraph chunks, exported: the judged row says apart too.
        exported = self.folder / "paragraph.jsonl"
        code, _, err = main_quietly(
            "export", str(self.folder / "result.json"), "--policy", "paragraph", "--output", str(exported)
        )
        self.assertEqual(code, 0, err)
        code, out, _ = main_quietly("judge", str(exported), "--manifest", str(manifest))
        self.assertIn(
            "scan:widget:5: fixed-char same chunk, paragraph apart, heading-aware apart, pair-aware apart, "
            "paragraph.jsonl apart\n",
            out,
        )
        # No heading-aware target keeps it, and sweep says why in the same terms.
        code, out, _ = main_quietly("sweep", "--manifest", str(manifest))
        self.assertIn(
            "scan:widget:5 (widget): never: a span lies outside the section's blocks (blank lines, or text the grammar "
            "reads as no block)",
            out,
        )


class OnePairLineTest(LabTestCase):
    """The main job's line for a manifest of one span check: its result names no source, so the pair is placed by
    the chunk that holds its instruction, not by the first page's chunks."""

    def test_a_split_pair_on_the_second_page_is_split(self) -> None:
        docs = self.folder / "docs"
        docs.mkdir()
        (docs / "a.md").write_text("# A\n\nIntro text here.\n", encoding="utf-8")
        (docs / "b.md").write_text("# B\n\nRun `x` to start.\n\nIt never stops.\n", encoding="utf-8")
        manifest = self.folder / "m.json"
        code, _, err = main_quietly("pin", "--markdown", "blocks-6", "--manifest", str(manifest), str(docs))
        self.assertEqual(code, 0, err)
        value = json.loads(manifest.read_text(encoding="utf-8"))
        value["span_checks"] = [
            {
                "name": "one",
                "source_id": "docs/b",
                "instruction": {"quote": "Run `x` to start."},
                "qualifier": {"quote": "It never stops."},
            }
        ]
        manifest.write_text(json.dumps(value), encoding="utf-8")
        code, out, err = main_quietly("--manifest", str(manifest), "--output", str(self.folder / "r.json"))
        self.assertEqual((code, err), (0, ""))
        # Two paragraphs of one section: the paragraph policy's block break parts them; no span is outside a chunk.
        self.assertIn("one: fixed-char same chunk, paragraph split, heading-aware same chunk\n", out)


class LongListsTest(LabTestCase):
    """On a docs set of many pairs, scan and context print twenty pairs and count the rest; --json has all."""

    def test_scan_and_context_list_twenty_pairs(self) -> None:
        # 23 sections, each an instruction and a "refuses" caveat in the next paragraph: 23 pairs.
        page = "# Widgets\n" + "".join(
            f"\n## Part {number}\n\nCall open_widget_{number}(name) to open a widget.\n\n"
            f"This call refuses a name that is already open.\n"
            for number in range(23)
        )
        manifest = write_widget_manifest(self, page)
        code, out, err = main_quietly("scan", "--json", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(len(json.loads(out)["pairs"]), 23)
        code, out, err = main_quietly("scan", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        lines = out.splitlines()
        self.assertIn(
            "23 pairs found in 1 source (tiers 1 and 2 of 3, tier 1 the surest; --tier 3 lists every pair)", lines
        )
        self.assertEqual(sum(line.startswith("scan:widget:") for line in lines), 20)
        # The hint names the manifest this scan read, so it runs on the same pages as printed.
        self.assertEqual(
            lines[-3], f"… 3 more pairs: scan --manifest {manifest} --list shows every one, --json lists them"
        )
        # --list shows all 23 in context, and counts none as left out.
        code, out, err = main_quietly("scan", "--list", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        lines = out.splitlines()
        self.assertEqual(sum(line.startswith("scan:widget:") for line in lines), 23)
        self.assertFalse([line for line in lines if "more pairs" in line])
        # With --json, --list changes nothing, and says so on stderr.
        code, out, err = main_quietly("scan", "--list", "--json", "--manifest", str(manifest))
        self.assertEqual(code, 0)
        self.assertEqual(len(json.loads(out)["pairs"]), 23)
        self.assertEqual(
            err,
            "note: --list only lengthens the text view of the pairs, which this run does not print: --json lists every "
            "pair already\n",
        )
        # Before any is declared no line counts the declared; once all 23 are, none is "not yet".
        self.assertNotIn("declared as span checks", main_quietly("scan", "--manifest", str(manifest))[1])
        self.assertEqual(main_quietly("scan", "--add-checks", "--manifest", str(manifest))[0], 0)
        self.assertNotIn("not yet", main_quietly("scan", "--manifest", str(manifest))[1])
        code, out, err = main_quietly("context", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        lines = out.splitlines()
        windows = lines[lines.index("smallest window per pair (k within the section; - when none recovers it)") + 1 :]
        self.assertEqual(sum(line.startswith("  scan:widget:") for line in windows), 20)
        self.assertIn("  … 3 more pairs: --json lists every one", windows)

    def test_the_pages_with_most_pairs_are_named_when_some_are_not_listed(self) -> None:
        # Three pages of 12, 8 and 3 such sections: 23 pairs, 20 listed; the line names the pages by count.
        def page(count: int) -> str:
            return "# Widgets\n" + "".join(
                f"\n## Part {n}\n\nCall open_widget_{n}(name) to open a widget.\n\nThis call refuses a name that is "
                "already open.\n"
                for n in range(count)
            )

        (self.folder / "docs").mkdir()
        for name, count in (("a", 3), ("b", 12), ("c", 8)):
            (self.folder / "docs" / f"{name}.md").write_text(page(count), encoding="utf-8")
        manifest = self.folder / "m.json"
        self.assertEqual(
            main_quietly("pin", "--markdown", "blocks-6", "--manifest", str(manifest), str(self.folder / "docs"))[0], 0
        )
        code, out, err = main_quietly("scan", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        self.assertIn(
            f"most pairs: docs/b 12, docs/c 8, docs/a 3 (scan --manifest {manifest} --source ID lists one page's)",
            out.splitlines(),
        )
        # A tier and pages given are kept in the hints too.
        code, out, _ = main_quietly("scan", "--manifest", str(manifest), "--tier", "3", "--source", "docs/")
        self.assertEqual(code, 0)
        self.assertIn(f"scan --manifest {manifest} --tier 3 --source docs/ --list shows every one", out)


class ExampleCorpusTest(LabTestCase):
    """On the made-up docs site in docs/examples (block grammar), scan finds the six pairs declared by hand."""

    def test_the_six_declared_pairs_and_their_verdicts(self) -> None:
        manifest = ROOT / "docs" / "examples" / "manifest.json"
        code, out, err = main_quietly("scan", "--json", "--manifest", str(manifest))
        self.assertEqual((code, err), (0, ""))
        report = json.loads(out)
        declared = [check["name"] for check in json.loads(manifest.read_text(encoding="utf-8"))["span_checks"]]
        found = [pair["declared_as"] for pair in report["pairs"] if pair["declared_as"] is not None]
        self.assertEqual(sorted(found), sorted(declared))
        # One more: the guide's "does not give you 120", a limitation stated plainly, which no check declares.
        extra = [pair for pair in report["pairs"] if pair["declared_as"] is None]
        self.assertEqual(
            [(pair["rule"], pair["cue"], pair["qualifier"]["quote"]) for pair in extra],
            [
                (
                    "limitation",
                    "does not",
                    "An\nextension counts from the moment it is granted, not from the end of the\ncurrent lease, so "
                    "asking for 60 seconds twice in a row does not give you 120.",
                )
            ],
        )
        # The guide's verdicts of the six: paragraph splits all six at the block break; heading-aware keeps three.
        declared_pairs = [pair for pair in report["pairs"] if pair["declared_as"] is not None]
        self.assertEqual([pair["policies"]["paragraph"]["split_by"] for pair in declared_pairs], ["block break"] * 6)
        self.assertEqual(sum(pair["policies"]["heading-aware"]["same_chunk"] for pair in declared_pairs), 3)

    def test_the_caveats_without_an_instruction_and_the_walk_through_that_shows_them(self) -> None:
        # The limits page opens on a section without code: its "unless" is an outright condition, tier 2 there
        # (scan_version 21), with no instruction in its section. At tier 3 come three errors of tier 3: two in
        # sections without code, one an exception named as raised (docs/caveats.md, "On a docs site").
        manifest = ROOT / "docs" / "examples" / "manifest.json"
        limits = (
            "parcel-queue/reference/limits",
            "The sandbox and production share these limits unless a row says otherwise.",
            2,
        )
        # From scan_version 48 the quickstart's precondition too ("It assumes …"), whose section holds no instruction.
        assumed = (
            "parcel-queue/quickstart",
            "It assumes a\nsandbox account; the sandbox forgets everything at midnight.",
            2,
        )
        weaker = [
            ("parcel-queue/guide/retries", "A parcel whose label fails to print goes back to the queue.", 3),
            ("parcel-queue/index", "what happens when a label fails to print", 3),
            ("parcel-queue/reference/index", "Errors are raised\nas `ParcelQueueError` with a `code` attribute.", 3),
        ]
        for tier, expected in (("2", [assumed, limits]), ("3", sorted(weaker + [assumed, limits]))):
            with self.subTest(tier=tier):
                code, out, err = main_quietly("scan", "--json", "--tier", tier, "--manifest", str(manifest))
                self.assertEqual((code, err), (0, ""))
                unpaired = json.loads(out)["unpaired"]
                self.assertEqual(
                    [(item["source_id"], item["qualifier"]["quote"], item["tier"]) for item in unpaired], expected
                )
        # The docs' console example shows the scan's first lines as it prints them, up to its "...".
        docs = (ROOT / "docs" / "caveats.md").read_text(encoding="utf-8")
        command = "$ python run.py scan --manifest docs/examples/manifest.json\n"
        shown = docs[docs.index(command) + len(command) :].split("\n...\n", 1)[0]
        code, out, _ = main_quietly("scan", "--manifest", str(manifest))
        self.assertEqual(code, 0)
        self.assertEqual(out[: len(shown) + 1], shown + "\n")
