"""The self-contained HTML reports: the main job's ``--html`` and ``judge --html``.

One page, no external reference, every piece of text escaped (``escaped``
after ``visible``). It reads no files and writes none: the commands do the I/O.
"""

from __future__ import annotations

import html

from lab_io.errors import counted
from views.pictures import (
    Edge,
    PolicyView,
    Row,
    Segment,
    Split,
    check_legend,
    chunk_caption,
    config_caption,
    gap_caption,
    judged_document_views,
    judged_summary_lines,
    marker,
    policy_view,
)
from views.summary import NUMERIC_COLUMNS, growth_sentence, summary_rows
from views.visible_text import CUT_MARK, LEGEND_TERMS, escaped, visible, visible_lines

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
