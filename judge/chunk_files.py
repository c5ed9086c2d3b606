"""Reading another chunker's JSON Lines file: each record strictly parsed, its shape, source and offsets checked.

A record becomes a ``ChunkRecord`` naming a pinned source; nothing here
looks at where the chunk sits in that source (``placement`` does).
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from lab_io.errors import IngestionError, first_few, json_type, printable, quoted, quoted_name
from lab_io.strict_json import StrictParser, ends_inside, json_text, read_bounded
from load_documents import normalize_newlines

# A chunk file carries every chunk's text plus whatever metadata the pipeline
# adds (LlamaIndex nodes may even hold their embeddings): far beyond the
# sources, yet bounded so a runaway file is refused before it is read.
MAX_CHUNKS_BYTES = 256 << 20
MAX_CHUNK_LINES = 500_000
SHAPES = ("plain", "langchain", "llamaindex", "chonkie", "export")
SHAPE_NAMES = {
    "plain": "plain record",
    "langchain": "LangChain document",
    "llamaindex": "LlamaIndex node",
    "chonkie": "chonkie chunk",
    "export": "upsert record",
}
# Keys that only one shape uses for its offsets; a record holding two families is refused.
OFFSET_KEYS = {
    "llamaindex": ("start_char_idx", "end_char_idx"),
    "chonkie": ("start_index", "end_index"),
    "plain": ("start", "end"),
}
OFFSET_KEY_SET = frozenset(key for keys in OFFSET_KEYS.values() for key in keys)
# LangChain's add_start_index writes text.find()'s "not found" when it loses a chunk.
LANGCHAIN_NOT_FOUND = -1


class ChunkRecord(NamedTuple):
    """One line of the chunk file, reduced to what the judge reads.

    ``text`` has its line ends normalized as the loader normalizes the
    sources (``carriage_returns`` says whether it held a ``\\r``, a sign the
    splitter saw the file's ``\\r\\n``). ``start``/``end`` are the offsets the
    record gives (``None`` when it gives none), as the splitter counted them;
    ``offset_name`` is the field they came from, for messages.
    """

    line: int
    shape: str
    source_id: str
    text: str
    start: int | None
    end: int | None
    offset_name: str
    carriage_returns: bool = False
    # ``metadata.carried_caveats_text`` (what ``export --carry-caveats`` writes), whitespace collapsed; None if none.
    carried: str | None = None
    # An exported record's ``metadata.document_revision`` (a string), else None: which revision of its page it is of.
    revision: str | None = None


class SourceResolver:
    """Match a record's source reference to a pinned source: by id, by path, or by the end of a path.

    In that order: a ``source_id``; the manifest's path as written; a path
    relative to the manifest's folder (``./docs/a.md``); an absolute path
    inside that folder; then the longest end of the reference's path (its
    last parts, down to the file name alone) that ends one or more of the
    manifest's paths: one path, its source; several, refused as ambiguous.
    So ``/home/ci/proj/docs/guide/index.md`` from another machine, or
    ``guide/index.md`` from another working folder, finds ``docs/guide/index.md``
    among many ``index.md``. Each distinct reference is resolved once.
    """

    def __init__(self, sources: tuple[dict, ...], folder: Path, manifest_label: str = "the manifest") -> None:
        self.manifest_label = manifest_label
        self.ids = {source["source_id"] for source in sources}
        self.paths = {PurePosixPath(source["path"]).as_posix(): source["source_id"] for source in sources}
        # Every end of every manifest path ("index.md", "guide/index.md", "docs/guide/index.md") and the sources
        # whose path ends so: about as many entries as the paths have parts, made on the first reference that needs it.
        self.endings: dict[str, list[str]] | None = None
        self.deepest = 0
        self.sources = {source["source_id"]: source for source in sources}
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
        ending, owners = self.longest_ending(reference)
        if len(owners) == 1:
            return owners[0]
        if len(owners) > 1:
            shared = "file name" if "/" not in ending else f"path's end {quoted_name(ending)}"
            raise IngestionError(
                "chunk_source_ambiguous",
                where,
                f"source {quoted_name(reference)} names no source of the manifest by id or path, and its {shared} "
                f"is shared by {first_few([quoted_name(owner) for owner in sorted(owners)])}; write the source_id or the "
                "manifest's path",
            )
        raise IngestionError(
            "chunk_source_unknown",
            where,
            f"source {quoted_name(reference)} is no source_id, path or file name of the sources of {self.manifest_label} "
            f"({self.known_sources()})"
            + (
                "; pass --manifest M for your own sources"
                if self.manifest_label == FIXTURE_MANIFEST
                else "; a page added since the pin is pinned first (pin --manifest M PATH)"
            ),
            ("source", reference),
        )

    def longest_ending(self, reference: str) -> tuple[str, list[str]]:
        """The longest end of ``reference``'s path (``\\`` read as ``/``) that ends a manifest path, and the sources
        whose path ends so; ``("", [])`` when not even the file name does."""
        if self.endings is None:
            self.endings = {}
            self.deepest = 0
            for path, source_id in self.paths.items():
                parts = path.split("/")
                self.deepest = max(self.deepest, len(parts))
                for start in range(len(parts)):
                    self.endings.setdefault("/".join(parts[start:]), []).append(source_id)
        parts = [part for part in reference.replace("\\", "/").split("/") if part not in ("", ".")]
        # No end longer than the deepest manifest path can end one: a reference of many parts costs no more.
        for start in range(max(len(parts) - self.deepest, 0), len(parts)):
            ending = "/".join(parts[start:])
            if ending in self.endings:
                return ending, self.endings[ending]
        return "", []

    def known_sources(self) -> str:
        """``"a, b"``: the first ``LISTED_SOURCES`` source ids and a count of the rest."""
        return first_few([printable(source_id) for source_id in sorted(self.ids)], LISTED_SOURCES)

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
    the plain shape's; with none of those, a ``metadata`` holding ``source_id``
    is an upsert record (what ``run.py export`` writes, offsets in ``metadata``),
    one holding ``file_path`` or ``file_name`` a LlamaIndex node, anything else
    a plain record.
    """
    if "page_content" in record:
        return "langchain"
    # One C-level set intersection rules out the common record holding no offset key at all.
    families = (
        [shape for shape, keys in OFFSET_KEYS.items() if any(key in record for key in keys)]
        if not OFFSET_KEY_SET.isdisjoint(record)
        else []
    )
    if len(families) > 1:
        found = ", ".join(key for shape in families for key in OFFSET_KEYS[shape] if key in record)
        raise IngestionError(
            "chunk_shape_unclear", where, f"offsets of more than one record shape ({found}); use one shape's keys"
        )
    if families:
        return families[0]
    metadata = record.get("metadata")
    if type(metadata) is dict and "source_id" in metadata:
        return "export"
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
        raise IngestionError("chunk_metadata", where, f"metadata must be an object, found {json_type(metadata)}")
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
    if shape == "export":
        metadata = record_metadata(record, where)
        source = optional_string(metadata.get("source_id"), "metadata.source_id", where)
        start = optional_offset(metadata.get("start"), "metadata.start", where)
        end = optional_offset(metadata.get("end"), "metadata.end", where)
        return "text", record.get("text"), source, start, end, "metadata.start"
    source = optional_string(record.get("source_id"), "source_id", where)
    names = OFFSET_KEYS[shape]
    start = optional_offset(record.get(names[0]), names[0], where)
    end = optional_offset(record.get(names[1]), names[1], where)
    return "text", record.get("text"), source, start, end, names[0]


def checked_offsets(start: int | None, end: int | None, shape: str, where: str) -> None:
    """Refuse offsets no text could hold: a negative start, an end before its start, an end alone. An offset past the
    source's end is no refusal: the chunk is placed by its text and the offset reported as wrong, as one inside it
    (a page edited after chunking, a splitter counting from 1)."""
    if start is None:
        if end is not None:
            raise IngestionError("chunk_offset_incomplete", where, f"an end offset ({end}) without a start")
        return
    if shape == "langchain" and start == LANGCHAIN_NOT_FOUND:
        return
    shown = f"[{start}, {end})" if end is not None else f"start {start}"
    if start < 0:
        raise IngestionError(
            "chunk_offset_out_of_range",
            where,
            f"{shown} starts before the text: an offset is 0 or more (offsets a splitter got wrong can be left out: "
            "each chunk is then placed by its text alone)",
        )
    if end is not None and end < start:
        raise IngestionError("chunk_offset_out_of_range", where, f"{shown} ends before it starts")


def chunk_record(value: object, line: int, where: str, resolver: SourceResolver) -> ChunkRecord:
    """One parsed line as a ``ChunkRecord``: a known shape, a pinned source, text, sane offsets (``checked_offsets``:
    one past the source's end is kept, a wrong offset for placement to report).

    A text of whitespace alone is a chunk too (it holds nothing that counts).
    """
    if type(value) is not dict:
        raise IngestionError("chunk_not_object", where, f"expected a JSON object, found {json_type(value)}")
    if "lc" in value:
        value = unwrapped_langchain(value)
    shape = record_shape(value, where)
    text_key, text, reference, start, end, offset_name = shape_fields(value, shape, where)
    if type(text) is not str or not text:
        if text is not None:
            found = quoted(text)
        elif text_key in value:
            found = "null"
        else:
            # A record whose text sits under a key no shape reads ("content"): the keys it has say so.
            found = f"nothing (its keys: {first_few([quoted_name(key) for key in value])})"
        raise IngestionError(
            "chunk_no_text", where, f"{SHAPE_NAMES[shape]} needs a non-empty {text_key} string, found {found}"
        )
    if reference is None:
        if resolver.only is None:
            raise IngestionError(
                "chunk_source_missing",
                where,
                f"this {SHAPE_NAMES[shape]} names no source ({SOURCE_FIELD_HELP[shape]}) and the manifest has several"
                + unread_source_keys(value, shape),
            )
        source_id = resolver.only
    else:
        source_id = resolver.resolve(reference, where)
    returns = "\r" in text
    if returns and text.endswith("\r") and len(text) > 1:
        # A cut between the "\r" and the "\n" of a "\r\n" (a splitter cutting every n characters of the file
        # read with newline=""): the "\r" is the half the lab's text drops, the "\n" the next chunk's; read as a
        # line end of its own it made the chunk one "\n" too long, over its neighbour.
        text = normalize_newlines(text[:-1])
    elif returns:
        text = normalize_newlines(text)
    checked_offsets(start, end, shape, where)
    return ChunkRecord(
        line,
        shape,
        source_id,
        text,
        start,
        end,
        offset_name,
        returns,
        carried_text(value, where),
        record_revision(value),
    )


def record_revision(record: dict) -> str | None:
    """An exported record's ``metadata.document_revision``, when it is a string; else ``None``."""
    metadata = record.get("metadata")
    revision = metadata.get("document_revision") if type(metadata) is dict else None
    return revision if type(revision) is str else None


def carried_text(record: dict, where: str) -> str | None:
    """The caveats a record carries in ``metadata.carried_caveats_text``, whitespace collapsed (``None`` if none).

    What ``export --carry-caveats`` writes and a pipeline prepends before
    embedding; ``judge`` credits a split pair whose caveat it holds.
    """
    metadata = record.get("metadata")
    if type(metadata) is not dict or metadata.get("carried_caveats_text") is None:
        return None
    text = metadata["carried_caveats_text"]
    if type(text) is not str:
        raise IngestionError(
            "chunk_metadata", where, f"metadata.carried_caveats_text must be a string, found {quoted(text)}"
        )
    return " ".join(text.split()) or None


# Keys a pipeline names a record's page by that no shape reads: said when a record names no source, so the user
# knows which key to rename.
SOURCE_LIKE_KEYS = ("path", "source", "file", "file_path", "filename", "file_name", "doc_id", "document_id", "url")


def unread_source_keys(record: dict, shape: str) -> str:
    """``'; its "path" key is not read: put the page's source id or path in source_id'`` for a record that names its
    page under a key its shape does not read, else ``""``."""
    found = [key for key in SOURCE_LIKE_KEYS if key in record]
    if not found:
        return ""
    keys = " and ".join(quoted_name(key) for key in found[:2])
    verb = "key is" if len(found) == 1 else "keys are"
    return f"; its {keys} {verb} not read: put the page's source id or path in {SOURCE_FIELD_HELP[shape]}"


SOURCE_FIELD_HELP = {
    "plain": "source_id",
    "langchain": "metadata.source",
    "llamaindex": "metadata.file_path or metadata.file_name",
    "chonkie": "source_id, added beside chonkie's fields",
    "export": "metadata.source_id",
}


def read_chunk_records(
    path: Path,
    sources: tuple[dict, ...],
    folder: Path,
    manifest_label: str = "the manifest",
) -> tuple[ChunkRecord, ...]:
    """Every record of the JSON Lines file at ``path``, strictly read; one refusal names ``FILE:LINE``.

    Each line is one JSON object parsed with the lab's strict reader; a blank
    line (other than those after the last record) and a file mixing record shapes
    are refused, and so is a file over ``MAX_CHUNKS_BYTES`` or ``MAX_CHUNK_LINES``.
    ``manifest_label`` names the manifest when a record's source is not one of its own.
    """
    label = printable(str(path))
    text = json_text(read_bounded(path, MAX_CHUNKS_BYTES, label), label)
    lines = text.split("\n")
    # Blank lines after the last record (an editor's or a writer's trailing newlines) end the file; one between
    # records is refused below.
    while lines and (not lines[-1] or lines[-1].isspace()):
        lines.pop()
    if len(lines) > MAX_CHUNK_LINES:
        raise IngestionError("too_many_chunks", label, f"{len(lines):,} lines; at most {MAX_CHUNK_LINES:,}")
    if not lines:
        raise IngestionError("no_chunks", label, "the file holds no chunk records")
    resolver = SourceResolver(sources, folder, manifest_label)
    records = []
    # Nothing of a parsed line outlives its record, so strings are not shared between lines.
    parser = StrictParser(share_strings=False)
    for number, line in enumerate(lines, start=1):
        where = f"{label}:{number}"
        if not line or line.isspace():
            raise IngestionError("chunk_blank_line", where, "blank line; JSON Lines holds one JSON object per line")
        try:
            value = parser.parse(line, where)
        except IngestionError as error:
            raise line_refusal(error, where, text, lines) from error
        if type(value) is list and looks_like_one_document(text, lines):
            raise IngestionError(
                "chunk_not_object", where, f"expected a JSON object, found a list; {ONE_DOCUMENT_HINT}"
            )
        record = chunk_record(value, number, where, resolver)
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
    ``chunks.jsonl:1: column 2: ...``. A result or index the lab saved is
    named as such, without the column: it is valid JSON, only not chunks.
    """
    cause = error.__cause__
    if not isinstance(cause, json.JSONDecodeError):
        return error
    if is_lab_artifact(text):
        # The file is valid JSON, only not JSON Lines: the parser's complaint would mislead.
        return IngestionError(error.code, where, LAB_ARTIFACT_HINT)
    what = f"column {cause.colno}: {error.what}"
    if looks_like_one_document(text, lines):
        what += f"; {ONE_DOCUMENT_HINT}"
    elif where.endswith(f":{len(lines)}") and not text.endswith("\n") and ends_inside(error):
        # The last line, with no newline after it, runs out inside its JSON: the file was cut short there.
        what += f"; {CUT_SHORT_LINE_HINT}"
    return IngestionError(error.code, where, what)


CUT_SHORT_LINE_HINT = (
    "the file's last line ends inside its JSON, as a write interrupted or a copy cut short leaves it: "
    "write or copy the file again"
)


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
