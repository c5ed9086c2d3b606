"""Span checks: does one chunk hold both the instruction and its qualifier?

The comparison the lab exists for (``SPEC.md``, "The comparison"), for the
spec's single pair and for any number of named pairs from a manifest, and the
result that records it beside the three indexes (``SPEC.md``, "The result").
Pure functions over built indexes (``chunk_index``); no I/O.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import namedtuple
from itertools import accumulate, groupby
from operator import itemgetter, le

from chunk_index import EXECUTION_MODE, build_indexes, result_scope

# The comparison of any number of named pairs (see README, "Many span checks").
PAIRS_COMPARISON_KEYS = ("strategy", "chunk_count", "pairs_kept_together", "pairs")
DECLARED_PAIR_KEYS = ("name", "source_id", "instruction_span", "qualifier_span")


def chunk_holds(chunk: dict, start: int, end: int) -> bool:
    """Whether ``chunk`` holds all of ``[start, end)``: ``chunk.start <= start`` and ``end <= chunk.end``."""
    return chunk["start"] <= start and end <= chunk["end"]


class SourceChunks(namedtuple("SourceChunks", ("chunks", "starts", "ends", "ordered"))):
    """One source's chunks of one index in index order, with their starts and ends for bisection.

    ``ordered`` says both starts and ends never decrease, which every index
    the lab builds guarantees (chunks in offset order, none overlapping);
    only then are lookups by bisection, otherwise by a look at every chunk.
    """

    __slots__ = ()

    def holding(self, start: int, end: int) -> tuple[dict, ...]:
        """The chunks holding all of ``[start, end)``, in index order.

        With ordered chunks these are a run: those starting at or before
        ``start`` are a prefix, those ending at or after ``end`` a suffix.
        """
        if self.ordered:
            return self.chunks[bisect_left(self.ends, end) : bisect_right(self.starts, start)]
        return tuple(chunk for chunk in self.chunks if chunk_holds(chunk, start, end))

    def touching(self, start: int, end: int) -> tuple[dict, ...]:
        """The chunks sharing at least one character with ``[start, end)``, in index order."""
        if self.ordered:
            return self.chunks[bisect_right(self.ends, start) : bisect_left(self.starts, end)]
        return tuple(chunk for chunk in self.chunks if chunk["start"] < end and start < chunk["end"])

    def any_span_outside(self, *spans) -> bool:
        """Whether one of ``spans`` (``(start, end)`` pairs) shares no character with any chunk: a pair with such a
        span is apart, whatever boundary lies between (text the grammar reads as no block)."""
        return any(not self.touching(start, end) for start, end in spans)

    def first_edge_inside(self, low: int, high: int) -> int | None:
        """The smallest chunk start or end strictly between ``low`` and ``high``, or ``None``."""
        if not self.ordered:
            edges = [edge for chunk in self.chunks for edge in (chunk["start"], chunk["end"]) if low < edge < high]
            return min(edges, default=None)
        candidates = []
        for edges in (self.starts, self.ends):
            position = bisect_right(edges, low)
            if position < len(edges) and edges[position] < high:
                candidates.append(edges[position])
        return min(candidates, default=None)


class ReachingSpans:
    """Spans sorted by start, and the largest end over each stretch of them, to find the spans that reach a point.

    Another chunker's chunks may overlap and differ in length, so neither a
    bisection on starts nor one on ends finds the chunks holding a span. A look
    back bounded by the longest chunk degrades to every chunk once one chunk
    spans a page; descending a tree of maximum ends visits only the stretches
    that hold a span reaching the point, so a lookup costs its answer times a
    logarithm. ``ReachingSpans([(0, 9), (2, 4), (5, 6)]).reaching(3, 4)`` ->
    ``[0, 2]`` (the ends 9 and 6 pass 4; the end 4 does not).

    Most lookups need no tree: no span before the first whose running
    maximum end passes the point can reach it, so when few spans lie from
    there to ``count`` (always, for chunks that do not overlap: the running
    maximum is their own end) those are looked at one by one.
    """

    # Past this many candidates the tree's descent costs less than looking at each.
    LOOKED_AT = 16

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.ends = [end for _, end in spans]
        # running_ends[i]: the largest end among the first i + 1 spans (never decreasing).
        self.running_ends = list(accumulate(self.ends, max))
        self._tree: list[int] | None = None

    def tree(self) -> list[int]:
        """The tree of maximum ends (leaves the spans' ends, each node its children's larger), built on first need."""
        if self._tree is None:
            size = 1
            while size < len(self.ends):
                size *= 2
            tree = [-1] * (2 * size)
            tree[size : size + len(self.ends)] = self.ends
            for node in range(size - 1, 0, -1):
                tree[node] = max(tree[2 * node], tree[2 * node + 1])
            self._tree = tree
        return self._tree

    def reaching(self, count: int, point: int) -> list[int]:
        """Positions, ascending, among the first ``count`` spans, of those whose end is past ``point``."""
        first = bisect_right(self.running_ends, point)
        if count - first <= self.LOOKED_AT:
            ends = self.ends
            return [position for position in range(first, count) if ends[position] > point]
        tree = self.tree()
        found = []
        stack = [(1, 0, len(tree) // 2)]
        while stack:
            node, low, high = stack.pop()
            if low >= count or tree[node] <= point:
                continue
            if high - low == 1:
                found.append(low)
                continue
            middle = (low + high) // 2
            # The right half goes on the stack first, so the left is taken first and positions ascend.
            stack.append((2 * node + 1, middle, high))
            stack.append((2 * node, low, middle))
        return found


def source_chunks(chunks: list[dict]) -> SourceChunks:
    """``chunks`` (one source's, in index order) ready for lookups."""
    starts = tuple(map(itemgetter("start"), chunks))
    ends = tuple(map(itemgetter("end"), chunks))
    ordered = all(map(le, starts, starts[1:])) and all(map(le, ends, ends[1:]))
    return SourceChunks(tuple(chunks), starts, ends, ordered)


def chunks_by_source(index: dict, wanted: set[str] | None = None) -> dict[str, SourceChunks]:
    """Every source's chunks of ``index`` (those of ``wanted`` sources, when given), grouped once.

    Each pair then costs a bisection, not a pass over the index.
    """
    grouped: dict[str, list[dict]] = {}
    # The lab lists each source's chunks together, one run per source; any order gives the same groups.
    for source_id, run in groupby(index["chunks"], itemgetter("source_id")):
        if wanted is None or source_id in wanted:
            grouped.setdefault(source_id, []).extend(run)
    return {source_id: source_chunks(chunks) for source_id, chunks in grouped.items()}


NO_CHUNKS = SourceChunks((), (), (), True)


def compare_spans(
    name: str,
    index: dict,
    source_id: str,
    instruction: list[int],
    qualifier: list[int],
    by_source: dict[str, SourceChunks] | None = None,
) -> dict:
    """Whether one policy's index keeps ``instruction`` and ``qualifier`` in one chunk.

    Spans are ``[start, end)`` lists in ``source_id``'s text; a chunk holds a
    span when ``chunk.start <= start`` and ``end <= chunk.end``, and holds both
    when it holds the stretch from the first one's start to the last one's
    end. ``by_source`` (from ``chunks_by_source``) is reused across pairs.
    """
    lookup = (by_source if by_source is not None else chunks_by_source(index)).get(source_id, NO_CHUNKS)
    holding_ids, shared = span_verdict(lookup, instruction, qualifier)
    return {
        "strategy": name,
        "chunk_count": len(index["chunks"]),
        "instruction_span": list(instruction),
        "qualifier_span": list(qualifier),
        "instruction_containing_chunk_ids": holding_ids,
        "instruction_and_qualifier_share_chunk": shared,
    }


def span_verdict(lookup: SourceChunks, instruction: list[int], qualifier: list[int]) -> tuple[list[str], bool]:
    """The ids of the chunks holding ``instruction``, and whether one chunk holds it and ``qualifier``.

    A chunk holds both when it holds the stretch from the first span's start to the last one's end.
    """
    low = min(instruction[0], qualifier[0])
    high = max(instruction[1], qualifier[1])
    holding_ids = [chunk["chunk_id"] for chunk in lookup.holding(instruction[0], instruction[1])]
    return holding_ids, bool(lookup.holding(low, high))


def build_comparisons(indexes: dict, source_id: str, instruction: list[int], qualifier: list[int]) -> list[dict]:
    """One comparison per index, in the order ``indexes`` holds them (``POLICY_NAMES`` order in a result)."""
    return [compare_spans(name, index, source_id, instruction, qualifier) for name, index in indexes.items()]


def assembled_result(sources: list[dict] | tuple[dict, ...], indexes: dict, comparisons: list[dict]) -> dict:
    """A result's four keys in the order the spec lists them."""
    return {
        "execution_mode": EXECUTION_MODE,
        "fixture_scope": result_scope(sources),
        "comparisons": comparisons,
        "indexes": indexes,
    }


def build_result(
    sources: list[dict] | tuple[dict, ...], source_id: str, instruction: list[int], qualifier: list[int]
) -> dict:
    """The lab's result: the three indexes of ``sources`` and the span comparison."""
    indexes = build_indexes(sources)
    return assembled_result(sources, indexes, build_comparisons(indexes, source_id, instruction, qualifier))


# --- many named pairs ------------------------------------------------------------


def declared_pair(check) -> dict:
    """A manifest ``SpanCheck`` as a result records it: name, source and the two spans as lists."""
    return {
        "name": check.name,
        "source_id": check.source_id,
        "instruction_span": check.instruction.as_list(),
        "qualifier_span": check.qualifier.as_list(),
    }


def compare_pair(name: str, index: dict, pair: dict, by_source: dict[str, SourceChunks] | None = None) -> dict:
    """One declared pair under one policy: the pair, its instruction's chunk ids and the verdict.

    ``compare_spans``'s verdict, its spans, chunk ids and answer after the pair's name and source.
    """
    source_id = pair["source_id"]
    instruction = pair["instruction_span"]
    qualifier = pair["qualifier_span"]
    lookup = (by_source if by_source is not None else chunks_by_source(index)).get(source_id, NO_CHUNKS)
    holding_ids, shared = span_verdict(lookup, instruction, qualifier)
    return {
        "name": pair["name"],
        "source_id": source_id,
        "instruction_span": list(instruction),
        "qualifier_span": list(qualifier),
        "instruction_containing_chunk_ids": holding_ids,
        "instruction_and_qualifier_share_chunk": shared,
    }


def compare_pairs(name: str, index: dict, pairs: list[dict]) -> dict:
    """One policy's comparison of every declared pair, with how many it keeps in one chunk.

    The index's chunks are grouped by source once, so the cost is near-linear
    in pairs plus chunks rather than their product.
    """
    by_source = chunks_by_source(index, {pair["source_id"] for pair in pairs})
    compared = [compare_pair(name, index, pair, by_source) for pair in pairs]
    return {
        "strategy": name,
        "chunk_count": len(index["chunks"]),
        "pairs_kept_together": sum(pair["instruction_and_qualifier_share_chunk"] for pair in compared),
        "pairs": compared,
    }


def build_pair_comparisons(indexes: dict, pairs: list[dict]) -> list[dict]:
    """The named-pairs comparisons, one per index, in the order ``indexes`` holds them."""
    return [compare_pairs(name, index, pairs) for name, index in indexes.items()]


def checked_comparisons(indexes: dict, span_checks) -> list[dict]:
    """The comparisons of a manifest's span checks, in the shape their number calls for.

    Exactly one check keeps the spec's comparison shape, so the fixture's
    result stays byte-identical to the reference. Any other number (none
    included) records every pair by name and source, so the validator can
    re-derive each verdict from the result alone.
    """
    if len(span_checks) == 1:
        check = span_checks[0]
        return build_comparisons(indexes, check.source_id, check.instruction.as_list(), check.qualifier.as_list())
    return build_pair_comparisons(indexes, [declared_pair(check) for check in span_checks])


def build_checked_result(
    sources: list[dict] | tuple[dict, ...],
    span_checks,
    configs: dict | None = None,
    progress=None,
    section_cache=None,
    encoded: list | None = None,
    chunk_texts: bool = True,
) -> dict:
    """The lab's result for a manifest: its indexes and the comparison of its span checks.

    ``configs`` are the manifest's (``chunk_index.manifest_configs``); the lesson's three when ``None``.
    ``progress(1, size)`` is called after each document (see ``chunk_index.build_policy_indexes``);
    ``section_cache`` keeps each document's sections for a later look (``chunk_index.pair_placements``);
    ``encoded`` gets the indexes' texts as JSON, for the writer, the chunks' only with
    ``chunk_texts`` (``chunk_index.build_policy_indexes``).
    """
    indexes = build_indexes(sources, configs, progress, section_cache, encoded, chunk_texts)
    return assembled_result(sources, indexes, checked_comparisons(indexes, span_checks))


def is_pairs_comparison(comparisons: object) -> bool:
    """Whether saved comparisons use the named-pairs shape rather than the spec's single-pair one."""
    return (
        type(comparisons) is list and bool(comparisons) and type(comparisons[0]) is dict and "pairs" in comparisons[0]
    )


def pair_outcomes(comparison: dict) -> list[tuple[str | None, bool]]:
    """``[(name, kept), ...]`` for one policy's comparison of either shape; the spec's pair has no name."""
    if "pairs" in comparison:
        return [(pair["name"], pair["instruction_and_qualifier_share_chunk"]) for pair in comparison["pairs"]]
    return [(None, comparison["instruction_and_qualifier_share_chunk"])]
