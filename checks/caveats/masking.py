"""Code is never prose: the fences and code spans the caveat scan masks before reading a sentence.

A fence at any indentation and a code span are replaced by NUL characters of
the same length (``MASK``), so a cue, a sentence end or a call inside code
counts for nothing, and every offset stays an offset into the source text.
"""

from __future__ import annotations

import re
from bisect import bisect_right

import grammars
from grammars.code_spans import matched_spans

FENCE_LINE = re.compile(r"^([ \t]*)(`{3,}|~{3,})", re.MULTILINE)
# A fence line after the first line: ``FENCE_LINE`` after its line break, which the engine looks for quickly (a
# pattern opening on ``^`` is tried at every place).
LATER_FENCE_LINE = re.compile(r"\n([ \t]*)(`{3,}|~{3,})")


MASK = "\x00"
BLANK_LINE = re.compile(r"\n[ \t]*\n")
# A run of masked characters, opening on the character itself, which ``re`` looks for quickly: a pattern that opens on a
# repeat (``MASK + "+"``) is tried at every place.
MASKED_RUN = re.compile(MASK + MASK + "*")


def fence_spans(text: str, sections=()) -> list[tuple[int, int]]:
    """``[start, end)`` of every fenced code block, whatever its indentation.

    A fence opens at a line of three or more backticks or tildes after any
    indentation (a backtick fence's info string holds no backtick) and closes at
    the next line of the same character, at least as many, and nothing else,
    indented no deeper than the opening line (or up to three spaces, as Markdown
    allows). A fence indented under a content tab or a list item is code as much
    as one at the margin, so it is masked the same way. An unclosed fence runs
    to the end of the block of ``sections`` that encloses its opening line (any
    block but a paragraph, whose lines a blank line inside the code would cut),
    else to the end of the text, as Markdown renders it.

    An opening indented four columns or more outside any such block (a content
    tab the grammar reads as paragraphs, or a literal fence line in indented
    code) is provisional: it is code only once a line indented four columns or
    more closes it. A fence line nearer the margin, or the end of the text,
    drops it, so one stray indented marker never hides the rest of a page.
    ``"a\n```\nx\n```\nb\n"`` -> ``[(2, 12)]``;
    ``"=== \"T\"\n    ```\n    x\n    ```\n"`` -> ``[(8, 30)]``.
    """
    enclosing = sorted(
        (block.start, block.end)
        for section in sections
        for block in section.blocks
        if block.kind != "paragraph" and block.start < block.end
    )
    enclosing_starts = [start for start, _ in enclosing]
    spans = []
    # The fence open so far: where it starts, its character, run length and indentation, where it
    # must end, and whether it is provisional (see above).
    fence_start = None
    fence_character, fence_run, fence_indent, fence_limit, provisional = "", 0, 0, len(text), False
    for match in fence_lines(text):
        line_start = match.start(1)
        if fence_start is not None and line_start >= fence_limit:
            spans.append((fence_start, fence_limit))
            fence_start = None
        marker = match.group(2)
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end == -1 else line_end + 1
        rest = text[match.end() : line_end]
        indent = grammars.leading_columns(match.group(1))
        if fence_start is not None and provisional and indent <= 3:
            # A fence line nearer the margin: the indented opening was no fence after all.
            fence_start = None
        if fence_start is None:
            if marker[0] == "`" and "`" in rest:
                continue
            position = bisect_right(enclosing_starts, line_start) - 1
            inside = position >= 0 and enclosing[position][1] > line_start
            fence_start, fence_character, fence_run, fence_indent = line_start, marker[0], len(marker), indent
            fence_limit = enclosing[position][1] if inside else len(text)
            provisional = indent > 3 and not inside
        elif (
            marker[0] == fence_character
            and len(marker) >= fence_run
            and indent <= max(fence_indent, 3)
            and not rest.strip()
        ):
            spans.append((fence_start, min(line_end, fence_limit)))
            fence_start = None
    if fence_start is not None and not provisional:
        spans.append((fence_start, fence_limit))
    return spans


def fence_lines(text: str):
    """The fence lines of ``text`` in order, as ``FENCE_LINE.finditer`` finds them: each match's group 1 (the indent)
    starts its line, and groups 1 and 2 and its end are ``FENCE_LINE``'s."""
    first = FENCE_LINE.match(text)
    if first is not None:
        yield first
    yield from LATER_FENCE_LINE.finditer(text)


def code_span_spans(text: str) -> list[tuple[int, int]]:
    """Code spans as Markdown reads them: a backtick run up to the next run of the same length.

    An opening run with no closing one in its paragraph is literal text, and
    the search goes on from the next run: ``code_span_spans("a ` b `` c ``")``
    -> ``[(6, 13)]``. A span never crosses a blank line or a masked fence.
    Linear: each run's next run of the same length is found in one pass (``grammars.code_spans``).
    """
    barriers = code_span_barriers(text)

    def crossed(start: int, end: int) -> bool:
        barrier = bisect_right(barriers, start)
        return barrier < len(barriers) and barriers[barrier] < end

    return matched_spans(text, crossed)


def code_span_barriers(text: str) -> list[int]:
    """Where a code span may not reach, in order: the start of each blank line (``"\\n\\n"``) and of each run of
    masked fence (``MASK``).

    A masked fence is one barrier, at its first character: no span starts inside one (a span starts at a
    backtick), so a span crosses a fence exactly when the fence starts inside the span.
    """
    # Blank lines and masked runs are found apart, each by a pattern that opens on a literal (which the engine
    # looks for quickly, where an alternation is tried at every place), then merged: no blank line holds a NUL.
    return sorted(
        [match.start() for match in BLANK_LINE.finditer(text)] + [match.start() for match in MASKED_RUN.finditer(text)]
    )


def masked_code(text: str, fences: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every fence and code span replaced by NUL characters (same length), and the code spans.

    ``masked_code("a `b.c` d", [])`` -> ``("a \\0\\0\\0\\0\\0 d", [(2, 7)])``. The loader
    refuses NUL in a source, so a masked character can never be mistaken for text.
    """
    pieces = []
    position = 0
    for start, end in fences:
        pieces.append(text[position:start])
        pieces.append(MASK * (end - start))
        position = end
    pieces.append(text[position:])
    unfenced = "".join(pieces)
    code_spans = code_span_spans(unfenced)
    pieces = []
    position = 0
    for start, end in code_spans:
        pieces.append(unfenced[position:start])
        pieces.append(MASK * (end - start))
        position = end
    pieces.append(unfenced[position:])
    return "".join(pieces), code_spans
