"""Where a source's text splits into sections and paragraphs: the Markdown grammar.

The lesson's grammar (``SPEC.md``, "Sections" and "Paragraphs") is deliberately
tiny: simple ATX headings only, and paragraphs as runs of non-blank lines. The
policies in ``chunk_index`` cut chunks from what this module finds; nothing
here knows about configs, ids or hashes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errors import IngestionError

HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Section:
    """A heading and the body that follows it, as offsets into the text."""

    heading_start: int
    title: str
    body_start: int
    body_end: int


def heading_sections(text: str, where: str = "text") -> list[Section]:
    """The sections of ``text`` whose body is not blank, in offset order.

    ``"# A\\n\\n## B\\nbody\\n"`` -> one section, ``B``, body ``[10, 15)``
    (``A``'s body is blank and skipped). A text must open with a heading.
    """
    headings = list(HEADING.finditer(text))
    if not headings or headings[0].start() != 0:
        raise IngestionError("heading_required", where, "text must start with a '# ' heading at offset 0")
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
