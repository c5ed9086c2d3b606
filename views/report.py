"""The self-contained HTML reports: the main job's ``--html`` and ``judge --html``.

Laid out for the questions a reader asks of a whole docs set, not for the
size of the corpus times the policies:

1. **Overview**: the verdict table per policy with the sizes built, then
   every pair in one table (the start of its instruction and of its caveat,
   its verdict and recovering window under each column, its page and line),
   each pair's name a link to its card. Links
   above the table narrow it to the pairs split under any column, under one,
   or kept by all: a ``:target`` rule of the style sheet, so the views work
   without script.
2. **A card per pair**: the instruction and the caveat, then only the lines
   around the pair under every column side by side, aligned line by line,
   each boundary between the spans named where it falls and the chunks of
   the window that brings the caveat back outlined (``views.report_text``).
3. **Pages on demand**: a page holding pairs shows its text once, collapsed,
   with a gutter per column; pages without pairs are one row each.

One file, no external reference: a Content-Security-Policy allows nothing but
the inline style and the one small script (sorting, a text filter, opening a
page a link points to), which the page reads without. Every piece of text is
escaped (``escaped`` after ``visible``). Each page is laid out once, so the
report costs the pages plus the pairs. It reads no files and writes none.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Callable, Mapping

import chunk_index
from lab_io.errors import counted
from views.pair_verdicts import (
    KEPT,
    SPLIT,
    Column,
    PairRow,
    judged_column,
    pair_rows,
    policy_columns,
    verdict_word,
    window_words,
)
from views.pictures import config_caption, judged_summary_lines
from views.report_text import LineMap, card_lines, page_text
from views.summary import NUMERIC_COLUMNS, growth_sentence, storage_growth, summary_rows
from views.visible_text import LEGEND_TERMS, escaped, visible, visible_lines

# A source line wraps with break-spaces, not pre-wrap: under pre-wrap a run of spaces where the line wraps (a
# Markdown table row padded to its widest cell) hangs past the cell, painted in its chunk's shade and outline
# over the next policy's column.
REPORT_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fff; }
header, main { margin: 0 1.5rem; }
header { padding-top: 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 .4rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 .4rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
h3 { font-size: 1rem; margin: 0 0 .3rem; }
a { color: #0b55b3; }
a:focus-visible, button:focus-visible, summary:focus-visible, input:focus-visible { outline: 3px solid #e08a00; }
table { border-collapse: collapse; margin: .4rem 0 .8rem; }
th, td { border: 1px solid #c8c8c8; padding: .2rem .5rem; text-align: left; vertical-align: top; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .text td, .lines td, .cap, .cutname { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.note, .legend { color: #444; margin: .25rem 0; }
nav.toc a, .views a { margin-right: .8rem; }
.view { position: absolute; top: 0; }
.pairs td small { color: #555; font-weight: normal; }
.pairs { table-layout: fixed; width: 100%; min-width: 64em; font-size: 13px; line-height: 1.35; }
.pairs td { overflow-wrap: anywhere; }
.pairs td:nth-child(6) { white-space: nowrap; }
.pairs td:nth-child(2), .pairs td:nth-child(5) { font-size: 12px; }
.pairs .w-number { width: 2.6em; }
.pairs .w-name { width: 10.5em; }
.pairs .w-page { width: 8.5em; }
.pairs .w-lines { width: 7em; }
.pairs .w-verdict { width: 11.5em; }
.pairs .w-tier { width: 3.6em; }
.pairs th button { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; cursor: pointer; }
.pairs th[aria-sort="ascending"] button::after { content: " \\25b2"; }
.pairs th[aria-sort="descending"] button::after { content: " \\25bc"; }
.st-kept { color: #1d6b2f; }
.st-split { color: #a4001d; font-weight: 600; }
.st-apart { color: #8a5a00; }
.card { border: 1px solid #d0d0d0; border-radius: 6px; padding: .6rem .8rem; margin: 0 0 1rem;
  content-visibility: auto; contain-intrinsic-size: auto 900px; }
.card:target { border-color: #0b55b3; box-shadow: 0 0 0 2px #0b55b3; }
.quotes { margin: .2rem 0 .5rem; }
.quotes dt { font-weight: 600; }
.quotes dd { margin: 0 0 .3rem 1rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.lines { width: 100%; table-layout: fixed; font-size: 12px; }
.lines th:first-child, .text th:first-child { width: 3.2em; color: #888; font-weight: normal; text-align: right; }
.lines thead th { font-family: system-ui, sans-serif; font-weight: normal; }
.lines td, .text td { white-space: break-spaces; overflow-wrap: anywhere; }
pre.wrapped { white-space: pre-wrap; overflow-wrap: anywhere; }
.lines tr.elided td, .lines tr.elided th { color: #888; font-style: italic; background: #fafafa; }
.s0 { background: #e7effc; }
.s1 { background: #fcefdc; }
.g { color: #777; }
.win { outline: 2px dashed #7a3db8; outline-offset: -1px; }
.cap { display: block; font-size: 10.5px; color: #444; }
.cutname { display: block; color: #a4001d; font-weight: 600; border-top: 2px dashed #a4001d; }
.cut { color: #999; }
mark { color: inherit; }
mark.instruction { background: #ffe27a; box-shadow: 0 0 0 1px #a68000; }
mark.qualifier { background: #b9efc3; box-shadow: 0 0 0 1px #2e8a42; }
mark.instruction.qualifier { background: linear-gradient(#ffe27a 50%, #b9efc3 50%); }
.edge { font-size: 10px; color: #555; text-decoration: none; }
details.page { border: 1px solid #d0d0d0; border-radius: 6px; padding: .3rem .6rem; margin: 0 0 .5rem; }
details.page summary { cursor: pointer; }
.text { font-size: 12px; }
.text td.s0, .text td.s1, .text td.g { width: 2.5em; font-size: 10px; color: #555; }
.text td.b { border-top: 2px solid #3d6fc4; }
.text td.x { box-shadow: inset 3px 0 0 #a4001d; }
"""

SCRIPT = """
(function () {
  "use strict";
  function openTarget() {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target && target.tagName === "DETAILS") { target.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  var table = document.getElementById("pair-table");
  if (!table) { return; }
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  function key(row, column) {
    var cell = row.cells[column];
    return cell.hasAttribute("data-key") ? cell.getAttribute("data-key") : cell.textContent;
  }
  Array.prototype.forEach.call(heads, function (head, column) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = head.textContent;
    head.textContent = "";
    head.appendChild(button);
    button.addEventListener("click", function () {
      var up = head.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(heads, function (other) { other.removeAttribute("aria-sort"); });
      head.setAttribute("aria-sort", up ? "ascending" : "descending");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a, column), y = key(b, column);
        var order = (x === "" || y === "" || isNaN(x) || isNaN(y)) ? x.localeCompare(y) : x - y;
        return (up ? order : -order) || key(a, 0) - key(b, 0);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
  var filter = document.createElement("input");
  filter.type = "search";
  filter.placeholder = "filter by pair or page";
  filter.setAttribute("aria-label", "filter the pairs by pair name or page");
  table.parentNode.insertBefore(filter, table);
  filter.addEventListener("input", function () {
    var query = filter.value.toLowerCase();
    Array.prototype.forEach.call(body.rows, function (row) {
      var words = (row.cells[1].textContent + " " + row.cells[4].textContent).toLowerCase();
      row.hidden = query !== "" && words.indexOf(query) < 0;
    });
  });
})();
"""

# Annotation fields a scan may attach to a pair; the first present names the pair's confidence tier.
TIER_FIELDS = ("confidence", "tier")
STATE_KEYS = {KEPT: "0", SPLIT: "1"}


def script_hash(script: str) -> str:
    """The ``'sha256-…'`` source the Content-Security-Policy allows for ``script``, and nothing else."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


def html_page(title: str, extra_css: str, body: list[str], script: str = SCRIPT) -> str:
    """A self-contained page around ``body`` (markup already escaped): head, style, the optional script.

    The policy forbids every fetch, frame, form and image, so nothing the page
    holds can reach the network, even text that escaped escaping.
    """
    policy = f"default-src 'none'; style-src 'unsafe-inline'; script-src {script_hash(script)}; base-uri 'none'"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            # Tells the lab's report from another page, so no other output of the lab replaces it (lab_io.outputs).
            '<meta name="generator" content="chunk-boundary lab">',
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{html.escape(title)}</title>",
            f"<style>{REPORT_CSS}{extra_css}</style>",
            "</head>",
            "<body>",
            *body,
            f"<script>{script}</script>",
            "</body>",
            "</html>",
            "",
        ]
    )


def html_table(rows: list[tuple[str, ...]], numeric: frozenset[int] = NUMERIC_COLUMNS) -> str:
    """Header row and body rows as an HTML table, every cell escaped."""
    header = "".join(f"<th>{escaped(cell)}</th>" for cell in rows[0])
    body = []
    for row in rows[1:]:
        cells = "".join(
            f'<td class="number">{escaped(cell)}</td>' if column in numeric else f"<td>{escaped(cell)}</td>"
            for column, cell in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{header}</tr></thead><tbody>{''.join(body)}</tbody></table>"


# --- what each pair belongs to, for the views above the table ----------------------------


def tier_of(annotation: Mapping | None) -> tuple[str, str] | None:
    """A pair's confidence tier, as the field that gives it and its value as text (``("tier", "1")``)."""
    if not annotation:
        return None
    for name in TIER_FIELDS:
        if annotation.get(name) is not None:
            return name, str(annotation[name])
    return None


def pair_views(
    pairs: list[PairRow], columns: list[Column], annotations: Mapping, noun: str = "policy"
) -> tuple[list[tuple[str, str]], dict[int, list[str]]]:
    """The narrowed views (id, label with its count) and, per pair number, the views it is in.

    Every view is a ``:target`` of the style sheet: ``#split`` shows the pairs
    some column splits, ``#split-p0`` those column ``p0`` splits, ``#kept``
    those every column keeps, ``#tier-0``… each confidence tier scan gave.
    """
    member: dict[int, list[str]] = {pair.number: [] for pair in pairs}
    views: list[tuple[str, str]] = []

    def add(view: str, label: str, chosen: list[PairRow]) -> None:
        views.append((view, f"{label} ({len(chosen):,})"))
        for pair in chosen:
            member[pair.number].append(view)

    add("split", f"split under any {noun}", [pair for pair in pairs if pair.split_anywhere])
    for position, column in enumerate(columns):
        chosen = [pair for pair in pairs if not pair.verdicts[position].kept]
        add(f"split-{column.key}", f"split under {visible(column.label)}", chosen)
    add("kept", f"kept by every {noun}", [pair for pair in pairs if not pair.split_anywhere])
    tiers: dict[tuple[str, str], list[PairRow]] = {}
    for pair in pairs:
        tier = tier_of(annotations.get(pair.check.name))
        if tier is not None:
            tiers.setdefault(tier, []).append(pair)
    for number, ((field, value), chosen) in enumerate(sorted(tiers.items())):
        add(f"tier-{number}", f"scan {visible(field)} {visible(value)}", chosen)
    return views, member


def view_css(views: list[tuple[str, str]]) -> str:
    """One rule per view: while ``#view`` is the target, every pair not in it is hidden."""
    return "".join(f"\n#{view}:target ~ main .pair:not(.v-{view}) {{ display: none; }}" for view, _ in views)


# --- the overview --------------------------------------------------------------------------


# How much of each quote the pairs table shows: enough to judge a pair at a glance; its card has it whole.
EXCERPT_CHARS = 64
# The blockquote markers a line opens with (``> > text``): one ``>`` per level, each after optional indent.
QUOTE_MARKERS = re.compile(r"(?:[ \t]*>)+")


def quote_depth(text: str, offset: int) -> int:
    """How many blockquote markers open the line ``offset`` lies on: ``quote_depth("a\\n> > b", 6)`` -> ``2``."""
    line_start = text.rfind("\n", 0, offset) + 1
    markers = QUOTE_MARKERS.match(text, line_start)
    return 0 if markers is None else markers.group().count(">")


def excerpt(text: str, start: int, end: int) -> str:
    """The start of the quote ``text[start:end]`` as one line of prose, made visible (``visible``), ``…`` if cut.

    A quote in a blockquote shows each later line without the markers its
    first line sits behind (``"passed\\n> to it"`` reads ``"passed to it"``), and
    a long one is cut after a word where one ends past half ``EXCERPT_CHARS``.
    ``excerpt("Never\\n  close it twice.", 0, 23)`` -> ``"Never close it twice."``.
    """
    quote = text[start:end]
    depth = quote_depth(text, start)
    if depth:
        quote = re.sub(rf"\n(?:[ \t]*>){{1,{depth}}}", "\n", quote)
    words = " ".join(quote.split())
    if len(words) > EXCERPT_CHARS:
        cut = words.rfind(" ", EXCERPT_CHARS // 2, EXCERPT_CHARS)
        words = words[: cut if cut > 0 else EXCERPT_CHARS - 1] + "…"
    return visible(words)


def breakable(markup: str) -> str:
    """Escaped text with a line break allowed after each ``/``, so a path wraps between its folders, not mid-name:
    ``breakable("docs/api")`` -> ``"docs/<wbr>api"`` (no entity holds a ``/``)."""
    return markup.replace("/", "/<wbr>")


def pairs_table(pairs: list[PairRow], columns: list[Column], pages: dict[str, int], annotations, member) -> str:
    """Every pair in one table: number, name (its card), the instruction's and the caveat's start, page, line, each
    column's verdict and window.

    Its columns have set widths (the ``.w-`` rules of the style sheet): the browser lays out a
    table of thousands of rows from its first, and the excerpts take the room
    the short columns leave, so a row stays two or three lines high.
    """
    fields = {tier[0] for pair in pairs if (tier := tier_of(annotations.get(pair.check.name))) is not None}
    header = ["#", "pair", "instruction", "caveat", "page", "lines", *(visible(column.label) for column in columns)]
    widths = ["number", "name", "quote", "quote", "page", "lines", *("verdict" for _ in columns)]
    if fields:
        header.append(f"scan {' or '.join(sorted(fields))}")
        widths.append("tier")
    rows = []
    for pair in pairs:
        classes = " ".join(["pair", *(f"v-{view}" for view in member[pair.number])])
        path = visible(pair.source["path"])
        check, text = pair.check, pair.source["text"]
        page_link = f'<a href="#page-{pages[check.source_id]}">{breakable(escaped(path))}</a>'
        cells = [
            f'<td data-key="{pair.number}">{pair.number}</td>',
            f'<td data-key="{escaped(visible(check.name))}">'
            f'<a href="#pair-{pair.number}">{breakable(escaped(visible(check.name)))}</a></td>',
            f"<td>{escaped(excerpt(text, check.instruction.start, check.instruction.end))}</td>",
            f"<td>{escaped(excerpt(text, check.qualifier.start, check.qualifier.end))}</td>",
            f'<td data-key="{escaped(path)}">{page_link}</td>',
            f'<td data-key="{pair.line}">{pair.line_range}</td>',
        ]
        for column, verdict in zip(columns, pair.verdicts):
            partial = " (partial)" if pair.check.source_id in column.unlocated else ""
            cells.append(
                f'<td class="st-{verdict.state}" data-key="{STATE_KEYS.get(verdict.state, "2")}">'
                f"{escaped(verdict_word(verdict))}{partial}"
                f"<br><small>{escaped(window_words(verdict.window, verdict.state))}</small></td>"
            )
        if fields:
            tier = tier_of(annotations.get(pair.check.name))
            value = "" if tier is None else visible(tier[1])
            cells.append(f'<td data-key="{escaped(value)}">{escaped(value)}</td>')
        rows.append(f'<tr class="{classes}">{"".join(cells)}</tr>')
    head = "".join(f"<th>{escaped(cell)}</th>" for cell in header)
    sizes = "".join(f'<col class="w-{width}">' for width in widths)
    return (
        f'<table class="pairs" id="pair-table"><colgroup>{sizes}</colgroup><thead><tr>{head}</tr></thead>'
        f"<tbody>\n{chr(10).join(rows)}\n</tbody></table>"
    )


def views_line(views: list[tuple[str, str]], total: int) -> str:
    """The links that narrow the table and the cards; each is a view of the style sheet."""
    links = [f'<a href="#pairs">all pairs ({total:,})</a>']
    links.extend(f'<a href="#{view}">{escaped(label)}</a>' for view, label in views)
    return f'<p class="views">Show: {" ".join(links)}</p>'


# --- the cards -------------------------------------------------------------------------------


def card(pair: PairRow, columns: list[Column], pages: dict[str, int], lines: LineMap, annotation, member) -> str:
    """One pair's card: its quotes, what scan said of it, then its lines under every column side by side."""
    check = pair.check
    classes = " ".join(["card", "pair", *(f"v-{view}" for view in member[pair.number])])
    page = pages[check.source_id]
    parts = [
        f'<section class="{classes}" id="pair-{pair.number}">',
        f"<h3>{pair.number}. {escaped(visible(check.name))}</h3>",
        f'<p class="note"><a href="#page-{page}">{escaped(visible(pair.source["path"]))}</a>, {pair.lines}'
        f' · <a href="#pairs">back to the pairs</a></p>',
        '<dl class="quotes">',
        f"<dt>instruction ⟦I› [{check.instruction.start}, {check.instruction.end})</dt>"
        f"<dd>{escaped(visible(check.instruction.quote))}</dd>",
        f"<dt>caveat ⟦Q› [{check.qualifier.start}, {check.qualifier.end})</dt>"
        f"<dd>{escaped(visible(check.qualifier.quote))}</dd>",
        "</dl>",
    ]
    if annotation:
        fields = " · ".join(
            f"{escaped(visible(str(name)))} {escaped(visible(str(value)))}" for name, value in annotation.items()
        )
        parts.append(f'<p class="note">scan: {fields}</p>')
    heads = []
    for column, verdict in zip(columns, pair.verdicts):
        named = "".join(
            f"<br>{escaped(boundary.kind)} at offset {boundary.offset} (line {boundary.line})"
            for boundary in verdict.boundaries
        )
        partial = (
            f"<br>partial: {counted(column.unlocated[check.source_id], 'chunk')} of this page not located"
            if check.source_id in column.unlocated
            else ""
        )
        heads.append(
            f'<th><b>{escaped(visible(column.label))}</b>: <span class="st-{verdict.state}">{verdict.state}</span>'
            f"<br><small>{escaped(verdict.sentence)}{named}<br>window: {escaped(window_words(verdict.window, verdict.state))}"
            f"{partial}</small></th>"
        )
    parts.append(
        f'<table class="lines"><thead><tr><th>line</th>{"".join(heads)}</tr></thead><tbody>\n'
        f"{card_lines(pair, columns, lines)}\n</tbody></table>"
    )
    parts.append("</section>")
    return "\n".join(parts)


# --- the pages -------------------------------------------------------------------------------


def page_summary(source: dict, columns: list[Column], pairs: list[PairRow]) -> str:
    """``"Title · docs/x.md · 3 pairs, 2 split · fixed-char 40 chunks, paragraph 12 chunks"``, escaped."""
    split = sum(pair.split_anywhere for pair in pairs)
    chunks = ", ".join(
        f"{visible(column.label)} {counted(len(column.source_chunks(source['source_id']).chunks), 'chunk')}"
        for column in columns
    )
    return (
        f"<b>{escaped(visible(source['title']))}</b> · <code>{escaped(visible(source['path']))}</code>"
        f" · {counted(len(pairs), 'pair')}, {split:,} split · {escaped(chunks)}"
    )


def page_section(source: dict, number: int, columns: list[Column], pairs: list[PairRow], newlines, check_count) -> str:
    """A page holding pairs: collapsed, its pairs' links, then its text once with a gutter per column."""
    links = ", ".join(f'<a href="#pair-{pair.number}">{pair.number}</a>' for pair in pairs)
    heads = "".join(f"<th>{escaped(visible(column.label))}</th>" for column in columns)
    return (
        f'<details class="page" id="page-{number}"><summary>{page_summary(source, columns, pairs)}</summary>'
        f'<p class="note">pairs on this page: {links}. A gutter per column: shaded by the chunk holding the line'
        " (blank outside every chunk), the orders of the chunks starting in it, ruled where one starts the line,"
        " red where a boundary splits a pair.</p>"
        f'<table class="text"><thead><tr><th>line</th>{heads}<th>text</th></tr></thead><tbody>\n'
        f"{page_text(source, pairs, columns, newlines, check_count)}\n</tbody></table></details>"
    )


def quiet_pages(sources: list[dict], columns: list[Column], pages: dict[str, int]) -> str:
    """Pages without pairs, one row each, collapsed: their chunk counts and how to see one."""
    if not sources:
        return ""
    header = "".join(f"<th>{escaped(visible(column.label))}</th>" for column in columns)
    rows = []
    for source in sources:
        counts = "".join(
            f'<td class="number">{len(column.source_chunks(source["source_id"]).chunks):,}</td>' for column in columns
        )
        rows.append(
            f'<tr id="page-{pages[source["source_id"]]}"><td><code>{escaped(visible(source["path"]))}</code></td>'
            f"<td>{escaped(visible(source['source_id']))}</td>{counts}</tr>"
        )
    return (
        f'<details class="page"><summary>{counted(len(sources), "page")} without pairs</summary>'
        '<p class="note">Their text is not laid out here; <code>run.py show --source ID</code> prints one page'
        " chunk by chunk.</p>"
        f"<table><thead><tr><th>page</th><th>source id</th>{header}</tr></thead><tbody>{''.join(rows)}</tbody>"
        "</table></details>"
    )


# --- the whole page ----------------------------------------------------------------------------


def docs_set_body(
    sources: tuple[dict, ...] | list[dict],
    checks: tuple,
    columns: list[Column],
    header: list[str],
    verdicts: list[str],
    annotations: Mapping | None = None,
    advance: Callable[[int, int], None] | None = None,
    noun: str = "policy",
) -> tuple[list[str], str]:
    """The report's body below its heading, and the style rules of its views (``noun`` names a column).

    ``advance(1, n)`` is called after each page of ``n`` source bytes is laid
    out (the progress line of the command that writes the report).
    """
    annotations = annotations or {}
    pairs = pair_rows(sources, checks, columns)
    pages = {source["source_id"]: number for number, source in enumerate(sources, start=1)}
    views, member = pair_views(pairs, columns, annotations, noun)
    by_source: dict[str, list[PairRow]] = {}
    for pair in pairs:
        by_source.setdefault(pair.check.source_id, []).append(pair)
    split = sum(pair.split_anywhere for pair in pairs)
    with_pairs = [source for source in sources if source["source_id"] in by_source]
    without = [source for source in sources if source["source_id"] not in by_source]
    body = [f'<span class="view" id="{view}"></span>' for view, _ in views]
    body += [
        "<header>",
        *header,
        '<nav class="toc" aria-label="contents"><a href="#verdicts">Verdicts</a>'
        f' <a href="#pairs">Pairs ({len(pairs):,})</a> <a href="#split">Split pairs only ({split:,})</a>'
        f' <a href="#cards">Cards</a> <a href="#pages">Pages ({len(sources):,})</a></nav>',
        "</header>",
        "<main>",
        '<section id="verdicts">',
        *verdicts,
        "</section>",
        '<section id="pairs"><h2>Pairs</h2>',
    ]
    if not pairs:
        body.append(
            '<p class="note">No span checks: declare some, or run <code>run.py scan --add-checks --manifest M</code> '
            "(M: the manifest this report was built from).</p>"
        )
    else:
        body += [
            views_line(views, len(pairs)),
            '<p class="legend">A pair\'s name opens its card, its page its text. Each column: kept (one chunk holds'
            " both spans), split (a chunk edge between them, named by kind) or apart (a span in no chunk), and the"
            " smallest window of neighbouring chunks that brings the caveat back.</p>",
            pairs_table(pairs, columns, pages, annotations, member),
        ]
    body += [
        "</section>",
        '<section id="cards"><h2>Cards</h2>',
        f'<p class="legend">{escaped(" · ".join(LEGEND_TERMS[:2]))}. Each card shows only the lines around its pair,'
        f" every {noun} side by side; a shaded run is one chunk, a red rule names each boundary between the spans,"
        " a dashed outline marks the chunks of the window that recovers the caveat.</p>",
    ]
    newlines = {}
    for pair in pairs:
        source_id = pair.check.source_id
        if source_id not in newlines:
            newlines[source_id] = chunk_index.newline_offsets(pair.source["text"])
        lines = LineMap(len(pair.source["text"]), newlines[source_id])
        body.append(card(pair, columns, pages, lines, annotations.get(pair.check.name), member))
    body += [
        "</section>",
        '<section id="pages"><h2>Pages</h2>',
        f'<p class="note">{counted(len(with_pairs), "page")} with pairs, each collapsed: open one for its text.</p>',
    ]
    for source in sources:
        pairs_here = by_source.get(source["source_id"])
        if pairs_here:
            lines = newlines[source["source_id"]]
            body.append(page_section(source, pages[source["source_id"]], columns, pairs_here, lines, len(checks)))
        if advance is not None:
            advance(1, len(source["text"].encode("utf-8")))
    body += [quiet_pages(without, columns, pages), "</section>", "</main>"]
    return body, view_css(views)


def verdict_section(result: dict, columns: list[Column], index_sizes: dict[str, int] | None = None) -> list[str]:
    """The verdict table per policy with the sizes built, and each policy's config."""
    configs = "".join(
        f"<li><b>{escaped(visible(column.label))}</b>: <code>{escaped(config_caption(column.config))}</code></li>"
        for column in columns
    )
    return [
        "<h2>Verdicts per policy</h2>",
        html_table(summary_rows(result, index_sizes)),
        f'<ul class="legend">{configs}</ul>',
    ]


def html_report(
    result: dict,
    checks: tuple,
    annotations: Mapping | None = None,
    advance: Callable[[int, int], None] | None = None,
    index_sizes: dict[str, int] | None = None,
    review: str | None = None,
) -> str:
    """The main job's report of ``result``: overview, a card per pair, pages on demand (see the module docstring).

    ``annotations`` maps a check's name to what ``scan`` said of it (rule,
    cue, confidence…), shown on its card, with a column and views by
    confidence tier when any has one. ``index_sizes`` (``summary.saved_index_sizes``)
    spares saving each index again for its size. ``review``, when given, is a
    line under the title saying how to act on what the page shows (scan's commands).
    """
    columns = policy_columns(result, checks)
    sources = result["indexes"][next(iter(result["indexes"]))]["documents"]
    header = ["<h1>Chunk boundary report</h1>", f'<p class="note">{escaped(result["fixture_scope"])}</p>']
    if review is not None:
        header.append(f'<p class="note">{escaped(visible(review))}</p>')
    verdicts = verdict_section(result, columns, index_sizes)
    body, css = docs_set_body(sources, checks, columns, header, verdicts, annotations, advance)
    return html_page("Chunk boundary report", css, body)


def context_block(judgement) -> list[str]:
    """The context figures' table (``context_windows``) as preformatted text, escaped; each pair's windows are in
    the pairs table, every pair's, so the text's first twenty and its pointer to ``--json`` are left out."""
    import judge

    text = judge.context_text(judgement.rows, judgement.complete, pair_lines=False)
    # Its table keeps its columns; a line longer than the page (the summary under it) wraps instead of widening it.
    return [f'<pre class="wrapped">{escaped(visible_lines(text))}</pre>']


def judge_html_report(
    sources: tuple[dict, ...],
    checks: tuple,
    judgement,
    section_of=None,
    annotations: Mapping | None = None,
    advance: Callable[[int, int], None] | None = None,
) -> str:
    """The ``judge --html`` page: the judge's table, then pairs, cards and pages with the judged chunks as a column.

    ``section_of`` (``judge.pair_sections``) bounds the judged chunks' windows
    by the pair's section, as ``judge`` measures them.
    """
    import judge

    policies = {"indexes": judgement.indexes}
    columns = policy_columns(policies, checks)
    columns.append(judged_column(judgement, checks, len(columns), section_of))
    growth = "".join(
        f"<li><b>{escaped(visible(column.label))}</b>: {escaped(growth_sentence(storage_growth(index)))}</li>"
        for column, index in zip(columns, judgement.indexes.values())
    )
    header = [
        f"<h1>{escaped(visible(judgement.name))} beside the lab's policies</h1>",
        f'<p class="note">judged chunks from <code>{escaped(visible(judgement.file))}</code></p>',
    ]
    verdicts = [
        "<h2>Verdicts per chunker</h2>",
        *(f'<p class="note">{escaped(line)}</p>' for line in judged_summary_lines(judgement)),
        html_table(judge.table_rows(judgement), judge.NUMERIC),
        f'<p class="legend">{escaped(judge.COVERAGE_NOTE)}</p>',
        f'<ul class="legend">{growth}</ul>',
        *context_block(judgement),
    ]
    body, css = docs_set_body(sources, checks, columns, header, verdicts, annotations, advance, noun="chunker")
    return html_page("Judged chunks beside the lab's policies", css, body)
