"""MDX under "blocks-3" (``SPEC.md``, "The block grammar, version 3", rule F): ESM lines and flow expressions; and
under "blocks-8" (rule T) the expressions that are an element's whole content.

MDX pages (Docusaurus, Next.js) hold JavaScript among their Markdown: ``import``
and ``export`` statements at the start of a line, and ``{`` ... ``}`` expressions.
Each is an opaque block (nothing inside is read as Markdown); JSX elements are
read as HTML elements are (``html_blocks``). The rest of the page is Markdown.
"""

from __future__ import annotations

from grammars.blocks import space_indent
from grammars.html_blocks import MARKUP_TAG, blank_line_end
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


def brace_pairs(text: str) -> dict[int, int]:
    """For each ``{`` of ``text`` that a later ``}`` closes, that ``}``'s offset, braces counted as rule F counts them
    (strings and comments are not read): one pass with a stack. ``brace_pairs("{a{b}}{")`` -> ``{2: 4, 0: 5}``."""
    pairs: dict[int, int] = {}
    waiting: list[int] = []
    for position, character in enumerate(text):
        if character == "{":
            waiting.append(position)
        elif character == "}" and waiting:
            pairs[waiting.pop()] = position
    return pairs


def without_element_expressions(text: str) -> str:
    """``text`` without each run of ``{…}`` expressions that is the content of an element: after a tag's ``>`` and
    before a closing tag's ``</``, with only whitespace (newlines too) beside and between them.

    ``without_element_expressions('<CodeBlock language="ts">{Source}</CodeBlock>')`` ->
    ``'<CodeBlock language="ts"></CodeBlock>'``; ``"<code>{a} {b}</code>."`` -> ``"<code></code>."``; ``"is {a}</p>"``
    (text before it) and ``"<p>{a} b</p>"`` (after it) unchanged. A tag is one as a block of markup alone holds them
    (``html_blocks.MARKUP_TAG``); each tag and each brace is looked at once, so the work is linear in the text.
    """
    if "{" not in text or "<" not in text:
        return text
    tag_ends = set()
    closing_starts = set()
    for tag in MARKUP_TAG.finditer(text):
        tag_ends.add(tag.end())
        if text.startswith("</", tag.start()):
            closing_starts.add(tag.start())
    braces = brace_pairs(text)
    pieces = []
    position = 0
    for opening in sorted(braces):
        if opening < position or before_whitespace(text, opening) not in tag_ends:
            continue
        end = braces[opening] + 1
        following = after_whitespace(text, end)
        while following in braces:
            end = braces[following] + 1
            following = after_whitespace(text, end)
        if following in closing_starts:
            pieces.append(text[position:opening])
            position = end
    if not pieces:
        return text
    pieces.append(text[position:])
    return "".join(pieces)


def before_whitespace(text: str, position: int) -> int:
    """The offset where the whitespace right before ``position`` starts (``position`` itself when there is none)."""
    while position > 0 and text[position - 1] in " \t\n":
        position -= 1
    return position


def after_whitespace(text: str, position: int) -> int:
    """The offset of the first character from ``position`` on that is not whitespace (or ``len(text)``)."""
    while position < len(text) and text[position] in " \t\n":
        position += 1
    return position
