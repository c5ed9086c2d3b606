"""Chunk configs, the boundary policies, and every identity the lab hashes.

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

import contextlib
import gc
import hashlib
import json
from bisect import bisect_left, bisect_right
from collections import namedtuple
from collections.abc import Callable
from itertools import accumulate, compress
from types import MappingProxyType

from grammars import GRAMMARS, LESSON_GRAMMAR, Section, document_sections
from load_documents import MAX_POLICY_SIZE, MIN_POLICY_SIZE, SIZED_POLICIES, SOURCE_FIELDS, SpanCheck

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

# Every policy's config at its default size, in the order results list them:
# the lesson's three, then pair-aware (see ``family_config`` for every other
# config the lab builds). Kept as JSON text so no caller can mutate the lab's own copy.
_CONFIG_JSON = MappingProxyType(
    {
        "fixed-char": '{"strategy": "fixed-char", "version": 1, "max_chars": 80}',
        "paragraph": '{"strategy": "paragraph", "version": 1, "max_chars": null}',
        "heading-aware": '{"strategy": "heading-aware", "version": 1, "max_chars": 220}',
        "pair-aware": '{"strategy": "pair-aware", "version": 1, "max_chars": 220, "pairs": []}',
    }
)
# Every policy the lab knows, in result order. A result holds the first three
# always (``DEFAULT_POLICY_NAMES``) and pair-aware only when its manifest names
# it in "policies", so the lesson's and every earlier result's bytes stay as
# they were: a command takes the policies from the indexes it has, never from here.
POLICY_NAMES = tuple(_CONFIG_JSON)
DEFAULT_POLICY_NAMES = POLICY_NAMES[:3]
PAIR_AWARE = "pair-aware"
# A pair-aware index never joins chunks for a pair whose spans lie farther apart
# than this many times its target (version 1 of the rule; see docs/SPEC.md).
PAIR_CAP_MULTIPLE = 4
PAIR_KEYS = ("source_id", "instruction_span", "qualifier_span")
# The sizes a manifest started with a block grammar builds with, as a retrieval pipeline cuts them (see
# docs/markdown-grammar.md, "Choosing sizes"): 1,000 characters is LangChain's RecursiveCharacterTextSplitter
# default and inside the 500 to 1,500 characters (about 125 to 400 tokens) most pipelines use; both sized
# policies get the same budget, so the table compares rules, not sizes.
PIPELINE_SIZES = MappingProxyType({"fixed-char": 1_000, "heading-aware": 1_000})

DOCUMENT_KEYS = (*SOURCE_FIELDS, "text", "normalized_text_sha256", "document_revision")
INDEX_KEYS = ("schema_version", "execution_mode", "config", "documents", "chunks", "index_id")
RESULT_KEYS = ("execution_mode", "fixture_scope", "comparisons", "indexes")
# What an outline of a chunk holds (``build_outlines``): where it lies, no text, hashes or id.
OUTLINE_KEYS = ("source_id", "section_id", "section_title", "order", "start", "end")

# One configured encoder for every digest: building one per call is measurable
# on a large index, and sharing it keeps every hash on the same settings.
STRING_TYPES = frozenset({str})
_DIGEST_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# The string escaping that encoder applies (``ensure_ascii=False``): C-backed,
# so a chunk's canonical text can be assembled without a full encoder pass.
_json_string = json.encoder.encode_basestring
_ascii_json_string = json.encoder.encode_basestring_ascii


def json_string(text: str) -> str:
    """``text`` as a JSON string, as ``canonical_json`` and the saved files write it: ``"é\\n"`` -> ``'"é\\\\n"'``.

    For a text of ASCII alone that holds no DEL, the ASCII escaper writes that
    same JSON, faster: it escapes only DEL and the characters past ASCII beside
    what both escape (quotes, backslashes, controls); ``str.isascii`` is a flag, not a scan.
    """
    if text.isascii() and "\x7f" not in text:
        return _ascii_json_string(text)
    return _json_string(text)


def canonical_json(value: object) -> str:
    """The compact, key-sorted JSON text that ``digest`` hashes: ``{"b": 1, "a": "é"}`` -> ``'{"a":"é","b":1}'``."""
    return _DIGEST_ENCODER.encode(value)


def digest(value: object) -> str:
    """Lowercase hex SHA-256 of ``value`` as compact, key-sorted JSON (UTF-8)."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def sha(text: str) -> str:
    """Lowercase hex SHA-256 of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def policy_config(
    name: str, max_chars: int | None = None, grammar: str = LESSON_GRAMMAR, pairs: list[dict] | None = None
) -> dict:
    """A fresh config of policy ``name`` (``KeyError`` if none) at ``max_chars`` under ``grammar``.

    ``max_chars=None`` keeps the default size (80, 220; paragraph has none).
    A block grammar adds a fourth key after the other three:
    ``policy_config("heading-aware", 288, "blocks")`` ->
    ``{"strategy": "heading-aware", "version": 1, "max_chars": 288, "markdown": "blocks"}``
    (``"markdown": "blocks-2"`` under "blocks-2", ``"blocks-3"`` under "blocks-3" and so on, so their ids differ);
    lesson configs have no ``markdown`` key, so the spec's three stay as written.
    A pair-aware config ends with the ``"pairs"`` it keeps together
    (``config_pairs``; none when ``pairs`` is ``None``), so they are part of
    every id it gives; the other policies take no pairs.
    """
    config = json.loads(_CONFIG_JSON[name])
    if max_chars is not None:
        config["max_chars"] = max_chars
    if grammar != LESSON_GRAMMAR:
        config["markdown"] = grammar
    if name == PAIR_AWARE:
        # After "markdown", so the keys keep the family's order.
        del config["pairs"]
        config["pairs"] = [] if pairs is None else [dict(pair) for pair in pairs]
    elif pairs is not None:
        raise ValueError(f"the {name} policy takes no pairs")
    return config


def pair_sort_key(pair: dict) -> tuple:
    """A declared pair's place in a config's ``pairs``: by source, then instruction span, then qualifier span."""
    return (pair["source_id"], *pair["instruction_span"], *pair["qualifier_span"])


def config_pairs(span_checks: tuple[SpanCheck, ...] | list[SpanCheck]) -> list[dict]:
    """The pairs a pair-aware config keeps: each check's source and spans, sorted, each once.

    Names are left out: they shape no chunk, so renaming a check changes no id.
    ``[SpanCheck("b", "doc", Span(5, 9, ..), Span(0, 3, ..))]`` ->
    ``[{"source_id": "doc", "instruction_span": [5, 9], "qualifier_span": [0, 3]}]``.
    """
    return declared_config_pairs(
        {
            "source_id": check.source_id,
            "instruction_span": check.instruction.as_list(),
            "qualifier_span": check.qualifier.as_list(),
        }
        for check in span_checks
    )


def declared_config_pairs(declared) -> list[dict]:
    """``config_pairs`` of pairs as a result declares them (``source_id``, ``instruction_span``, ``qualifier_span``; any name ignored)."""
    unique = {
        pair_sort_key(pair): {
            "source_id": pair["source_id"],
            "instruction_span": list(pair["instruction_span"]),
            "qualifier_span": list(pair["qualifier_span"]),
        }
        for pair in declared
    }
    return [unique[key] for key in sorted(unique)]


def checked_pair_list(value: object) -> list[dict] | None:
    """Saved ``pairs`` rebuilt from values checked by type, sorted and each once; ``None`` if any is malformed.

    A pair is ``{"source_id": <non-empty string>, "instruction_span": [start, end],
    "qualifier_span": [start, end]}``, each span two ``int`` with ``0 <= start < end``.
    The caller compares the rebuilt list with the saved one by digest, so an
    unsorted or repeated list is refused there.
    """
    if type(value) is not list:
        return None
    pairs = []
    for pair in value:
        if type(pair) is not dict or len(pair) != len(PAIR_KEYS) or any(key not in pair for key in PAIR_KEYS):
            return None
        source_id = pair["source_id"]
        if type(source_id) is not str or not source_id:
            return None
        spans = []
        for key in PAIR_KEYS[1:]:
            span = pair[key]
            if type(span) is not list or len(span) != 2 or any(type(bound) is not int for bound in span):
                return None
            if not 0 <= span[0] < span[1]:
                return None
            spans.append([span[0], span[1]])
        pairs.append({"source_id": source_id, "instruction_span": spans[0], "qualifier_span": spans[1]})
    return declared_config_pairs(pairs)


def family_config(config: object) -> dict | None:
    """The lab's own copy of ``config`` if it is in the config family, else ``None``.

    The family: strategy one of ``POLICY_NAMES``, version 1, ``max_chars`` an ``int``
    from ``MIN_POLICY_SIZE`` to ``MAX_POLICY_SIZE`` (``null`` for paragraph),
    ``"markdown"`` one of the block grammars (``"blocks"`` to ``"blocks-10"``) or no ``markdown`` key, and
    for pair-aware its ``pairs`` (``checked_pair_list``). A canonical candidate
    is built from values checked by type and compared with ``config`` by
    digest, so ``True`` is not ``1``, ``80.0`` is not ``80``, an extra key,
    ``"markdown": "lesson"`` or pairs out of order are refused.
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
    pairs = None
    if strategy == PAIR_AWARE:
        pairs = checked_pair_list(config.get("pairs"))
        if pairs is None:
            return None
    candidate = policy_config(strategy, size if strategy in SIZED_POLICIES else None, grammar, pairs)
    return candidate if digest(candidate) == digest(config) else None


def policy_of_config(config: object) -> str | None:
    """The policy whose config ``config`` is, if it is in the config family (see ``family_config``)."""
    candidate = family_config(config)
    return None if candidate is None else candidate["strategy"]


def config_grammar(config: dict) -> str:
    """The grammar a family config builds with: its ``markdown`` (``"blocks"``, ``"blocks-2"``, ...), else ``"lesson"``."""
    return config.get("markdown", LESSON_GRAMMAR)


def manifest_configs(
    grammar: str = LESSON_GRAMMAR,
    policy_sizes: tuple[tuple[str, int], ...] = (),
    span_checks: tuple[SpanCheck, ...] = (),
) -> dict:
    """The configs a manifest builds, by policy name in ``POLICY_NAMES`` order.

    ``policy_sizes`` is ``Manifest.policy_sizes``: the three default policies
    always, a size it does not name left at the lesson's; pair-aware only when
    it names one, keeping ``span_checks`` (``config_pairs``). ``manifest_configs()``
    is the lesson's three.
    """
    sizes = dict(policy_sizes)
    configs = {name: policy_config(name, sizes.get(name), grammar) for name in DEFAULT_POLICY_NAMES}
    if PAIR_AWARE in sizes:
        configs[PAIR_AWARE] = policy_config(PAIR_AWARE, sizes[PAIR_AWARE], grammar, config_pairs(span_checks))
    return configs


def manifest_policy_configs(manifest) -> dict:
    """The configs a build of ``manifest`` (a ``load_documents.Manifest``) uses: its grammar, sizes and pairs."""
    return manifest_configs(manifest.grammar, manifest.policy_sizes, manifest.span_checks)


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


def joined_spans(groups: list[tuple[int, int]], stretches: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Neighbouring ``groups`` joined so that no boundary falls inside any of ``stretches``.

    Every group from the first one ending past a stretch's start to the last
    one starting before its end becomes one chunk, blank lines between them
    included; the other groups stay as they are.
    ``joined_spans([(0, 10), (11, 20), (21, 40)], [(5, 15)])`` -> ``[(0, 20), (21, 40)]``.
    Each stretch marks the run of boundaries it covers once, so the cost is
    groups plus stretches times a logarithm, however long the runs.
    """
    if len(groups) < 2 or not stretches:
        return groups
    starts = [start for start, _ in groups]
    ends = [end for _, end in groups]
    # opened[k] - closed[k]: how many stretches cover the boundary after group k, as running sums.
    opened = [0] * len(groups)
    for low, high in stretches:
        first = bisect_right(ends, low)
        last = bisect_left(starts, high) - 1
        if first < last:
            opened[first] += 1
            opened[last] -= 1
    joined: list[tuple[int, int]] = []
    covering = 0
    for position, group in enumerate(groups):
        if covering > 0:
            joined[-1] = (joined[-1][0], group[1])
        else:
            joined.append(group)
        covering += opened[position]
    return joined


def pair_aware_spans(
    blocks: list[tuple[int, int]], target: int, stretches: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Heading-aware groups at ``target``, joined where a kept pair's stretch would fall across a boundary.

    ``pair_aware_spans([(0, 10), (11, 20), (21, 40)], 20, [(15, 25)])`` -> ``[(0, 40)]``.
    """
    return joined_spans(grouped_spans(blocks, target), stretches)


def section_chunk_spans(
    config: dict, text: str, section: Section, stretches: list[tuple[int, int]] = ()
) -> list[tuple[int, int]]:
    """The chunk spans one policy cuts from one section's body: slices, its blocks, or groups of them.

    ``stretches`` are the section's kept pairs under pair-aware (``pair_placements``).
    """
    strategy = config["strategy"]
    if strategy == "fixed-char":
        return fixed_char_spans(text, section.body_start, section.body_end, config["max_chars"])
    blocks = [(block.start, block.end) for block in section.blocks]
    if strategy == "paragraph":
        return blocks
    if strategy == PAIR_AWARE:
        return pair_aware_spans(blocks, config["max_chars"], list(stretches))
    return grouped_spans(blocks, config["max_chars"])


# --- which pairs pair-aware keeps ------------------------------------------------

# Why a pair-aware index leaves a declared pair split; every other pair it keeps.
KEPT = "kept"
OVER_CAP = "over_cap"
ACROSS_HEADINGS = "across_headings"
OUTSIDE_SECTIONS = "outside_sections"


class PairPlacement(namedtuple("PairPlacement", ("pair", "status", "distance", "section"))):
    """What pair-aware does with one declared pair (a ``config_pairs`` entry).

    ``status`` is ``KEPT`` (both spans in one section's body, at most
    ``PAIR_CAP_MULTIPLE`` times the target apart: no boundary falls between
    them), ``OVER_CAP`` (one section, farther apart), ``ACROSS_HEADINGS`` (two
    sections) or ``OUTSIDE_SECTIONS`` (a span in a heading line or front matter,
    which no block-made chunk holds). ``distance`` is the characters from the
    first span's start to the last one's end; ``section`` the position of the
    section holding both, else ``None``.
    """

    __slots__ = ()

    @property
    def stretch(self) -> tuple[int, int]:
        """From the pair's first character to its last: what one chunk must hold."""
        instruction = self.pair["instruction_span"]
        qualifier = self.pair["qualifier_span"]
        return min(instruction[0], qualifier[0]), max(instruction[1], qualifier[1])


def section_holding(sections: list[Section] | tuple[Section, ...], body_starts: list[int], start: int, end: int):
    """The position of the section whose body holds all of ``[start, end)``, or ``None``.

    ``body_starts`` are the sections' body starts, ascending. ``None``: the span
    touches a heading line or front matter, or a heading lies inside it.
    """
    position = bisect_right(body_starts, start) - 1
    if position >= 0 and end <= sections[position].body_end:
        return position
    return None


def place_pair(pair: dict, sections, body_starts: list[int], target: int) -> PairPlacement:
    """Where one pair lies in its document's sections, and whether pair-aware at ``target`` keeps it."""
    instruction = pair["instruction_span"]
    qualifier = pair["qualifier_span"]
    distance = max(instruction[1], qualifier[1]) - min(instruction[0], qualifier[0])
    instruction_section = section_holding(sections, body_starts, *instruction)
    qualifier_section = section_holding(sections, body_starts, *qualifier)
    if instruction_section is None or qualifier_section is None:
        return PairPlacement(pair, OUTSIDE_SECTIONS, distance, None)
    if instruction_section != qualifier_section:
        return PairPlacement(pair, ACROSS_HEADINGS, distance, None)
    if distance > PAIR_CAP_MULTIPLE * target:
        return PairPlacement(pair, OVER_CAP, distance, instruction_section)
    return PairPlacement(pair, KEPT, distance, instruction_section)


def pairs_by_source(config: dict) -> dict[str, list[dict]]:
    """A pair-aware config's pairs grouped by source (``{}`` for any other config), in config order."""
    grouped: dict[str, list[dict]] = {}
    for pair in config.get("pairs", ()) if config["strategy"] == PAIR_AWARE else ():
        grouped.setdefault(pair["source_id"], []).append(pair)
    return grouped


def section_stretches(placements: list[PairPlacement]) -> dict[int, list[tuple[int, int]]]:
    """The stretches pair-aware keeps whole, by the position of the section holding them."""
    stretches: dict[int, list[tuple[int, int]]] = {}
    for placement in placements:
        if placement.status == KEPT:
            stretches.setdefault(placement.section, []).append(placement.stretch)
    return stretches


def pair_placements(config: dict, documents: list[dict], section_cache: dict | None = None) -> list[PairPlacement]:
    """What a pair-aware ``config`` does with each of its pairs over ``documents``, in config order.

    Only documents that hold a pair are read (``section_cache`` as in
    ``document_sections_once``). A pair whose source is not among ``documents``
    is ``OUTSIDE_SECTIONS``.
    """
    grammar = config_grammar(config)
    by_source = {document["source_id"]: document for document in documents}
    placed: dict[str, list[PairPlacement]] = {}
    for source_id, pairs in pairs_by_source(config).items():
        document = by_source.get(source_id)
        sections = [] if document is None else document_sections_once(document, grammar, section_cache)
        body_starts = [section.body_start for section in sections]
        placed[source_id] = [place_pair(pair, sections, body_starts, config["max_chars"]) for pair in pairs]
    taken = {source_id: iter(placements) for source_id, placements in placed.items()}
    return [next(taken[pair["source_id"]]) for pair in config.get("pairs", ())]


@contextlib.contextmanager
def collector_paused():
    """Keep the cyclic garbage collector off until the block ends, then restore it as it was, whatever happens.

    For work that makes no reference cycles while it holds many objects: each pass of the collector would walk
    them all again. The build pauses it for its chunk lists (about a tenth of a large build), ``judge`` for its
    records, ``scan`` from reading the manifest to printing its findings (about 0.14 s of 500 pages), ``sweep``
    and ``context`` for the sections, spans and outlines they hold.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


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

    def chunk_spans(self, config: dict, pairs: list[dict] = ()) -> list[list[tuple[int, int]]]:
        """Each section's chunk spans under ``config``, as ``section_chunk_spans`` cuts them.

        ``pairs`` are this document's pairs of a pair-aware ``config`` (``pairs_by_source``).
        """
        strategy = config["strategy"]
        if strategy == "fixed-char":
            return [
                fixed_char_spans(self.text, section.body_start, section.body_end, config["max_chars"])
                for section in self.sections
            ]
        if strategy == "paragraph":
            return self.block_spans()
        target = config["max_chars"]
        if strategy == PAIR_AWARE:
            stretches = section_stretches(self.pair_placements(pairs, target))
            return [
                pair_aware_spans(blocks, target, stretches.get(position, ()))
                for position, blocks in enumerate(self.block_spans())
            ]
        return [grouped_spans(blocks, target) for blocks in self.block_spans()]

    def pair_placements(self, pairs: list[dict], target: int) -> list[PairPlacement]:
        """Where each of this document's ``pairs`` lies, and whether pair-aware at ``target`` keeps it."""
        body_starts = [section.body_start for section in self.sections]
        return [place_pair(pair, self.sections, body_starts, target) for pair in pairs]


def chunk_records(config: dict, document: dict, section_cache: dict | None = None) -> tuple[list[dict], bytes]:
    """Every chunk record of one document, and their canonical JSON joined by commas (see ``layout_chunk_records``).

    ``section_cache`` (see ``document_sections_once``) lets several builds share one reading.
    """
    layout = DocumentLayout(document, config_grammar(config), section_cache)
    return layout_chunk_records(config, layout, pairs_by_source(config).get(document["source_id"], ()))


def chunk_id_hasher(config_json: str):
    """A SHA-256 that has taken every chunk id's opening, ``{"config":<config>,``, to be copied per chunk."""
    # Keys in canonical (sorted) order; "config" and "chunk_id" sort before them all.
    return hashlib.sha256(('{"config":' + config_json + ",").encode("utf-8"))


def layout_chunk_records(
    config: dict, layout: DocumentLayout, pairs: list[dict] = (), id_hasher=None, texts_json: list[str] | None = None
) -> tuple[list[dict], bytes]:
    """Every chunk record of one laid-out document, and their canonical JSON joined by commas.

    ``pairs`` are the document's pairs of a pair-aware ``config`` (``pairs_by_source``);
    ``id_hasher``, ``chunk_id_hasher(canonical_json(config))`` when the caller
    has it: a pair-aware config holding thousands of pairs is then encoded and
    hashed once per build, not once per document. ``texts_json``, when given,
    gets each record's text as a JSON string (``json_string``), in order: the
    payload holds it already, and a writer of the records can reuse it.

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
    if id_hasher is None:
        id_hasher = chunk_id_hasher(canonical_json(config))
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
        layout.sections, layout.section_ids, layout.section_fields, layout.chunk_spans(config, pairs)
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
            # json_string, written out: a call a chunk costs more than the test.
            if chunk_text.isascii() and "\x7f" not in chunk_text:
                chunk_text_json = _ascii_json_string(chunk_text)
            else:
                chunk_text_json = _json_string(chunk_text)
            if texts_json is not None:
                texts_json.append(chunk_text_json)
            payload_tail = (
                f'{revision_field},"end":{end},"end_line":{end_line},"order":{order},'
                f'{section_fields},"start":{start},"start_line":{start_line},'
                f'"text":{chunk_text_json},"text_sha256":"{text_sha256}",{version_field}'
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


def laid_out_documents(documents: list[dict], configs: dict[str, dict], section_cache: dict | None = None):
    """Each document with, per config, ``(name, config, layout, pairs)``: what one pass of a build walks.

    One ``DocumentLayout`` per grammar the configs use (a manifest's policies
    share one); ``pairs`` are the document's pairs of a pair-aware config.
    """
    config_pairs_by_source = {name: pairs_by_source(config) for name, config in configs.items()}
    for document in documents:
        layouts: dict[str, DocumentLayout] = {}
        laid_out = []
        for name, config in configs.items():
            grammar = config_grammar(config)
            if grammar not in layouts:
                layouts[grammar] = DocumentLayout(document, grammar, section_cache)
            laid_out.append(
                (name, config, layouts[grammar], config_pairs_by_source[name].get(document["source_id"], ()))
            )
        yield document, laid_out


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
    section_cache: dict | None = None,
    encoded: list | None = None,
    chunk_texts: bool = True,
) -> dict:
    """The indexes of ``sources``, keyed by policy name in ``POLICY_NAMES`` order, in one pass.

    ``configs`` maps each policy name to its config (``manifest_configs``):
    the three default policies and any optional one it holds; the lesson's
    three when ``None``. ``progress``, ``section_cache``, ``encoded`` and
    ``chunk_texts`` as in ``build_policy_indexes``.
    """
    configs = manifest_configs() if configs is None else configs
    ordered = {name: configs[name] for name in POLICY_NAMES if name in configs}
    return build_policy_indexes(ordered, sources, progress, section_cache, encoded, chunk_texts)


def build_policy_indexes(
    configs: dict[str, dict],
    sources: list[dict] | tuple[dict, ...],
    progress: Callable[[int, int], None] | None = None,
    section_cache: dict | None = None,
    encoded: list | None = None,
    chunk_texts: bool = True,
) -> dict[str, dict]:
    """One index per config of the same ``sources``, keyed as ``configs`` is, in one pass over the documents.

    What does not depend on the config is done once: each document's record,
    sections, line offsets, section ids and paragraphs, and the documents'
    canonical JSON inside every index id. ``progress``, when given, is called
    as ``progress(1, size)`` after each document, ``size`` its text's UTF-8 bytes.
    ``section_cache`` shares section readings with other builds (see
    ``document_sections_once``). ``encoded``, when given (a list), gets
    ``(objects, "text", texts)`` for each index's chunks and for its documents:
    their texts as JSON strings, in order, as the ids were hashed from them.
    ``indented_json.saved_json_pieces`` lays the texts out from them (its
    ``encoded``) instead of encoding them again. With ``chunk_texts`` false
    it gets the documents' alone: the chunks' texts as JSON are about as
    large as the texts themselves, and a writer that keeps the result's
    peak memory low escapes them again (on 454 pages of a docs set, 9 MB
    less at the peak for 0.03 s more).

    An index id is ``digest(body)``, hashed as it is built: ``"chunks"`` sorts
    first among the body's keys, so the canonical text is the chunks' texts
    from ``layout_chunk_records`` followed by the rest of the body.
    """
    documents = [document_record(source) for source in sorted(sources, key=lambda source: source["source_id"])]
    hashers = {name: hashlib.sha256(b'{"chunks":[') for name in configs}
    config_texts = {name: canonical_json(config) for name, config in configs.items()}
    id_hashers = {name: chunk_id_hasher(text) for name, text in config_texts.items()}
    chunks: dict[str, list[dict]] = {name: [] for name in configs}
    texts_json: dict[str, list[str] | None] = {
        name: None if encoded is None or not chunk_texts else [] for name in configs
    }
    # The build makes no reference cycles, yet each pass of the cyclic
    # collector would walk the growing chunk lists again: about a tenth of a
    # large build.
    with collector_paused():
        for document, laid_out in laid_out_documents(documents, configs, section_cache):
            for name, config, layout, pairs in laid_out:
                records, records_json = layout_chunk_records(config, layout, pairs, id_hashers[name], texts_json[name])
                if records and chunks[name]:
                    hashers[name].update(b",")
                hashers[name].update(records_json)
                chunks[name].extend(records)
            if progress is not None:
                progress(1, len(document["text"].encode("utf-8")))
    # The body's keys after "chunks", in canonical order; only "config" differs between the indexes.
    document_texts_json = [json_string(document["text"]) for document in documents]
    documents_json = canonical_documents_json(documents, document_texts_json)
    rest = canonical_json({"execution_mode": EXECUTION_MODE, "schema_version": SCHEMA_VERSION})[1:].encode("utf-8")
    indexes = {}
    for name, config in configs.items():
        hasher = hashers[name]
        hasher.update(b'],"config":' + config_texts[name].encode("utf-8") + b',"documents":')
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
        if encoded is not None:
            if chunk_texts:
                encoded.append((indexes[name]["chunks"], "text", texts_json[name]))
            encoded.append((indexes[name]["documents"], "text", document_texts_json))
    return indexes


def canonical_documents_json(documents: list[dict], texts_json: list[str]) -> bytes:
    """``canonical_json(documents)`` as UTF-8, made from each document's text as JSON (``texts_json``, in order).

    A document record's fields are strings alone (``document_record``), each
    written ``"key":value`` in key order, the text's JSON as given; a document
    holding any other value is left to ``canonical_json``. Each document is
    encoded on its own, so one text past ASCII widens no other.
    """
    pieces = []
    for document, text_json in zip(documents, texts_json):
        if not STRING_TYPES.issuperset(map(type, document.values())):
            pieces.append(canonical_json(document).encode("utf-8"))
            continue
        fields = (
            _json_string(key) + ":" + (text_json if key == "text" else _json_string(value))
            for key, value in sorted(document.items())
        )
        pieces.append(("{" + ",".join(fields) + "}").encode("utf-8"))
    return b"[" + b",".join(pieces) + b"]"


def layout_chunk_outlines(config: dict, layout: DocumentLayout, pairs: list[dict] = ()) -> list[dict]:
    """Where each chunk of one laid-out document lies, without its text, hashes or id.

    An outline holds a record's ``OUTLINE_KEYS`` with the record's values: the
    same spans, order and section as ``layout_chunk_records`` gives, for
    commands that only ask which chunk holds which span.
    """
    source_id = layout.document["source_id"]
    outlines = []
    for section, section_id, spans in zip(layout.sections, layout.section_ids, layout.chunk_spans(config, pairs)):
        for start, end in spans:
            outlines.append(
                {
                    "source_id": source_id,
                    "section_id": section_id,
                    "section_title": section.title,
                    "order": len(outlines),
                    "start": start,
                    "end": end,
                }
            )
    return outlines


def build_outlines(
    configs: dict[str, dict],
    sources: list[dict] | tuple[dict, ...],
    progress: Callable[[int, int], None] | None = None,
    section_cache: dict | None = None,
) -> dict[str, dict]:
    """Each config's chunks as outlines (``layout_chunk_outlines``), keyed as ``configs`` is, in one pass.

    ``{"config": config, "chunks": [outline, ...]}`` per config, the chunks in
    the order ``build_policy_indexes`` gives them: what ``context`` and ``scan``
    need of an index, at the cost of the boundary rules alone. ``progress`` and
    ``section_cache`` as in ``build_policy_indexes``.
    """
    documents = [document_record(source) for source in sorted(sources, key=lambda source: source["source_id"])]
    chunks: dict[str, list[dict]] = {name: [] for name in configs}
    for document, laid_out in laid_out_documents(documents, configs, section_cache):
        for name, config, layout, pairs in laid_out:
            chunks[name].extend(layout_chunk_outlines(config, layout, pairs))
        if progress is not None:
            progress(1, len(document["text"].encode("utf-8")))
    return {name: {"config": config, "chunks": chunks[name]} for name, config in configs.items()}


def result_scope(sources: list[dict] | tuple[dict, ...]) -> str:
    """The result's ``fixture_scope``: the fixture's own sentence only when every source is a fixture file."""
    if all(source["sha256"] in FIXTURE_SOURCE_SHA256 for source in sources):
        return FIXTURE_SCOPE
    return OWN_DOCUMENTS_SCOPE
