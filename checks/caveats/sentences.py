"""Where a sentence of a block begins and ends, as the caveat scan reads it (``docs/caveats.md``).

Sentences never cross a block; inside one they end at ``.``, ``!`` or ``?``
followed by whitespace (not after an abbreviation or before a lower-case
word), at a blank line, a list item, a marker line and (scan_version 39) an
HTML block-level tag (``<p>``, ``<dt>``, ``<dd>``, ``<li>``, …). A table's
cells give their sentences as paragraphs do.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from grammars.blocks import LINK_DEFINITION_TEXT
from grammars.mdc import INLINE_LINE_TEXT as MDC_INLINE_LINE
from grammars.mdc import MARKER_LINE_TEXT as MDC_MARKER_LINE

# "e.g. the" is no sentence end.
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "cf", "vs", "etc", "a.k.a", "approx", "incl", "esp", "resp", "fig", "no", "vol"}
)


# Only from the start of a run of marks: tried from inside a long run, the pattern rescans its rest every time. (The
# mark before is looked for after the first mark, so the pattern opens on a class the engine looks for quickly.)
SENTENCE_END = re.compile(r"[.!?](?<![.!?][.!?])[.!?]*[\"'’”)\]*_]*(?=\s)")
# Line openings that start a new sentence (list items) or are markers, not prose.
# The spaces before the quote markers and after them are one run when there is no marker, never two that
# share it out (which backtracks quadratically on a long run of spaces).
LIST_ITEM = re.compile(r"\n[ \t]*(?:(?:>[ \t]?)+[ \t]*)?(?:[-*+]|\d{1,9}[.)])[ \t]+")
BLANK_LINE = re.compile(r"\n[ \t>]*\n")
# Header lines: admonitions (``!!! warning``), alerts (``> [!NOTE]`` alone on its line: text after the marker on the
# line, as some sites write a note, is read, scan_version 14), and the marker lines of
# ``/// note | Title`` blocks, ``:::tip`` containers and ``=== "Tab"`` content tabs, closing ones included;
# (scan_version 14) MDC's: a block component's ``::note`` or ``::`` and a line of inline components alone
# (``:read-more{to="/docs/x"}``), under every grammar, as "blocks-5" reads them (``grammars.mdc``).
# A content tab opens at the margin only, as grammars.CONTENT_TAB reads it.
# A DocFX directive alone on its line (scan_version 46), as Microsoft's docs write them: text pulled in from another
# file (``[!INCLUDE [experimental](../includes/experimental.md)]``), a code sample (``[!code-cpp[a](a.cpp)]``), a
# styled division (``> [!div class="checklist"]``), a video. It renders what it points at, not its own words.
# A name of any case (``[!Include …]``); an include or a code sample is a link inside the brackets, a division or a
# video holds no "]" of its own, so text after the directive on its line is never taken with it (scan_version 49).
DOCFX_DIRECTIVE_LINE = (
    r"(?:>[ \t]*)*\[!(?i:include|code(?:-[a-z0-9+#]+)?)[ \t]*\[[^\]\n]{0,1000}\]\([^)\n]{0,1000}\)\][ \t]*"
    r"|(?:>[ \t]*)*\[!(?i:div|video)[ \t][^\]\n]{0,1000}\][ \t]*"
)
HEADER_LINE = re.compile(
    r"(?:[ \t]*(?:(?:!!!|\?\?\?\+?)[ \t]*\w[^\n]*|>[ \t]*\[![A-Za-z]+\][ \t]*|/{3,}[^\n]*|:{3,}[^\n]*"
    rf"|{DOCFX_DIRECTIVE_LINE}"
    rf"|{MDC_MARKER_LINE}|{MDC_INLINE_LINE})"
    r'|===[!+]{0,2}[ \t]+"[^\n]*)(?:\n|$)'
)
# The marker lines of the containers "blocks-3" reads (``grammars.shortcodes``, ``grammars.html_blocks``): a line of
# Hugo shortcode markers alone, paired or self-closing (``{{< tabs >}}``, ``{{% /note %}}``, ``{{< figure src="a" >}}``),
# or of HTML or JSX tags and one-line comments alone (``<div>``, ``</TabItem>``, ``<Note type="info">``). Each marker
# ends at its first ``>}}``, ``%}}``, ``>`` or ``-->``, so a line of many is read once, without backtracking. An
# autolink (``<https://…>``) is text, not a tag.
# (A marker of over 1,000 characters is taken for text.)
# From scan_version 43 a Liquid tag too, as GitBook's and Jekyll's pages write them (``{% hint style="info" %}``,
# ``{% endtabs %}``, ``{% include "a.md" %}``): the "blocks-9" and "blocks-10" grammars read them as shortcodes
# (``grammars.version9``).
SHORTCODE_MARKER = r"(?:\{\{[<%](?:[^\n%>]|[%>](?!\}\})){0,1000}[%>]\}\}|\{%(?:[^\n%]|%(?!\})){0,1000}%\})"
TAG_MARKER = r"</?[A-Za-z][A-Za-z0-9.-]*(?=[\s/>])[^<>\n]{0,1000}>|<!--(?:[^\n-]|-(?!->)){0,1000}-->"
MARKUP_LINE = re.compile(rf"[ \t>]*(?:(?:{SHORTCODE_MARKER}|{TAG_MARKER})[ \t]*)+(?:\n|$)")
# A piece of a sentence that is markers alone ("Done. {{% /note %}}" leaves one after its sentence end).
MARKUP_PIECE = re.compile(rf"(?:(?:{SHORTCODE_MARKER}|{TAG_MARKER})\s*)+")
# A container's opening marker with its text after it on the line ("{{% warning %}} If …", "<Note>Mind it.").
OPENING_MARKUP = re.compile(rf"[ \t]*(?:{SHORTCODE_MARKER}|{TAG_MARKER})[ \t]*(?=\S)")
# The tags that open or close an HTML block-level element (scan_version 39): a paragraph, a term or a description of a
# ``<dl>``, a list item, a division, a table's parts. A browser starts a new block at each, so a sentence ends there,
# as at a blank line: Cargo's command pages write each option as ``<dt>…</dt><dd><p>…</p></dd>``, whose sentences ran
# from one paragraph into the next and from a term into its description. Lower case only, as HTML in Markdown is
# written: a capitalised name (``<Details>``, ``<Aside>``) is a JSX component, whose rendering the scan does not know.
BLOCK_TAG = re.compile(
    r"</?(?:address|article|aside|blockquote|caption|dd|details|dialog|div|dl|dt|fieldset|figcaption|figure|footer"
    r"|form|h[1-6]|header|hgroup|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)"
    r"(?=[\s/>])[^<>\n]{0,300}>"
)
# A link reference definition alone on its line (``[label]: url "title"``, scan_version 7): where a reference link
# points, rendered as nothing. A footnote's label (``[^1]:``) opens the footnote's text instead (``LEADING_MARKERS``).
LINK_DEFINITION = re.compile(r"[ \t>]*" + LINK_DEFINITION_TEXT + r"(?:\n|$)")
LINE_INDENT = re.compile(r"[ \t>]*")
# The characters a marker line opens with after its indent: a header's (``!!!``, ``???``, ``///``, ``:::``, ``===``),
# a shortcode's or a tag's (``{{<``, ``<div>``) and a link definition's (``[label]:``).
MARKER_OPENINGS = frozenset("!?/:={<[")
# A line break before a line that may be a marker line (``marker_line``): one whose indent holds a quote marker, or
# that opens with one of ``MARKER_OPENINGS`` after its indent.
MARKER_LINE_START = re.compile(r"\n(?=[ \t]*[>" + re.escape("".join(sorted(MARKER_OPENINGS))) + "])")
# What may come before a sentence's first word and is not part of it: space, quote, list and (scan_version 7)
# definition-list markers (``:   The value.``), a footnote's label (``[^1]: It fails.``) and HTML comments, which
# render as nothing (``<!-- md:default none --> This property must …``).
LEADING_MARKERS = re.compile(
    r"(?:\s+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+|:[ \t]+|\[\^[^\]\s]{1,100}\]:|<!--(?:[^\n-]|-(?!->)){0,1000}-->"
    # an alert's marker before its text on one line (``> [!NOTE] It runs once.``, scan_version 14), and webpack's
    # note markers (``W> It overwrites the file.``, scan_version 17)
    r"|\[![A-Za-z]+\][ \t]*|(?<![^\n])[WT?]>[ \t]+)*"
)


def sentence_spans(masked: str, start: int, end: int, fences: list[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The sentences of one block ``masked[start:end]``, trimmed, in order.

    A sentence ends after ``.``, ``!`` or ``?`` (and any closing quote or bracket)
    followed by whitespace, unless the word is an abbreviation (``e.g.``) or the
    next word starts in lower case; a blank line, a list item and a marker line
    (an admonition, alert, ``///`` block, ``:::`` container or content tab
    header, see ``HEADER_LINE``, a line of shortcode markers or HTML or JSX
    tags alone, see ``MARKUP_LINE``, or a link reference definition, see
    ``LINK_DEFINITION``) also end one, and a marker line is no sentence itself,
    nor part of one; so does an HTML block-level tag (``BLOCK_TAG``), which is
    part of no sentence either.
    Masked code never ends a sentence and a block of masked code yields none.
    ``sentence_spans("Call f(). It fails.\\n", 0, 20)`` -> ``[(0, 9), (10, 19)]``.
    """
    cuts = {start, end}
    # A fence inside the block (the lesson grammar does not know fences) is cut out whole.
    # Only the fences that reach into the block are looked at, so a page of many fences stays linear.
    position = max(bisect_right(fences, (start, start)) - 1, 0)
    while position < len(fences) and fences[position][0] < end:
        cuts.update(edge for edge in fences[position] if start < edge < end)
        position += 1
    # Header lines are tried at line starts only: tried everywhere, a long run of spaces is rescanned
    # from each of its characters. Past the first line, only the lines a marker line can open are tried
    # (``MARKER_LINE_START``).
    headers = []
    first_line = marker_line(masked, start, end)
    if first_line is not None:
        headers.append(first_line.span())
    for newline in MARKER_LINE_START.finditer(masked, start, end):
        match = marker_line(masked, newline.end(), end)
        if match is not None:
            headers.append(match.span())
    for header_start, header_end in headers:
        cuts.update((header_start, header_end))
    for pattern in (LIST_ITEM, BLANK_LINE):
        cuts.update(match.start() + 1 for match in pattern.finditer(masked, start, end))
    for match in BLOCK_TAG.finditer(masked, start, end):
        cuts.update(match.span())
    for match in SENTENCE_END.finditer(masked, start, end):
        if is_sentence_end(masked, match.start(), match.end(), end):
            cuts.add(match.end())
    points = sorted(cuts)
    spans = []
    if not headers:
        # (Most blocks hold no marker line: every piece is read.)
        for piece_start, piece_end in zip(points, points[1:]):
            trimmed = trimmed_span(masked, piece_start, piece_end)
            if trimmed is not None:
                spans.append(trimmed)
        return spans
    # Headers and pieces are both in text order and every header edge is a cut, so one
    # pointer tells whether a piece lies inside a header (one pass, not pieces x headers).
    header = 0
    for piece_start, piece_end in zip(points, points[1:]):
        while header < len(headers) and headers[header][1] <= piece_start:
            header += 1
        if header < len(headers) and headers[header][0] <= piece_start and piece_end <= headers[header][1]:
            continue
        trimmed = trimmed_span(masked, piece_start, piece_end)
        if trimmed is not None:
            spans.append(trimmed)
    return spans


# HTML that ends a cell, a row or a line inside a table's cell (``<td>``, ``</tr>``, ``<br>``, ``<small>``): a table
# nested in a cell, or a cell's note set in small print, is read cell by cell, note by note.
CELL_TAG = re.compile(
    r"</?(?:table|thead|tbody|tr|td|th|br|p|li|ul|ol|details|summary|small)\b[^<>\n]{0,300}>", re.IGNORECASE
)


def table_cell_spans(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """The sentences of each cell of a table block, row by row: table cells are read as prose.

    A row's cells are split at ``|`` (a ``|`` inside code is masked, so it splits nothing), an HTML cell,
    row or line tag inside a cell ends a piece too (``CELL_TAG``), and each piece gives its sentences as a
    paragraph does; the ``|---|`` rule and cells without a letter give none.
    ``table_cell_spans("| a | Do it. Not twice. |\n", 0, 23)`` -> ``[(2, 3), (6, 12), (13, 23)]``.
    """
    spans = []
    line_start = start
    while line_start < end:
        newline = masked.find("\n", line_start, end)
        line_end = end if newline == -1 else newline
        cuts = [line_start, line_end]
        cuts.extend(position for position in range(line_start, line_end) if masked[position] == "|")
        for match in CELL_TAG.finditer(masked, line_start, line_end):
            cuts.extend(match.span())
        cuts.sort()
        for piece_start, piece_end in zip(cuts, cuts[1:]):
            if masked[piece_start] == "|" or CELL_TAG.match(masked, piece_start, piece_end):
                piece_start = (
                    masked.find(">", piece_start, piece_end) + 1 if masked[piece_start] == "<" else piece_start + 1
                )
            if piece_start < piece_end:
                spans.extend(sentence_spans(masked, piece_start, piece_end))
        line_start = line_end + 1
    return spans


def is_sentence_end(masked: str, mark_start: int, mark_end: int, limit: int) -> bool:
    """Whether the punctuation at ``[mark_start, mark_end)`` ends a sentence (see ``sentence_spans``)."""
    word_start = mark_start
    while word_start > 0 and (masked[word_start - 1].isalnum() or masked[word_start - 1] == "."):
        word_start -= 1
    if masked[word_start:mark_start].lower() in ABBREVIATIONS and masked[mark_start] == ".":
        return False
    following = mark_end
    while following < limit and masked[following].isspace():
        following += 1
    if following >= limit or not masked[following].islower():
        return True
    # A lower-case word after the mark ends the sentence too ("… are ignored. uv resolves …"), unless the
    # mark follows a number, a single letter or a dotted abbreviation ("version 2. it", "U.S. law").
    word = masked[word_start:mark_start]
    return len(word) > 1 and not word.replace(".", "").isdigit() and "." not in word


def marker_line(masked: str, line_start: int, end: int) -> re.Match | None:
    """The marker line that starts at ``line_start`` (before ``end``), newline included, else ``None``.

    A header (``HEADER_LINE``), a line of shortcode markers or tags alone (``MARKUP_LINE``) or a link reference
    definition (``LINK_DEFINITION``):
    ``marker_line("{{% note %}}\\nMind it.\\n", 0, 22).end()`` -> ``13``.
    """
    first = LINE_INDENT.match(masked, line_start, end).end()
    if first >= end or (masked[first] not in MARKER_OPENINGS and ">" not in masked[line_start:first]):
        # Past its indent (no quote marker in it), a marker line opens with one of MARKER_OPENINGS.
        return None
    match = HEADER_LINE.match(masked, line_start, end)
    if match is None:
        opening = masked[first : first + 1]
        if opening in ("{", "<"):
            match = MARKUP_LINE.match(masked, line_start, end)
        elif opening == "[":
            match = LINK_DEFINITION.match(masked, line_start, end)
    return match


def after_opening_marker(masked: str, start: int, end: int) -> int:
    """Where a container's text starts: after the shortcode marker or tag opening its first line, if text follows.

    ``after_opening_marker("{{% note %}} Mind it.", 0, 21)`` -> ``13``; a line of the marker alone is a
    marker line (``marker_line``), and a block not opening with one starts at ``start``.
    """
    match = OPENING_MARKUP.match(masked, start, end)
    return start if match is None else match.end()


def trimmed_span(masked: str, start: int, end: int) -> tuple[int, int] | None:
    """``[start, end)`` without surrounding whitespace or list and quote markers; ``None`` if no prose is left.

    A piece of shortcode markers or tags alone (``{{% /note %}}`` after the sentence it closes) holds no prose.
    """
    start = LEADING_MARKERS.match(masked, start, end).end()
    piece = masked[start:end].rstrip()
    end = start + len(piece)
    if not piece or not any(map(str.isalpha, piece)):
        return None
    if piece[0] in "{<" and MARKUP_PIECE.fullmatch(piece):
        return None
    return start, end


def normalized_text(text: str, start: int, end: int) -> str:
    """``text[start:end]`` with every run of whitespace one space: ``"Call\\n  f()."`` -> ``"Call f()."``."""
    return " ".join(text[start:end].split())
