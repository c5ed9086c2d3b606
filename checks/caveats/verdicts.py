"""Whether each policy keeps a found pair in one chunk and, if not, what cut it; which pairs are declared."""

from __future__ import annotations

from bisect import bisect_right
from types import MappingProxyType
from typing import TYPE_CHECKING

import grammars
from checks import span_checks
from load_documents import Span

if TYPE_CHECKING:
    # Named in an annotation only: the views that read a pair's verdicts (show, the reports) need none of the
    # scan's rules, whose patterns take about 0.14 s to compile.
    from checks.caveats.findings import FoundPair

# pair-aware leaves a pair of one section split only past its cap, where a size-target boundary falls.
SPLIT_REASONS = MappingProxyType(
    {
        "fixed-char": "fixed-width cut",
        "paragraph": "block break",
        "heading-aware": "size target",
        "pair-aware": "size target",
    }
)
HEADING_REASON = "heading"
# Not in one chunk because a span lies in none: text the grammar reads as no block (a paragraph of shortcode calls
# alone, under the block grammars from "blocks-4"), which no boundary cut away. ``show`` and the report say "apart".
APART_REASON = "apart"
REASON_ORDER = (HEADING_REASON, "block break", "size target", "fixed-width cut", APART_REASON)


def policy_verdict(policy: str, chunks: span_checks.SourceChunks | None, headings: list[int], check) -> dict:
    """Whether one chunk of ``policy`` holds both spans of ``check``; if not, where and why they are cut.

    The reason follows from the spans and the policy's rule: a span that no chunk
    touches lies in none (``apart``, whatever lies between); else a heading between
    the spans ends every chunk; otherwise fixed-char cuts at its width,
    paragraph at every block break, and heading-aware only where the next block
    would take the group past its size target.
    """
    instruction, qualifier = check.instruction, check.qualifier
    low = min(instruction.start, qualifier.start)
    high = max(instruction.end, qualifier.end)
    if chunks is not None:
        if chunks.holding(low, high):
            return {"same_chunk": True, "split_by": None, "boundary": None}
    if chunks is None or chunks.any_span_outside(
        (instruction.start, instruction.end), (qualifier.start, qualifier.end)
    ):
        return {"same_chunk": False, "split_by": APART_REASON, "boundary": None}
    boundary = chunks.first_edge_inside(low, high)
    position = bisect_right(headings, low)
    if position < len(headings) and headings[position] < high:
        reason = HEADING_REASON
    else:
        reason = SPLIT_REASONS[policy]
    return {"same_chunk": False, "split_by": reason, "boundary": boundary}


def heading_offsets(sources, grammar: str) -> dict[str, list[int]]:
    """Every source's section heading offsets, for telling a heading between two spans."""
    return {
        source["source_id"]: [
            section.heading_start
            for section in grammars.document_sections(source["text"], grammar, source["source_id"])
        ]
        for source in sources
    }


def spans_overlap(first: Span, second: Span) -> bool:
    return first.start < second.end and second.start < first.end


def same_pair(pair, check) -> bool:
    """Whether a found pair is ``check`` already: one source, overlapping instructions and overlapping qualifiers.

    Overlap rather than equality, so a hand-declared check quoting only
    ``Call save_copy(path, text)`` counts as the scanned sentence it lies in.
    """
    return (
        pair.source_id == check.source_id
        and spans_overlap(pair.instruction, check.instruction)
        and spans_overlap(pair.qualifier, check.qualifier)
    )


def declared_names(pairs: list[FoundPair], checks) -> list[str | None]:
    """For each found pair, the name of the first check (manifest order) it already is, or ``None``.

    Checks are indexed by source and qualifier start once, so each pair looks
    only at the checks whose qualifier could overlap its own.
    """
    groups: dict[str, list[tuple[int, int, object]]] = {}
    for position, check in enumerate(checks):
        groups.setdefault(check.source_id, []).append((check.qualifier.start, position, check))
    indexed = {}
    for source_id, group in groups.items():
        group.sort(key=lambda entry: entry[:2])
        longest = max(check.qualifier.end - check.qualifier.start for _, _, check in group)
        indexed[source_id] = ([start for start, _, _ in group], group, longest)
    names = []
    for pair in pairs:
        name = None
        if pair.source_id in indexed:
            starts, group, longest = indexed[pair.source_id]
            first = bisect_right(starts, pair.qualifier.start - longest)
            last = bisect_right(starts, pair.qualifier.end - 1)
            matches = [(position, check) for _, position, check in group[first:last] if same_pair(pair, check)]
            name = min(matches, key=lambda match: match[0])[1].name if matches else None
        names.append(name)
    return names
