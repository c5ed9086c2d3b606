"""Pair each caveat with its instruction, section by section: ``run.py scan``'s proposals.

Reads one source's sections block by block (``section_caveats_and_sentences``),
keeps the recent instruction sentences, and gives each caveat the nearest one
that shares an identifier with it, else the nearest (``chosen_instruction``).
It reads no files and writes none; ``run.py`` does the I/O.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from dataclasses import dataclass

import chunk_index
import grammars
from checks.caveats.masking import fence_spans, masked_code
from checks.caveats.rules import (
    cautionary_cue,
    first_cue,
    is_instruction,
    opening_anaphor,
    sentence_identifiers,
    sentence_words,
)
from checks.caveats.sentences import normalized_text, sentence_spans, table_row_spans
from load_documents import Span, SpanCheck

SCAN_VERSION = 1
# How far back an instruction may sit: the caveat's own block and this many before it.
LOOK_BACK_BLOCKS = 3
# At most this many candidate instructions are weighed per caveat, so a scan stays linear.
MAX_CANDIDATES = 16
NAME_PREFIX = "scan:"


@dataclass(frozen=True)
class Sentence:
    """One sentence of a source: ``[start, end)`` and what the scan rules see in it."""

    start: int
    end: int
    block: int
    cue: str | None
    is_instruction: bool
    identifiers: frozenset[str]
    words: frozenset[str]
    anaphor: str | None
    # The text with every run of whitespace one space: a copy of the sentence elsewhere on the page is equal.
    normalized: str


@dataclass(frozen=True)
class Caveat:
    """A caveat before pairing: a cue sentence, or a cautionary block as a whole."""

    start: int
    end: int
    block: int
    cue: str
    words: frozenset[str]
    anaphor: str | None
    normalized: str


@dataclass(frozen=True)
class FoundPair:
    """An instruction and the caveat after it, with the cue and the link that paired them."""

    name: str
    source_id: str
    instruction: Span
    qualifier: Span
    cue: str
    link: str
    line: int

    def as_check(self) -> SpanCheck:
        return SpanCheck(self.name, self.source_id, self.instruction, self.qualifier)


@dataclass(frozen=True)
class Unpaired:
    """A caveat with no instruction within reach."""

    source_id: str
    span: Span
    cue: str
    line: int


def section_caveats_and_sentences(
    text: str, masked: str, code_spans: list, fences: list, section: grammars.Section
) -> list[Sentence | Caveat]:
    """A section's sentences and cautionary blocks in text order; a cautionary block replaces its sentences."""
    items: list[Sentence | Caveat] = []
    for number, block in enumerate(section.blocks):
        if block.kind == "fence":
            continue
        spans = (
            table_row_spans(masked, block.start, block.end)
            if block.kind == "table"
            else sentence_spans(masked, block.start, block.end, fences)
        )
        cue = cautionary_cue(block)
        if cue is not None:
            # The whole block is the caveat, its marker line included: the marker says how grave it is.
            start = block.start + len(text[block.start : block.end]) - len(text[block.start : block.end].lstrip())
            end = block.start + len(text[block.start : block.end].rstrip())
            if start < end:
                anaphor = opening_anaphor(masked[spans[0][0] : spans[0][1]]) if spans else None
                words = sentence_words(text, start, end)
                items.append(Caveat(start, end, number, cue, words, anaphor, normalized_text(text, start, end)))
            continue
        for start, end in spans:
            masked_sentence = masked[start:end]
            items.append(
                Sentence(
                    start,
                    end,
                    number,
                    first_cue(masked_sentence),
                    is_instruction(text, masked, start, end, code_spans),
                    sentence_identifiers(text, masked, start, end, code_spans),
                    sentence_words(text, start, end),
                    opening_anaphor(masked_sentence),
                    normalized_text(text, start, end),
                )
            )
    return items


def chosen_instruction(candidates, caveat: Sentence | Caveat) -> tuple[Sentence, str] | None:
    """The instruction for ``caveat`` among ``candidates`` (nearest last) and how they are linked.

    A candidate that overlaps the caveat or is a copy of it (the same text once
    whitespace is normalized: a sentence repeated further down the page) is
    never its instruction. Among the others, the nearest sharing an identifier
    with the caveat wins (``"identifier save_copy"``); else the nearest, linked
    by the caveat's opening anaphor if it has one (``"anaphor This operation"``)
    or by nearness alone (``"nearest"``).
    """
    usable = [
        candidate
        for candidate in candidates
        if not (candidate.start < caveat.end and caveat.start < candidate.end)
        and candidate.normalized != caveat.normalized
    ]
    if not usable:
        return None
    for candidate in reversed(usable):
        shared = candidate.identifiers & caveat.words
        if shared:
            return candidate, f"identifier {min(shared)}"
    nearest = usable[-1]
    return nearest, ("nearest" if caveat.anaphor is None else f"anaphor {caveat.anaphor}")


def scan_text(
    source_id: str, text: str, grammar: str = grammars.LESSON_GRAMMAR
) -> tuple[list[FoundPair], list[Unpaired]]:
    """Every instruction/caveat pair of one source under ``grammar``, and the caveats left unpaired."""
    return scan_sections(source_id, text, grammars.document_sections(text, grammar, source_id))


def scan_sections(source_id: str, text: str, sections) -> tuple[list[FoundPair], list[Unpaired]]:
    """Every instruction/caveat pair of one source's ``sections``, in caveat order, and the caveats left unpaired.

    Linear in the text: each sentence is looked at once, and each caveat weighs
    at most ``MAX_CANDIDATES`` earlier instruction sentences.
    """
    sections = tuple(sections)
    fences = fence_spans(text, sections)
    masked, code_spans = masked_code(text, fences)
    newlines = chunk_index.newline_offsets(text)
    pairs: list[FoundPair] = []
    unpaired: list[Unpaired] = []
    names_on_line: dict[int, int] = {}
    for section in sections:
        candidates: deque[Sentence] = deque(maxlen=MAX_CANDIDATES)
        for item in section_caveats_and_sentences(text, masked, code_spans, fences, section):
            while candidates and candidates[0].block < item.block - LOOK_BACK_BLOCKS:
                candidates.popleft()
            caveat_cue = item.cue
            if caveat_cue is not None:
                line = bisect_right(newlines, item.start - 1) + 1
                qualifier = Span(item.start, item.end, text[item.start : item.end])
                chosen = chosen_instruction(candidates, item)
                if chosen is None:
                    unpaired.append(Unpaired(source_id, qualifier, caveat_cue, line))
                else:
                    instruction, link = chosen
                    count = names_on_line.get(line, 0) + 1
                    names_on_line[line] = count
                    name = f"{NAME_PREFIX}{source_id}:{line}" + ("" if count == 1 else f"#{count}")
                    pairs.append(
                        FoundPair(
                            name,
                            source_id,
                            Span(instruction.start, instruction.end, text[instruction.start : instruction.end]),
                            qualifier,
                            caveat_cue,
                            link,
                            line,
                        )
                    )
            if isinstance(item, Sentence) and item.is_instruction:
                candidates.append(item)
    return pairs, unpaired


def scan_sources(sources, grammar: str = grammars.LESSON_GRAMMAR) -> tuple[list[FoundPair], list[Unpaired]]:
    """``scan_text`` over every source, in ``source_id`` order."""
    pairs: list[FoundPair] = []
    unpaired: list[Unpaired] = []
    for source in sorted(sources, key=lambda source: source["source_id"]):
        found, left = scan_text(source["source_id"], source["text"], grammar)
        pairs.extend(found)
        unpaired.extend(left)
    return pairs, unpaired
