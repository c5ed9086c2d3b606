"""Read untrusted JSON strictly: manifests, saved results and indexes, chunk files.

One strict reader for every JSON file the lab takes in. Refused, each with
a code and the place: a byte order mark, bytes that are not UTF-8, syntax
errors and trailing data, duplicate keys, ``NaN``/``Infinity``, floats that
overflow, integers outside ±2**53-1, nesting deeper than ``MAX_JSON_DEPTH``,
lone surrogates and files over a size bound (read no further than it).

It knows nothing of what the values mean: that is ``load_documents`` (the
manifest) and ``validate`` (saved results).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from lab_io.errors import IngestionError, printable, quoted_name

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
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


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
        result = _unshared_object(pairs, where)
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


def _unshared_object(pairs: list[tuple[str, object]], where: str = "") -> dict:
    """An object from its pairs, refusing a duplicate key: the hook without ``_object_builder``'s sharing."""
    # dict() runs in C; only an object that lost a key to a duplicate is walked again.
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise IngestionError("json_duplicate_key", where, f"key {quoted_name(key)} appears twice in one object")
            seen.add(key)
    return result


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


def holds_lone_surrogate(value: object) -> bool:
    """Whether any key or string in ``value`` holds a surrogate no UTF-8 can encode."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
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
    return StrictParser().parse(text, where)


class StrictParser:
    """The strict reader, built once and used for many documents: the lines of a JSON Lines file.

    ``parse(text, where)`` refuses what ``parse_json_text`` refuses, with the
    same codes. Building a decoder and its hooks costs about as much as
    parsing a short line, so a file of 500,000 lines builds them once; the
    hooks' refusals are placed at the ``where`` of the text being parsed.
    ``share_strings=False`` skips ``_object_builder``'s sharing of repeated
    strings, for documents whose values do not outlive their reading.
    """

    def __init__(self, share_strings: bool = True) -> None:
        self.decoder = json.JSONDecoder(
            object_pairs_hook=_object_builder("") if share_strings else _unshared_object,
            parse_constant=_refuse_constant(""),
            parse_float=_finite_float(""),
            parse_int=_bounded_int(""),
        )

    def parse(self, text: str, where: str) -> object:
        try:
            if text.startswith("\ufeff"):
                # What json.loads says of a decoded text that still starts with a byte order mark.
                raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
            value = self.decoder.decode(text)
        except json.JSONDecodeError as error:
            code = "json_trailing_data" if error.msg == "Extra data" else "json_syntax"
            raise IngestionError(code, f"{where}:{error.lineno}:{error.colno}", parser_complaint(error.msg)) from error
        except RecursionError as error:
            raise IngestionError("json_too_deep", where, f"nesting exceeds {MAX_JSON_DEPTH} levels") from error
        except IngestionError as error:
            raise IngestionError(error.code, where, error.what) from None
        # A text with no more brackets than the bound cannot nest deeper: the walk only for the others.
        brackets = text.count("{") + text.count("[")
        if brackets > MAX_JSON_DEPTH and json_depth_exceeds(value, MAX_JSON_DEPTH):
            raise IngestionError("json_too_deep", where, f"nesting exceeds {MAX_JSON_DEPTH} levels")
        # Raw UTF-8 cannot hold a lone surrogate, only a \uD8xx escape can: look
        # for one in the text first so an ordinary file costs a single regex scan.
        if SURROGATE_ESCAPE.search(text) and holds_lone_surrogate(value):
            raise IngestionError(
                "json_surrogate", where, "a string holds a lone surrogate (\\uD800-\\uDFFF), which is not text"
            )
        return value


def parser_complaint(message: str) -> str:
    """The JSON parser's complaint ``message`` as a whole phrase about the place the refusal names.

    Two of its messages end in "at" because the parser adds the position after
    them ("Unterminated string starting at: line 2 column 10 (char 51)"); the
    lab names the position in the refusal's place instead, so the phrase ends
    "here": "Unterminated string starting here", "Invalid control character here".
    """
    if message.endswith(" at"):
        return f"{message[:-3]} here"
    return message


def ends_inside(error: IngestionError) -> bool:
    """Whether a syntax refusal of the strict reader is the text running out inside its JSON: a file cut short.

    So it is when a string is never closed (the parser's "Unterminated string", which it says only at the end of
    the text) or when the complaint falls at the very end of what the text holds (``{"a": 1,`` then nothing).
    """
    cause = error.__cause__
    if error.code != "json_syntax" or not isinstance(cause, json.JSONDecodeError):
        return False
    return cause.msg.startswith("Unterminated string") or cause.pos >= len(cause.doc.rstrip())


def too_large(limit: int, where: str) -> IngestionError:
    """The refusal of a file over its bound, read or not."""
    return IngestionError("file_too_large", where, f"larger than the {limit:,}-byte bound")


def read_bounded(path: Path, limit: int, where: str) -> bytes:
    """Read at most ``limit`` bytes of a regular file; refuse a larger one unread.

    A read of n bytes sets n bytes aside first: it asks for the file's size and one more (a file that grew meanwhile
    is read on, to the bound), so a 200 KB manifest does not claim its 64 MiB bound, nor a result validate's.
    """
    with regular_file(path, where) as handle:
        expected = os.fstat(handle.fileno()).st_size
        if expected > limit:
            # Refused unread: its size says so.
            raise too_large(limit, where)
        data = handle.read(expected + 1)
        if len(data) > expected and expected < limit:
            data += handle.read(limit + 1 - len(data))
    if len(data) > limit:
        raise too_large(limit, where)
    return data


def bounded_blocks(path: Path, limit: int, where: str, block_bytes: int = 1 << 20) -> Iterator[bytes]:
    """The bytes of a regular file, ``block_bytes`` at a time, refused as ``read_bounded`` refuses it.

    For a reader that keeps only part of a large file: it is never held whole.
    A file whose size is over ``limit`` is refused unread; one that grows past it while read, once its reading passes
    the bound.
    """
    read = 0
    with regular_file(path, where) as handle:
        if os.fstat(handle.fileno()).st_size > limit:
            raise too_large(limit, where)
        while True:
            block = handle.read(block_bytes)
            if not block:
                return
            read += len(block)
            if read > limit:
                raise too_large(limit, where)
            yield block


@contextlib.contextmanager
def regular_file(path: Path, where: str) -> Iterator[io.BufferedReader]:
    """``path`` opened for reading bytes, refused unless it is a readable regular file; a failed read is refused too."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before fstat refuses it.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise IngestionError("not_a_file", where, "is not a regular file")
            yield handle
    except FileNotFoundError as error:
        raise IngestionError("file_missing", where, "no such file") from error
    except IsADirectoryError as error:
        raise IngestionError("not_a_file", where, "is a folder, not a file") from error
    except OSError as error:
        raise IngestionError("file_unreadable", where, error.strerror or str(error)) from error


def read_json_file(path: Path, limit: int = MAX_ARTIFACT_BYTES) -> object:
    """Read and strictly parse the JSON file at ``path``, at most ``limit`` bytes."""
    where = printable(str(path))
    # Decoded in a statement of its own, so the raw bytes are freed before the
    # parse builds its objects: a saved result runs to hundreds of MB, and a
    # caller's argument would otherwise live as long as the call.
    text = json_text(read_bounded(path, limit, where), where)
    return parse_json_text(text, where)
