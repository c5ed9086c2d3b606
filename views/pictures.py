"""The picture of one document under one set of chunks: rows of text, marks, splits and captions.

Offsets in a result are exact but hard to picture. This module lays a
document's text out chunk by chunk, with each chunk's order, id prefix, lines
and ``[start, end)``, the instruction and qualifier spans of the manifest's
span checks marked inside the text, and, where a policy separates a pair, the
offset and line of the boundary that does it. ``views.terminal`` and
``views.report`` render these pictures; this module renders nothing and reads
no files.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import deque, namedtuple
from dataclasses import dataclass

import chunk_index
from checks import span_checks
from lab_io.errors import counted, line_span
from views.summary import StorageGrowth, storage_growth
from views.visible_text import CLOSE_BRACKET, OPEN_BRACKET, visible, visible_message

ID_PREFIX_LENGTH = 12
ROLE_LETTERS = {"instruction": "I", "qualifier": "Q"}


# The records made for every piece of text are named tuples: a frozen dataclass's
# __init__ sets each field through object.__setattr__, several times slower.


class Mark(namedtuple("Mark", ("role", "label", "start", "end"))):
    """One marked span in a document: ``label`` is ``I`` or ``Q`` (numbered when there are several checks)."""

    __slots__ = ()


class Run(namedtuple("Run", ("text", "roles"))):
    """A stretch of text inside one row, with the roles of the marks that cover it."""

    __slots__ = ()


class Edge(namedtuple("Edge", ("mark", "opening"))):
    """Where a mark opens or closes."""

    __slots__ = ()


class Row(namedtuple("Row", ("line", "starts_mid_line", "ends_mid_line", "items"))):
    """One line of a segment (or the part of a line the segment holds): ``items`` are its runs and edges."""

    __slots__ = ()


@dataclass(frozen=True)
class Segment:
    """A chunk, or text that lies outside every chunk (``chunk`` is ``None``)."""

    start: int
    end: int
    chunk: dict | None
    shade: int
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Split:
    """A boundary that separates an instruction from its qualifier."""

    offset: int
    sentence: str


@dataclass(frozen=True)
class Elision:
    """Text a narrowed view leaves out: ``[start, end)``, between the parts it shows."""

    start: int
    end: int


@dataclass(frozen=True)
class DocumentView:
    """One document under one policy: its verdict lines and its blocks in text order."""

    document: dict
    chunk_count: int
    verdicts: tuple[str, ...]
    blocks: tuple[Segment | Split, ...]


@dataclass(frozen=True)
class PolicyView:
    """One policy: its name, config, storage figures and every document's picture."""

    name: str
    config: dict
    growth: StorageGrowth
    documents: tuple[DocumentView, ...]


def mark_label(role: str, number: int, check_count: int) -> str:
    """``I``/``Q`` for a lone check; ``I2``/``Q2`` for the second of several."""
    letter = ROLE_LETTERS[role]
    return letter if check_count == 1 else f"{letter}{number}"


def marker(edge: Edge) -> str:
    """The plain marker of an edge: ``⟦I›`` opens the instruction, ``‹I⟧`` closes it."""
    if edge.opening:
        return f"{OPEN_BRACKET}{edge.mark.label}›"
    return f"‹{edge.mark.label}{CLOSE_BRACKET}"


def numbered_by_source(checks: tuple) -> dict[str, list[tuple[int, object]]]:
    """Each source's span checks with their 1-based number among all checks, grouped once for every document."""
    grouped: dict[str, list[tuple[int, object]]] = {}
    for number, check in enumerate(checks, start=1):
        grouped.setdefault(check.source_id, []).append((number, check))
    return grouped


def document_marks(checks: tuple, source_id: str, numbered: list[tuple[int, object]] | None = None) -> tuple[Mark, ...]:
    """The instruction and qualifier marks of every span check on ``source_id``, in offset order.

    ``numbered`` (this source's entry of ``numbered_by_source``) spares a pass over every check.
    """
    if numbered is None:
        numbered = numbered_by_source(checks).get(source_id, [])
    marks = []
    for number, check in numbered:
        for role in ROLE_LETTERS:
            span = getattr(check, role)
            marks.append(Mark(role, mark_label(role, number, len(checks)), span.start, span.end))
    return tuple(sorted(marks, key=lambda mark: (mark.start, mark.end, mark.label)))


def segment_spans(text_length: int, chunks: list[dict]) -> list[tuple[int, int, dict | None]]:
    """The document cut into chunks and the stretches between them, in offset order.

    Chunks ``[2, 5)`` and ``[7, 9)`` of a 10-character text ->
    ``[(0, 2, None), (2, 5, c0), (5, 7, None), (7, 9, c1), (9, 10, None)]``.
    """
    spans: list[tuple[int, int, dict | None]] = []
    position = 0
    for chunk in sorted(chunks, key=lambda chunk: (chunk["start"], chunk["order"])):
        if chunk["start"] > position:
            spans.append((position, chunk["start"], None))
        spans.append((chunk["start"], chunk["end"], chunk))
        position = max(position, chunk["end"])
    if position < text_length:
        spans.append((position, text_length, None))
    return spans


def line_of(newlines: list[int], offset: int) -> int:
    """The 1-based line holding ``offset``; same as ``text.count("\\n", 0, offset) + 1``."""
    return bisect_left(newlines, offset) + 1


def segment_rows(text: str, start: int, end: int, marks: tuple[Mark, ...], newlines: list[int]) -> tuple[Row, ...]:
    """``text[start:end]`` as rows of runs and mark edges, one row per line.

    ``marks`` are those overlapping the segment, in ``document_marks`` order. A
    mark closing right after a newline closes on that newline's row, and a mark
    that crosses the segment's edge colours its runs here but shows only the edge
    that falls inside. One pass over the pieces with the marks opening and
    closing at each cut, so a chunk holding thousands of marks costs its pieces
    plus its marks, never their product.
    """
    cuts = {start, end}
    opening: dict[int, list[int]] = {}
    closing: dict[int, list[int]] = {}
    active = ActiveMarks(marks)
    for position, mark in enumerate(marks):
        if mark.start >= start:
            cuts.add(mark.start)
            opening.setdefault(mark.start, []).append(position)
        else:
            active.open(position)
        if mark.end <= end:
            cuts.add(mark.end)
            closing.setdefault(mark.end, []).append(position)
    inner_newlines = newlines[bisect_left(newlines, start) : bisect_left(newlines, end - 1)]
    cuts.update(position + 1 for position in inner_newlines)
    points = sorted(cuts)
    rows = []
    items: list[Run | Edge] = []
    row_start = start
    for piece_start, piece_end in zip(points, points[1:]):
        for position in opening.get(piece_start, ()):
            items.append(Edge(marks[position], True))
            active.open(position)
        items.append(Run(text[piece_start:piece_end], active.roles()))
        for position in closing.get(piece_end, ()):
            items.append(Edge(marks[position], False))
            active.close(position)
        if text[piece_end - 1] == "\n" or piece_end == end:
            rows.append(
                Row(
                    line=line_of(newlines, row_start),
                    starts_mid_line=row_start > 0 and text[row_start - 1] != "\n",
                    ends_mid_line=text[piece_end - 1] != "\n",
                    items=tuple(items),
                )
            )
            items = []
            row_start = piece_end
    return tuple(rows)


class ActiveMarks:
    """The marks covering the current piece, by role: a run's roles without a look at every mark.

    Marks open in their sorted order, so each role's open marks form a queue in
    that order; a closed mark leaves its queue when it reaches the front. A
    run's roles are the roles with an open mark, the role of the earliest open
    mark first (the terminal colours a run by its first role).
    """

    def __init__(self, marks: tuple[Mark, ...]) -> None:
        self.marks = marks
        self.queues: dict[str, deque[int]] = {role: deque() for role in ROLE_LETTERS}
        self.closed: set[int] = set()

    def open(self, position: int) -> None:
        self.queues[self.marks[position].role].append(position)

    def close(self, position: int) -> None:
        self.closed.add(position)

    def roles(self) -> tuple[str, ...]:
        fronts = []
        for role, queue in self.queues.items():
            while queue and queue[0] in self.closed:
                queue.popleft()
            if queue:
                fronts.append((queue[0], role))
        return tuple(role for _, role in sorted(fronts))


class MarkFinder:
    """One document's marks (``document_marks`` order), found by the stretch they overlap.

    ``ReachingSpans`` over the marks sorted by start: the marks starting
    before ``end`` are a prefix, and among them the tree finds those ending
    after ``start``, so a lookup costs its answer, never every mark before it.
    """

    def __init__(self, marks: tuple[Mark, ...]) -> None:
        self.marks = marks
        self.starts = [mark.start for mark in marks]
        self.reaching = span_checks.ReachingSpans([(mark.start, mark.end) for mark in marks])

    def overlapping(self, start: int, end: int) -> tuple[Mark, ...]:
        """The marks sharing at least one character with ``[start, end)``, in their order."""
        count = bisect_left(self.starts, end)
        return tuple(self.marks[position] for position in self.reaching.reaching(count, start))


def numbered(orders: list[int]) -> str:
    """``[0]`` -> ``"chunk 0"``, ``[0, 1]`` -> ``"chunks 0 and 1"``, ``[0, 1, 2]`` -> ``"chunks 0, 1 and 2"``."""
    if len(orders) == 1:
        return f"chunk {orders[0]}"
    return f"chunks {', '.join(str(order) for order in orders[:-1])} and {orders[-1]}"


def span_placement(chunks: span_checks.SourceChunks | list[dict], start: int, end: int) -> str:
    """Where a span sits: ``"in chunk 0"``, ``"cut across chunks 0 and 1"`` or ``"in no chunk"``."""
    chunks = chunk_lookup(chunks)
    holders = [chunk["order"] for chunk in chunks.holding(start, end)]
    if holders:
        return f"in {numbered(holders)}"
    touched = [chunk["order"] for chunk in chunks.touching(start, end)]
    if touched:
        return f"cut across {numbered(touched)}"
    return "in no chunk"


def chunk_lookup(chunks: span_checks.SourceChunks | list[dict]) -> span_checks.SourceChunks:
    """One document's chunks ready for lookups by bisection (built once per document by ``document_view``)."""
    return chunks if isinstance(chunks, span_checks.SourceChunks) else span_checks.source_chunks(chunks)


def pair_verdict(
    check, chunks: span_checks.SourceChunks | list[dict], newlines: list[int], check_count: int
) -> Split | str:
    """A check's instruction and qualifier under one policy: a ``Split``, or a sentence saying why not.

    The split's offset is the first chunk edge strictly inside the stretch from
    the pair's first character to its last, the boundary that separates them.
    """
    chunks = chunk_lookup(chunks)
    instruction = check.instruction
    qualifier = check.qualifier
    named = "" if check_count == 1 else f" ({visible(check.name)})"
    low = min(instruction.start, qualifier.start)
    high = max(instruction.end, qualifier.end)
    # A chunk holds both spans exactly when it holds the stretch from the first to the last.
    together = [chunk["order"] for chunk in chunks.holding(low, high)]
    if together:
        return f"kept together{named}: instruction and qualifier both in {numbered(together)}"
    placements = (
        span_placement(chunks, instruction.start, instruction.end),
        span_placement(chunks, qualifier.start, qualifier.end),
    )
    where = f"instruction {placements[0]}, qualifier {placements[1]}"
    offset = chunks.first_edge_inside(low, high)
    # A span that no chunk touches (a heading, say) is not separated by a boundary.
    if offset is None or "in no chunk" in placements:
        return f"not in one chunk{named}: {where}"
    return Split(offset, f"split at offset {offset} (line {line_of(newlines, offset)}){named}: {where}")


def document_view(
    document: dict, chunks: list[dict], checks: tuple, numbered: list[tuple[int, object]] | None = None
) -> DocumentView:
    """One document's picture under one policy: rows for every chunk and gap, verdicts, split lines.

    ``numbered`` is this document's entry of ``numbered_by_source(checks)``, so
    a view of many documents looks at each check once, not once per document.
    """
    text = document["text"]
    if numbered is None:
        numbered = numbered_by_source(checks).get(document["source_id"], [])
    newlines = chunk_index.newline_offsets(text)
    marks = document_marks(checks, document["source_id"], numbered)
    verdicts = []
    splits = []
    lookup = span_checks.source_chunks(chunks)
    for _, check in numbered:
        verdict = pair_verdict(check, lookup, newlines, len(checks))
        if isinstance(verdict, Split):
            splits.append(verdict)
        else:
            verdicts.append(verdict)
    blocks: list[Segment | Split] = []
    pending = sorted(splits, key=lambda split: split.offset)
    placed = 0
    finder = MarkFinder(marks)
    for start, end, chunk in segment_spans(len(text), chunks):
        while placed < len(pending) and pending[placed].offset <= start:
            blocks.append(pending[placed])
            placed += 1
        shade = chunk["order"] % 2 if chunk is not None else 0
        near = finder.overlapping(start, end)
        blocks.append(Segment(start, end, chunk, shade, segment_rows(text, start, end, near, newlines)))
    blocks.extend(pending[placed:])
    return DocumentView(document, len(chunks), tuple(verdicts), tuple(blocks))


def policy_view(name: str, index: dict, checks: tuple) -> PolicyView:
    """Every document of one policy's index, pictured."""
    by_source: dict[str, list[dict]] = {}
    for chunk in index["chunks"]:
        by_source.setdefault(chunk["source_id"], []).append(chunk)
    numbered = numbered_by_source(checks)
    documents = tuple(
        document_view(
            document, by_source.get(document["source_id"], []), checks, numbered.get(document["source_id"], [])
        )
        for document in index["documents"]
    )
    return PolicyView(name, index["config"], storage_growth(index), documents)


def chunk_caption(chunk: dict) -> str:
    """``"chunk 0 · id 3f2a9c1b0d4e · line 5 · [51, 130) · 79 chars"``."""
    if "chunk_id" not in chunk:
        return judged_chunk_caption(chunk)
    lines = line_span(chunk["start_line"], chunk["end_line"])
    return (
        f"chunk {chunk['order']} · id {chunk['chunk_id'][:ID_PREFIX_LENGTH]} · {lines}"
        f" · [{chunk['start']}, {chunk['end']}) · {chunk['end'] - chunk['start']:,} chars"
    )


def gap_caption(segment: Segment) -> str:
    """``"outside every chunk · lines 1-4 · [0, 51)"``."""
    lines = line_span(segment.rows[0].line, segment.rows[-1].line)
    return f"outside every chunk · {lines} · [{segment.start}, {segment.end})"


def check_legend(checks: tuple) -> list[str]:
    """One line per span check naming its markers, source, spans and quotes.

    A quote is shown with ``visible`` alone, like the text below it: a newline
    is ``⏎`` and a backslash ``\\\\``, each escaped once (a JSON string run
    through ``visible`` showed a newline as ``\\\\n`` and a ``"`` as ``\\\\"``).
    """
    lines = []
    for number, check in enumerate(checks, start=1):
        for role in ROLE_LETTERS:
            span = getattr(check, role)
            opening = marker(Edge(Mark(role, mark_label(role, number, len(checks)), span.start, span.end), True))
            lines.append(
                f"{opening} {role} of {visible(check.name)}: {visible(check.source_id)} "
                f'[{span.start}, {span.end}) "{visible(span.quote)}"'
            )
    return lines


def judged_chunk_caption(chunk: dict) -> str:
    """``"chunk 0 · file line 3 · exact by order · lines 1-5 · [0, 129) · 129 chars"`` for a judged chunk."""
    import judge

    lines = line_span(chunk["start_line"], chunk["end_line"])
    return (
        f"chunk {chunk['order']} · file line {chunk['line']} · {judge.STATE_WORDS[chunk['state']]} · {lines}"
        f" · [{chunk['start']}, {chunk['end']}) · {chunk['end'] - chunk['start']:,} chars"
    )


def judged_document_views(sources: tuple[dict, ...], checks: tuple, judgement) -> list[DocumentView]:
    """Every source pictured with the judged chunks located in it (overlapping chunks each show their text)."""
    by_source: dict[str, list[dict]] = {source["source_id"]: [] for source in sources}
    for chunk in judgement.chunks:
        # ``sources`` may be narrowed (show --source, --check, --split-only): the others' chunks are not drawn.
        if chunk["source_id"] in by_source:
            by_source[chunk["source_id"]].append(chunk)
    return [document_view(source, by_source[source["source_id"]], checks) for source in sources]


def judged_summary_lines(judgement) -> list[str]:
    """How the judged chunks were located, the chunks that were not and the wrong offsets, made visible.

    Each list stops after ``judge.LISTED_LINES`` lines with a count of the
    rest, as ``judge`` prints it. The sentences already show chunk text as
    escaped JSON (``quoted``), so they go through ``visible_message``, not
    ``visible``: a newline in a chunk reads ``\\n``, not ``\\\\n``.
    """
    import judge

    unlocated = [
        f"not located: {judge.location_sentence(location)}" for location in judgement.locations if not location.located
    ]
    wrong = [judge.offset_sentence(location) for location in judgement.locations if location.offset_wrong]
    stale = judge.stale_records_line(judgement)
    lines = [
        judge.located_line(judgement),
        *([] if stale is None else [stale]),
        *judge.listed(unlocated, "unlocated chunks"),
        *judge.listed(wrong, "wrong offsets"),
    ]
    return [visible_message(line.strip()) for line in lines]


def config_caption(config: dict) -> str:
    """The config as JSON, a pair-aware config's pairs counted rather than listed (a docs set declares thousands).

    ``{"strategy": "pair-aware", "version": 1, "max_chars": 800, "markdown": "blocks-2"} + 93 pairs``.
    """
    if "pairs" not in config:
        return json.dumps(config)
    shown = {key: value for key, value in config.items() if key != "pairs"}
    return f"{json.dumps(shown)} + {counted(len(config['pairs']), 'pair')}"
