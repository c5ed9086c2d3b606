"""The anchors that let a sentence holding none skip the caveat rules (``checks.caveats.anchors``).

What is checked is the promise, not the anchors chosen: every sentence written here that the cue
pattern finds a cue in holds an anchor in its masked, case-folded text, whatever markup or case it is
written in; and a scan finds the same pairs with the quick test as without it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from unittest import mock

from checks.caveats import anchors, masking, pairing, rules, sentences
from tests.support import ROOT, LabTestCase
from tests.test_caveat_rules import documented_cues


def anchored(sentence: str) -> bool:
    """Whether the quick test keeps ``sentence``: an anchor in its masked text, case folded."""
    masked = masking.masked_code(sentence, [])[0]
    return pairing.CUE_ANCHORS.search(masked.translate(anchors.FOLD)) is not None


def has_cue(sentence: str) -> bool:
    return pairing.holds_cue(rules.prose_view(masking.masked_code(sentence, [])[0]))


class AnchorPromiseTest(LabTestCase):
    """A sentence the rules find a cue in always holds an anchor."""

    def test_the_anchors_are_read_off_the_patterns(self) -> None:
        self.assertIsNotNone(pairing.CUE_ANCHORS)

    def test_every_documented_cue_in_plain_text_and_in_markup(self) -> None:
        for rule, _, cue in documented_cues():
            words = cue.split()
            for sentence in (
                f"{cue[0].upper()}{cue[1:]} keep the handle.",
                f"The handle {cue.upper()} stay.",
                f"The handle **{cue}** stay.",
                # Markup between the words: blanked, the words stand apart as the cue needs.
                f"The handle {' *'.join(words)}* stay.",
                f"The handle _{'_ _'.join(words)}_ stay.",
                f"See [it]({cue}) {cue}.",
                f"<b>{cue}</b>",
            ):
                with self.subTest(rule=rule, sentence=sentence):
                    if has_cue(sentence):
                        self.assertTrue(anchored(sentence))

    def test_written_cases(self) -> None:
        # Each holds a cue the rules find; written for the test, the case and markup varied by hand.
        for sentence in (
            "The handle mustn't be shared.",
            "It isn’t supported yet.",
            "It is n't there.",
            "NOTE: the handle is shared.",
            "Widgets need Python 3.10+ to run.",
            "Added in version `0.115.0`, the flag turns it off.",
            "If `brotli` is installed, the encoding will be supported.",
            # A long s and a Kelvin sign: re.IGNORECASE reads them as s and k.
            "If it is set, the encoding will be ſupported.",
            "Be careful with the handle.",
            "The handle `x`(required): a name.",
        ):
            with self.subTest(sentence=sentence):
                self.assertTrue(has_cue(sentence))
                self.assertTrue(anchored(sentence))

    def test_a_plain_sentence_is_passed_over(self) -> None:
        for sentence in ("Open the widget.", "The widget opens a window.", "Call `open()` first."):
            with self.subTest(sentence=sentence):
                self.assertFalse(anchored(sentence))

    def test_a_block_s_sentences_are_told_by_one_search_of_its_anchors(self) -> None:
        # "must" and "fail" are anchors; "Run it." and "Then stop." hold none, before and after the one that does;
        # "Never." is the next block's, found by its own search.
        text = "Run it. It must fail. Then stop.\nNever.\n"
        page = pairing.Page(text, text, [], [], {})
        block_anchors = pairing.anchors_in_block(page, 32)
        sentences_held = [
            pairing.may_hold_cue(page, start, end, block_anchors) for start, end in ((0, 7), (8, 21), (22, 32))
        ]
        self.assertEqual(sentences_held, [False, True, False])
        self.assertTrue(pairing.may_hold_cue(page, 33, 39, pairing.anchors_in_block(page, 40)))


class SameScanTest(LabTestCase):
    """Scanning with the quick test finds what scanning every sentence finds, pair for pair."""

    def test_the_lab_s_own_pages(self) -> None:
        pages = [
            *sorted((ROOT / "docs" / "examples").rglob("*.md")),
            *sorted((ROOT / "docs").glob("aster-copy-*.md")),
        ]
        pages = [page for page in pages if page.name != "README.md"]
        self.assertGreater(len(pages), 3)
        for page in pages:
            text = page.read_text(encoding="utf-8")
            for grammar in ("lesson", "blocks-3") if text.startswith("#") else ("blocks-3",):
                with self.subTest(page=page.name, grammar=grammar):
                    quick = pairing.scan_text("doc", text, grammar)
                    with mock.patch.object(pairing, "CUE_ANCHORS", None):
                        whole = pairing.scan_text("doc", text, grammar)
                    self.assertEqual(quick, whole)

    def test_a_sentence_with_no_cue_is_no_caveat_in_any_context(self) -> None:
        # What lets the scan read a cue-free sentence only when a caveat asks what it instructs.
        page = ROOT / "docs" / "examples" / "parcel-queue" / "guide"
        texts = [path.read_text(encoding="utf-8") for path in sorted(page.rglob("*.md"))]
        texts.append("Because it is slow, use the cache. If set, it is used. We recommend it, as it is fast.")
        checked = 0
        for text in texts:
            masked = masking.masked_code(text, masking.fence_spans(text))[0]
            for start, end in sentences_of(masked):
                reading = rules.prose_view(masked[start:end])
                if pairing.holds_cue(reading):
                    continue
                checked += 1
                for context in (
                    (False, False, False, False, False),
                    (True, True, True, True, False),
                    (False,) * 4 + (True,),
                ):
                    with self.subTest(sentence=reading, context=context):
                        answer = pairing.classified(reading, *context)
                        self.assertIsNone(answer[0])
                        self.assertEqual(pairing.classified(reading, *context, cue_free=True), answer)
        self.assertGreater(checked, 20)


def sentences_of(masked: str) -> list[tuple[int, int]]:
    """Every sentence of a text read as paragraphs split at blank lines."""
    spans = []
    for paragraph in re.finditer(r"[^\n](?:[^\n]|\n(?!\n))*", masked):
        spans.extend(sentences.sentence_spans(masked, paragraph.start(), paragraph.end()))
    return spans


class DerivationTest(LabTestCase):
    """How the anchors are read off a pattern, and what stops them."""

    def test_literals_a_match_starts_with(self) -> None:
        parsed = anchors.sre_parse.parse("mustn'?t")
        # An optional part ends the literal where it is taken: "mustn'" and "mustnt" start every match.
        self.assertEqual({"".join(literal) for literal in anchors.literal_starts(list(parsed))}, {"mustn'", "mustnt"})
        # A class of letters, or a space, ends a literal where it stands.
        self.assertEqual(anchors.literal_starts(list(anchors.sre_parse.parse(r"[a-z]+ing"))), {()})
        self.assertEqual(anchors.literal_starts(list(anchors.sre_parse.parse(r"a\s+b"))), {("a",)})

    def test_a_pattern_with_no_literal_gives_no_anchor(self) -> None:
        self.assertIsNone(anchors.pattern_anchors(re.compile(r"\w+\s+\w+")))
        self.assertIsNone(anchors.anchor_pattern((rules.CUE_PATTERN, re.compile(r"[a-z]+"))))

    def test_word_starts_need_blanked_markup_to_end_outside_a_word(self) -> None:
        self.assertTrue(anchors.edges_outside(rules.MARKUP))
        self.assertTrue(anchors.edges_outside(rules.REASON_OPENING, first=False))
        self.assertFalse(anchors.edges_outside(re.compile(r"<[a-z]+")))
        # Were markup to end inside a word, every anchor would be looked for anywhere.
        pattern = anchors.anchor_pattern((re.compile(r"(?<!\w)must\b"),), (re.compile(r"<[a-z]+"),))
        self.assertIsNotNone(pattern.search("<bmust"))

    def test_the_fold_is_re_ignorecase_on_letters(self) -> None:
        for character, letter in (("İ", "i"), ("ı", "i"), ("ſ", "s"), ("K", "k"), ("Q", "q")):
            with self.subTest(character=character):
                self.assertIsNotNone(re.fullmatch(letter, character, re.IGNORECASE))
                self.assertEqual(character.translate(anchors.FOLD), letter)

    def test_the_quick_folds_of_ascii_text_are_the_tables(self) -> None:
        for text in ("Must NOT, `x`\x00\x00 [Z](a@Q)\n\t~", "", "Ünicode MUST İ ſ K ẞ", "\x7fABC xyz 09"):
            with self.subTest(text=text):
                self.assertEqual(anchors.case_folded(text), text.translate(anchors.FOLD))
                self.assertEqual(rules.ascii_lowered(text), text.translate(rules.ASCII_LOWER))
        # Outside ASCII the tables hold: str.lower would fold "Ü" and lengthen "İ".
        self.assertEqual(anchors.case_folded("ÜİX"), "Üix")
        self.assertEqual(rules.ascii_lowered("ÜİX"), "ÜİX".replace("X", "x"))

    def test_cue_entries_hold_no_group_of_their_own(self) -> None:
        # The cue pattern tells an entry by the empty group after it, the last one a match closes.
        for _, _, fragment in rules.CUE_RULES:
            with self.subTest(fragment=fragment):
                self.assertEqual(re.compile(fragment).groups, 0)

    def test_a_led_pattern_finds_the_same_matches(self) -> None:
        pattern = re.compile(r"(?<!\w)(?:can|may)\s+be\s+(?P<verb>set|used)\b", re.IGNORECASE)
        led = anchors.first_character_led(pattern)
        self.assertEqual(led.pattern[:11], "(?=[cm])(?:")
        text = "It CAN be set. Scan be used? It may  be Used, or mAy be set, and ſcan be set."
        self.assertEqual(
            [(match.span(), match["verb"]) for match in led.finditer(text)],
            [((3, 13), "set"), ((32, 44), "Used"), ((49, 59), "set")],
        )
        self.assertEqual([match.span() for match in pattern.finditer(text)], [(3, 13), (32, 44), (49, 59)])
        # A pattern whose first characters cannot be told is kept as it is.
        anywhere = re.compile(r"\w+ing")
        self.assertIs(anchors.first_character_led(anywhere), anywhere)

    def test_branches_that_all_open_on_a_word_start_test_it_once_first(self) -> None:
        pattern = re.compile(r"(?<!\w)(?:can|may)\s+be\s+set|(?<!\w)(?:is|are)\s+set\s+via", re.IGNORECASE)
        led = anchors.first_character_led(pattern)
        self.assertEqual(led.pattern[:20], r"(?<!\w)(?=[acim])(?:")
        text = "Scan be set. It can be set, or is set via X; Ais set via Y, and they ARE set via Z."
        self.assertEqual([match.span() for match in led.finditer(text)], [(16, 26), (31, 41), (69, 80)])
        self.assertEqual([match.span() for match in pattern.finditer(text)], [(16, 26), (31, 41), (69, 80)])
        # One branch already looks once; a branch without the look behind, or a group's own flags, keep the form.
        for kept in (r"(?<!\w)(?:can|may)\s+be", r"(?<!\w)can|may", r"(?i:(?<!\w)can)|(?<!\w)may"):
            with self.subTest(pattern=kept):
                self.assertFalse(anchors.branches_open_on_word_start(kept))
        self.assertTrue(anchors.branches_open_on_word_start(r"(?:(?<!\w)a|(?<!\w)b)c|(?<!\w)d"))

    def test_a_look_behind_before_a_literal_moves_after_it(self) -> None:
        pattern = re.compile(r"(?<![\w/-])I(?:'m)?(?!\w)")
        first = anchors.literal_first(pattern)
        self.assertEqual(first.pattern, r"I(?<![\w/-]I)(?:'m)?(?!\w)")
        text = "I said AI and I/O, so I'm -I in II."
        self.assertEqual([match.span() for match in first.finditer(text)], [(0, 1), (14, 15), (22, 25)])
        self.assertEqual([match.span() for match in pattern.finditer(text)], [(0, 1), (14, 15), (22, 25)])
        option = anchors.literal_first(re.compile(r"(?<![\w-])--?[a-z]+"))
        self.assertEqual(option.pattern, r"-(?<![\w-]-)-?[a-z]+")
        self.assertEqual(option.findall("Pass -v or --all, not x-y or ---z."), ["-v", "--all"])
        # Matched case-insensitively, opening otherwise, or with the character optional or repeated (a match need
        # not start on it: "s" alone is a match of the last), a pattern is kept as it is.
        for kept in (
            re.compile(r"(?<![\w])I", re.IGNORECASE),
            re.compile(r"(?<!\w)(?:I|we)"),
            re.compile(r"(?<![\w])I?s"),
            re.compile(r"(?<![\w-])-*x"),
        ):
            with self.subTest(pattern=kept.pattern):
                self.assertIs(anchors.literal_first(kept), kept)

    def test_an_opening_look_ahead_spells_the_first_letters(self) -> None:
        # "mustn't" and "must not" open with "must"; "can" stops at its space; "\d" stands for any digit, and an
        # optional "v" opens a literal of its own.
        self.assertEqual(
            anchors.opening_lookahead(r"mustn't|must\s+not|can\s+not|cannot|v?\d+\.\d"), r"(?=(?:\d|can|must|v))"
        )
        # Past four letters a literal is cut short: "deprecated" and "depends" share "depr" and "depe".
        self.assertEqual(anchors.opening_lookahead("deprecated|depends"), "(?=dep(?:e|r))")
        # An entry that may open on anything leaves the first characters, or no look ahead at all.
        self.assertEqual(anchors.opening_lookahead(r"must|\w+ly\s+not"), "")
        self.assertEqual(anchors.opening_lookahead(r"must|[a-z]+ly"), "")

    def test_word_start_branches_look_behind_their_first_character(self) -> None:
        literals = [tuple("can"), tuple("cause"), tuple("n't"), tuple("skip")]
        branches = anchors.trie_branches(literals, word_start=True)
        self.assertEqual(branches, [r"c(?<![^\W_]c)a(?:n|use)", r"n(?<![^\W_]n)'t", r"s(?<![^\W_]s)kip"])
        quick = re.compile("|".join(branches))
        plain = re.compile(r"(?<![^\W_])(?:can|cause|n't|skip)")
        text = "can't cause; scan, cancan _skip é-skip2 Cause 1can isn't x\x00n't"
        for start in range(len(text)):
            with self.subTest(start=start):
                self.assertEqual(
                    [match.span() for match in quick.finditer(text, start)],
                    [match.span() for match in plain.finditer(text, start)],
                )
        self.assertEqual(len(plain.findall(text)), 6)

    def test_the_cue_pattern_finds_what_its_entries_find(self) -> None:
        plain = re.compile(r"(?<![\w'’-])(?:" + rules.CUE_ENTRIES + r")(?![\w-])")
        text = (
            "you mustn't share it; it cannot be used, and is not supported before 3.10 or later. "
            "deprecated since 2.1: don't run it unless asked. it shouldn't fail, but only if set, "
            "and (required) values must match. the handle isn't closed - unmust cannot-be never."
        )
        for start in range(0, len(text), 7):
            with self.subTest(start=start):
                piece = text[start:]
                self.assertEqual(
                    [(match.span(), match.lastgroup) for match in rules.CUE_PATTERN.finditer(piece)],
                    [(match.span(), match.lastgroup) for match in plain.finditer(piece)],
                )
        self.assertGreater(len(plain.findall(text)), 12)


# Run in a fresh interpreter: what importing the rules asks of ``anchors``, read off afresh, against the table.
TABLE_CHECK = """
import json, sys
sys.path.insert(0, sys.argv[1])
from checks.caveats import anchors, pairing
fresh = anchors.table_answers()
print(json.dumps({"asked": len(fresh), "from_table": sum(key in anchors.WRITTEN_ANSWERS for key in fresh),
                  "same": fresh == anchors.WRITTEN_ANSWERS}))
"""


class WrittenDownTest(LabTestCase):
    """``anchor_table.py``: the answers importing the rules asks for, the same as read off the patterns."""

    def test_the_table_answers_what_importing_the_rules_asks_as_the_patterns_do(self) -> None:
        done = subprocess.run(
            [sys.executable, "-c", TABLE_CHECK, str(ROOT)], capture_output=True, text=True, timeout=60, check=False
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        figures = json.loads(done.stdout)
        stale = "stale: python tests/write_anchor_table.py writes it again"
        self.assertGreater(figures["asked"], 20)
        self.assertEqual(figures["from_table"], figures["asked"], stale)
        self.assertTrue(figures["same"], stale)

    def test_an_answer_is_taken_only_for_the_same_code_and_patterns(self) -> None:
        pattern = re.compile(r"(?<!\w)(?:must|should)\s+not")
        key = anchors.answer_key("anchor_patterns", ((pattern,),))
        # Another pattern, the same pattern with other flags, or another function: another key.
        self.assertNotEqual(key, anchors.answer_key("anchor_patterns", ((re.compile(r"(?<!\w)must\s+not"),),)))
        self.assertNotEqual(key, anchors.answer_key("anchor_patterns", ((re.compile(pattern.pattern, re.I),),)))
        self.assertNotEqual(key, anchors.answer_key("opening_lookahead", ((pattern,),)))
        # A table written for other bytes of anchors.py is not read.
        with mock.patch.object(anchors, "CODE_DIGEST", "0" * 64):
            self.assertEqual(anchors.written_answers(), {})
        self.assertEqual(anchors.written_answers(), anchors.WRITTEN_ANSWERS)
        self.assertNotEqual(anchors.WRITTEN_ANSWERS, {})

    def test_an_answer_written_and_revived_is_the_same(self) -> None:
        read_off = anchors.anchor_patterns.__wrapped__((re.compile(r"(?<!\w)must\s+not"),))
        revived = anchors.revived(anchors.written(read_off))
        self.assertEqual([found.pattern for found in revived], [found.pattern for found in read_off])
        self.assertEqual([found.flags for found in revived], [found.flags for found in read_off])
        self.assertIsNone(anchors.revived(anchors.written(None)))
        self.assertEqual(anchors.revived(anchors.written("(?=must)")), "(?=must)")
