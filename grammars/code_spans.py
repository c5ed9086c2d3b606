"""Markdown code spans: which run of backticks closes which, for every reader that must not read code as text.

A run of backticks opens a code span closed by the next run of the same
length (CommonMark, section 6.1); an opening run with no such run after it is
literal text. ``html_blocks`` blanks code spans so a tag shown in code is not
read as one; the caveat scan masks them so a cue in code counts for nothing.
Each keeps its own limits (a line; a paragraph and masked fences), and both
start from the same runs.
"""

from __future__ import annotations

from typing import Callable

from grammars.records import LazyPattern

# A run of backticks, which opens or closes a code span. Spelled to open on the backtick itself, which ``re`` looks for
# quickly: a pattern that opens on a repeat (``\`+``) is tried at every place.
BACKTICKS = LazyPattern(r"``*")


def backtick_runs(text: str) -> tuple[list[tuple[int, int]], list[int | None]]:
    """Every backtick run ``[start, end)`` of ``text``, and for each the index of the next run of its length.

    ``backtick_runs("a ` b `` c ``")`` -> ``([(2, 3), (6, 8), (11, 13)], [None, 2, None])``.
    Linear: the runs are walked once from the end, remembering the latest run of each length,
    so a text of many unmatched runs costs no more than one of matched ones.
    """
    runs = [found.span() for found in BACKTICKS.finditer(text)]
    following: list[int | None] = [None] * len(runs)
    latest: dict[int, int] = {}
    for number in range(len(runs) - 1, -1, -1):
        length = runs[number][1] - runs[number][0]
        following[number] = latest.get(length)
        latest[length] = number
    return runs, following


def matched_spans(text: str, crossed: Callable[[int, int], bool] | None = None) -> list[tuple[int, int]]:
    """``[start, end)`` of every code span of ``text``: a run up to the next run of its length.

    An opening run with no such run after it is literal, and so is one whose span ``crossed`` refuses (a
    reader's own limit: a blank line, a masked fence); either way the search goes on from the next run.
    ``matched_spans("a ` b `` c ``")`` -> ``[(6, 13)]``. Linear (``backtick_runs``).
    """
    runs, following = backtick_runs(text)
    spans = []
    number = 0
    while number < len(runs):
        closing = following[number]
        if closing is None:
            number += 1
            continue
        start, end = runs[number][0], runs[closing][1]
        if crossed is not None and crossed(start, end):
            number += 1
            continue
        spans.append((start, end))
        number = closing + 1
    return spans
