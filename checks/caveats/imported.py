"""Pairs proposed by another tool: ``scan --import pairs.jsonl``.

One JSON object a line: ``source_id``, then ``instruction`` and ``caveat``
(``qualifier`` is accepted for it), each a quote or ``{"quote": …, "start":
N}``, and an optional ``name``. Each quote is checked against the pinned text
as a span check's is: it must occur there, once, or at the ``start`` given.
Blank lines are skipped. The first line that fails is refused in one line
naming the file and the line; nothing is declared then. It reads no files;
``commands/scan.py`` does the I/O.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass

import chunk_index
from lab_io.errors import IngestionError, counted, quoted, quoted_name
from lab_io.strict_json import parser_complaint
from load_documents import Span, SpanCheck

NAME_PREFIX = "import:"
# The fields an imported line may hold; any other is refused, so a typo ("qualifer") is not lost silently.
FIELDS = frozenset({"name", "source_id", "instruction", "caveat", "qualifier"})


@dataclass(frozen=True)
class ImportedPair:
    """One imported pair, its quotes found in the text; ``line`` is its line in the imported file."""

    name: str
    source_id: str
    instruction: Span
    qualifier: Span
    line: int

    def as_check(self) -> SpanCheck:
        return SpanCheck(self.name, self.source_id, self.instruction, self.qualifier)


def located_quote(value: object, text: str, where: str, source_id: str) -> Span:
    """A quote (a string, or ``{"quote", "start"}``) as a span of ``text``: found once, or at its start."""
    start = None
    if isinstance(value, dict):
        unknown = sorted(set(value) - {"quote", "start", "end"})
        if unknown:
            raise IngestionError(
                "bad_import", where, f"unknown field {quoted_name(unknown[0])}; a quote has quote and start"
            )
        start = value.get("start")
        if start is not None and type(start) is not int:
            raise IngestionError("bad_import", where, f"start must be an integer offset, found {quoted(start)}")
        value = value.get("quote")
    if type(value) is not str or not value.strip():
        raise IngestionError("bad_import", where, f"expected a non-empty quote, found {quoted(value)}")
    if value != value.strip():
        raise IngestionError("bad_import", where, f"quote {quoted(value)} starts or ends with whitespace; trim it")
    if start is not None:
        if start >= 0 and text[start : start + len(value)] == value:
            return Span(start, start + len(value), value)
        loose = None if start < 0 else loose_pattern(value).match(text, start)
        if loose is not None:
            return Span(start, loose.end(), loose.group(0))
        found = text.find(value)
        hint = "not in the text" if found == -1 else f"first found at {found}"
        raise IngestionError(
            "bad_import", where, f"quote {quoted(value)} is not at offset {start} of {quoted_name(source_id)} ({hint})"
        )
    first = text.find(value)
    if first != -1:
        second = text.find(value, first + 1)
        if second != -1:
            raise IngestionError(
                "bad_import",
                where,
                f"quote {quoted(value)} occurs more than once in {quoted_name(source_id)} (at {first} and {second}); "
                "give its start",
            )
        return Span(first, first + len(value), value)
    # Not there as given: a tool that reflowed the quote (one line where the page wraps) still names one place.
    pattern = loose_pattern(value)
    found = pattern.search(text)
    if found is None:
        raise IngestionError("bad_import", where, f"quote {quoted(value)} is not in {quoted_name(source_id)}")
    # Looked for again from the next character, as the exact quote is: a second place may overlap the first.
    again = pattern.search(text, found.start() + 1)
    if again is not None:
        raise IngestionError(
            "bad_import",
            where,
            f"quote {quoted(value)} occurs more than once in {quoted_name(source_id)} with its whitespace read loosely "
            f"(at {found.start()} and {again.start()}); give its start",
        )
    return Span(found.start(), found.end(), found.group(0))


def loose_pattern(quote: str) -> re.Pattern:
    """``quote`` with each run of whitespace standing for any run: ``"a b"`` finds ``"a\\n  b"``, never ``"ab"``.

    Words must be there as given and in order; only the whitespace between them may differ, as it does when a
    tool puts on one line a sentence the page wraps. The pattern is words joined by ``\\s+``, which never
    backtracks into a word, so a search costs at most the text's length times the quote's, and far less in
    practice: a place fails at its first word that differs.
    """
    return re.compile(r"\s+".join(map(re.escape, quote.split())))


def unique_keys(where: str):
    """A ``json.loads`` hook that refuses a key given twice in one object (JSON would keep the last silently)."""

    def build(pairs: list) -> dict:
        value = {}
        for key, item in pairs:
            if key in value:
                raise IngestionError("bad_import", where, f"field {quoted_name(key)} is given twice")
            value[key] = item
        return value

    return build


def imported_pairs(data: str, where: str, sources) -> list[ImportedPair]:
    """Every pair of an imported file's text, each quote located in its source's text; refused at the first bad line."""
    texts = {source["source_id"]: source["text"] for source in sources}
    pairs: list[ImportedPair] = []
    names_on_line: dict[tuple[str, int], int] = {}
    newlines: dict[str, list[int]] = {}
    for number, line in enumerate(data.split("\n"), start=1):
        if not line.strip():
            continue
        place = f"{where}:{number}"
        try:
            value = json.loads(line, object_pairs_hook=unique_keys(place))
        except json.JSONDecodeError as error:
            raise IngestionError(
                "bad_import", place, f"not a JSON object: column {error.colno}: {parser_complaint(error.msg)}"
            ) from error
        if not isinstance(value, dict):
            raise IngestionError("bad_import", place, f"expected a JSON object, found {quoted(value)}")
        unknown = sorted(set(value) - FIELDS)
        if unknown:
            raise IngestionError(
                "bad_import",
                place,
                f"unknown field {quoted_name(unknown[0])}; expected source_id, instruction, caveat, name",
            )
        if "caveat" in value and "qualifier" in value:
            raise IngestionError("bad_import", place, "give caveat or qualifier, not both")
        source_id = value.get("source_id")
        if type(source_id) is not str or source_id not in texts:
            raise IngestionError(
                "bad_import", place, f"source_id {quoted_name(source_id)} is not a source of the manifest"
            )
        text = texts[source_id]
        instruction = located_quote(value.get("instruction"), text, f"{place}: instruction", source_id)
        qualifier = located_quote(value.get("caveat", value.get("qualifier")), text, f"{place}: caveat", source_id)
        if instruction.start < qualifier.end and qualifier.start < instruction.end:
            # One sentence both the instruction and its caveat is no pair: the caveat is the instruction's own.
            raise IngestionError(
                "bad_import",
                place,
                f"the instruction [{instruction.start}, {instruction.end}) and the caveat [{qualifier.start}, "
                f"{qualifier.end}) overlap; a pair is two places of the text",
            )
        name = value.get("name")
        if name is None:
            if source_id not in newlines:
                newlines[source_id] = chunk_index.newline_offsets(text)
            line_of_caveat = bisect_right(newlines[source_id], qualifier.start - 1) + 1
            count = names_on_line.get((source_id, line_of_caveat), 0) + 1
            names_on_line[(source_id, line_of_caveat)] = count
            name = f"{NAME_PREFIX}{source_id}:{line_of_caveat}" + ("" if count == 1 else f"#{count}")
        elif type(name) is not str or not name.strip():
            raise IngestionError("bad_import", place, f"name must be a non-empty string, found {quoted(name)}")
        pairs.append(ImportedPair(name, source_id, instruction, qualifier, number))
    if not pairs:
        raise IngestionError("bad_import", where, "holds no pair (one JSON object a line)")
    return pairs


def summary(added: int, declared: int, rejected: int, shown: str, manifest: str) -> str:
    """``added 3 span checks from pairs.jsonl to lab/manifest.json (1 already declared, 0 rejected)``."""
    if added == 0:
        return f"manifest unchanged: {manifest} (of the pairs in {shown}, {declared} already declared, {rejected} rejected)"
    return f"added {counted(added, 'span check')} from {shown} to {manifest} ({declared} already declared, {rejected} rejected)"
