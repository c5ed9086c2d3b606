"""The terminal views of ``run.py show``: each policy's chunks over the source text, whole or narrowed.

``terminal_view`` prints every document under each policy;
``narrowed_terminal_view`` only the named sources and checks, or only split
pairs; ``judged_terminal_view`` another chunker's chunks (``show --chunks``).
Plain text when piped, ANSI colour only on a terminal; every piece of source
text goes through ``visible`` first.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import chunk_index
from checks import span_checks
from lab_io.errors import counted
from views import pair_verdicts
from views.pictures import (
    DocumentView,
    Edge,
    Elision,
    Row,
    Run,
    Segment,
    Split,
    check_legend,
    chunk_caption,
    chunk_lookup,
    config_caption,
    gap_caption,
    judged_document_views,
    judged_summary_lines,
    marker,
    policy_view,
)
from views.summary import (
    aligned_rows,
    chunkless_sources,
    growth_sentence,
    including_sources,
    no_span_checks,
    summary_rows,
)
from views.visible_text import CUT_MARK, LEGEND_TERMS, visible

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
            # The title runs to the line's end, in no quotes of the view's own: a heading's own quotes show once.
            caption = f'{chunk_caption(block.chunk)} · section {visible(block.chunk["section_title"])}'
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


@dataclass(frozen=True)
class Narrowing:
    """What ``show`` narrows to: these sources, these checks, only pairs a shown policy splits; empty means all."""

    source_ids: frozenset[str] = frozenset()
    check_names: frozenset[str] = frozenset()
    split_only: bool = False
    # At most this many pairs drawn (the first, in manifest order), then a line counting the rest; None: all.
    pair_limit: int | None = None

    @property
    def focused(self) -> bool:
        """Whether each document is cut down to the stretches of its pairs (a check or a split asked for)."""
        return bool(self.check_names) or self.split_only


def kept_together(check, chunks: span_checks.SourceChunks | list[dict]) -> bool:
    """Whether one of ``chunks`` (the check's source's) holds both spans of ``check``, found by bisection."""
    return bool(chunk_lookup(chunks).holding(*pair_stretch(check)))


def pair_stretch(check) -> tuple[int, int]:
    """From a pair's first character to its last."""
    return (
        min(check.instruction.start, check.qualifier.start),
        max(check.instruction.end, check.qualifier.end),
    )


def merged_stretches(stretches: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The lows and highs of ``stretches`` merged where they overlap or touch, in order.

    ``[(5, 9), (0, 3), (3, 4)]`` -> ``([0, 5], [4, 9])``.
    """
    lows: list[int] = []
    highs: list[int] = []
    for low, high in sorted(stretches):
        if highs and low <= highs[-1]:
            highs[-1] = max(highs[-1], high)
        else:
            lows.append(low)
            highs.append(high)
    return lows, highs


def focused_blocks(blocks: tuple, stretches: list[tuple[int, int]], text_length: int) -> tuple:
    """``blocks`` cut down to the segments that overlap a stretch and the splits inside one, with elisions between.

    The stretches are merged first, so each block costs one bisection, not a look at every pair of the page.
    """
    lows, highs = merged_stretches(stretches)
    kept: list = []
    hidden_from = None
    for block in blocks:
        if isinstance(block, Split):
            # The first merged stretch ending at or after the offset is the only one that can hold it.
            position = bisect_left(highs, block.offset)
            shown = position < len(highs) and lows[position] <= block.offset
        else:
            position = bisect_right(highs, block.start)
            shown = position < len(highs) and lows[position] < block.end
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
    section_cache: dict | None = None,
) -> tuple:
    """The checks the view marks: named ones (or all) on the kept sources, and with ``split_only`` only those
    some shown policy splits (``judged_chunks``, from ``show --chunks``, count as one more shown policy).

    The shown policies' indexes are built in one pass, each page's sections read once for all of them and kept in
    ``section_cache`` (``chunk_index.document_sections_once``) for the view drawn after."""
    kept = tuple(
        check
        for check in checks
        if (not narrowing.check_names or check.name in narrowing.check_names)
        and (not narrowing.source_ids or check.source_id in narrowing.source_ids)
    )
    if not narrowing.split_only:
        return kept
    split = set()
    indexes = chunk_index.build_policy_indexes(
        {name: configs[name] for name in policies}, sources, section_cache=section_cache
    )
    chunk_sets = [index["chunks"] for index in indexes.values()]
    if judged_chunks is not None:
        chunk_sets.append(judged_chunks)
    for chunks in chunk_sets:
        by_source = span_checks.chunks_by_source({"chunks": chunks})
        split.update(
            check.name
            for check in kept
            if not kept_together(check, by_source.get(check.source_id, span_checks.NO_CHUNKS))
        )
    return tuple(check for check in kept if check.name in split)


def config_pairs_note(config: dict, shown: set[str]) -> str:
    """For a narrowed view's header: that a pair-aware config lists pairs of sources not shown (its index's bytes
    hold them all, as every chunk id does), so the bytes against the shown sources' read high; ``""`` otherwise."""
    pairs = config.get("pairs") or ()
    elsewhere = sum(1 for pair in pairs if pair["source_id"] not in shown)
    if not elsewhere:
        return ""
    return (
        f" (its config lists the manifest's {counted(len(pairs), 'pair')}, {elsewhere:,} of them on sources not "
        "shown, and its ids hold them all)"
    )


def narrowed_terminal_view(
    sources: tuple[dict, ...],
    checks: tuple,
    policies: tuple[str, ...],
    colour: bool,
    narrowing: Narrowing,
    configs: dict | None = None,
    judgement=None,
    command: str = "show",
) -> str:
    """``terminal_view`` narrowed: only the named sources and checks, only split pairs, each document cut to its pairs.

    With ``--check`` or ``--split-only`` a document is shown only where it holds a
    kept pair (from the pair's first character to its last, widened to whole
    chunks), and under ``--split-only`` only where that policy splits one; the
    rest is one ``… [start, end) not shown`` line. A ``judgement`` (``show
    --chunks``) is narrowed the same way and drawn after the policies.
    ``command`` is the ``show`` the hints under a capped view name (with its ``--manifest``).
    """
    configs = lesson_configs() if configs is None else configs
    source_count = len(sources)
    if narrowing.source_ids:
        sources = tuple(source for source in sources if source["source_id"] in narrowing.source_ids)
    judged_chunks = None if judgement is None else judgement.chunks
    # Every build of the view reads a page's sections once: --split-only read each page once per policy, then again.
    section_cache: dict = {}
    marked = narrowed_checks(checks, sources, narrowing, policies, configs, judged_chunks, section_cache)
    left_out = 0
    if narrowing.pair_limit is not None and len(marked) > narrowing.pair_limit:
        left_out = len(marked) - narrowing.pair_limit
        marked = marked[: narrowing.pair_limit]
    if narrowing.focused:
        holding = {check.source_id for check in marked}
        sources = tuple(source for source in sources if source["source_id"] in holding)
    own_checks = checks_by_source(marked)
    painter = Painter(colour)
    lines = [
        "markers: " + " · ".join(LEGEND_TERMS[:4]),
        "         " + " · ".join(LEGEND_TERMS[4:]),
        *(f"  {line}" for line in check_legend(marked)),
    ]
    if not sources:
        lines.append("")
        if narrowing.split_only and checks:
            # "pair-aware splits none": the answer the user asked for, not an empty filter.
            lines.append(f"nothing to show: no pair asked for is split under {' or '.join(policies)}")
        else:
            lines.append("nothing to show: no document holds a pair that matches")
        return "\n".join(lines) + "\n"
    for name in policies:
        index = chunk_index.build_index(configs[name], sources, section_cache)
        view = policy_view(name, index, marked)
        lines.append("")
        # The figures are those of the shown sources; say so, or 723 chunks here reads as a
        # contradiction of the 1,659 the main job printed for the whole manifest.
        scope = f" over {len(sources):,} of {counted(source_count, 'source')}" if len(sources) < source_count else ""
        heading = f"═══ {name}{scope}: {growth_sentence(view.growth)}"
        if scope:
            heading += config_pairs_note(index["config"], {source["source_id"] for source in sources})
        lines.append(painter.paint(heading, "heading"))
        lines.append(f"    config {config_caption(view.config)}")
        shown = 0
        by_source = span_checks.chunks_by_source(index)
        for document in view.documents:
            if narrowing.focused:
                document = focused_document(document, own_checks, narrowing.split_only, by_source)
                if document is None:
                    continue
            shown += 1
            lines.extend(terminal_document(document, painter))
        if shown == 0:
            lines.append(f"    no split pair under {name}")
    view_text = "\n".join(lines) + "\n"
    if judgement is not None:
        view_text += judged_terminal_view(sources, marked, judgement, colour, narrowing)
    if left_out:
        view_text += "\n" + limit_line(len(marked), left_out, command) + "\n"
    return view_text


def limit_line(drawn: int, left_out: int, command: str = "show") -> str:
    """The line under a capped ``--split-only`` view: how many pairs were left out, and how to see them."""
    return f"… {left_out:,} more split {'pair' if left_out == 1 else 'pairs'} not drawn (the first {drawn:,} are): " + (
        more_pairs_hint(command)
    )


def more_pairs_hint(command: str) -> str:
    """How to see the split pairs a capped view leaves out, each way a ``command`` (``show`` and its
    ``--manifest``, so it draws the manifest this view read) to run as it is."""
    return f"{command} --list lists every one, --check NAME draws one, --split-only --all draws every one"


def checks_by_source(checks: tuple) -> dict[str, list]:
    """Each source's checks, in their order, grouped once for every document of a view."""
    grouped: dict[str, list] = {}
    for check in checks:
        grouped.setdefault(check.source_id, []).append(check)
    return grouped


def focused_document(
    view: DocumentView, own_checks: dict[str, list], split_only: bool, chunks: dict[str, span_checks.SourceChunks]
) -> DocumentView | None:
    """One document cut down to its pairs' stretches (under ``split_only``, the pairs this policy splits).

    ``own_checks`` is ``checks_by_source`` of the marked checks and ``chunks`` the policy's ``chunks_by_source``.
    """
    source_id = view.document["source_id"]
    chunks = chunks.get(source_id, span_checks.NO_CHUNKS)
    own = own_checks.get(source_id, [])
    if split_only:
        own = [check for check in own if not kept_together(check, chunks)]
    if not own:
        return None
    stretches = [pair_stretch(check) for check in own]
    blocks = focused_blocks(view.blocks, stretches, len(view.document["text"]))
    return DocumentView(view.document, view.chunk_count, view.verdicts, blocks)


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
    own_checks = checks_by_source(checks)
    by_source = span_checks.chunks_by_source({"chunks": judgement.chunks})
    for document in judged_document_views(sources, checks, judgement):
        if focused:
            document = focused_document(document, own_checks, narrowing.split_only, by_source)
            if document is None:
                continue
        shown += 1
        lines.extend(terminal_document(document, painter))
    if focused and shown == 0:
        lines.append("    no split pair in the judged chunks")
    return "\n".join(lines) + "\n"


# --- the overview of a docs set (show without a filter on many sources) ---------------------

OVERVIEW_HINTS = (
    ("--source ID", "one page, chunk by chunk under each policy (a folder/: every page under it)"),
    ("--check NAME", "the chunks around one pair"),
    ("--split-only", "the chunks around the first 20 split pairs (with --all, every one)"),
    ("--all", "every page under every policy"),
)


def overview_view(
    result: dict,
    checks: tuple,
    colour: bool,
    judgement=None,
    section_of=None,
    listed: int | None = None,
    command: str = "show",
) -> str:
    """What ``show`` prints for a docs set: how to see more, the verdict table, then the split pairs, one a line:
    the first ``listed`` of them and how many more (``None``: every one).

    ``result`` holds the shown policies' indexes (``span_checks.build_checked_result``);
    a ``judgement`` (``show --chunks``) is one more column, its windows bounded by ``section_of``.
    A pair line: ``#2 scan:guide:7 (guide, line 5): fixed-char split by fixed-width cut, paragraph kept``.
    ``command`` is the ``show`` (with its ``--manifest``) the line under a capped list names.
    """
    painter = Painter(colour)
    sources = next(iter(result["indexes"].values()))["documents"]
    columns = pair_verdicts.policy_columns(result, checks)
    if judgement is not None:
        columns.append(pair_verdicts.judged_column(judgement, checks, len(columns), section_of))
    lines = [
        painter.paint(
            f"{counted(len(sources), 'source')} and {counted(len(checks), 'span check')}:"
            " the overview and the split pairs; to see more, add",
            "heading",
        ),
        *(f"  {option:<14} {what}" for option, what in OVERVIEW_HINTS),
        "",
        *aligned_rows(summary_rows(result)),
    ]
    if judgement is not None:
        # The judged chunks' headline figure, beside the policies' own, then how they were located.
        lines.append(judged_kept_line(judgement))
        lines.extend(judged_summary_lines(judgement))
    lines.append("")
    if not checks:
        # The scan it names is of the manifest this show read, as ``command`` carries it.
        lines.append(no_span_checks(command.removeprefix("show")))
        if listed is None:
            lines.extend(listed_sources(result, painter))
        return "\n".join(lines) + "\n"
    rows = pair_verdicts.pair_rows(sources, checks, columns)
    split = [row for row in rows if row.split_anywhere]
    lines.append(
        painter.paint(f"split pairs (split by one policy or more): {len(split):,} of {len(rows):,}", "heading")
    )
    for row in split if listed is None else split[:listed]:
        # Each policy by its name alone (the table above gives its size), and the page only when the check's name
        # does not hold it already (a scanned check's "scan:<page>:<line>"): a docs set's lines stay near a screen wide.
        verdicts = ", ".join(
            f"{visible(column.name)} {overview_verdict(verdict)}" for column, verdict in zip(columns, row.verdicts)
        )
        where = row.lines
        if not row.check.name.startswith(f"scan:{row.check.source_id}:"):
            where = f"{visible(row.check.source_id)}, {where}"
        lines.append(f"  #{row.number} {visible(row.check.name)} ({where}): {verdicts}")
    if not split:
        lines.append("  none: every shown policy keeps every pair in one chunk")
    elif listed is not None and len(split) > listed:
        rest = len(split) - listed
        lines.append(
            f"  … {rest:,} more split {'pair' if rest == 1 else 'pairs'} (the first {listed:,} are listed): "
            + more_pairs_hint(command)
        )
    if listed is None:
        lines.extend(listed_sources(result, painter))
    return "\n".join(lines) + "\n"


def judged_kept_line(judgement) -> str:
    """The judged chunks' pairs kept together, as ``judge``'s table gives them, under the policies' table:
    ``"lc.jsonl: pairs kept together: 187 of 642; judge FILE gives its whole row"``."""
    import judge

    row = judgement.rows[-1]
    return f"{visible(judgement.name)}: pairs kept together: {judge.kept_cell(row)}; judge FILE gives its whole row"


def listed_sources(result: dict, painter: Painter) -> list[str]:
    """Every source the main job's notes name the first few of (``show --list``): what is in no chunk under the shown
    policies, what is pulled in elsewhere where the site is built; each a heading then a line a source."""
    lines = []
    for heading, names in (
        ("sources with no chunk under the policies shown", chunkless_sources(result)),
        ("sources that pull other files' text in where the site is built", including_sources(result)),
    ):
        if names:
            lines.extend(["", painter.paint(f"{heading}: {len(names):,}", "heading")])
            lines.extend(f"  {visible(name)}" for name in names)
    return lines


def overview_verdict(verdict) -> str:
    """``"kept"``, ``"split by block break"`` (each kind of boundary once) or ``"apart"``."""
    return pair_verdicts.verdict_word(verdict).replace("split · ", "split by ", 1)
