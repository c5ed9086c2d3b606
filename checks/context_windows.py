"""How much neighbouring context brings a split caveat back, and what it costs: ``run.py context``.

When a policy cuts a qualifier away from its instruction, a retrieval can add
context back by rule: the k neighbouring chunks on each side of the chunk that
matched (sentence-window retrieval), or the whole parent section
(parent-document retrieval). For every span check and every policy this module
finds the smallest window that recovers the qualifier, and per policy the
recall at k = 0..3 and for the section, the characters returned, and the
character precision and IoU of the returned text against the two spans.

Definitions (``docs/caveats.md`` says more):

- holds, covers: a chunk holds a span, and chunks together cover it, when
  they hold all of it, as the main job compares; a judged chunker's chunks
  when they hold every non-whitespace character of it (whitespace as
  ``str.split`` sees it, the judge's coverage rule: ``non_whitespace``): a
  splitter that strips the space where it cuts loses no word of the span.
- anchor: the chunk holding the whole instruction; if several do, the one with
  the smallest window (then the smallest crossing-headings window, then the
  lowest order). When no chunk holds it whole (an instruction longer than
  every chunk), the chunk holding its first non-whitespace character, chosen
  the same way, counted in ``anchored_at_start`` and never as kept. No chunk
  holds even that: the pair is not recoverable by windows.
- the pair's section: the section holding the instruction when the caller
  says (``section_of``; judged chunks may start before a heading), else the
  anchor's ``section_id`` (the lab's chunks never cross a heading).
- window k: the anchor's source's chunks at positions i-k..i+k in ``order``;
  "within the section" keeps only those in the pair's section (a chunk's
  ``section_ids``, or its one ``section_id``), "crossing headings" keeps them
  all. The section rule returns every chunk in the pair's section.
- recovered: the union of the returned chunks covers the whole qualifier (a
  retrieval that concatenates neighbours hands the reader their union).
- characters returned: the sum of the returned chunks' lengths (overlaps count
  each time, as a retrieval returns them). precision = |returned ∩ relevant| /
  |returned| and IoU = |returned ∩ relevant| / |returned ∪ relevant|, where
  returned is the union of the returned spans and relevant the union of the
  instruction and qualifier spans: the token-level metrics of Chroma's
  "Evaluating Chunking Strategies for Retrieval", here on characters.

Cost is linear: each source's chunks are indexed by order once, each
section's union is merged once, and each pair looks only at the chunks its
own spans touch. Used by ``run.py context`` and by the judge of other
chunkers' output; it reads no files and writes none.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from checks.span_checks import ReachingSpans
from lab_io.errors import printable

CONTEXT_WINDOWS = (0, 1, 2, 3)  # k neighbouring chunks on each side
SECTION = "section"
FIGURE_KEYS = (*(str(k) for k in CONTEXT_WINDOWS), SECTION)


class Merged(NamedTuple):
    """Disjoint sorted intervals with prefix sums of their lengths, for covered-length queries."""

    starts: list[int]
    ends: list[int]
    prefix: list[int]

    def covered(self, start: int, end: int) -> int:
        """How many characters of ``[start, end)`` the intervals cover."""
        if start >= end or not self.starts:
            return 0
        first = bisect_right(self.ends, start)
        last = bisect_left(self.starts, end)
        if first >= last:
            return 0
        total = self.prefix[last] - self.prefix[first]
        total -= max(0, start - self.starts[first])
        total -= max(0, self.ends[last - 1] - end)
        return total

    @property
    def length(self) -> int:
        return self.prefix[-1]


def merged(spans) -> Merged:
    """``[(5, 9), (0, 3), (2, 4)]`` -> intervals ``[0, 4)`` and ``[5, 9)``, total 8."""
    starts: list[int] = []
    ends: list[int] = []
    for start, end in sorted(spans):
        if start >= end:
            continue
        if ends and start <= ends[-1]:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    prefix = [0]
    for start, end in zip(starts, ends):
        prefix.append(prefix[-1] + end - start)
    return Merged(starts, ends, prefix)


# A character str.split keeps (``\s`` in a str pattern is what str.isspace calls whitespace).
NON_WHITESPACE = re.compile(r"\S")


def non_whitespace(text: str, start: int, end: int) -> int:
    """Characters of ``text[start:end]`` that are not whitespace: ``non_whitespace("a b\\n", 0, 4)`` -> 2.

    The lab's one notion of whitespace (``str.split``'s): the judge's coverage
    counts with it, and a window's recovery passes over what it does not count.
    """
    return sum(map(len, text[start:end].split()))


def trimmed(span) -> tuple[int, int]:
    """``span`` from its first to its last non-whitespace character: ``Span(4, 10, " ab c ")`` -> ``(5, 9)``.

    ``span.quote`` is the text at ``[start, end)`` (the loader checks it). A
    span of whitespace alone stays whole.
    """
    quote = span.quote
    lead = len(quote) - len(quote.lstrip())
    kept = len(quote.strip())
    if not kept:
        return span.start, span.end
    return span.start + lead, span.start + lead + kept


def held_span(span, judged: bool) -> tuple[int, int]:
    """What a chunk must hold of ``span``: all of it, or for a judged chunker's chunks its non-whitespace part.

    The lab's own chunks are exact slices and the main job compares them with
    the spans exactly, so ``context`` does too; a judged splitter may strip the
    whitespace where it cuts, which no reader misses (``trimmed``).
    """
    return trimmed(span) if judged else (span.start, span.end)


class SpanCover:
    """What the chunks added so far hold of one span; for judged chunks, whitespace-only gaps passed over.

    Disjoint sorted intervals inside ``held_span``; for judged chunks two
    intervals join when only whitespace lies between them, so ``whole`` is
    true once the chunks hold every non-whitespace character of the span.
    Whether a gap is blank is one bisection in the offsets of the quote's
    non-whitespace characters, listed once, so a gap is never rescanned.
    ``SpanCover(Span(0, 7, "ab cd e"), judged=True)`` with ``[0, 2)`` and
    ``[3, 5)`` added holds ``[0, 5)``; adding ``[6, 7)`` makes it whole.
    """

    def __init__(self, span, judged: bool = False) -> None:
        self.span = span
        self.judged = judged
        self.start, self.end = held_span(span, judged)
        self.starts: list[int] = []
        self.ends: list[int] = []
        self._marks: list[int] | None = None

    def add(self, start: int, end: int) -> None:
        start = max(start, self.start)
        end = min(end, self.end)
        if start >= end:
            return
        add_covered(self.starts, self.ends, start, end)
        joined = bisect_right(self.starts, start) - 1
        if joined + 1 < len(self.starts) and self.blank(self.ends[joined], self.starts[joined + 1]):
            self.join(joined)
        if joined > 0 and self.blank(self.ends[joined - 1], self.starts[joined]):
            self.join(joined - 1)

    def blank(self, start: int, end: int) -> bool:
        """Whether only whitespace lies in ``[start, end)``; never, for the lab's own exact chunks."""
        if not self.judged:
            return False
        if self._marks is None:
            # Offsets of the quote's non-whitespace characters (``\S`` is what str.split keeps).
            self._marks = [self.span.start + match.start() for match in NON_WHITESPACE.finditer(self.span.quote)]
        found = bisect_left(self._marks, start)
        return found == len(self._marks) or self._marks[found] >= end

    def join(self, position: int) -> None:
        """Join the interval at ``position`` with the next one."""
        self.ends[position] = self.ends[position + 1]
        del self.starts[position + 1]
        del self.ends[position + 1]

    @property
    def whole(self) -> bool:
        return bool(self.starts) and self.starts[0] <= self.start and self.ends[0] >= self.end


def holds(chunk: dict, start: int, end: int) -> bool:
    """Whether ``chunk`` holds ``[start, end)`` (a ``held_span``)."""
    return chunk["start"] <= start and end <= chunk["end"]


def chunk_sections(chunk: dict) -> tuple[str, ...]:
    """Every section ``chunk`` lies in: its ``section_ids`` (a judged chunk may cross a heading), else its one."""
    return tuple(chunk.get("section_ids") or (chunk["section_id"],))


@dataclass
class SourceIndex:
    """One source's chunks by position in ``order``, and what the pair lookups need, built once."""

    chunks: list[dict]
    by_start: list[tuple[int, int]]  # (start, position), sorted
    starts: list[int]
    reaching: ReachingSpans
    memberships: list[tuple[str, ...]]  # position -> the sections its chunk lies in
    sections: dict[str, list[int]]  # section_id -> positions
    # section_id -> (characters of its chunks, overlaps counted each time; their union): made on first need.
    extents: dict[str, tuple[int, Merged]] = field(default_factory=dict)

    def section_extent(self, section_id: str) -> tuple[int, Merged]:
        """The characters ``section_id``'s chunks return (each counted) and their union, merged once.

        Only the sections a pair is anchored in are asked for, so a page's other sections cost nothing.
        """
        if section_id not in self.extents:
            spans = [(self.chunks[p]["start"], self.chunks[p]["end"]) for p in self.sections[section_id]]
            self.extents[section_id] = (sum(end - start for start, end in spans), merged(spans))
        return self.extents[section_id]


def source_indexes(chunks: list[dict], wanted: set[str] | None = None) -> dict[str, SourceIndex]:
    """Each source's chunks sorted by ``order`` once, with their starts and sections for bisection.

    ``wanted``, when given, names the only sources to index (those the checks
    are in): a docs set's other pages cost a pass over their chunks, no more.
    """
    grouped: dict[str, list[dict]] = {}
    for chunk in chunks:
        if wanted is None or chunk["source_id"] in wanted:
            grouped.setdefault(chunk["source_id"], []).append(chunk)
    indexes = {}
    for source_id, group in grouped.items():
        group.sort(key=itemgetter("order"))
        by_start = sorted((chunk["start"], position) for position, chunk in enumerate(group))
        sections: dict[str, list[int]] = {}
        memberships = [chunk_sections(chunk) for chunk in group]
        for position, member_of in enumerate(memberships):
            for section_id in member_of:
                sections.setdefault(section_id, []).append(position)
        indexes[source_id] = SourceIndex(
            chunks=group,
            by_start=by_start,
            starts=[start for start, _ in by_start],
            reaching=ReachingSpans([(group[position]["start"], group[position]["end"]) for _, position in by_start]),
            memberships=memberships,
            sections=sections,
        )
    return indexes


def touching(index: SourceIndex, start: int, end: int) -> list[int]:
    """Positions of the chunks that overlap ``[start, end)``: starting before its end, reaching past its start."""
    return [index.by_start[found][1] for found in index.reaching.reaching(bisect_left(index.starts, end), start)]


def qualifier_helpers(index: SourceIndex, qualifier, section_id: str | None, judged: bool = False) -> list[int] | None:
    """Positions, ascending, of the chunks that touch the trimmed ``qualifier`` (only ``section_id``'s when given).

    ``None`` when even all of them together leave a non-whitespace character of
    it uncovered: then no window can recover it.
    """
    start, end = held_span(qualifier, judged)
    positions = sorted(
        position
        for position in touching(index, start, end)
        if section_id is None or section_id in index.memberships[position]
    )
    return positions if covers(index, qualifier, positions, judged) else None


def covers(index: SourceIndex, span, positions: list[int], judged: bool = False) -> bool:
    """Whether the chunks at ``positions`` together hold ``span`` (``SpanCover``: its non-whitespace, when judged)."""
    cover = SpanCover(span, judged)
    for position in positions:
        cover.add(index.chunks[position]["start"], index.chunks[position]["end"])
    return cover.whole


def smallest_window(
    index: SourceIndex,
    anchor: int,
    qualifier,
    section_id: str | None,
    helpers: list[int] | None = (),
    judged: bool = False,
) -> int | None:
    """The smallest k whose window around ``anchor`` covers ``qualifier`` with its union; ``None`` if none does.

    Only chunks that touch the span can help, so they are taken nearest first
    until their union covers it (whitespace-only gaps passed over, as
    ``SpanCover`` says); ``section_id`` keeps only that section's chunks.
    ``helpers`` is ``qualifier_helpers(index, qualifier, section_id)`` when the
    caller has it already (one pair weighs every chunk holding its instruction
    against the same helpers). The walk goes outward from the anchor and keeps
    the covered part as it grows, so one anchor costs the helpers it passes.
    """
    if helpers == ():
        helpers = qualifier_helpers(index, qualifier, section_id, judged)
    if helpers is None:
        return None
    cover = SpanCover(qualifier, judged)
    right = bisect_left(helpers, anchor)
    left = right - 1
    while left >= 0 or right < len(helpers):
        left_distance = anchor - helpers[left] if left >= 0 else None
        right_distance = helpers[right] - anchor if right < len(helpers) else None
        distance = min(d for d in (left_distance, right_distance) if d is not None)
        # Both helpers at one distance join before coverage is judged.
        taken = []
        if left_distance == distance:
            taken.append(helpers[left])
            left -= 1
        if right_distance == distance:
            taken.append(helpers[right])
            right += 1
        for position in taken:
            cover.add(index.chunks[position]["start"], index.chunks[position]["end"])
        if cover.whole:
            return distance
    return None


def add_covered(starts: list[int], ends: list[int], start: int, end: int) -> None:
    """Add ``[start, end)`` to the disjoint sorted intervals ``starts``/``ends``, joining what it meets or touches."""
    if start >= end:
        return
    first = bisect_left(ends, start)
    last = bisect_right(starts, end)
    if first < last:
        start = min(start, starts[first])
        end = max(end, ends[last - 1])
    starts[first:last] = [start]
    ends[first:last] = [end]


def window_positions(index: SourceIndex, anchor: int, k: int, section_id: str | None) -> list[int]:
    """Positions ``anchor-k .. anchor+k`` that exist, kept to ``section_id``'s chunks when given."""
    low = max(0, anchor - k)
    high = min(len(index.chunks), anchor + k + 1)
    return [
        position for position in range(low, high) if section_id is None or section_id in index.memberships[position]
    ]


class PairWindow(NamedTuple):
    """One span check under one index: its anchor, the pair's section and smallest windows, or no anchor at all."""

    name: str
    source: SourceIndex | None
    anchor: int | None
    window: int | None
    window_crossing_headings: int | None
    relevant: Merged
    section_id: str | None = None
    # False when no chunk holds the whole instruction and the anchor holds where it begins.
    whole_anchor: bool = True


def pair_window(indexes: dict[str, SourceIndex], check, section_of=None) -> PairWindow:
    """The anchor and smallest windows of one check (see the module docstring for the tie-breaks).

    ``section_of(source_id, offset)`` names the section holding an offset, and
    is given for a judged chunker's chunks only: the pair's section is then
    the one holding the instruction's first non-whitespace character,
    whatever section its anchor starts in, and spans are held as
    ``held_span`` says for judged chunks. Without it (the lab's own chunks)
    spans are held exactly, as the main job compares them.
    """
    judged = section_of is not None
    instruction, qualifier = check.instruction, check.qualifier
    relevant = merged([(instruction.start, instruction.end), (qualifier.start, qualifier.end)])
    index = indexes.get(check.source_id)
    if index is None:
        return PairWindow(check.name, None, None, None, None, relevant)
    instruction_start, instruction_end = held_span(instruction, judged)
    pair_section = None if section_of is None else section_of(check.source_id, instruction_start)
    # The qualifier's helpers are the same for every chunk holding the instruction: found once per section.
    helpers: dict[str | None, list[int] | None] = {}

    def helpers_in(section_id: str) -> list[int] | None:
        """``qualifier_helpers(index, qualifier, section_id)``, read off the helpers of every section."""
        if None not in helpers:
            helpers[None] = qualifier_helpers(index, qualifier, None, judged)
        if section_id not in helpers:
            everywhere = helpers[None]
            # What all the chunks touching the qualifier leave uncovered, a section's few leave too.
            inside = None if everywhere is None else [p for p in everywhere if section_id in index.memberships[p]]
            if inside is None or len(inside) == len(everywhere):
                helpers[section_id] = everywhere
            else:
                helpers[section_id] = inside if covers(index, qualifier, inside, judged) else None
        return helpers[section_id]

    def best_anchor(start: int, end: int):
        best = None
        for position in touching(index, start, end):
            chunk = index.chunks[position]
            if not holds(chunk, start, end):
                continue
            section_id = chunk["section_id"] if pair_section is None else pair_section
            within = smallest_window(index, position, qualifier, section_id, helpers_in(section_id), judged)
            if helpers[section_id] == helpers[None]:
                # The qualifier's chunks all lie in the section: crossing headings finds no other window.
                crossing = within
            else:
                crossing = smallest_window(index, position, qualifier, None, helpers[None], judged)
            rank = (within is None, within or 0, crossing is None, crossing or 0, position)
            if best is None or rank < best[0]:
                best = (rank, position, within, crossing, section_id)
        return best

    best = best_anchor(instruction_start, instruction_end)
    whole = best is not None
    if not whole:
        # An instruction longer than every chunk (a whole sentence under 80-character slices): a
        # retriever matching it hits the chunk where it begins, so the window grows from there.
        best = best_anchor(instruction_start, instruction_start + 1)
    if best is None:
        return PairWindow(check.name, index, None, None, None, relevant)
    _, position, within, crossing, section_id = best
    return PairWindow(check.name, index, position, within, crossing, relevant, section_id, whole)


def returned_figures(index: SourceIndex, positions: list[int], relevant: Merged) -> tuple[int, float, float]:
    """Characters returned, precision and IoU of the chunks at ``positions`` against ``relevant``.

    The returned union is walked as it is merged (a window holds a few chunks),
    never built: its length and what it shares with ``relevant``, as
    ``overlap_figures`` takes them from a ``Merged``.
    """
    chunks = index.chunks
    characters = 0
    length = 0
    common = 0
    # [low, high): the stretch of the union being merged; empty until the first chunk.
    low, high = 0, -1
    for start, end in sorted([(chunks[p]["start"], chunks[p]["end"]) for p in positions]):
        characters += end - start
        if start >= end:
            continue
        if start <= high:
            high = max(high, end)
            continue
        if high > low:
            length += high - low
            common += relevant.covered(low, high)
        low, high = start, end
    if high > low:
        length += high - low
        common += relevant.covered(low, high)
    return shared_figures(characters, length, common, relevant.length)


def overlap_figures(characters: int, returned: Merged, relevant: Merged) -> tuple[int, float, float]:
    """``(characters, precision, IoU)`` from the returned union and the relevant union."""
    common = sum(returned.covered(start, end) for start, end in zip(relevant.starts, relevant.ends))
    return shared_figures(characters, returned.length, common, relevant.length)


def shared_figures(characters: int, returned: int, common: int, relevant: int) -> tuple[int, float, float]:
    """``(characters, precision, IoU)`` from the lengths of the returned union, its share and the relevant union."""
    union = returned + relevant - common
    precision = common / returned if returned else 0.0
    iou = common / union if union else 0.0
    return characters, precision, iou


def rounded(value: float) -> float:
    return round(value, 4)


def policy_context(name: str, chunks: list[dict], checks: tuple, section_of=None) -> dict:
    """Context figures for one index (the lab's or a judged one) and the span checks.

    ``chunks``: every chunk of the index, dicts with at least ``source_id``,
    ``order`` (position within its source, 0-based, consecutive), ``start``,
    ``end`` and ``section_id``; judged chunks may overlap or leave gaps.
    ``checks``: ``load_documents.SpanCheck`` items. Returns, as JSON-able values:
    ``policy``, ``pairs``, ``kept`` (recovered at k = 0 by a chunk holding the
    whole instruction), ``anchored_at_start`` (anchored where the instruction
    begins), ``not_recoverable`` (no chunk holds even that), ``recall`` and ``recall_crossing_headings``
    by k (the fraction of all pairs recovered), ``mean_chars``, ``precision``
    and ``iou`` by k and for the section (means over the pairs that have an
    anchor; within the section), and per pair its smallest ``window``, its
    ``window_crossing_headings`` and whether its ``section`` recovers it.
    ``section_of(source_id, offset)``: the section holding an offset, for
    chunks that may cross a heading (``pair_window``); the lab's never do.
    """
    indexes = source_indexes(chunks, {check.source_id for check in checks})
    windows = [pair_window(indexes, check, section_of) for check in checks]
    anchored = [window for window in windows if window.anchor is not None]
    pairs = len(windows)
    recall = {}
    crossing = {}
    sums = {key: [0, 0.0, 0.0] for key in FIGURE_KEYS}
    for k in CONTEXT_WINDOWS:
        recall[str(k)] = fraction(sum(1 for w in anchored if w.window is not None and w.window <= k), pairs)
        crossing[str(k)] = fraction(
            sum(1 for w in anchored if w.window_crossing_headings is not None and w.window_crossing_headings <= k),
            pairs,
        )
    recall[SECTION] = fraction(sum(1 for w in anchored if w.window is not None), pairs)
    window_sums = [(k, sums[str(k)]) for k in CONTEXT_WINDOWS]
    for window in anchored:
        index = window.source
        anchor = window.anchor
        # The widest window once, ascending; each smaller k is the run of it within k of the anchor.
        widest = window_positions(index, anchor, CONTEXT_WINDOWS[-1], window.section_id)
        figures = None
        taken = None
        for k, total in window_sums:
            run = (bisect_left(widest, anchor - k), bisect_right(widest, anchor + k))
            # Each window holds the one before it: the same run is the same chunks, the same figures.
            if run != taken:
                figures = returned_figures(index, widest[run[0] : run[1]], window.relevant)
                taken = run
            add_figures(total, figures)
        add_figures(sums[SECTION], overlap_figures(*index.section_extent(window.section_id), window.relevant))
    count = len(anchored)
    return {
        "policy": name,
        "pairs": pairs,
        "kept": sum(1 for w in anchored if w.window == 0 and w.whole_anchor),
        "anchored_at_start": sum(1 for w in anchored if not w.whole_anchor),
        "not_recoverable": pairs - count,
        "recall": recall,
        "recall_crossing_headings": crossing,
        "mean_chars": {key: rounded(sums[key][0] / count) if count else 0.0 for key in FIGURE_KEYS},
        "precision": {key: rounded(sums[key][1] / count) if count else 0.0 for key in FIGURE_KEYS},
        "iou": {key: rounded(sums[key][2] / count) if count else 0.0 for key in FIGURE_KEYS},
        "windows": [
            {
                "name": w.name,
                "window": w.window,
                "window_crossing_headings": w.window_crossing_headings,
                "section": w.window is not None,
            }
            for w in windows
        ],
    }


@dataclass(frozen=True)
class RecoveringWindow:
    """Where a check's qualifier comes back under one index: the anchor's order and the window's orders."""

    name: str
    source_id: str
    anchor_order: int | None
    window: int | None
    window_crossing_headings: int | None
    orders: tuple[int, ...]


def recovering_windows(chunks: list[dict], checks: tuple, section_of=None) -> list[RecoveringWindow]:
    """For each check, its anchor and the orders of the chunks in its smallest window within the section.

    ``orders`` is empty when no window in the section recovers the qualifier
    or no chunk holds the instruction. Used to mark the window in the report.
    """
    indexes = source_indexes(chunks, {check.source_id for check in checks})
    found = []
    for check in checks:
        window = pair_window(indexes, check, section_of)
        if window.anchor is None:
            found.append(RecoveringWindow(check.name, check.source_id, None, None, None, ()))
            continue
        index = window.source
        anchor_chunk = index.chunks[window.anchor]
        orders: tuple[int, ...] = ()
        if window.window is not None:
            positions = window_positions(index, window.anchor, window.window, window.section_id)
            orders = tuple(index.chunks[position]["order"] for position in positions)
        found.append(
            RecoveringWindow(
                check.name,
                check.source_id,
                anchor_chunk["order"],
                window.window,
                window.window_crossing_headings,
                orders,
            )
        )
    return found


def add_figures(total: list, figures: tuple[int, float, float]) -> None:
    for position, value in enumerate(figures):
        total[position] += value


def fraction(count: int, total: int) -> float:
    return rounded(count / total) if total else 0.0


def recovered_count(figures: dict, key: str) -> int:
    """How many pairs the window ``key`` (or ``"section"``) recovers, from the per-pair windows."""
    windows = [entry["window"] for entry in figures["windows"]]
    if key == SECTION:
        return sum(1 for window in windows if window is not None)
    return sum(1 for window in windows if window is not None and window <= int(key))


def context_summary_line(figures: dict) -> str:
    """The trade-off in one line: ``"paragraph: 0 of 1 kept; k=1 recovers 1 of 1 at 2.8x the characters"``.

    The k named is the smallest window that recovers as many pairs as k = 3
    does; the parent section is added when it recovers more, and pairs no
    chunk anchors are counted at the end.
    """
    name = figures["policy"]
    pairs = figures["pairs"]
    if pairs == 0:
        return f"{name}: no span checks"
    kept = figures["kept"]
    line = f"{name}: {kept:,} of {pairs:,} kept"
    best = recovered_count(figures, str(CONTEXT_WINDOWS[-1]))
    base = figures["mean_chars"]["0"]
    if kept == pairs:
        line += "; k=0 suffices"
    elif best > kept:
        k = next(k for k in CONTEXT_WINDOWS if recovered_count(figures, str(k)) == best)
        line += f"; k={k} recovers {best:,} of {pairs:,} at {cost_ratio(figures['mean_chars'][str(k)], base)} the characters"
    else:
        line += f"; no window up to k={CONTEXT_WINDOWS[-1]} recovers more"
    in_section = recovered_count(figures, SECTION)
    if in_section > max(best, kept):
        line += (
            f"; the section recovers {in_section:,} of {pairs:,} at {cost_ratio(figures['mean_chars'][SECTION], base)}"
        )
    # The pairs no chunk holds whole go on a line of their own under it, so each stays near a screen wide.
    notes = []
    if figures.get("anchored_at_start"):
        note = f"{figures['anchored_at_start']:,} anchored where the instruction begins (no chunk holds it whole"
        # Such a pair's anchor chunk can hold the qualifier: the recall table's k=0 counts it, "kept" never does.
        extra = recovered_count(figures, "0") - kept
        notes.append(
            note
            + (f"; {extra:,} of them with the qualifier at k=0, in the table's k=0 but not kept)" if extra else ")")
        )
    if figures.get("not_recoverable"):
        notes.append(f"{figures['not_recoverable']:,} not recoverable (no chunk holds the instruction)")
    return line + "".join(f"\n  {name}: {note}" for note in notes)


def cost_ratio(characters: float, base: float) -> str:
    """``"2.8x"``: characters returned against what k = 0 returns."""
    return f"{characters / base:.1f}x" if base else "n/a"


NO_CHECKS = (
    "no span checks to measure: declare some in the manifest, run `run.py scan --add-checks`, "
    "or add --scanned to measure the pairs scan finds"
)


LISTED_PAIRS = 20
"""The text view gives the smallest windows of at most this many pairs; the tables above count them all."""


def context_table(all_figures: list[dict], check_names: list[str]) -> str:
    """``run.py context`` as a person reads it: recall by window, cost by window, each pair's windows, trade-offs."""
    if all(figures["pairs"] == 0 for figures in all_figures):
        return NO_CHECKS
    keys = FIGURE_KEYS
    labels = [f"k={key}" if key != SECTION else SECTION for key in keys]
    lines = ["recall: pairs whose qualifier comes back (within the section; crossing headings in brackets)"]
    rows = [("policy", "pairs", *labels)]
    for figures in all_figures:
        cells = []
        for key in keys:
            cell = f"{recovered_count(figures, key):,}"
            if key != SECTION:
                cell += f" ({crossing_count(figures, key):,})"
            cells.append(cell)
        rows.append((figures["policy"], f"{figures['pairs']:,}", *cells))
    lines.extend(aligned(rows))
    lines.append("")
    lines.append("cost: mean characters returned · character precision · IoU against the two spans")
    rows = [("policy", *labels)]
    for figures in all_figures:
        rows.append(
            (
                figures["policy"],
                *(
                    f"{figures['mean_chars'][key]:,.0f} · {figures['precision'][key]:.2f} · {figures['iou'][key]:.2f}"
                    for key in keys
                ),
            )
        )
    lines.extend(aligned(rows))
    if check_names:
        lines.append("")
        lines.append("smallest window per pair (k within the section; - when none recovers it)")
        by_policy = [{entry["name"]: entry for entry in figures["windows"]} for figures in all_figures]
        for name in check_names[:LISTED_PAIRS]:
            parts = []
            for figures, entries in zip(all_figures, by_policy):
                entry = entries[name]
                window = "-" if entry["window"] is None else f"k={entry['window']}"
                parts.append(f"{figures['policy']} {window}")
            lines.append(f"  {printable(name)}: {', '.join(parts)}")
        if len(check_names) > LISTED_PAIRS:
            lines.append(f"  … {len(check_names) - LISTED_PAIRS:,} more pairs: --json lists every one")
    lines.append("")
    lines.extend(context_summary_line(figures) for figures in all_figures)
    return "\n".join(lines)


def crossing_count(figures: dict, key: str) -> int:
    """How many pairs the window ``key`` recovers when it may cross headings."""
    return sum(
        1
        for entry in figures["windows"]
        if entry["window_crossing_headings"] is not None and entry["window_crossing_headings"] <= int(key)
    )


def aligned(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as columns: the first left-aligned, the rest right-aligned."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(widths[0]) if column == 0 else cell.rjust(widths[column]) for column, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
