"""Chunking rules, identities, the span comparison and validation of saved indexes.

Everything here is a pure function of loaded sources (``load_documents``) and a
supported chunk config: the three boundary policies, the document, section,
chunk and index identities, the instruction/qualifier comparison, and the
validator that rebuilds a saved index or result and refuses any difference.
The contract is ``SPEC.md`` (shipped with the lab as ``docs/SPEC.md``); every
hash in ``expected-result.json`` depends on following it to the letter.

It reads no files and writes none: I/O belongs to ``load_documents`` and ``run.py``.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import re
from bisect import bisect_left
from dataclasses import dataclass
from itertools import accumulate
from types import MappingProxyType

from load_documents import (
    MAX_SOURCE_BYTES,
    SHA256_PATTERN,
    SOURCE_FIELDS,
    VERSION_PATTERN,
    IngestionError,
    check_text,
    quoted,
    relative_path_parts,
)

SCHEMA_VERSION = 1
EXECUTION_MODE = "offline-synthetic-source-processing"
FIXTURE_SCOPE = "Original synthetic Aster API contracts; no real SDK facts, embeddings or semantic-quality experiment."
# A result of the user's own documents must not claim to be the synthetic fixture.
OWN_DOCUMENTS_SCOPE = "Documents pinned in the user's own manifest; offline chunk-boundary comparison only, no embeddings or semantic-quality experiment."
FIXTURE_SOURCE_SHA256 = frozenset(
    {
        "34257e6c9c3ec0e75af47dd465cd370b63dc4c5e45a6a3413f87b15baf643bfd",
        "ee85252a1f2997476d3ee9fd9ff17648af3bede369201f82d2d230d3fd370f5b",
    }
)

# The only configs the lab builds or accepts, in the order results list them.
# Kept as JSON text so no caller can mutate the lab's own copy.
_CONFIG_JSON = MappingProxyType(
    {
        "fixed-char": '{"strategy": "fixed-char", "version": 1, "max_chars": 80}',
        "paragraph": '{"strategy": "paragraph", "version": 1, "max_chars": null}',
        "heading-aware": '{"strategy": "heading-aware", "version": 1, "max_chars": 220}',
    }
)
POLICY_NAMES = tuple(_CONFIG_JSON)

DOCUMENT_KEYS = (*SOURCE_FIELDS, "text", "normalized_text_sha256", "document_revision")
INDEX_KEYS = ("schema_version", "execution_mode", "config", "documents", "chunks", "index_id")
RESULT_KEYS = ("execution_mode", "fixture_scope", "comparisons", "indexes")
# The comparison of any number of named pairs (see README, "Many span checks").
PAIRS_COMPARISON_KEYS = ("strategy", "chunk_count", "pairs_kept_together", "pairs")
DECLARED_PAIR_KEYS = ("name", "source_id", "instruction_span", "qualifier_span")
PAIR_VERDICT_KEYS = (
    "instruction_span",
    "qualifier_span",
    "instruction_containing_chunk_ids",
    "instruction_and_qualifier_share_chunk",
)
HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)

# One configured encoder for every digest: building one per call is measurable
# on a large index, and sharing it keeps every hash on the same settings.
_DIGEST_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# The string escaping that encoder applies (``ensure_ascii=False``): C-backed,
# so a chunk's canonical text can be assembled without a full encoder pass.
_json_string = json.encoder.encode_basestring


def canonical_json(value: object) -> str:
    """The compact, key-sorted JSON text that ``digest`` hashes: ``{"b": 1, "a": "é"}`` -> ``'{"a":"é","b":1}'``."""
    return _DIGEST_ENCODER.encode(value)


def digest(value: object) -> str:
    """Lowercase hex SHA-256 of ``value`` as compact, key-sorted JSON (UTF-8)."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def sha(text: str) -> str:
    """Lowercase hex SHA-256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def policy_config(name: str) -> dict:
    """A fresh copy of the supported config called ``name`` (``KeyError`` if none)."""
    return json.loads(_CONFIG_JSON[name])


def policy_of_config(config: object) -> str | None:
    """The policy whose config ``config`` is, compared by digest so ``True`` is not ``1``."""
    wanted = digest(config)
    for name in POLICY_NAMES:
        if digest(policy_config(name)) == wanted:
            return name
    return None


# --- sections and paragraphs -------------------------------------------------


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


def fixed_char_spans(text: str, start: int, end: int, width: int) -> list[tuple[int, int]]:
    """Slices of ``width`` characters from ``start``; a blank slice is dropped.

    ``fixed_char_spans("abc  \\n", 0, 6, 3)`` -> ``[(0, 3)]``.
    """
    return [
        (slice_start, min(slice_start + width, end))
        for slice_start in range(start, end, width)
        if text[slice_start : min(slice_start + width, end)].strip()
    ]


def grouped_spans(paragraphs: list[tuple[int, int]], target: int) -> list[tuple[int, int]]:
    """Neighbouring paragraphs grouped while a group spans at most ``target`` characters.

    ``grouped_spans([(0, 10), (11, 20), (21, 40)], 20)`` -> ``[(0, 20), (21, 40)]``.
    A paragraph longer than ``target`` stays whole: the target groups, it does not cut.
    """
    groups: list[tuple[int, int]] = []
    for paragraph_start, paragraph_end in paragraphs:
        if groups and paragraph_end - groups[-1][0] <= target:
            groups[-1] = (groups[-1][0], paragraph_end)
        else:
            groups.append((paragraph_start, paragraph_end))
    return groups


def section_chunk_spans(config: dict, text: str, section: Section) -> list[tuple[int, int]]:
    """The chunk spans one policy cuts from one section's body."""
    strategy = config["strategy"]
    if strategy == "fixed-char":
        return fixed_char_spans(text, section.body_start, section.body_end, config["max_chars"])
    paragraphs = paragraph_spans(text, section.body_start, section.body_end)
    if strategy == "paragraph":
        return paragraphs
    return grouped_spans(paragraphs, config["max_chars"])


# --- identities ----------------------------------------------------------------


def document_record(source: dict) -> dict:
    """A source (seven fields plus ``text``) with its text hash and revision."""
    document = {field: source[field] for field in SOURCE_FIELDS}
    document["text"] = source["text"]
    document["normalized_text_sha256"] = sha(source["text"])
    identity = {key: value for key, value in document.items() if key != "text"}
    document["document_revision"] = digest(identity)
    return document


def newline_offsets(text: str) -> list[int]:
    """Offsets of every ``\\n`` in ``text``, for line numbers by bisection: ``"a\\nb\\n"`` -> ``[1, 3]``."""
    # Each newline sits one line (and its own character) after the previous one;
    # split and accumulate run in C, where a find() per line would not.
    steps = map((1).__add__, map(len, text.split("\n")))
    return list(accumulate(steps, initial=-1))[1:-1]


def chunk_records(config: dict, document: dict) -> tuple[list[dict], bytes]:
    """Every chunk record of one document, and their canonical JSON joined by commas.

    Each chunk's payload is serialised once, here, in the exact text
    ``canonical_json`` gives it; that one text yields the chunk id and, joined,
    the document's share of the index id, so a build encodes every chunk once
    instead of once per hash (``tests/test_canonical.py`` holds this equal to
    ``digest`` on tricky values).
    """
    text = document["text"]
    source_id = document["source_id"]
    revision = document["document_revision"]
    newlines = newline_offsets(text)
    id_prefix = ('{"config":' + canonical_json(config) + ",").encode("utf-8")
    # Keys in canonical (sorted) order; "config" and "chunk_id" sort before them all.
    revision_json = _json_string(revision)
    source_json = _json_string(source_id)
    version_json = _json_string(document["version"])
    records: list[dict] = []
    record_texts: list[bytes] = []
    for section in heading_sections(text, source_id):
        # digest({"document_revision": revision, "heading_start": ...}), keys already in canonical order.
        section_id = sha(f'{{"document_revision":{revision_json},"heading_start":{section.heading_start}}}')
        section_json = (
            f'"section_id":"{section_id}","section_title":{_json_string(section.title)},"source_id":{source_json}'
        )
        for start, end in section_chunk_spans(config, text, section):
            chunk_text = text[start:end]
            text_sha256 = sha(chunk_text)
            order = len(records)
            # Equal to text.count("\n", 0, start) + 1 without rescanning the text per chunk.
            start_line = bisect_left(newlines, start) + 1
            end_line = bisect_left(newlines, end - 1) + 1
            payload_tail = (
                f'"document_revision":{revision_json},"end":{end},"end_line":{end_line},"order":{order},'
                f'{section_json},"start":{start},"start_line":{start_line},'
                f'"text":{_json_string(chunk_text)},"text_sha256":"{text_sha256}","version":{version_json}}}'
            ).encode("utf-8")
            chunk_id = hashlib.sha256(id_prefix + payload_tail).hexdigest()
            records.append(
                {
                    "chunk_id": chunk_id,
                    "source_id": source_id,
                    "version": document["version"],
                    "document_revision": revision,
                    "section_id": section_id,
                    "section_title": section.title,
                    "order": order,
                    "start": start,
                    "end": end,
                    "start_line": start_line,
                    "end_line": end_line,
                    "text": chunk_text,
                    "text_sha256": text_sha256,
                }
            )
            record_texts.append(b'{"chunk_id":"' + chunk_id.encode("ascii") + b'",' + payload_tail)
    return records, b",".join(record_texts)


def build_index(config: dict, sources: list[dict] | tuple[dict, ...]) -> dict:
    """The index of ``sources`` under ``config``: documents and chunks by ``source_id``.

    The index id is ``digest(body)``, hashed as it is written: ``"chunks"``
    sorts first among the body's keys, so the canonical text is the chunks'
    texts from ``chunk_records`` followed by the rest of the body.
    """
    documents = [document_record(source) for source in sorted(sources, key=lambda source: source["source_id"])]
    hasher = hashlib.sha256(b'{"chunks":[')
    chunks: list[dict] = []
    for document in documents:
        records, records_json = chunk_records(config, document)
        if records and chunks:
            hasher.update(b",")
        hasher.update(records_json)
        chunks.extend(records)
    body = {
        "schema_version": SCHEMA_VERSION,
        "execution_mode": EXECUTION_MODE,
        "config": config,
        "documents": documents,
        "chunks": chunks,
    }
    rest = canonical_json({key: value for key, value in body.items() if key != "chunks"})
    hasher.update(("]," + rest[1:]).encode("utf-8"))
    return {**body, "index_id": hasher.hexdigest()}


# --- the comparison ------------------------------------------------------------


def chunk_holds(chunk: dict, start: int, end: int) -> bool:
    """Whether ``chunk`` holds all of ``[start, end)``: ``chunk.start <= start`` and ``end <= chunk.end``."""
    return chunk["start"] <= start and end <= chunk["end"]


def compare_spans(name: str, index: dict, source_id: str, instruction: list[int], qualifier: list[int]) -> dict:
    """Whether one policy's index keeps ``instruction`` and ``qualifier`` in one chunk.

    Spans are ``[start, end)`` lists in ``source_id``'s text; a chunk holds a
    span when ``chunk.start <= start`` and ``end <= chunk.end``.
    """

    def holds(chunk: dict, span: list[int]) -> bool:
        return chunk_holds(chunk, span[0], span[1])

    chunks = [chunk for chunk in index["chunks"] if chunk["source_id"] == source_id]
    return {
        "strategy": name,
        "chunk_count": len(index["chunks"]),
        "instruction_span": list(instruction),
        "qualifier_span": list(qualifier),
        "instruction_containing_chunk_ids": [chunk["chunk_id"] for chunk in chunks if holds(chunk, instruction)],
        "instruction_and_qualifier_share_chunk": any(
            holds(chunk, instruction) and holds(chunk, qualifier) for chunk in chunks
        ),
    }


def build_comparisons(indexes: dict, source_id: str, instruction: list[int], qualifier: list[int]) -> list[dict]:
    """One comparison per policy, in ``POLICY_NAMES`` order."""
    return [compare_spans(name, indexes[name], source_id, instruction, qualifier) for name in POLICY_NAMES]


def build_indexes(sources: list[dict] | tuple[dict, ...]) -> dict:
    """The three supported indexes of ``sources``, keyed by policy name in ``POLICY_NAMES`` order."""
    return {name: build_index(policy_config(name), sources) for name in POLICY_NAMES}


def result_scope(sources: list[dict] | tuple[dict, ...]) -> str:
    """The result's ``fixture_scope``: the fixture's own sentence only when every source is a fixture file."""
    if all(source["sha256"] in FIXTURE_SOURCE_SHA256 for source in sources):
        return FIXTURE_SCOPE
    return OWN_DOCUMENTS_SCOPE


def assembled_result(sources: list[dict] | tuple[dict, ...], indexes: dict, comparisons: list[dict]) -> dict:
    """A result's four keys in the order the spec lists them."""
    return {
        "execution_mode": EXECUTION_MODE,
        "fixture_scope": result_scope(sources),
        "comparisons": comparisons,
        "indexes": indexes,
    }


def build_result(
    sources: list[dict] | tuple[dict, ...], source_id: str, instruction: list[int], qualifier: list[int]
) -> dict:
    """The lab's result: the three indexes of ``sources`` and the span comparison."""
    indexes = build_indexes(sources)
    return assembled_result(sources, indexes, build_comparisons(indexes, source_id, instruction, qualifier))


# --- many named pairs ------------------------------------------------------------


def declared_pair(check) -> dict:
    """A manifest ``SpanCheck`` as a result records it: name, source and the two spans as lists."""
    return {
        "name": check.name,
        "source_id": check.source_id,
        "instruction_span": check.instruction.as_list(),
        "qualifier_span": check.qualifier.as_list(),
    }


def compare_pair(name: str, index: dict, pair: dict) -> dict:
    """One declared pair under one policy: the pair, its instruction's chunk ids and the verdict."""
    verdict = compare_spans(name, index, pair["source_id"], pair["instruction_span"], pair["qualifier_span"])
    return {"name": pair["name"], "source_id": pair["source_id"], **{key: verdict[key] for key in PAIR_VERDICT_KEYS}}


def compare_pairs(name: str, index: dict, pairs: list[dict]) -> dict:
    """One policy's comparison of every declared pair, with how many it keeps in one chunk."""
    compared = [compare_pair(name, index, pair) for pair in pairs]
    return {
        "strategy": name,
        "chunk_count": len(index["chunks"]),
        "pairs_kept_together": sum(pair["instruction_and_qualifier_share_chunk"] for pair in compared),
        "pairs": compared,
    }


def build_pair_comparisons(indexes: dict, pairs: list[dict]) -> list[dict]:
    """The named-pairs comparisons, one per policy in ``POLICY_NAMES`` order."""
    return [compare_pairs(name, indexes[name], pairs) for name in POLICY_NAMES]


def checked_comparisons(indexes: dict, span_checks) -> list[dict]:
    """The comparisons of a manifest's span checks, in the shape their number calls for.

    Exactly one check keeps the spec's comparison shape, so the fixture's
    result stays byte-identical to the reference. Any other number (none
    included) records every pair by name and source, so the validator can
    re-derive each verdict from the result alone.
    """
    if len(span_checks) == 1:
        check = span_checks[0]
        return build_comparisons(indexes, check.source_id, check.instruction.as_list(), check.qualifier.as_list())
    return build_pair_comparisons(indexes, [declared_pair(check) for check in span_checks])


def build_checked_result(sources: list[dict] | tuple[dict, ...], span_checks) -> dict:
    """The lab's result for a manifest: the three indexes and the comparison of its span checks."""
    indexes = build_indexes(sources)
    return assembled_result(sources, indexes, checked_comparisons(indexes, span_checks))


def is_pairs_comparison(comparisons: object) -> bool:
    """Whether saved comparisons use the named-pairs shape rather than the spec's single-pair one."""
    return (
        type(comparisons) is list and bool(comparisons) and type(comparisons[0]) is dict and "pairs" in comparisons[0]
    )


def pair_outcomes(comparison: dict) -> list[tuple[str | None, bool]]:
    """``[(name, kept), ...]`` for one policy's comparison of either shape; the spec's pair has no name."""
    if "pairs" in comparison:
        return [(pair["name"], pair["instruction_and_qualifier_share_chunk"]) for pair in comparison["pairs"]]
    return [(None, comparison["instruction_and_qualifier_share_chunk"])]


# --- validation ------------------------------------------------------------------

# Hashes are compared after the fields they are computed from, so a forged
# index whose hashes were recomputed is reported at the field that was changed
# ("chunks[1].end: saved 271, derived 270"), not at a hash that merely follows it.
_HASH_KEYS = frozenset(
    {"chunk_id", "index_id", "text_sha256", "normalized_text_sha256", "document_revision", "section_id"}
)


def join_path(prefix: str, key: str | int) -> str:
    """``join_path("indexes", "paragraph")`` -> ``"indexes.paragraph"``; ints become ``[n]``."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def first_divergence(saved: object, derived: object, path: str) -> tuple[str, str] | None:
    """The first place where ``saved`` differs from ``derived``, and how, or ``None``.

    Types count: ``True`` differs from ``1`` and ``80.0`` from ``80``.
    ``first_divergence({"a": 1}, {"a": True}, "x")`` -> ``("x.a", "saved 1 (int), derived true (bool)")``.
    """
    if type(saved) is not type(derived):
        return (
            path or "(top)",
            f"saved {quoted(saved)} ({type(saved).__name__}), derived {quoted(derived)} ({type(derived).__name__})",
        )
    if isinstance(derived, dict):
        missing = [key for key in derived if key not in saved]
        if missing:
            return path or "(top)", f"key {quoted(missing[0])} is missing"
        extra = [key for key in saved if key not in derived]
        if extra:
            return path or "(top)", f"unexpected key {quoted(extra[0])}"
        ordered = sorted(derived, key=lambda key: key in _HASH_KEYS)
        for key in ordered:
            found = first_divergence(saved[key], derived[key], join_path(path, key))
            if found:
                return found
        return None
    if isinstance(derived, list):
        for position, (saved_item, derived_item) in enumerate(zip(saved, derived)):
            found = first_divergence(saved_item, derived_item, join_path(path, position))
            if found:
                return found
        if len(saved) != len(derived):
            return path or "(top)", f"saved {len(saved)} items, derived {len(derived)}"
        return None
    if saved != derived:
        return path or "(top)", f"saved {quoted(saved)}, derived {quoted(derived)}"
    return None


# Lists longer than this are compared slice by slice, so the two marshalled
# texts in memory at once stay near a megabyte however large the index is.
_COMPARE_SLICE = 1024


def _marshalled_equal(saved: object, derived: object) -> bool:
    """Whether ``marshal`` writes both values alike; ``False`` for a value it cannot write."""
    try:
        # Format 2 writes no back-references, so equal values give equal bytes
        # whether or not their objects are shared.
        return marshal.dumps(saved, 2) == marshal.dumps(derived, 2)
    except ValueError:
        return False


def same_json(saved: object, derived: object) -> bool:
    """Whether two JSON values are identical, types and key order included, compared in C.

    ``marshal`` tags every value with its type, so ``True`` differs from ``1``,
    ``1.0`` from ``1`` and ``-0.0`` from ``0.0``: ``same_json([1], [True])`` ->
    ``False``. ``False`` only says "not proven identical" (keys in another
    order, say); ``require_same`` then falls back to comparing digests.
    """
    if type(saved) is dict and type(derived) is dict:
        return list(saved) == list(derived) and all(same_json(saved[key], derived[key]) for key in derived)
    if type(saved) is list and type(derived) is list and len(derived) > _COMPARE_SLICE:
        if len(saved) != len(derived):
            return False
        return all(
            _marshalled_equal(saved[start : start + _COMPARE_SLICE], derived[start : start + _COMPARE_SLICE])
            for start in range(0, len(derived), _COMPARE_SLICE)
        )
    return _marshalled_equal(saved, derived)


def require_same(saved: object, derived: object, path: str, code: str) -> None:
    """Refuse with ``code`` at the first divergence unless the two are identical, types included."""
    if same_json(saved, derived) or digest(saved) == digest(derived):
        return
    found = first_divergence(saved, derived, path)
    if found is None:
        raise IngestionError(code, path or "(top)", "differs from the re-derived value")
    raise IngestionError(code, *found)


def require_keys(value: object, keys: tuple[str, ...], path: str, what: str) -> dict:
    """``value`` as a dict with exactly ``keys``, or a refusal naming the first odd key."""
    if type(value) is not dict:
        raise IngestionError(f"{what}_not_object", path or "(top)", f"expected an object, found {type(value).__name__}")
    for key in keys:
        if key not in value:
            raise IngestionError(f"{what}_fields", path or "(top)", f"key {quoted(key)} is missing")
    for key in value:
        if key not in keys:
            raise IngestionError(f"{what}_fields", path or "(top)", f"unexpected key {quoted(key)}")
    return value


def checked_document(value: object, path: str) -> dict:
    """A saved document whose fields, bounds and own hashes hold; returns its source form."""
    document = require_keys(value, DOCUMENT_KEYS, path, "document")
    for key in DOCUMENT_KEYS:
        if type(document[key]) is not str:
            raise IngestionError(
                "field_not_string", join_path(path, key), f"expected a string, found {type(document[key]).__name__}"
            )
        if not document[key]:
            raise IngestionError("empty_field", join_path(path, key), "must not be empty")
    if not VERSION_PATTERN.fullmatch(document["version"]):
        raise IngestionError(
            "bad_version",
            join_path(path, "version"),
            f"{quoted(document['version'])} is not MAJOR.MINOR with ASCII digits",
        )
    for key in ("sha256", "normalized_text_sha256", "document_revision"):
        if not SHA256_PATTERN.fullmatch(document[key]):
            raise IngestionError("bad_sha256", join_path(path, key), "expected 64 lowercase hex digits")
    relative_path_parts(document["path"], join_path(path, "path"))
    text = document["text"]
    text_path = join_path(path, "text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise IngestionError("text_too_large", text_path, f"over {MAX_SOURCE_BYTES:,} UTF-8 bytes")
    check_text(text, text_path)
    if not HEADING.match(text):
        raise IngestionError("heading_required", text_path, "text must start with a '# ' heading at offset 0")
    if "\r" in text:
        raise IngestionError(
            "carriage_return",
            text_path,
            f"\\r at offset {text.index(chr(13))}; saved texts hold normalized \\n line ends",
        )
    derived = document_record(document)
    require_same(
        document["normalized_text_sha256"],
        derived["normalized_text_sha256"],
        join_path(path, "normalized_text_sha256"),
        "text_hash_mismatch",
    )
    require_same(
        document["document_revision"],
        derived["document_revision"],
        join_path(path, "document_revision"),
        "revision_mismatch",
    )
    return {field: document[field] for field in (*SOURCE_FIELDS, "text")}


def validate_index(value: object, path: str = "") -> dict:
    """Rebuild a saved index from its documents and config; return it if identical.

    Refused with ``IngestionError``: a wrong shape or type anywhere, an
    unsupported config, a bad document, and any difference at all between the
    saved index and the rebuilt one, even when every hash was recomputed.
    """
    index = require_keys(value, INDEX_KEYS, path, "index")
    schema_version = index["schema_version"]
    if type(schema_version) is not int or schema_version != SCHEMA_VERSION:
        raise IngestionError(
            "schema_version",
            join_path(path, "schema_version"),
            f"saved {quoted(schema_version)}, supported {SCHEMA_VERSION}",
        )
    if index["execution_mode"] != EXECUTION_MODE:
        raise IngestionError(
            "execution_mode",
            join_path(path, "execution_mode"),
            f"saved {quoted(index['execution_mode'])}, expected {quoted(EXECUTION_MODE)}",
        )
    name = policy_of_config(index["config"])
    if name is None:
        raise IngestionError(
            "unsupported_chunk_config",
            join_path(path, "config"),
            f"{quoted(index['config'], 120)} is not one of the lab's configs ({', '.join(POLICY_NAMES)})",
        )
    documents = index["documents"]
    if type(documents) is not list or not documents:
        raise IngestionError("no_documents", join_path(path, "documents"), "expected a non-empty list of documents")
    sources = []
    owners: dict[tuple[str, str], int] = {}
    for position, document in enumerate(documents):
        document_path = join_path(join_path(path, "documents"), position)
        source = checked_document(document, document_path)
        for field in ("source_id", "path"):
            key = source[field] if field == "source_id" else "/".join(relative_path_parts(source[field], document_path))
            earlier = owners.setdefault((field, key), position)
            if earlier != position:
                raise IngestionError(
                    f"duplicate_{field}",
                    join_path(document_path, field),
                    f"{quoted(source[field])} is also documents[{earlier}]",
                )
        sources.append(source)
    if type(index["chunks"]) is not list:
        raise IngestionError(
            "chunks_not_list", join_path(path, "chunks"), f"expected a list, found {type(index['chunks']).__name__}"
        )
    derived = build_index(policy_config(name), sources)
    if same_json(index, derived):
        # Identical down to types and key order: hand back the saved copy and
        # let the rebuilt one go, so a large result is not held twice.
        return index
    require_same(index, derived, path, "index_mismatch")
    return derived


def comparison_source(comparisons: list, indexes: dict, instruction: list[int], qualifier: list[int]) -> str:
    """The source a saved single-pair comparison speaks of.

    The spec's comparison names no source. Its chunk ids name one when any
    policy holds the instruction in a chunk; when none does, it can only be a
    source whose text holds both spans and where no chunk of any policy holds
    the instruction. Found in one pass over the chunks; the first document is
    the fallback against which a refusal is reported.
    """
    source_of = {chunk["chunk_id"]: chunk["source_id"] for index in indexes.values() for chunk in index["chunks"]}
    for comparison in comparisons:
        chunk_ids = comparison.get("instruction_containing_chunk_ids") if type(comparison) is dict else None
        for chunk_id in chunk_ids if type(chunk_ids) is list else ():
            if type(chunk_id) is str and chunk_id in source_of:
                return source_of[chunk_id]
    holding = {
        chunk["source_id"]
        for index in indexes.values()
        for chunk in index["chunks"]
        if chunk["start"] <= instruction[0] and instruction[1] <= chunk["end"]
    }
    documents = indexes[POLICY_NAMES[0]]["documents"]
    reach = max(instruction[1], qualifier[1])
    for document in documents:
        if document["source_id"] not in holding and reach <= len(document["text"]):
            return document["source_id"]
    return documents[0]["source_id"]


def checked_span_list(span: object, span_path: str, text_length: int | None = None) -> list[int]:
    """A saved ``[start, end]`` span: two whole numbers with ``0 <= start < end`` (within the text when given)."""
    if type(span) is not list or len(span) != 2 or any(type(bound) is not int for bound in span):
        raise IngestionError(
            "comparison_span", span_path, f"expected [start, end] as two whole numbers, found {quoted(span)}"
        )
    if not 0 <= span[0] < span[1]:
        raise IngestionError("comparison_span", span_path, f"{quoted(span)} is not a span with 0 <= start < end")
    if text_length is not None and span[1] > text_length:
        raise IngestionError(
            "comparison_span", span_path, f"{quoted(span)} runs past the text of {text_length} characters"
        )
    return span


def checked_comparison_list(comparisons: object, path: str) -> list:
    """Saved comparisons as a list of one entry per policy."""
    if type(comparisons) is not list or len(comparisons) != len(POLICY_NAMES):
        raise IngestionError("comparisons", path, f"expected a list of {len(POLICY_NAMES)} comparisons, one per policy")
    return comparisons


def saved_span(comparisons: list, key: str, path: str) -> list[int]:
    """The span every saved comparison states under ``key``, checked as ``[start, end]``."""
    first = checked_comparison_list(comparisons, path)[0]
    span = first.get(key) if type(first) is dict else None
    return checked_span_list(span, join_path(join_path(path, 0), key))


def saved_pairs(comparisons: list, indexes: dict, path: str) -> list[dict]:
    """The pairs a named-pairs result declares, read from its first comparison and checked.

    Each pair needs a unique non-empty name, a source the indexes hold and two
    spans inside that source's text; the verdicts are not read, they are re-derived.
    """
    pairs = checked_comparison_list(comparisons, path)[0]["pairs"]
    pairs_path = join_path(join_path(path, 0), "pairs")
    if type(pairs) is not list:
        raise IngestionError("comparison_pairs", pairs_path, f"expected a list of pairs, found {type(pairs).__name__}")
    texts = {document["source_id"]: document["text"] for document in indexes[POLICY_NAMES[0]]["documents"]}
    declared = []
    names: set[str] = set()
    for position, pair in enumerate(pairs):
        pair_path = join_path(pairs_path, position)
        if type(pair) is not dict:
            raise IngestionError("comparison_pair", pair_path, f"expected an object, found {type(pair).__name__}")
        name = pair.get("name")
        if type(name) is not str or not name:
            raise IngestionError("comparison_pair", join_path(pair_path, "name"), "expected a non-empty string")
        if name in names:
            raise IngestionError("comparison_pair", join_path(pair_path, "name"), f"name {quoted(name)} is used twice")
        names.add(name)
        source_id = pair.get("source_id")
        if type(source_id) is not str or source_id not in texts:
            raise IngestionError(
                "comparison_pair",
                join_path(pair_path, "source_id"),
                f"{quoted(source_id)} is not a document of the result",
            )
        length = len(texts[source_id])
        declared.append(
            {
                "name": name,
                "source_id": source_id,
                "instruction_span": checked_span_list(
                    pair.get("instruction_span"), join_path(pair_path, "instruction_span"), length
                ),
                "qualifier_span": checked_span_list(
                    pair.get("qualifier_span"), join_path(pair_path, "qualifier_span"), length
                ),
            }
        )
    return declared


def validate_result(value: object) -> dict:
    """Validate a whole saved result: every index rebuilt, the comparisons recomputed.

    Every policy must have chunked the same documents. The spec's single-pair
    comparison names no source, so it is re-derived for the source its chunk
    ids name (see ``comparison_source``). A named-pairs comparison records each
    pair's source, so its verdicts are re-derived directly.
    """
    result = require_keys(value, RESULT_KEYS, "", "result")
    if result["execution_mode"] != EXECUTION_MODE:
        raise IngestionError(
            "execution_mode",
            "execution_mode",
            f"saved {quoted(result['execution_mode'])}, expected {quoted(EXECUTION_MODE)}",
        )
    if type(result["fixture_scope"]) is not str or not result["fixture_scope"].strip():
        raise IngestionError("fixture_scope", "fixture_scope", "expected a non-empty string")
    saved_indexes = require_keys(result["indexes"], POLICY_NAMES, "indexes", "indexes")
    indexes = {}
    for name in POLICY_NAMES:
        index_path = join_path("indexes", name)
        indexes[name] = validate_index(saved_indexes[name], index_path)
        if policy_of_config(saved_indexes[name]["config"]) != name:
            raise IngestionError(
                "config_mismatch",
                join_path(index_path, "config"),
                f"holds the {policy_of_config(saved_indexes[name]['config'])} config, expected {name}'s",
            )
        # The comparison is only meaningful if every policy chunked the same documents.
        require_same(
            indexes[name]["documents"],
            indexes[POLICY_NAMES[0]]["documents"],
            join_path(index_path, "documents"),
            "documents_mismatch",
        )
    # The scope sentence is derived too: only the fixture's own files may claim the fixture's scope.
    require_same(
        result["fixture_scope"], result_scope(indexes[POLICY_NAMES[0]]["documents"]), "fixture_scope", "fixture_scope"
    )
    comparisons = result["comparisons"]
    if is_pairs_comparison(comparisons):
        pairs = saved_pairs(comparisons, indexes, "comparisons")
        require_same(comparisons, build_pair_comparisons(indexes, pairs), "comparisons", "comparison_mismatch")
        return result
    instruction = saved_span(comparisons, "instruction_span", "comparisons")
    qualifier = saved_span(comparisons, "qualifier_span", "comparisons")
    source_id = comparison_source(comparisons, indexes, instruction, qualifier)
    length = len(
        next(
            document["text"] for document in indexes[POLICY_NAMES[0]]["documents"] if document["source_id"] == source_id
        )
    )
    for key, span in (("instruction_span", instruction), ("qualifier_span", qualifier)):
        checked_span_list(span, join_path(join_path("comparisons", 0), key), length)
    require_same(
        comparisons, build_comparisons(indexes, source_id, instruction, qualifier), "comparisons", "comparison_mismatch"
    )
    return result


def artifact_indexes(kind: str, artifact: dict) -> dict[str, dict]:
    """A validated artifact's indexes by policy: a result's three, or a single index under its policy's name."""
    if kind == "result":
        return dict(artifact["indexes"])
    return {policy_of_config(artifact["config"]): artifact}


def validate_artifact(value: object) -> tuple[str, dict]:
    """Validate a saved result or a single saved index; say which it was."""
    if type(value) is dict and "indexes" in value:
        return "result", validate_result(value)
    if type(value) is dict and "index_id" in value:
        return "index", validate_index(value)
    raise IngestionError(
        "unknown_artifact", "(top)", 'expected a saved result (with "indexes") or a saved index (with "index_id")'
    )
