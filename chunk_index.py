"""Chunk configs, the three boundary policies, and every identity the lab hashes.

Everything here is a pure function of loaded sources (``load_documents``) and a
supported chunk config: the policies that cut a section into chunk spans, and
the document, section, chunk and index identities built over them. The
contract is ``SPEC.md`` (shipped with the lab as ``docs/SPEC.md``); every hash
in ``expected-result.json`` depends on following it to the letter.

Where text splits into sections and paragraphs is ``grammars``; the
instruction/qualifier comparison is ``span_checks``; re-deriving a saved index
is ``validate``. This module reads no files and writes none.
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Callable
from itertools import accumulate, compress
from types import MappingProxyType

from grammars import GRAMMARS, LESSON_GRAMMAR, Section, document_sections
from load_documents import MAX_POLICY_SIZE, MIN_POLICY_SIZE, SIZED_POLICIES, SOURCE_FIELDS

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

# The lesson's three configs, in the order results list them: the family's
# defaults (see ``family_config`` for every other config the lab builds).
# Kept as JSON text so no caller can mutate the lab's own copy.
_CONFIG_JSON = MappingProxyType(
    {
        "fixed-char": '{"strategy": "fixed-char", "version": 1, "max_chars": 80}',
        "paragraph": '{"strategy": "paragraph", "version": 1, "max_chars": null}',
        "heading-aware": '{"strategy": "heading-aware", "version": 1, "max_chars": 220}',
    }
)
POLICY_NAMES = tuple(_CONFIG_JSON)
# The sizes a manifest started with a block grammar builds with, as a retrieval pipeline cuts them (see
# docs/markdown-grammar.md, "Choosing sizes"): 1,000 characters is LangChain's RecursiveCharacterTextSplitter
# default and inside the 500 to 1,500 characters (about 125 to 400 tokens) most pipelines use; both sized
# policies get the same budget, so the table compares rules, not sizes.
PIPELINE_SIZES = MappingProxyType({"fixed-char": 1_000, "heading-aware": 1_000})

DOCUMENT_KEYS = (*SOURCE_FIELDS, "text", "normalized_text_sha256", "document_revision")
INDEX_KEYS = ("schema_version", "execution_mode", "config", "documents", "chunks", "index_id")
RESULT_KEYS = ("execution_mode", "fixture_scope", "comparisons", "indexes")

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


def policy_config(name: str, max_chars: int | None = None, grammar: str = LESSON_GRAMMAR) -> dict:
    """A fresh config of policy ``name`` (``KeyError`` if none) at ``max_chars`` under ``grammar``.

    ``max_chars=None`` keeps the lesson's size (80, 220; paragraph has none).
    A block grammar adds a fourth key after the other three:
    ``policy_config("heading-aware", 288, "blocks")`` ->
    ``{"strategy": "heading-aware", "version": 1, "max_chars": 288, "markdown": "blocks"}``
    (``"markdown": "blocks-2"`` under "blocks-2", ``"blocks-3"`` under "blocks-3", so their ids differ);
    lesson configs have no ``markdown`` key, so the spec's three stay as written.
    """
    config = json.loads(_CONFIG_JSON[name])
    if max_chars is not None:
        config["max_chars"] = max_chars
    if grammar != LESSON_GRAMMAR:
        config["markdown"] = grammar
    return config


def family_config(config: object) -> dict | None:
    """The lab's own copy of ``config`` if it is in the config family, else ``None``.

    The family: strategy one of the three, version 1, ``max_chars`` an ``int``
    from ``MIN_POLICY_SIZE`` to ``MAX_POLICY_SIZE`` (``null`` for paragraph),
    and ``"markdown"`` ``"blocks"``, ``"blocks-2"``, ``"blocks-3"`` or no ``markdown`` key. A canonical candidate
    is built from values checked by type and compared with ``config`` by
    digest, so ``True`` is not ``1``, ``80.0`` is not ``80``, an extra key or
    ``"markdown": "lesson"`` is refused.
    """
    if type(config) is not dict:
        return None
    strategy = config.get("strategy")
    grammar = config.get("markdown", LESSON_GRAMMAR)
    size = config.get("max_chars")
    if type(strategy) is not str or strategy not in POLICY_NAMES:
        return None
    if type(grammar) is not str or grammar not in GRAMMARS:
        return None
    if strategy in SIZED_POLICIES and (type(size) is not int or not MIN_POLICY_SIZE <= size <= MAX_POLICY_SIZE):
        return None
    candidate = policy_config(strategy, size if strategy in SIZED_POLICIES else None, grammar)
    return candidate if digest(candidate) == digest(config) else None


def policy_of_config(config: object) -> str | None:
    """The policy whose config ``config`` is, if it is in the config family (see ``family_config``)."""
    candidate = family_config(config)
    return None if candidate is None else candidate["strategy"]


def config_grammar(config: dict) -> str:
    """The grammar a family config builds with: its ``markdown`` (``"blocks"``, ``"blocks-2"``, ...), else ``"lesson"``."""
    return config.get("markdown", LESSON_GRAMMAR)


def manifest_configs(grammar: str = LESSON_GRAMMAR, policy_sizes: tuple[tuple[str, int], ...] = ()) -> dict:
    """The three configs a manifest builds, by policy name in ``POLICY_NAMES`` order.

    ``policy_sizes`` is ``Manifest.policy_sizes``; a policy it does not name
    keeps the lesson's size. ``manifest_configs()`` is the lesson's three.
    """
    sizes = dict(policy_sizes)
    return {name: policy_config(name, sizes.get(name), grammar) for name in POLICY_NAMES}


# --- policies ------------------------------------------------------------------
def fixed_char_spans(text: str, start: int, end: int, width: int) -> list[tuple[int, int]]:
    """Slices of ``width`` characters from ``start``; a blank slice is dropped.

    ``fixed_char_spans("abc  \\n", 0, 6, 3)`` -> ``[(0, 3)]``.
    """
    if start >= end:
        return []
    starts = range(start, end, width)
    # Every slice is ``width`` long but the last, which stops at ``end``.
    ends = [*range(start + width, end, width), end]
    # Slicing and stripping as one pass of C calls: a Python loop over slices took twice as long.
    pieces = map(text.__getitem__, map(slice, starts, ends))
    return list(compress(zip(starts, ends), map(str.strip, pieces)))


def grouped_spans(paragraphs: list[tuple[int, int]], target: int) -> list[tuple[int, int]]:
    """Neighbouring paragraphs (or blocks) grouped while a group spans at most ``target`` characters.

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
    """The chunk spans one policy cuts from one section's body: slices, its blocks, or groups of them."""
    strategy = config["strategy"]
    if strategy == "fixed-char":
        return fixed_char_spans(text, section.body_start, section.body_end, config["max_chars"])
    blocks = [(block.start, block.end) for block in section.blocks]
    if strategy == "paragraph":
        return blocks
    return grouped_spans(blocks, config["max_chars"])


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


def document_sections_once(document: dict, grammar: str, section_cache: dict | None) -> list[Section]:
    """The sections of one document under ``grammar``, read once for all the indexes of one build.

    ``section_cache`` maps ``(grammar, source_id)`` to the text and title the
    sections were read from; a hit must hold an equal text and title, so a
    document that differs between two saved indexes is read again.
    """
    text = document["text"]
    title = document["title"]
    key = (grammar, document["source_id"])
    if section_cache is not None and key in section_cache:
        cached_text, cached_title, sections = section_cache[key]
        if cached_text == text and cached_title == title:
            return sections
    sections = document_sections(text, grammar, document["source_id"], title)
    if section_cache is not None:
        section_cache[key] = (text, title, sections)
    return sections


class DocumentLayout:
    """What every policy reads from one document under one grammar, worked out once however many policies are built.

    The text's sections and their blocks, each section's id and the
    canonical JSON of the fields every chunk repeats; each section's block
    spans are listed on first use (fixed-char needs none). ``section_cache``
    as in ``document_sections_once``.
    """

    __slots__ = (
        "document",
        "text",
        "sections",
        "section_ids",
        "section_fields",
        "chunk_fields",
        "_block_spans",
    )

    def __init__(self, document: dict, grammar: str = LESSON_GRAMMAR, section_cache: dict | None = None) -> None:
        text = document["text"]
        revision_json = _json_string(document["document_revision"])
        self.document = document
        self.text = text
        self.sections = document_sections_once(document, grammar, section_cache)
        # digest({"document_revision": ..., "heading_start": ...}), keys already in canonical order.
        self.section_ids = [
            sha(f'{{"document_revision":{revision_json},"heading_start":{section.heading_start}}}')
            for section in self.sections
        ]
        source_json = _json_string(document["source_id"])
        # A chunk's canonical keys between "order" and "start", per section.
        self.section_fields = [
            f'"section_id":"{section_id}","section_title":{_json_string(section.title)},"source_id":{source_json}'
            for section, section_id in zip(self.sections, self.section_ids)
        ]
        # The first and the last of a chunk's canonical keys, the same for every chunk of the document.
        self.chunk_fields = (f'"document_revision":{revision_json}', f'"version":{_json_string(document["version"])}}}')
        self._block_spans: list[list[tuple[int, int]]] | None = None

    def block_spans(self) -> list[list[tuple[int, int]]]:
        """Each section's block spans, listed once for the paragraph and heading-aware policies."""
        if self._block_spans is None:
            self._block_spans = [[(block.start, block.end) for block in section.blocks] for section in self.sections]
        return self._block_spans

    def chunk_spans(self, config: dict) -> list[list[tuple[int, int]]]:
        """Each section's chunk spans under ``config``, as ``section_chunk_spans`` cuts them."""
        strategy = config["strategy"]
        if strategy == "fixed-char":
            return [
                fixed_char_spans(self.text, section.body_start, section.body_end, config["max_chars"])
                for section in self.sections
            ]
        if strategy == "paragraph":
            return self.block_spans()
        return [grouped_spans(blocks, config["max_chars"]) for blocks in self.block_spans()]


def chunk_records(config: dict, document: dict, section_cache: dict | None = None) -> tuple[list[dict], bytes]:
    """Every chunk record of one document, and their canonical JSON joined by commas (see ``layout_chunk_records``).

    ``section_cache`` (see ``document_sections_once``) lets several builds share one reading.
    """
    return layout_chunk_records(config, DocumentLayout(document, config_grammar(config), section_cache))


def layout_chunk_records(config: dict, layout: DocumentLayout) -> tuple[list[dict], bytes]:
    """Every chunk record of one laid-out document, and their canonical JSON joined by commas.

    Each chunk's payload is serialised once, here, in the exact text
    ``canonical_json`` gives it; that one text yields the chunk id and, joined,
    the document's share of the index id, so a build encodes every chunk once
    instead of once per hash (``tests/test_canonical.py`` holds this equal to
    ``digest`` on tricky values).
    """
    document = layout.document
    text = layout.text
    source_id = document["source_id"]
    version = document["version"]
    revision = document["document_revision"]
    revision_field, version_field = layout.chunk_fields
    # Keys in canonical (sorted) order; "config" and "chunk_id" sort before them all.
    id_hasher = hashlib.sha256(('{"config":' + canonical_json(config) + ",").encode("utf-8"))
    records: list[dict] = []
    # The records' canonical JSON, comma-separated, as pieces joined once at the end:
    # ``{"chunk_id":"<id>",`` then the payload, the comma opening every record but the first.
    record_pieces: list[bytes] = []
    opener = b'{"chunk_id":"'
    # Line numbers are newline counts (``text.count("\n", 0, start) + 1``), carried from one
    # chunk to the next: chunks come in text order, so each count covers only the text
    # since the previous chunk's last character.
    line = 1
    counted_to = 0
    for section, section_id, section_fields, spans in zip(
        layout.sections, layout.section_ids, layout.section_fields, layout.chunk_spans(config)
    ):
        title = section.title
        for start, end in spans:
            chunk_text = text[start:end]
            text_sha256 = hashlib.sha256(chunk_text.encode("utf-8")).hexdigest()
            order = len(records)
            if start < counted_to:
                # Never so for the lab's policies; counted again from the top rather than trusted.
                line, counted_to = 1, 0
            start_line = line + text.count("\n", counted_to, start)
            end_line = start_line + text.count("\n", start, end - 1)
            line = end_line
            counted_to = end - 1
            payload_tail = (
                f'{revision_field},"end":{end},"end_line":{end_line},"order":{order},'
                f'{section_fields},"start":{start},"start_line":{start_line},'
                f'"text":{_json_string(chunk_text)},"text_sha256":"{text_sha256}",{version_field}'
            ).encode("utf-8")
            chunk_hasher = id_hasher.copy()
            chunk_hasher.update(payload_tail)
            chunk_id = chunk_hasher.hexdigest()
            records.append(
                {
                    "chunk_id": chunk_id,
                    "source_id": source_id,
                    "version": version,
                    "document_revision": revision,
                    "section_id": section_id,
                    "section_title": title,
                    "order": order,
                    "start": start,
                    "end": end,
                    "start_line": start_line,
                    "end_line": end_line,
                    "text": chunk_text,
                    "text_sha256": text_sha256,
                }
            )
            record_pieces += (opener, chunk_id.encode("ascii"), b'",', payload_tail)
            opener = b',{"chunk_id":"'
    return records, b"".join(record_pieces)


def build_index(
    config: dict,
    sources: list[dict] | tuple[dict, ...],
    section_cache: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The index of ``sources`` under ``config``: documents and chunks by ``source_id``.

    Indexes built with one ``section_cache`` dict read each document's
    sections once (see ``document_sections_once``).
    """
    return build_policy_indexes({"index": config}, sources, progress, section_cache)["index"]


def build_indexes(
    sources: list[dict] | tuple[dict, ...],
    configs: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The three indexes of ``sources``, keyed by policy name in ``POLICY_NAMES`` order, in one pass.

    ``configs`` maps each policy name to its config (``manifest_configs``);
    the lesson's three when ``None``. ``progress`` as in ``build_policy_indexes``.
    """
    configs = manifest_configs() if configs is None else configs
    return build_policy_indexes({name: configs[name] for name in POLICY_NAMES}, sources, progress)


def build_policy_indexes(
    configs: dict[str, dict],
    sources: list[dict] | tuple[dict, ...],
    progress: Callable[[int, int], None] | None = None,
    section_cache: dict | None = None,
) -> dict[str, dict]:
    """One index per config of the same ``sources``, keyed as ``configs`` is, in one pass over the documents.

    What does not depend on the config is done once: each document's record,
    sections, line offsets, section ids and paragraphs, and the documents'
    canonical JSON inside every index id. ``progress``, when given, is called
    as ``progress(1, size)`` after each document, ``size`` its text's UTF-8 bytes.
    ``section_cache`` shares section readings with other builds (see
    ``document_sections_once``).

    An index id is ``digest(body)``, hashed as it is built: ``"chunks"`` sorts
    first among the body's keys, so the canonical text is the chunks' texts
    from ``layout_chunk_records`` followed by the rest of the body.
    """
    documents = [document_record(source) for source in sorted(sources, key=lambda source: source["source_id"])]
    hashers = {name: hashlib.sha256(b'{"chunks":[') for name in configs}
    chunks: dict[str, list[dict]] = {name: [] for name in configs}
    # The build makes no reference cycles, yet each pass of the cyclic
    # collector would walk the growing chunk lists again: about a tenth of a
    # large build. It is paused here and restored as it was, whatever happens.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for document in documents:
            # One layout per grammar the configs use (a manifest's three share one).
            layouts: dict[str, DocumentLayout] = {}
            for name, config in configs.items():
                grammar = config_grammar(config)
                if grammar not in layouts:
                    layouts[grammar] = DocumentLayout(document, grammar, section_cache)
                records, records_json = layout_chunk_records(config, layouts[grammar])
                if records and chunks[name]:
                    hashers[name].update(b",")
                hashers[name].update(records_json)
                chunks[name].extend(records)
            if progress is not None:
                progress(1, len(document["text"].encode("utf-8")))
    finally:
        if collecting:
            gc.enable()
    # The body's keys after "chunks", in canonical order; only "config" differs between the indexes.
    documents_json = canonical_json(documents).encode("utf-8")
    rest = canonical_json({"execution_mode": EXECUTION_MODE, "schema_version": SCHEMA_VERSION})[1:].encode("utf-8")
    indexes = {}
    for name, config in configs.items():
        hasher = hashers[name]
        hasher.update(b'],"config":' + canonical_json(config).encode("utf-8") + b',"documents":')
        hasher.update(documents_json)
        hasher.update(b"," + rest)
        indexes[name] = {
            "schema_version": SCHEMA_VERSION,
            "execution_mode": EXECUTION_MODE,
            "config": config,
            # Each index holds its own records, so changing one index leaves the others as built.
            "documents": [dict(document) for document in documents],
            "chunks": chunks[name],
            "index_id": hasher.hexdigest(),
        }
    return indexes


def result_scope(sources: list[dict] | tuple[dict, ...]) -> str:
    """The result's ``fixture_scope``: the fixture's own sentence only when every source is a fixture file."""
    if all(source["sha256"] in FIXTURE_SOURCE_SHA256 for source in sources):
        return FIXTURE_SCOPE
    return OWN_DOCUMENTS_SCOPE
