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
# A paragraph: a line with a non-space character, then every such line that
# follows it, up to and including the last one's "\n". ``\s`` and ``\S`` split
# characters exactly as ``str.strip()`` does, so a line is blank under both alike.
PARAGRAPH = re.compile(r"^[^\S\n]*\S.*(?:\n[^\S\n]*\S.*)*\n?", re.MULTILINE)
NON_BLANK = re.compile(r"\S")


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


def heading_sections(text: str, where: str = "text") -> list[Section]:
    """The sections of ``text`` whose body is not blank, in offset order.

    ``"# A\\n\\n## B\\nbody\\n"`` -> one section, ``B``, body ``[10, 15)``
    (``A``'s body is blank and skipped). A text must open with a heading.
    """
    headings = heading_matches(text)
    if not headings or headings[0].start() != 0:
        raise IngestionError("heading_required", where, "text must start with a '# ' heading at offset 0")
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
