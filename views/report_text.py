"""Source text in the HTML report: a pair's lines under every column side by side, and a page's text once.

A card shows only the lines around one pair (its instruction, its caveat and
every boundary between them, with ``CONTEXT_LINES`` around each span), as
one table row per source line with a cell per column: the rows line up, so
the columns stay aligned on the pair whatever each cuts. A page shows its
text once, one row per line, with a narrow gutter per column saying which
chunk holds the line, which chunks start in it and where a pair is split;
a page costs its text and its chunks, not its text times the columns.

Every piece of source text goes through ``visible`` then ``escaped``, a run
at a time. It reads no files.
"""

from __future__ import annotations

from dataclasses import dataclass

from views.pair_verdicts import Column, PairRow
from views.pictures import Edge, Mark, Row, chunk_caption, line_of, mark_label, marker, segment_rows
from views.visible_text import CUT_MARK, escaped, visible

# Lines shown before and after each span of a pair in its card.
CONTEXT_LINES = 2
# Lines apart that are shown rather than elided: a one-line gap reads better than "1 line not shown".
ELIDED_AT_LEAST = 2


@dataclass(frozen=True)
class LineMap:
    """A text's line starts, for the offsets of whole lines: ``LineMap.of("a\\nb")`` has lines 1 and 2."""

    text_length: int
    newlines: list[int]

    @property
    def line_count(self) -> int:
        if self.text_length == 0:
            return 1
        return line_of(self.newlines, self.text_length - 1)

    def start(self, line: int) -> int:
        return 0 if line == 1 else self.newlines[line - 2] + 1

    def end(self, line: int) -> int:
        """Just after line ``line``'s newline (or the end of the text)."""
        return self.newlines[line - 1] + 1 if line - 1 < len(self.newlines) else self.text_length


def row_html(row: Row, links: dict[str, int] | None = None) -> str:
    """One row's runs, marks and edges, escaped; with ``links`` (label -> pair number) an edge links to its card."""
    parts = []
    if row.starts_mid_line:
        parts.append(f'<span class="cut">{CUT_MARK}</span>')
    for item in row.items:
        if isinstance(item, Edge):
            text = escaped(marker(item))
            if links is None:
                parts.append(f'<span class="edge">{text}</span>')
            else:
                parts.append(f'<a class="edge" href="#pair-{links[item.mark.label]}">{text}</a>')
        elif item.roles:
            parts.append(f'<mark class="{" ".join(item.roles)}">{escaped(visible(item.text))}</mark>')
        else:
            parts.append(escaped(visible(item.text)))
    if row.ends_mid_line:
        parts.append(f'<span class="cut">{CUT_MARK}</span>')
    return "".join(parts)


# --- a card: the lines around one pair, a cell per column ------------------------------


def span_lines(lines: LineMap, start: int, end: int) -> list[tuple[int, int]]:
    """The lines shown for one span: all of it with its context, or its first and last lines when it is long."""
    first = line_of(lines.newlines, start)
    last = line_of(lines.newlines, end - 1)
    if last - first <= 4 * CONTEXT_LINES:
        return [(first - CONTEXT_LINES, last + CONTEXT_LINES)]
    return [(first - CONTEXT_LINES, first + CONTEXT_LINES), (last - CONTEXT_LINES, last + CONTEXT_LINES)]


def shown_ranges(lines: LineMap, pair: PairRow) -> list[tuple[int, int]]:
    """The card's line ranges, merged: both spans with their context and the line of every boundary between them."""
    check = pair.check
    wanted = span_lines(lines, check.instruction.start, check.instruction.end)
    wanted += span_lines(lines, check.qualifier.start, check.qualifier.end)
    for verdict in pair.verdicts:
        wanted.extend((boundary.line, boundary.line) for boundary in verdict.boundaries)
    merged: list[list[int]] = []
    for first, last in sorted((max(1, first), min(lines.line_count, last)) for first, last in wanted):
        if merged and first <= merged[-1][1] + ELIDED_AT_LEAST:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return [(first, last) for first, last in merged]


def clipped_segments(chunks, start: int, end: int) -> list[tuple[int, int, dict | None]]:
    """``[start, end)`` cut into the parts of ``chunks`` (those touching it) and the stretches between them."""
    segments: list[tuple[int, int, dict | None]] = []
    position = start
    for chunk in sorted(chunks, key=lambda chunk: (chunk["start"], chunk["order"])):
        chunk_start = max(chunk["start"], start)
        chunk_end = min(chunk["end"], end)
        if chunk_start > position:
            segments.append((position, chunk_start, None))
        segments.append((chunk_start, chunk_end, chunk))
        position = max(position, chunk_end)
    if position < end:
        segments.append((position, end, None))
    return segments


def pair_marks(pair: PairRow) -> tuple[Mark, ...]:
    """The card's own two marks, ``I`` and ``Q``: a card marks its pair only."""
    check = pair.check
    marks = [
        Mark("instruction", "I", check.instruction.start, check.instruction.end),
        Mark("qualifier", "Q", check.qualifier.start, check.qualifier.end),
    ]
    return tuple(sorted(marks, key=lambda mark: (mark.start, mark.end, mark.label)))


def column_cells(pair: PairRow, column: Column, position: int, lines: LineMap, ranges, marks) -> dict[int, str]:
    """Line -> this column's cell: its chunks' parts of the line, shaded, with captions and boundaries named."""
    text = pair.source["text"]
    chunks = column.source_chunks(pair.check.source_id)
    verdict = pair.verdicts[position]
    boundaries = {boundary.offset: boundary for boundary in verdict.boundaries}
    window = verdict.window
    in_window = set(window.orders) if window is not None and window.window else set()
    cells: dict[int, list[str]] = {}
    placed = set()
    for first, last in ranges:
        start, end = lines.start(first), lines.end(last)
        for segment_start, segment_end, chunk in clipped_segments(chunks.touching(start, end), start, end):
            # A card marks its own two spans only: a look at both is the lookup.
            near = tuple(mark for mark in marks if mark.start < segment_end and segment_start < mark.end)
            rows = segment_rows(text, segment_start, segment_end, near, lines.newlines)
            if chunk is None:
                style = "g"
            else:
                style = f"s{chunk['order'] % 2}" + (" win" if chunk["order"] in in_window else "")
            for number, row in enumerate(rows):
                parts = []
                if number == 0 and segment_start in boundaries:
                    parts.append(boundary_html(boundaries[segment_start]))
                    placed.add(segment_start)
                if number == 0 and chunk is not None:
                    parts.append(caption_html(chunk, segment_start, chunk["order"] in in_window))
                parts.append(row_html(row))
                cells.setdefault(row.line, []).append(f'<span class="{style}">{"".join(parts)}</span>')
    for offset, boundary in boundaries.items():
        # An edge no segment starts at (one judged chunk ending inside another): named at its line's end.
        if offset not in placed:
            cells.setdefault(boundary.line, []).append(boundary_html(boundary))
    return {line: "".join(parts) for line, parts in cells.items()}


def caption_html(chunk: dict, shown_from: int, in_window: bool) -> str:
    """A chunk's caption where it first shows in a card; ``continued`` when it starts above the lines shown."""
    continued = " · continued from above" if chunk["start"] < shown_from else ""
    window = " · in the window" if in_window else ""
    title = f"section {chunk['section_title']}"
    return (
        f'<span class="cap" title="{escaped(visible(title))}">'
        f"{escaped(chunk_caption(chunk))}{continued}{window}</span>"
    )


def boundary_html(boundary) -> str:
    """A boundary that splits the pair, named where it falls: ``boundary: block break at offset 130``."""
    return f'<span class="cutname">boundary: {escaped(boundary.kind)} at offset {boundary.offset}</span>'


def card_lines(pair: PairRow, columns: list[Column], lines: LineMap) -> str:
    """The card's table body: one row per shown line, a cell per column, elided stretches as one row."""
    ranges = shown_ranges(lines, pair)
    marks = pair_marks(pair)
    cells = [column_cells(pair, column, position, lines, ranges, marks) for position, column in enumerate(columns)]
    rows = []
    previous = 0
    for first, last in ranges:
        if first > previous + 1:
            rows.append(elided_row(previous + 1, first - 1, len(columns)))
        for line in range(first, last + 1):
            body = "".join(f"<td>{column.get(line, '')}</td>" for column in cells)
            rows.append(f"<tr><th>{line}</th>{body}</tr>")
        previous = last
    if previous < lines.line_count:
        rows.append(elided_row(previous + 1, lines.line_count, len(columns)))
    return "\n".join(rows)


def elided_row(first: int, last: int, width: int) -> str:
    where = f"line {first}" if first == last else f"lines {first}–{last}"
    return f'<tr class="elided"><th>…</th><td colspan="{width}">{where} not shown</td></tr>'


# --- a page: its text once, a gutter per column ---------------------------------------


def gutter_cells(chunks, line_starts: list[int], text_length: int, split_lines: set[int]) -> list[str]:
    """Per line, one column's gutter cell: shaded by the chunk holding the line's first character (blank
    outside every chunk), the orders of the chunks starting in the line, ruled (``b``) where one starts it,
    red (``x``) on a line where a boundary splits a pair.

    One walk over the chunks in offset order: the chunk reaching furthest
    among those started holds a line's start if any chunk does.
    """
    ordered = sorted(chunks.chunks, key=lambda chunk: (chunk["start"], chunk["order"]))
    cells = []
    position = 0
    furthest_end = -1
    furthest_order = 0
    pending: list[dict] = []
    count = len(line_starts)
    for number, line_start in enumerate(line_starts):
        line_end = line_starts[number + 1] if number + 1 < count else text_length
        for chunk in pending:
            if chunk["end"] > furthest_end:
                furthest_end, furthest_order = chunk["end"], chunk["order"]
        pending = []
        orders = []
        ruled = False
        while position < len(ordered) and ordered[position]["start"] < line_end:
            chunk = ordered[position]
            position += 1
            if chunk["start"] >= line_start:
                orders.append(str(chunk["order"]))
            if chunk["start"] <= line_start:
                ruled = ruled or chunk["start"] == line_start
                if chunk["end"] > furthest_end:
                    furthest_end, furthest_order = chunk["end"], chunk["order"]
            else:
                pending.append(chunk)
        style = f"s{furthest_order % 2}" if furthest_end > line_start else "g"
        if ruled:
            style += " b"
        if number + 1 in split_lines:
            style += " x"
        cells.append(f'<td class="{style}">{" ".join(orders)}')
    return cells


def page_marks(pairs: list[PairRow], check_count: int) -> tuple[tuple[Mark, ...], dict[str, int]]:
    """Every pair's marks on one page, labelled as ``show`` labels them, and each label's pair number."""
    marks = []
    links = {}
    for pair in pairs:
        for role in ("instruction", "qualifier"):
            span = getattr(pair.check, role)
            label = mark_label(role, pair.number, check_count)
            marks.append(Mark(role, label, span.start, span.end))
            links[label] = pair.number
    return tuple(sorted(marks, key=lambda mark: (mark.start, mark.end, mark.label))), links


def page_text(source: dict, pairs: list[PairRow], columns: list[Column], newlines: list[int], check_count: int) -> str:
    """A page's table body: per line its number, a gutter cell per column, then the text with its pairs marked."""
    text = source["text"]
    marks, links = page_marks(pairs, check_count)
    rows = segment_rows(text, 0, len(text), marks, newlines) if text else ()
    line_starts = [0, *(offset + 1 for offset in newlines if offset + 1 < len(text))]
    gutters = []
    for position, column in enumerate(columns):
        split_lines = {boundary.line for pair in pairs for boundary in pair.verdicts[position].boundaries}
        gutters.append(gutter_cells(column.source_chunks(source["source_id"]), line_starts, len(text), split_lines))
    body = []
    for row in rows:
        cells = "".join(gutter[row.line - 1] for gutter in gutters)
        # A page's rows are most of the report's bytes: the end tags HTML implies are left out.
        body.append(f"<tr><th>{row.line}{cells}<td>{row_html(row, links)}")
    return "\n".join(body)
