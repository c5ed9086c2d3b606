"""Where a source's text splits into sections and paragraphs: the Markdown grammar.

The lesson's grammar (``SPEC.md``, "Sections" and "Paragraphs") is deliberately
tiny: simple ATX headings only, and paragraphs as runs of non-blank lines. The
policies in ``chunk_index`` cut chunks from what this module finds; nothing
here knows about configs, ids or hashes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errors import IngestionError, quoted

HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)


# The grammars a manifest can choose ("markdown": ...); "lesson" is the spec's own.
GRAMMARS = ("lesson",)
LESSON_GRAMMAR = "lesson"


@dataclass(frozen=True)
class Block:
    """One unit the paragraph and heading-aware policies never cut: ``[start, end)`` in the text.

    ``kind`` is ``"paragraph"`` under the lesson grammar. ``label`` says more
    where the kind has more to say (an admonition's type, say); else ``""``.
    """

    kind: str
    start: int
    end: int
    label: str = ""


@dataclass(frozen=True)
class Section:
    """A heading and the body that follows it, as offsets into the text, with the body's blocks."""

    heading_start: int
    title: str
    body_start: int
    body_end: int
    blocks: tuple[Block, ...] = ()


# What the lesson grammar's refusal names, and the grammar that takes such a file.
BLOCKS_HINT = "use the blocks grammar (pin --markdown blocks)"
SETEXT_UNDERLINE = re.compile(r" {0,3}(=+|-+)[ \t]*")
# What a first line that is not a heading most likely is, for the refusal; anything else is "text".
OPENING_KINDS = (
    (re.compile(r" {0,3}(!!!|\?\?\?)"), "an admonition"),
    (re.compile(r" {0,3}(```|~~~)"), "a code fence"),
    (re.compile(r" {0,3}>"), "a blockquote"),
    (re.compile(r" {0,3}([-*+]|[0-9]{1,9}[.)])( |$)"), "a list item"),
    (re.compile(r" {0,3}\|"), "a table row"),
    (re.compile(r" {0,3}<"), "HTML"),
)


def first_line(text: str) -> str:
    """The text's first line without its ``\n``: ``first_line("a\nb")`` -> ``"a"``."""
    return text.split("\n", 1)[0]


def lesson_opening_problem(text: str) -> str:
    """Why ``text`` does not open with a lesson heading: what was found at its start, and what to do.

    ``lesson_opening_problem("---\ntitle: A\n---\n")`` ->
    ``'found "---" front matter at line 1; use the blocks grammar (pin --markdown blocks)'``.
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
    headings = list(HEADING.finditer(text))
    if not headings or headings[0].start() != 0:
        raise IngestionError("heading_required", where, lesson_opening_problem(text))
    sections = []
    for index, heading in enumerate(headings):
        body_start = min(heading.end() + 1, len(text))
        body_end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        if text[body_start:body_end].strip():
            sections.append(Section(heading.start(), heading.group(1), body_start, body_end))
    return sections


def paragraph_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Maximal runs of non-blank lines in ``text[start:end]``, each with its last ``\\n``.

    ``paragraph_spans("\\nab\\ncd\\n\\nef\\n", 0, 11)`` -> ``[(1, 7), (8, 11)]``.
    """
    spans = []
    paragraph_start = None
    line_start = start
    while line_start < end:
        newline = text.find("\n", line_start, end)
        line_end = end if newline == -1 else newline + 1
        if text[line_start:line_end].strip():
            if paragraph_start is None:
                paragraph_start = line_start
        elif paragraph_start is not None:
            spans.append((paragraph_start, line_start))
            paragraph_start = None
        line_start = line_end
    if paragraph_start is not None:
        spans.append((paragraph_start, end))
    return spans


def document_sections(text: str, grammar: str = LESSON_GRAMMAR, where: str = "text") -> list[Section]:
    """The sections of ``text`` under ``grammar``, each with its blocks, in offset order.

    Under the lesson grammar a section's blocks are its paragraphs:
    ``"# A\\nab\\n\\ncd\\n"`` -> one section ``A`` with blocks ``[4, 7)`` and ``[8, 11)``.
    """
    if grammar != LESSON_GRAMMAR:
        raise IngestionError("unknown_grammar", where, f"no Markdown grammar called {quoted(grammar)}")
    return [
        Section(
            section.heading_start,
            section.title,
            section.body_start,
            section.body_end,
            tuple(
                Block("paragraph", start, end)
                for start, end in paragraph_spans(text, section.body_start, section.body_end)
            ),
        )
        for section in heading_sections(text, where)
    ]
