"""HTML blocks and elements under "blocks-3" (``SPEC.md``, "The block grammar, version 3", rule E).

Where an HTML block starts and ends is CommonMark's (its seven start
conditions, section 4.6); on top of that, an element whose matching closing
tag follows later in the page is kept whole, from its opening line through the
line of its closing tag, so ``<div>``, blank lines, Markdown and ``</div>`` are
one block. An HTML block holding nothing but tags and comments holds no text to
retrieve and belongs to no block, as a thematic break does: no chunk is a lone
``</div>``.

Element pairs are matched once per page (``element_pairs``): one pass over the
lines, a stack per tag name, code fences, code spans and comments not read.
"""

from __future__ import annotations

import re

from grammars.blocks import closes_fence, fence_opening, leading_columns, space_indent
from grammars.code_spans import matched_spans
from grammars.records import LazyPattern

# CommonMark's condition 1: raw text elements, ended by a line holding any of their closing tags.
RAW_START = LazyPattern(r"<(pre|script|style|textarea)(?=[ \t>]|$)", re.IGNORECASE)
RAW_END = LazyPattern(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)
RAW_TAGS = frozenset({"pre", "script", "style", "textarea"})
# Condition 4: a declaration such as <!DOCTYPE html> (conditions 2, 3 and 5 open with fixed text).
DECLARATION = LazyPattern(r"<![A-Za-z]")
# Condition 6: CommonMark's block-level tag names (0.31.2), opening or closing, then a space, a tab, ">", "/>" or the end.
BLOCK_TAGS = frozenset(
    "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl "
    "dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend "
    "li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td "
    "tfoot th thead title tr track ul".split()
)
TAG_START = LazyPattern(r"</?([A-Za-z][A-Za-z0-9-]*)(?=[ \t>]|/>|$)")
# Condition 7: one complete open or closing tag, then only spaces and tabs.
_ATTRIBUTE = r"""[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`]+|'[^']*'|"[^"]*"))?"""
COMPLETE_TAG = LazyPattern(
    rf"(?:<([A-Za-z][A-Za-z0-9-]*)(?:{_ATTRIBUTE})*[ \t]*/?>|</([A-Za-z][A-Za-z0-9-]*)[ \t]*>)[ \t]*"
)
# Elements without content: they never wait for a closing tag.
VOID_TAGS = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# Any tag, as element pairing reads them (JSX names too: <Tabs>, <motion.div>).
ANY_TAG = LazyPattern(r"<(/?)([A-Za-z][A-Za-z0-9.:-]*)")
# A tag as a block of only markup holds them (a tag holds no "<", so each try stops at the next one).
MARKUP_TAG = LazyPattern(r"</?[A-Za-z][^<>]*>")
# A tag's start that no ">" closes on its line: it may close on a later one (``lines_hold_only_markup``).
OPEN_TAG_TAIL = LazyPattern(r"</?[A-Za-z]")


def html_start(line: str) -> tuple[int, str] | None:
    """The CommonMark start condition (1 to 7) ``line`` opens an HTML block with, and its tag name; else ``None``.

    ``html_start("<div class='x'>")`` -> ``(6, "div")``; ``html_start("<!-- note -->")`` ->
    ``(2, "comment")``; ``html_start("<span>")`` -> ``(7, "span")``; ``"<span>text"`` -> ``None``.
    """
    indent, rest = space_indent(line)
    if indent > 3 or not rest.startswith("<"):
        return None
    raw = RAW_START.match(rest)
    if raw is not None:
        return 1, raw.group(1).lower()
    if rest.startswith("<!--"):
        return 2, "comment"
    if rest.startswith("<?"):
        return 3, ""
    if rest.startswith("<![CDATA["):
        return 5, ""
    if DECLARATION.match(rest):
        return 4, ""
    tag = TAG_START.match(rest)
    if tag is not None and tag.group(1).lower() in BLOCK_TAGS:
        return 6, tag.group(1).lower()
    complete = COMPLETE_TAG.fullmatch(rest)
    if complete is not None:
        name = (complete.group(1) or complete.group(2)).lower()
        if name not in RAW_TAGS:
            return 7, name
    return None


def opens_alone(line: str) -> bool:
    """Whether ``line`` is one opening tag and nothing after its ``>``: ``'<Tabs groupId={id}>'`` -> ``True``."""
    close = line.find(">")
    return close != -1 and not line[close + 1 :].strip()


def end_marker(condition: int) -> str | None:
    """The text whose line ends a block of ``condition`` 2 to 5 (``"-->"`` for a comment); ``None`` for the others."""
    if condition == 2:
        return "-->"
    if condition == 3:
        return "?>"
    if condition == 4:
        return ">"
    if condition == 5:
        return "]]>"
    return None


def markup_end(texts: list[str], index: int, condition: int) -> int:
    """The index after the line that ends a block of condition 1 to 5 opened at ``texts[index]``; the page's end if none.

    The opening line itself may end it (``<!-- one line -->``).
    """
    marker = end_marker(condition)
    for position in range(index, len(texts)):
        text = texts[position]
        if (RAW_END.search(text) is not None) if condition == 1 else (marker in text):
            return position + 1
    return len(texts)


def blank_line_end(texts: list[str], index: int) -> int:
    """The index of the first blank line after ``texts[index]`` (conditions 6 and 7 end there), or the page's end."""
    position = index + 1
    while position < len(texts) and texts[position].strip():
        position += 1
    return position


def comment_spans(text: str):
    """Each ``<!-- ... -->`` comment of ``text`` as ``(start, stop)``, an unclosed one running to the end; one ``find`` each."""
    position = 0
    while True:
        start = text.find("<!--", position)
        if start == -1:
            return
        end = text.find("-->", start + 4)
        position = len(text) if end == -1 else end + 3
        yield start, position


def without_comments(text: str) -> str:
    """``text`` without its comments: ``"a<!-- b -->c"`` -> ``"ac"``."""
    pieces = []
    position = 0
    for start, stop in comment_spans(text):
        pieces.append(text[position:start])
        position = stop
    pieces.append(text[position:])
    return "".join(pieces)


def blanked_comments(line: str) -> str:
    """``line`` with each comment blanked to spaces, offsets kept: ``"a<!--b-->c"`` -> ``"a        c"``."""
    pieces = []
    position = 0
    for start, stop in comment_spans(line):
        pieces.append(line[position:start])
        pieces.append(" " * (stop - start))
        position = stop
    pieces.append(line[position:])
    return "".join(pieces)


def holds_only_markup(text: str) -> bool:
    """Whether ``text`` is nothing but tags, comments and whitespace: ``"<p>\\n<img src='a.png'>\\n</p>\\n"`` -> ``True``."""
    return not MARKUP_TAG.sub("", without_comments(text)).strip()


def lines_hold_only_markup(texts: list[str], first: int, after: int) -> bool:
    """``holds_only_markup`` of the lines ``[first, after)`` joined, told from the first line alone when it decides.

    The first line, its comments taken out (one it leaves open runs on past it, as in the joined lines), holds text
    that no tag takes: if no tag it opens is left unclosed at its end, the joined lines hold that text too, and the
    rest is never joined. A page of many HTML blocks that each run on to one far blank line, cut short after it
    ("blocks-4": a heading after each element), reads each block's first line, not every line after it.
    """
    line = texts[first]
    if "<" not in line:
        if line.strip():
            return False
    else:
        rest = without_comments(line)
        tail = rest[rest.rfind(">") + 1 :]
        if OPEN_TAG_TAIL.search(tail) is None and MARKUP_TAG.sub("", rest).strip():
            return False
    return holds_only_markup("\n".join(texts[first:after]))


def without_code_spans(line: str) -> str:
    """``line`` with each code span blanked (same length), so a tag shown in code is not read as one.

    A run of backticks opens a span closed by the next run of the same length
    (CommonMark); an opening run with no such run after it is literal
    (``code_spans.matched_spans``, linear however many runs are unmatched).
    """
    if "`" not in line:
        return line
    pieces = []
    position = 0
    for start, end in matched_spans(line):
        pieces.append(line[position:start])
        pieces.append(" " * (end - start))
        position = end
    pieces.append(line[position:])
    return "".join(pieces)


def element_pairs(texts: list[str], fence_indents: bool = False) -> dict[int, int]:
    """For each line that opens with an element's opening tag, the index of the line holding its matching closing tag.

    Every tag of the page is read, line by line, outside code fences, code
    spans and comments. A fence opens at any indent (inside a list or a tab it
    is indented); under "blocks-3" a line closes it at any indent too, and with
    ``fence_indents`` ("blocks-4") only at most 3 columns deeper than the
    fence opened, so a fence shown inside a fence (``    ```` in a ```` ``` ````
    block) does not end it. A closing tag matches the latest open tag of its name
    (case aside), so same-named elements nest. Void elements and self-closing
    tags (``<br>``, ``<img/>``) wait for nothing; an opening tag whose ``>`` is
    not on its line is not read. Only an opening tag at the start of its line
    (indent at most 3) is recorded, the others are still counted.
    ``element_pairs(["<div>", "", "text", "", "</div>"])`` -> ``{0: 4}``.
    """
    pairs: dict[int, int] = {}
    open_lines: dict[str, list[int | None]] = {}
    fence = None
    fence_indent = 0
    in_comment = False
    for index, text in enumerate(texts):
        if fence is not None:
            # A line without the fence's character cannot close it: most of a fence's body is passed on one check.
            if fence[0] not in text:
                continue
            content = text.lstrip(" \t")
            if closes_fence(content, *fence) and (
                not fence_indents or leading_columns(text[: len(text) - len(content)]) <= fence_indent + 3
            ):
                fence = None
            continue
        if in_comment:
            end = text.find("-->")
            if end == -1:
                continue
            # Blanked, not cut: a tag after the comment keeps its place on the line.
            text = " " * (end + 3) + text[end + 3 :]
            in_comment = False
        elif ("`" in text or "~" in text) and fence_opening(text.lstrip(" \t")) is not None:
            # Only a line holding a backtick or a tilde can open a fence: the others are told apart on two checks.
            fence = fence_opening(text.lstrip(" \t"))
            fence_indent = leading_columns(text[: len(text) - len(text.lstrip(" \t"))])
            continue
        if "<" not in text:
            continue
        text = without_code_spans(text)
        unclosed = text.rfind("<!--")
        if unclosed != -1 and text.find("-->", unclosed + 4) == -1:
            in_comment = True
        text = blanked_comments(text)
        indent = len(text) - len(text.lstrip(" "))
        # The next ">" after a tag's name, found once and reused while it lies ahead: linear on any line.
        next_close = -1
        for tag in ANY_TAG.finditer(text):
            name = tag.group(2).lower()
            if name in VOID_TAGS:
                continue
            if tag.group(1):
                waiting = open_lines.get(name)
                if waiting:
                    opened = waiting.pop()
                    if opened is not None:
                        pairs[opened] = index
                continue
            if next_close != len(text) and next_close < tag.end():
                found = text.find(">", tag.end())
                next_close = len(text) if found == -1 else found
            close = next_close
            if close == len(text) or text[close - 1] == "/":
                continue
            at_start = tag.start() == indent and indent <= 3
            open_lines.setdefault(name, []).append(index if at_start else None)
    return pairs
