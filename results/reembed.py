"""From chunks to embeddings: a re-embedding plan between two saved files, and chunk export.

A boundary or source change gives chunks new identities, but not every new
chunk holds new text. ``diff_files`` compares two saved results or indexes and
says, per policy, which chunk ids were kept, removed and added; which added
chunks hold text that already existed in the old index (an embedding keyed by
``text_sha256`` can be reused); which need a new embedding; and why each
document's revision changed. ``export_lines`` turns one policy's index into
JSON Lines in the record shape vector stores take for an upsert.

Both files are validated (re-derived exactly) before anything is compared or
exported. This module reads saved files through ``load_documents``; writing and
the command line belong to ``run.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import chunk_index
from lab_io.errors import IngestionError, line_span, quoted
from lab_io.inert_json import inert_json_text
from lab_io.strict_json import read_json_file
from load_documents import SOURCE_FIELDS
from results import validate

DIFF_VERSION = 1

# The fields a document revision is computed from, besides the source_id that
# names the document: a difference in any of them changes the revision.
REVISION_FIELDS = (*(field for field in SOURCE_FIELDS if field != "source_id"), "normalized_text_sha256")
# Fields a text change accounts for: the raw-bytes pin follows the normalized text.
TEXT_FIELDS = frozenset({"normalized_text_sha256", "sha256"})


# A chunk's payload as upsert metadata, in payload order; the index id follows.
# Left out: the text (the record's own field), chunk_id (the record's id) and
# section_id (section_title and the offsets already place the chunk).
UPSERT_CHUNK_FIELDS = (
    "source_id",
    "version",
    "document_revision",
    "section_title",
    "order",
    "start",
    "end",
    "start_line",
    "end_line",
    "text_sha256",
)


# --- reading -------------------------------------------------------------------


@dataclass(frozen=True)
class SavedIndexes:
    """The indexes of one validated file, by policy name, and what the file was."""

    path: Path
    kind: str
    indexes: dict[str, dict]


def load_indexes(path: Path) -> SavedIndexes:
    """Read and re-derive a saved result or index; a refusal names the file.

    A result gives its three indexes; a single index gives itself, under the
    name of the policy whose config it holds.
    """
    value = read_json_file(path)
    try:
        kind, artifact = validate.validate_artifact(value)
    except IngestionError as error:
        raise IngestionError(error.code, f"{path}: {error.where}", error.what) from error
    return SavedIndexes(path, kind, validate.artifact_indexes(kind, artifact))


def selected_indexes(saved: SavedIndexes, policy: str | None) -> dict[str, dict]:
    """The file's indexes, or only ``policy``'s; refused if the file does not hold it."""
    if policy is None:
        return saved.indexes
    if policy not in saved.indexes:
        held = ", ".join(saved.indexes)
        raise IngestionError("policy_not_in_file", str(saved.path), f"holds {held} only; {policy} was asked for")
    return {policy: saved.indexes[policy]}


def paired_indexes(old: dict[str, dict], new: dict[str, dict]) -> list[tuple[str, str]]:
    """Which old index is compared with which new one, as ``(old_policy, new_policy)``.

    One index on each side: those two, whatever their policies (a diff across
    policies). Otherwise every policy both sides hold, paired by name, in the
    lab's policy order: two results give three pairs, a result and a paragraph
    index give ``[("paragraph", "paragraph")]``.
    """
    if len(old) == 1 and len(new) == 1:
        return [(next(iter(old)), next(iter(new)))]
    return [(name, name) for name in chunk_index.POLICY_NAMES if name in old and name in new]


# --- the diff ------------------------------------------------------------------


def revision_change_reasons(changed_fields: list[str]) -> list[str]:
    """Why a revision changed, from the fields that differ: ``text``, ``version``, ``metadata``.

    ``["sha256", "normalized_text_sha256"]`` -> ``["text"]`` (the raw pin follows
    the text); ``["sha256"]`` alone -> ``["metadata"]`` (raw bytes changed, say
    line endings, but the normalized text did not); ``["version", "url"]`` ->
    ``["version", "metadata"]``.
    """
    reasons = []
    text_changed = "normalized_text_sha256" in changed_fields
    if text_changed:
        reasons.append("text")
    if "version" in changed_fields:
        reasons.append("version")
    explained = TEXT_FIELDS if text_changed else frozenset({"normalized_text_sha256"})
    if any(field not in explained and field != "version" for field in changed_fields):
        reasons.append("metadata")
    return reasons


def document_change(source_id: str, old: dict | None, new: dict | None) -> dict:
    """How one document differs between the two indexes, in the diff's JSON shape."""
    if old is None:
        status = "added"
        changed_fields = []
    elif new is None:
        status = "removed"
        changed_fields = []
    elif old["document_revision"] == new["document_revision"]:
        status = "unchanged"
        changed_fields = []
    else:
        status = "changed"
        changed_fields = [field for field in REVISION_FIELDS if old[field] != new[field]]
    return {
        "source_id": source_id,
        "status": status,
        "reasons": revision_change_reasons(changed_fields),
        "changed_fields": changed_fields,
        "old_revision": None if old is None else old["document_revision"],
        "new_revision": None if new is None else new["document_revision"],
    }


def document_changes(old_index: dict, new_index: dict) -> list[dict]:
    """Every document of either index, by ``source_id``, and how its revision changed."""
    old_documents = {document["source_id"]: document for document in old_index["documents"]}
    new_documents = {document["source_id"]: document for document in new_index["documents"]}
    return [
        document_change(source_id, old_documents.get(source_id), new_documents.get(source_id))
        for source_id in sorted(old_documents.keys() | new_documents.keys())
    ]


@dataclass(frozen=True)
class PolicyDiff:
    """One old index against one new index: chunk lists in index order."""

    old_policy: str
    new_policy: str
    old_index_id: str
    new_index_id: str
    documents: list[dict]
    kept: list[dict]
    removed: list[dict]
    added: list[dict]
    reusable: list[dict]
    needing_embedding: list[dict]

    @property
    def embeddings_to_compute(self) -> int:
        """Distinct new texts: two added chunks with the same text need one embedding."""
        return len({chunk["text_sha256"] for chunk in self.needing_embedding})


def diff_indexes(old_policy: str, old_index: dict, new_policy: str, new_index: dict) -> PolicyDiff:
    """Which chunks of ``new_index`` are kept, added and reusable, against ``old_index``.

    A chunk is kept when its ``chunk_id`` is in both. An added chunk is
    reusable when its ``text_sha256`` is the text hash of some old chunk:
    an embedding stored by text hash still fits it, though its id is new.
    """
    old_ids = {chunk["chunk_id"] for chunk in old_index["chunks"]}
    new_ids = {chunk["chunk_id"] for chunk in new_index["chunks"]}
    old_texts = {chunk["text_sha256"] for chunk in old_index["chunks"]}
    added = [chunk for chunk in new_index["chunks"] if chunk["chunk_id"] not in old_ids]
    return PolicyDiff(
        old_policy=old_policy,
        new_policy=new_policy,
        old_index_id=old_index["index_id"],
        new_index_id=new_index["index_id"],
        documents=document_changes(old_index, new_index),
        kept=[chunk for chunk in new_index["chunks"] if chunk["chunk_id"] in old_ids],
        removed=[chunk for chunk in old_index["chunks"] if chunk["chunk_id"] not in new_ids],
        added=added,
        reusable=[chunk for chunk in added if chunk["text_sha256"] in old_texts],
        needing_embedding=[chunk for chunk in added if chunk["text_sha256"] not in old_texts],
    )


@dataclass(frozen=True)
class FileDiff:
    """Two validated files and one ``PolicyDiff`` per compared pair of indexes."""

    old: SavedIndexes
    new: SavedIndexes
    policies: list[PolicyDiff]

    @property
    def embeddings_to_compute(self) -> int:
        """The sum over policies: each policy's vectors live in their own index."""
        return sum(policy.embeddings_to_compute for policy in self.policies)


def diff_files(
    old_path: Path, new_path: Path, old_policy: str | None = None, new_policy: str | None = None
) -> FileDiff:
    """Validate both files, then diff the indexes ``paired_indexes`` pairs.

    ``old_policy`` / ``new_policy`` narrow a side to one of its indexes, so
    ``old_policy="paragraph", new_policy="heading-aware"`` on one result file
    shows what switching policies costs.
    """
    old = load_indexes(old_path)
    new = load_indexes(new_path)
    old_indexes = selected_indexes(old, old_policy)
    new_indexes = selected_indexes(new, new_policy)
    pairs = paired_indexes(old_indexes, new_indexes)
    return FileDiff(
        old,
        new,
        [
            diff_indexes(old_name, old_indexes[old_name], new_name, new_indexes[new_name])
            for old_name, new_name in pairs
        ],
    )


# --- showing the diff ------------------------------------------------------------


def chunk_reference(chunk: dict) -> dict:
    """Where an added chunk sits, without its text: ``{chunk_id, source_id, order, start, end, text_sha256}``."""
    return {key: chunk[key] for key in ("chunk_id", "source_id", "order", "start", "end", "text_sha256")}


def diff_json(diff: FileDiff) -> dict:
    """The diff in its documented machine shape (see README); keys in a fixed order."""
    return {
        "diff_version": DIFF_VERSION,
        "old": {"kind": diff.old.kind, "policies": list(diff.old.indexes)},
        "new": {"kind": diff.new.kind, "policies": list(diff.new.indexes)},
        "policies": [
            {
                "old_policy": policy.old_policy,
                "new_policy": policy.new_policy,
                "old_index_id": policy.old_index_id,
                "new_index_id": policy.new_index_id,
                "documents": policy.documents,
                "kept_chunk_ids": [chunk["chunk_id"] for chunk in policy.kept],
                "removed_chunk_ids": [chunk["chunk_id"] for chunk in policy.removed],
                "added_chunk_ids": [chunk["chunk_id"] for chunk in policy.added],
                "reusable_by_text_hash": [chunk_reference(chunk) for chunk in policy.reusable],
                "needs_embedding": [chunk_reference(chunk) for chunk in policy.needing_embedding],
                "embeddings_to_compute": policy.embeddings_to_compute,
            }
            for policy in diff.policies
        ],
        "embeddings_to_compute": diff.embeddings_to_compute,
    }


def document_line(change: dict) -> str:
    """One document's revision change in words; the untrusted source_id quoted."""
    name = quoted(change["source_id"])
    if change["status"] != "changed":
        return f"  {name}: {change['status']}"
    fields = ", ".join(change["changed_fields"])
    return f"  {name}: revision changed ({', '.join(change['reasons'])}: {fields}); every chunk id of it changes"


def document_lines(changes: list[dict]) -> list[str]:
    """Each document that changed, was added or removed, then one line counting the unchanged ones.

    A docs set of hundreds of pages where one page was edited gives two lines,
    not hundreds: ``['  "docs/async": revision changed (…)', "  22 other documents unchanged"]``.
    """
    lines = [document_line(change) for change in changes if change["status"] != "unchanged"]
    unchanged = len(changes) - len(lines)
    if unchanged:
        other = "other " if lines else ""
        lines.append(f"  {unchanged:,} {other}{'document' if unchanged == 1 else 'documents'} unchanged")
    return lines


def policy_label(policy: PolicyDiff) -> str:
    """``paragraph`` for a same-policy pair, ``paragraph -> heading-aware`` across policies."""
    if policy.old_policy == policy.new_policy:
        return policy.old_policy
    return f"{policy.old_policy} -> {policy.new_policy}"


def policy_lines(policy: PolicyDiff, with_documents: bool) -> list[str]:
    """The summary lines of one compared pair: counts, then each chunk that needs an embedding."""
    lines = [f"{policy_label(policy)}:"]
    if with_documents:
        lines.extend(document_lines(policy.documents))
    lines.append(f"  chunk ids: {len(policy.kept)} kept, {len(policy.removed)} removed, {len(policy.added)} added")
    lines.append(
        f"  added: {len(policy.reusable)} reusable by text hash, "
        f"{len(policy.needing_embedding)} with new text ({policy.embeddings_to_compute} distinct to embed)"
    )
    lines.extend(f"  embed {needed_chunk_line(chunk)}" for chunk in policy.needing_embedding)
    return lines


def needed_chunk_line(chunk: dict) -> str:
    """Where a chunk needing an embedding sits, and the start of its text, quoted.

    ``"aster-copy-v1" order 2 [271, 431) line 9: "After a refusal, …"``
    """
    lines = line_span(chunk["start_line"], chunk["end_line"])
    return f"{quoted(chunk['source_id'])} order {chunk['order']} [{chunk['start']}, {chunk['end']}) {lines}: {quoted(chunk['text'], 72)}"


def diff_summary(diff: FileDiff) -> str:
    """The diff for a person: documents, then per policy counts and what to embed.

    Every untrusted value (paths, source ids, chunk text) is shown through
    ``quoted``, so no control character or markup reaches the terminal raw.
    The last line is the count of embeddings to compute.
    """
    lines = [f"diff {quoted(str(diff.old.path))} ({diff.old.kind}) -> {quoted(str(diff.new.path))} ({diff.new.kind})"]
    document_views = {chunk_index.digest(policy.documents) for policy in diff.policies}
    # Indexes of one result share their documents; say so once instead of per policy.
    shared_documents = len(document_views) == 1
    if shared_documents:
        lines.append("documents:")
        lines.extend(document_lines(diff.policies[0].documents))
    for policy in diff.policies:
        lines.extend(policy_lines(policy, not shared_documents))
    lines.append(f"embeddings to compute: {diff.embeddings_to_compute}")
    return "\n".join(lines)


# --- export ------------------------------------------------------------------------


def exported_index(path: Path, policy: str) -> dict:
    """The validated index of ``policy`` in the saved result or index at ``path``."""
    return selected_indexes(load_indexes(path), policy)[policy]


def config_metadata(config: dict) -> dict:
    """What an upsert record says of the config that cut its chunk, as flat scalar fields.

    ``{"strategy": "heading-aware", "max_chars": 800, "markdown": "blocks"}``;
    paragraph has no ``max_chars`` (stores refuse a null), and ``markdown``
    names the grammar even when the config leaves it implicit (``"lesson"``).
    """
    metadata = {"strategy": config["strategy"]}
    if config["max_chars"] is not None:
        metadata["max_chars"] = config["max_chars"]
    metadata["markdown"] = chunk_index.config_grammar(config)
    return metadata


def upsert_record(chunk: dict, index_id: str, config_fields: dict | None = None) -> dict:
    """A chunk as a vector-store upsert record: ``{"id", "text", "metadata"}``, the config's fields last."""
    metadata = {key: chunk[key] for key in UPSERT_CHUNK_FIELDS}
    metadata["index_id"] = index_id
    metadata.update(config_fields or {})
    return {"id": chunk["chunk_id"], "text": chunk["text"], "metadata": metadata}


def export_lines(index: dict) -> bytes:
    """Every chunk of ``index`` as JSON Lines (UTF-8), one upsert record per line, in index order.

    ``json.dumps`` escapes every C0 control and ``\\n`` inside a value; every
    other character that does not print is escaped too (``inert_json``): the
    Unicode line and paragraph separators and NEL, which readers that split on
    them (``str.splitlines``) would break a record at, the C1 controls and the
    bidirectional overrides. The same bytes go to a file or to stdout.
    """
    config_fields = config_metadata(index["config"])
    lines = [
        json.dumps(upsert_record(chunk, index["index_id"], config_fields), ensure_ascii=False, separators=(",", ":"))
        + "\n"
        for chunk in index["chunks"]
    ]
    return inert_json_text("".join(lines)).encode("utf-8")
