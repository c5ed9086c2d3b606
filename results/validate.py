"""Re-derive a saved index or result and refuse it, naming the first divergence.

A saved file is untrusted: every index is rebuilt from its own documents with
the lab's own copy of its config, every comparison is recomputed, and any
difference at all (types included, even when every hash was recomputed to
match) is refused with ``IngestionError`` at the field that moved
(``SPEC.md``, "Validation").
"""

from __future__ import annotations

import json
import marshal
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from checks.span_checks import assembled_result, build_comparisons, build_pair_comparisons, is_pairs_comparison
from chunk_index import (
    DEFAULT_POLICY_NAMES,
    DOCUMENT_KEYS,
    EXECUTION_MODE,
    INDEX_KEYS,
    PAIR_AWARE,
    POLICY_NAMES,
    RESULT_KEYS,
    SCHEMA_VERSION,
    build_index,
    build_policy_indexes,
    config_grammar,
    declared_config_pairs,
    digest,
    document_record,
    family_config,
    policy_of_config,
    result_scope,
)
from grammars import BLOCK_GRAMMARS, HEADING, LESSON_GRAMMAR
from lab_io.errors import IngestionError, json_type, printable, quoted, quoted_name, text_difference
from lab_io.indented_json import saved_json_pieces
from lab_io.strict_json import (
    MAX_ARTIFACT_BYTES,
    bounded_blocks,
    ends_inside,
    json_text,
    parse_json_text,
    read_json_file,
)
from load_documents import (
    MARKDOWN_SUFFIXES,
    MAX_POLICY_SIZE,
    MIN_POLICY_SIZE,
    SHA256_PATTERN,
    SOURCE_FIELDS,
    VERSION_PATTERN,
    check_text,
    grammar_bounds,
    relative_path_parts,
)

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
    ``first_divergence({"a": 1}, {"a": True}, "x")`` -> ``("x.a", "saved 1 (integer), derived true (boolean)")``.
    """
    if type(saved) is not type(derived):
        return (
            path or "(top)",
            f"saved {quoted(saved)} ({json_type(saved)}), derived {quoted(derived)} ({json_type(derived)})",
        )
    if isinstance(derived, dict):
        missing = [key for key in derived if key not in saved]
        if missing:
            return path or "(top)", f"key {quoted_name(missing[0])} is missing"
        extra = [key for key in saved if key not in derived]
        if extra:
            return path or "(top)", f"unexpected key {quoted_name(extra[0])}"
        ordered = sorted(derived, key=lambda key: key in _HASH_KEYS)
        for key in ordered:
            found = first_divergence(saved[key], derived[key], join_path(path, key))
            if found:
                return found
        return None
    if isinstance(derived, list):
        if len(saved) != len(derived):
            # An item deleted or added shifts every later one: say so first, and where the lists part, rather than
            # how the first shifted item differs from the one now beside it.
            # Items alike but for their keys' order are alike, as ``require_same`` takes them.
            parted = next(
                (
                    position
                    for position, (first, second) in enumerate(zip(saved, derived))
                    if not same_json(first, second) and digest(first) != digest(second)
                ),
                None,
            )
            agree = min(len(saved), len(derived))
            where = f"the first that differs is [{parted:,}]" if parted is not None else f"the first {agree:,} agree"
            return path or "(top)", f"saved {len(saved):,} items, derived {len(derived):,} ({where})"
        for position, (saved_item, derived_item) in enumerate(zip(saved, derived)):
            found = first_divergence(saved_item, derived_item, join_path(path, position))
            if found:
                return found
        return None
    if saved != derived:
        if type(saved) is str:
            # Two long texts alike in their first 60 characters would read the same: say where they part.
            return path or "(top)", text_difference(saved, derived)
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
        raise IngestionError(f"{what}_not_object", path or "(top)", f"expected an object, found {json_type(value)}")
    for key in keys:
        if key not in value:
            raise IngestionError(f"{what}_fields", path or "(top)", f"key {quoted_name(key)} is missing")
    for key in value:
        if key not in keys:
            raise IngestionError(f"{what}_fields", path or "(top)", f"unexpected key {quoted_name(key)}")
    return value


def checked_document(value: object, path: str, grammar: str = LESSON_GRAMMAR) -> dict:
    """A saved document whose fields, bounds and own hashes hold; returns its source form.

    Under the lesson grammar its text must open with a heading; the block
    grammar takes text before the first heading as a section of its own.
    """
    document = require_keys(value, DOCUMENT_KEYS, path, "document")
    for key in DOCUMENT_KEYS:
        if type(document[key]) is not str:
            raise IngestionError(
                "field_not_string", join_path(path, key), f"expected a string, found {json_type(document[key])}"
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
    limit = grammar_bounds(grammar).source_bytes
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        raise IngestionError("text_too_large", text_path, f"over {limit:,} UTF-8 bytes")
    check_text(text, text_path)
    if grammar == LESSON_GRAMMAR and not HEADING.match(text):
        raise IngestionError("heading_required", text_path, "text must start with a '# ' heading at offset 0")
    if "\r" in text:
        raise IngestionError(
            "carriage_return",
            text_path,
            f"\\r at offset {text.index(chr(13))}; saved texts hold normalized \\n line ends",
        )
    derived = document_record(document)
    # (A 64-digit hex string: checked with the document's fields above.)
    saved_hash, text_hash = document["normalized_text_sha256"], derived["normalized_text_sha256"]
    if saved_hash != text_hash:
        # Two digests part anywhere: said whole, and what the difference means, not where two texts part.
        raise IngestionError(
            "text_hash_mismatch",
            join_path(path, "normalized_text_sha256"),
            f"the text does not hash to it (saved {saved_hash}, the text's {text_hash}): the text or its hash was "
            "changed after the result was written",
        )
    require_same(
        document["document_revision"],
        derived["document_revision"],
        join_path(path, "document_revision"),
        "revision_mismatch",
    )
    return {field: document[field] for field in (*SOURCE_FIELDS, "text")}


def validate_index(value: object, path: str = "", section_cache: dict | None = None, progress=None) -> dict:
    """Rebuild a saved index from its documents and config; return it if identical.

    The indexes of one result share ``section_cache``, so each document's
    sections are read once (``chunk_index.document_sections_once``).

    Refused with ``IngestionError``: a wrong shape or type anywhere, an
    unsupported config, a bad document, and any difference at all between the
    saved index and the rebuilt one, even when every hash was recomputed.
    """
    index, config, sources = index_inputs(value, path)
    if progress is None:
        derived = build_index(config, sources, section_cache)
    else:
        derived = build_index(config, sources, section_cache, progress)
    if same_json(index, derived):
        # Identical down to types and key order: hand back the saved copy and
        # let the rebuilt one go, so a large result is not held twice.
        return index
    require_same(index, derived, path, "index_mismatch")
    return derived


def index_inputs(
    value: object, path: str, checked: tuple[list, list[dict]] | None = None
) -> tuple[dict, dict, list[dict]]:
    """What rebuilding a saved index starts from, checked: the index, the lab's own copy of its config, its sources.

    ``checked``, ``(documents, sources)`` of an index checked before: an index
    holding that very documents list (one object, as ``chunkless_value``
    shares it) takes its sources without checking each document again.

    Refused with ``IngestionError``: a wrong shape or type, an unsupported
    config, a bad document, a source id or path twice, a pair-aware pair
    outside its text, or chunks that are not a list.
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
    # The validator rebuilds with its own copy of the config, built from checked values.
    config = family_config(index["config"])
    if config is None:
        raise IngestionError(
            "unsupported_chunk_config",
            join_path(path, "config"),
            f"{quoted(index['config'], 120)} is not in the lab's config family (strategy {', '.join(POLICY_NAMES)}; "
            f"version 1; max_chars {MIN_POLICY_SIZE}..{MAX_POLICY_SIZE}, null for paragraph; "
            f'"markdown": {", ".join(json.dumps(grammar) for grammar in BLOCK_GRAMMARS)} or absent; pair-aware\'s '
            '"pairs" sorted, each once)',
        )
    grammar = config_grammar(config)
    documents = index["documents"]
    if type(documents) is not list or not documents:
        raise IngestionError("no_documents", join_path(path, "documents"), "expected a non-empty list of documents")
    sources = []
    owners: dict[tuple[str, str], int] = {}
    if checked is not None and documents is checked[0]:
        sources = checked[1]
        documents = ()
    for position, document in enumerate(documents):
        document_path = join_path(join_path(path, "documents"), position)
        source = checked_document(document, document_path, grammar)
        for field in ("source_id", "path"):
            key = source[field] if field == "source_id" else "/".join(relative_path_parts(source[field], document_path))
            earlier = owners.setdefault((field, key), position)
            if earlier != position:
                raise IngestionError(
                    f"duplicate_{field}",
                    join_path(document_path, field),
                    f"{quoted_name(source[field])} is also documents[{earlier}]",
                )
        sources.append(source)
    check_config_pairs(config, sources, join_path(join_path(path, "config"), "pairs"))
    if type(index["chunks"]) is not list:
        raise IngestionError(
            "chunks_not_list", join_path(path, "chunks"), f"expected a list, found {json_type(index['chunks'])}"
        )
    return index, config, sources


def check_config_pairs(config: dict, sources: list[dict], path: str) -> None:
    """Refuse a pair-aware config whose pair names no saved document or runs past its text."""
    if config["strategy"] != PAIR_AWARE:
        return
    lengths = {source["source_id"]: len(source["text"]) for source in sources}
    for position, pair in enumerate(config["pairs"]):
        pair_path = join_path(path, position)
        length = lengths.get(pair["source_id"])
        if length is None:
            raise IngestionError(
                "config_pair",
                join_path(pair_path, "source_id"),
                f"{quoted_name(pair['source_id'])} is not a saved document",
            )
        for key in ("instruction_span", "qualifier_span"):
            if pair[key][1] > length:
                raise IngestionError(
                    "config_pair",
                    join_path(pair_path, key),
                    f"{quoted(pair[key])} runs past the text of {length:,} characters",
                )


def require_config_pairs(indexes: dict, declared: list[dict]) -> None:
    """Refuse a pair-aware index built for other pairs than the result's comparisons declare.

    Its chunks were re-derived from the pairs its config holds; here those
    pairs must be exactly the declared ones (names aside), so a pair added to
    or removed from a result after its build is refused.
    """
    if PAIR_AWARE not in indexes:
        return
    saved = indexes[PAIR_AWARE]["config"]["pairs"]
    wanted = declared_config_pairs(declared)
    if digest(saved) == digest(wanted):
        return
    saved_keys = {digest(pair) for pair in saved}
    wanted_keys = {digest(pair) for pair in wanted}
    missing = [pair for pair in wanted if digest(pair) not in saved_keys]
    extra = [pair for pair in saved if digest(pair) not in wanted_keys]
    where = join_path(join_path(join_path("indexes", PAIR_AWARE), "config"), "pairs")
    if missing:
        what = f"built without the declared pair {quoted_name(missing[0])}"
    else:
        what = f"built for {quoted_name(extra[0])}, which the comparisons do not declare"
    raise IngestionError(
        "pairs_mismatch",
        where,
        f"{what} ({len(saved):,} pairs built, {len(wanted):,} declared); rebuild the result from its manifest",
    )


def result_policy_names(saved_indexes: object) -> tuple[str, ...]:
    """The policies a saved result's ``indexes`` hold, in ``POLICY_NAMES`` order: the three defaults and any optional one.

    ``{"fixed-char", "paragraph", "heading-aware", "pair-aware"}`` -> all four;
    a missing default or a name the lab does not know is refused.
    """
    if type(saved_indexes) is not dict:
        return require_keys(saved_indexes, DEFAULT_POLICY_NAMES, "indexes", "indexes")
    names = tuple(name for name in POLICY_NAMES if name in saved_indexes or name in DEFAULT_POLICY_NAMES)
    require_keys(saved_indexes, names, "indexes", "indexes")
    return names


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
    documents = next(iter(indexes.values()))["documents"]
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
            "comparison_span", span_path, f"{quoted(span)} runs past the text of {text_length:,} characters"
        )
    return span


def checked_comparison_list(comparisons: object, path: str, count: int) -> list:
    """Saved comparisons as a list of one entry per policy of the result (``count`` of them)."""
    if type(comparisons) is not list or len(comparisons) != count:
        raise IngestionError("comparisons", path, f"expected a list of {count} comparisons, one per policy")
    return comparisons


def saved_span(comparisons: list, key: str, path: str, count: int) -> list[int]:
    """The span every saved comparison states under ``key``, checked as ``[start, end]``."""
    first = checked_comparison_list(comparisons, path, count)[0]
    span = first.get(key) if type(first) is dict else None
    return checked_span_list(span, join_path(join_path(path, 0), key))


def saved_pairs(comparisons: list, indexes: dict, path: str) -> list[dict]:
    """The pairs a named-pairs result declares, read from its first comparison and checked.

    Each pair needs a unique non-empty name, a source the indexes hold and two
    spans inside that source's text; the verdicts are not read, they are re-derived.
    """
    pairs = checked_comparison_list(comparisons, path, len(indexes))[0]["pairs"]
    pairs_path = join_path(join_path(path, 0), "pairs")
    if type(pairs) is not list:
        raise IngestionError("comparison_pairs", pairs_path, f"expected a list of pairs, found {json_type(pairs)}")
    texts = {document["source_id"]: document["text"] for document in next(iter(indexes.values()))["documents"]}
    declared = []
    names: set[str] = set()
    for position, pair in enumerate(pairs):
        pair_path = join_path(pairs_path, position)
        if type(pair) is not dict:
            raise IngestionError("comparison_pair", pair_path, f"expected an object, found {json_type(pair)}")
        name = pair.get("name")
        if type(name) is not str or not name:
            raise IngestionError("comparison_pair", join_path(pair_path, "name"), "expected a non-empty string")
        if name in names:
            raise IngestionError(
                "comparison_pair", join_path(pair_path, "name"), f"name {quoted_name(name)} is used twice"
            )
        names.add(name)
        source_id = pair.get("source_id")
        if type(source_id) is not str or source_id not in texts:
            raise IngestionError(
                "comparison_pair",
                join_path(pair_path, "source_id"),
                f"{quoted_name(source_id)} is not a document of the result",
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


def validate_result(value: object, progress=None) -> dict:
    """Validate a whole saved result: every index rebuilt, the comparisons recomputed.

    Every policy must have chunked the same documents. The spec's single-pair
    comparison names no source, so it is re-derived for the source its chunk
    ids name (see ``comparison_source``). A named-pairs comparison records each
    pair's source, so its verdicts are re-derived directly.
    """
    result, names = checked_result_head(value)
    saved_indexes = result["indexes"]
    indexes = {}
    section_cache: dict = {}
    for name in names:
        index_path = join_path("indexes", name)
        indexes[name] = validate_index(saved_indexes[name], index_path, section_cache, progress)
        require_policy_index(name, saved_indexes[name], indexes, names[0])
    # The scope sentence is derived too: only the fixture's own files may claim the fixture's scope.
    require_same(
        result["fixture_scope"], result_scope(indexes[names[0]]["documents"]), "fixture_scope", "fixture_scope"
    )
    comparisons = result["comparisons"]
    derived = derived_comparisons(comparisons, indexes)
    require_same_pairs(comparisons)
    require_same(comparisons, derived, "comparisons", "comparison_mismatch")
    return result


def checked_result_head(value: object) -> tuple[dict, tuple[str, ...]]:
    """A saved result's keys, execution mode and scope checked, and the policies its indexes hold."""
    result = require_keys(value, RESULT_KEYS, "", "result")
    if result["execution_mode"] != EXECUTION_MODE:
        raise IngestionError(
            "execution_mode",
            "execution_mode",
            f"saved {quoted(result['execution_mode'])}, expected {quoted(EXECUTION_MODE)}",
        )
    if type(result["fixture_scope"]) is not str or not result["fixture_scope"].strip():
        raise IngestionError("fixture_scope", "fixture_scope", "expected a non-empty string")
    return result, result_policy_names(result["indexes"])


def require_policy_index(name: str, saved: dict, indexes: dict, first_name: str) -> None:
    """Refuse ``indexes[name]`` unless it holds ``name``'s config, the first index's grammar and its documents."""
    index_path = join_path("indexes", name)
    if policy_of_config(saved["config"]) != name:
        raise IngestionError(
            "config_mismatch",
            join_path(index_path, "config"),
            f"holds the {policy_of_config(saved['config'])} config, expected {name}'s",
        )
    # One result compares policies over one reading of the text: one grammar for all.
    grammar = config_grammar(indexes[name]["config"])
    first_grammar = config_grammar(indexes[first_name]["config"])
    if grammar != first_grammar:
        raise IngestionError(
            "grammar_mismatch",
            join_path(index_path, "config"),
            f"built with the {quoted_name(grammar)} grammar, {first_name} with {quoted_name(first_grammar)}; "
            "all indexes of one result share one grammar",
        )
    # The comparison is only meaningful if every policy chunked the same documents (one list read once is).
    if indexes[name]["documents"] is indexes[first_name]["documents"]:
        return
    require_same(
        indexes[name]["documents"],
        indexes[first_name]["documents"],
        join_path(index_path, "documents"),
        "documents_mismatch",
    )


def require_same_pairs(comparisons: list) -> None:
    """Every policy's comparison of a named-pairs result lists as many pairs as the first, which declares them: a pair
    taken out of, or put into, one comparison is named there, not by a count of another that the first then
    contradicts."""
    if not is_pairs_comparison(comparisons):
        return
    declared = len(comparisons[0]["pairs"])
    for position, comparison in enumerate(comparisons[1:], 1):
        pairs = comparison.get("pairs") if type(comparison) is dict else None
        if type(pairs) is list and len(pairs) != declared:
            raise IngestionError(
                "comparison_mismatch",
                join_path(join_path("comparisons", position), "pairs"),
                f"lists {len(pairs):,} pairs where comparisons[0].pairs lists {declared:,}: every policy's comparison "
                "names the same pairs",
            )


def derived_comparisons(comparisons: object, indexes: dict) -> list[dict]:
    """The comparisons ``indexes`` give for the pairs the saved ``comparisons`` declare (their verdicts unread)."""
    if is_pairs_comparison(comparisons):
        pairs = saved_pairs(comparisons, indexes, "comparisons")
        require_config_pairs(indexes, pairs)
        return build_pair_comparisons(indexes, pairs)
    instruction = saved_span(comparisons, "instruction_span", "comparisons", len(indexes))
    qualifier = saved_span(comparisons, "qualifier_span", "comparisons", len(indexes))
    source_id = comparison_source(comparisons, indexes, instruction, qualifier)
    documents = next(iter(indexes.values()))["documents"]
    length = len(next(document["text"] for document in documents if document["source_id"] == source_id))
    for key, span in (("instruction_span", instruction), ("qualifier_span", qualifier)):
        checked_span_list(span, join_path(join_path("comparisons", 0), key), length)
    require_config_pairs(
        indexes, [{"source_id": source_id, "instruction_span": instruction, "qualifier_span": qualifier}]
    )
    return build_comparisons(indexes, source_id, instruction, qualifier)


def artifact_indexes(kind: str, artifact: dict) -> dict[str, dict]:
    """A validated artifact's indexes by policy: a result's (three, or four with pair-aware), or a single index under its policy's name."""
    if kind == "result":
        return dict(artifact["indexes"])
    return {policy_of_config(artifact["config"]): artifact}


def rebuild_work(value: object) -> tuple[int, int]:
    """How many documents, and UTF-8 bytes of text, validating ``value`` rebuilds: for a progress line only.

    Read leniently before anything is checked: a part of odd shape counts for nothing.
    """
    if type(value) is dict and type(value.get("indexes")) is dict:
        indexes = list(value["indexes"].values())
    else:
        indexes = [value]
    documents = 0
    size = 0
    for index in indexes:
        listed = index.get("documents") if type(index) is dict else None
        for document in listed if type(listed) is list else ():
            text = document.get("text") if type(document) is dict else None
            if type(text) is str:
                documents += 1
                size += len(text.encode("utf-8", "surrogatepass"))
    return documents, size


def validate_artifact(value: object, progress=None) -> tuple[str, dict]:
    """Validate a saved result or a single saved index; say which it was.

    ``progress(1, size)`` is called after each document of each rebuilt index.
    """
    if type(value) is dict and "indexes" in value:
        return "result", validate_result(value, progress)
    if type(value) is dict and "index_id" in value:
        return "index", validate_index(value, progress=progress)
    manifest = type(value) is dict and type(value.get("sources")) is list
    raise IngestionError(
        "unknown_artifact",
        "(top)",
        'expected a saved result (with "indexes") or a saved index (with "index_id")'
        + (
            "; this is a manifest: build a result from it (run.py --manifest M --output result.json) and give that"
            if manifest
            else ""
        ),
    )


# --- reading a saved file: the quick check first ----------------------------------------

# A file the lab wrote is laid out by ``saved_json_pieces``: indented JSON, where
# a raw line break is never inside a string, so a chunk list's closing bracket
# is the first line holding only that bracket at the list's own indent.
CHUNK_LIST_OPENING = b'"chunks": [\n'
DOCUMENT_LIST_OPENING = b'"documents": [\n'
# How every saved result opens (``RESULT_KEYS`` in order, laid out by ``saved_json_pieces``).
RESULT_OPENING = b'{\n  "execution_mode": '


def read_validated(
    path: Path,
    progress=None,
    expected=None,
    label: str | None = None,
    kept_texts: list | None = None,
    check_held=None,
) -> tuple[str, dict, bool]:
    """Read the saved result or index at ``path`` and validate it: ``(kind, artifact, as_expected)``.

    A file the lab wrote is checked the quick way. ``expected``, when given, is
    a callable returning the result the file should be (the build of a
    manifest), called with a list it fills as the build's ``encoded``
    (``chunk_index.build_policy_indexes``): a file holding exactly that
    result's bytes is valid and, on top, that result (``as_expected`` is then ``True``). Otherwise the file's
    documents and configs are read without its chunks and rebuilt
    (``identical_rebuild``). A file laid out otherwise, or one that fails
    those checks, is read in full by the strict reader and validated field by
    field, which names the first divergence. ``progress``, a
    ``lab_io.progress.Progress``, counts the rebuilt documents; ``label``, when
    given, opens the place a refusal of the validation names (``result.json:
    indexes.paragraph...``), as a refusal of the reading always names the file.
    ``kept_texts``, a list when given, gets the expected build's ``encoded``
    entries when the file holds that build, for a writer of its chunks after
    (``reembed.export_pieces``' ``texts_json``); it stays empty otherwise.
    ``check_held``, when given, is called as ``check_held(kind, indexes)`` with
    the indexes the file holds by policy (``held_indexes``) as soon as its
    configs are read, before anything is re-derived, so a caller that needs one
    policy refuses a file without it at the cost of reading the file alone.
    """
    if expected is not None and file_opens_with(path, RESULT_OPENING):
        # The texts the build turned to JSON for the ids: the result is laid out from them to compare.
        encoded: list = []
        result = expected(encoded)
        if file_holds(path, saved_json_pieces(result, encoded=encoded)):
            if kept_texts is not None:
                kept_texts.extend(encoded)
            return "result", result, True
        del result, encoded
    quick = identical_rebuild(path, progress, check_held)
    if quick is not None:
        return (*quick, False)
    try:
        value = read_json_file(path)
    except IngestionError as error:
        if error.code == "json_trailing_data" and opens_json_lines(path, error):
            raise IngestionError(error.code, error.where, f"{error.what}; {JSON_LINES_HINT}") from error
        if ends_inside(error):
            # A file of nothing but whitespace ends before its JSON begins: it was never a result, not one cut short.
            hint = empty_file_hint(error) or CUT_SHORT_RESULT_HINT
            raise IngestionError(error.code, error.where, f"{error.what}; {hint}") from error
        raise other_file_named(error, path) from error
    check_held_indexes(value, check_held)
    if progress is not None:
        progress.stage(progress.label, *rebuild_work(value))
    try:
        return (*validate_artifact(value, None if progress is None else progress.advance), False)
    except IngestionError as error:
        if error.code == "unknown_artifact":
            error = other_file_named(error, path)
        if label is None:
            raise error
        raise IngestionError(error.code, f"{label}: {error.where}", error.what) from error


CUT_SHORT_RESULT_HINT = (
    "the file ends inside its JSON, as a copy cut short leaves it (the lab writes a result or index whole, by "
    "rename): copy it again, or build it again from its manifest"
)


def empty_file_hint(error: IngestionError) -> str | None:
    """What a refusal of the strict reader says of a file that holds no JSON at all, empty or whitespace alone
    (``"the file is empty: …"``); ``None`` for any other."""
    cause = error.__cause__
    if not isinstance(cause, json.JSONDecodeError) or cause.doc.strip(JSON_WHITESPACE):
        return None
    what = "is empty" if not cause.doc else "holds nothing but whitespace"
    return f"the file {what}: no result or index is in it; {EMPTY_RESULT_ADVICE}"


# What JSON counts as whitespace between its tokens (RFC 8259), no more: a no-break space is no JSON whitespace.
JSON_WHITESPACE = " \t\n\r"
EMPTY_RESULT_ADVICE = "copy it again, or build a result from its manifest (run.py --manifest M --output result.json)"


def other_file_named(error: IngestionError, path: Path) -> IngestionError:
    """``error``, a refusal of ``path`` as a saved result, saying what the file is instead when it is a Markdown page
    or another file of the lab's (an HTML report, a decisions file, a command's ``--json``); else ``error`` itself.
    A manifest and JSON Lines are named where they are found (``validate_artifact``, ``JSON_LINES_HINT``)."""
    from lab_io.outputs import naming_lab_file

    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        return IngestionError(error.code, error.where, f"{error.what}; {MARKDOWN_RESULT_HINT}")
    return naming_lab_file(
        error, path, "a saved result or index", frozenset({"result"}), named=frozenset({"manifest", "export"})
    )


MARKDOWN_RESULT_HINT = (
    "this is a Markdown page, not a saved result or index: the main job writes one from the manifest that pins the "
    "pages (run.py --manifest M --output result.json)"
)


JSON_LINES_HINT = (
    "this looks like JSON Lines, one object per line (an export, or chunk records), which 'run.py judge FILE' "
    "reads; this command reads a result or index the lab saved, one JSON document"
)


def opens_json_lines(path: Path, error: IngestionError) -> bool:
    """Whether a file refused for data after its first JSON value is JSON Lines: an object alone on line 1, more after.

    Asked only once the strict reader refused the file (``error``, whose cause
    places the extra data): an ``export`` file or a splitter's chunk records
    given to ``validate``, which reads one document.
    """
    cause = error.__cause__
    if not isinstance(cause, json.JSONDecodeError) or cause.lineno < 2:
        return False
    handle = opened_regular_file(path)
    if handle is None:
        return False
    with handle:
        first = handle.readline(MAX_ARTIFACT_BYTES)
    try:
        return type(json.loads(first.decode("utf-8"))) is dict
    except (ValueError, RecursionError):
        return False


# How the lab lays out the revision of each document of a saved result's index (result, indexes, index, documents,
# document: five levels in); a JSON string never holds a raw line break.
REVISION_FIELD = re.compile(rb'\n {10}"document_revision": "([0-9a-f]{64})"')
# And the policy of each of its comparisons (result, comparisons, comparison: three levels in), which come first.
COMPARISON_STRATEGY = re.compile(rb'\n {6}"strategy": "([a-z-]+)"')


def saved_head(path: Path) -> bytes | None:
    """The bytes of the saved file at ``path`` before its first chunk list; ``None`` for a file it cannot read or
    without one.

    In a result the lab wrote, that is its comparisons and its first index's
    config and documents: what ``head_revisions`` and ``head_policies`` read
    their signs from, without the chunks that are most of the file.
    """
    head = bytearray()
    searched = 0
    try:
        for block in bounded_blocks(path, MAX_ARTIFACT_BYTES, printable(str(path))):
            head += block
            at = head.find(CHUNK_LIST_OPENING, searched)
            if at >= 0:
                return bytes(head[:at])
            searched = max(0, len(head) - len(CHUNK_LIST_OPENING) + 1)
    except IngestionError:
        return None
    return None


def head_revisions(head: bytes) -> list[str]:
    """The document revisions a result's ``saved_head`` lists, in order: its first index's documents'."""
    return [match.decode("ascii") for match in REVISION_FIELD.findall(head)]


def head_policies(head: bytes) -> list[str]:
    """The policies a result's ``saved_head`` compares, in order (``["fixed-char", "paragraph", "heading-aware"]``):
    one comparison per index it holds. Only a sign, as ``lists_revisions``' is."""
    return [match.decode("ascii") for match in COMPARISON_STRATEGY.findall(head)]


def lists_revisions(path: Path, revisions: list[str]) -> bool:
    """Whether the saved file at ``path`` lists exactly ``revisions``, in order, before its first chunk list.

    In a result the lab wrote, that is its first index's documents: a cheap
    sign, read from the head of the file alone, that it was built from the
    documents of these revisions, and so worth building them to compare it
    with (``read_validated``'s ``expected``). Only a sign: ``False`` for a
    file it cannot read or that is laid out otherwise, and ``True`` proves nothing.
    """
    head = saved_head(path)
    return head is not None and head_revisions(head) == revisions


def held_indexes(value: object) -> tuple[str, dict[str, object]] | None:
    """``(kind, indexes by policy)`` of a saved result or index read but not yet validated, when its head tells
    them; ``None`` when it does not (the validation refuses such a file, naming what is wrong).

    A result's are its ``indexes``, in the file's order, when their names are
    the lab's (``result_policy_names``); a single index's is the policy of its
    config. Nothing is re-derived: ``{"indexes": {"fixed-char": ..., "paragraph":
    ..., "heading-aware": ...}, ...}`` -> ``("result", {"fixed-char": ..., ...})``.
    """
    if type(value) is not dict:
        return None
    if "indexes" in value:
        indexes = value["indexes"]
        try:
            names = result_policy_names(indexes)
        except IngestionError:
            return None
        return ("result", dict(indexes)) if len(names) == len(indexes) else None
    if "index_id" in value:
        policy = policy_of_config(value.get("config"))
        return None if policy is None else ("index", {policy: value})
    return None


def check_held_indexes(value: object, check_held) -> None:
    """``check_held(kind, indexes)`` (``read_validated``'s) on the indexes ``value`` holds, when its head tells them."""
    if check_held is None:
        return
    held = held_indexes(value)
    if held is not None:
        check_held(*held)


def identical_rebuild(path: Path, progress=None, check_held=None) -> tuple[str, dict] | None:
    """``(kind, rebuilt)`` when the file is byte for byte what the lab writes for what it rebuilds from it; else ``None``.

    The file's documents, configs and comparisons are read with its chunk lists
    left out (``chunkless_value``) and checked as ``validate_artifact`` checks
    them; every index is rebuilt in one pass, the comparisons re-derived, and
    the rebuilt value laid out as the lab saves it. Equal bytes make the file
    the lab's own output for those documents and configs, the very check the
    full validation makes, at the cost of a build instead of a parse of every
    chunk plus a build. ``None`` means "not shown identical": the caller
    validates the file in full, whose refusal names the first divergence.
    ``check_held`` as in ``read_validated``: called before the rebuild.
    """
    skeleton = chunkless_value(bounded_blocks(path, MAX_ARTIFACT_BYTES, printable(str(path))))
    if skeleton is None:
        return None
    check_held_indexes(skeleton, check_held)
    encoded: list = []
    try:
        kind, rebuilt = rebuilt_artifact(skeleton, progress, encoded)
    except IngestionError:
        return None
    if not file_holds(path, saved_json_pieces(rebuilt, encoded=encoded)):
        return None
    return kind, rebuilt


def opened_regular_file(path: Path):
    """``path`` opened for reading if it is a regular file (a FIFO is not waited on), else ``None``."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    handle = os.fdopen(descriptor, "rb")
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        handle.close()
        return None
    return handle


def file_opens_with(path: Path, opening: bytes) -> bool:
    """Whether ``path`` is a readable regular file whose bytes begin with ``opening``."""
    handle = opened_regular_file(path)
    if handle is None:
        return False
    with handle:
        try:
            return handle.read(len(opening)) == opening
        except OSError:
            return False


def file_holds(path: Path, pieces) -> bool:
    """Whether ``path`` is a readable regular file holding exactly ``pieces`` joined, read as they come.

    Compared piece by piece, so the file is never held whole beside what the
    pieces are laid out from; the first piece that differs ends it.
    """
    handle = opened_regular_file(path)
    if handle is None:
        return False
    with handle:
        try:
            for piece in pieces:
                if handle.read(len(piece)) != piece:
                    return False
            return handle.read(1) == b""
        except OSError:
            return False


def chunkless_value(data: bytes | Iterable[bytes]) -> object | None:
    """The saved value of ``data`` with every ``chunks`` list read as ``[]``, parsed strictly; ``None`` if it is not laid out so.

    ``b'{\\n  "chunks": [\\n    {"order": 0}\\n  ],\\n  "index_id": "x"\\n}\\n'``
    -> ``{"chunks": [], "index_id": "x"}``. ``data`` is the file's bytes, or
    its blocks in order (``strict_json.bounded_blocks``): the chunk lists,
    most of a result, are passed over as they are read, never held. A
    result's indexes repeat one documents list: each later copy whose bytes
    are the first's is parsed once and shared (the same list object). Only
    the lab's own layout is looked for; a file laid out otherwise, or
    anything that fails to parse, gives ``None``.
    """
    data = without_chunk_lists([data] if isinstance(data, bytes) else data)
    if data is None:
        return None
    document_lists = laid_out_lists(data, DOCUMENT_LIST_OPENING)
    first_documents = data[document_lists[0][0] : document_lists[0][1]] if document_lists else None
    # Left out: each documents list after the first that repeats it byte for byte.
    shared = [
        position
        for position, (start, end) in enumerate(document_lists)
        if position and data[start:end] == first_documents
    ]
    kept = []
    position = 0
    for start, end in [document_lists[copy] for copy in shared]:
        kept.append(data[position:start])
        kept.append(b"[]")
        position = end
    kept.append(data[position:])
    del data
    try:
        value = parse_json_text(json_text(b"".join(kept), "(chunkless)"), "(chunkless)")
    except IngestionError:
        return None
    if shared:
        indexes = value.get("indexes") if type(value) is dict else None
        if type(indexes) is not dict or len(indexes) != len(document_lists):
            return None
        ordered = [index for index in indexes.values() if type(index) is dict and "documents" in index]
        if len(ordered) != len(document_lists):
            return None
        for position in shared:
            ordered[position]["documents"] = ordered[0]["documents"]
    return value


def without_chunk_lists(blocks: Iterable[bytes]) -> bytes | None:
    """The bytes of ``blocks`` joined, each chunk list the lab laid out written ``[]``; ``None`` if there is none.

    ``[b'{\\n  "chunks": [\\n    1\\n', b'  ],\\n  "x": 1\\n}']`` -> ``b'{\\n  "chunks": [],\\n  "x": 1\\n}'``.
    A list runs from its ``[`` to the first line holding only ``]`` at the
    indent of the line that opened it (``laid_out_lists``), wherever the
    blocks cut it; only the last few bytes of a list are held while its
    closing line is looked for. A list that never closes, or an opening
    that does not start its line after spaces, is no layout of the lab's:
    ``None``.
    """
    kept = bytearray()
    # Inside a chunk list: the line that closes it, and the list's last bytes read (a closing line may be cut there).
    closing = None
    tail = b""
    searched = 0
    found = False
    for block in blocks:
        if closing is not None:
            after = closing_end(tail, block, closing)
            if after is None:
                tail = (tail + block if len(block) < len(closing) else block)[-(len(closing) - 1) :]
                continue
            block = block[after:]
            closing = None
        kept += block
        while True:
            at = kept.find(CHUNK_LIST_OPENING, searched)
            if at < 0:
                searched = max(searched, len(kept) - len(CHUNK_LIST_OPENING) + 1)
                break
            indent = bytes(kept[kept.rfind(b"\n", 0, at) + 1 : at])
            if indent.strip(b" "):
                return None
            found = True
            # From the list's opening line break on, its bytes are only searched for its closing line.
            list_start = at + len(CHUNK_LIST_OPENING) - 2
            rest = bytes(kept[list_start + 1 :])
            del kept[list_start:]
            kept += b"[]"
            searched = len(kept)
            closing = b"\n" + indent + b"]"
            after = closing_end(b"", rest, closing)
            if after is None:
                tail = rest[-(len(closing) - 1) :]
                break
            kept += rest[after:]
            closing = None
    if closing is not None or not found:
        return None
    return bytes(kept)


def closing_end(tail: bytes, block: bytes, closing: bytes) -> int | None:
    """Where in ``block`` the first ``closing`` ends, searched in ``tail + block``, or ``None``.

    ``tail``, the bytes before ``block`` already searched, is shorter than
    ``closing``: a match that starts in it ends in ``block``.
    ``closing_end(b"\\n ", b" ]x", b"\\n  ]")`` -> ``2``.
    """
    if tail:
        seam = tail + block[: len(closing) - 1]
        at = seam.find(closing)
        if at >= 0:
            return at + len(closing) - len(tail)
    at = block.find(closing)
    return None if at < 0 else at + len(closing)


def laid_out_lists(data: bytes, opening: bytes) -> list[tuple[int, int]]:
    """Where each list opening with ``opening`` (a key, then ``[`` and a line break) lies in ``data``, as the lab lays it out.

    ``(start, end)`` from the list's ``[`` to just past its ``]``: the first
    line holding only ``]`` at the indent of the line that opened it. A list
    that never closes at its indent ends the search.
    """
    found = []
    position = 0
    while True:
        at = data.find(opening, position)
        if at < 0:
            return found
        line_start = data.rfind(b"\n", 0, at) + 1
        indent = data[line_start:at]
        closing = data.find(b"\n" + indent + b"]", at)
        if indent.strip(b" ") or closing < 0:
            return found
        found.append((at + len(opening) - 2, closing + len(indent) + 2))
        position = closing + len(indent) + 2


def rebuilt_artifact(skeleton: object, progress=None, encoded: list | None = None) -> tuple[str, dict]:
    """The result or index the lab builds from a saved file's documents and configs, checked as ``validate_artifact`` does.

    ``encoded``, when given, gets a result's texts as the build turned them to JSON (``build_policy_indexes``).
    """
    if type(skeleton) is dict and "index_id" in skeleton and "indexes" not in skeleton:
        _, config, sources = index_inputs(skeleton, "")
        if progress is not None:
            progress.expect(len(sources), source_bytes(sources))
        return "index", build_index(config, sources, progress=None if progress is None else progress.advance)
    result, names = checked_result_head(skeleton)
    saved_indexes = result["indexes"]
    configs = {}
    sources: list[dict] = []
    checked = None
    for name in names:
        _, configs[name], index_sources = index_inputs(saved_indexes[name], join_path("indexes", name), checked)
        if checked is None:
            sources = index_sources
            checked = (saved_indexes[name]["documents"], sources)
        require_policy_index(name, saved_indexes[name], saved_indexes, names[0])
    if progress is not None:
        progress.expect(len(sources), source_bytes(sources))
    indexes = build_policy_indexes(configs, sources, None if progress is None else progress.advance, encoded=encoded)
    return "result", assembled_result(sources, indexes, derived_comparisons(result["comparisons"], indexes))


def source_bytes(sources: list[dict]) -> int:
    """The UTF-8 bytes of the sources' texts: what a progress line counts."""
    return sum(len(source["text"].encode("utf-8", "surrogatepass")) for source in sources)
