"""Each pair under each set of chunks the views compare: kept, split (by which boundaries) or apart, and its window.

The docs-set report and the overview of ``show`` ask the same questions of
every pair under every policy of a result (and, for ``judge``, under the
judged chunks): does one chunk hold it, which chunk edges fall between its
instruction and its caveat, what each of those boundaries is (a heading, a
block break, a size target, a fixed-width cut), and which window of
neighbouring chunks brings the caveat back. A ``Column`` holds one set of
chunks grouped by source once, so each pair costs a few bisections, never a
pass over a page's chunks. The policies are those of the result, in its
order, never a fixed list. It renders nothing.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

import chunk_index
from checks import context_windows, span_checks
from checks.caveats.verdicts import HEADING_REASON, SPLIT_REASONS
from views.pictures import Split, line_of, pair_verdict
from views.summary import policy_label

# What a judged chunker's boundary inside a section is called: the lab does not know its rule.
JUDGED_REASON = "chunk boundary"
KEPT = "kept"
SPLIT = "split"
# Not held by one chunk, yet no boundary separates them: a span lies outside every chunk (a heading, say).
APART = "apart"


@dataclass(frozen=True)
class Column:
    """One set of chunks beside the others: a policy of the result, or a judged chunker's located chunks.

    ``key`` (``p0``, ``p1``…) names the column in ids and classes, since a
    name is data; ``reason`` is what its boundaries inside a section are.
    """

    key: str
    name: str
    label: str
    config: dict | None
    chunks: dict[str, span_checks.SourceChunks]
    windows: tuple
    reason: str
    judged: bool = False
    # Sources with chunks the judge could not locate: verdicts there are partial.
    unlocated: dict = field(default_factory=dict)

    def source_chunks(self, source_id: str) -> span_checks.SourceChunks:
        return self.chunks.get(source_id, span_checks.NO_CHUNKS)


@dataclass(frozen=True)
class Boundary:
    """A chunk edge strictly between a pair's first character and its last, and what kind of boundary it is."""

    offset: int
    line: int
    kind: str


@dataclass(frozen=True)
class ColumnVerdict:
    """One pair under one column: ``kept``, ``split`` or ``apart``, the sentence, the boundaries and the window."""

    state: str
    sentence: str
    boundaries: tuple[Boundary, ...]
    window: object

    @property
    def kept(self) -> bool:
        return self.state == KEPT


@dataclass(frozen=True)
class PairRow:
    """One pair with its number (1-based, the order of the checks), its source and every column's verdict."""

    number: int
    check: object
    source: dict
    line: int
    verdicts: tuple[ColumnVerdict, ...]
    # The line where the later of the two spans starts: the line scan names a found pair by.
    last_line: int = 0

    @property
    def line_range(self) -> str:
        """The pair's lines, from where it starts to where its later span starts: ``"16"``, ``"102–121"``."""
        return str(self.line) if self.last_line <= self.line else f"{self.line}–{self.last_line}"

    @property
    def lines(self) -> str:
        """Where the pair lies, in words: ``"line 16"``, ``"lines 102–121"``."""
        return f"{'line' if self.last_line <= self.line else 'lines'} {self.line_range}"

    @property
    def split_anywhere(self) -> bool:
        return any(not verdict.kept for verdict in self.verdicts)


def policy_columns(result: dict, checks: tuple) -> list[Column]:
    """A column per index of ``result``, in the result's order, with each check's recovering window."""
    columns = []
    # A window is only ever looked for on a page holding a check: the other pages' chunks are left out.
    checked = {check.source_id for check in checks}
    for position, (name, index) in enumerate(result["indexes"].items()):
        checked_chunks = [chunk for chunk in index["chunks"] if chunk["source_id"] in checked]
        columns.append(
            Column(
                key=f"p{position}",
                name=name,
                label=policy_label(name, index["config"]) if name in chunk_index.POLICY_NAMES else name,
                config=index["config"],
                chunks=span_checks.chunks_by_source(index),
                windows=tuple(context_windows.recovering_windows(checked_chunks, checks)),
                reason=SPLIT_REASONS.get(name, JUDGED_REASON),
            )
        )
    return columns


def judged_column(judgement, checks: tuple, position: int, section_of=None) -> Column:
    """The judged chunks as one more column; ``section_of`` (``judge.pair_sections``) bounds their windows."""
    chunks = judgement.chunks
    checked = {check.source_id for check in checks}
    checked_chunks = [chunk for chunk in chunks if chunk["source_id"] in checked]
    return Column(
        key=f"p{position}",
        name=judgement.name,
        label=judgement.name,
        config=None,
        chunks=span_checks.chunks_by_source({"chunks": chunks}),
        windows=tuple(context_windows.recovering_windows(checked_chunks, checks, section_of)),
        reason=JUDGED_REASON,
        judged=True,
        unlocated=dict(judgement.unlocated),
    )


def inner_edges(chunks: span_checks.SourceChunks, low: int, high: int) -> list[int]:
    """Where the chunks are cut strictly between ``low`` and ``high``: one offset per boundary, ascending.

    A chunk's end and the next chunk's start with only text outside every
    chunk between them (a blank line, a heading) are one boundary, named at
    the end: ``[0, 10)`` and ``[12, 20)`` cut ``(5, 15)`` once, at 10.
    """
    if not chunks.ordered:
        edges = {edge for chunk in chunks.chunks for edge in (chunk["start"], chunk["end"]) if low < edge < high}
        return sorted(edges)
    first = bisect_right(chunks.ends, low)
    last = bisect_left(chunks.starts, high)
    edges = set()
    for position in range(first, last):
        chunk = chunks.chunks[position]
        if low < chunk["start"] < high and not (position > first and chunks.ends[position - 1] in edges):
            edges.add(chunk["start"])
        if low < chunk["end"] < high:
            edges.add(chunk["end"])
    return sorted(edges)


def boundary_kind(chunks: span_checks.SourceChunks, offset: int, reason: str, text: str | None = None) -> str:
    """``heading`` when the text on either side of ``offset`` lies in different sections, else ``reason``.

    With the source's ``text``, a side is its nearest character that is not white space (within
    ``BLANK_REACH``): a cut on the blank line before a heading is the heading's.

    A judged chunk may cross a heading (its ``section_ids``, each after the first beginning at its
    ``section_breaks``), and with a splitter's overlap a chunk that began before the cut holds the text on both
    its sides: the section of each side is the one holding that side's character, not the section a chunk ends
    in. The lab's own chunks lie in one section each, with text outside every chunk (a heading line) between.
    """
    before = [chunk for chunk in chunks.touching(offset - 1, offset)]
    after = [chunk for chunk in chunks.touching(offset, offset + 1)]
    if not before or not after:
        # Text outside every chunk on one side: look at the nearest chunk there instead.
        before = before or nearest(chunks, offset, before_offset=True)
        after = after or nearest(chunks, offset, before_offset=False)
    left, right = offset - 1, offset
    if text is not None:
        stretch = text[max(offset - BLANK_REACH, 0) : offset]
        left -= len(stretch) - len(stretch.rstrip())
        stretch = text[offset : offset + BLANK_REACH]
        right += len(stretch) - len(stretch.lstrip())
    if before and after and section_at(before[-1], left) != section_at(after[0], right):
        return HEADING_REASON
    return reason


# How far a cut's side is looked for past white space: a run of blank lines, not a page.
BLANK_REACH = 200


def section_at(chunk: dict, offset: int) -> str | None:
    """The id of the section of ``chunk`` that holds ``offset`` (the nearest one, for an offset outside the chunk):
    among a judged chunk's ``section_ids`` by its ``section_breaks``; without breaks the last it lies in."""
    crossed = chunk.get("section_ids")
    if not crossed:
        return chunk.get("section_id")
    breaks = chunk.get("section_breaks")
    if breaks is None or len(breaks) != len(crossed) - 1:
        return crossed[-1]
    return crossed[bisect_right(breaks, offset)]


def nearest(chunks: span_checks.SourceChunks, offset: int, before_offset: bool) -> list[dict]:
    """The last chunk ending at or before ``offset``, or the first starting at or after it (ordered chunks)."""
    if not chunks.ordered:
        if before_offset:
            found = [chunk for chunk in chunks.chunks if chunk["end"] <= offset]
            return found[-1:]
        return [chunk for chunk in chunks.chunks if chunk["start"] >= offset][:1]
    if before_offset:
        position = bisect_right(chunks.ends, offset)
        return list(chunks.chunks[position - 1 : position])
    position = bisect_left(chunks.starts, offset)
    return list(chunks.chunks[position : position + 1])


def column_verdict(column: Column, check, position: int, newlines: list[int], text: str | None = None) -> ColumnVerdict:
    """``check`` (the ``position``-th) under ``column``: its state, sentence, named boundaries and window."""
    chunks = column.source_chunks(check.source_id)
    # A card and a table row name their pair already: the sentence need not (one check's wording).
    verdict = pair_verdict(check, chunks, newlines, 1)
    window = column.windows[position]
    low = min(check.instruction.start, check.qualifier.start)
    high = max(check.instruction.end, check.qualifier.end)
    if isinstance(verdict, Split):
        boundaries = tuple(
            Boundary(offset, line_of(newlines, offset), boundary_kind(chunks, offset, column.reason, text))
            for offset in inner_edges(chunks, low, high)
        )
        return ColumnVerdict(SPLIT, verdict.sentence, boundaries, window)
    state = KEPT if verdict.startswith("kept together") else APART
    return ColumnVerdict(state, verdict, (), window)


def pair_rows(sources: tuple[dict, ...] | list[dict], checks: tuple, columns: list[Column]) -> list[PairRow]:
    """Every check with every column's verdict, in the checks' order; each source's newlines found once."""
    by_id = {source["source_id"]: source for source in sources}
    newlines: dict[str, list[int]] = {}
    rows = []
    for position, check in enumerate(checks):
        source = by_id[check.source_id]
        if check.source_id not in newlines:
            newlines[check.source_id] = chunk_index.newline_offsets(source["text"])
        lines = newlines[check.source_id]
        verdicts = tuple(column_verdict(column, check, position, lines, source["text"]) for column in columns)
        line = line_of(lines, min(check.instruction.start, check.qualifier.start))
        last_line = line_of(lines, max(check.instruction.start, check.qualifier.start))
        rows.append(PairRow(position + 1, check, source, line, verdicts, last_line))
    return rows


def verdict_word(verdict: ColumnVerdict) -> str:
    """``"kept"``, ``"split · block break"`` (the first boundary's kind, and how many more) or ``"apart"``."""
    if verdict.state != SPLIT or not verdict.boundaries:
        return verdict.state
    kinds = []
    for boundary in verdict.boundaries:
        if boundary.kind not in kinds:
            kinds.append(boundary.kind)
    return f"split · {', '.join(kinds)}"


def window_words(window, state: str = KEPT) -> str:
    """The recovering window in a few words: ``"k=1 recovers it (chunks 0–1)"``, or why none does.

    ``state`` is the pair's under the same chunks: a pair split with a window of 0 is one no chunk holds whole,
    whose instruction's first chunk holds the qualifier.
    """
    if window is None or window.anchor_order is None:
        return "no chunk holds the instruction"
    if window.window == 0:
        return (
            "same chunk"
            if state == KEPT
            else "k=0 recovers the caveat (in the chunk where the instruction starts; the instruction itself is cut)"
        )
    if window.window is not None:
        return f"k={window.window} recovers it (chunks {window.orders[0]}–{window.orders[-1]})"
    crossing = window.window_crossing_headings
    beyond = "" if crossing is None else f"; k={crossing} across headings"
    return f"no window within the section{beyond}"
