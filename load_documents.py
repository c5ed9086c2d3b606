"""Load hash-pinned sources and read untrusted JSON strictly.

This module is the lab's only door for bytes from disk. It reads a manifest,
verifies each pinned source's raw bytes against its ``sha256`` *before* decoding
them, and hands the builder exactly the seven manifest fields plus ``text``.
It also holds the strict JSON reader that every saved artifact goes through and
the lab's one error type, ``IngestionError``.

It does not chunk, hash documents or judge spans: that is ``chunk_index``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_SOURCE_BYTES = 65_536
# A manifest is a short list of pins; a megabyte is far beyond any real one.
MAX_MANIFEST_BYTES = 1 << 20
# A saved result holds every chunk's text several times over, so it is far
# larger than its sources; this bound still stops a runaway file before parsing.
MAX_ARTIFACT_BYTES = 512 << 20
# The deepest saved format (result -> indexes -> index -> chunks -> chunk) is
# five levels; anything much deeper is not one of the lab's files.
MAX_JSON_DEPTH = 8
# Integers outside this range are read differently by different JSON readers.
MAX_JSON_INT = 2**53 - 1
# What json.loads can put in a container besides arrays and objects.
_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})

SOURCE_FIELDS = ("source_id", "path", "title", "sha256", "version", "url", "fact_status")
VERSION_PATTERN = re.compile(r"[0-9]+\.[0-9]+")
SHA256_PATTERN = re.compile(r"[0-9a-f]{64}")
MANIFEST_KEYS = frozenset({"sources", "span_checks"})
SPAN_CHECK_KEYS = frozenset({"name", "source_id", "instruction", "qualifier"})
SPAN_KEYS = frozenset({"start", "end", "quote"})


class IngestionError(Exception):
    """A refused input: a stable ``code``, the place (``where``) and what was wrong.

    ``str(error)`` is the one line the CLI prints, e.g.
    ``hash_mismatch: docs/aster-copy-v1.md (aster-copy-v1): manifest pins 3425…, file has 9f1c…``.
    """

    def __init__(self, code: str, where: str, what: str) -> None:
        super().__init__(f"{code}: {where}: {what}")
        self.code = code
        self.where = where
        self.what = what


def quoted(value: object, limit: int = 60) -> str:
    """Show an untrusted value as inert, one-line JSON, shortened to ``limit`` characters.

    ``ensure_ascii`` escapes every control and non-ASCII character, so a value
    can never move the terminal's cursor or pass for markup:
    ``quoted("a\\x1b[2J")`` -> ``'"a\\\\u001b[2J"'``.
    """
    try:
        text = json.dumps(value, ensure_ascii=True, sort_keys=True)
    except (TypeError, ValueError):
        text = f"<{type(value).__name__}>"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


# --- strict JSON -------------------------------------------------------------


def _object_builder(where: str):
    """The parser's ``object_pairs_hook``: refuse duplicate keys, share repeated strings.

    Neighbouring objects of a saved index repeat most of their strings (a
    chunk's source, version, revision, section id and title); each object
    takes the previous object's string where its own is equal, so a large
    result is not held as hundreds of thousands of copies of the same text.
    """
    previous: dict = {}

    def object_from_pairs(pairs: list[tuple[str, object]]) -> dict:
        nonlocal previous
        # dict() runs in C; only an object that lost a key to a duplicate is walked again.
        result = dict(pairs)
        if len(result) != len(pairs):
            seen = set()
            for key, _ in pairs:
                if key in seen:
                    raise IngestionError("json_duplicate_key", where, f"key {quoted(key)} appears twice in one object")
                seen.add(key)
        earlier_object = previous
        for key, value in pairs:
            # Strings only: 1 == True == 1.0 must never let one stand for another.
            if type(value) is str:
                earlier = earlier_object.get(key)
                if type(earlier) is str and earlier == value:
                    result[key] = earlier
        previous = result
        return result

    return object_from_pairs


def _refuse_constant(where: str):
    def parse_constant(name: str) -> object:
        raise IngestionError("json_number", where, f"{name} is not a JSON number")

    return parse_constant


def _finite_float(where: str):
    def parse_float(literal: str) -> float:
        value = float(literal)
        if not math.isfinite(value):
            raise IngestionError("json_number", where, f"number {literal[:40]} overflows a float")
        return value

    return parse_float


def checked_int(literal: str, where: str) -> int:
    """The value of a JSON integer literal, refused outside ±2**53-1."""
    # Up to 15 characters the value is below 10**15 < 2**53: the common case, checked no further.
    if len(literal) < 16:
        return int(literal)
    # Refuse on length before int() so a 100,000-digit literal costs nothing.
    if len(literal.lstrip("-")) > 16:
        raise IngestionError("json_number", where, f"integer {literal[:40]}… is too large")
    value = int(literal)
    if abs(value) > MAX_JSON_INT:
        raise IngestionError("json_number", where, f"integer {literal} is outside ±2**53-1")
    return value


class _CheckedInts(dict):
    """Integer literals already read in one document, each checked once.

    Used through ``__getitem__`` as the parser's ``parse_int``: a literal seen
    before is a lookup in C, and every chunk offset repeated across a saved
    result shares one int object instead of allocating its own.
    """

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def __missing__(self, literal: str) -> int:
        value = checked_int(literal, self.where)
        self[literal] = value
        return value


def _bounded_int(where: str):
    return _CheckedInts(where).__getitem__


def json_depth_exceeds(value: object, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` arrays/objects: ``[[1]]`` has depth 2."""
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        deeper = []
        for container in level:
            items = container.values() if isinstance(container, dict) else container
            # Most containers (a chunk, a span) hold only scalars: one C-level
            # pass over their item types skips them without a Python loop.
            if not _SCALAR_TYPES.issuperset(map(type, items)):
                deeper.extend(item for item in items if isinstance(item, (dict, list)))
        level = deeper
    return False


def parse_json_bytes(data: bytes, where: str) -> object:
    """Parse ``data`` as one strict JSON document or raise ``IngestionError``.

    Refused: a BOM, bytes that are not UTF-8, syntax errors and trailing data,
    duplicate keys, ``NaN``/``Infinity``, floats that overflow, integers outside
    ±2**53-1, and nesting deeper than ``MAX_JSON_DEPTH``.
    """
    text = json_text(data, where)
    # Where the caller keeps no reference (3.11 and later hand the argument
    # over), this frees the raw bytes before the parse builds its objects.
    del data
    return parse_json_text(text, where)


def json_text(data: bytes, where: str) -> str:
    """The text of a JSON file's bytes: strict UTF-8 without a byte order mark."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise IngestionError("json_bom", where, "file starts with a UTF-8 byte order mark; save it without one")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("json_encoding", where, f"byte {error.start} is not UTF-8") from error


def parse_json_text(text: str, where: str) -> object:
    """Parse decoded JSON ``text`` strictly; the refusals of ``parse_json_bytes`` after decoding."""
    try:
        value = json.loads(
            text,
            object_pairs_hook=_object_builder(where),
            parse_constant=_refuse_constant(where),
            parse_float=_finite_float(where),
            parse_int=_bounded_int(where),
        )
    except json.JSONDecodeError as error:
        code = "json_trailing_data" if error.msg == "Extra data" else "json_syntax"
        raise IngestionError(code, f"{where}:{error.lineno}:{error.colno}", error.msg) from error
    except RecursionError as error:
        raise IngestionError("json_too_deep", where, f"nesting exceeds {MAX_JSON_DEPTH} levels") from error
    if json_depth_exceeds(value, MAX_JSON_DEPTH):
        raise IngestionError("json_too_deep", where, f"nesting exceeds {MAX_JSON_DEPTH} levels")
    return value


def read_bounded(path: Path, limit: int, where: str) -> bytes:
    """Read at most ``limit`` bytes of a regular file; refuse a larger one unread."""
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise IngestionError("not_a_file", where, "is not a regular file")
            data = handle.read(limit + 1)
    except FileNotFoundError as error:
        raise IngestionError("file_missing", where, "no such file") from error
    except IsADirectoryError as error:
        raise IngestionError("not_a_file", where, "is a folder, not a file") from error
    except OSError as error:
        raise IngestionError("file_unreadable", where, error.strerror or str(error)) from error
    if len(data) > limit:
        raise IngestionError("file_too_large", where, f"larger than the {limit:,}-byte bound")
    return data


def read_json_file(path: Path, limit: int = MAX_ARTIFACT_BYTES) -> object:
    """Read and strictly parse the JSON file at ``path``, at most ``limit`` bytes."""
    where = str(path)
    # Decoded in a statement of its own, so the raw bytes are freed before the
    # parse builds its objects: a saved result runs to hundreds of MB, and a
    # caller's argument would otherwise live as long as the call.
    text = json_text(read_bounded(path, limit, where), where)
    return parse_json_text(text, where)


# --- the manifest and its sources --------------------------------------------


@dataclass(frozen=True)
class Span:
    """A half-open ``[start, end)`` span of a source's normalized text and the text it quotes."""

    start: int
    end: int
    quote: str

    def as_list(self) -> list[int]:
        return [self.start, self.end]


@dataclass(frozen=True)
class SpanCheck:
    """An instruction and the qualifier that must reach the reader with it."""

    name: str
    source_id: str
    instruction: Span
    qualifier: Span


@dataclass(frozen=True)
class Manifest:
    """What a manifest yields: sources as the builder takes them, and the span checks."""

    folder: Path
    sources: tuple[dict, ...]
    span_checks: tuple[SpanCheck, ...]

    def source_paths(self) -> tuple[Path, ...]:
        return tuple(self.folder / source["path"] for source in self.sources)


def normalize_newlines(text: str) -> str:
    """``"a\\r\\nb\\rc"`` -> ``"a\\nb\\nc"``: CRLF first, then any lone CR."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def check_text(text: str, where: str) -> None:
    """Refuse a normalized text the chunker cannot take: NUL or blank."""
    if "\x00" in text:
        raise IngestionError("nul_character", where, f"NUL character at offset {text.index(chr(0))}")
    if not text.strip():
        raise IngestionError("blank_text", where, "text is empty or only whitespace")


def checked_source_fields(entry: object, where: str) -> dict:
    """The seven manifest fields of one source entry, each a non-empty string."""
    if type(entry) is not dict:
        raise IngestionError("source_not_object", where, f"expected an object, found {type(entry).__name__}")
    unknown = sorted(set(entry) - set(SOURCE_FIELDS))
    if unknown:
        raise IngestionError("unknown_field", where, f"unexpected field {quoted(unknown[0])}; a source has exactly {', '.join(SOURCE_FIELDS)}")
    for field in SOURCE_FIELDS:
        if field not in entry:
            raise IngestionError("missing_field", where, f"field {quoted(field)} is missing")
        value = entry[field]
        if type(value) is not str:
            raise IngestionError("field_not_string", f"{where}.{field}", f"expected a string, found {type(value).__name__}")
        if not value:
            raise IngestionError("empty_field", f"{where}.{field}", "must not be empty")
    if not VERSION_PATTERN.fullmatch(entry["version"]):
        raise IngestionError("bad_version", f"{where}.version", f"{quoted(entry['version'])} is not MAJOR.MINOR with ASCII digits")
    if not SHA256_PATTERN.fullmatch(entry["sha256"]):
        raise IngestionError("bad_sha256", f"{where}.sha256", "expected 64 lowercase hex digits")
    return {field: entry[field] for field in SOURCE_FIELDS}


def resolve_source_path(folder: Path, relative: str, where: str) -> Path:
    """The file ``relative`` names inside ``folder``: never absolute, never outside, no links.

    Every component from ``folder`` down is checked with ``lstat``, so a link
    anywhere on the path is refused rather than followed.
    """
    pure = PurePosixPath(relative)
    if pure.is_absolute() or relative.startswith("\\") or re.match(r"[A-Za-z]:", relative):
        raise IngestionError("path_absolute", where, f"{quoted(relative)} must be relative to the manifest's folder")
    parts = [part for part in pure.parts if part != "."]
    if ".." in parts:
        raise IngestionError("path_outside", where, f"{quoted(relative)} leaves the manifest's folder")
    current = folder
    for index, part in enumerate(parts):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError as error:
            raise IngestionError("source_missing", where, f"{quoted(relative)} does not exist") from error
        except OSError as error:
            raise IngestionError("source_unreadable", where, f"{quoted(relative)}: {error.strerror}") from error
        if stat.S_ISLNK(mode):
            raise IngestionError("path_link", where, f"{quoted('/'.join(parts[: index + 1]))} is a link; pin the file itself")
        is_last = index == len(parts) - 1
        if is_last and not stat.S_ISREG(mode):
            raise IngestionError("source_not_file", where, f"{quoted(relative)} is not a regular file")
    if not parts:
        raise IngestionError("source_not_file", where, f"{quoted(relative)} names the manifest's folder")
    return current


def read_pinned_text(folder: Path, source: dict, where: str) -> str:
    """The normalized text of one pinned source, its raw bytes verified first.

    Order matters: size bound, then the hash over the raw bytes, and only
    then decoding, so an edited file is refused before any of it is trusted.
    """
    path = resolve_source_path(folder, source["path"], where)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise IngestionError("source_unreadable", where, f"{quoted(source['path'])}: {error.strerror}") from error
    with os.fdopen(descriptor, "rb") as handle:
        raw = handle.read(MAX_SOURCE_BYTES + 1)
    if len(raw) > MAX_SOURCE_BYTES:
        raise IngestionError("source_too_large", where, f"{quoted(source['path'])} is over {MAX_SOURCE_BYTES:,} bytes")
    actual = hashlib.sha256(raw).hexdigest()
    if actual != source["sha256"]:
        raise IngestionError(
            "hash_mismatch",
            where,
            f"{quoted(source['path'])}: manifest pins {source['sha256'][:12]}…, file has {actual[:12]}…; "
            "re-pin only if the edit is intended",
        )
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("not_utf8", where, f"{quoted(source['path'])}: byte {error.start} is not UTF-8") from error
    text = normalize_newlines(decoded)
    check_text(text, where)
    return text


def source_label(entry: object, index: int) -> str:
    """``sources[0] (aster-copy-v1)``: where a source sits in the manifest, and its name if it has one."""
    label = f"sources[{index}]"
    if type(entry) is dict and type(entry.get("source_id")) is str and entry["source_id"]:
        label += f" ({quoted(entry['source_id'])})"
    return label


def checked_span(value: object, text: str, where: str) -> Span:
    """A span check's ``{"start", "end", "quote"}``, confirmed against the loaded text."""
    if type(value) is not dict:
        raise IngestionError("span_not_object", where, f"expected an object with start, end and quote, found {type(value).__name__}")
    if set(value) != SPAN_KEYS:
        raise IngestionError("span_fields", where, f"expected exactly start, end and quote, found {', '.join(sorted(value)) or 'nothing'}")
    start, end, quote = value["start"], value["end"], value["quote"]
    if type(start) is not int or type(end) is not int:
        raise IngestionError("span_not_int", where, "start and end must be whole numbers")
    if type(quote) is not str or not quote:
        raise IngestionError("span_quote", where, "quote must be a non-empty string")
    if not 0 <= start < end <= len(text):
        raise IngestionError("span_out_of_range", where, f"[{start}, {end}) is not inside the text of {len(text)} characters")
    found = text[start:end]
    if found != quote:
        raise IngestionError("stale_span_check", where, f"text at [{start}, {end}) is {quoted(found)}, the manifest quotes {quoted(quote)}")
    return Span(start, end, quote)


def checked_span_check(value: object, texts: dict[str, str], where: str) -> SpanCheck:
    """One entry of ``span_checks``: a name, a loaded source and two confirmed spans."""
    if type(value) is not dict:
        raise IngestionError("span_check_not_object", where, f"expected an object, found {type(value).__name__}")
    if set(value) != SPAN_CHECK_KEYS:
        raise IngestionError("span_check_fields", where, f"expected exactly {', '.join(sorted(SPAN_CHECK_KEYS))}")
    name, source_id = value["name"], value["source_id"]
    if type(name) is not str or not name:
        raise IngestionError("span_check_name", where, "name must be a non-empty string")
    if type(source_id) is not str or source_id not in texts:
        raise IngestionError("span_check_source", where, f"source_id {quoted(source_id)} is not a source of this manifest")
    text = texts[source_id]
    instruction = checked_span(value["instruction"], text, f"{where}.instruction")
    qualifier = checked_span(value["qualifier"], text, f"{where}.qualifier")
    return SpanCheck(name, source_id, instruction, qualifier)


def load_manifest(manifest_path: Path) -> Manifest:
    """Load a manifest, verify every pinned source and confirm its span checks.

    Sources come back sorted by ``source_id``, each as exactly the seven
    manifest fields plus ``text``: every key takes part in the document
    revision, so nothing else may ride along.
    """
    manifest_path = Path(manifest_path)
    label = str(manifest_path)
    value = parse_json_bytes(read_bounded(manifest_path, MAX_MANIFEST_BYTES, label), label)
    if type(value) is not dict:
        raise IngestionError("manifest_not_object", label, f"expected an object, found {type(value).__name__}")
    unknown = sorted(set(value) - MANIFEST_KEYS)
    if unknown:
        raise IngestionError("unknown_field", label, f"unexpected top-level field {quoted(unknown[0])}; expected sources and span_checks")
    entries = value.get("sources")
    if type(entries) is not list or not entries:
        raise IngestionError("no_sources", f"{label}: sources", "expected a non-empty list of sources")
    folder = manifest_path.parent
    sources = []
    seen: dict[str, dict[str, str]] = {"source_id": {}, "path": {}}
    for index, entry in enumerate(entries):
        where = f"{label}: {source_label(entry, index)}"
        source = checked_source_fields(entry, where)
        for field, owners in seen.items():
            key = source[field] if field == "source_id" else PurePosixPath(source[field]).as_posix()
            if key in owners:
                raise IngestionError(f"duplicate_{field}", where, f"{field} {quoted(source[field])} is also {owners[key]}")
            owners[key] = f"sources[{index}]"
        source["text"] = read_pinned_text(folder, source, where)
        sources.append(source)
    sources.sort(key=lambda source: source["source_id"])
    texts = {source["source_id"]: source["text"] for source in sources}
    checks = value.get("span_checks", [])
    if type(checks) is not list:
        raise IngestionError("span_checks_not_list", f"{label}: span_checks", "expected a list")
    span_checks = tuple(
        checked_span_check(check, texts, f"{label}: span_checks[{index}]") for index, check in enumerate(checks)
    )
    names = [check.name for check in span_checks]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise IngestionError("duplicate_span_check", f"{label}: span_checks[{index}]", f"name {quoted(name)} is used twice")
    return Manifest(folder, tuple(sources), span_checks)
