"""Span checks: does one chunk hold both the instruction and its qualifier?

The comparison the lab exists for (``SPEC.md``, "The comparison"), for the
spec's single pair and for any number of named pairs from a manifest, and the
result that records it beside the three indexes (``SPEC.md``, "The result").
Pure functions over built indexes (``chunk_index``); no I/O.
"""

from __future__ import annotations

from chunk_index import EXECUTION_MODE, POLICY_NAMES, build_indexes, result_scope

# The comparison of any number of named pairs (see README, "Many span checks").
PAIRS_COMPARISON_KEYS = ("strategy", "chunk_count", "pairs_kept_together", "pairs")
DECLARED_PAIR_KEYS = ("name", "source_id", "instruction_span", "qualifier_span")
PAIR_VERDICT_KEYS = (
    "instruction_span",
    "qualifier_span",
    "instruction_containing_chunk_ids",
    "instruction_and_qualifier_share_chunk",
)


def chunk_holds(chunk: dict, start: int, end: int) -> bool:
    """Whether ``chunk`` holds all of ``[start, end)``: ``chunk.start <= start`` and ``end <= chunk.end``."""
    return chunk["start"] <= start and end <= chunk["end"]


def compare_spans(name: str, index: dict, source_id: str, instruction: list[int], qualifier: list[int]) -> dict:
    """Whether one policy's index keeps ``instruction`` and ``qualifier`` in one chunk.

    Spans are ``[start, end)`` lists in ``source_id``'s text; a chunk holds a
    span when ``chunk.start <= start`` and ``end <= chunk.end``.
    """

    def holds(chunk: dict, span: list[int]) -> bool:
        return chunk_holds(chunk, span[0], span[1])

    chunks = [chunk for chunk in index["chunks"] if chunk["source_id"] == source_id]
    return {
        "strategy": name,
        "chunk_count": len(index["chunks"]),
        "instruction_span": list(instruction),
        "qualifier_span": list(qualifier),
        "instruction_containing_chunk_ids": [chunk["chunk_id"] for chunk in chunks if holds(chunk, instruction)],
        "instruction_and_qualifier_share_chunk": any(
            holds(chunk, instruction) and holds(chunk, qualifier) for chunk in chunks
        ),
    }


def build_comparisons(indexes: dict, source_id: str, instruction: list[int], qualifier: list[int]) -> list[dict]:
    """One comparison per policy, in ``POLICY_NAMES`` order."""
    return [compare_spans(name, indexes[name], source_id, instruction, qualifier) for name in POLICY_NAMES]


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


def compare_pair(name: str, index: dict, pair: dict) -> dict:
    """One declared pair under one policy: the pair, its instruction's chunk ids and the verdict."""
    verdict = compare_spans(name, index, pair["source_id"], pair["instruction_span"], pair["qualifier_span"])
    return {"name": pair["name"], "source_id": pair["source_id"], **{key: verdict[key] for key in PAIR_VERDICT_KEYS}}


def compare_pairs(name: str, index: dict, pairs: list[dict]) -> dict:
    """One policy's comparison of every declared pair, with how many it keeps in one chunk."""
    compared = [compare_pair(name, index, pair) for pair in pairs]
    return {
        "strategy": name,
        "chunk_count": len(index["chunks"]),
        "pairs_kept_together": sum(pair["instruction_and_qualifier_share_chunk"] for pair in compared),
        "pairs": compared,
    }


def build_pair_comparisons(indexes: dict, pairs: list[dict]) -> list[dict]:
    """The named-pairs comparisons, one per policy in ``POLICY_NAMES`` order."""
    return [compare_pairs(name, indexes[name], pairs) for name in POLICY_NAMES]


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


def build_checked_result(sources: list[dict] | tuple[dict, ...], span_checks, configs: dict | None = None) -> dict:
    """The lab's result for a manifest: the three indexes and the comparison of its span checks.

    ``configs`` are the manifest's (``chunk_index.manifest_configs``); the lesson's three when ``None``.
    """
    indexes = build_indexes(sources, configs)
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
