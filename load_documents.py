"""Load hash-pinned sources: the manifest, its pins, and the text the builder gets.

This module is the lab's only door for source bytes from disk. It reads a
manifest, verifies each pinned source's raw bytes against its ``sha256``
*before* decoding them, and hands the builder exactly the seven manifest
fields plus ``text``. Span checks are read and located in that text here too.

It does not chunk, hash documents or judge spans: that is ``chunk_index`` and
``span_checks``. Strict JSON reading is ``strict_json``; the error type is ``errors``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from bisect import bisect_right
from collections import namedtuple
from pathlib import Path, PurePosixPath

from grammars import BLOCK_GRAMMARS, GRAMMARS, LESSON_GRAMMAR
from lab_io.errors import IngestionError, counted, first_few, json_type, parting, printable, quoted, quoted_name
from lab_io.strict_json import ends_inside, parse_json_bytes, read_bounded


class Bounds(namedtuple("Bounds", ("source_bytes", "manifest_bytes", "folder_files"))):
    """What one manifest may hold: bytes per source, bytes of the manifest itself, files a folder pin takes."""

    __slots__ = ()


# The lesson's bounds, for a manifest read with the lesson grammar: a page of the
# tiny grammar and a short list of pins.
LESSON_BOUNDS = Bounds(source_bytes=65_536, manifest_bytes=1 << 20, folder_files=2_000)
# The block grammars read whole docs sets: a generated reference or a release-notes
# page of several MiB, tens of thousands of pages, a manifest of tens of MiB holding
# their pins and thousands of span checks. Each bound is read, hashed and parsed in
# one pass, so the cost stays linear up to it.
DOCS_SET_BOUNDS = Bounds(source_bytes=8 << 20, manifest_bytes=64 << 20, folder_files=50_000)
MAX_SOURCE_BYTES = LESSON_BOUNDS.source_bytes
MAX_MANIFEST_BYTES = LESSON_BOUNDS.manifest_bytes

SOURCE_FIELDS = ("source_id", "path", "title", "sha256", "version", "url", "fact_status")
VERSION_PATTERN = re.compile(r"[0-9]+\.[0-9]+")
SHA256_PATTERN = re.compile(r"[0-9a-f]{64}")
MANIFEST_KEYS = frozenset({"sources", "span_checks", "markdown", "policies"})
# The policies whose size a manifest may set ("policies": {...}); paragraph has none.
# pair-aware is built only when the manifest sets its size.
SIZED_POLICIES = ("fixed-char", "heading-aware", "pair-aware")
# A size is a whole number of characters; past the largest lesson source it cannot change a cut
# there, and a docs set's chunks of 64 K characters are already far past any embedding model's input.
MIN_POLICY_SIZE = 1
MAX_POLICY_SIZE = 65_536
# Dropped from the start of a decoded text under the block grammar only (see decode_source_text).
BYTE_ORDER_MARK = "\ufeff"
SPAN_CHECK_KEYS = frozenset({"name", "source_id", "instruction", "qualifier"})
# A span check may also give the question a user would ask (``run.py retrieve`` ranks chunks for it).
SPAN_CHECK_OPTIONAL_KEYS = frozenset({"query"})
# What a query must hold to match any chunk: a word as docs/retrieval.md tokenizes text.
QUERY_WORD = re.compile(r"\w")
SPAN_KEYS = frozenset({"start", "end", "quote"})
# A span may give the quote alone, to be located in its source, and may name its source.
SPAN_QUOTE_ONLY_KEYS = frozenset({"quote"})
SPAN_SOURCE_KEY = frozenset({"source_id"})


# --- the manifest and its sources --------------------------------------------


# Records are named tuples (see ``grammars``): no dataclasses import on every run.
class Span(namedtuple("Span", ("start", "end", "quote"))):
    """A half-open ``[start, end)`` span of a source's normalized text and the text it quotes."""

    __slots__ = ()

    def as_list(self) -> list[int]:
        return [self.start, self.end]


class SpanCheck(namedtuple("SpanCheck", ("name", "source_id", "instruction", "qualifier", "query"), defaults=(None,))):
    """An instruction and the qualifier that must reach the reader with it (both a ``Span``).

    ``query`` is the check's own question for retrieval, or ``None`` when it
    gives none (retrieval then asks with the instruction's text).
    """

    __slots__ = ()


class Manifest(
    namedtuple(
        "Manifest", ("folder", "sources", "span_checks", "grammar", "policy_sizes"), defaults=(LESSON_GRAMMAR, ())
    )
):
    """What a manifest yields: its folder (a ``Path``), sources as the builder takes them, the span checks, the grammar and sizes.

    ``policy_sizes`` holds only the sizes the manifest sets, as
    ``(("heading-aware", 288),)``; ``chunk_index.manifest_configs`` fills in
    the lesson's for the others and turns them into configs.
    """

    __slots__ = ()

    def source_paths(self) -> tuple[Path, ...]:
        return tuple(self.folder / source["path"] for source in self.sources)


def grammar_bounds(grammar: object) -> Bounds:
    """The bounds of a manifest read with ``grammar``: the lesson's own, or a docs set's under any block grammar.

    ``grammar_bounds("lesson").source_bytes`` -> ``65536``; ``grammar_bounds("blocks-2").source_bytes`` -> ``8388608``.
    """
    return LESSON_BOUNDS if grammar == LESSON_GRAMMAR else DOCS_SET_BOUNDS


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
        raise IngestionError("source_not_object", where, f"expected an object, found {json_type(entry)}")
    unknown = sorted(set(entry) - set(SOURCE_FIELDS))
    if unknown:
        raise IngestionError(
            "unknown_field",
            where,
            f"unexpected field {quoted_name(unknown[0])}; a source has exactly {', '.join(SOURCE_FIELDS)}",
        )
    for field in SOURCE_FIELDS:
        if field not in entry:
            raise IngestionError("missing_field", where, f"field {quoted_name(field)} is missing")
        value = entry[field]
        if type(value) is not str:
            raise IngestionError("field_not_string", f"{where}.{field}", f"expected a string, found {json_type(value)}")
        if not value:
            raise IngestionError("empty_field", f"{where}.{field}", "must not be empty")
    if not VERSION_PATTERN.fullmatch(entry["version"]):
        raise IngestionError(
            "bad_version", f"{where}.version", f"{quoted(entry['version'])} is not MAJOR.MINOR with ASCII digits"
        )
    if not SHA256_PATTERN.fullmatch(entry["sha256"]):
        raise IngestionError("bad_sha256", f"{where}.sha256", "expected 64 lowercase hex digits")
    return {field: entry[field] for field in SOURCE_FIELDS}


def relative_path_parts(relative: str, where: str) -> list[str]:
    """The components of a source path that stays inside the manifest's folder.

    Pure: no file is touched, so saved documents are held to the same rule.
    ``relative_path_parts("docs/./a.md", w)`` -> ``["docs", "a.md"]``; absolute
    paths, ``..`` and control characters are refused.
    """
    if not relative.isprintable():
        # A name the file system gave as bytes that are not UTF-8 comes as lone surrogates (U+DC80 to U+DCFF).
        undecodable = any("\udc80" <= character <= "\udcff" for character in relative)
        what = "holds bytes that are not UTF-8" if undecodable else "holds a control or format character"
        raise IngestionError("path_unprintable", where, f"{quoted_name(relative)} {what}")
    pure = PurePosixPath(relative)
    if pure.is_absolute() or relative.startswith("\\") or re.match(r"[A-Za-z]:[\\/]", relative):
        raise IngestionError(
            "path_absolute", where, f"{quoted_name(relative)} must be relative to the manifest's folder"
        )
    parts = [part for part in pure.parts if part != "."]
    if ".." in parts:
        raise IngestionError("path_outside", where, f"{quoted_name(relative)} leaves the manifest's folder")
    if not parts:
        raise IngestionError("source_not_file", where, f"{quoted_name(relative)} names the manifest's folder")
    return parts


LINK_HINT = (
    "the lab follows no link: keep the manifest in a folder that holds the files themselves "
    "(e.g. at the docs repository's root) and pin them from there"
)


def sought_at(folder: Path, relative: str) -> str:
    """Where a missing source was looked for, when that is not the path as written: ``" (sought at
    bad/site/README.md: a source's path is relative to the manifest's folder)"``, from the current folder when
    inside it; ``""`` when the manifest's folder is the current one."""
    try:
        here = Path.cwd()
        if folder.resolve() == here:
            return ""
        sought = os.path.relpath(folder.resolve() / relative, here)
        if sought.startswith(".."):
            sought = str(folder.resolve() / relative)
    except OSError:
        return ""
    return f" (sought at {quoted_name(sought)}: a source's path is relative to the manifest's folder)"


def resolve_source_path(folder: Path, relative: str, where: str) -> Path:
    """The file ``relative`` names inside ``folder``: never absolute, never outside, no links.

    Every component from ``folder`` down is checked with ``lstat``, so a link
    anywhere on the path is refused rather than followed.
    """
    parts = relative_path_parts(relative, where)
    current = folder
    for index, part in enumerate(parts):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError as error:
            raise IngestionError(
                "source_missing", where, f"{quoted_name(relative)} does not exist{sought_at(folder, relative)}"
            ) from error
        except OSError as error:
            raise IngestionError("source_unreadable", where, f"{quoted_name(relative)}: {error.strerror}") from error
        if stat.S_ISLNK(mode):
            raise IngestionError(
                "path_link", where, f"{quoted_name('/'.join(parts[: index + 1]))} is a link; {LINK_HINT}"
            )
        is_last = index == len(parts) - 1
        if is_last and not stat.S_ISREG(mode):
            raise IngestionError("source_not_file", where, f"{quoted_name(relative)} is not a regular file")
    return current


def read_source_bytes(folder: Path, relative: str, where: str, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """The raw bytes of the source file ``relative`` names, read without following links.

    Reads at most ``limit`` (the grammar's ``source_bytes``) plus one byte, so a huge file is refused unread.
    """
    path = resolve_source_path(folder, relative, where)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise IngestionError("source_unreadable", where, f"{quoted_name(relative)}: {error.strerror}") from error
    with os.fdopen(descriptor, "rb") as handle:
        # A read of n bytes sets n bytes aside first: asked for the file's size and one more (a file that grew
        # meanwhile is read on, to the bound), a docs set's pages do not each claim the 8 MiB bound.
        expected = min(os.fstat(handle.fileno()).st_size, limit)
        raw = handle.read(expected + 1)
        if len(raw) > expected and expected < limit:
            raw += handle.read(limit - expected)
    if len(raw) > limit:
        raise IngestionError("source_too_large", where, f"{quoted_name(relative)} is over {limit:,} bytes")
    return raw


def decode_source_text(raw: bytes, relative: str, where: str, grammar: str = LESSON_GRAMMAR) -> str:
    """Verified raw bytes as the normalized text the chunker takes: strict UTF-8, ``\\n`` line ends.

    Under the block grammars one leading byte order mark is dropped here, with
    line endings, after the hash check: ``sha256`` still pins the raw bytes,
    mark included. The lesson grammar keeps it (and refuses the text for not
    opening with a heading), so the lesson's texts never change.
    """
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("not_utf8", where, f"{quoted_name(relative)}: byte {error.start} is not UTF-8") from error
    if grammar in BLOCK_GRAMMARS and decoded.startswith(BYTE_ORDER_MARK):
        decoded = decoded[len(BYTE_ORDER_MARK) :]
    text = normalize_newlines(decoded)
    check_text(text, where)
    return text


def read_pinned_bytes(folder: Path, source: dict, where: str, grammar: str = LESSON_GRAMMAR) -> bytes:
    """The raw bytes of one pinned source (at most its grammar's bound), refused (``hash_mismatch``) unless they hash to its pin."""
    raw = read_source_bytes(folder, source["path"], where, grammar_bounds(grammar).source_bytes)
    actual = hashlib.sha256(raw).hexdigest()
    if actual != source["sha256"]:
        pinned, found = differing_prefixes(source["sha256"], actual)
        raise IngestionError(
            "hash_mismatch",
            where,
            f"{quoted_name(source['path'])}: manifest pins {pinned}, file has {found}; "
            "re-pin (pin --reanchor, which moves its span checks with their quotes) only if the edit is intended",
        )
    return raw


def differing_prefixes(pinned: str, actual: str, shown: int = 12) -> tuple[str, str]:
    """The two digests as short as ``shown`` hex digits, or as long as it takes for them to differ: a pin edited by
    hand in its last digit is shown in full, not as two equal prefixes. A digest cut short ends with ``…``."""
    length = max(shown, next((n for n, (a, b) in enumerate(zip(pinned, actual)) if a != b), len(pinned)) + 1)
    return tuple(digest[:length] + ("…" if length < len(digest) else "") for digest in (pinned, actual))


def read_pinned_text(folder: Path, source: dict, where: str, grammar: str = LESSON_GRAMMAR) -> str:
    """The normalized text of one pinned source, its raw bytes verified first.

    Order matters: size bound, then the hash over the raw bytes, and only
    then decoding, so an edited file is refused before any of it is trusted.
    """
    return decode_source_text(read_pinned_bytes(folder, source, where, grammar), source["path"], where, grammar)


def read_file_text(folder: Path, source: dict, where: str, grammar: str = LESSON_GRAMMAR) -> str:
    """One pinned source decoded as a program reading the file sees it: byte order mark and ``\\r`` kept.

    What ``open(path, encoding="utf-8", newline="")`` returns; ``judge``
    maps the offsets of splitters that counted these characters to the
    normalized text. Verified against the pin like ``read_pinned_text``.
    """
    raw = read_pinned_bytes(folder, source, where, grammar)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError(
            "not_utf8", where, f"{quoted_name(source['path'])}: byte {error.start} is not UTF-8"
        ) from error


def source_label(entry: object, index: int) -> str:
    """``sources[0] (aster-copy-v1)``: where a source sits in the manifest, and its name if it has one."""
    label = f"sources[{index}]"
    if type(entry) is dict and type(entry.get("source_id")) is str and entry["source_id"]:
        label += f" ({quoted_name(entry['source_id'])})"
    return label


def quote_offsets(text: str, quote: str) -> list[int]:
    """Every offset where ``quote`` starts in ``text``, overlapping ones included.

    ``quote_offsets("aaa", "aa")`` -> ``[0, 1]``: two places, so ``"aa"`` alone
    does not say which one a span check means.
    """
    offsets = []
    position = text.find(quote)
    while position != -1:
        offsets.append(position)
        position = text.find(quote, position + 1)
    return offsets


def describe_occurrences(offsets: list[int], length: int) -> str:
    """``"occurs 2 times, at [3, 7), [9, 13)"``: where a quote sits, for a refusal (first five shown)."""
    if not offsets:
        return "occurs 0 times"
    shown = ", ".join(f"[{offset}, {offset + length})" for offset in offsets[:5])
    more = ", …" if len(offsets) > 5 else ""
    times = "once" if len(offsets) == 1 else f"{len(offsets):,} times"
    return f"occurs {times}, at {shown}{more}"


def located_span(quote: str, text: str, source_id: str, where: str) -> Span:
    """The one place ``quote`` occurs in ``text``; refused with the count when it is not exactly one."""
    offsets = quote_offsets(text, quote)
    if not offsets:
        raise IngestionError(
            "quote_not_found",
            where,
            f"{quoted(quote)} occurs 0 times in {quoted_name(source_id)}{loose_hint(quote, text)}",
        )
    if len(offsets) > 1:
        raise IngestionError(
            "quote_ambiguous",
            where,
            f"{quoted(quote)} {describe_occurrences(offsets, len(quote))} in {quoted_name(source_id)}; give start and end to pick one",
        )
    return Span(offsets[0], offsets[0] + len(quote), quote)


def loose_hint(quote: str, text: str) -> str:
    """For a quote not found: where it occurs once with its white space read loosely (a line break where the quote
    has a space), as the text has it, so the check can quote that; else nothing. A span check's quote is the
    text's own characters: read loosely, one check could hold a different span after a re-pin.

    Linear in the text, in C calls: each run of white space becomes one space, the collapsed quote is looked for as
    ``quote_offsets`` looks (overlapping places counted), and the one place is mapped back through the runs that
    collapsing shortened (``COLLAPSED_RUN``).
    """
    wanted = " ".join(quote.split())
    if not wanted:
        return ""
    places = quote_offsets(re.sub(r"\s+", " ", text), wanted)
    if len(places) != 1:
        return ""
    # Each run collapsing changed: its start in the collapsed text, its start in the text, and the shift after it.
    starts, runs, shift = [], [], 0
    last = places[0] + len(wanted)
    for run in COLLAPSED_RUN.finditer(text):
        if run.start() - shift > last:
            # (Runs past the place found move none of its offsets.)
            break
        starts.append(run.start() - shift)
        shift += run.end() - run.start() - 1
        runs.append((run.start(), shift))

    def original(position: int) -> int:
        index = bisect_right(starts, position) - 1
        if index < 0:
            return position
        run_start, after = runs[index]
        return run_start if position == starts[index] else position + after

    start, end = original(places[0]), original(places[0] + len(wanted) - 1) + 1
    line = text.count("\n", 0, start) + 1
    return (
        f"; with its white space read loosely it occurs once, at [{start}, {end}) (line {line}), "
        f"as {quoted(text[start:end])}: quote that"
    )


# A run of white space that collapsing to one space changes: two or more characters, or one that is not a space.
COLLAPSED_RUN = re.compile(r"\s{2,}|[^\S ]")


def checked_span(value: object, text: str, where: str, source_id: str = "the source") -> Span:
    """A span check's ``{"start", "end", "quote"}`` or ``{"quote"}``, confirmed against the loaded text.

    With ``start`` and ``end`` the text there must equal the quote; with the
    quote alone it must occur exactly once and its place becomes the span.
    A span may also name its ``source_id`` (checked by ``checked_span_check``).
    """
    if type(value) is not dict:
        raise IngestionError(
            "span_not_object", where, f"expected an object with start, end and quote, found {json_type(value)}"
        )
    keys = set(value)
    located_keys = keys - SPAN_SOURCE_KEY
    if located_keys not in (SPAN_KEYS, SPAN_QUOTE_ONLY_KEYS):
        raise IngestionError(
            "span_fields",
            where,
            f"expected start, end and quote, or quote alone (and optionally source_id), found {', '.join(sorted(keys)) or 'nothing'}",
        )
    quote = value["quote"]
    if type(quote) is not str or not quote:
        raise IngestionError("span_quote", where, "quote must be a non-empty string")
    if located_keys == SPAN_QUOTE_ONLY_KEYS:
        return located_span(quote, text, source_id, where)
    start, end = value["start"], value["end"]
    if type(start) is not int or type(end) is not int:
        raise IngestionError("span_not_int", where, "start and end must be whole numbers")
    if not 0 <= start < end <= len(text):
        # Most often a page cut shorter under its span: say where the quote is now, as a stale span does.
        now = describe_occurrences(quote_offsets(text, quote), len(quote))
        if 0 <= end <= start <= len(text):
            # Both inside the text, the wrong way round or empty: that, not the text's length, is what is wrong.
            what = f"[{start}, {end}) is reversed or empty: end must come after start"
        else:
            what = f"[{start}, {end}) is not inside the text of {len(text):,} characters"
        raise IngestionError("span_out_of_range", where, f"{what}; its quote {now}")
    found = text[start:end]
    if found != quote:
        # Say where the quote went, so an edited source is one span fix away from loading again.
        now = describe_occurrences(quote_offsets(text, quote), len(quote))
        raise IngestionError("stale_span_check", where, f"{stale_text(found, quote, start, end)}, which {now}")
    return Span(start, end, quote)


def stale_text(found: str, quote: str, start: int, end: int) -> str:
    """What a span's offsets hold instead of its quote: both whole when short, else from where they part.

    ``'text at [3, 7) is "ab c", the manifest quotes "abcd"'``; for texts past 60
    characters, ``'text at [500, 600) parts from the manifest's quote at offset 581: the
    text has …"…"…, the quote …"…"…'``, the offset in the source's text.
    """
    if len(found) <= 60 and len(quote) <= 60:
        return f"text at [{start}, {end}) is {quoted(found)}, the manifest quotes {quoted(quote)}"
    offset, shown_found, shown_quote = parting(found, quote)
    return (
        f"text at [{start}, {end}) parts from the manifest's quote at offset {start + offset}: "
        f"the text has {shown_found}, the quote {shown_quote}"
    )


def span_source_id(value: object, check_source_id: str) -> str:
    """The source a span names with its own ``source_id``, or the check's when it names none."""
    if type(value) is dict and "source_id" in value:
        return value["source_id"]
    return check_source_id


def named_entry(value: object) -> str:
    """`` ("scan:docs/faq:227")`` for an entry that has a name, so a refusal says which check it is without the
    manifest open; ``""`` for one that has none (which its own refusal then names)."""
    name = value.get("name") if type(value) is dict else None
    return f" ({quoted_name(name)})" if type(name) is str and name else ""


def checked_span_check(value: object, texts: dict[str, str], where: str) -> SpanCheck:
    """One entry of ``span_checks``: a name, a loaded source and two confirmed spans.

    Both spans must sit in the check's source: no chunk crosses a source, so a
    pair split across two sources could never share one and is refused here.
    """
    if type(value) is not dict:
        raise IngestionError("span_check_not_object", where, f"expected an object, found {json_type(value)}")
    if not SPAN_CHECK_KEYS <= set(value) <= SPAN_CHECK_KEYS | SPAN_CHECK_OPTIONAL_KEYS:
        raise IngestionError(
            "span_check_fields",
            where,
            f"expected exactly {', '.join(sorted(SPAN_CHECK_KEYS))}, and optionally query, "
            f"found {', '.join(sorted(value)) or 'nothing'}",
        )
    name, source_id = value["name"], value["source_id"]
    if type(name) is not str or not name:
        raise IngestionError("span_check_name", where, "name must be a non-empty string")
    if type(source_id) is not str or source_id not in texts:
        raise IngestionError(
            "span_check_source", where, f"source_id {quoted_name(source_id)} is not a source of this manifest"
        )
    instruction_source = span_source_id(value["instruction"], source_id)
    qualifier_source = span_source_id(value["qualifier"], source_id)
    if instruction_source != source_id or qualifier_source != source_id:
        raise IngestionError(
            "pair_across_sources",
            where,
            f"instruction in {quoted_name(instruction_source)}, qualifier in {quoted_name(qualifier_source)}: "
            "no chunk crosses a source, so the pair could never share one; declare both spans in one source",
        )
    text = texts[source_id]
    instruction = checked_span(value["instruction"], text, f"{where}.instruction", source_id)
    qualifier = checked_span(value["qualifier"], text, f"{where}.qualifier", source_id)
    query = value.get("query")
    if "query" in value and (type(query) is not str or not QUERY_WORD.search(query)):
        raise IngestionError(
            "span_check_query",
            where,
            f"query must be a string holding at least one word (letters or digits), found {quoted(query)}",
        )
    return SpanCheck(name, source_id, instruction, qualifier, query)


def read_manifest_value(manifest_path: Path) -> object:
    """The manifest at ``manifest_path`` as strictly parsed JSON, not yet checked.

    Read up to a docs set's bound; a manifest read with the lesson grammar is
    then held to the lesson's, exactly as ``pin`` and ``scan --add-checks``
    hold what they write (``check_manifest_size``).
    """
    label = printable(str(manifest_path))
    try:
        raw = read_bounded(manifest_path, DOCS_SET_BOUNDS.manifest_bytes, label)
    except IngestionError as error:
        if error.code == "file_too_large":
            # A docs set's saved result or export is over a manifest's bound: named for what it is, not its size.
            raise over_bound_manifest(error, manifest_path, label) from error
        if error.code != "not_a_file" or not os.path.isdir(manifest_path):
            raise
        # The docs folder given as the manifest: say which file --manifest names.
        raise IngestionError(error.code, error.where, f"{error.what}; {FOLDER_MANIFEST_HINT}") from error
    try:
        value = parse_json_bytes(raw, label)
    except IngestionError as error:
        hint = not_a_manifest_hint(manifest_path, raw, error)
        if hint is None:
            from lab_io.outputs import naming_lab_file

            # The lab's HTML report given as the manifest: named, where the parser's complaint alone says nothing.
            raise naming_lab_file(error, manifest_path, "a manifest", frozenset({"manifest"})) from error
        raise IngestionError(error.code, error.where, f"{error.what}; {hint}") from error
    if type(value) is dict and "sources" not in value and ("indexes" in value or "index_id" in value):
        # A saved result or index given as the manifest: said so, before any of its keys is refused as unknown.
        raise IngestionError("not_a_manifest", label, RESULT_AS_MANIFEST)
    if type(value) is dict and "sources" not in value:
        other_file_as_manifest(manifest_path, label)
    grammar = value.get("markdown", LESSON_GRAMMAR) if type(value) is dict else LESSON_GRAMMAR
    limit = grammar_bounds(grammar).manifest_bytes
    if len(raw) > limit:
        raise IngestionError(
            "file_too_large",
            label,
            f"larger than the {limit:,}-byte bound of a manifest read with the lesson grammar; "
            'a docs set\'s manifest names a block grammar ("markdown")',
        )
    return value


RESULT_AS_MANIFEST = (
    "is a saved result or index, not a manifest; give the manifest it was built from (or none, for the "
    "lesson's) and the result where a command reads one (validate RESULT --manifest M)"
)


def over_bound_manifest(error: IngestionError, manifest_path: Path, label: str) -> IngestionError:
    """The refusal of a file over a manifest's bound: ``not_a_manifest`` when it is a saved result or index (as one
    within the bound is refused once parsed), else ``error`` naming another file of the lab's (an export)."""
    from lab_io.outputs import lab_file_kind, naming_lab_file

    if lab_file_kind(manifest_path) == "result":
        return IngestionError("not_a_manifest", label, RESULT_AS_MANIFEST)
    return naming_lab_file(error, manifest_path, "a manifest", frozenset({"manifest"}))


def other_file_as_manifest(manifest_path: Path, label: str) -> None:
    """Refuse (``not_a_manifest``) a decisions file or a command's saved ``--json`` given as the manifest, named as
    what it is, before any of its keys is refused as unknown (``unexpected top-level field "decisions"``)."""
    from lab_io.outputs import LAB_FILE_KINDS, lab_file_kind

    kind = lab_file_kind(manifest_path)
    if kind == "decisions":
        suffix = ".decisions.json"
        name = manifest_path.name
        # ``m.decisions.json`` is ``m.json``'s (``lab_io.outputs.decisions_file``).
        owner = manifest_path.with_name(name[: -len(suffix)] + ".json") if name.endswith(suffix) else None
        raise IngestionError(
            "not_a_manifest",
            label,
            f"is {LAB_FILE_KINDS[kind]}, not a manifest; give the manifest it belongs to"
            + ("" if owner is None else f", {printable(str(owner))}"),
        )
    if kind == "command report":
        raise IngestionError(
            "not_a_manifest", label, f"is {LAB_FILE_KINDS[kind]}, not a manifest; give the manifest the command read"
        )


MARKDOWN_SUFFIXES = frozenset({".md", ".mdx", ".markdown"})
MARKDOWN_PAGE_HINT = (
    "this is a Markdown page, not a manifest: --manifest names the JSON file that pins the pages "
    f"(run.py pin --markdown {BLOCK_GRAMMARS[-1]} --manifest m.json PAGE writes one)"
)
FOLDER_MANIFEST_HINT = (
    "--manifest names the JSON file that pins the pages, not their folder "
    f"(run.py pin --markdown {BLOCK_GRAMMARS[-1]} --manifest m.json FOLDER writes one)"
)
CUT_SHORT_HINT = (
    "the manifest ends inside its JSON, as a hand edit left unfinished or a copy cut short leaves it (pin and scan "
    "never write one so: they replace it whole): finish the edit or restore the manifest"
)
JSON_LINES_MANIFEST_HINT = (
    "this looks like JSON Lines, one object per line (chunks, an export, pairs), not a manifest: give it where the "
    "command reads such a file (judge CHUNKS --manifest M, scan --import PAIRS --manifest M)"
)


def not_a_manifest_hint(manifest_path: Path, raw: bytes, error: IngestionError) -> str | None:
    """What a file given as the manifest is instead, once it failed to parse as JSON: a Markdown page or JSON Lines.

    A page is told by its suffix or by opening as one (a heading, front matter); JSON Lines by an object alone on
    line 1 with more after it; a manifest cut short by the parser running out of text inside it. ``None`` for any
    other file: the parser's own complaint is then the whole answer.
    """
    cause = error.__cause__
    if error.code not in ("json_syntax", "json_trailing_data") or not isinstance(cause, json.JSONDecodeError):
        return None
    opening = raw.lstrip()
    if manifest_path.suffix.lower() in MARKDOWN_SUFFIXES or opening.startswith((b"#", b"---")):
        return MARKDOWN_PAGE_HINT
    if error.code == "json_trailing_data" and cause.lineno >= 2:
        try:
            first = json.loads(raw.split(b"\n", 1)[0].decode("utf-8"))
        except (ValueError, RecursionError):
            return None
        return JSON_LINES_MANIFEST_HINT if type(first) is dict else None
    if opening.startswith(b"{") and ends_inside(error):
        return CUT_SHORT_HINT
    return None


def check_manifest_size(manifest_bytes: bytes, grammar: str, where: str, advice: str) -> None:
    """Refuse manifest bytes the lab would then refuse to read (``read_manifest_value``), before they are written.

    ``advice`` says what to do instead; the manifest on disk is left as it was.
    """
    limit = grammar_bounds(grammar).manifest_bytes
    if len(manifest_bytes) > limit:
        raise IngestionError(
            "manifest_too_large",
            where,
            f"the manifest would be {len(manifest_bytes):,} bytes, over the {limit:,} a manifest read with the "
            f"{grammar} grammar may hold; {advice}; the manifest is unchanged",
        )


def checked_manifest_sources(value: object, label: str, allow_empty: bool = False) -> list[dict]:
    """The manifest's source entries, each exactly seven non-empty string fields; no files read.

    Refused: a manifest that is not an object, an unknown top-level key, a
    missing or empty ``sources`` list (unless ``allow_empty``), a bad entry,
    and a duplicate ``source_id`` or ``path``.
    """
    if type(value) is not dict:
        raise IngestionError("manifest_not_object", label, f"expected an object, found {json_type(value)}")
    unknown = sorted(set(value) - MANIFEST_KEYS)
    if unknown:
        raise IngestionError(
            "unknown_field",
            label,
            f"unexpected top-level field {quoted_name(unknown[0])}; expected sources, span_checks, markdown and policies",
        )
    entries = value.get("sources")
    if type(entries) is not list or (not entries and not allow_empty):
        raise IngestionError("no_sources", f"{label}: sources", "expected a non-empty list of sources")
    sources = []
    seen: dict[str, dict[str, str]] = {"source_id": {}, "path": {}}
    for index, entry in enumerate(entries):
        where = f"{label}: {source_label(entry, index)}"
        source = checked_source_fields(entry, where)
        for field, owners in seen.items():
            key = source[field] if field == "source_id" else PurePosixPath(source[field]).as_posix()
            if key in owners:
                raise IngestionError(
                    f"duplicate_{field}", where, f"{field} {quoted_name(source[field])} is also {owners[key]}"
                )
            owners[key] = f"sources[{index}]"
        sources.append(source)
    return sources


def manifest_grammar(value: dict, label: str) -> str:
    """The manifest's ``"markdown"`` grammar: ``"lesson"`` (also when absent) or a block grammar, ``"blocks"`` to
    ``"blocks-10"``."""
    grammar = value.get("markdown", LESSON_GRAMMAR)
    if type(grammar) is not str or grammar not in GRAMMARS:
        raise IngestionError(
            "unknown_grammar",
            f"{label}: markdown",
            f"expected {' or '.join(quoted_name(name) for name in GRAMMARS)}, found {quoted_name(grammar)}",
        )
    return grammar


def manifest_policy_sizes(value: dict, label: str) -> tuple[tuple[str, int], ...]:
    """The sizes the manifest's ``"policies"`` sets, in ``SIZED_POLICIES`` order; ``()`` when absent.

    ``{"policies": {"heading-aware": 288}}`` -> ``(("heading-aware", 288),)``.
    A size is an ``int`` (``true`` and ``288.0`` are refused) from
    ``MIN_POLICY_SIZE`` to ``MAX_POLICY_SIZE``.
    """
    if "policies" not in value:
        return ()
    policies = value["policies"]
    where = f"{label}: policies"
    if type(policies) is not dict:
        raise IngestionError(
            "policies_not_object",
            where,
            f'expected an object such as {{"heading-aware": 288}}, found {json_type(policies)}',
        )
    for name in policies:
        if name not in SIZED_POLICIES:
            reason = "the paragraph policy has no size" if name == "paragraph" else "no policy of that name"
            raise IngestionError(
                "unknown_policy",
                where,
                f"{quoted_name(name)}: {reason}; sizes can be set for {', '.join(SIZED_POLICIES)}",
            )
    for name in SIZED_POLICIES:
        size = policies.get(name)
        if name in policies and (type(size) is not int or not MIN_POLICY_SIZE <= size <= MAX_POLICY_SIZE):
            raise IngestionError(
                "policy_size",
                f"{where}.{name}",
                f"expected a whole number of characters from {MIN_POLICY_SIZE:,} to {MAX_POLICY_SIZE:,}, found {quoted(size)}",
            )
    return tuple((name, policies[name]) for name in SIZED_POLICIES if name in policies)


def manifest_from_value(value: object, folder: Path, label: str) -> Manifest:
    """Check a parsed manifest, verify every pinned source in ``folder`` and confirm its span checks."""
    sources = checked_manifest_sources(value, label)
    grammar = manifest_grammar(value, label)
    policy_sizes = manifest_policy_sizes(value, label)
    edited: IngestionError | None = None
    others: list[str] = []
    for index, source in enumerate(sources):
        where = f"{label}: {source_label(source, index)}"
        if edited is not None:
            # After the first edited page, the rest are only compared with their pins, to say how many more are.
            try:
                read_pinned_bytes(folder, source, where, grammar)
            except IngestionError as error:
                # Edited, or gone or unreadable since it was pinned: either way the pin no longer holds.
                others.append(
                    quoted_name(source["source_id"]) + ("" if error.code == "hash_mismatch" else f" ({error.code})")
                )
            continue
        try:
            source["text"] = read_pinned_text(folder, source, where, grammar)
        except IngestionError as error:
            if error.code != "hash_mismatch":
                raise
            edited = error
    if edited is not None:
        if others:
            differ = "differs from its pin" if len(others) == 1 else "differ from their pins"
            edited = IngestionError(
                edited.code,
                edited.where,
                f"{edited.what}; {counted(len(others), 'more page')} {differ} too: {first_few(others)}",
            )
        raise edited
    sources.sort(key=lambda source: source["source_id"])
    texts = {source["source_id"]: source["text"] for source in sources}
    checks = value.get("span_checks", [])
    if type(checks) is not list:
        raise IngestionError("span_checks_not_list", f"{label}: span_checks", "expected a list")
    span_checks = tuple(
        checked_span_check(check, texts, f"{label}: span_checks[{index}]{named_entry(check)}")
        for index, check in enumerate(checks)
    )
    # A set, not a scan of the names before each: a scanned docs set declares thousands of checks.
    names: set[str] = set()
    for index, check in enumerate(span_checks):
        if check.name in names:
            raise IngestionError(
                "duplicate_span_check",
                f"{label}: span_checks[{index}]",
                f"name {quoted_name(check.name)} is used twice",
            )
        names.add(check.name)
    return Manifest(folder, tuple(sources), span_checks, grammar, policy_sizes)


def load_manifest(manifest_path: Path) -> Manifest:
    """Load a manifest, verify every pinned source and confirm its span checks.

    Sources come back sorted by ``source_id``, each as exactly the seven
    manifest fields plus ``text``: every key takes part in the document
    revision, so nothing else may ride along.
    """
    manifest_path = Path(manifest_path)
    return manifest_from_value(read_manifest_value(manifest_path), manifest_path.parent, str(manifest_path))
