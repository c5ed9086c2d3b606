"""Sweep the chunk size: which heading-aware targets and fixed-char widths keep each pair together.

For every size the sweep cuts the manifest's sources with the heading-aware and
fixed-char rules at that size and counts chunks, their mean length and the
declared pairs that share a chunk. For each pair it also finds, exactly, the
smallest heading-aware target that keeps it together.

Sweep configs live only in memory and in the printed table: nothing here is
saved. The table ends with the manifest line (``"policies": {...}``) that
builds an index at the target it found. The sweep reads sections and blocks
with the manifest's grammar. Only spans are cut (no hashes), which is what
makes a sweep of dozens of sizes cheap; the spans are the same
``chunk_index`` cuts for a build.
"""

from __future__ import annotations

import heapq
import json
from bisect import bisect_left
from dataclasses import dataclass
from typing import Iterator

import chunk_index
import markdown_grammar
from errors import printable
from load_documents import MAX_SOURCE_BYTES, Manifest, SpanCheck
from summary import NO_SPAN_CHECKS

SWEPT_POLICIES = ("heading-aware", "fixed-char")
# 40 to 600 in steps of 20 holds both supported sizes (80 and 220) and runs
# from "a sentence" to "a whole short section".
DEFAULT_SIZES = tuple(range(40, 601, 20))
# A size beyond the largest source cannot change a cut, and a sweep of more
# sizes than this is a plot of noise.
MAX_SIZE = MAX_SOURCE_BYTES
MAX_SIZE_COUNT = 1000

NEVER_ACROSS_HEADING = "never: a heading separates them"
NEVER_IN_HEADING = "never: a span touches a heading line, which no chunk holds"
NEVER_OUTSIDE_PARAGRAPHS = "never: a span reaches blank lines outside the section's paragraphs"


@dataclass(frozen=True)
class PairTarget:
    """The smallest heading-aware target keeping one pair together (``None``: no target does) and why."""

    check: SpanCheck
    target: int | None
    verdict: str


def sweep_config(strategy: str, size: int, grammar: str = markdown_grammar.LESSON_GRAMMAR) -> dict:
    """A policy's config at ``size`` under ``grammar``, as a manifest setting that size would build it."""
    return chunk_index.policy_config(strategy, size, grammar)


def holds(chunk: tuple[int, int], span: tuple[int, int]) -> bool:
    """Whether the chunk ``[start, end)`` holds the whole span: ``holds((0, 10), (2, 5))`` -> ``True``."""
    return chunk[0] <= span[0] and span[1] <= chunk[1]


def keeps_pair(chunks: list[tuple[int, int]], check: SpanCheck) -> bool:
    """Whether one chunk of the pair's source holds both its spans."""
    instruction = (check.instruction.start, check.instruction.end)
    qualifier = (check.qualifier.start, check.qualifier.end)
    return any(holds(chunk, instruction) and holds(chunk, qualifier) for chunk in chunks)


def source_chunks(config: dict, text: str, sections: list[markdown_grammar.Section]) -> list[tuple[int, int]]:
    """Every chunk span ``config`` cuts from one source, section by section, as a build would."""
    return [span for section in sections for span in chunk_index.section_chunk_spans(config, text, section)]


def policy_row(config: dict, texts: dict[str, str], sections: dict[str, list], checks: tuple[SpanCheck, ...]) -> dict:
    """Chunk count, mean chunk length and kept pairs for one config over every source."""
    chunks = {source_id: source_chunks(config, text, sections[source_id]) for source_id, text in texts.items()}
    lengths = [end - start for spans in chunks.values() for start, end in spans]
    kept = [check.name for check in checks if keeps_pair(chunks[check.source_id], check)]
    return {
        "chunk_count": len(lengths),
        "mean_chunk_chars": round(sum(lengths) / len(lengths), 1) if lengths else 0.0,
        "pairs_kept_together": len(kept),
        "kept_pairs": kept,
    }


def section_holding(sections: list[markdown_grammar.Section], start: int, end: int) -> markdown_grammar.Section | None:
    """The section whose body holds all of ``[start, end)``, or ``None`` (a heading line or a heading in between)."""
    for section in sections:
        if section.body_start <= start and end <= section.body_end:
            return section
    return None


def grouping_thresholds(paragraphs: list[tuple[int, int]], floor: int) -> Iterator[int]:
    """Every distinct ``later_end - earlier_start`` of ``paragraphs`` that is at least ``floor``, ascending.

    These are the only targets at which greedy grouping can change. They are
    merged lazily from one increasing run per earlier paragraph, so a long
    section costs memory in its paragraph count, not its square.
    ``list(grouping_thresholds([(0, 10), (11, 20), (21, 40)], 1))`` -> ``[20, 29, 40]``.
    """
    ends = [paragraph_end for _, paragraph_end in paragraphs]
    runs = []
    for earlier, (earlier_start, _) in enumerate(paragraphs):
        later = max(earlier + 1, bisect_left(ends, earlier_start + floor))
        if later < len(paragraphs):
            runs.append((ends[later] - earlier_start, earlier, later))
    heapq.heapify(runs)
    previous = None
    while runs:
        threshold, earlier, later = heapq.heappop(runs)
        if threshold != previous:
            yield threshold
            previous = threshold
        if later + 1 < len(paragraphs):
            heapq.heappush(runs, (ends[later + 1] - paragraphs[earlier][0], earlier, later + 1))


def smallest_grouping_target(paragraphs: list[tuple[int, int]], start: int, end: int) -> int | None:
    """The smallest heading-aware target whose groups hold ``[start, end)`` whole, or ``None``.

    Greedy grouping is not monotonic in the target: a larger target can pull
    an earlier paragraph into a group and push the pair's boundary between its
    spans. But the groups change only where ``paragraph_end - group_start``
    crosses the target, with ``group_start`` some earlier paragraph's start, so
    trying each such difference (and 1, where every paragraph stands alone) is
    exact. ``smallest_grouping_target([(0, 10), (11, 20), (21, 40)], 11, 40)``
    -> ``40`` (at 29, which is ``40 - 11``, the first two group and the pair splits).
    """

    def kept(target: int) -> bool:
        return any(holds(group, (start, end)) for group in chunk_index.grouped_spans(relevant, target))

    # Paragraphs after the first one reaching ``end`` cannot move the start of
    # the group that must hold the span, so they are left out of the search.
    last = next((index for index, (_, paragraph_end) in enumerate(paragraphs) if paragraph_end >= end), None)
    if last is None:
        return None
    relevant = paragraphs[: last + 1]
    if kept(1):
        return 1
    # A group of several paragraphs spans at most the target, so it must be at least the span.
    return next((target for target in grouping_thresholds(relevant, end - start) if kept(target)), None)


def pair_target(check: SpanCheck, text: str, sections: list[markdown_grammar.Section]) -> PairTarget:
    """The smallest heading-aware target for one declared pair, with a verdict a person reads."""
    instruction = section_holding(sections, check.instruction.start, check.instruction.end)
    qualifier = section_holding(sections, check.qualifier.start, check.qualifier.end)
    if instruction is None or qualifier is None:
        return PairTarget(check, None, NEVER_IN_HEADING)
    if instruction != qualifier:
        return PairTarget(check, None, NEVER_ACROSS_HEADING)
    paragraphs = [(block.start, block.end) for block in instruction.blocks]
    start = min(check.instruction.start, check.qualifier.start)
    end = max(check.instruction.end, check.qualifier.end)
    target = smallest_grouping_target(paragraphs, start, end)
    if target is None:
        return PairTarget(check, None, NEVER_OUTSIDE_PARAGRAPHS)
    if target == 1:
        return PairTarget(check, 1, "any target: one paragraph holds both")
    return PairTarget(check, target, str(target))


def run_sweep(manifest: Manifest, sizes: tuple[int, ...]) -> dict:
    """The sweep as plain data: one row per size, the paragraph policy for reference, and each pair's target."""
    texts = {source["source_id"]: source["text"] for source in manifest.sources}
    grammar = manifest.grammar
    sections = {
        source["source_id"]: markdown_grammar.document_sections(
            source["text"], grammar, source["source_id"], source["title"]
        )
        for source in manifest.sources
    }
    checks = manifest.span_checks
    rows = [
        {
            "size": size,
            **{
                strategy: policy_row(sweep_config(strategy, size, grammar), texts, sections, checks)
                for strategy in SWEPT_POLICIES
            },
        }
        for size in sizes
    ]
    targets = [pair_target(check, texts[check.source_id], sections[check.source_id]) for check in checks]
    return {
        "sizes": list(sizes),
        "pair_count": len(checks),
        "rows": rows,
        "paragraph": policy_row(chunk_index.policy_config("paragraph", None, grammar), texts, sections, checks),
        "pairs": [
            {
                "name": found.check.name,
                "source_id": found.check.source_id,
                "instruction_span": found.check.instruction.as_list(),
                "qualifier_span": found.check.qualifier.as_list(),
                "smallest_heading_aware_target": found.target,
                "verdict": found.verdict,
            }
            for found in targets
        ],
    }


def sweep_json(sweep: dict) -> str:
    """The sweep for plotting: JSON with every non-ASCII character escaped, so it is inert in any terminal."""
    return json.dumps(sweep, indent=2, ensure_ascii=True)


def sweep_table(sweep: dict) -> str:
    """The sweep as a table a person reads: one line per size, then each pair's smallest target."""
    total = sweep["pair_count"]

    def cells(row: dict) -> str:
        return (
            f"{row['chunk_count']:>6}  {row['mean_chunk_chars']:>10.1f}  {row['pairs_kept_together']:>4} of {total:<4}"
        )

    lines = [
        f"{'':>5}  {'heading-aware target':<32}  {'fixed-char width'}",
        f"{'size':>5}  {'chunks':>6}  {'mean chars':>10}  {'kept pairs':<12}  {'chunks':>6}  {'mean chars':>10}  kept pairs",
    ]
    for row in sweep["rows"]:
        lines.append(f"{row['size']:>5}  {cells(row['heading-aware'])}  {cells(row['fixed-char'])}".rstrip())
    paragraph = sweep["paragraph"]
    lines.append(
        f"paragraph (no size): {paragraph['chunk_count']} chunks, mean {paragraph['mean_chunk_chars']:.1f} chars, "
        f"pairs kept together: {paragraph['pairs_kept_together']} of {total}"
    )
    lines.append("")
    if not sweep["pairs"]:
        lines.append(NO_SPAN_CHECKS)
        return "\n".join(lines)
    lines.append("smallest heading-aware target that keeps each pair together:")
    for pair in sweep["pairs"]:
        lines.append(f"  {printable(pair['name'])} ({printable(pair['source_id'])}): {pair['verdict']}")
    lines.extend(build_lines(sweep["pairs"]))
    return "\n".join(lines)


def manifest_size_line(target: int) -> str:
    """The manifest setting that builds a heading-aware index at ``target``: ``'"policies": {"heading-aware": 288}'``."""
    return f'"policies": {{"heading-aware": {target}}}'


def build_lines(pairs: list[dict]) -> list[str]:
    """How to build each target the sweep found, as the manifest line that sets it.

    One target: ``['to build it: "policies": {"heading-aware": 288}']``. Several:
    one line per target naming the pairs it is the smallest for. A pair any
    target keeps (1) or none keeps needs no line.
    """
    found: dict[int, list[str]] = {}
    for pair in pairs:
        target = pair["smallest_heading_aware_target"]
        if target is not None and target > 1:
            found.setdefault(target, []).append(printable(pair["name"]))
    if len(found) == 1:
        return [f"to build it: {manifest_size_line(next(iter(found)))}"]
    return [
        f"to build {target} (for {', '.join(names)}): {manifest_size_line(target)}"
        for target, names in sorted(found.items())
    ]
