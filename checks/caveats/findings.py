"""What a scan finds, named and tiered: the found pair and the caveat left unpaired, their names, the tiers a scan
keeps, and the sections a page is read in.

``pairing`` finds them, by the rules; everything that only reads, keeps or shows them (the scan's cache, its report,
the review, ``--add-checks``) needs this module alone, so a scan whose every page its cache answers compiles none of
the rules' patterns.
"""

from __future__ import annotations

from dataclasses import dataclass

import grammars
from load_documents import Span, SpanCheck

SCAN_VERSION = 74
# How far an instruction may sit from its caveat, in blocks of prose (code blocks are not counted):
# the caveat's own block and this many before it, or this many after it; one that shares an
# identifier with the caveat may sit as far back as IDENTIFIER_BLOCKS.
LOOK_BACK_BLOCKS = 3
LOOK_AHEAD_BLOCKS = 3
IDENTIFIER_BLOCKS = 6
# At most this many sentences are looked at on either side of a caveat, so a scan stays linear.
MAX_CANDIDATES = 16
NAME_PREFIX = "scan:"
# The tiers: 1 the strongest. A pair's tier is the weakest of its cue's, its link's and its instruction's.
TIERS = (1, 2, 3)
# What scan, --add-checks and context --scanned keep unless told otherwise (--tier): on the development set
# the pairs of tier 3 are right half the time or less (docs/caveats.md, "Measure the scan").
DEFAULT_TIER = 2
# The forms that tell the reader what to do outright.
DIRECT_FORMS = frozenset({"imperative", "to-clause", "second person"})
# The instruction forms whose pairs are no stronger than tier 2: they instruct less directly. The last, a sentence
# whose subject is a name given as code ("`preload` is a Route property for …", scan_version 28), is
# ``DESCRIBED_FORM``.
INDIRECT_FORMS = frozenset({"tutorial step", "api usage", "step before code", "api description"})
DESCRIBED_FORM = "api description"


@dataclass(frozen=True)
class FoundPair:
    """An instruction and the caveat it qualifies, with the rule, cue, link and tier that paired them."""

    name: str
    source_id: str
    instruction: Span
    qualifier: Span
    rule: str
    cue: str
    link: str
    tier: int
    instruction_form: str
    line: int
    # The cue's own tier: with ``--tier`` below the pair's tier, the caveat is still reported, unpaired.
    caveat_tier: int = 1

    def as_check(self) -> SpanCheck:
        return SpanCheck(self.name, self.source_id, self.instruction, self.qualifier)


@dataclass(frozen=True)
class Unpaired:
    """A caveat reported without an instruction: none is in reach, or its pair is weaker than the tier kept."""

    source_id: str
    span: Span
    rule: str
    cue: str
    tier: int
    line: int
    reason: str = "no instruction in reach"


def pair_name(source_id: str, line: int, names_on_line: dict[int, int]) -> str:
    """A found pair's name: ``scan:SOURCE:LINE`` after its caveat's first line, ``#2`` on for the next pairs
    of that line in caveat order (``names_on_line`` counts them, page by page)."""
    count = names_on_line.get(line, 0) + 1
    names_on_line[line] = count
    return f"{NAME_PREFIX}{source_id}:{line}" + ("" if count == 1 else f"#{count}")


def kept_to_tier(found: tuple[list[FoundPair], list[Unpaired]], tier: int) -> tuple[list[FoundPair], list[Unpaired]]:
    """The pairs of ``tier`` or stronger, and the caveats reported unpaired at that tier.

    A caveat whose own cue is of ``tier`` or stronger but whose pair is weaker (a weak link, an
    indirect instruction) is still a caveat found: it is reported unpaired, its reason saying so.
    """
    pairs, unpaired = found
    kept = [pair for pair in pairs if pair.tier <= tier]
    left = [item for item in unpaired if item.tier <= tier]
    left.extend(
        Unpaired(
            pair.source_id,
            pair.qualifier,
            pair.rule,
            pair.cue,
            pair.caveat_tier,
            pair.line,
            f"its pair is tier {pair.tier}, weaker than tier {tier}",
        )
        for pair in pairs
        if pair.tier > tier and pair.caveat_tier <= tier
    )
    left.sort(key=lambda item: (item.source_id, item.span.start))
    return kept, left


def scanned_sections(source: dict, grammar: str, section_cache: dict | None = None) -> list:
    """The sections the scan reads ``source`` in (``document_sections``), read once per ``section_cache``.

    The text before a page's first heading is a section named by the source's title, as the grammar and
    every index name it. ``section_cache`` is the build's (``chunk_index.document_sections_once``: keyed by
    grammar and source id, holding the text, title and sections), so the outlines the verdicts need read
    no page again; a hit must hold the same text and title.
    """
    text = source["text"]
    title = source.get("title", "")
    key = (grammar, source["source_id"])
    cached = None if section_cache is None else section_cache.get(key)
    if cached is not None and cached[:2] == (text, title):
        return cached[2]
    sections = grammars.document_sections(text, grammar, source["source_id"], title)
    kept_sections(section_cache, source, grammar, sections)
    return sections


def kept_sections(section_cache: dict | None, source: dict, grammar: str, sections: list) -> None:
    """Keep ``source``'s ``sections`` (read under ``grammar``, here or by a worker) where ``scanned_sections``
    finds them."""
    if section_cache is not None:
        section_cache[(grammar, source["source_id"])] = (source["text"], source.get("title", ""), sections)
