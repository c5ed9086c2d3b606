"""See where each policy's chunk boundaries fall: a terminal view and an HTML report.

Offsets in a result are exact but hard to picture. This module lays every
document's text out chunk by chunk, with each chunk's order, id prefix, lines and
``[start, end)``, the instruction and qualifier spans of the manifest's span
checks marked inside the text, and, where a policy separates a pair, the offset
and line of the boundary that does it, with each policy's storage figures from
``summary``. ``terminal_view`` renders that as plain or ANSI-coloured text;
``html_report`` as one self-contained HTML page.

Source text is untrusted data. Both renderers pass every piece of it through
``visible`` first, so a control character, a bidirectional override or one of
the view's own marker characters is shown as an escape (``\\x1b``) instead of
acting on the terminal or passing for a marker; the HTML renderer then
escapes it with ``html.escape`` as well.

It reads no files and writes none: ``run.py`` does the I/O.
"""

from __future__ import annotations

import html
import json
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import chunk_index
from checks import span_checks
from lab_io.errors import counted, line_span
from views.summary import NUMERIC_COLUMNS, StorageGrowth, growth_sentence, storage_growth, summary_rows

ID_PREFIX_LENGTH = 12
ROLE_LETTERS = {"instruction": "I", "qualifier": "Q"}

# The view's own markers. Source text holding one of them is shown escaped, so a
# marker on screen always comes from the lab, never from the text.
NEWLINE_MARK = "⏎"
CUT_MARK = "¦"
OPEN_BRACKET = "⟦"
CLOSE_BRACKET = "⟧"
_RESERVED_CHARACTERS = frozenset({NEWLINE_MARK, CUT_MARK, OPEN_BRACKET, CLOSE_BRACKET})
# Characters that are invisible or act on the terminal rather than print:
# controls (ESC starts an escape sequence), format characters (bidirectional
# overrides, zero-width joiners), line and paragraph separators, lone surrogates.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})

LEGEND_TERMS = (
    f"{NEWLINE_MARK} a newline the chunk holds",
    f"{CUT_MARK} a boundary inside a line",
    "│ text in a chunk",
    "· text outside every chunk",
    "\\xNN \\uNNNN a control or invisible character",
    "\\\\ a backslash",
)


# --- visible text ------------------------------------------------------------------


def escape_code(character: str) -> str:
    """Python-style escape for one character: ``"\\x1b"`` -> ``"\\\\x1b"``, ``"\\u202e"`` -> ``"\\\\u202e"``."""
    code = ord(character)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible_character(character: str) -> str:
    """How the view shows one character of source text.

    ``"\\n"`` -> ``"⏎"``, ``"\\t"`` -> ``"\\\\t"``, ``"\\\\"`` -> ``"\\\\\\\\"``, ``"\\x1b"`` -> ``"\\\\x1b"``,
    ``"⟦"`` -> ``"\\\\u27e6"``; anything printable is itself.
    """
    if character == "\n":
        return NEWLINE_MARK
    if character == "\t":
        return "\\t"
    if character == "\\":
        return "\\\\"
    if character in _RESERVED_CHARACTERS or unicodedata.category(character) in _HIDDEN_CATEGORIES:
        return escape_code(character)
    return character


def visible(text: str) -> str:
    """``text`` with every newline, control, invisible or marker character made visible and inert.

    ``visible("a\\x1b[2J\\n")`` -> ``"a\\\\x1b[2J⏎"``: the escape sequence is shown, never run.
    """
    return "".join(visible_character(character) for character in text)


def escaped(text: str) -> str:
    """``text`` as HTML text or attribute value: ``escaped('</b>"')`` -> ``'&lt;/b&gt;&quot;'``."""
    return html.escape(text, quote=True)


# --- the picture of one document ----------------------------------------------------


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


# --- the terminal view -------------------------------------------------------------

RESET = "\x1b[0m"
STYLES = {
    "heading": "\x1b[1m",
    "shade0": "\x1b[34m",
    "shade1": "\x1b[35m",
    "gap": "\x1b[2m",
    "instruction": "\x1b[1;4;33m",
    "qualifier": "\x1b[1;4;32m",
    "split": "\x1b[1;31m",
}


def colour_wanted(stream, environ) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (non-empty) or ``TERM=dumb``."""
    if environ.get("NO_COLOR"):
        return False
    if environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Painter:
    """Wraps already-visible text in an ANSI style, or leaves it plain."""

    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def paint(self, text: str, style: str | None) -> str:
        if not self.colour or style is None or not text:
            return text
        return f"{STYLES[style]}{text}{RESET}"


def run_style(run: Run, in_chunk: bool) -> str | None:
    """The style of a run: its first mark's role, else dim outside every chunk."""
    if run.roles:
        return run.roles[0]
    return None if in_chunk else "gap"


def terminal_row(row: Row, segment: Segment, painter: Painter) -> str:
    """``"    5 │ ⟦I›Call save_copy(path, text)‹I⟧ to store …⏎"``."""
    in_chunk = segment.chunk is not None
    gutter_style = f"shade{segment.shade}" if in_chunk else "gap"
    gutter = painter.paint("│" if in_chunk else "·", gutter_style)
    parts = [f"{row.line:>5} {gutter} "]
    if row.starts_mid_line:
        parts.append(painter.paint(CUT_MARK, gutter_style))
    for item in row.items:
        if isinstance(item, Edge):
            parts.append(painter.paint(marker(item), item.mark.role))
        else:
            parts.append(painter.paint(visible(item.text), run_style(item, in_chunk)))
    if row.ends_mid_line:
        parts.append(painter.paint(CUT_MARK, gutter_style))
    return "".join(parts)


def terminal_document(view: DocumentView, painter: Painter) -> list[str]:
    """A document header, its verdicts, then every chunk and gap with its rows."""
    document = view.document
    lines = [
        "",
        painter.paint(
            f"─── {visible(document['source_id'])} · {visible(document['path'])} · {counted(view.chunk_count, 'chunk')}",
            "heading",
        ),
    ]
    lines.extend(f"      {verdict}" for verdict in view.verdicts)
    for block in view.blocks:
        if isinstance(block, Split):
            lines.append(painter.paint(f"  >>> {block.sentence}", "split"))
            continue
        if isinstance(block, Elision):
            lines.append(painter.paint(f"      … [{block.start}, {block.end}) not shown", "gap"))
            continue
        if block.chunk is None:
            lines.append(painter.paint(f"      · {gap_caption(block)}", "gap"))
        else:
            caption = f'{chunk_caption(block.chunk)} · section "{visible(block.chunk["section_title"])}"'
            lines.append(painter.paint(f"      ┌ {caption}", f"shade{block.shade}"))
        lines.extend(terminal_row(row, block, painter) for row in block.rows)
    return lines


def terminal_view(
    sources: tuple[dict, ...], checks: tuple, policies: tuple[str, ...], colour: bool, configs: dict | None = None
) -> str:
    """Each policy's chunks over the source text, as the ``show`` command prints it.

    ``configs`` are the manifest's, by policy name (``chunk_index.manifest_configs``); the lesson's when ``None``.
    """
    configs = chunk_index.manifest_configs() if configs is None else configs
    painter = Painter(colour)
    lines = [
        "markers: " + " · ".join(LEGEND_TERMS[:4]),
        "         " + " · ".join(LEGEND_TERMS[4:]),
        *(f"  {line}" for line in check_legend(checks)),
    ]
    for name in policies:
        index = chunk_index.build_index(configs[name], sources)
        view = policy_view(name, index, checks)
        lines.append("")
        lines.append(painter.paint(f"═══ {name}: {growth_sentence(view.growth)}", "heading"))
        lines.append(f"    config {config_caption(view.config)}")
        for document in view.documents:
            lines.extend(terminal_document(document, painter))
    return "\n".join(lines) + "\n"


# --- a narrowed terminal view (show --source, --check, --split-only) ---------------


@dataclass(frozen=True)
class Narrowing:
    """What ``show`` narrows to: these sources, these checks, only pairs a shown policy splits; empty means all."""

    source_ids: frozenset[str] = frozenset()
    check_names: frozenset[str] = frozenset()
    split_only: bool = False

    @property
    def focused(self) -> bool:
        """Whether each document is cut down to the stretches of its pairs (a check or a split asked for)."""
        return bool(self.check_names) or self.split_only


def kept_together(check, chunks: list[dict]) -> bool:
    """Whether one of ``chunks`` holds both spans of ``check``."""
    return any(
        span_checks.chunk_holds(chunk, check.instruction.start, check.instruction.end)
        and span_checks.chunk_holds(chunk, check.qualifier.start, check.qualifier.end)
        for chunk in chunks
    )


def pair_stretch(check) -> tuple[int, int]:
    """From a pair's first character to its last."""
    return (
        min(check.instruction.start, check.qualifier.start),
        max(check.instruction.end, check.qualifier.end),
    )


def focused_blocks(blocks: tuple, stretches: list[tuple[int, int]], text_length: int) -> tuple:
    """``blocks`` cut down to the segments that overlap a stretch and the splits inside one, with elisions between."""
    kept: list = []
    hidden_from = None
    for block in blocks:
        if isinstance(block, Split):
            shown = any(low <= block.offset <= high for low, high in stretches)
        else:
            shown = any(block.start < high and low < block.end for low, high in stretches)
        if shown:
            if hidden_from is not None and not isinstance(block, Split):
                kept.append(Elision(hidden_from, block.start))
            hidden_from = None
            kept.append(block)
        elif not isinstance(block, Split) and hidden_from is None:
            hidden_from = block.start
    if hidden_from is not None and hidden_from < text_length:
        kept.append(Elision(hidden_from, text_length))
    return tuple(kept)


def config_caption(config: dict) -> str:
    """The config as JSON, a pair-aware config's pairs counted rather than listed (a docs set declares thousands).

    ``{"strategy": "pair-aware", "version": 1, "max_chars": 800, "markdown": "blocks-2"} + 93 pairs``.
    """
    if "pairs" not in config:
        return json.dumps(config)
    shown = {key: value for key, value in config.items() if key != "pairs"}
    return f"{json.dumps(shown)} + {counted(len(config['pairs']), 'pair')}"


def lesson_configs() -> dict:
    """The spec's three configs by policy name."""
    return chunk_index.manifest_configs()


def narrowed_checks(
    checks: tuple,
    sources: tuple,
    narrowing: Narrowing,
    policies: tuple[str, ...],
    configs: dict,
    judged_chunks: list[dict] | None = None,
) -> tuple:
    """The checks the view marks: named ones (or all) on the kept sources, and with ``split_only`` only those
    some shown policy splits (``judged_chunks``, from ``show --chunks``, count as one more shown policy)."""
    kept = tuple(
        check
        for check in checks
        if (not narrowing.check_names or check.name in narrowing.check_names)
        and (not narrowing.source_ids or check.source_id in narrowing.source_ids)
    )
    if not narrowing.split_only:
        return kept
    split = set()
    chunk_sets = [chunk_index.build_index(configs[name], sources)["chunks"] for name in policies]
    if judged_chunks is not None:
        chunk_sets.append(judged_chunks)
    for chunks in chunk_sets:
        by_source: dict[str, list[dict]] = {}
        for chunk in chunks:
            by_source.setdefault(chunk["source_id"], []).append(chunk)
        split.update(check.name for check in kept if not kept_together(check, by_source.get(check.source_id, [])))
    return tuple(check for check in kept if check.name in split)


def narrowed_terminal_view(
    sources: tuple[dict, ...],
    checks: tuple,
    policies: tuple[str, ...],
    colour: bool,
    narrowing: Narrowing,
    configs: dict | None = None,
    judgement=None,
) -> str:
    """``terminal_view`` narrowed: only the named sources and checks, only split pairs, each document cut to its pairs.

    With ``--check`` or ``--split-only`` a document is shown only where it holds a
    kept pair (from the pair's first character to its last, widened to whole
    chunks), and under ``--split-only`` only where that policy splits one; the
    rest is one ``… [start, end) not shown`` line. A ``judgement`` (``show
    --chunks``) is narrowed the same way and drawn after the policies.
    """
    configs = lesson_configs() if configs is None else configs
    source_count = len(sources)
    if narrowing.source_ids:
        sources = tuple(source for source in sources if source["source_id"] in narrowing.source_ids)
    judged_chunks = None if judgement is None else judgement.chunks
    marked = narrowed_checks(checks, sources, narrowing, policies, configs, judged_chunks)
    if narrowing.focused:
        holding = {check.source_id for check in marked}
        sources = tuple(source for source in sources if source["source_id"] in holding)
    painter = Painter(colour)
    lines = [
        "markers: " + " · ".join(LEGEND_TERMS[:4]),
        "         " + " · ".join(LEGEND_TERMS[4:]),
        *(f"  {line}" for line in check_legend(marked)),
    ]
    if not sources:
        lines.append("")
        lines.append("nothing to show: no document holds a pair that matches")
        return "\n".join(lines) + "\n"
    for name in policies:
        index = chunk_index.build_index(configs[name], sources)
        view = policy_view(name, index, marked)
        lines.append("")
        # The figures are those of the shown sources; say so, or 723 chunks here reads as a
        # contradiction of the 1,659 the main job printed for the whole manifest.
        scope = f" over {len(sources):,} of {counted(source_count, 'source')}" if len(sources) < source_count else ""
        lines.append(painter.paint(f"═══ {name}{scope}: {growth_sentence(view.growth)}", "heading"))
        lines.append(f"    config {config_caption(view.config)}")
        shown = 0
        for document in view.documents:
            if narrowing.focused:
                document = focused_document(document, marked, narrowing.split_only, index)
                if document is None:
                    continue
            shown += 1
            lines.extend(terminal_document(document, painter))
        if shown == 0:
            lines.append(f"    no split pair under {name}")
    view_text = "\n".join(lines) + "\n"
    if judgement is not None:
        view_text += judged_terminal_view(sources, marked, judgement, colour, narrowing)
    return view_text


def focused_document(view: DocumentView, checks: tuple, split_only: bool, index: dict) -> DocumentView | None:
    """One document cut down to its pairs' stretches (under ``split_only``, the pairs this policy splits)."""
    source_id = view.document["source_id"]
    chunks = [chunk for chunk in index["chunks"] if chunk["source_id"] == source_id]
    own = [check for check in checks if check.source_id == source_id]
    if split_only:
        own = [check for check in own if not kept_together(check, chunks)]
    if not own:
        return None
    stretches = [pair_stretch(check) for check in own]
    blocks = focused_blocks(view.blocks, stretches, len(view.document["text"]))
    return DocumentView(view.document, view.chunk_count, view.verdicts, blocks)


# --- the HTML report ---------------------------------------------------------------

REPORT_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1d1d1f; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 0 0 .25rem; }
h3 { font-size: .95rem; margin: 1rem 0 .25rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #c8c8c8; padding: .25rem .6rem; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .caption { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.note, .legend { color: #444; margin: .25rem 0; }
.policies { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1rem; align-items: start; }
.policy { border: 1px solid #d0d0d0; border-radius: 6px; padding: .6rem; min-width: 0; }
.growth { font-size: 12px; color: #333; margin: .2rem 0; }
.verdict { font-size: 12px; color: #1d6b2f; font-weight: 600; margin: .2rem 0; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; line-height: 1.4; }
.chunk, .gap { padding: .2rem .4rem; margin: .15rem 0; border-left: 4px solid transparent; }
.chunk.shade0 { background: #e7effc; border-left-color: #3d6fc4; }
.chunk.shade1 { background: #fcefdc; border-left-color: #c98323; }
.gap { color: #6b6b6b; }
.caption { font-size: 11px; color: #444; margin-bottom: .1rem; }
.line { color: #999; display: inline-block; min-width: 2.2em; user-select: none; }
.cut { color: #999; }
mark { color: inherit; }
mark.instruction { background: #ffe27a; box-shadow: 0 0 0 1px #a68000; }
mark.qualifier { background: #b9efc3; box-shadow: 0 0 0 1px #2e8a42; }
.edge { font-size: 10px; color: #555; }
.split { color: #a4001d; font-size: 12px; font-weight: 600; border-top: 2px dashed #a4001d; margin: .3rem 0; padding-top: .15rem; }
.chunk.window { outline: 2px dashed #7a3db8; outline-offset: 1px; }
.window-note { font-size: 11px; color: #5b2a91; font-weight: 600; }
@media (max-width: 900px) { .policies { grid-template-columns: 1fr; } }
"""


def html_table(rows: list[tuple[str, ...]]) -> str:
    """Header row and body rows as an HTML table, every cell escaped."""
    header = "".join(f"<th>{escaped(cell)}</th>" for cell in rows[0])
    body = []
    for row in rows[1:]:
        cells = "".join(
            f'<td class="number">{escaped(cell)}</td>' if column in NUMERIC_COLUMNS else f"<td>{escaped(cell)}</td>"
            for column, cell in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{header}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def html_row(row: Row) -> str:
    """One row inside a ``<pre>``: its line number, then runs, marks and edges, escaped."""
    parts = [f'<span class="line">{row.line}</span>']
    if row.starts_mid_line:
        parts.append(f'<span class="cut">{CUT_MARK}</span>')
    for item in row.items:
        if isinstance(item, Edge):
            parts.append(f'<span class="edge">{escaped(marker(item))}</span>')
        elif item.roles:
            parts.append(f'<mark class="{" ".join(item.roles)}">{escaped(visible(item.text))}</mark>')
        else:
            parts.append(escaped(visible(item.text)))
    if row.ends_mid_line:
        parts.append(f'<span class="cut">{CUT_MARK}</span>')
    return "".join(parts)


def html_block(block: Segment | Split, policy: str, notes: tuple[str, ...] = ()) -> str:
    """A chunk as a shaded block with its caption, a gap as a plain one, a split as a rule with its sentence.

    ``notes`` name the recovering windows a chunk belongs to; such a chunk is outlined.
    """
    if isinstance(block, Split):
        return f'<div class="split">{escaped(block.sentence)}</div>'
    rows = "\n".join(html_row(row) for row in block.rows)
    if block.chunk is None:
        return f'<div class="gap"><div class="caption">{escaped(gap_caption(block))}</div><pre>{rows}</pre></div>'
    caption = chunk_caption(block.chunk)
    identity = block.chunk.get("chunk_id", f"record on line {block.chunk.get('line')} of the chunk file")
    # The caption shows the rest; the tooltip adds only what it leaves out.
    title = f"section {block.chunk['section_title']} · chunk_id {identity}"
    window_class = " window" if notes else ""
    window_notes = "".join(f'<div class="window-note">{escaped(visible(note))}</div>' for note in notes)
    return (
        f'<div class="chunk shade{block.shade}{window_class}" data-policy="{escaped(policy)}"'
        f' data-order="{block.chunk["order"]}" title="{escaped(visible(title))}">{window_notes}'
        f'<div class="caption">{escaped(caption)}</div><pre>{rows}</pre></div>'
    )


def html_policy(view: PolicyView, windows: dict[tuple[str, int], tuple[str, ...]] | None = None) -> str:
    """One policy's column: name, config, storage figures, and each document's blocks.

    ``windows`` maps a chunk's ``(source_id, order)`` to the notes of the recovering windows it is in.
    """
    windows = windows or {}
    parts = [
        f'<section class="policy" id="policy-{escaped(view.name)}">',
        f"<h2>{escaped(view.name)}</h2>",
        f'<p class="growth"><code>{escaped(config_caption(view.config))}</code></p>',
        f'<p class="growth">{escaped(growth_sentence(view.growth))}</p>',
    ]
    for document in view.documents:
        source = document.document
        parts.append(
            f"<h3>{escaped(visible(source['title']))} <small>{escaped(visible(source['path']))}"
            f" · {counted(document.chunk_count, 'chunk')}</small></h3>"
        )
        parts.extend(f'<p class="verdict">{escaped(verdict)}</p>' for verdict in document.verdicts)
        parts.extend(
            html_block(block, view.name, window_notes(windows, source["source_id"], block)) for block in document.blocks
        )
    parts.append("</section>")
    return "\n".join(parts)


def window_notes(windows: dict, source_id: str, block) -> tuple[str, ...]:
    """The window notes of a chunk block; none for a gap or a split."""
    if not isinstance(block, Segment) or block.chunk is None:
        return ()
    return windows.get((source_id, block.chunk["order"]), ())


def split_windows(result: dict, checks: tuple) -> dict[str, list]:
    """Per policy, each check's recovering window (``context_windows.recovering_windows``)."""
    from checks import context_windows

    return {
        name: context_windows.recovering_windows(result["indexes"][name]["chunks"], checks)
        for name in result["indexes"]
    }


def window_cell(window) -> str:
    """One policy's cell in the checks table: kept, or split and the window that brings the qualifier back."""
    if window.anchor_order is None:
        return "split · not recoverable: no chunk holds the instruction"
    if window.window == 0:
        return "same chunk"
    if window.window is not None:
        return f"split · k={window.window} recovers it (chunks {window.orders[0]}–{window.orders[-1]})"
    crossing = window.window_crossing_headings
    beyond = "" if crossing is None else f"; k={crossing} across headings"
    return f"split · no window within the section{beyond}"


def checks_table(checks: tuple, windows: dict[str, list]) -> str:
    """Every span check, scanned (``scan:`` names) or declared, with each policy's verdict and recovering window."""
    if not checks:
        return '<p class="note">No span checks: declare some, or run <code>run.py scan --add-checks</code>.</p>'
    rows = [("span check", "origin", "source", *windows)]
    for position, check in enumerate(checks):
        origin = "scanned" if check.name.startswith("scan:") else "declared"
        rows.append(
            (
                visible(check.name),
                origin,
                visible(check.source_id),
                *(window_cell(policy_windows[position]) for policy_windows in windows.values()),
            )
        )
    header = "".join(f"<th>{escaped(cell)}</th>" for cell in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{escaped(cell)}</td>" for cell in row) + "</tr>" for row in rows[1:])
    return f'<h2>Span checks</h2><table class="checks"><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>'


def window_marks(windows: list) -> dict[tuple[str, int], tuple[str, ...]]:
    """``(source_id, order)`` -> notes, for the chunks of every split check's recovering window."""
    marks: dict[tuple[str, int], list[str]] = {}
    for window in windows:
        if not window.window:
            continue
        for order in window.orders:
            marks.setdefault((window.source_id, order), []).append(f"window k={window.window} recovers {window.name}")
    return {key: tuple(notes) for key, notes in marks.items()}


def html_page(title: str, extra_css: str, body: list[str]) -> str:
    """A self-contained page around ``body`` (lines of markup already escaped): the report's head and style."""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(title)}</title>",
            f"<style>{REPORT_CSS}{extra_css}</style>",
            "</head>",
            "<body>",
            *body,
            "</body>",
            "</html>",
            "",
        ]
    )


def html_report(result: dict, checks: tuple) -> str:
    """The whole report as one self-contained page: no script, no external reference, all text escaped."""
    views = [policy_view(name, index, checks) for name, index in result["indexes"].items()]
    windows = split_windows(result, checks)
    legend = "".join(f"<li>{escaped(line)}</li>" for line in check_legend(checks))
    return html_page(
        "Chunk boundary report",
        "",
        [
            "<h1>Chunk boundary report</h1>",
            f'<p class="note">{escaped(result["fixture_scope"])}</p>',
            html_table(summary_rows(result)),
            f'<ul class="legend">{legend}</ul>',
            checks_table(checks, windows),
            f'<p class="legend">{escaped(" · ".join(LEGEND_TERMS))}. Hover a chunk for its full id and section.'
            " A dashed outline marks the chunks of the smallest window that brings a split qualifier back.</p>",
            '<div class="policies">',
            *(html_policy(view, window_marks(windows[view.name])) for view in views),
            "</div>",
        ],
    )


# --- judged chunks (``run.py judge``, ``show --chunks``) -------------------------------


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


def visible_message(line: str) -> str:
    """A message line with newlines, controls and marker characters made visible, its backslashes kept.

    For lines whose untrusted parts are already escaped JSON: ``visible_message('holds "a\\nb"')``
    -> ``'holds "a\\nb"'``, where ``visible`` would double the backslash.
    """
    return "".join(character if character == "\\" else visible_character(character) for character in line)


def judged_terminal_view(
    sources: tuple[dict, ...], checks: tuple, judgement, colour: bool, narrowing: Narrowing | None = None
) -> str:
    """The judged chunks over the source text, as ``show --chunks`` prints them after the lab's policies.

    With a focused ``narrowing`` (``--check``, ``--split-only``) each document is
    cut to its pairs as the policies' are, and under ``--split-only`` to the
    pairs the judged chunks split.
    """
    painter = Painter(colour)
    lines = [
        "",
        painter.paint(f"═══ {visible(judgement.name)} (judged chunks from {visible(judgement.file)})", "heading"),
    ]
    lines.extend(f"    {line}" for line in judged_summary_lines(judgement))
    focused = narrowing is not None and narrowing.focused
    shown = 0
    for document in judged_document_views(sources, checks, judgement):
        if focused:
            document = focused_document(document, checks, narrowing.split_only, {"chunks": judgement.chunks})
            if document is None:
                continue
        shown += 1
        lines.extend(terminal_document(document, painter))
    if focused and shown == 0:
        lines.append("    no split pair in the judged chunks")
    return "\n".join(lines) + "\n"


def html_judged(sources: tuple[dict, ...], checks: tuple, judgement) -> str:
    """The judged chunks' column of the report, laid out like a policy's."""
    parts = [
        '<section class="policy" id="judged">',
        f"<h2>{escaped(visible(judgement.name))}</h2>",
        f'<p class="growth">judged chunks from <code>{escaped(visible(judgement.file))}</code></p>',
    ]
    parts.extend(f'<p class="growth">{escaped(line)}</p>' for line in judged_summary_lines(judgement))
    for document in judged_document_views(sources, checks, judgement):
        source = document.document
        parts.append(
            f"<h3>{escaped(visible(source['title']))} <small>{escaped(visible(source['path']))}"
            f" · {counted(document.chunk_count, 'located chunk')}</small></h3>"
        )
        parts.extend(f'<p class="verdict">{escaped(verdict)}</p>' for verdict in document.verdicts)
        parts.extend(html_block(block, "judged") for block in document.blocks)
    parts.append("</section>")
    return "\n".join(parts)


def context_block(judgement) -> list[str]:
    """The context figures' table (``context_windows``) as preformatted text, escaped."""
    import judge

    return [f"<pre>{escaped(visible_lines(judge.context_text(judgement.rows, judgement.complete)))}</pre>"]


def visible_lines(text: str) -> str:
    """``text`` with each line made visible (see ``visible``) and the line breaks kept."""
    return "\n".join(visible(line) for line in text.split("\n"))


def judge_html_report(sources: tuple[dict, ...], checks: tuple, judgement) -> str:
    """The ``judge --html`` page: the judge's table, then the lab's three policies and the judged chunks side by side.

    Self-contained like ``html_report``: no script, no external reference,
    every piece of text (chunk file name, record text, source text) escaped.
    """
    import judge

    views = [policy_view(name, index, checks) for name, index in judgement.indexes.items()]
    rows = judge.table_rows(judgement)
    header = "".join(f"<th>{escaped(cell)}</th>" for cell in rows[0])
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="number">{escaped(cell)}</td>' if column in judge.NUMERIC else f"<td>{escaped(cell)}</td>"
            for column, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows[1:]
    )
    legend = "".join(f"<li>{escaped(line)}</li>" for line in check_legend(checks))
    verdicts = "".join(f"<li>{escaped(line)}</li>" for line in judge.pair_lines(judgement))
    return html_page(
        "Judged chunks beside the lab's policies",
        ".policies.judged { grid-template-columns: repeat(4, minmax(0, 1fr)); }",
        [
            f"<h1>{escaped(visible(judgement.name))} beside the lab's policies</h1>",
            f'<p class="note">{escaped(visible(judge.located_line(judgement)))}</p>',
            f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>",
            f'<p class="legend">{escaped(judge.COVERAGE_NOTE)}</p>',
            f'<ul class="legend">{verdicts}</ul>',
            *context_block(judgement),
            f'<ul class="legend">{legend}</ul>',
            f'<p class="legend">{escaped(" · ".join(LEGEND_TERMS))}. Hover a chunk for its section.</p>',
            '<div class="policies judged">',
            *(html_policy(view) for view in views),
            html_judged(sources, checks, judgement),
            "</div>",
        ],
    )
