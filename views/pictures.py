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

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import chunk_index
from checks import span_checks
from lab_io.errors import line_span
from views.summary import StorageGrowth, storage_growth
from views.visible_text import CLOSE_BRACKET, OPEN_BRACKET, visible, visible_message

ID_PREFIX_LENGTH = 12
ROLE_LETTERS = {"instruction": "I", "qualifier": "Q"}


@dataclass(frozen=True)
class Mark:
    """One marked span in a document: ``label`` is ``I`` or ``Q`` (numbered when there are several checks)."""

    role: str
    label: str
    start: int
    end: int


@dataclass(frozen=True)
class Run:
    """A stretch of text inside one row, with the roles of the marks that cover it."""

    text: str
    roles: tuple[str, ...]


@dataclass(frozen=True)
class Edge:
    """Where a mark opens or closes."""

    mark: Mark
    opening: bool


@dataclass(frozen=True)
class Row:
    """One line of a segment (or the part of a line the segment holds)."""

    line: int
    starts_mid_line: bool
    ends_mid_line: bool
    items: tuple[Run | Edge, ...]


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

    A mark closing right after a newline closes on that newline's row, and a mark
    that crosses the segment's edge colours its runs here but shows only the edge
    that falls inside.
    """
    cuts = {start, end}
    for mark in marks:
        cuts.update(position for position in (mark.start, mark.end) if start < position < end)
    inner_newlines = newlines[bisect_left(newlines, start) : bisect_left(newlines, end - 1)]
    cuts.update(position + 1 for position in inner_newlines)
    points = sorted(cuts)
    rows = []
    items: list[Run | Edge] = []
    row_start = start
    for piece_start, piece_end in zip(points, points[1:]):
        items.extend(Edge(mark, True) for mark in marks if mark.start == piece_start)
        roles = tuple(mark.role for mark in marks if mark.start <= piece_start and piece_end <= mark.end)
        items.append(Run(text[piece_start:piece_end], roles))
        items.extend(Edge(mark, False) for mark in marks if mark.end == piece_end)
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


def marks_near(marks: tuple[Mark, ...], mark_starts: list[int], longest: int, start: int, end: int) -> tuple[Mark, ...]:
    """The marks (sorted by start) that overlap or touch ``[start, end)``, found by bisection, not a pass over all."""
    window = marks[bisect_left(mark_starts, start - longest) : bisect_right(mark_starts, end)]
    return tuple(mark for mark in window if mark.end >= start)


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
    mark_starts = [mark.start for mark in marks]
    longest = max((mark.end - mark.start for mark in marks), default=0)
    for start, end, chunk in segment_spans(len(text), chunks):
        while pending and pending[0].offset <= start:
            blocks.append(pending.pop(0))
        shade = chunk["order"] % 2 if chunk is not None else 0
        near = marks_near(marks, mark_starts, longest, start, end)
        blocks.append(Segment(start, end, chunk, shade, segment_rows(text, start, end, near, newlines)))
    blocks.extend(pending)
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
        f" · [{chunk['start']}, {chunk['end']}) · {chunk['end'] - chunk['start']} chars"
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
        f" · [{chunk['start']}, {chunk['end']}) · {chunk['end'] - chunk['start']} chars"
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
    lines = [
        judge.located_line(judgement),
        *judge.listed(unlocated, "unlocated chunks"),
        *judge.listed(wrong, "wrong offsets"),
    ]
    return [visible_message(line.strip()) for line in lines]
