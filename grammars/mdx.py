"""MDX under "blocks-3" (``SPEC.md``, "The block grammar, version 3", rule F): ESM lines and flow expressions.

MDX pages (Docusaurus, Next.js) hold JavaScript among their Markdown: ``import``
and ``export`` statements at the start of a line, and ``{`` ... ``}`` expressions.
Each is an opaque block (nothing inside is read as Markdown); JSX elements are
read as HTML elements are (``html_blocks``). The rest of the page is Markdown.
"""

from __future__ import annotations

from grammars.blocks import space_indent
from grammars.html_blocks import blank_line_end
from grammars.records import LazyPattern

# An ESM statement: "import" or "export" at column 0, then a space, a tab, "{", "*" or the end of the line.
ESM_LINE = LazyPattern(r"(?:import|export)(?=[ \t{*]|$)")


def is_esm_line(line: str) -> bool:
    """Whether ``line`` opens an ESM block: ``"import {Note} from './note.jsx'"`` -> ``True``, ``"important"`` -> ``False``."""
    return ESM_LINE.match(line) is not None


def esm_end(texts: list[str], index: int) -> int:
    """The index after an ESM block opened at ``texts[index]``: it runs to the next blank line, as MDX reads it."""
    return blank_line_end(texts, index)


def opens_expression(line: str) -> bool:
    """Whether ``line`` may open a flow expression: indent at most 3, then ``{`` but not ``{{`` (a template or shortcode)."""
    indent, rest = space_indent(line)
    return indent <= 3 and rest.startswith("{") and not rest.startswith("{{")


def expression_ends(texts: list[str]) -> list[int | None]:
    """For each line, the index of the line where an expression opened on it would close; ``None`` if it never does.

    Braces are counted line by line (strings and comments are not read): an
    expression opened on line ``i`` closes on the first line ``j >= i`` after
    which the count is back to where it was before line ``i``. One pass from the
    end with a stack of later counts (the next count at or below each) finds every
    line's answer in linear time.
    ``expression_ends(["{", "  a: 1,", "}", "x"])`` -> ``[2, 1, 2, 3]``
    (a line of no braces "closes" on itself; callers ask only at a ``{``).
    """
    counts = [0]
    for text in texts:
        counts.append(counts[-1] + text.count("{") - text.count("}"))
    ends: list[int | None] = [None] * len(texts)
    later: list[int] = []
    for position in range(len(counts) - 1, -1, -1):
        while later and counts[later[-1]] > counts[position]:
            later.pop()
        if position < len(texts) and later:
            ends[position] = later[-1] - 1
        later.append(position)
    return ends
