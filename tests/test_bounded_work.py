"""Bounded work: pair lookups by bisection give exactly what a look at every chunk gives, and ceilings refuse up front.

Speed itself is measured in ``tests/benchmark.py``, never timed here; these
tests hold the fast lookups equal to the plain definitions they replace.
"""

from __future__ import annotations

import random
import unittest
from unittest import mock

from checks import size_sweep, span_checks
from checks.caveats import rules, sentences
from load_documents import Span, SpanCheck
from tests.support import LabTestCase, fixture_result, run_lab
from views import pictures, terminal, visible_text


def ordered_chunks(generator: random.Random, count: int) -> list[dict]:
    """Chunks in offset order that never overlap, with gaps, as every policy cuts them."""
    chunks = []
    position = generator.randint(0, 3)
    for order in range(count):
        length = generator.randint(1, 12)
        chunks.append({"order": order, "chunk_id": f"c{order}", "start": position, "end": position + length})
        position += length + generator.randint(0, 3)
    return chunks


def holds(chunk: dict, start: int, end: int) -> bool:
    return chunk["start"] <= start and end <= chunk["end"]


class SourceChunkLookups(unittest.TestCase):
    """``SourceChunks`` against the definitions: every chunk looked at."""

    def test_lookups_equal_the_definitions(self):
        generator = random.Random(12)
        # 75 lists of chunks, 25 of them out of order and 5 empty: every branch of the lookups and of the
        # definitions is reached, as by twice as many.
        for trial in range(75):
            chunks = ordered_chunks(generator, generator.randint(0, 12))
            if trial % 3 == 0:
                # Out of order: the lookups must fall back to looking at every chunk.
                generator.shuffle(chunks)
            lookup = span_checks.source_chunks(chunks)
            reach = (chunks[-1]["end"] if chunks else 0) + 5
            for _ in range(20):
                start = generator.randint(0, reach)
                end = generator.randint(start + 1, reach + 1)
                with self.subTest(chunks=chunks, span=(start, end)):
                    self.assertEqual(list(lookup.holding(start, end)), [c for c in chunks if holds(c, start, end)])
                    self.assertEqual(
                        list(lookup.touching(start, end)),
                        [c for c in chunks if c["start"] < end and start < c["end"]],
                    )
                    edges = [edge for c in chunks for edge in (c["start"], c["end"]) if start < edge < end]
                    self.assertEqual(lookup.first_edge_inside(start, end), min(edges, default=None))

    def test_many_pairs_give_the_verdicts_of_a_look_at_every_chunk(self):
        result = fixture_result()
        texts = {document["source_id"]: document["text"] for document in result["indexes"]["paragraph"]["documents"]}
        generator = random.Random(5)
        pairs = []
        for number in range(400):
            source_id = generator.choice(sorted(texts))
            length = len(texts[source_id])
            first = sorted(generator.sample(range(length + 1), 2))
            second = sorted(generator.sample(range(length + 1), 2))
            pairs.append(
                {"name": f"p{number}", "source_id": source_id, "instruction_span": first, "qualifier_span": second}
            )
        for name, index in result["indexes"].items():
            compared = span_checks.compare_pairs(name, index, pairs)
            for pair, verdict in zip(pairs, compared["pairs"]):
                chunks = [chunk for chunk in index["chunks"] if chunk["source_id"] == pair["source_id"]]
                instruction = pair["instruction_span"]
                qualifier = pair["qualifier_span"]
                with self.subTest(policy=name, pair=pair["name"]):
                    self.assertEqual(
                        verdict["instruction_containing_chunk_ids"],
                        [chunk["chunk_id"] for chunk in chunks if holds(chunk, *instruction)],
                    )
                    self.assertEqual(
                        verdict["instruction_and_qualifier_share_chunk"],
                        any(holds(chunk, *instruction) and holds(chunk, *qualifier) for chunk in chunks),
                    )


class OverlappingChunkLookups(unittest.TestCase):
    """Lookups over another chunker's chunks (overlapping, of any length) equal their definitions."""

    def random_spans(self, rng: random.Random) -> list[tuple[int, int]]:
        spans = []
        for _ in range(rng.randrange(0, 30)):
            start = rng.randrange(0, 200)
            # Mostly short chunks, now and then one that spans most of the page.
            spans.append((start, start + (rng.randrange(1, 200) if rng.random() < 0.1 else rng.randrange(1, 20))))
        return sorted(spans)

    def assert_reaching_equals_a_look_at_every_span(self, rng: random.Random, rounds: int) -> None:
        for _ in range(rounds):
            spans = self.random_spans(rng)
            reaching = span_checks.ReachingSpans(spans)
            for _ in range(10):
                count, point = rng.randrange(0, len(spans) + 1), rng.randrange(0, 220)
                expected = [position for position, (_, end) in enumerate(spans[:count]) if end > point]
                self.assertEqual(reaching.reaching(count, point), expected, (spans, count, point))

    def test_reaching_equals_a_look_at_every_span(self):
        self.assert_reaching_equals_a_look_at_every_span(random.Random(7), 400)

    def test_the_tree_and_the_look_at_each_candidate_each_equal_the_definition(self):
        # A lookup looks at its few candidates one by one, and descends the tree past LOOKED_AT of them:
        # forced down each way, every lookup still gives the spans that reach the point.
        for looked_at in (0, 1_000):
            with self.subTest(looked_at=looked_at), mock.patch.object(
                span_checks.ReachingSpans, "LOOKED_AT", looked_at
            ):
                self.assert_reaching_equals_a_look_at_every_span(random.Random(8), 200)

    def test_judge_holders_and_context_touching_equal_their_definitions(self):
        import judge
        from checks import context_windows

        rng = random.Random(11)
        for _ in range(200):
            spans = self.random_spans(rng)
            if not spans:
                continue
            chunks = [
                {"source_id": "s", "order": order, "start": start, "end": end, "section_id": "x"}
                for order, (start, end) in enumerate(rng.sample(spans, len(spans)))
            ]
            holders = judge.SpanHolders(chunks)
            index = context_windows.source_indexes(chunks)["s"]
            for _ in range(10):
                start = rng.randrange(0, 210)
                end = start + rng.randrange(1, 30)
                by_start = sorted(chunks, key=lambda chunk: (chunk["start"], chunk["order"]))
                self.assertEqual(
                    holders.holding(start, end),
                    [chunk for chunk in by_start if chunk["start"] <= start and end <= chunk["end"]],
                )
                self.assertEqual(
                    sorted(context_windows.touching(index, start, end)),
                    sorted(
                        position
                        for position, chunk in enumerate(index.chunks)
                        if chunk["start"] < end and start < chunk["end"]
                    ),
                )


class SweepLookups(unittest.TestCase):
    def test_keeps_pair_equals_a_look_at_every_chunk(self):
        generator = random.Random(8)
        # 100 lists of chunks, 10 pairs each: 38 pairs kept, and every branch of keeps_pair reached.
        for _ in range(100):
            chunks = [(chunk["start"], chunk["end"]) for chunk in ordered_chunks(generator, generator.randint(1, 10))]
            starts = [start for start, _ in chunks]
            reach = chunks[-1][1] + 3
            for _ in range(10):
                spans = [sorted(generator.sample(range(reach + 1), 2)) for _ in range(2)]
                check = SpanCheck("c", "s", Span(*spans[0], "i"), Span(*spans[1], "q"))
                with self.subTest(chunks=chunks, spans=spans):
                    self.assertEqual(
                        size_sweep.keeps_pair(chunks, starts, check),
                        any(
                            start <= spans[0][0] and spans[0][1] <= end and start <= spans[1][0] and spans[1][1] <= end
                            for start, end in chunks
                        ),
                    )


class Ceilings(LabTestCase):
    def test_a_sweep_over_the_ceiling_is_refused_up_front(self):
        # The fixture has one span check: two sizes are two verdicts, over a ceiling of one.
        with mock.patch.object(size_sweep, "MAX_SWEEP_CELLS", 1), mock.patch.object(size_sweep, "run_sweep") as work:
            completed = run_lab("sweep", "--sizes", "80", "220")
        self.assert_one_line_refusal(completed, "sweep_too_large", exit_code=2)
        self.assertIn("1 span checks x 2 sizes = 2 verdicts; at most 1", completed.stderr)
        work.assert_not_called()

    def test_too_many_sizes_are_refused(self):
        sizes = [str(size) for size in range(1, size_sweep.MAX_SIZE_COUNT + 2)]
        self.assert_one_line_refusal(run_lab("sweep", "--sizes", *sizes), "too_many_sizes", exit_code=2)

    def test_sizes_run_together_are_told_apart(self):
        completed = run_lab("sweep", "--sizes", "700,800,900")
        self.assertEqual(completed.returncode, 2)
        self.assertIn(
            "found '700,800,900'; give several sizes separated by spaces: --sizes 700 800 900", completed.stderr
        )
        self.assertNotIn("separated by spaces", run_lab("sweep", "--sizes", "0").stderr)
        self.assertIn(
            "found '1,000'; write it without separators: 1000 (see --help)",
            run_lab("sweep", "--sizes", "1,000").stderr,
        )

    def test_the_help_states_the_ceilings_the_sweep_enforces(self):
        completed = run_lab("sweep", "--help")
        flat = " ".join(completed.stdout.split())
        self.assertIn(f"At most {size_sweep.MAX_SIZE_COUNT:,} sizes", flat)
        self.assertIn(f"at most {size_sweep.MAX_SWEEP_CELLS:,} span checks times sizes", flat)


class CountingSpans(list):
    """A list of spans that counts how many of its items the code under test looks at."""

    looked_at = 0

    def __getitem__(self, index):
        self.looked_at += 1
        return super().__getitem__(index)

    def __iter__(self):
        for item in super().__iter__():
            self.looked_at += 1
            yield item


class SentenceSplitWork(unittest.TestCase):
    """A block's sentences look only at the fences that reach into it, and at each header once."""

    def test_a_block_looks_at_the_fences_near_it_only(self):
        # A page of 2,000 fences before one paragraph: splitting the paragraph used to walk every fence,
        # once per block, so a page of many small fences and paragraphs took quadratic time.
        text = "```\nx\n```\n\n" * 2000 + "Use `a`. It must not fail.\n"
        block_start = text.index("Use")
        fences = CountingSpans((10 * number, 10 * number + 10) for number in range(2000))
        spans = sentences.sentence_spans(text, block_start, len(text), fences)
        self.assertEqual(spans, [(block_start, block_start + 8), (block_start + 9, len(text) - 1)])
        self.assertLess(fences.looked_at, 40)

    def test_many_headers_in_one_block_give_the_sentences_of_the_definition(self):
        # One quote run of 3,000 alerts, each with one sentence: every header line is skipped, every body kept.
        unit = "> [!NOTE]\n> Call it.\n"
        text = unit * 3000
        spans = sentences.sentence_spans(text, 0, len(text))
        body = unit.index("Call")
        self.assertEqual(spans, [(len(unit) * n + body, len(unit) * n + body + 8) for n in range(3000)])

    def test_long_runs_of_spaces_tabs_and_marks_split_as_the_rules_say(self):
        # Each of these once made a sentence pattern rescan the run from every character (about 20 s for a
        # 20,000-character run, minutes for a 64 KB page); now each is one pass, so this test stays instant.
        run = 20_000
        cases = {
            "spaces before prose": ("Use a.\n" + " " * run + "X never.\n", ["Use a.", "X never."]),
            "spaces after a header": ("!!! note\n" + " " * run + "x.\n", ["x."]),
            "tabs before a list item": ("a\n" + "\t" * run + "- x\n", ["a", "x"]),
            "a run of full stops": ("Use a.\n" + "." * run + "x never.\n", ["Use a.", "." * run + "x never."]),
            "quote markers": ("a\n" + "> " * (run // 2) + "- x\n", ["a", "x"]),
        }
        for name, (text, expected) in cases.items():
            with self.subTest(name):
                spans = sentences.sentence_spans(text, 0, len(text))
                self.assertEqual([text[start:end] for start, end in spans], expected)

    def test_long_lines_of_markers_split_in_one_pass(self):
        # A marker ends at its first ">}}", "%}}", ">" or "-->": a line of thousands of markers, closed or not,
        # is read once, never re-split between them (which backtracks exponentially).
        run = 20_000
        cases = {
            "shortcodes then text": "{{< a >}}" * (run // 9) + " x never.\n",
            "tags then text": "<b>" * (run // 3) + " x never.\n",
            "unclosed shortcodes": "{{<" * (run // 3) + " x never.\n",
            "unclosed comments": "<!--" * (run // 4) + " x never.\n",
        }
        for name, text in cases.items():
            with self.subTest(name):
                self.assertEqual(sentences.sentence_spans(text, 0, len(text)), [(0, len(text) - 1)])
        # Comments before a sentence render as nothing and are no part of it (scan_version 7): skipped in one pass.
        comments = "<!--a-->" * (run // 8)
        text = comments + " x never.\n"
        self.assertEqual(sentences.sentence_spans(text, 0, len(text)), [(len(comments) + 1, len(text) - 1)])
        text = "{{< a >}}" * (run // 9) + "\nx never.\n"
        self.assertEqual(sentences.sentence_spans(text, 0, len(text)), [(len(text) - 9, len(text) - 1)])


class SentenceOpeningWork(unittest.TestCase):
    """A connective opening a sentence, then a long run of space: each opening rule reads the run once."""

    def test_openings_after_a_long_run_of_space(self):
        # Each once split the run between two quantifiers every way (37 s for a sentence of "Now" and 20,000 spaces).
        run = " " * 20_000
        condition = "Now" + run + "if it fails"
        # "Now" (3), the run, "if" (2): the opening ends after "if".
        self.assertEqual(rules.CONDITION_OPENING.match(condition).end(), 3 + len(run) + 2)
        self.assertIsNone(rules.CONDITION_OPENING.match("Now" + run + "it fails"))
        step = rules.PRESENT_STEP.match("Then ," + run + "you pass it")
        self.assertEqual(step["verb"], "pass")
        self.assertIsNone(rules.PRESENT_STEP.match("Then" + run + "we pass it"))
        self.assertEqual(rules.OBSERVATION_OPENING.match("And" + run + "notice it").end(), 3 + len(run) + 6)
        self.assertIsNone(rules.OBSERVATION_OPENING.match("And" + run + "note it"))
        self.assertEqual(rules.ANAPHOR_PATTERN.match("However," + run + "it fails")["anaphor"], "it")
        self.assertIsNone(rules.ANAPHOR_PATTERN.match("However" + run + "the rest"))


class ClauseStartWork(unittest.TestCase):
    """Whether a place opens a clause looks at the words right before it, not at the whole sentence before."""

    def test_many_cues_that_ask_read_the_sentence_once(self):
        # "they " (5 characters), then 2,000 times "raise errors they " (18): each "raise" before "errors" is an error
        # cue of tier 2, none opening a clause. Each asked from the sentence's start: 16 s for 4,000.
        sentence = "they " + "raise errors they " * 2000 + "x."
        cues = rules.sentence_cues(sentence)
        self.assertEqual(
            [(cue.rule, cue.cue, cue.tier, cue.start) for cue in cues],
            [("error", "raise", 2, 5 + 18 * number) for number in range(2000)],
        )

    def test_many_negated_verbs_of_knowing_read_a_bounded_stretch_each(self):
        # 1,000 times "Meson doesn't know " (19 characters): each "doesn't" before "know" asks who it is said of
        # (scan_version 45). Searched over the whole sentence before each cue, as 45 to 48 did, 3,000 took about 6 s
        # and 1,000 about 0.7 s; within the cue window it is linear. None is said of a person: each is a limitation.
        sentence = "Meson doesn't know " * 1000 + "x."
        cues = rules.sentence_cues(sentence)
        self.assertEqual(
            [(cue.rule, cue.cue, cue.tier, cue.start) for cue in cues],
            [("limitation", "doesn't", 2, 6 + 19 * number) for number in range(1000)],
        )

    def test_a_joining_word_before_a_long_run_of_space(self):
        run = " " * 20_000
        text = "Then" + run + "we add it"
        self.assertTrue(rules.at_clause_start(text, 4 + len(run)))
        self.assertTrue(rules.at_clause_start("x;" + run + "we", 2 + len(run)))
        self.assertFalse(rules.at_clause_start("Thenx" + run + "we", 5 + len(run)))
        # "alternatively", the longest joining word, right before the space.
        self.assertTrue(rules.at_clause_start("x alternatively" + run + "we", 15 + len(run)))


def reference_rows(text: str, start: int, end: int, marks: tuple, newlines: list[int]) -> list[tuple]:
    """``segment_rows`` as its docstring defines it, with every mark looked at for every piece of text.

    Rows as ``(line, starts_mid_line, ends_mid_line, items)``; a run's roles are
    those of the marks covering it, each role once, the earliest mark's first.
    """
    cuts = {start, end}
    for mark in marks:
        cuts.update(position for position in (mark.start, mark.end) if start < position < end)
    cuts.update(position + 1 for position in range(start, end - 1) if text[position] == "\n")
    points = sorted(cuts)
    rows, items, row_start = [], [], start
    for piece_start, piece_end in zip(points, points[1:]):
        items.extend(("open", mark.label) for mark in marks if mark.start == piece_start)
        roles = []
        for mark in marks:
            if mark.start <= piece_start and piece_end <= mark.end and mark.role not in roles:
                roles.append(mark.role)
        items.append((text[piece_start:piece_end], tuple(roles)))
        items.extend(("close", mark.label) for mark in marks if mark.end == piece_end)
        if text[piece_end - 1] == "\n" or piece_end == end:
            line = text.count("\n", 0, row_start) + 1
            rows.append((line, row_start > 0 and text[row_start - 1] != "\n", text[piece_end - 1] != "\n", items))
            items, row_start = [], piece_end
    return rows


def plain_rows(rows) -> list[tuple]:
    """``segment_rows``'s rows in ``reference_rows``'s shape."""
    shaped = []
    for row in rows:
        items = [
            (
                (("open" if item.opening else "close"), item.mark.label)
                if isinstance(item, pictures.Edge)
                else (item.text, item.roles)
            )
            for item in row.items
        ]
        shaped.append((row.line, row.starts_mid_line, row.ends_mid_line, items))
    return shaped


class ViewLookups(unittest.TestCase):
    """The views' rows, mark lookups and narrowing against their definitions, and the work they do."""

    def random_marks(self, generator: random.Random, length: int, count: int) -> tuple:
        marks = []
        for number in range(count):
            start = generator.randint(0, length - 1)
            end = generator.randint(start + 1, min(length, start + 9))
            role = generator.choice(("instruction", "qualifier"))
            marks.append(pictures.Mark(role, f"{role[0].upper()}{number + 1}", start, end))
        return tuple(sorted(marks, key=lambda mark: (mark.start, mark.end, mark.label)))

    def test_rows_equal_the_definition(self):
        generator = random.Random(21)
        for trial in range(200):
            text = "".join(generator.choice("ab\n") for _ in range(generator.randint(1, 30)))
            newlines = [position for position, character in enumerate(text) if character == "\n"]
            marks = self.random_marks(generator, len(text), generator.randint(0, 6))
            start = generator.randint(0, len(text) - 1)
            end = generator.randint(start + 1, len(text))
            overlapping = tuple(mark for mark in marks if mark.start < end and start < mark.end)
            with self.subTest(text=text, marks=marks, segment=(start, end)):
                finder = pictures.MarkFinder(marks)
                self.assertEqual(finder.overlapping(start, end), overlapping)
                rows = pictures.segment_rows(text, start, end, overlapping, newlines)
                self.assertEqual(plain_rows(rows), reference_rows(text, start, end, overlapping, newlines))

    def test_a_chunk_of_thousands_of_marks_looks_at_each_mark_four_times_at_most(self):
        # One 64 KB list item per line, each with its pair: the 2,285 span checks in one chunk
        # once made every piece of text look at every mark.
        line = "- Call f(). It fails.\n"
        count = 2285
        text = line * count
        marks = []
        for number in range(count):
            start = number * len(line) + 2
            marks.append(pictures.Mark("instruction", f"I{number + 1}", start, start + 8))
            marks.append(pictures.Mark("qualifier", f"Q{number + 1}", start + 9, start + 18))
        counting = CountingSpans(marks)
        newlines = [position for position, character in enumerate(text) if character == "\n"]
        rows = pictures.segment_rows(text, 0, len(text), counting, newlines)
        self.assertEqual(len(rows), count)
        self.assertEqual(
            plain_rows(rows[7:8]), reference_rows(text, 7 * len(line), 8 * len(line), marks[14:16], newlines)
        )
        # Once per mark to sort them into the cuts, then at its two edges and when it opens: never per piece.
        self.assertLessEqual(counting.looked_at, 4 * len(marks))

    def test_focused_blocks_equal_the_definition(self):
        generator = random.Random(5)
        for trial in range(200):
            blocks = []
            position = 0
            for _ in range(generator.randint(1, 8)):
                length = generator.randint(1, 6)
                if generator.random() < 0.3:
                    blocks.append(pictures.Split(position, "split"))
                blocks.append(pictures.Segment(position, position + length, None, 0, ()))
                position += length
            stretches = []
            for _ in range(generator.randint(1, 4)):
                low = generator.randint(0, position - 1)
                stretches.append((low, generator.randint(low + 1, position)))
            with self.subTest(blocks=blocks, stretches=stretches):
                self.assertEqual(
                    terminal.focused_blocks(tuple(blocks), stretches, position),
                    reference_focused_blocks(blocks, stretches, position),
                )

    def test_visible_shows_what_each_character_is_shown_as(self):
        # One of each kind the view rewrites or keeps, named by its Unicode category, not by the view's lists.
        pool = {
            "a": "a",
            "\u00e9": "\u00e9",  # Ll, a letter
            "\u4e2d": "\u4e2d",  # Lo, a CJK ideograph
            "\U0001f600": "\U0001f600",  # So, an emoji
            "\u00a0": "\u00a0",  # Zs, a no-break space: printable to the view, not to str.isprintable
            "\ue000": "\ue000",  # Co, private use: shown as it is
            "\n": "⏎",
            "\t": "\\t",
            "\\": "\\\\",
            "\x1b": "\\x1b",  # Cc
            "\x85": "\\x85",  # Cc
            "\u00ad": "\\xad",  # Cf, a soft hyphen
            "\u200d": "\\u200d",  # Cf, a zero-width joiner
            "\u202e": "\\u202e",  # Cf, a bidirectional override
            "\U000e0041": "\\U000e0041",  # Cf, a tag character
            "\u2028": "\\u2028",  # Zl
            "\u2029": "\\u2029",  # Zp
            "\ud800": "\\ud800",  # Cs, a lone surrogate
            "⏎": "\\u23ce",
            "¦": "\\xa6",
            "⟦": "\\u27e6",
            "⟧": "\\u27e7",
        }
        generator = random.Random(8)
        characters = list(pool)
        for trial in range(300):
            text = "".join(generator.choice(characters) for _ in range(generator.randint(0, 12)))
            with self.subTest(text=text):
                self.assertEqual(visible_text.visible(text), "".join(pool[character] for character in text))
                expected = "".join("\\" if character == "\\" else pool[character] for character in text)
                self.assertEqual(visible_text.visible_message(text), expected)


def reference_focused_blocks(blocks: list, stretches: list[tuple[int, int]], text_length: int) -> tuple:
    """``focused_blocks`` by its definition: every block against every stretch."""
    kept: list = []
    hidden_from = None
    for block in blocks:
        if isinstance(block, pictures.Split):
            shown = any(low <= block.offset <= high for low, high in stretches)
        else:
            shown = any(block.start < high and low < block.end for low, high in stretches)
        if shown:
            if hidden_from is not None and not isinstance(block, pictures.Split):
                kept.append(pictures.Elision(hidden_from, block.start))
            hidden_from = None
            kept.append(block)
        elif not isinstance(block, pictures.Split) and hidden_from is None:
            hidden_from = block.start
    if hidden_from is not None and hidden_from < text_length:
        kept.append(pictures.Elision(hidden_from, text_length))
    return tuple(kept)
