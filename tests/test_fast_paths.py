"""The build's and the writer's shortcuts give exactly what the plain rules give.

Paragraphs found by one regular expression, headings found by scanning only
the lines that open with ``#``, one pass over the documents for every policy,
and the result laid out a batch of objects at a time and handed on piece by
piece: each is held here to the plain definition it replaces, on random or
awkward inputs. The expectations are those definitions written out again,
never the lab's own output read back.
"""

from __future__ import annotations

import gc
import json
import random
import re
import unittest
import unittest.mock

import chunk_index
import grammars
import load_documents
from checks import size_sweep
from checks.caveats import masking, rules, sentences
from commands import main_job
from commands.indexes import manifest_outlines
from lab_io.errors import IngestionError
from lab_io.indented_json import PIECE_BYTES, saved_json_bytes, saved_json_pieces
from load_documents import Span, SpanCheck
from tests.support import ROOT, LabTestCase, fixture_result, loaded_source, run_lab

# Characters where the rules are easy to get wrong: newlines, whitespace that
# str.strip() removes (vertical tab, form feed, the C1 next-line, separators,
# ideographic space), characters it keeps (zero-width space, BOM), and '#'.
ALPHABET = ("\n", "\n", "\n", " ", "\t", "a", "b", "#", "# ", "## ", "\x0b", "\x0c", "\r", "\x1c", "\x85", "\xa0")
ALPHABET += ("\u2028", "\u3000", "\u200b", "\ufeff", "é", "😀")


def plain_paragraph_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spec's paragraphs, line by line: maximal runs of lines with ``line.strip() != ""``."""
    spans = []
    paragraph_start = None
    position = start
    for line in text[start:end].split("\n"):
        line_end = min(position + len(line) + 1, end)
        if line.strip():
            if paragraph_start is None:
                paragraph_start = position
            paragraph_end = line_end
        elif paragraph_start is not None:
            spans.append((paragraph_start, paragraph_end))
            paragraph_start = None
        position = line_end
    if paragraph_start is not None:
        spans.append((paragraph_start, paragraph_end))
    return spans


def random_texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30))) for _ in range(count)]


class ParagraphPatternTest(unittest.TestCase):
    def test_random_texts_split_as_the_line_rule_says(self) -> None:
        # Every case that disagrees is listed, so one failure names them all (a subTest a case cost a tenth of it).
        wrong = []
        # 1,000 random texts: each character of ALPHABET is a whole line at least 13 times and inside a longer one
        # hundreds of times, and the first 300 already reach every branch of the rule and of the plain definition.
        for text in random_texts(13, 1000):
            line_starts = [0] + [position + 1 for position, character in enumerate(text) if character == "\n"]
            for start in line_starts[:3]:
                end = len(text) - (len(text) - start) // 3
                quick, plain = grammars.paragraph_spans(text, start, end), plain_paragraph_spans(text, start, end)
                if quick != plain:
                    wrong.append((text, start, end, quick, plain))
        self.assertEqual(wrong, [])

    def test_blank_means_what_strip_removes(self) -> None:
        # \x85 and \u2028 are whitespace to str.strip(); \u200b and \ufeff are not.
        text = "a\n\x85\u2028\nb\n\u200b\nc\n\ufeff"
        self.assertEqual(grammars.paragraph_spans(text, 0, len(text)), [(0, 2), (5, 12)])

    def test_a_line_ending_at_the_bound_keeps_no_newline(self) -> None:
        self.assertEqual(grammars.paragraph_spans("ab\ncd\nef", 0, 4), [(0, 4)])


class HeadingScanTest(unittest.TestCase):
    def test_random_texts_find_what_finditer_finds(self) -> None:
        pattern = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
        wrong = []
        # 1,000 random texts: each character of ALPHABET is a whole line at least 13 times and inside a longer one
        # hundreds of times, and the first 300 already reach every branch of the rule and of the plain definition.
        for text in random_texts(7, 1000):
            text = "# " + text
            quick = [match.span(1) for match in grammars.heading_matches(text)]
            plain = [match.span(1) for match in pattern.finditer(text)]
            if quick != plain:
                wrong.append((text, quick, plain))
        self.assertEqual(wrong, [])

    def test_blank_bodies_are_skipped_as_strip_says(self) -> None:
        text = "# A\n \x85\u2028\n# B\n\u200b\n"
        self.assertEqual([section.title for section in grammars.heading_sections(text)], ["B"])


# Line openings for the block grammar's quick paths: every first character a rule reads, after spaces and tabs
# or not, and lines those rules pass over.
LINE_PIECES = ("", " ", "   ", "    ", "\t", "\x85", "\u2028", "\u200b", "a b", "| a |", "|---|", "---", "===", "- - -")
LINE_PIECES += ("#", "# H", "#x", "```", "~~~", "``` a`b", "- i", "1. i", "> q", "!!! note", "??? tip", "/// note")
LINE_PIECES += ("::: tip", ":::", '=== "T"', "{{< note >}}", "{{< /note >}}", "{x}", "<div>", "</div>", "<!-- c -->")
LINE_PIECES += ("<span>", "import x from 'y'", "export const a = 1", "[a]: b", "text <b>x</b>", "é")
LINE_PIECES += ("::note", "::", '::tip{a="b"}', ':read-more{to="x"}', "## H")
LINE_PIECES += ("<details>", "</details>", "<Tabs>", "{{< tabs >}}", "{{< /tabs >}}", "{{% tab %}}", "{{% /tab %}}")
LINE_PIECES += ("<dl>", "</dl>", "<dt>A</dt>", "<a>{x}</a>")
BLOCK_GRAMMAR_NAMES = ("blocks", "blocks-2", "blocks-3", "blocks-4", "blocks-5", "blocks-6", "blocks-7", "blocks-8")


def random_page_lines(rng: random.Random) -> list[str]:
    lines = []
    for _ in range(rng.randint(1, 14)):
        line = rng.choice(LINE_PIECES)
        if rng.random() < 0.3:
            line = rng.choice((" ", "  ", "    ", "\t")) + line
        if rng.random() < 0.2:
            line += rng.choice(LINE_PIECES)
        lines.append(line)
    return lines


def page_reader(grammar: str, texts: list[str]):
    """The reader ``block_sections`` asks under ``grammar`` (none under "blocks" and "blocks-2")."""
    if grammar == "blocks-3":
        from grammars.version3 import PageReader

        return PageReader(texts)
    if grammar == "blocks-4":
        from grammars.version4 import PageReader

        return PageReader(texts)
    if grammar == "blocks-5":
        from grammars.version5 import PageReader

        return PageReader(texts)
    if grammar == "blocks-6":
        from grammars.version6 import PageReader

        return PageReader(texts)
    if grammar == "blocks-7":
        from grammars.version7 import PageReader

        return PageReader(texts)
    if grammar == "blocks-8":
        from grammars.version8 import PageReader

        return PageReader(texts)
    return None


def plain_line_ends(texts: list[str], extended: bool, reader) -> list[str | None]:
    """What the rule says of each line under a paragraph's first, line by line: ``"blank"``, ``"underline"`` (a setext
    underline), ``"block"`` (it starts another block), or ``None`` (the paragraph goes on). A line's answer is the same
    whichever line the paragraph opened on, so a page's lines are asked once."""
    ends: list[str | None] = []
    for position in range(len(texts)):
        if grammars.is_blank(texts[position]):
            ends.append("blank")
        elif grammars.SETEXT_UNDERLINE.fullmatch(texts[position]):
            ends.append("underline")
        elif grammars.starts_block(texts, position, extended, reader):
            ends.append("block")
        else:
            ends.append(None)
    return ends


def plain_paragraph_end(ends: list[str | None], index: int) -> tuple[int, int | None]:
    """A paragraph's end by the rule, from ``plain_line_ends``: a blank line, a setext underline or a line that starts
    a block."""
    position = index + 1
    while position < len(ends) and ends[position] is None:
        position += 1
    if position < len(ends) and ends[position] == "underline":
        return position + 1, position
    return position, None


class BlockGrammarQuickPathTest(unittest.TestCase):
    """The block grammar asks a rule only where a line opens with a character the rule's own first test needs."""

    def test_paragraph_ends_as_the_line_rule_says(self) -> None:
        rng = random.Random(29)
        # 400 random pages under each of the eight block grammars (3,200 page readings since blocks-8);
        # every line that disagrees is listed, so one failure names them all (a subTest per line cost a third of
        # the test's time).
        wrong = []
        for _ in range(400):
            texts = random_page_lines(rng)
            for grammar in BLOCK_GRAMMAR_NAMES:
                extended = grammar != "blocks"
                reader = page_reader(grammar, texts)
                ends = plain_line_ends(texts, extended, reader)
                for index in range(len(texts)):
                    quick = grammars.paragraph_end(texts, index, extended, reader)
                    plain = plain_paragraph_end(ends, index)
                    if quick != plain:
                        wrong.append((texts, grammar, index, quick, plain))
        self.assertEqual(wrong, [])

    def test_rules_passed_over_by_first_character_find_nothing(self) -> None:
        from grammars import blocks
        from grammars.version3 import PageReader

        rng = random.Random(31)
        # 1,000 lines: each of the pieces opens one at least 7 times, and the first 300 already reach every branch
        # of the four rules and of this test.
        for _ in range(1000):
            line = "".join(rng.choice(LINE_PIECES) for _ in range(rng.randint(1, 3)))
            first = line.lstrip(" ")[:1]
            with self.subTest(line=line):
                if first not in blocks.FENCE_CHARACTERS:
                    self.assertIsNone(grammars.fence_opening(line))
                if first != "#":
                    self.assertIsNone(grammars.atx_heading_title(line))
                if line[:1] not in blocks.ADMONITION_CHARACTERS:
                    self.assertIsNone(grammars.admonition_label(line))
                if first not in PageReader.INTERRUPTING:
                    self.assertFalse(PageReader([line]).interrupts(0))

    def test_page_lines_are_the_lines_and_their_offsets(self) -> None:
        for text in random_texts(37, 500):
            for start in sorted({0, text.find("\n") + 1}):
                texts, bounds = grammars.page_lines(text, start)
                with self.subTest(text=text, start=start):
                    self.assertEqual("".join(text[low:high] for low, high in zip(bounds, bounds[1:])), text[start:])
                    self.assertEqual(
                        [text[low:high].removesuffix("\n") for low, high in zip(bounds, bounds[1:])], texts
                    )


class HtmlBlockEndsTest(unittest.TestCase):
    """An HTML block's end and whether it holds text, each answered from its first line or a table of the page where
    they can be (a page of many blocks that run on to one far blank line stays linear), as the plain rules answer."""

    PIECES = (
        "",
        "text",
        "## H",
        "<p>x</p>",
        "<div>",
        "</div>",
        "<!--",
        "-->",
        "<!-- c -->",
        "<br>",
        "<img src='a'",
        "alt='b'>",
        "a < b",
        "<!-- a --> b",
        "x <b>y</b>",
        "--",
        ">",
        "</",
        "<a",
        "  ",
        "<!-- ## x -->",
    )

    def test_the_first_line_decides_only_what_the_joined_lines_would(self) -> None:
        from grammars.html_blocks import holds_only_markup, lines_hold_only_markup

        rng = random.Random(37)
        wrong = []
        # 1,000 pages, 121 of them markup alone: the first 300 already reach every branch of both rules.
        for _ in range(1000):
            texts = [rng.choice(self.PIECES) + rng.choice(("", "", " ", rng.choice(self.PIECES))) for _ in range(6)]
            first, after = rng.randrange(6), 6
            if lines_hold_only_markup(texts, first, after) != holds_only_markup("\n".join(texts[first:after])):
                wrong.append(texts[first:after])
        self.assertEqual(wrong, [])

    def test_the_blank_line_after_each_line(self) -> None:
        from grammars.html_blocks import blank_line_end
        from grammars.version3 import PageReader

        rng = random.Random(41)
        for _ in range(300):
            texts = [rng.choice(("", " ", "text", "<p>x</p>")) for _ in range(rng.randint(1, 12))]
            reader = PageReader(texts)
            self.assertEqual(
                [reader.blank_line_after(index) for index in range(len(texts))],
                [blank_line_end(texts, index) for index in range(len(texts))],
            )


class MdxPartialUsesTest(unittest.TestCase):
    """Whether a page uses a component it imports from an .mdx file after the import, told from one reading of its
    uses (a page of thousands of imports stays linear), as the plain rule tells it import by import."""

    PIECES = (
        'import { A } from "/s/a.mdx"',
        'import { A as B, C } from "./c.mdx"',
        'import D, { E } from "./d.md"',
        'import F from "./f.mdx"',
        "<A />",
        "<B>",
        "<C.Item />",
        "<E-x>",
        "<AB />",
        "text <F/>",
        "```",
        "~~~",
        "",
        "<D",
    )

    @staticmethod
    def plain_places(text: str) -> list[int]:
        """The rule of docs/own-documents.md written out: an import at a line's start counts when one of the names
        it gives is used as an element (``<Name`` then no name character, ``.`` or ``-``) after it, outside a
        fence."""
        from views.summary import MDX_PARTIAL_IMPORT, fenced_spans, imported_components, in_spans

        fenced = fenced_spans(text)
        places = []
        for match in MDX_PARTIAL_IMPORT.finditer(text):
            line_start = text.rfind("\n", 0, match.start()) + 1
            names = imported_components(match)
            if text[line_start : match.start()].strip() or not names:
                continue
            for name in names:
                uses = [use.start() for use in re.finditer(rf"<{name}(?![\w.-])", text) if use.start() >= match.end()]
                if any(not in_spans(fenced, use) for use in uses):
                    places.append(match.start())
                    break
        return places

    def test_the_uses_read_once_count_the_imports_the_plain_rule_counts(self) -> None:
        from views.summary import mdx_partial_places

        rng = random.Random(18)
        wrong = []
        # 500 pages: the first 100 already reach every branch of the lab's reading and of the plain rule's, and 55
        # of the 500 hold an import that counts.
        for _ in range(500):
            text = "\n".join(rng.choice(self.PIECES) for _ in range(rng.randint(1, 9))) + rng.choice(("", "\n"))
            if mdx_partial_places(text) != self.plain_places(text):
                wrong.append(text)
        self.assertEqual(wrong, [])

    def test_a_page_of_many_imports_is_read_in_one_pass(self) -> None:
        from views import summary

        # 3,000 imports, the last one used: the uses are read once for the page, never once an import.
        imports = "".join(f'import {{ Part{number} }} from "/snippets/part{number}.mdx"\n' for number in range(3000))
        text = f"{imports}\n# Parts\n\n<Part2999 />\n"
        with unittest.mock.patch.object(summary, "last_uses", wraps=summary.last_uses) as reads:
            self.assertEqual(summary.mdx_partial_places(text), [text.index("import { Part2999 }")])
        self.assertEqual(reads.call_count, 1)


class SlicesAndLinesTest(unittest.TestCase):
    """Fixed-width slices cut in one pass, and line numbers carried from chunk to chunk, as the spec says."""

    def test_random_texts_slice_as_the_plain_rule_says(self) -> None:
        rng = random.Random(11)
        wrong = []
        # 1,000 random texts: each character of ALPHABET is a whole line at least 13 times and inside a longer one
        # hundreds of times, and the first 300 already reach every branch of the rule and of the plain definition.
        for text in random_texts(13, 1000):
            start = rng.randint(0, len(text))
            end = rng.randint(start, len(text))
            width = rng.randint(1, 7)
            # The spec's rule: a slice every ``width`` characters from start, blank slices dropped.
            expected = [
                (at, min(at + width, end)) for at in range(start, end, width) if text[at : min(at + width, end)].strip()
            ]
            quick = chunk_index.fixed_char_spans(text, start, end, width)
            if quick != expected:
                wrong.append((text, start, end, width, quick, expected))
        self.assertEqual(wrong, [])

    def test_line_numbers_count_the_newlines_before_each_end(self) -> None:
        configs = {
            f"{name} {size}": chunk_index.policy_config(name, size)
            for name in chunk_index.POLICY_NAMES
            for size in (None, 3)
        }
        wrong = []
        for number, text in enumerate(random_texts(17, 250)):
            text = "# T\n" + text
            # Every config's index in one pass over the page, as the main job builds its policies.
            for name, index in chunk_index.build_policy_indexes(configs, [loaded_source(text)]).items():
                for chunk in index["chunks"]:
                    lines = (text.count("\n", 0, chunk["start"]) + 1, text.count("\n", 0, chunk["end"] - 1) + 1)
                    if (chunk["start_line"], chunk["end_line"]) != lines:
                        wrong.append((text, name, chunk["start"], chunk["start_line"], chunk["end_line"], lines))
        self.assertEqual(wrong, [])


def tiny_source(source_id: str, text: str) -> dict:
    return loaded_source(text, source_id)


SOURCES = [
    tiny_source("b-second", "# B\n\none\ntwo\n\nthree\n\n## Empty\n  \n## Tail\nlast line"),
    tiny_source("a-first", "# A\n" + "word " * 60 + "\n\n" + "x\n" * 5),
    tiny_source("c-heading-only", "# Only\n\n"),
]


class SharedBuildTest(unittest.TestCase):
    def test_one_pass_equals_one_index_at_a_time(self) -> None:
        together = chunk_index.build_indexes(SOURCES)
        for name in chunk_index.DEFAULT_POLICY_NAMES:
            with self.subTest(policy=name):
                alone = chunk_index.build_index(chunk_index.policy_config(name), SOURCES)
                self.assertEqual(chunk_index.canonical_json(together[name]), chunk_index.canonical_json(alone))

    def test_index_ids_are_digests_of_the_body(self) -> None:
        for name, index in chunk_index.build_indexes(SOURCES).items():
            body = {key: value for key, value in index.items() if key != "index_id"}
            with self.subTest(policy=name):
                encoded = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                self.assertEqual(index["index_id"], chunk_index.sha(encoded))

    def test_indexes_do_not_share_document_records(self) -> None:
        indexes = chunk_index.build_indexes(SOURCES)
        indexes["paragraph"]["documents"][0]["title"] = "changed"
        self.assertEqual(indexes["fixed-char"]["documents"][0]["title"], "a-first")
        self.assertEqual(indexes["heading-aware"]["documents"][0]["title"], "a-first")

    def test_the_collector_is_left_as_it_was(self) -> None:
        self.assertTrue(gc.isenabled())
        chunk_index.build_indexes(SOURCES)
        self.assertTrue(gc.isenabled())
        with self.assertRaises(IngestionError):
            chunk_index.build_indexes([tiny_source("no-heading", "text before any heading\n")])
        self.assertTrue(gc.isenabled())
        gc.disable()
        self.addCleanup(gc.enable)
        chunk_index.build_indexes(SOURCES)
        self.assertFalse(gc.isenabled())

    def test_progress_counts_documents_and_their_bytes(self) -> None:
        calls = []
        configs = {name: chunk_index.policy_config(name) for name in chunk_index.POLICY_NAMES}
        chunk_index.build_policy_indexes(configs, SOURCES, lambda done, size: calls.append((done, size)))
        sizes = [len(source["text"].encode("utf-8")) for source in sorted(SOURCES, key=lambda s: s["source_id"])]
        self.assertEqual(calls, [(1, size) for size in sizes])


class OutlineTest(unittest.TestCase):
    """An outline is a record without its text, hashes or id: the same spans, order and section, in the same order."""

    def assert_outlines_match(self, configs: dict, sources: list[dict]) -> None:
        indexes = chunk_index.build_policy_indexes(configs, sources)
        outlines = chunk_index.build_outlines(configs, sources)
        self.assertEqual(list(outlines), list(configs))
        for name, index in indexes.items():
            with self.subTest(policy=name):
                expected = [{key: chunk[key] for key in chunk_index.OUTLINE_KEYS} for chunk in index["chunks"]]
                self.assertEqual(outlines[name], {"config": configs[name], "chunks": expected})

    def test_lesson_policies(self) -> None:
        configs = {name: chunk_index.policy_config(name) for name in chunk_index.DEFAULT_POLICY_NAMES}
        outlines = chunk_index.build_outlines(configs, SOURCES)
        # a-first's body [4, 316) in 80-character slices: 4; b-second's two non-blank bodies: 1 each.
        self.assertEqual(len(outlines["fixed-char"]["chunks"]), 6)
        # a-first's two paragraphs, then b-second's "one\ntwo\n" after "# B\n\n".
        spans = [(chunk["start"], chunk["end"]) for chunk in outlines["paragraph"]["chunks"]]
        self.assertEqual(spans[:3], [(4, 305), (306, 316), (5, 13)])
        self.assert_outlines_match(configs, SOURCES)

    def test_block_grammar_and_pair_aware(self) -> None:
        text = "---\ntitle: T\n---\nIntro.\n\n# Guide\n\nCall open(path).\n\n```sh\nopen x\n```\n\nIt fails.\n"
        source = loaded_source(text, "page")
        instruction = text.index("Call open(path).")
        qualifier = text.index("It fails.")
        pairs = [
            {
                "source_id": "page",
                "instruction_span": [instruction, instruction + 16],
                "qualifier_span": [qualifier, qualifier + 9],
            }
        ]
        configs = chunk_index.manifest_configs("blocks-3", (("fixed-char", 20), ("heading-aware", 20)))
        configs["pair-aware"] = chunk_index.policy_config("pair-aware", 20, "blocks-3", pairs)
        self.assert_outlines_match(configs, [source])

    def test_a_manifest_s_pages_are_outlined_alone_as_in_the_whole(self) -> None:
        # scan outlines only the pages that hold a pair: each page's chunks are the whole build's.
        manifest = load_documents.load_manifest(ROOT / "docs" / "examples" / "sites" / "manifest.json")
        whole = manifest_outlines(manifest)
        for source in manifest.sources:
            alone = manifest_outlines(manifest, source_ids={source["source_id"]})
            with self.subTest(source=source["source_id"]):
                for name, outline in whole.items():
                    expected = [chunk for chunk in outline["chunks"] if chunk["source_id"] == source["source_id"]]
                    self.assertTrue(expected)
                    self.assertEqual(alone[name], {"config": outline["config"], "chunks": expected})


class SweepRowTest(unittest.TestCase):
    """The sweep counts fixed-char chunks from body lengths and whitespace runs, and groups only the sections a
    heading-aware target changes; cut one by one, the chunks agree."""

    def layouts(self, texts: list[str]) -> dict:
        return {
            f"s{number}": size_sweep.source_layout(text, f"s{number}", grammars.LESSON_GRAMMAR)
            for number, text in enumerate(texts)
        }

    def test_a_worked_page(self) -> None:
        # The body [4, 18) in slices of 4: "ab  " holds text; the spaces and the two line breaks are blank.
        layouts = self.layouts(["# T\nab" + " " * 10 + "\n\n"])
        bodies = {name: size_sweep.fixed_char_bodies(layout, 4) for name, layout in layouts.items()}
        check = SpanCheck("pair", "s0", Span(4, 5, "a"), Span(5, 6, "b"))
        row = size_sweep.fixed_char_row(
            4, bodies, size_sweep.fixed_char_table(bodies), (check,), [size_sweep.pair_reach(check)]
        )
        self.assertEqual(
            row, {"chunk_count": 1, "mean_chunk_chars": 4.0, "pairs_kept_together": 1, "kept_pairs": ["pair"]}
        )

    def test_random_pages_match_the_cut_chunks(self) -> None:
        rng = random.Random(24)
        pieces = ["a", "b c", " ", "  ", "\n", "\n\n", "\t", "\x1c", "\u2028", "\u3000", "\u200b", "\n## H\n", "é"]
        # 20 cases of three pages: the first 10 already reach every branch of the sweep's code, some page has two
        # sections or more, and each width and target keeps or splits pairs as twice as many cases do.
        for case in range(20):
            texts = ["# T\n" + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120))) for _ in range(3)]
            layouts = self.layouts(texts)
            checks = []
            for number, text in enumerate(texts):
                for _ in range(4):
                    low = rng.randrange(len(text))
                    high = min(len(text), low + rng.randint(1, 12))
                    checks.append(SpanCheck(f"p{len(checks)}", f"s{number}", Span(low, high, ""), Span(low, high, "")))
            checks = tuple(checks)
            reaches = [size_sweep.pair_reach(check) for check in checks]
            for width in (1, 2, 3, 5, 8, 13, 40):
                # Runs found for the sweep's shortest width serve every wider one.
                for shortest in (1, width):
                    bodies = {name: size_sweep.fixed_char_bodies(layout, shortest) for name, layout in layouts.items()}
                    with self.subTest(case=case, width=width, shortest=shortest):
                        config = chunk_index.policy_config("fixed-char", width)
                        self.assertEqual(
                            size_sweep.fixed_char_row(
                                width, bodies, size_sweep.fixed_char_table(bodies), checks, reaches
                            ),
                            size_sweep.policy_row(config, layouts, checks, reaches),
                        )
                groupings = {name: size_sweep.section_groupings(layout) for name, layout in layouts.items()}
                with self.subTest(case=case, target=width * 4):
                    config = chunk_index.policy_config("heading-aware", width * 4)
                    self.assertEqual(
                        size_sweep.heading_aware_row(
                            width * 4, layouts, groupings, size_sweep.grouping_table(groupings), checks, reaches
                        ),
                        size_sweep.policy_row(config, layouts, checks, reaches),
                    )

    def test_grouping_by_bisection_is_greedy_grouping(self) -> None:
        rng = random.Random(24)
        for case in range(300):
            paragraphs = []
            position = 0
            for _ in range(rng.randint(1, 12)):
                position += rng.randint(0, 3)
                length = rng.randint(0, 30)
                paragraphs.append((position, position + length))
                position += length
            target = rng.randint(1, 80)
            starts, ends = zip(*paragraphs)
            with self.subTest(case=case):
                groups = chunk_index.grouped_spans(paragraphs, target)
                self.assertEqual(
                    size_sweep.grouping_walk(starts, ends, target),
                    ([start for start, _ in groups], [end for _, end in groups]),
                )

    def test_long_whitespace_runs_are_the_pattern_s(self) -> None:
        # ASCII texts take the byte search; "\x85", "\u2028" and "é" send a text to the pattern.
        rng = random.Random(24)
        pieces = [
            "a",
            "b",
            " ",
            "\t",
            "\n",
            "\x0b",
            "\x0c",
            "\r",
            "\x1c",
            "\x1f",
            "\x7f",
            "\x00",
            "\x85",
            "\u2028",
            "é",
        ]
        for case in range(600):
            alphabet = pieces if case % 2 else pieces[:-3]
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
            shortest = rng.randint(1, 6)
            with self.subTest(text=text, shortest=shortest):
                self.assertEqual(
                    size_sweep.long_whitespace_runs(text, shortest),
                    [match.span() for match in re.finditer(rf"\s{{{shortest},}}", text)],
                )


def pieced_texts(pieces: list[str], count: int, longest: int) -> list[tuple[str, int, int]]:
    """``count`` texts of up to ``longest`` random ``pieces``, each with a random ``[start, end)`` inside it."""
    rng = random.Random(24)
    texts = []
    for _ in range(count):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, longest)))
        start = rng.randint(0, len(text))
        texts.append((text, start, rng.randint(start, len(text))))
    return texts


class ScanWordsTest(unittest.TestCase):
    """The scan's long words, found by one pattern each, are the words of ``rules.WORD`` of that length."""

    def test_random_texts_give_the_words_of_each_length(self) -> None:
        pieces = ["a", "Bc", "d_", "_", "1", "42", " ", "-", ".", "é", "\x00", "K", "xyz"]
        for text, start, end in pieced_texts(pieces, 400, 16):
            words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text[start:end])
            with self.subTest(text=text, start=start, end=end):
                self.assertEqual(rules.LONG_WORD.findall(text, start, end), [word for word in words if len(word) >= 3])
                self.assertEqual(rules.TERM_WORD.findall(text[start:end]), [word for word in words if len(word) >= 4])

    def test_a_text_with_a_dotted_name_holds_its_joint(self) -> None:
        rng = random.Random(24)
        pieces = ["a", "B", "_", "1", ".", "..", " ", "é", "\x00", "-", "(", "x.y"]
        dotted = 0
        for case in range(600):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
            if rules.DOTTED.search(text) is not None:
                dotted += 1
                with self.subTest(text=text):
                    self.assertIsNotNone(rules.DOTTED_JOINT.search(text))
        self.assertGreater(dotted, 100)


class ScanMarkerLinesTest(unittest.TestCase):
    """A block's sentences try as marker lines only the lines ``MARKER_LINE_START`` finds: every line that is one."""

    def test_every_marker_line_follows_a_line_break_found(self) -> None:
        rng = random.Random(24)
        pieces = [
            "!!! note",
            "??? tip",
            "/// d",
            ":::",
            '=== "T"',
            "> [!NOTE]",
            "{{< x >}}",
            "<div>",
            "[a]: /u",
            "[^1]: F",
        ]
        pieces += ["  ", "\t", ">", "> ", "text", "a.", "<", "\n", "\n", "\n"]
        found = 0
        for case in range(400):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
            for line_start in [match.end() for match in re.finditer("\n", text)]:
                with self.subTest(text=text, line_start=line_start):
                    if sentences.marker_line(text, line_start, len(text)) is not None:
                        found += 1
                        self.assertIsNotNone(sentences.MARKER_LINE_START.match(text, line_start - 1))
        self.assertGreater(found, 100)


class ScanSentenceEndTest(unittest.TestCase):
    """The sentence-end pattern, opening on its mark, finds the ends the pattern written plainly finds."""

    def test_sentence_ends_are_the_plain_pattern_s(self) -> None:
        plain = re.compile(r"(?<![.!?])[.!?]+[\"'’”)\]*_]*(?=\s)")
        pieces = [".", "!", "?", "..", "a", " ", "\n", '"', ")", "’", "_", "*", "é"]
        for text, start, end in pieced_texts(pieces, 600, 12):
            with self.subTest(text=text, start=start, end=end):
                self.assertEqual(
                    [match.span() for match in sentences.SENTENCE_END.finditer(text, start, end)],
                    [match.span() for match in plain.finditer(text, start, end)],
                )


class ScanMaskingTest(unittest.TestCase):
    """The scan finds fence lines and the barriers of code spans by patterns that open on a literal: the same places
    as the patterns written plainly."""

    def texts(self) -> list[str]:
        rng = random.Random(24)
        pieces = ["```", "~~~", "``", "`", " ", "\t", "\n", "\n", "\n \n", "\x00", "\x00\x00", "a", "~"]
        return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 14))) for _ in range(500)]

    def test_fence_lines_are_the_line_pattern_s_matches(self) -> None:
        plain = re.compile(r"^([ \t]*)(`{3,}|~{3,})", re.MULTILINE)
        for text in self.texts():
            with self.subTest(text=text):
                self.assertEqual(
                    [
                        (match.start(1), match.group(1), match.group(2), match.end())
                        for match in masking.fence_lines(text)
                    ],
                    [(match.start(), match.group(1), match.group(2), match.end()) for match in plain.finditer(text)],
                )

    def test_code_span_barriers_are_the_alternation_s_matches(self) -> None:
        plain = re.compile(r"\n[ \t]*\n|\x00+")
        for text in self.texts():
            with self.subTest(text=text):
                self.assertEqual(masking.code_span_barriers(text), [match.start() for match in plain.finditer(text)])


def reference_bytes(value: object) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


class SavedPiecesTest(unittest.TestCase):
    def test_arrays_of_objects_of_every_shape(self) -> None:
        rng = random.Random(5)
        shapes = {
            "same keys and types": lambda n: {"id": f"{n:04x}", "n": n, "ok": n % 2 == 0, "none": None, "t": 'é\n"'},
            "a key in another order": lambda n: {"n": n, "id": "x"} if n == 40 else {"id": "x", "n": n},
            "a value of another type": lambda n: {"id": "x", "n": None if n == 70 else n},
            "floats": lambda n: {"f": [0.5, float("nan"), float("inf"), -0.0][n % 4]},
            "an int where a bool was": lambda n: {"b": 1 if n == 3 else True},
            "nested values": lambda n: {"id": n, "span": [n, n + 1], "inner": {"k": n}},
            "a non-string key": lambda n: {1: "one"} if n == 9 else {"1": "one"},
            "an empty object": lambda n: {} if n == 17 else {"a": n},
            "a percent sign in a key": lambda n: {"100%": n, "%s": "%d"},
            "objects and scalars": lambda n: {"a": n} if n % 3 else n,
            "lists of scalars": lambda n: {"span": [n, n + 1], "ids": [f"{n:x}", "é\u2028"][: n % 3], "e": []},
            "a list holding a list": lambda n: {"span": [[n]] if n == 11 else [n]},
            "a list of floats and bools": lambda n: {"v": [0.5, True, None, -0.0, float("inf")][: n % 6]},
            "a list where a scalar was": lambda n: {"v": n if n == 5 else [n]},
        }
        # 1, 2 and 17 objects: one batch, and the first batch of 16 and one more; 100: an odd object in the
        # second batch. 700 are over 64 KiB, where pieces are handed on whole or joined (``PIECE_BYTES``): that
        # depends on their bytes, not their shape, and a shape laid out in C and one laid out object by object
        # reach every case of it.
        large = ("same keys and types", "nested values")
        for name, shape in shapes.items():
            for count in (1, 2, 17, 100, 700) if name in large else (1, 2, 17, 100):
                value = {"items": [shape(number) for number in range(count)], "after": rng.random()}
                with self.subTest(shape=name, count=count):
                    expected = reference_bytes(value)
                    self.assertEqual(b"".join(saved_json_pieces(value)), expected)
                    self.assertEqual(saved_json_bytes(value), expected)
                    if count == 700:
                        self.assertGreater(len(expected), PIECE_BYTES)

    def test_the_fixture_result_in_pieces(self) -> None:
        result = fixture_result()
        sizes: dict[str, int] = {}
        pieces = list(saved_json_pieces(result, result["indexes"], sizes))
        self.assertEqual(b"".join(pieces), reference_bytes(result))
        self.assertEqual(sizes, {name: len(reference_bytes(index)) for name, index in result["indexes"].items()})

    def test_sizes_of_members_at_any_depth(self) -> None:
        members = {"empty": {}, "list": [1, {"a": [2, 3]}], "text": "a\u2028b", "flat": {"x": 1, "y": "z"}}
        value = {"outer": [{"members": members}], "n": 1}
        sizes: dict[str, int] = {}
        self.assertEqual(b"".join(saved_json_pieces(value, members, sizes)), reference_bytes(value))
        self.assertEqual(sizes, {name: len(reference_bytes(member)) for name, member in members.items()})
        # Members that are scalars, in an object that is one of many alike.
        scalars = {"a": 1, "b": "two"}
        value = {"rows": [{"a": 0, "b": "x"}, scalars, {"a": 2, "b": "y"}]}
        sizes = {}
        self.assertEqual(b"".join(saved_json_pieces(value, scalars, sizes)), reference_bytes(value))
        self.assertEqual(sizes, {"a": 2, "b": 6})

    def test_sizes_of_members_holding_columns_of_lists(self) -> None:
        # A pair-aware index's config holds pairs whose spans are lists: its saved size counts their lines.
        pairs = [
            {"source_id": "s", "instruction_span": [n, n + 4], "qualifier_span": [n + 5, n + 9]} for n in range(30)
        ]
        members = {"index": {"config": {"pairs": pairs}, "chunks": [{"ids": [], "n": 1}, {"ids": ["a"], "n": 2}]}}
        value = {"indexes": members}
        sizes: dict[str, int] = {}
        self.assertEqual(b"".join(saved_json_pieces(value, members, sizes)), reference_bytes(value))
        self.assertEqual(sizes, {"index": len(reference_bytes(members["index"]))})

    def test_large_arrays_come_in_bounded_pieces(self) -> None:
        value = [{"id": number, "text": "x" * 200} for number in range(5000)]
        pieces = list(saved_json_pieces(value))
        self.assertGreater(len(pieces), 1)
        self.assertLess(max(map(len, pieces)), 2_000_000)
        self.assertEqual(b"".join(pieces), reference_bytes(value))

    def test_a_column_laid_out_from_its_known_json(self) -> None:
        rng = random.Random(41)
        words = ("a", "é", "\n", '"', "\\", "\x00", "\x7f", "\u2028", "😀", " ")
        for count in (1, 2, 17, 300, 5000):
            # Mostly one shape, with an odd object now and then: its batch is laid out object by object.
            items = [
                {"n": number, "text": "".join(rng.choice(words) for _ in range(rng.randint(0, 9)))}
                for number in range(count)
            ]
            if count > 2:
                items[rng.randrange(count)]["extra"] = 1
            texts = [json.dumps(item["text"], ensure_ascii=False) for item in items]
            value = {"chunks": items, "copy": list(items)}
            with self.subTest(count=count):
                self.assertEqual(
                    b"".join(saved_json_pieces(value, encoded=[(items, "text", texts)])), reference_bytes(value)
                )

    def test_the_build_hands_on_each_text_as_json(self) -> None:
        encoded: list = []
        configs = chunk_index.manifest_configs("blocks-3", (("fixed-char", 40), ("heading-aware", 60)))
        sources = [*SOURCES, tiny_source("d-tricky", '# D\n\n"quoted" \\ \x7f é\u2028 \x01\ttab\n')]
        indexes = chunk_index.build_indexes(sources, configs, encoded=encoded)
        lists = [members for index in indexes.values() for members in (index["chunks"], index["documents"])]
        self.assertEqual([id(objects) for objects, _, _ in encoded], list(map(id, lists)))
        for objects, key, texts in encoded:
            with self.subTest(objects=objects):
                self.assertEqual(texts, [json.dumps(item[key], ensure_ascii=False) for item in objects])
        self.assertEqual(indexes, chunk_index.build_indexes(sources, configs))

    def test_the_main_job_build_hands_on_the_documents_texts_alone(self) -> None:
        # The main job's writer escapes the chunks' texts again; the written bytes are the same either way.
        encoded: list = []
        configs = chunk_index.manifest_configs("blocks-3", (("fixed-char", 40), ("heading-aware", 60)))
        sources = [*SOURCES, tiny_source("d-tricky", '# D\n\n"quoted" \\ \x7f é\u2028 \x01\ttab\n')]
        indexes = chunk_index.build_indexes(sources, configs, encoded=encoded, chunk_texts=False)
        self.assertEqual(
            [id(objects) for objects, _, _ in encoded], [id(index["documents"]) for index in indexes.values()]
        )
        self.assertEqual(b"".join(saved_json_pieces(indexes, encoded=encoded)), reference_bytes(indexes))
        self.assertEqual(indexes, chunk_index.build_indexes(sources, configs))

    def test_a_cycle_is_refused_like_json_dumps(self) -> None:
        cycle: dict = {"a": [1]}
        cycle["a"].append(cycle)
        with self.assertRaises(ValueError):
            b"".join(saved_json_pieces(cycle))


class StreamedMainJobTest(LabTestCase):
    def test_the_result_is_streamed_and_the_table_sizes_each_index(self) -> None:
        written = []
        original = main_job.write_outputs

        def recording(files):
            written.extend(type(content) for _, content in files)
            return original(files)

        output = self.folder / "result.json"
        with unittest.mock.patch.object(main_job, "write_outputs", recording):
            completed = run_lab("--output", str(output))
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(output.read_bytes(), (ROOT / "expected-result.json").read_bytes())
        self.assertEqual(len(written), 1)
        self.assertNotIn(written[0], (bytes, bytearray))
        rows = {line.split()[0]: re.split(" {2,}", line) for line in completed.stdout.splitlines()[1:4]}
        for name, index in fixture_result()["indexes"].items():
            with self.subTest(policy=name):
                self.assertEqual(rows[name][4], f"{len(reference_bytes(index)):,}")

    def test_stdout_gets_the_same_bytes(self) -> None:
        completed = run_lab("--output", "-")
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(completed.stdout.encode("utf-8"), (ROOT / "expected-result.json").read_bytes())
        self.assertIn("wrote stdout", completed.stderr)


if __name__ == "__main__":
    unittest.main()
