"""The lesson's grammar (``SPEC.md``, "Sections" and "Paragraphs"): simple ATX headings and paragraphs.

Deliberately tiny, so every offset can be checked by hand: a ``#{1,6} `` heading
at offset 0, every such line a heading, and paragraphs as runs of non-blank
lines. What it refuses says what the page holds instead and which grammar reads it.
"""

from __future__ import annotations

import re

from grammars.blocks import SETEXT_UNDERLINE
from grammars.records import LazyPattern, Section
from lab_io.errors import IngestionError, quoted

HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
# A paragraph: a line with a non-space character, then every such line that
# follows it, up to and including the last one's "\n". ``\s`` and ``\S`` split
# characters exactly as ``str.strip()`` does, so a line is blank under both alike.
PARAGRAPH = re.compile(r"^[^\S\n]*\S.*(?:\n[^\S\n]*\S.*)*\n?", re.MULTILINE)
NON_BLANK = re.compile(r"\S")


def heading_matches(text: str) -> list[re.Match]:
    """Every ``HEADING`` match in ``text``, as ``HEADING.finditer(text)`` finds them.

    A heading starts a line with ``#``, so only those lines are tried:
    ``str.find`` skips the rest in C, where ``finditer`` would try the pattern
    at every character. (``^`` matches at a position just after a ``\\n``.)
    """
    matches = []
    line_start = 0
    while line_start != -1:
        if text.startswith("#", line_start):
            match = HEADING.match(text, line_start)
            if match is not None:
                matches.append(match)
        line_start = text.find("\n#", line_start)
        if line_start != -1:
            line_start += 1
    return matches


# What the lesson grammar's refusal names, and the grammar that takes such a file: the newest block grammar.
BLOCKS_HINT = "use the blocks-10 grammar (pin --markdown blocks-10)"
# What a first line that is not a heading most likely is, for the refusal; anything else is "text".
OPENING_KINDS = (
    (LazyPattern(r" {0,3}(!!!|\?\?\?|///|:::)"), "an admonition"),
    (LazyPattern(r"===[!+]{0,2} "), "a content tab"),
    (LazyPattern(r" {0,3}(```|~~~)"), "a code fence"),
    (LazyPattern(r" {0,3}>"), "a blockquote"),
    (LazyPattern(r" {0,3}([-*+]|[0-9]{1,9}[.)])( |$)"), "a list item"),
    (LazyPattern(r" {0,3}\|"), "a table row"),
    (LazyPattern(r" {0,3}<"), "HTML"),
)


def first_line(text: str) -> str:
    """The text's first line without its ``\n``: ``first_line("a\nb")`` -> ``"a"``."""
    return text.split("\n", 1)[0]


def lesson_opening_problem(text: str) -> str:
    """Why ``text`` does not open with a lesson heading: what was found at its start, and what to do.

    ``lesson_opening_problem("---\ntitle: A\n---\n")`` ->
    ``'found "---" front matter at line 1; use the blocks-10 grammar (pin --markdown blocks-10)'``.
    The lesson rule itself is unchanged: a ``#{1,6} `` heading at offset 0.
    """
    rule = "the lesson grammar needs a '# ' heading at offset 0"
    if text.startswith("\ufeff"):
        return f"found a UTF-8 byte order mark at offset 0; {rule}; {BLOCKS_HINT}"
    line = first_line(text)
    if line.rstrip() in ("---", "+++"):
        return f"found {quoted(line.rstrip())} front matter at line 1; {BLOCKS_HINT}"
    if not line.strip():
        return f"found a blank line at line 1; {rule}; {BLOCKS_HINT}"
    lines = text.split("\n", 2)
    if len(lines) > 1 and lines[1].strip() and SETEXT_UNDERLINE.fullmatch(lines[1]):
        return (
            f"found a setext heading {quoted(line, 40)} underlined with {quoted(lines[1].strip()[:3])} at line 1; "
            f"{rule}; {BLOCKS_HINT}"
        )
    if line.lstrip(" ").startswith("#"):
        return (
            f"found {quoted(line, 40)} at line 1, not a '# ' heading (one to six #, one space, a title); {BLOCKS_HINT}"
        )
    kind = next((name for pattern, name in OPENING_KINDS if pattern.match(line)), "text")
    return f"found {kind} {quoted(line, 40)} at line 1, not a '# ' heading; {BLOCKS_HINT}"


def heading_sections(text: str, where: str = "text") -> list[Section]:
    """The sections of ``text`` whose body is not blank, in offset order.

    ``"# A\\n\\n## B\\nbody\\n"`` -> one section, ``B``, body ``[10, 15)``
    (``A``'s body is blank and skipped). A text must open with a heading.
    """
    headings = heading_matches(text)
    if not headings or headings[0].start() != 0:
        raise IngestionError("heading_required", where, lesson_opening_problem(text))
    sections = []
    for index, heading in enumerate(headings):
        body_start = min(heading.end() + 1, len(text))
        body_end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        if NON_BLANK.search(text, body_start, body_end):
            sections.append(Section(heading.start(), heading.group(1), body_start, body_end))
    return sections


def paragraph_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Maximal runs of non-blank lines in ``text[start:end]``, each with its last ``\\n``.

    ``paragraph_spans("\\nab\\ncd\\n\\nef\\n", 0, 11)`` -> ``[(1, 7), (8, 11)]``.
    ``start`` is a line start (``0`` or just after a ``\\n``), as every section body's is.
    """
    return [match.span() for match in PARAGRAPH.finditer(text, start, end)]
