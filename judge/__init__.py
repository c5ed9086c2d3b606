"""Judge another chunker's output: locate its chunks in the pinned text, then check them like the lab's own.

A user's pipeline (LangChain, LlamaIndex, chonkie or their own splitter)
writes its chunks as JSON Lines. This module reads that file strictly,
matches each record to a pinned source, and locates every chunk in the
source's normalized text, saying how it found it:

    exact_offset       the record's own offset holds its text exactly
    exact_order        its text, verbatim, first found after the previous chunk of its source (reaching past it)
    exact_unique       its text, verbatim, found once in the source (not after the previous chunk)
    modulo_whitespace  found once whitespace (and, failing that, heading lines) is set aside
    ambiguous          occurs more than once and the order cannot pick one: not located
    not_found          occurs nowhere, even modulo whitespace: not located

A wrong offset is reported with what the source holds there, and never
trusted. The located chunks are then judged like a fourth index: the
manifest's span checks, coverage (source text no chunk holds, text two
chunks hold) and the context figures of ``context_windows``. A partial
judgement is never shown as a whole one: unlocated chunks are counted, and
a pair's verdict in a source with unlocated chunks is marked partial.

It never imports the pipeline that wrote the chunks, and writes no files
(``run.py`` does the I/O). Costs are linear in the file, the chunks and the
source text: each source's whitespace-free copy is built once, on demand.
"""

from __future__ import annotations

import json
import os
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from itertools import accumulate
from pathlib import Path, PurePosixPath

import chunk_index
from checks import context_windows, span_checks
from checks.context_windows import non_whitespace
from grammars import HEADING, document_sections
from lab_io.errors import IngestionError, counted, printable, quoted
from lab_io.strict_json import json_text, parse_json_text, read_bounded
from load_documents import normalize_newlines
from views.summary import NO_SPAN_CHECKS

# A chunk file carries every chunk's text plus whatever metadata the pipeline
# adds (LlamaIndex nodes may even hold their embeddings): far beyond the
# sources, yet bounded so a runaway file is refused before it is read.
MAX_CHUNKS_BYTES = 256 << 20
MAX_CHUNK_LINES = 500_000
# How many judged chunks may hold one character of a source. Overlapping
# splitters hold each character in two or three chunks; a file far deeper
# than this would make every pair's context search look at every holder of
# its instruction times every chunk near its qualifier, so it is refused up front.
MAX_OVERLAP_DEPTH = 64
JUDGE_VERSION = 1

STATES = ("exact_offset", "exact_order", "exact_unique", "modulo_whitespace", "ambiguous", "not_found")
LOCATED_STATES = frozenset(STATES[:4])
STATE_WORDS = {
    "exact_offset": "exact at the given offset",
    "exact_order": "exact by order",
    "exact_unique": "exact unique",
    "modulo_whitespace": "modulo whitespace",
    "ambiguous": "ambiguous",
    "not_found": "not found",
}
SHAPES = ("plain", "langchain", "llamaindex", "chonkie")
SHAPE_NAMES = {
    "plain": "plain record",
    "langchain": "LangChain document",
    "llamaindex": "LlamaIndex node",
    "chonkie": "chonkie chunk",
}
# Keys that only one shape uses for its offsets; a record holding two families is refused.
OFFSET_KEYS = {
    "llamaindex": ("start_char_idx", "end_char_idx"),
    "chonkie": ("start_index", "end_index"),
    "plain": ("start", "end"),
}
# LangChain's add_start_index writes text.find()'s "not found" when it loses a chunk.
LANGCHAIN_NOT_FOUND = -1
WHITESPACE_RUN = re.compile(r"(\s+)")
SHOWN_QUOTE = 40


# --- reading the chunk file --------------------------------------------------------


@dataclass(frozen=True)
class ChunkRecord:
    """One line of the chunk file, reduced to what the judge reads.

    ``start``/``end`` are the offsets the record gives (``None`` when it gives
    none); ``offset_name`` is the field they came from, for messages.
    """

    line: int
    shape: str
    source_id: str
    text: str
    start: int | None
    end: int | None
    offset_name: str


class SourceResolver:
    """Match a record's source reference to a pinned source: by id, by path, or by a unique file name.

    In that order: a ``source_id``; the manifest's path as written; a path
    relative to the manifest's folder (``./docs/a.md``); an absolute path
    inside that folder; the file name alone when exactly one source has it.
    Each distinct reference is resolved once.
    """

    def __init__(self, sources: tuple[dict, ...], folder: Path, manifest_label: str = "the manifest") -> None:
        self.manifest_label = manifest_label
        self.ids = {source["source_id"] for source in sources}
        self.paths = {PurePosixPath(source["path"]).as_posix(): source["source_id"] for source in sources}
        self.names: dict[str, list[str]] = {}
        for source in sources:
            self.names.setdefault(PurePosixPath(source["path"]).name, []).append(source["source_id"])
        self.folders = {os.path.abspath(folder), os.path.realpath(folder)}
        self.only = next(iter(self.ids)) if len(self.ids) == 1 else None
        self.seen: dict[str, str] = {}

    def resolve(self, reference: str, where: str) -> str:
        if reference not in self.seen:
            self.seen[reference] = self.matched(reference, where)
        return self.seen[reference]

    def matched(self, reference: str, where: str) -> str:
        if reference in self.ids:
            return reference
        relative = self.relative_path(reference)
        if relative is not None and relative in self.paths:
            return self.paths[relative]
        owners = self.names.get(PurePosixPath(reference.replace("\\", "/")).name, [])
        if len(owners) == 1:
            return owners[0]
        if len(owners) > 1:
            raise IngestionError(
                "chunk_source_ambiguous",
                where,
                f"source {quoted(reference)} names no source of the manifest by id or path, and its file name "
                f"is shared by {', '.join(quoted(owner) for owner in sorted(owners))}; write the source_id or the manifest's path",
            )
        raise IngestionError(
            "chunk_source_unknown",
            where,
            f"source {quoted(reference)} is no source_id, path or file name of the sources of {self.manifest_label} "
            f"({self.known_sources()})"
            + ("; pass --manifest M for your own sources" if self.manifest_label == FIXTURE_MANIFEST else ""),
        )

    def known_sources(self) -> str:
        """``"a, b"``: the first ``LISTED_SOURCES`` source ids and a count of the rest."""
        ids = sorted(self.ids)
        shown = ", ".join(printable(source_id) for source_id in ids[:LISTED_SOURCES])
        if len(ids) > LISTED_SOURCES:
            shown += f" and {len(ids) - LISTED_SOURCES:,} more"
        return shown

    def relative_path(self, reference: str) -> str | None:
        """``reference`` as a path relative to the manifest's folder, or ``None`` if it lies outside it."""
        if os.path.isabs(reference):
            absolute = os.path.normpath(reference)
            for folder in self.folders:
                if absolute.startswith(folder.rstrip(os.sep) + os.sep):
                    return PurePosixPath(Path(os.path.relpath(absolute, folder)).as_posix()).as_posix()
            return None
        parts = [part for part in PurePosixPath(reference).parts if part != "."]
        return "/".join(parts) if parts and ".." not in parts else None


FIXTURE_MANIFEST = "the lesson's fixture manifest, used when no --manifest is given"
LISTED_SOURCES = 3
"""A refusal naming the manifest's sources lists at most this many."""


def manifest_label(argument: str | None) -> str:
    """How a refusal names the manifest from ``--manifest``: its path, or the fixture's when none was given.

    ``manifest_label("m.json")`` -> ``"manifest m.json"``.
    """
    if argument is not None:
        return f"manifest {printable(argument)}"
    return FIXTURE_MANIFEST


def record_shape(record: dict, where: str) -> str:
    """Which library wrote ``record``: by its text key and the keys of its offsets.

    ``page_content`` is LangChain's; otherwise ``start_char_idx``/``end_char_idx``
    are LlamaIndex's, ``start_index``/``end_index`` chonkie's, ``start``/``end``
    the plain shape's; with no offsets, a ``metadata`` holding ``file_path`` or
    ``file_name`` is a LlamaIndex node and anything else a plain record.
    """
    if "page_content" in record:
        return "langchain"
    families = [shape for shape, keys in OFFSET_KEYS.items() if any(key in record for key in keys)]
    if len(families) > 1:
        found = ", ".join(key for shape in families for key in OFFSET_KEYS[shape] if key in record)
        raise IngestionError(
            "chunk_shape_unclear", where, f"offsets of more than one record shape ({found}); use one shape's keys"
        )
    if families:
        return families[0]
    metadata = record.get("metadata")
    if type(metadata) is dict and ("file_path" in metadata or "file_name" in metadata):
        return "llamaindex"
    return "plain"


def unwrapped_langchain(record: dict) -> dict:
    """A LangChain document saved with ``dumpd``/``to_json()`` (``{"lc": 1, "kwargs": {...}}``) as its fields."""
    kwargs = record.get("kwargs")
    if type(record.get("lc")) is int and record["lc"] == 1 and type(kwargs) is dict and "page_content" in kwargs:
        return kwargs
    return record


def optional_string(value: object, name: str, where: str) -> str | None:
    if value is None:
        return None
    if type(value) is not str or not value:
        raise IngestionError("chunk_source_field", where, f"{name} must be a non-empty string, found {quoted(value)}")
    return value


def optional_offset(value: object, name: str, where: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise IngestionError(
            "chunk_offset_type", where, f"{name} must be a whole number or null, found {quoted(value)}"
        )
    return value


def record_metadata(record: dict, where: str) -> dict:
    metadata = record.get("metadata", {})
    if metadata is None:
        return {}
    if type(metadata) is not dict:
        raise IngestionError("chunk_metadata", where, f"metadata must be an object, found {type(metadata).__name__}")
    return metadata


def shape_fields(record: dict, shape: str, where: str) -> tuple[str, object, str | None, int | None, int | None, str]:
    """``(text key, text, source reference, start, end, offset name)`` as ``shape`` spells them."""
    if shape == "langchain":
        metadata = record_metadata(record, where)
        source = optional_string(metadata.get("source"), "metadata.source", where)
        start = optional_offset(metadata.get("start_index"), "metadata.start_index", where)
        return "page_content", record["page_content"], source, start, None, "metadata.start_index"
    if shape == "llamaindex":
        metadata = record_metadata(record, where)
        source = optional_string(metadata.get("file_path"), "metadata.file_path", where)
        if source is None:
            source = optional_string(metadata.get("file_name"), "metadata.file_name", where)
        start = optional_offset(record.get("start_char_idx"), "start_char_idx", where)
        end = optional_offset(record.get("end_char_idx"), "end_char_idx", where)
        return "text", record.get("text"), source, start, end, "start_char_idx"
    source = optional_string(record.get("source_id"), "source_id", where)
    names = OFFSET_KEYS[shape]
    start = optional_offset(record.get(names[0]), names[0], where)
    end = optional_offset(record.get(names[1]), names[1], where)
    return "text", record.get("text"), source, start, end, names[0]


def checked_offsets(start: int | None, end: int | None, shape: str, text_length: int, where: str) -> None:
    """Refuse offsets no text could hold: negative, reversed, an end alone, or past the source's end."""
    if start is None:
        if end is not None:
            raise IngestionError("chunk_offset_incomplete", where, f"an end offset ({end}) without a start")
        return
    if shape == "langchain" and start == LANGCHAIN_NOT_FOUND:
        return
    if start < 0 or start > text_length or (end is not None and not start <= end <= text_length):
        shown = f"[{start}, {end})" if end is not None else f"start {start}"
        raise IngestionError(
            "chunk_offset_out_of_range", where, f"{shown} is outside the source text of {text_length} characters"
        )


def chunk_record(
    value: object, line: int, where: str, resolver: SourceResolver, lengths: dict[str, int]
) -> ChunkRecord:
    """One parsed line as a ``ChunkRecord``: a known shape, a pinned source, non-blank text, sane offsets."""
    if type(value) is not dict:
        raise IngestionError("chunk_not_object", where, f"expected a JSON object, found {type(value).__name__}")
    value = unwrapped_langchain(value)
    shape = record_shape(value, where)
    text_key, text, reference, start, end, offset_name = shape_fields(value, shape, where)
    if type(text) is not str or not text.strip():
        found = "nothing" if text is None else quoted(text)
        raise IngestionError(
            "chunk_no_text", where, f"{SHAPE_NAMES[shape]} needs a non-blank {text_key}, found {found}"
        )
    if reference is None:
        if resolver.only is None:
            raise IngestionError(
                "chunk_source_missing",
                where,
                f"this {SHAPE_NAMES[shape]} names no source ({SOURCE_FIELD_HELP[shape]}) and the manifest has several",
            )
        source_id = resolver.only
    else:
        source_id = resolver.resolve(reference, where)
    checked_offsets(start, end, shape, lengths[source_id], where)
    return ChunkRecord(line, shape, source_id, normalize_newlines(text), start, end, offset_name)


SOURCE_FIELD_HELP = {
    "plain": "source_id",
    "langchain": "metadata.source",
    "llamaindex": "metadata.file_path or metadata.file_name",
    "chonkie": "source_id, added beside chonkie's fields",
}


def read_chunk_records(
    path: Path, sources: tuple[dict, ...], folder: Path, manifest_label: str = "the manifest"
) -> tuple[ChunkRecord, ...]:
    """Every record of the JSON Lines file at ``path``, strictly read; one refusal names ``FILE:LINE``.

    Each line is one JSON object parsed with the lab's strict reader; a blank
    line (other than after the last record) and a file mixing record shapes
    are refused, and so is a file over ``MAX_CHUNKS_BYTES`` or ``MAX_CHUNK_LINES``.
    ``manifest_label`` names the manifest when a record's source is not one of its own.
    """
    label = printable(str(path))
    text = json_text(read_bounded(path, MAX_CHUNKS_BYTES, label), label)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_CHUNK_LINES:
        raise IngestionError("too_many_chunks", label, f"{len(lines):,} lines; at most {MAX_CHUNK_LINES:,}")
    if not lines:
        raise IngestionError("no_chunks", label, "the file holds no chunk records")
    resolver = SourceResolver(sources, folder, manifest_label)
    lengths = {source["source_id"]: len(source["text"]) for source in sources}
    records = []
    for number, line in enumerate(lines, start=1):
        where = f"{label}:{number}"
        if not line.strip():
            raise IngestionError("chunk_blank_line", where, "blank line; JSON Lines holds one JSON object per line")
        try:
            value = parse_json_text(line, where)
        except IngestionError as error:
            raise line_refusal(error, where, text, lines) from error
        if type(value) is list and looks_like_one_document(text, lines):
            raise IngestionError(
                "chunk_not_object", where, f"expected a JSON object, found a list; {ONE_DOCUMENT_HINT}"
            )
        record = chunk_record(value, number, where, resolver, lengths)
        if records and record.shape != records[0].shape:
            raise IngestionError(
                "chunk_shape_mixed",
                where,
                f"a {SHAPE_NAMES[record.shape]}, but line {records[0].line} is a {SHAPE_NAMES[records[0].shape]}; "
                "one file holds one pipeline's chunks",
            )
        records.append(record)
    return tuple(records)


ONE_DOCUMENT_HINT = (
    "this file looks like one JSON document, not JSON Lines: judge reads one chunk object per line "
    "(docs/judge.md shows how to write them)"
)


def line_refusal(error: IngestionError, where: str, text: str, lines: list[str]) -> IngestionError:
    """A line's JSON refusal with its column in words, and the hint when the file is one JSON document.

    The strict reader places a syntax error at ``LINE:COLUMN`` of the text it
    was given, here always line 1 of one line: ``chunks.jsonl:1:1:2`` becomes
    ``chunks.jsonl:1: column 2: ...``.
    """
    cause = error.__cause__
    if not isinstance(cause, json.JSONDecodeError):
        return error
    what = f"column {cause.colno}: {error.what}"
    if is_lab_artifact(text):
        # Said first: the parser's complaint is beside the point for the lab's own file.
        what = f"{LAB_ARTIFACT_HINT}; {what}"
    elif looks_like_one_document(text, lines):
        what += f"; {ONE_DOCUMENT_HINT}"
    return IngestionError(error.code, where, what)


LAB_ARTIFACT_HINT = (
    "this is a result or index the lab saved, not chunks: judge reads your own splitter's chunks as JSON Lines, "
    "one object per line (docs/judge.md shows how to write them); 'run.py show' draws the lab's own"
)


def is_lab_artifact(text: str) -> bool:
    """Whether ``text`` is one JSON object with the keys of a saved result or index.

    That is ``execution_mode``, and ``indexes`` or ``chunks`` with ``config``:
    a user who passed ``result.json`` to judge. Asked only once a line is refused.
    """
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return False
    if type(value) is not dict or "execution_mode" not in value:
        return False
    return "indexes" in value or ("chunks" in value and "config" in value)


def looks_like_one_document(text: str, lines: list[str]) -> bool:
    """Whether the file is one JSON value (a saved result, a JSON array of chunks) rather than JSON Lines.

    So it is when its first line is ``{`` or ``[`` alone, or when the whole
    text parses as one JSON value that is not a single object (one object on
    one line is one record of JSON Lines). Asked only once a line is refused.
    """
    if lines and lines[0].strip() in ("{", "["):
        return True
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return not (type(value) is dict and len(lines) == 1)


# --- locating ----------------------------------------------------------------------


@dataclass(frozen=True)
class Location:
    """Where one record's chunk sits in its source, how it was found, and what its own offset said.

    ``start``/``end`` are ``None`` for an ``ambiguous`` or ``not_found`` chunk.
    ``offset_issue`` says why a given offset was not trusted (``None`` when it
    was right or absent): ``text_differs`` (the source holds other text there),
    ``not_found_value`` (LangChain's ``-1``) or ``before_previous`` (the text is
    there, but at or before the previous chunk's start while it also occurs
    after it: what ``text.find`` from the start of a text gives for repeated
    text). ``offset_holds`` is what the source holds at that offset. ``headings_dropped``: matched only
    once heading lines were set aside. ``places``: the first places an
    ambiguous chunk occurs.
    """

    record: ChunkRecord
    state: str
    start: int | None
    end: int | None
    offset_holds: str | None = None
    headings_dropped: bool = False
    places: tuple[tuple[int, int], ...] = ()
    offset_issue: str | None = None

    @property
    def located(self) -> bool:
        return self.state in LOCATED_STATES

    @property
    def offset_wrong(self) -> bool:
        return self.offset_issue is not None


class SquashedText:
    """A text with whitespace removed, and the way back from a position in it to an offset in the text.

    ``SquashedText("a b\\n cd")`` -> ``text "abcd"``: a match of ``"bc"`` at 1 maps back
    to ``[2, 6)``. The map is kept per word (where each word starts in both
    texts), not per character, and built in C-speed passes over the text.
    """

    def __init__(self, text: str) -> None:
        # re.split with a group alternates words and whitespace runs: words at even places.
        pieces = WHITESPACE_RUN.split(text)
        offsets = list(accumulate(map(len, pieces), initial=0))
        words = pieces[0::2]
        self.text = "".join(words)
        self.word_starts = offsets[0::2][: len(words)]
        self.word_lengths = list(map(len, words))
        self.word_positions = list(accumulate(self.word_lengths, initial=0))[:-1]

    def offset(self, position: int) -> int:
        """The source offset of the squashed character at ``position``."""
        word = bisect_right(self.word_positions, position) - 1
        return self.word_starts[word] + position - self.word_positions[word]

    def span(self, position: int, length: int) -> tuple[int, int]:
        """The source span from the first to the last character of a match ``length`` long at ``position``."""
        return self.offset(position), self.offset(position + length - 1) + 1

    def position_of(self, offset: int) -> int:
        """The squashed position of the first non-whitespace character at or after source ``offset``."""
        word = bisect_right(self.word_starts, offset) - 1
        if word >= 0 and offset < self.word_starts[word] + self.word_lengths[word]:
            return self.word_positions[word] + offset - self.word_starts[word]
        following = word + 1
        return self.word_positions[following] if following < len(self.word_positions) else len(self.text)


def without_headings(text: str) -> str:
    """``text`` with each heading line blanked to spaces (same length, so offsets stay put)."""
    return HEADING.sub(lambda heading: " " * len(heading.group()), text)


def squashed(text: str) -> str:
    """``"a b\\n c"`` -> ``"abc"``."""
    return "".join(text.split())


def occurrences(haystack: str, needle: str) -> tuple[int, ...]:
    """Where ``needle`` occurs in ``haystack``: ``()``, one place, or the first two (enough to say "ambiguous")."""
    first = haystack.find(needle)
    if first == -1:
        return ()
    second = haystack.find(needle, first + 1)
    return (first,) if second == -1 else (first, second)


class SourceLocator:
    """Locates one source's chunks in file order, keeping the place of the previous one.

    Order comes first and is searched once, in the whitespace-free copy: the
    first place after the previous chunk's start, ending past the previous
    chunk's end, where the chunk's text matches modulo whitespace, exact when
    the characters there are identical.
    A search that succeeds costs the distance it walks, so a file of chunks in
    order costs one pass over the source; only a chunk not found after the
    previous one pays a search of the whole text (unique occurrence, then the
    copy without heading lines).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.cursor = 0
        # Where the previous chunk ends: a chunk wholly inside it is not the next one in order.
        self.previous_end = 0
        self.squashed = SquashedText(text)
        self._bare: SquashedText | None = None

    @property
    def bare(self) -> SquashedText:
        if self._bare is None:
            self._bare = SquashedText(without_headings(self.text))
        return self._bare

    def locate(self, record: ChunkRecord) -> Location:
        issue, holds = self.offset_check(record)
        if issue is None and record.start is not None:
            return self.found(Location(record, "exact_offset", record.start, record.start + len(record.text)))
        location = self.search(record, holds)
        if issue == "text_differs" and offset_agrees(self.text, record, location):
            # A splitter that stripped or collapsed whitespace yet said where the chunk
            # starts gave the right offset: the text differs, the place does not.
            issue = None
        return replace(location, offset_issue=issue)

    def search(self, record: ChunkRecord, holds: str | None) -> Location:
        """Locate ``record`` by its text alone: order, then a unique place, verbatim or modulo whitespace."""
        text = record.text
        needle = squashed(text)
        copy = self.squashed
        position = copy.text.find(needle, copy.position_of(self.cursor))
        # A place that ends inside the previous chunk is passed over: a splitter's next chunk may
        # overlap the previous one but reaches past it, and a short chunk ("```") found inside the
        # previous one would be placed there while its own place is further on.
        while needle and position != -1 and copy.span(position, len(needle))[1] <= self.previous_end:
            position = copy.text.find(needle, position + 1)
        if position != -1:
            start, end = copy.span(position, len(needle))
            exact_start = start - (len(text) - len(text.lstrip()))
            if exact_start >= 0 and self.text.startswith(text, exact_start):
                return self.found(Location(record, "exact_order", exact_start, exact_start + len(text), holds))
            return self.found(Location(record, "modulo_whitespace", start, end, holds))
        places = occurrences(self.text, text)
        if len(places) == 1:
            return self.found(Location(record, "exact_unique", places[0], places[0] + len(text), holds))
        ambiguous = [(place, place + len(text)) for place in places]
        if not ambiguous:
            squashed_places = occurrences(copy.text, needle)
            if len(squashed_places) == 1:
                start, end = copy.span(squashed_places[0], len(needle))
                return self.found(Location(record, "modulo_whitespace", start, end, holds))
            ambiguous = [copy.span(place, len(needle)) for place in squashed_places]
        if not ambiguous:
            bare_needle = squashed(without_headings(text))
            if bare_needle:
                bare = self.bare
                position = bare.text.find(bare_needle, bare.position_of(self.cursor))
                bare_places = (position,) if position != -1 else occurrences(bare.text, bare_needle)
                if len(bare_places) == 1:
                    start, end = bare.span(bare_places[0], len(bare_needle))
                    return self.found(Location(record, "modulo_whitespace", start, end, holds, headings_dropped=True))
                ambiguous = [bare.span(place, len(bare_needle)) for place in bare_places]
        state = "ambiguous" if ambiguous else "not_found"
        return Location(record, state, None, None, holds, places=tuple(ambiguous))

    def offset_check(self, record: ChunkRecord) -> tuple[str | None, str | None]:
        """``(issue, what the source holds at the offset)``; the issue is ``None`` when the offset is absent or right.

        An offset holding the text is still not trusted when it lies at or
        before the previous chunk's start and the text also occurs after it:
        splitters emit chunks in order, and ``text.find`` from the start of a
        text answers the first of several occurrences.
        """
        if record.start is None:
            return None, None
        if record.start == LANGCHAIN_NOT_FOUND:
            return "not_found_value", None
        end = record.end if record.end is not None else min(record.start + len(record.text), len(self.text))
        held = self.text[record.start : end]
        if held != record.text:
            return "text_differs", held
        if record.start < self.cursor and self.text.find(record.text, self.cursor) != -1:
            return "before_previous", held
        return None, held

    def found(self, location: Location) -> Location:
        # The next chunk is searched after this one's start: overlapping chunks start later, not after its end.
        self.cursor = location.start + 1
        self.previous_end = location.end
        return location


def offset_agrees(text: str, record: ChunkRecord, location: Location) -> bool:
    """Whether a chunk located modulo whitespace starts (and, when given, ends) where its record says.

    Only whitespace may lie between the given offset and the located one: a
    chunk ``"    def f():"`` stripped to ``"def f():"`` and given the offset of
    its indentation is where it says, as is one given the offset of its ``d``.
    """
    if location.state != "modulo_whitespace" or record.start is None:
        return False
    if text[min(record.start, location.start) : max(record.start, location.start)].strip():
        return False
    if record.end is None:
        return True
    return not text[min(record.end, location.end) : max(record.end, location.end)].strip()


def locate_chunks(records: tuple[ChunkRecord, ...], sources: tuple[dict, ...]) -> tuple[Location, ...]:
    """Every record located in its source's text, in file order."""
    locators = {source["source_id"]: SourceLocator(source["text"]) for source in sources}
    return tuple(locators[record.source_id].locate(record) for record in records)


# --- the judged chunks as an index ----------------------------------------------------


class SectionFinder:
    """The sections of one source under a grammar: which holds an offset, which a span lies in.

    A section runs from its heading to the next section's heading; an offset
    before the first non-blank section (a title heading with a blank body)
    belongs to that first section, whose text it leads into.
    """

    def __init__(self, source: dict, grammar: str) -> None:
        revision = chunk_index.document_record(source)["document_revision"]
        sections = document_sections(source["text"], grammar, source["source_id"], source["title"])
        self.starts = [section.heading_start for section in sections]
        self.labels = [
            (chunk_index.digest({"document_revision": revision, "heading_start": section.heading_start}), section.title)
            for section in sections
        ]

    def place(self, offset: int) -> int:
        return max(bisect_right(self.starts, offset) - 1, 0)

    def __call__(self, offset: int) -> tuple[str, str]:
        """``(section_id, section_title)`` of the section holding ``offset``."""
        return self.labels[self.place(offset)]

    def sections_between(self, start: int, end: int) -> list[str]:
        """The ids of every section ``[start, end)`` lies in, in order (a judged chunk may cross a heading)."""
        last = self.place(max(start, end - 1))
        return [self.labels[position][0] for position in range(self.place(start), last + 1)]


def section_finder(source: dict, grammar: str) -> SectionFinder:
    """A function from an offset of ``source`` to ``(section_id, section_title)`` of the section holding it."""
    return SectionFinder(source, grammar)


def pair_sections(sources: tuple[dict, ...], grammar: str):
    """``section_of(source_id, offset)`` -> the id of the section holding it, each source's sections found once.

    What ``context_windows`` takes to bound a pair's "within the section"
    window by the section of the pair, not of the chunk that holds it.
    """
    texts = {source["source_id"]: source for source in sources}
    finders: dict[str, SectionFinder] = {}

    def section_of(source_id: str, offset: int) -> str:
        if source_id not in finders:
            finders[source_id] = section_finder(texts[source_id], grammar)
        return finders[source_id](offset)[0]

    return section_of


def judged_chunks(locations: tuple[Location, ...], sources: tuple[dict, ...], grammar: str) -> list[dict]:
    """The located chunks as chunk dicts the lab's views and checks take, by source then offset.

    ``order`` counts from 0 within each source in offset order (ties by file
    line), like the lab's own chunks; ``line`` is the record's line in the file.
    """
    texts = {source["source_id"]: source for source in sources}
    finders: dict[str, object] = {}
    newlines: dict[str, list[int]] = {}
    chunks = []
    for location in sorted(
        (location for location in locations if location.located),
        key=lambda location: (location.record.source_id, location.start, location.end, location.record.line),
    ):
        source_id = location.record.source_id
        if source_id not in finders:
            finders[source_id] = section_finder(texts[source_id], grammar)
            newlines[source_id] = chunk_index.newline_offsets(texts[source_id]["text"])
        section_id, title = finders[source_id](location.start)
        previous = chunks[-1] if chunks and chunks[-1]["source_id"] == source_id else None
        chunks.append(
            {
                "source_id": source_id,
                "order": 0 if previous is None else previous["order"] + 1,
                "start": location.start,
                "end": location.end,
                # text.count("\n", 0, offset) + 1, by bisection rather than a scan per chunk.
                "start_line": bisect_left(newlines[source_id], location.start) + 1,
                "end_line": bisect_left(newlines[source_id], location.end - 1) + 1,
                "section_id": section_id,
                "section_title": title,
                # Every section the chunk lies in: a chunk that starts before a heading reaches the next one.
                "section_ids": finders[source_id].sections_between(location.start, location.end),
                "line": location.record.line,
                "state": location.state,
            }
        )
    return chunks


# --- coverage ----------------------------------------------------------------------


def depth_stretches(text_length: int, spans: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """``(start, end, depth)``: the text cut where the number of spans holding it changes.

    ``depth_stretches(10, [(2, 6), (4, 8)])`` ->
    ``[(0, 2, 0), (2, 4, 1), (4, 6, 2), (6, 8, 1), (8, 10, 0)]``.
    """
    changes: dict[int, int] = {}
    for start, end in spans:
        changes[start] = changes.get(start, 0) + 1
        changes[end] = changes.get(end, 0) - 1
    stretches = []
    depth = 0
    position = 0
    for offset in sorted(changes):
        if offset > position:
            stretches.append((position, offset, depth))
        depth += changes[offset]
        position = max(position, offset)
    if position < text_length:
        stretches.append((position, text_length, depth))
    return stretches


def require_bounded_overlap(chunks: list[dict], where: str) -> None:
    """Refuse judged chunks of which more than ``MAX_OVERLAP_DEPTH`` hold one character of a source."""
    by_source: dict[str, list[tuple[int, int]]] = {}
    for chunk in chunks:
        by_source.setdefault(chunk["source_id"], []).append((chunk["start"], chunk["end"]))
    for source_id, spans in by_source.items():
        deepest = max(depth_stretches(0, spans), key=lambda stretch: stretch[2], default=(0, 0, 0))
        if deepest[2] > MAX_OVERLAP_DEPTH:
            raise IngestionError(
                "judge_overlap_too_deep",
                where,
                f"{deepest[2]:,} chunks hold offset {deepest[0]:,} of {printable(source_id)}; at most "
                f"{MAX_OVERLAP_DEPTH} may hold one character (a sliding window of stride 1/{MAX_OVERLAP_DEPTH} "
                "of its width, or the same chunk repeated)",
            )


def source_coverage(text: str, spans: list[tuple[int, int]]) -> dict:
    """How much of ``text``'s non-whitespace no span holds (``uncovered_chars``) and two or more hold (``overlap_chars``).

    Whitespace is left out on purpose: splitters strip it at chunk edges, so
    counting blank lines would report losses no reader notices; a dropped
    heading or a lost sentence counts in full.
    """
    uncovered = 0
    overlap = 0
    for start, end, depth in depth_stretches(len(text), spans):
        if depth == 0:
            uncovered += non_whitespace(text, start, end)
        elif depth > 1:
            overlap += non_whitespace(text, start, end)
    return {
        "non_whitespace_chars": non_whitespace(text, 0, len(text)),
        "uncovered_chars": uncovered,
        "overlap_chars": overlap,
    }


def coverage(sources: tuple[dict, ...], chunks: list[dict]) -> dict:
    """Per source (by ``source_id``) and in total, the coverage of ``chunks``."""
    spans: dict[str, list[tuple[int, int]]] = {source["source_id"]: [] for source in sources}
    for chunk in chunks:
        spans[chunk["source_id"]].append((chunk["start"], chunk["end"]))
    per_source = [
        {"source_id": source["source_id"], **source_coverage(source["text"], spans[source["source_id"]])}
        for source in sources
    ]
    total = {
        key: sum(entry[key] for entry in per_source)
        for key in ("non_whitespace_chars", "uncovered_chars", "overlap_chars")
    }
    return {"sources": per_source, "total": total}


# --- span checks -------------------------------------------------------------------


class SpanHolders:
    """The chunks of one source that hold a span: those starting at or before it that reach its end."""

    def __init__(self, chunks: list[dict]) -> None:
        self.chunks = sorted(chunks, key=lambda chunk: (chunk["start"], chunk["order"]))
        self.starts = [chunk["start"] for chunk in self.chunks]
        self.ends = span_checks.ReachingSpans([(chunk["start"], chunk["end"]) for chunk in self.chunks])

    def holding(self, start: int, end: int) -> list[dict]:
        positions = self.ends.reaching(bisect_right(self.starts, start), end - 1)
        return [self.chunks[position] for position in positions]


def pair_verdicts(chunks: list[dict], checks: tuple, unlocated: dict[str, int], judged: bool = False) -> list[dict]:
    """Each span check under one index: the chunks (orders) holding the instruction, and the verdict.

    ``partial`` is true when the pair's source has chunks that were not
    located: one of them might hold both spans, so a split is not certain.
    A lab chunk holds a span exactly, as the main job compares; a ``judged``
    chunk when it holds every non-whitespace character of it
    (``context_windows.held_span``), so "same chunk" agrees with context's k = 0.
    """
    by_source: dict[str, list[dict]] = {}
    for chunk in chunks:
        by_source.setdefault(chunk["source_id"], []).append(chunk)
    holders = {source_id: SpanHolders(source_chunks) for source_id, source_chunks in by_source.items()}
    verdicts = []
    for check in checks:
        finder = holders.get(check.source_id) or SpanHolders([])
        instruction = finder.holding(*context_windows.held_span(check.instruction, judged))
        qualifier_start, qualifier_end = context_windows.held_span(check.qualifier, judged)
        kept = any(span_checks.chunk_holds(chunk, qualifier_start, qualifier_end) for chunk in instruction)
        missing = unlocated.get(check.source_id, 0)
        verdicts.append(
            {
                "name": check.name,
                "source_id": check.source_id,
                "instruction_span": check.instruction.as_list(),
                "qualifier_span": check.qualifier.as_list(),
                "instruction_chunk_orders": [chunk["order"] for chunk in instruction],
                "instruction_and_qualifier_share_chunk": kept,
                "partial": missing > 0 and not kept,
            }
        )
    return verdicts


# --- context figures ------------------------------------------------------------------


def context_figures(name: str, chunks: list[dict], checks: tuple, section_of=None) -> dict:
    """``context_windows.policy_context`` for one index: the lab's or the judged one, the same figures.

    ``section_of`` (``pair_sections``) is given for judged chunks: one may start
    before the heading of the section its pair lies in.
    """
    return context_windows.policy_context(name, chunks, checks, section_of)


def context_text(rows: list[dict], complete: bool = True) -> str:
    """The context table of ``context_windows`` over every row, names made printable.

    A judged row with unlocated chunks is named ``NAME (partial)`` there too.
    """
    figures = [row["context"] for row in rows]
    shown = [
        {**entry, "policy": printable(entry["policy"]) + ("" if complete or row["kind"] == "lab" else " (partial)")}
        for entry, row in zip(figures, rows)
    ]
    return context_windows.context_table(shown, [pair["name"] for pair in rows[0]["pairs"]])


# --- the judgement -------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """Everything ``judge`` reports: the locations, the judged chunks, and each index's figures."""

    name: str
    file: str
    shape: str
    locations: tuple[Location, ...]
    chunks: list[dict]
    rows: list[dict]
    indexes: dict

    @property
    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(STATES, 0)
        for location in self.locations:
            counts[location.state] += 1
        return counts

    @property
    def unlocated(self) -> dict[str, int]:
        return unlocated_counts(self.locations)

    @property
    def complete(self) -> bool:
        return all(location.located for location in self.locations)


def unlocated_counts(locations: tuple[Location, ...]) -> dict[str, int]:
    """How many chunks of each source were not located (ambiguous or not found)."""
    missing: dict[str, int] = {}
    for location in locations:
        if not location.located:
            missing[location.record.source_id] = missing.get(location.record.source_id, 0) + 1
    return missing


def index_row(
    name: str, kind: str, chunks: list[dict], sources: tuple, checks: tuple, unlocated: dict, section_of=None
) -> dict:
    """One row of the judge's table: chunk count, mean length, coverage, pair verdicts and context figures."""
    verdicts = pair_verdicts(chunks, checks, unlocated, judged=kind == "judged")
    characters = sum(chunk["end"] - chunk["start"] for chunk in chunks)
    return {
        "policy": name,
        "kind": kind,
        "chunk_count": len(chunks),
        "mean_chars": round(characters / len(chunks), 1) if chunks else 0.0,
        "coverage": coverage(sources, chunks),
        "pairs_kept_together": sum(verdict["instruction_and_qualifier_share_chunk"] for verdict in verdicts),
        "pairs": verdicts,
        "context": context_figures(name, chunks, checks, section_of),
    }


def judge_chunks(
    chunks_path: Path, manifest, name: str | None = None, manifest_label: str = "the manifest"
) -> Judgement:
    """Read, locate and judge the chunk file at ``chunks_path`` against ``manifest``'s sources and checks.

    The lab's rows use the manifest's own grammar and sizes, as the main job
    does. ``manifest_label`` (``manifest_label()``) names it in a refusal.
    """
    chunks_path = Path(chunks_path)
    grammar = manifest.grammar
    records = read_chunk_records(chunks_path, manifest.sources, manifest.folder, manifest_label)
    locations = locate_chunks(records, manifest.sources)
    judged = judged_chunks(locations, manifest.sources, grammar)
    require_bounded_overlap(judged, printable(str(chunks_path)))
    label = name if name is not None else chunks_path.name
    missing = unlocated_counts(locations)
    configs = chunk_index.manifest_configs(grammar, manifest.policy_sizes)
    indexes = chunk_index.build_indexes(manifest.sources, configs)
    rows = [
        index_row(policy, "lab", index["chunks"], manifest.sources, manifest.span_checks, {})
        for policy, index in indexes.items()
    ]
    section_of = pair_sections(manifest.sources, grammar)
    rows.append(index_row(label, "judged", judged, manifest.sources, manifest.span_checks, missing, section_of))
    return Judgement(label, printable(str(chunks_path)), records[0].shape, locations, judged, rows, indexes)


# --- what a person reads ------------------------------------------------------------


def location_json(location: Location, orders: dict[int, int]) -> dict:
    """One record's location; ``order`` is its place among its source's located chunks (``null`` if unlocated)."""
    record = location.record
    entry = {
        "line": record.line,
        "source_id": record.source_id,
        "state": location.state,
        "order": orders.get(record.line),
        "start": location.start,
        "end": location.end,
        "given_start": record.start,
        "given_end": record.end,
        "offset_wrong": location.offset_wrong,
        "headings_dropped": location.headings_dropped,
    }
    if location.offset_wrong:
        entry["offset_issue"] = location.offset_issue
        if location.offset_holds is not None:
            entry["offset_holds"] = location.offset_holds
    if location.places:
        entry["places"] = [list(place) for place in location.places]
    return entry


def judgement_json(judgement: Judgement) -> dict:
    """The ``judge --json`` document (``judge_version`` 1; shape in ``docs/judge.md``)."""
    counts = judgement.counts
    orders = {chunk["line"]: chunk["order"] for chunk in judgement.chunks}
    return {
        "judge_version": JUDGE_VERSION,
        "name": judgement.name,
        "chunks_file": judgement.file,
        "shape": judgement.shape,
        "chunk_count": len(judgement.locations),
        "located": {state: counts[state] for state in STATES},
        "located_count": sum(counts[state] for state in LOCATED_STATES),
        "complete": judgement.complete,
        "offsets_given": sum(location.record.start is not None for location in judgement.locations),
        "offsets_wrong": sum(location.offset_wrong for location in judgement.locations),
        "chunks": [location_json(location, orders) for location in judgement.locations],
        "policies": judgement.rows,
    }


def shown_text(text: str) -> str:
    """Untrusted text for one line of output: escaped JSON, cut to ``SHOWN_QUOTE`` characters."""
    return quoted(text, SHOWN_QUOTE)


def location_sentence(location: Location) -> str:
    """``"line 3: exact by order at [131, 270)"`` or why it was not located."""
    record = location.record
    head = f"line {record.line} ({record.source_id}): {STATE_WORDS[location.state]}"
    if location.located:
        head += f" at [{location.start}, {location.end})"
        if location.headings_dropped:
            head += ", heading lines dropped by the splitter"
    elif location.state == "ambiguous":
        places = ", ".join(f"[{start}, {end})" for start, end in location.places)
        head += f": {shown_text(record.text)} occurs at {places}, none after the previous chunk"
    else:
        head += f": {shown_text(record.text)} is not in the source"
    return head


def offset_sentence(location: Location) -> str:
    """Why a given offset was not trusted: what the source holds there, and where the chunk really is."""
    record = location.record
    if location.offset_issue == "not_found_value":
        said = f"{record.offset_name} -1 (LangChain's value for a chunk it could not find)"
    elif location.offset_issue == "before_previous":
        said = (
            f"{record.offset_name} {record.start} holds the text, but at or before the previous chunk of "
            "the source, and the text occurs again after it (text.find answers the first occurrence)"
        )
    else:
        said = f"{record.offset_name} {record.start}: {differing_text(record, location.offset_holds)}"
    where = (
        f"found at [{location.start}, {location.end}) ({STATE_WORDS[location.state]})"
        if location.located
        else STATE_WORDS[location.state]
    )
    return f"wrong offset, line {record.line}: {said}; the chunk is {printable(where)}"


def first_difference(first: str, second: str) -> int:
    """Where two texts first differ (the shorter one's length when it begins the other): ``("abcd", "abxd")`` -> 2.

    Compared by halving over C-speed prefix comparisons, not a walk per character.
    """
    low, high = 0, min(len(first), len(second))
    while low < high:
        middle = (low + high + 1) // 2
        if first[:middle] == second[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def differing_text(record: ChunkRecord, holds: str) -> str:
    """What the source holds at a wrong offset, shown from where it parts from the chunk's text.

    Chunks made before an edit share their start with the source, so previews
    of both from the offset would read the same. ``"the source's [131, 267)
    matches the chunk's first 116 characters, then differs at offset 247: the
    source has "overwrites a documen", the chunk "replaces a document.""``.
    """
    end = record.start + len(holds)
    same = first_difference(record.text, holds)
    if same == 0:
        return f"the source holds {shown_text(holds)} at [{record.start}, {end})"
    source_rest = shown_text(holds[same:]) if same < len(holds) else "nothing more"
    chunk_rest = shown_text(record.text[same:]) if same < len(record.text) else "nothing more"
    return (
        f"the source's [{record.start}, {end}) matches the chunk's first {counted(same, 'character')}, "
        f"then differs at offset {record.start + same}: the source has {source_rest}, the chunk {chunk_rest}"
    )


COVERAGE_NOTE = "uncovered, overlap: non-whitespace characters of the sources in no chunk, in two or more chunks"
TABLE_HEADER = ("policy", "chunks", "mean chars", "uncovered", "overlap", "pairs kept together")
NUMERIC = frozenset({1, 2, 3, 4})


def table_rows(judgement: Judgement) -> list[tuple[str, ...]]:
    """The table as display strings, header first; the judged row's pairs say when they are partial."""
    rows = [TABLE_HEADER]
    for row in judgement.rows:
        total = row["coverage"]["total"]
        partial = sum(pair["partial"] for pair in row["pairs"])
        kept = f"{row['pairs_kept_together']} of {len(row['pairs'])}"
        if partial:
            kept += f" ({partial} partial)"
        chunks = f"{row['chunk_count']:,}"
        if row["kind"] == "judged" and not judgement.complete:
            chunks += f" ({len(judgement.locations) - row['chunk_count']:,} unlocated)"
        rows.append(
            (
                printable(row["policy"]),
                chunks,
                f"{row['mean_chars']:.1f}",
                f"{total['uncovered_chars']:,}",
                f"{total['overlap_chars']:,}",
                kept,
            )
        )
    return rows


def aligned(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(widths[column]) if column in NUMERIC else cell.ljust(widths[column])
            for column, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]


def located_line(judgement: Judgement) -> str:
    """``"located 6 of 6 LangChain documents: 6 exact by order"`` (non-zero states only)."""
    counts = judgement.counts
    located = sum(counts[state] for state in LOCATED_STATES)
    parts = [f"{counts[state]:,} {STATE_WORDS[state]}" for state in STATES if counts[state]]
    total = counted(len(judgement.locations), SHAPE_NAMES[judgement.shape])
    verdict = "" if judgement.complete else "; PARTIAL judgement: unlocated chunks are left out of every figure"
    return f"{printable(judgement.name)}: located {located:,} of {total}: {', '.join(parts)}{verdict}"


def pair_lines(judgement: Judgement) -> list[str]:
    """One line per span check: its verdict under each policy and the judged chunks."""
    lines = []
    checks = judgement.rows[0]["pairs"]
    for position, check in enumerate(checks):
        verdicts = []
        for row in judgement.rows:
            pair = row["pairs"][position]
            word = "same chunk" if pair["instruction_and_qualifier_share_chunk"] else "split"
            if pair["partial"]:
                word += f" (partial: {counted(judgement.unlocated.get(pair['source_id'], 0), 'chunk')} of its source not located)"
            verdicts.append(f"{printable(row['policy'])} {word}")
        lines.append(f"{printable(check['name'])}: {', '.join(verdicts)}")
    return lines


LISTED_LINES = 10
"""At most this many lines per list (unlocated chunks, wrong offsets, sources with gaps or overlap):
a real docs set has hundreds of sources, and ``--json`` holds every one."""


def listed(lines: list[str], what: str) -> list[str]:
    """``lines`` up to ``LISTED_LINES``, then one line counting the rest.

    Fifteen wrong offsets -> their first ten lines and ``"  … 5 more wrong offsets: judge --json lists every one"``.
    """
    if len(lines) <= LISTED_LINES:
        return lines
    return [*lines[:LISTED_LINES], f"  … {len(lines) - LISTED_LINES:,} more {what}: judge --json lists every one"]


def coverage_lines(judgement: Judgement) -> list[str]:
    """The judged chunks' coverage in words: each source with a gap or an overlap, then one line for the rest.

    ``["coverage of a: 15 of 634 non-whitespace characters in no chunk, 0 in two or more",
    "coverage of the other 22 sources: every non-whitespace character in exactly one chunk"]``
    """
    entries = judgement.rows[-1]["coverage"]["sources"]
    flawed = [entry for entry in entries if entry["uncovered_chars"] or entry["overlap_chars"]]
    lines = listed(
        [
            f"coverage of {printable(entry['source_id'])}: {entry['uncovered_chars']:,} of "
            f"{entry['non_whitespace_chars']:,} non-whitespace characters in no chunk, "
            f"{entry['overlap_chars']:,} in two or more"
            for entry in flawed
        ],
        "sources with text in no chunk or in two or more",
    )
    whole = len(entries) - len(flawed)
    if whole:
        sources = counted(whole, "source")
        if flawed:
            which = f"the other {sources}"
        elif whole == 1:
            which = printable(entries[0]["source_id"])
        else:
            which = f"all {sources}"
        lines.append(f"coverage of {which}: every non-whitespace character in exactly one chunk")
    return lines


def judgement_text(judgement: Judgement) -> str:
    """What ``judge`` prints: how the chunks were located, the table, the verdicts, coverage, offsets, context.

    Each list (unlocated chunks, wrong offsets, sources with gaps) stops after
    ``LISTED_LINES`` lines with a count of the rest, so a docs set of hundreds
    of pages gives a page to read; ``--json`` holds every chunk and source.
    """
    lines = [located_line(judgement)]
    unlocated = [f"  {location_sentence(location)}" for location in judgement.locations if not location.located]
    lines.extend(listed(unlocated, "unlocated chunks"))
    lines.append("")
    lines.extend(aligned(table_rows(judgement)))
    lines.append(COVERAGE_NOTE)
    lines.extend(pair_lines(judgement) if judgement.rows[0]["pairs"] else [NO_SPAN_CHECKS])
    lines.extend(coverage_lines(judgement))
    wrong = [location for location in judgement.locations if location.offset_wrong]
    given = sum(location.record.start is not None for location in judgement.locations)
    if given:
        lines.append(f"offsets: {given:,} given, {len(wrong):,} wrong" + (": not trusted" if wrong else ""))
    lines.extend(listed([f"  {offset_sentence(location)}" for location in wrong], "wrong offsets"))
    lines.extend(["", context_text(judgement.rows, judgement.complete)])
    return "\n".join(lines)


def judgement_json_text(judgement: Judgement) -> str:
    return json.dumps(judgement_json(judgement), indent=2, ensure_ascii=False) + "\n"
