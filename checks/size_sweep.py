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

import json
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from operator import sub
from typing import NamedTuple

import chunk_index
import grammars
from lab_io.errors import UsageError, counted, printable
from load_documents import MAX_POLICY_SIZE, SIZED_POLICIES, Manifest, SpanCheck
from views.summary import no_span_checks

SWEPT_POLICIES = ("heading-aware", "fixed-char")
# Swept too when the manifest builds it (its "policies" sets a pair-aware size).
PAIR_AWARE = chunk_index.PAIR_AWARE
# 40 to 600 in steps of 20 holds both supported sizes (80 and 220) and runs
# from "a sentence" to "a whole short section".
DEFAULT_SIZES = tuple(range(40, 601, 20))
# A manifest building a size over the default range is swept in this many
# steps of a tenth of its largest size, up to twice it (see ``default_sizes``).
SCALED_STEPS = 20
# The largest size a config may hold (the config family's), and a sweep of more
# sizes than this is a plot of noise.
MAX_SIZE = MAX_POLICY_SIZE
MAX_SIZE_COUNT = 1000
# Span checks times sizes: each is one bisection per size, so 2,000,000 runs in
# seconds; beyond it the sweep is refused up front (``require_bounded_sweep``).
MAX_SWEEP_CELLS = 2_000_000

NEVER_ACROSS_HEADING = "never: a heading separates them"
NEVER_IN_HEADING = "never: a span touches a heading line, which no chunk holds"
NEVER_OUTSIDE_PARAGRAPHS = (
    "never: a span lies outside the section's blocks (blank lines, or text the grammar reads as no block)"
)


@dataclass(frozen=True)
class PairTarget:
    """The smallest heading-aware target keeping one pair together (``None``: no target does) and why."""

    check: SpanCheck
    target: int | None
    verdict: str


def default_sizes(manifest: Manifest) -> tuple[int, ...]:
    """The sizes a sweep without ``--sizes`` tries: a range that holds every size the manifest builds.

    ``DEFAULT_SIZES`` when no size it sets is over 600 (the lesson's 80 and 220
    among them); otherwise ``SCALED_STEPS`` steps of a tenth of its largest size,
    up to twice it, plus each size it sets: ``{"heading-aware": 1000,
    "fixed-char": 1000}`` -> ``(100, 200, ..., 2000)``; ``{"fixed-char": 80,
    "heading-aware": 1234}`` -> ``(80, 123, 246, ..., 2460)`` plus ``1234``.
    """
    built = {size for _, size in manifest.policy_sizes}
    if not built or max(built) <= DEFAULT_SIZES[-1]:
        return DEFAULT_SIZES
    step = max(built) // 10
    return tuple(sorted({step * multiple for multiple in range(1, SCALED_STEPS + 1)} | built))


def sweep_config(strategy: str, size: int, grammar: str = grammars.LESSON_GRAMMAR) -> dict:
    """A policy's config at ``size`` under ``grammar``, as a manifest setting that size would build it."""
    return chunk_index.policy_config(strategy, size, grammar)


@dataclass(frozen=True)
class SourceLayout:
    """One source's text, sections and each section's paragraphs, found once and reused for every size.

    ``pairs`` are the source's declared pairs as a pair-aware config holds
    them (``chunk_index.config_pairs``), for the pair-aware rows.
    """

    text: str
    sections: tuple[grammars.Section, ...]
    paragraphs: tuple[tuple[tuple[int, int], ...], ...]
    pairs: tuple[dict, ...] = ()

    @cached_property
    def body_starts(self) -> list[int]:
        """The sections' body starts, ascending, for finding the section holding an offset."""
        return [section.body_start for section in self.sections]


def source_layout(
    text: str, where: str, grammar: str = grammars.LESSON_GRAMMAR, title: str = "", pairs: tuple[dict, ...] = ()
) -> SourceLayout:
    """The sections of ``text`` under ``grammar`` and their blocks' spans, which no size changes."""
    sections = tuple(grammars.document_sections(text, grammar, where, title))
    paragraphs = tuple(tuple((block.start, block.end) for block in section.blocks) for section in sections)
    return SourceLayout(text, sections, paragraphs, pairs)


def swept_policies(manifest: Manifest) -> tuple[str, ...]:
    """The sized policies a sweep cuts: heading-aware and fixed-char, and pair-aware when the manifest builds it."""
    if PAIR_AWARE in dict(manifest.policy_sizes):
        return (*SWEPT_POLICIES, PAIR_AWARE)
    return SWEPT_POLICIES


def source_chunks(config: dict, layout: SourceLayout) -> list[tuple[int, int]]:
    """Every chunk span ``config`` cuts from one source, section by section, as a build would.

    The same cuts as ``chunk_index.section_chunk_spans``, with the paragraphs
    found once per source instead of once per size.
    """
    strategy = config["strategy"]
    chunks: list[tuple[int, int]] = []
    if strategy == PAIR_AWARE:
        placements = [
            chunk_index.place_pair(pair, layout.sections, layout.body_starts, config["max_chars"])
            for pair in layout.pairs
        ]
        stretches = chunk_index.section_stretches(placements)
        for position, paragraphs in enumerate(layout.paragraphs):
            chunks.extend(
                chunk_index.pair_aware_spans(list(paragraphs), config["max_chars"], stretches.get(position, []))
            )
        return chunks
    for section, paragraphs in zip(layout.sections, layout.paragraphs):
        if strategy == "fixed-char":
            chunks.extend(
                chunk_index.fixed_char_spans(layout.text, section.body_start, section.body_end, config["max_chars"])
            )
        elif strategy == "paragraph":
            chunks.extend(paragraphs)
        elif paragraphs and paragraphs[-1][1] - paragraphs[0][0] <= config["max_chars"]:
            # The whole section fits the target: one group, as grouped_spans would find one paragraph at a time.
            chunks.append((paragraphs[0][0], paragraphs[-1][1]))
        else:
            chunks.extend(chunk_index.grouped_spans(list(paragraphs), config["max_chars"]))
    return chunks


# --- fixed-char rows by arithmetic --------------------------------------------------


@dataclass(frozen=True)
class FixedCharBodies:
    """One source's section bodies, and the whitespace runs in them that a fixed-char slice could lie within.

    ``bodies`` are ``(body_start, body_end)`` per section; ``runs`` the
    whitespace runs of each body at least ``shortest`` characters long, and
    each body's trailing run whatever its length (the last slice of a body is
    shorter than the width): a slice is blank exactly when one run holds it.
    """

    text: str
    bodies: tuple[tuple[int, int], ...]
    body_starts: tuple[int, ...]
    runs: tuple[tuple[tuple[int, int], ...], ...]


def fixed_char_bodies(layout: SourceLayout, shortest: int) -> FixedCharBodies:
    """The bodies and whitespace runs of one source, for fixed-char widths of at least ``shortest``."""
    text = layout.text
    bodies = tuple((section.body_start, section.body_end) for section in layout.sections)
    shortest = max(shortest, 1)
    # The text's long runs, found once: a body's are these cut to the body, where still long enough. A run
    # is as long as the whitespace goes, so a cut one is as long as it goes inside the body.
    text_runs = long_whitespace_runs(text, shortest)
    run_ends = [end for _, end in text_runs]
    runs = []
    for body_start, body_end in bodies:
        found = []
        # The runs reaching past the body's start, up to the first starting at or past its end.
        for position in range(bisect_right(run_ends, body_start), len(text_runs)):
            run_start, run_end = text_runs[position]
            if run_start >= body_end:
                break
            run_start = max(run_start, body_start)
            run_end = min(run_end, body_end)
            if run_end - run_start >= shortest:
                found.append((run_start, run_end))
        trailing = body_start + len(text[body_start:body_end].rstrip())
        if trailing < body_end and not (found and found[-1][1] == body_end):
            found.append((trailing, body_end))
        runs.append(tuple(found))
    return FixedCharBodies(text, bodies, tuple(start for start, _ in bodies), tuple(runs))


# ASCII whitespace as ``str.isspace`` (and a pattern's ``\s``) has it, read as a space, and every other byte as "x".
ASCII_WHITESPACE = b" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"
WHITESPACE_AS_SPACE = bytes(32 if byte in ASCII_WHITESPACE else 120 for byte in range(256))


def long_whitespace_runs(text: str, shortest: int) -> list[tuple[int, int]]:
    """Every run of whitespace (``str.isspace``'s) in ``text`` at least ``shortest`` long, as far as it goes.

    ``long_whitespace_runs("a  b \n\t c", 3)`` -> ``[(4, 8)]``. An ASCII text is read as bytes of two kinds,
    where a run of spaces is found by a substring search that skips ahead, not a pattern tried at each place.
    """
    if not text.isascii():
        return [match.span() for match in re.finditer(rf"\s{{{shortest},}}", text)]
    marked = text.encode("ascii").translate(WHITESPACE_AS_SPACE)
    wanted = b" " * shortest
    runs = []
    position = marked.find(wanted)
    while position >= 0:
        start = marked.rfind(b"x", 0, position) + 1
        end = marked.find(b"x", position)
        if end < 0:
            end = len(marked)
        runs.append((start, end))
        position = marked.find(wanted, end)
    return runs


@dataclass(frozen=True)
class FixedCharTable:
    """What every body's fixed-char count depends on, over all sources: counted in a pass of C-speed sums.

    Per body, ``texted`` is its length up to its trailing whitespace and
    ``lengths`` its length; ``inner_runs`` are the long whitespace runs before
    the trailing one, as offsets from their body's start. At width ``w`` a body
    holds ``ceil(texted / w)`` slices that are not all trailing whitespace, and
    an inner run ``[a, b)`` blanks the full slices inside it.
    """

    texted: list[int]
    lengths: list[int]
    inner_runs: list[tuple[int, int]]


def fixed_char_table(sources: dict[str, FixedCharBodies]) -> FixedCharTable:
    """The ``FixedCharTable`` of every source's bodies and runs."""
    texted = []
    lengths = []
    inner_runs = []
    for source in sources.values():
        for (body_start, body_end), runs in zip(source.bodies, source.runs):
            if body_start >= body_end:
                continue
            trailing = body_end
            for run_start, run_end in runs:
                if run_end == body_end:
                    trailing = run_start
                else:
                    inner_runs.append((run_start - body_start, run_end - body_start))
            texted.append(trailing - body_start)
            lengths.append(body_end - body_start)
    return FixedCharTable(texted, lengths, inner_runs)


def fixed_char_figures(table: FixedCharTable, width: int) -> tuple[int, int]:
    """Chunks and characters ``chunk_index.fixed_char_spans`` gives every body at ``width``, counted, not cut.

    A body of ``n`` characters whose text ends ``t`` characters in holds
    ``ceil(t / width)`` slices before its trailing whitespace, the last of them
    ``min(n, ceil(t / width) * width)`` characters in; each full slice inside
    an inner whitespace run is blank too.
    """
    # Each body's slices negated, -ceil(texted / width), as floor division by -width gives them in one map.
    negated = list(map((-width).__rfloordiv__, table.texted))
    count = -sum(negated)
    characters = sum(map(min, table.lengths, map((-width).__mul__, negated)))
    for run_start, run_end in table.inner_runs:
        blank = run_end // width - -(-run_start // width)
        if blank > 0:
            count -= blank
            characters -= blank * width
    return count, characters


class FixedCharPlace(NamedTuple):
    """A check's reach in the body holding its first character, found once for every width of a sweep.

    ``holds_text``: the reach itself holds a character that is not whitespace, so any slice holding it is not blank.
    """

    name: str
    source: FixedCharBodies
    body_start: int
    body_end: int
    low: int
    high: int
    holds_text: bool


def fixed_char_places(sources: dict[str, FixedCharBodies], checks: tuple[SpanCheck, ...], reaches: list) -> list:
    """Each check a fixed-char slice can keep, as a ``FixedCharPlace``, in check order; the others are left out.

    A check is left out when its source was not read or its first character lies in no section's body:
    no slice of any width keeps it.
    """
    places = []
    for check, (source_id, low, high) in zip(checks, reaches):
        source = sources.get(source_id)
        if source is None:
            continue
        position = bisect_right(source.body_starts, low) - 1
        if position < 0 or low >= source.bodies[position][1]:
            continue
        body_start, body_end = source.bodies[position]
        places.append(
            FixedCharPlace(check.name, source, body_start, body_end, low, high, bool(source.text[low:high].strip()))
        )
    return places


def fixed_char_row(
    width: int,
    sources: dict[str, FixedCharBodies],
    table: FixedCharTable,
    checks: tuple[SpanCheck, ...],
    reaches: list,
    places: list | None = None,
) -> dict:
    """``policy_row`` for fixed-char at ``width``, by arithmetic over the bodies instead of cutting every slice.

    A pair is kept when the slice holding its first character reaches its last and is not blank;
    ``places`` (``fixed_char_places``) finds each check's body once for every width of a sweep.
    """
    count, characters = fixed_char_figures(table, width)
    if places is None:
        places = fixed_char_places(sources, checks, reaches)
    kept = []
    for name, source, body_start, body_end, low, high, holds_text in places:
        slice_start = body_start + (low - body_start) // width * width
        slice_end = min(slice_start + width, body_end)
        # A slice holding the reach holds its text: only a reach of whitespace alone needs the slice read.
        if high <= slice_end and (holds_text or source.text[slice_start:slice_end].strip()):
            kept.append(name)
    return sweep_row(count, characters, kept)


# --- heading-aware rows: most sections need no grouping at a given target ----------------


@dataclass(frozen=True)
class SectionGrouping:
    """One section's paragraphs and the two targets between which greedy grouping has to be run.

    At ``span`` or more the section is one group; below ``join_at`` (the
    least target at which two neighbours join) every paragraph stands alone.
    ``starts`` and ``ends`` are the paragraphs' own, for grouping by bisection (``grouping_walk``).
    """

    paragraphs: tuple[tuple[int, int], ...]
    span: int
    join_at: float
    length: int
    starts: tuple[int, ...]
    ends: tuple[int, ...]


def grouping_walk(starts: tuple[int, ...], ends: tuple[int, ...], target: int) -> tuple[list[int], list[int]]:
    """``chunk_index.grouped_spans`` of the paragraphs ``starts``/``ends`` at ``target``, as the groups' starts and ends.

    A group starting at ``s`` takes in every following paragraph ending by
    ``s + target`` (the ends ascend), so it is found by one bisection, not a
    look at each paragraph: ``grouping_walk((0, 11, 21), (10, 20, 40), 20)`` -> ``([0, 21], [20, 40])``.
    """
    group_starts = []
    group_ends = []
    first = 0
    last = len(starts)
    while first < last:
        start = starts[first]
        # The group's last paragraph: the last ending by start + target, and at least its first.
        following = max(first + 1, bisect_right(ends, start + target, first, last))
        group_starts.append(start)
        group_ends.append(ends[following - 1])
        first = following
    return group_starts, group_ends


def section_groupings(layout: SourceLayout) -> list[SectionGrouping | None]:
    """Each section's ``SectionGrouping``, or ``None`` for a section with no paragraphs."""
    found = []
    for paragraphs in layout.paragraphs:
        if not paragraphs:
            found.append(None)
            continue
        starts, ends = zip(*paragraphs)
        # Two neighbours join at the target spanning them: a paragraph's start to the next one's end.
        joins = map(sub, ends[1:], starts)
        found.append(
            SectionGrouping(
                paragraphs,
                ends[-1] - starts[0],
                min(joins, default=float("inf")),
                sum(ends) - sum(starts),
                starts,
                ends,
            )
        )
    return found


@dataclass(frozen=True)
class GroupingTable:
    """Every section's grouping sorted so that a target's count of groups is mostly two bisections.

    A one-paragraph section is one group at every target. A longer one is one
    group at its ``span`` or more, and all paragraphs below its ``join_at``
    (``join_at <= span``, so the two cases never meet); only the sections in
    between are grouped at the target. ``spans`` and ``joins`` are ascending,
    with running totals of what each case adds.
    """

    single_count: int
    single_characters: int
    spans: list[int]
    span_totals: list[int]
    joins: list[float]
    join_counts: list[int]
    join_characters: list[int]
    joined: list[SectionGrouping]


def grouping_table(groupings: dict[str, list[SectionGrouping | None]]) -> GroupingTable:
    """The ``GroupingTable`` of every source's ``section_groupings``."""
    found = [grouping for sections in groupings.values() for grouping in sections if grouping is not None]
    single = [grouping for grouping in found if len(grouping.paragraphs) == 1]
    several = [grouping for grouping in found if len(grouping.paragraphs) > 1]
    spans = sorted(grouping.span for grouping in several)
    joined = sorted(several, key=lambda grouping: grouping.join_at)
    # From the largest join down: what every section whose paragraphs all stand alone adds.
    join_counts = list(accumulate((len(grouping.paragraphs) for grouping in reversed(joined)), initial=0))[::-1]
    join_characters = list(accumulate((grouping.length for grouping in reversed(joined)), initial=0))[::-1]
    return GroupingTable(
        len(single),
        sum(grouping.span for grouping in single),
        spans,
        list(accumulate(spans, initial=0)),
        [grouping.join_at for grouping in joined],
        join_counts,
        join_characters,
        joined,
    )


class GroupingPlace(NamedTuple):
    """A check's reach in the section holding its first character, and whether the section's groups keep it when
    the whole section is one group (``whole``) and when every paragraph stands alone (``alone``): found once for
    every target of a sweep."""

    name: str
    grouping: SectionGrouping
    low: int
    high: int
    whole: bool
    alone: bool


def grouping_places(
    layouts: dict[str, SourceLayout],
    groupings: dict[str, list[SectionGrouping | None]],
    checks: tuple[SpanCheck, ...],
    reaches: list,
) -> list[GroupingPlace]:
    """Each check a heading-aware group can keep, as a ``GroupingPlace``, in check order; the others are left out.

    A check is left out when its source was not read or its first character lies in no section's body, or in
    one with no paragraphs: no group of any target keeps it.
    """
    places = []
    for check, (source_id, low, high) in zip(checks, reaches):
        layout = layouts.get(source_id)
        if layout is None:
            continue
        position = bisect_right(layout.body_starts, low) - 1
        grouping = groupings[source_id][position] if position >= 0 else None
        if grouping is None or low >= layout.sections[position].body_end:
            continue
        paragraphs = grouping.paragraphs
        whole = paragraphs[0][0] <= low and paragraphs[-1][1] >= high
        found = bisect_right(grouping.starts, low) - 1
        alone = found >= 0 and paragraphs[found][1] >= high
        places.append(GroupingPlace(check.name, grouping, low, high, whole, alone))
    return places


def heading_aware_row(
    target: int,
    layouts: dict[str, SourceLayout],
    groupings: dict[str, list[SectionGrouping | None]],
    table: GroupingTable,
    checks: tuple[SpanCheck, ...],
    reaches: list,
    places: list[GroupingPlace] | None = None,
) -> dict:
    """``policy_row`` for heading-aware at ``target``, grouping only the sections whose groups depend on it.

    A pair is kept when the last group starting at or before its first
    character, in the section whose body holds that character, reaches its last.
    ``places`` (``grouping_places``) finds each check's section once for every target of a sweep; each section
    the target changes is grouped once, for its count and for every pair in it.
    """
    whole = bisect_right(table.spans, target)
    alone = bisect_right(table.joins, target)
    count = table.single_count + whole + table.join_counts[alone]
    characters = table.single_characters + table.span_totals[whole] + table.join_characters[alone]
    if places is None:
        places = grouping_places(layouts, groupings, checks, reaches)
    # The sections a pair lies in keep their groups at this target, by id, for the pairs below.
    holding = {id(place.grouping) for place in places}
    grouped = {}
    for grouping in table.joined[:alone]:
        if grouping.span > target:
            starts, ends = grouping_walk(grouping.starts, grouping.ends, target)
            count += len(starts)
            characters += sum(ends) - sum(starts)
            if id(grouping) in holding:
                grouped[id(grouping)] = (starts, ends)
    kept = []
    for name, grouping, low, high, kept_whole, kept_alone in places:
        if grouping.span <= target:
            held = kept_whole
        elif target < grouping.join_at:
            held = kept_alone
        else:
            starts, ends = grouped[id(grouping)]
            found = bisect_right(starts, low) - 1
            held = found >= 0 and ends[found] >= high
        if held:
            kept.append(name)
    return sweep_row(count, characters, kept)


def sweep_row(count: int, characters: int, kept: list[str]) -> dict:
    """One policy's figures at one size: chunk count, mean chunk length and the pairs kept together, by name."""
    return {
        "chunk_count": count,
        "mean_chunk_chars": round(characters / count, 1) if count else 0.0,
        "pairs_kept_together": len(kept),
        "kept_pairs": kept,
    }


def pair_reach(check: SpanCheck) -> tuple[str, int, int]:
    """A check as its source and the stretch a chunk must hold to keep it: first start to last end."""
    return (
        check.source_id,
        min(check.instruction.start, check.qualifier.start),
        max(check.instruction.end, check.qualifier.end),
    )


def keeps_pair(chunks: list[tuple[int, int]], starts: list[int], check: SpanCheck) -> bool:
    """Whether one chunk of the pair's source holds both its spans.

    A source's chunks are in offset order and do not overlap, so only the last
    chunk starting at or before the pair's first character can hold the pair:
    one bisection per pair instead of a look at every chunk.
    """
    _, low, high = pair_reach(check)
    position = bisect_right(starts, low) - 1
    return position >= 0 and chunks[position][1] >= high


def policy_row(
    config: dict,
    layouts: dict[str, SourceLayout],
    checks: tuple[SpanCheck, ...],
    reaches: list[tuple[str, int, int]] | None = None,
) -> dict:
    """Chunk count, mean chunk length and kept pairs for one config over every source.

    Kept pairs are found as ``keeps_pair`` does, inlined over each check's
    reach (``pair_reach``, computed once per sweep): this loop runs checks
    times sizes times.
    """
    if reaches is None:
        reaches = [pair_reach(check) for check in checks]
    chunks = {source_id: source_chunks(config, layout) for source_id, layout in layouts.items()}
    starts = {source_id: [start for start, _ in spans] for source_id, spans in chunks.items()}
    ends = {source_id: [end for _, end in spans] for source_id, spans in chunks.items()}
    count = sum(len(spans) for spans in chunks.values())
    characters = sum(sum(ends[source_id]) - sum(starts[source_id]) for source_id in chunks)
    kept = []
    for check, (source_id, low, high) in zip(checks, reaches):
        position = bisect_right(starts[source_id], low) - 1
        if position >= 0 and ends[source_id][position] >= high:
            kept.append(check.name)
    return sweep_row(count, characters, kept)


def group_holding_walk(paragraphs: list[tuple[int, int]], start: int, target: int) -> tuple[bool, int | None]:
    """Whether greedy grouping at ``target`` puts ``paragraphs[-1]`` in a group starting at or before ``start``,
    and the next target at which any group walked here would change (``None``: none would).

    The walk jumps from group to group by bisection, so it costs the number of
    groups before the last paragraph's, not the number of paragraphs.
    """
    ends = [paragraph_end for _, paragraph_end in paragraphs]
    last = len(paragraphs) - 1
    group = 0
    change = None
    while True:
        group_start = paragraphs[group][0]
        if group_start > start:
            # This group and every later one start after the pair: it cannot be held.
            return False, change
        following = max(group + 1, bisect_right(ends, group_start + target, group, last + 1))
        if following > last:
            return True, change
        # The target at which this group would take in one more paragraph.
        grows_at = ends[following] - group_start
        change = grows_at if change is None else min(change, grows_at)
        group = following


def smallest_grouping_target(paragraphs: list[tuple[int, int]], start: int, end: int) -> int | None:
    """The smallest heading-aware target whose groups hold ``[start, end)`` whole, or ``None``.

    Greedy grouping is not monotonic in the target: a larger target can pull
    an earlier paragraph into a group and push the pair's boundary between its
    spans. But the groups change only where ``paragraph_end - group_start``
    crosses the target, so the search tries a target, and if the pair is not
    held jumps straight to the smallest target at which one of the groups it
    walked would change; targets in between give the same groups. It starts
    at the least target that could hold the pair in a group of several
    paragraphs (from the last paragraph starting at or before ``start`` to the
    first one reaching ``end``). ``smallest_grouping_target([(0, 10), (11, 20), (21, 40)], 11, 40)``
    -> ``40`` (at 29, which is ``40 - 11``, the first two group and the pair splits).
    """
    # Paragraphs after the first one reaching ``end`` cannot move the start of
    # the group that must hold the span, so they are left out of the search.
    ends = [paragraph_end for _, paragraph_end in paragraphs]
    last = bisect_left(ends, end)
    if last == len(paragraphs):
        return None
    relevant = paragraphs[: last + 1]
    first = bisect_right([paragraph_start for paragraph_start, _ in relevant], start) - 1
    if first < 0:
        return None
    if first == last:
        # One paragraph holds the span: it stands alone (or in a group) at every target.
        return 1
    target = relevant[last][1] - relevant[first][0]
    while True:
        held, change = group_holding_walk(relevant, start, target)
        if held:
            return target
        if change is None:
            return None
        target = change


def pair_target(check: SpanCheck, layout: SourceLayout) -> PairTarget:
    """The smallest heading-aware target for one declared pair, with a verdict a person reads."""
    # The sections' body starts are found once per source, not once per pair.
    instruction = chunk_index.section_holding(
        layout.sections, layout.body_starts, check.instruction.start, check.instruction.end
    )
    qualifier = chunk_index.section_holding(
        layout.sections, layout.body_starts, check.qualifier.start, check.qualifier.end
    )
    if instruction is None or qualifier is None:
        return PairTarget(check, None, NEVER_IN_HEADING)
    if instruction != qualifier:
        return PairTarget(check, None, NEVER_ACROSS_HEADING)
    _, start, end = pair_reach(check)
    target = smallest_grouping_target(list(layout.paragraphs[instruction]), start, end)
    if target is None:
        return PairTarget(check, None, NEVER_OUTSIDE_PARAGRAPHS)
    if target == 1:
        return PairTarget(check, 1, "any target: one paragraph holds both")
    return PairTarget(check, target, str(target))


def require_bounded_sweep(manifest: Manifest, sizes: tuple[int, ...]) -> None:
    """Refuse up front a sweep whose span checks times sizes exceeds ``MAX_SWEEP_CELLS``.

    Each size costs one cut of the sources plus one bisection per span check,
    so this bound (with ``MAX_SIZE_COUNT`` and the manifest's size bound)
    keeps a sweep to seconds rather than letting it run for hours.
    """
    cells = len(manifest.span_checks) * len(sizes)
    if cells > MAX_SWEEP_CELLS:
        raise UsageError(
            "sweep_too_large",
            "--sizes",
            f"{len(manifest.span_checks):,} span checks x {len(sizes):,} sizes = {cells:,} verdicts; "
            f"at most {MAX_SWEEP_CELLS:,}: sweep fewer sizes (--sizes) or a manifest with fewer checks",
        )


def run_sweep(manifest: Manifest, sizes: tuple[int, ...], progress=None) -> dict:
    """The sweep as plain data: one row per size, the paragraph policy for reference, and each pair's target.

    ``progress``, a ``lab_io.progress.Progress``, counts the sources read, then the sizes swept.
    """
    grammar = manifest.grammar
    policies = swept_policies(manifest)
    pairs = chunk_index.pairs_by_source(
        chunk_index.policy_config(PAIR_AWARE, None, grammar, chunk_index.config_pairs(manifest.span_checks))
    )
    layouts = {}
    for source in manifest.sources:
        source_id = source["source_id"]
        layouts[source_id] = source_layout(
            source["text"], source_id, grammar, source["title"], tuple(pairs.get(source_id, ()))
        )
        if progress is not None:
            progress.advance(1, len(source["text"].encode("utf-8")))
    checks = manifest.span_checks
    reaches = [pair_reach(check) for check in checks]
    # Fixed-char rows are counted from each body's length and its long whitespace runs, not cut size by size.
    bodies = {source_id: fixed_char_bodies(layout, min(sizes, default=1)) for source_id, layout in layouts.items()}
    fixed_table = fixed_char_table(bodies)
    # Heading-aware rows group only the sections whose groups the size changes.
    groupings = {source_id: section_groupings(layout) for source_id, layout in layouts.items()}
    table = grouping_table(groupings)
    # Where each check lies is found once, not once per size.
    fixed_places = fixed_char_places(bodies, checks, reaches)
    heading_places = grouping_places(layouts, groupings, checks, reaches)

    def row(strategy: str, size: int) -> dict:
        if strategy == "fixed-char":
            return fixed_char_row(size, bodies, fixed_table, checks, reaches, fixed_places)
        if strategy == "heading-aware":
            return heading_aware_row(size, layouts, groupings, table, checks, reaches, heading_places)
        return policy_row(sweep_config(strategy, size, grammar), layouts, checks, reaches)

    if progress is not None:
        progress.stage("sweeping", len(sizes), 0, unit="sizes")
    rows = []
    for size in sizes:
        rows.append({"size": size, **{strategy: row(strategy, size) for strategy in policies}})
        if progress is not None:
            progress.advance(1, 0)
    targets = [pair_target(check, layouts[check.source_id]) for check in checks]
    # Groups shift as the target grows, so a larger target can split a pair a smaller one kept:
    # the largest pair's target is built once more to say how many pairs it keeps at once.
    distinct = {found.target for found in targets} - {None, 1}
    largest_row = None
    # Only when the pairs need different targets: one target serves every pair it is listed for.
    if len(distinct) > 1:
        largest = max(distinct)
        kept = policy_row(sweep_config("heading-aware", largest, grammar), layouts, checks, reaches)
        largest_row = {"size": largest, "pairs_kept_together": kept["pairs_kept_together"]}
    return {
        "sizes": list(sizes),
        "pair_count": len(checks),
        "rows": rows,
        "paragraph": policy_row(chunk_index.policy_config("paragraph", None, grammar), layouts, checks),
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
        "largest_target": largest_row,
    }


# The first key of ``sweep --json``, as every command's saved ``--json`` opens with its version: a sweep saved by the
# shell is then told for what it is where a manifest or a result goes (``lab_io.outputs.COMMAND_REPORT_KEYS``).
SWEEP_VERSION = 1


def sweep_json(sweep: dict) -> str:
    """The sweep for plotting, ``sweep_version`` first: JSON with every non-ASCII character escaped, so it is inert
    in any terminal."""
    return json.dumps({"sweep_version": SWEEP_VERSION, **sweep}, indent=2, ensure_ascii=True)


SWEEP_COMMAND = "run.py sweep"
"""The sweep of the lesson's fixture; a manifest of one's own adds its ``--manifest`` (``commands.sweep``)."""


def sweep_table(sweep: dict, policy_sizes: tuple[tuple[str, int], ...] = (), command: str = SWEEP_COMMAND) -> str:
    """The sweep as a table a person reads: one line per size, then each pair's smallest target.

    ``policy_sizes`` are the sizes the manifest sets (``Manifest.policy_sizes``): the line that builds a target
    keeps the others, so pasting it changes the heading-aware target alone. ``command`` is the sweep of this
    manifest as typed, which the last line repeats with sizes to try (``largest_target_lines``).
    """
    total = sweep["pair_count"]
    policies = [
        name for name in ("heading-aware", "fixed-char", PAIR_AWARE) if sweep["rows"] and name in sweep["rows"][0]
    ]
    # Each column as wide as its widest figure, with its thousands separators (and no narrower than before).
    size_width = max([5, *(len(f"{row['size']:,}") for row in sweep["rows"])])
    chunks_width = max([6, *(len(f"{row[name]['chunk_count']:,}") for row in sweep["rows"] for name in policies)])
    count_width = max(4, len(f"{total:,}"))
    kept_width = 2 * count_width + 4

    def cells(row: dict) -> str:
        kept = f"{row['pairs_kept_together']:>{count_width},} of {total:<{count_width},}"
        return f"{row['chunk_count']:>{chunks_width},}  {row['mean_chunk_chars']:>10,.1f}  {kept}"

    group_width = chunks_width + 2 + 10 + 2 + kept_width
    pair_aware = PAIR_AWARE in policies
    titles = f"{'heading-aware target':<{group_width}}  {'fixed-char width'}"
    group = f"{'chunks':>{chunks_width}}  {'mean chars':>10}  "
    columns = f"{group}{'kept pairs':<{kept_width}}  {group}kept pairs"
    if pair_aware:
        titles = f"{titles:<{2 * group_width + 2}}  pair-aware target"
        columns += f"{'':<{kept_width - len('kept pairs')}}  {group}kept pairs"
    lines = [f"{'':>{size_width}}  {titles}", f"{'size':>{size_width}}  {columns}"]
    for row in sweep["rows"]:
        line = f"{row['size']:>{size_width},}  {cells(row['heading-aware'])}  {cells(row['fixed-char'])}"
        if pair_aware:
            line += f"  {cells(row[PAIR_AWARE])}"
        lines.append(line.rstrip())
    paragraph = sweep["paragraph"]
    lines.append(
        f"paragraph (no size): {counted(paragraph['chunk_count'], 'chunk')}, mean {paragraph['mean_chunk_chars']:,.1f} chars, "
        f"pairs kept together: {paragraph['pairs_kept_together']:,} of {total:,}"
    )
    lines.append("")
    if not sweep["pairs"]:
        # The sweep's own command carries the manifest it read, and so does the scan it names.
        lines.append(no_span_checks(command.removeprefix(SWEEP_COMMAND)))
        return "\n".join(lines)
    lines.append("smallest heading-aware target that keeps each pair together:")
    if len(sweep["pairs"]) <= LISTED_PAIRS:
        for pair in sweep["pairs"]:
            lines.append(f"  {printable(pair['name'])} ({printable(pair['source_id'])}): {shown_verdict(pair)}")
        lines.extend(build_lines(sweep["pairs"], policy_sizes))
    else:
        lines.extend(condensed_pair_lines(sweep["pairs"], policy_sizes))
    lines.extend(largest_target_lines(sweep, command))
    return "\n".join(lines)


def largest_target_lines(sweep: dict, command: str = SWEEP_COMMAND) -> list[str]:
    """How many pairs the largest of the pairs' targets keeps at once, when more than one target was found.

    ``['at 1,005, the largest of these targets, 11 of 13 pairs are kept together; groups shift as the target
    grows, so try sizes near it: run.py sweep --manifest m.json --sizes 904 1005 1106']``, a command to type as it
    is (``command``, the sweep of the same manifest, then a tenth below and above the target); nothing when one
    target (or none) serves every pair.
    """
    largest = sweep["largest_target"]
    if largest is None:
        return []
    kept = largest["pairs_kept_together"]
    total = sweep["pair_count"]
    size = largest["size"]
    line = f"at {size:,}, the largest of these targets, {kept:,} of {total:,} pairs are kept together"
    near_what = "it"
    best = best_measured_target(sweep)
    if best is not None and best["heading-aware"]["pairs_kept_together"] > kept:
        # The table's own rows can do better than the largest target: groups shift as a target grows, so a smaller
        # one may hold more pairs at once. Said, so the advice never contradicts the table above it.
        size = best["size"]
        kept = best["heading-aware"]["pairs_kept_together"]
        line += f"; the table's {size:,} keeps more, {kept:,} of {total:,}"
        near_what = f"{size:,}"
    if kept < total:
        near = sorted({max(1, round(size * 0.9)), size, min(MAX_SIZE, round(size * 1.1))})
        line += (
            f"; groups shift as the target grows, so try sizes near {near_what}: "
            f"{command} --sizes {' '.join(map(str, near))}"
        )
    return [line]


def best_measured_target(sweep: dict) -> dict | None:
    """The table's row whose heading-aware target keeps the most pairs together (the smallest such), or ``None``."""
    rows = [row for row in sweep["rows"] if "heading-aware" in row]
    if not rows:
        return None
    return max(rows, key=lambda row: (row["heading-aware"]["pairs_kept_together"], -row["size"]))


LISTED_PAIRS = 20
"""Up to this many pairs the sweep lists each; beyond, it condenses (a scanned docs set holds thousands)."""


def shown_verdict(pair: dict) -> str:
    """A pair's verdict as the table shows it: a target with its thousands separator (``"1,250"``), else the words."""
    return f"{pair['smallest_heading_aware_target']:,}" if needs_target(pair) else pair["verdict"]


def needs_target(pair: dict) -> bool:
    """Whether some heading-aware target above 1 is the pair's smallest (not "any target", not "never")."""
    target = pair["smallest_heading_aware_target"]
    return target is not None and target > 1


def condensed_pair_lines(pairs: list[dict], policy_sizes: tuple[tuple[str, int], ...] = ()) -> list[str]:
    """The per-pair list of a large sweep: a count per verdict that needs no target, then the smallest targets.

    ``["  15 pairs: any target: one paragraph holds both",
    "  19 need a target, smallest first:", "  scan:a:4 (a): 96", …,
    'to build one of these targets, set it in the manifest, e.g. the largest: "policies": {"heading-aware": 288}']``,
    the targets stopping at ``LISTED_PAIRS`` with a count of the rest; ``--json`` holds every pair.
    """
    lines = []
    untargeted: dict[str, int] = {}
    for pair in pairs:
        if not needs_target(pair):
            untargeted[pair["verdict"]] = untargeted.get(pair["verdict"], 0) + 1
    for verdict, count in sorted(untargeted.items()):
        lines.append(f"  {count:,} {'pair' if count == 1 else 'pairs'}: {verdict}")
    targeted = sorted(
        (pair for pair in pairs if needs_target(pair)), key=lambda pair: pair["smallest_heading_aware_target"]
    )
    if not targeted:
        return lines
    lines.append(f"  {len(targeted):,} need a target, smallest first:")
    for pair in targeted[:LISTED_PAIRS]:
        lines.append(f"  {printable(pair['name'])} ({printable(pair['source_id'])}): {shown_verdict(pair)}")
    if len(targeted) > LISTED_PAIRS:
        lines.append(f"  … {len(targeted) - LISTED_PAIRS:,} more: sweep --json lists every pair")
    # One target line per pair would repeat the list above; one example says how to build any of them: the
    # largest, which the line after it checks against every pair (the smallest would keep only its own pair).
    example = manifest_size_line(targeted[-1]["smallest_heading_aware_target"], policy_sizes)
    lines.append(f"to build one of these targets, set it in the manifest, e.g. the largest: {example}")
    return lines


def manifest_size_line(target: int, policy_sizes: tuple[tuple[str, int], ...] = ()) -> str:
    """The manifest setting that builds a heading-aware index at ``target``: ``'"policies": {"heading-aware": 288}'``.

    The other sizes the manifest sets (``policy_sizes``) stay as they are, in ``SIZED_POLICIES`` order: with
    ``(("fixed-char", 1000), ("heading-aware", 1000))`` it is ``'"policies": {"fixed-char": 1000, "heading-aware":
    288}'``. (Left out, a size falls back to the lesson's default, 80 for fixed-char.)
    """
    sizes = {**dict(policy_sizes), "heading-aware": target}
    return f'"policies": {json.dumps({name: sizes[name] for name in SIZED_POLICIES if name in sizes})}'


def build_lines(pairs: list[dict], policy_sizes: tuple[tuple[str, int], ...] = ()) -> list[str]:
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
        return [f"to build it: {manifest_size_line(next(iter(found)), policy_sizes)}"]
    return [
        f"to build {target:,} (for {', '.join(names)}): {manifest_size_line(target, policy_sizes)}"
        for target, names in sorted(found.items())
    ]
