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
from bisect import bisect_left
from collections import Counter, namedtuple
from collections.abc import Iterable, Iterator
from itertools import chain, islice, repeat
from operator import itemgetter
from pathlib import Path

import chunk_index
from checks import span_checks
from lab_io.errors import IngestionError, counted, line_span, printable, quoted, quoted_name
from lab_io.indented_json import COLUMN_JSON, column_json
from lab_io.inert_json import inert_json_text
from load_documents import SOURCE_FIELDS
from results import validate

# 2: each compared pair also says which chunks were re-cut and, between pair-aware indexes, which pairs changed.
# 3: and, between two results, which span checks were added or removed and whose verdict changed.
DIFF_VERSION = 5

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


# The records here are named tuples, as the grammars' are (``grammars.records``): export and diff
# import this module, and importing dataclasses costs each of their runs about 10 ms.
class SavedIndexes(namedtuple("SavedIndexes", ("path", "kind", "indexes"))):
    """The indexes of one validated file, by policy name (``indexes``), and what the file was (``path``, ``kind``)."""

    __slots__ = ()


def load_indexes(path: Path, progress=None) -> SavedIndexes:
    """Read and re-derive a saved result or index; a refusal names the file.

    A result gives its three indexes; a single index gives itself, under the
    name of the policy whose config it holds. ``progress`` as in ``validate.read_validated``.
    """
    return validated_file(path, progress)[0]


def validated_file(
    path: Path, progress=None, expected=None, kept_texts=None, policy: str | None = None
) -> tuple[SavedIndexes, dict]:
    """``load_indexes`` of ``path``, and the validated result or index itself (``expected`` and ``kept_texts`` as
    in ``validate.read_validated``). With ``policy``, a file that holds no such index is refused
    (``selected_indexes``) as soon as its configs are read, before anything is re-derived."""

    def check_held(kind: str, indexes: dict) -> None:
        selected_indexes(SavedIndexes(path, kind, indexes), policy)

    kind, artifact, _ = validate.read_validated(
        path,
        progress,
        expected,
        label=str(path),
        kept_texts=kept_texts,
        check_held=None if policy is None else check_held,
    )
    return SavedIndexes(path, kind, validate.artifact_indexes(kind, artifact)), artifact


def selected_indexes(saved: SavedIndexes, policy: str | None) -> dict[str, dict]:
    """The file's indexes, or only ``policy``'s; refused if the file does not hold it."""
    if policy is None:
        return saved.indexes
    if policy not in saved.indexes:
        held = ", ".join(saved.indexes)
        hint = ""
        if policy == chunk_index.PAIR_AWARE and saved.kind == "result":
            # pair-aware is never built unless the manifest names it: say how to get it, not only that it is missing.
            # It groups as heading-aware does at the same target, so the file's heading-aware target is the one to name.
            # Read before the file is validated too (``validated_file``): any part of it may be of another shape.
            heading_aware = saved.indexes.get("heading-aware")
            config = heading_aware.get("config") if type(heading_aware) is dict else None
            target = config.get("max_chars") if type(config) is dict else None
            size = f'"pair-aware": {target}' if type(target) is int else '"pair-aware": N'
            hint = f'; a build makes pair-aware only when its manifest\'s "policies" names it: add {size}, then build again'
        raise IngestionError("policy_not_in_file", str(saved.path), f"holds {held} only; {policy} was asked for{hint}")
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


POLICY_DIFF_FIELDS = (
    "old_policy",
    "new_policy",
    "old_index_id",
    "new_index_id",
    "documents",
    "kept",
    "removed",
    "added",
    "reusable",
    "needing_embedding",
    "recut",
    "pairs_added",
    "pairs_removed",
    "checks",
    # (old, new) of the removed and added pairs an edit only moved (``moved_pairs``): the summary names them apart.
    "pairs_moved",
)


class PolicyDiff(namedtuple("PolicyDiff", POLICY_DIFF_FIELDS, defaults=((),))):
    """One old index against one new index: their policies and index ids, then chunk lists in index order."""

    __slots__ = ()

    @property
    def embeddings_to_compute(self) -> int:
        """Distinct new texts: two added chunks with the same text need one embedding."""
        return distinct_texts(self.needing_embedding)


def diff_indexes(
    old_policy: str, old_index: dict, new_policy: str, new_index: dict, checks: dict | None = None
) -> PolicyDiff:
    """Which chunks of ``new_index`` are kept, added and reusable, against ``old_index``.

    A chunk is kept when its ``chunk_id`` is in both. An added chunk is
    reusable when its ``text_sha256`` is the text hash of some old chunk:
    an embedding stored by text hash still fits it, though its id is new.
    An added chunk is re-cut when its document is unchanged (one revision
    on both sides) but no old chunk of it has its span: a boundary moved,
    as a pair added to a pair-aware index moves the ones it joins across.
    """
    old_ids = {chunk["chunk_id"] for chunk in old_index["chunks"]}
    new_ids = {chunk["chunk_id"] for chunk in new_index["chunks"]}
    old_texts = {chunk["text_sha256"] for chunk in old_index["chunks"]}
    added = [chunk for chunk in new_index["chunks"] if chunk["chunk_id"] not in old_ids]
    old_revisions = {document["document_revision"] for document in old_index["documents"]}
    old_spans = {(chunk["document_revision"], chunk["start"], chunk["end"]) for chunk in old_index["chunks"]}
    pairs_added, pairs_removed = pair_changes(old_index["config"], new_index["config"])
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
        recut=[
            chunk
            for chunk in added
            if chunk["document_revision"] in old_revisions
            and (chunk["document_revision"], chunk["start"], chunk["end"]) not in old_spans
        ],
        pairs_added=pairs_added,
        pairs_removed=pairs_removed,
        checks=checks,
        pairs_moved=moved_pairs(
            pairs_added, pairs_removed, document_texts(old_index["documents"]), document_texts(new_index["documents"])
        )[0],
    )


def document_texts(documents) -> dict[str, str]:
    """Each document's (or source's) text by ``source_id``."""
    return {document["source_id"]: document["text"] for document in documents}


def pair_changes(old_config: dict, new_config: dict) -> tuple[list[dict], list[dict]]:
    """The pairs a new pair-aware config keeps that the old one did not, and the other way round (config order).

    ``([], [])`` unless both configs are pair-aware.
    """
    if old_config["strategy"] != chunk_index.PAIR_AWARE or new_config["strategy"] != chunk_index.PAIR_AWARE:
        return [], []
    old_keys = {chunk_index.pair_sort_key(pair) for pair in old_config["pairs"]}
    new_keys = {chunk_index.pair_sort_key(pair) for pair in new_config["pairs"]}
    return (
        [pair for pair in new_config["pairs"] if chunk_index.pair_sort_key(pair) not in old_keys],
        [pair for pair in old_config["pairs"] if chunk_index.pair_sort_key(pair) not in new_keys],
    )


class FileDiff(namedtuple("FileDiff", ("old", "new", "policies", "only_old", "only_new"), defaults=((), ()))):
    """Two validated files (``SavedIndexes``), one ``PolicyDiff`` per compared pair of indexes, and, between two whole
    results, the indexes of a policy only one of them holds (``(policy, index)``, in the file's order): pair-aware
    added to a manifest is a new index, every chunk of it to embed."""

    __slots__ = ()

    @property
    def embeddings_to_compute(self) -> int:
        """The sum over policies: each policy's vectors live in their own index, a new one's all to compute."""
        return sum(policy.embeddings_to_compute for policy in self.policies) + sum(
            distinct_texts(index["chunks"]) for _, index in self.only_new
        )


def distinct_texts(chunks: list[dict]) -> int:
    """How many embeddings ``chunks`` need: one per distinct text."""
    return len({chunk["text_sha256"] for chunk in chunks})


def unpaired_indexes(indexes: dict[str, dict], pairs: list[tuple[str, str]], side: int) -> list[tuple[str, dict]]:
    """The indexes of ``indexes`` that no pair of ``pairs`` compares (``side`` 0 old, 1 new), in the file's order."""
    compared = {pair[side] for pair in pairs}
    return [(name, index) for name, index in indexes.items() if name not in compared]


def diff_files(
    old_path: Path, new_path: Path, old_policy: str | None = None, new_policy: str | None = None, progress=None
) -> FileDiff:
    """Validate both files, then diff the indexes ``paired_indexes`` pairs.

    ``old_policy`` / ``new_policy`` narrow a side to one of its indexes, so
    ``old_policy="paragraph", new_policy="heading-aware"`` on one result file
    shows what switching policies costs.
    """
    old, old_artifact = validated_file(old_path, progress, policy=old_policy)
    if progress is not None:
        progress.stage(f"validating {printable(str(new_path))}", 0, 0)
    new, new_artifact = validated_file(new_path, progress, policy=new_policy)
    old_indexes = selected_indexes(old, old_policy)
    new_indexes = selected_indexes(new, new_policy)
    pairs = paired_indexes(old_indexes, new_indexes)
    old_verdicts = result_verdicts(old.kind, old_artifact)
    new_verdicts = result_verdicts(new.kind, new_artifact)
    return FileDiff(
        old,
        new,
        [
            diff_indexes(
                old_name,
                old_indexes[old_name],
                new_name,
                new_indexes[new_name],
                check_changes(old_verdicts, new_verdicts, old_name, new_name),
            )
            for old_name, new_name in pairs
        ],
        *only_one_side(old, new, old_policy, new_policy, old_indexes, new_indexes, pairs),
    )


def only_one_side(
    old: SavedIndexes, new: SavedIndexes, old_policy, new_policy, old_indexes: dict, new_indexes: dict, pairs: list
) -> tuple[list, list]:
    """The indexes of a policy only one of two whole results holds. Where a side is a single index or narrowed to one
    (``--policy``), that side's index when no index is compared at all (``diff old.json new.json --new-policy
    pair-aware``, the old file holding none: a new index, every text to embed); the other indexes no one asked to
    compare are not named."""
    old_asked = old.kind != "result" or old_policy is not None
    new_asked = new.kind != "result" or new_policy is not None
    if old_asked or new_asked:
        if pairs:
            return [], []
        return (
            unpaired_indexes(old_indexes, pairs, 0) if old_asked else [],
            unpaired_indexes(new_indexes, pairs, 1) if new_asked else [],
        )
    return unpaired_indexes(old_indexes, pairs, 0), unpaired_indexes(new_indexes, pairs, 1)


ONE_CHECK = "(the one span check)"
"""What a result of exactly one check, the spec's shape, which names none, calls it."""


def result_verdicts(kind: str, artifact: dict) -> dict[str, dict[str, tuple]] | None:
    """Per policy of a saved result, each span check's name, whether one chunk holds both its spans, and its two
    spans; ``None`` for a single index, which holds no verdicts. A result of one check names it ``ONE_CHECK``."""
    if kind != "result":
        return None
    verdicts = {}
    for comparison in artifact["comparisons"]:
        pairs = comparison.get("pairs")
        if pairs is None:
            pairs = [{**comparison, "name": ONE_CHECK}]
        index = artifact["indexes"].get(comparison["strategy"], {})
        texts = {document["source_id"]: document["text"] for document in index.get("documents", [])}
        verdicts[comparison["strategy"]] = {
            pair["name"]: (
                pair["instruction_and_qualifier_share_chunk"],
                (tuple(pair["instruction_span"]), tuple(pair["qualifier_span"])),
                pair_quotes(pair, texts),
            )
            for pair in pairs
        }
    return verdicts


def pair_quotes(pair: dict, texts: dict[str, str]) -> tuple[str, str] | None:
    """The text of a compared pair's two spans in its source, as the result holds it; ``None`` for the spec's one
    check, which names no source."""
    text = texts.get(pair.get("source_id"))
    if text is None:
        return None
    (instruction_start, instruction_end), (qualifier_start, qualifier_end) = (
        pair["instruction_span"],
        pair["qualifier_span"],
    )
    return text[instruction_start:instruction_end], text[qualifier_start:qualifier_end]


def named_one_check(side: dict, other: dict) -> dict:
    """``side`` with its ``ONE_CHECK`` named as the check of ``other`` that has its spans, when one has: a result of
    one check (the spec's shape) names none, and the same check in a result of two is then the same check."""
    if ONE_CHECK not in side:
        return side
    spans = side[ONE_CHECK][1]
    name = next((name for name, (_, other_spans, _) in other.items() if other_spans == spans), None)
    if name is None or name in side:
        return side
    return {(name if key == ONE_CHECK else key): value for key, value in side.items()}


def check_changes(old: dict | None, new: dict | None, old_policy: str, new_policy: str) -> dict | None:
    """Between two results, for one compared pair of policies: the span checks only the new one holds
    (``added``, each with its verdict), those only the old one holds (``removed``), and those whose verdict
    differs (``changed``), each list in the new (or for ``removed`` the old) result's order; ``None`` unless both
    files are results. Checks are matched by name; a result's one unnamed check by its spans."""
    if old is None or new is None or old_policy not in old or new_policy not in new:
        return None
    before = named_one_check(old[old_policy], new[new_policy])
    after = named_one_check(new[new_policy], before)
    return {
        "added": [{"name": name, "kept_together": kept} for name, (kept, _, _) in after.items() if name not in before],
        "removed": [
            {"name": name, "kept_together": kept} for name, (kept, _, _) in before.items() if name not in after
        ],
        "changed": [
            {"name": name, "kept_together_before": before[name][0], "kept_together": kept}
            for name, (kept, _, _) in after.items()
            if name in before and before[name][0] != kept
        ],
        # A check of the same name whose quotes read otherwise now (dropped by pin --drop-stale, declared again by
        # scan --add-checks after an edit): the same name, another pair (diff_version 5).
        "requoted": [
            {"name": name, "kept_together": kept}
            for name, (kept, _, quotes) in after.items()
            if name in before and quotes is not None and before[name][2] is not None and before[name][2] != quotes
        ],
    }


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
                "recut": [chunk_reference(chunk) for chunk in policy.recut],
                "pairs_added": policy.pairs_added,
                "pairs_removed": policy.pairs_removed,
                "checks": policy.checks,
                "embeddings_to_compute": policy.embeddings_to_compute,
            }
            for policy in diff.policies
        ],
        "only_old": [
            {"policy": name, "index_id": index["index_id"], "chunks": len(index["chunks"])}
            for name, index in diff.only_old
        ],
        "only_new": [
            {
                "policy": name,
                "index_id": index["index_id"],
                "chunks": len(index["chunks"]),
                "embeddings_to_compute": distinct_texts(index["chunks"]),
            }
            for name, index in diff.only_new
        ],
        "embeddings_to_compute": diff.embeddings_to_compute,
    }


def document_line(change: dict) -> str:
    """One document's revision change in words; the untrusted source_id quoted."""
    name = quoted_name(change["source_id"])
    if change["status"] != "changed":
        return f"  {name}: {change['status']}"
    fields = ", ".join(change["changed_fields"])
    return f"  {name}: revision changed ({', '.join(change['reasons'])}: {fields}); every chunk id of it changes"


def document_lines(changes: list[dict]) -> list[str]:
    """Each document that changed, was added or removed, then one line counting the unchanged ones.

    A docs set of hundreds of pages where one page was edited gives two lines,
    not hundreds: ``['  "docs/async": revision changed (…)', "  22 other documents unchanged"]``.
    """
    changed = [change for change in changes if change["status"] != "unchanged"]
    lines = []
    if {change["status"] for change in changes} == {"added", "removed"}:
        # Two files of other pages altogether: most often a path typed wrong, not an edit.
        lines.append(
            "  note: the two files share no document: every page of one is removed and every page of the other "
            "added (were they built from different manifests?)"
        )
    lines += [document_line(change) for change in changed[:LISTED_DOCUMENTS]]
    if len(changed) > LISTED_DOCUMENTS:
        counts = Counter(change["status"] for change in changed[LISTED_DOCUMENTS:])
        kinds = ", ".join(f"{count:,} {status}" for status, count in sorted(counts.items()))
        lines.append(f"  … {len(changed) - LISTED_DOCUMENTS:,} more ({kinds}): --json lists every document")
    unchanged = len(changes) - len(changed)
    if unchanged:
        other = "other " if lines else ""
        lines.append(f"  {unchanged:,} {other}{'document' if unchanged == 1 else 'documents'} unchanged")
    return lines


LISTED_DOCUMENTS = 20
"""The diff summary names at most this many changed documents, then counts the rest by what changed."""


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
    lines.append(
        f"  chunk ids: {len(policy.kept):,} kept, {len(policy.removed):,} removed, {len(policy.added):,} added"
    )
    lines.append(
        f"  added: {len(policy.reusable):,} reusable by text hash, "
        f"{len(policy.needing_embedding):,} with new text ({policy.embeddings_to_compute:,} distinct to embed)"
    )
    if policy.pairs_added or policy.pairs_removed:
        moved = list(policy.pairs_moved)
        moved_ids = {id(pair) for old, new in moved for pair in (old, new)}
        added = [pair for pair in policy.pairs_added if id(pair) not in moved_ids]
        removed = [pair for pair in policy.pairs_removed if id(pair) not in moved_ids]
        shifted = f"{len(moved):,} moved (the same spans, shifted by an edit before them), " if moved else ""
        lines.append(f"  pairs: {shifted}{len(added):,} added, {len(removed):,} removed")
        lines.extend(
            f"  pair moved {pair_line(new)} ({new['instruction_span'][0] - old['instruction_span'][0]:+,})"
            for old, new in moved[:LISTED_PAIRS]
        )
        lines.extend(f"  pair added {pair_line(pair)}" for pair in added[:LISTED_PAIRS])
        lines.extend(f"  pair removed {pair_line(pair)}" for pair in removed[:LISTED_PAIRS])
        listed = sum(min(len(pairs), LISTED_PAIRS) for pairs in (moved, added, removed))
        unlisted = len(moved) + len(added) + len(removed) - listed
        if unlisted:
            lines.append(f"  … {unlisted:,} more: --json lists every pair")
        if not policy.kept:
            # Why a few moved pairs gave a whole index new ids: what a vector store keyed by id must know.
            lines.append(
                "  every chunk id is new: a pair-aware index's pairs are part of its config, which each chunk id "
                "hashes, so a pair added, removed or moved (an edit above it shifts its spans) renames every chunk; "
                "only the new texts need embeddings"
            )
    lines.extend(check_lines(policy.checks))
    if policy.recut:
        lines.append(f"  re-cut: {counted(len(policy.recut), 'chunk')} of unchanged documents, a span no old chunk had")
    lines.extend(f"  embed {needed_chunk_line(chunk)}" for chunk in policy.needing_embedding[:LISTED_EMBEDS])
    unlisted = len(policy.needing_embedding) - LISTED_EMBEDS
    if unlisted > 0:
        lines.append(f"  … {unlisted:,} more chunks to embed: --json lists every one")
    return lines


LISTED_PAIRS = 10
"""The diff summary names at most this many added and this many removed pairs; ``--json`` holds them all."""
LISTED_EMBEDS = 20
"""The diff summary names at most this many chunks to embed per policy, as the main job lists its first 20 pairs."""


def check_lines(checks: dict | None) -> list[str]:
    """The span checks two results differ by, in words: a count, then the verdicts that changed, the checks added
    and removed (at most ``LISTED_PAIRS`` lines of each); nothing when they differ by none.

    ``["  span checks: 1 verdict changed, 1 added, 0 removed", '  now split: "scan:docs/a:250" (kept before)', …]``
    """
    if not checks or not (checks["added"] or checks["removed"] or checks["changed"] or checks["requoted"]):
        return []
    requoted = f", {len(checks['requoted']):,} with other quotes" if checks["requoted"] else ""
    lines = [
        f"  span checks: {len(checks['changed']):,} verdict{'' if len(checks['changed']) == 1 else 's'} changed, "
        f"{len(checks['added']):,} added, {len(checks['removed']):,} removed{requoted}"
    ]
    words = {True: "kept", False: "split"}
    lines.extend(
        f"  now {words[change['kept_together']]}: {quoted_name(change['name'])} "
        f"({words[change['kept_together_before']]} before)"
        for change in checks["changed"][:LISTED_PAIRS]
    )
    lines.extend(
        f"  check added: {quoted_name(check['name'])} ({words[check['kept_together']]})"
        for check in checks["added"][:LISTED_PAIRS]
    )
    lines.extend(f"  check removed: {quoted_name(check['name'])}" for check in checks["removed"][:LISTED_PAIRS])
    lines.extend(
        f"  other quotes: {quoted_name(check['name'])} (its instruction or qualifier reads otherwise now; "
        f"{words[check['kept_together']]})"
        for check in checks["requoted"][:LISTED_PAIRS]
    )
    unlisted = sum(max(len(checks[key]) - LISTED_PAIRS, 0) for key in ("changed", "added", "removed", "requoted"))
    if unlisted:
        lines.append(f"  … {unlisted:,} more: --json lists every check")
    return lines


def moved_pairs(
    added: list[dict], removed: list[dict], old_texts: dict[str, str], new_texts: dict[str, str]
) -> tuple[list[tuple[dict, dict]], list[dict], list[dict]]:
    """The pairs an edit only moved, as ``(old, new)``: a removed and an added pair of one source, at another place,
    whose instruction and qualifier are the same texts (``old_texts``, ``new_texts``: each document's, by source);
    and the added and removed pairs left.

    Matched in order, each pair once: an edit above a pair shifts both its spans alike, and a pair-aware config
    holds spans, not names, so the diff tells a moved pair from a new one by what its spans hold.
    """
    waiting: dict[tuple, list[dict]] = {}
    for pair in removed:
        waiting.setdefault(pair_shape(pair, old_texts), []).append(pair)
    moved, left = [], []
    for pair in added:
        candidates = waiting.get(pair_shape(pair, new_texts))
        if candidates:
            moved.append((candidates.pop(0), pair))
        else:
            left.append(pair)
    matched = {id(old) for old, _ in moved}
    return moved, left, [pair for pair in removed if id(pair) not in matched]


def pair_shape(pair: dict, texts: dict[str, str]) -> tuple:
    """What a shift keeps of a pair: its source, the texts its two spans hold and the distance between them."""
    instruction, qualifier = pair["instruction_span"], pair["qualifier_span"]
    text = texts.get(pair["source_id"], "")
    return (
        pair["source_id"],
        text[instruction[0] : instruction[1]],
        text[qualifier[0] : qualifier[1]],
        qualifier[0] - instruction[0],
    )


def pair_line(pair: dict) -> str:
    """A config pair as the diff names it: ``"docs/guide" instruction [12, 40), qualifier [41, 90)``."""
    instruction = pair["instruction_span"]
    qualifier = pair["qualifier_span"]
    return (
        f"{quoted_name(pair['source_id'])} instruction [{instruction[0]}, {instruction[1]}),"
        f" qualifier [{qualifier[0]}, {qualifier[1]})"
    )


def needed_chunk_line(chunk: dict) -> str:
    """Where a chunk needing an embedding sits, and the start of its text, quoted.

    ``"aster-copy-v1" order 2 [271, 431) line 9: "After a refusal, …"``
    """
    lines = line_span(chunk["start_line"], chunk["end_line"])
    return f"{quoted_name(chunk['source_id'])} order {chunk['order']} [{chunk['start']}, {chunk['end']}) {lines}: {quoted(chunk['text'], 72)}"


def diff_summary(diff: FileDiff) -> str:
    """The diff for a person: documents, then per policy counts and what to embed.

    Every untrusted value (paths, source ids, chunk text) is shown through
    ``quoted``, so no control character or markup reaches the terminal raw.
    The last line is the count of embeddings to compute.
    """
    lines = [
        f"diff {quoted_name(str(diff.old.path))} ({diff.old.kind}) -> {quoted_name(str(diff.new.path))} ({diff.new.kind})"
    ]
    document_views = {chunk_index.digest(policy.documents) for policy in diff.policies}
    # Indexes of one result share their documents; say so once instead of per policy.
    shared_documents = len(document_views) == 1
    if shared_documents:
        lines.append("documents:")
        lines.extend(document_lines(diff.policies[0].documents))
    for policy in diff.policies:
        lines.extend(policy_lines(policy, not shared_documents))
    for name, index in diff.only_new:
        lines.append(
            f"{name}: only in the new file: a new index of {counted(len(index['chunks']), 'chunk')}, "
            f"{distinct_texts(index['chunks']):,} distinct to embed"
        )
    for name, index in diff.only_old:
        lines.append(
            f"{name}: only in the old file: its index of {counted(len(index['chunks']), 'chunk')} has no counterpart "
            "to compare with (drop it, or diff that policy against another with --old-policy and --new-policy)"
        )
    lines.append(f"embeddings to compute: {diff.embeddings_to_compute:,}")
    return "\n".join(lines)


# --- export ------------------------------------------------------------------------


def exported_index(path: Path, policy: str) -> dict:
    """The validated index of ``policy`` in the saved result or index at ``path``."""
    return selected_indexes(validated_file(path, policy=policy)[0], policy)[policy]


def exported_index_and_pairs(
    path: Path, policy: str, progress=None, expected=None, kept_texts=None
) -> tuple[dict, list[dict] | None]:
    """``exported_index`` and the pairs the file declares (``result_pairs``: ``None`` for a single index).

    ``expected``, as in ``validate.read_validated``: the result the file is
    likely to be, compared with it first; ``kept_texts`` as there.
    """
    saved, artifact = validated_file(path, progress, expected, kept_texts, policy)
    return selected_indexes(saved, policy)[policy], result_pairs(saved, artifact)


def texts_json_of(encoded: list, chunks: list[dict]) -> list[str] | None:
    """The JSON of ``chunks``' texts among a build's ``encoded`` entries (``chunk_index.build_policy_indexes``), if there."""
    for objects, key, texts in encoded:
        if objects is chunks and key == "text":
            return texts
    return None


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


# One configured encoder for every line: ``json.dumps`` with options builds one per call.
_line_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def json_line(record: dict) -> str:
    """One upsert record as a JSON line.

    ``json.dumps`` escapes every C0 control and ``\\n`` inside a value; every
    other character that does not print is escaped too (``inert_json``): the
    Unicode line and paragraph separators and NEL, which readers that split on
    them (``str.splitlines``) would break a record at, the C1 controls and the
    bidirectional overrides. The same bytes go to a file or to stdout.
    """
    return inert_json_text(_line_json(record)) + "\n"


def export_lines(index: dict, carried: dict[int, list[dict]] | None = None) -> bytes:
    """Every chunk of ``index`` as JSON Lines (UTF-8), one upsert record per line, in index order.

    ``carried`` (``carried_caveats``) adds each chunk's carried caveats to its metadata.
    """
    return b"".join(export_pieces(index, carried))


def export_pieces(
    index: dict, carried: dict[int, list[dict]] | None = None, texts_json: list[str] | None = None
) -> Iterator[bytes]:
    """``export_lines`` in pieces of ``LINES_PER_PIECE`` lines, for a writer that streams them.

    ``texts_json``, when given, holds the chunks' texts turned to JSON, in
    order, as the build that hashed them has them (``chunk_index.build_policy_indexes``'
    ``encoded``): they are not escaped again.
    """
    config_fields = config_metadata(index["config"])
    if carried is None:
        return upsert_line_pieces(index["chunks"], index["index_id"], config_fields, texts_json)
    records = (upsert_record(chunk, index["index_id"], config_fields) for chunk in index["chunks"])
    records = (with_caveats(record, carried.get(position, ())) for position, record in enumerate(records))
    return json_lines_pieces(records)


# Records are laid out this many at a time: an export is streamed, never held whole as bytes.
LINES_PER_PIECE = 1024

# The fields of a chunk an upsert record holds, in the record's order: its id and text, then its metadata.
UPSERT_COLUMNS = ("chunk_id", "text", *UPSERT_CHUNK_FIELDS)
# How each of them opens in a record's JSON line (``json_line``: no spaces, the metadata nested after the text).
UPSERT_LEADS = ('{"id":', ',"text":', ',"metadata":{"source_id":', *(f',"{key}":' for key in UPSERT_CHUNK_FIELDS[1:]))


def upsert_line_pieces(
    chunks: list[dict], index_id: str, config_fields: dict, texts_json: list[str] | None = None
) -> Iterator[bytes]:
    """``json_lines_pieces`` of the chunks' ``upsert_record`` records, the same bytes, laid out a column at a time.

    A piece's records share their keys, so each field's values are turned to
    JSON together, in C (``indented_json.COLUMN_JSON``: what the encoder writes
    for a string, an int, a bool or null), and filled into one template; a
    piece where a field holds any other type, or mixed types, is laid out
    record by record instead. Making the JSON inert works character by
    character, so it is applied to each value on its own: an ASCII value
    without DEL, nearly every one, is passed on a single check in C.
    ``texts_json``, as ``export_pieces`` takes it: the texts' JSON, not made again.
    """
    if texts_json is not None and len(texts_json) != len(chunks):
        texts_json = None
    # The record's closing fields, the same on every line: the index id and the config's.
    tail = {"index_id": index_id}
    tail.update(config_fields)
    closing = "," + inert_json_text(_line_json(tail))[1:] + "}\n"
    laid_out = set(config_fields).isdisjoint(UPSERT_COLUMNS)
    for start in range(0, len(chunks), LINES_PER_PIECE):
        batch = chunks[start : start + LINES_PER_PIECE]
        known = None if texts_json is None else texts_json[start : start + LINES_PER_PIECE]
        text = upsert_lines(batch, closing, known) if laid_out else None
        if text is None:
            yield from json_lines_pieces(upsert_record(chunk, index_id, config_fields) for chunk in batch)
        else:
            yield text.encode("utf-8")


def upsert_lines(chunks: list[dict], closing: str, texts_json: list[str] | None = None) -> str | None:
    """The upsert records' JSON lines of ``chunks``, made inert, each ending in ``closing``; ``None`` if a field's types differ.

    ``[{"chunk_id": "c1", "text": "a", "source_id": "s", ...}]`` ->
    ``'{"id":"c1","text":"a","metadata":{"source_id":"s",...' + closing``.
    ``texts_json``, when given, are the chunks' texts as JSON, in order.
    """
    runs = []
    for lead, key in zip(UPSERT_LEADS, UPSERT_COLUMNS):
        column = list(map(itemgetter(key), chunks))
        kinds = set(map(type, column))
        if len(kinds) != 1 or not kinds <= COLUMN_JSON.keys():
            return None
        kind = kinds.pop()
        if key == "text" and kind is str and texts_json is not None:
            texts = map(inert_string_json, texts_json)
        else:
            # A string's JSON is made inert (each distinct one once, in a column that repeats).
            texts = map(column_json(kind, column, inert_string_json if kind is str else None), column)
        runs.append(repeat(lead))
        runs.append(texts)
    runs.append(repeat(closing))
    return "".join(chain.from_iterable(zip(*runs)))


def inert_string_json(text: str) -> str:
    """A string's JSON text made inert (``inert_json_text``); an ASCII text without DEL, nearly every one, as it is."""
    return text if text.isascii() and "\x7f" not in text else inert_json_text(text)


def json_lines_pieces(records: Iterable[dict]) -> Iterator[bytes]:
    """``records`` as JSON lines (``json_line``), UTF-8, ``LINES_PER_PIECE`` lines to a piece.

    A piece's lines are made inert together: the escaping never crosses a line break.
    """
    records = iter(records)
    while True:
        batch = list(islice(records, LINES_PER_PIECE))
        if not batch:
            return
        yield inert_json_text("\n".join(map(_line_json, batch)) + "\n").encode("utf-8")


# --- carried caveats ------------------------------------------------------------------


class Carrying(namedtuple("Carrying", ("carried", "split", "held_at_start", "unplaced"), defaults=(0, 0, 0))):
    """What ``--carry-caveats`` does with the declared pairs over one set of chunks (see ``carrying``).

    ``carried`` maps a chunk's position to its carried caveats; ``split`` counts
    the pairs no chunk holds with their qualifier, ``held_at_start`` those of
    them whose instruction no chunk holds whole and whose chunk where it starts
    holds the qualifier already (nothing to carry), ``unplaced`` those whose
    instruction begins in no chunk.
    """

    __slots__ = ()


def carried_caveats(chunks: list[dict], pairs: list[dict], texts: dict[str, str]) -> dict[int, list[dict]]:
    """``carrying(...).carried``: for each chunk (by position) holding an instruction without its qualifier, that qualifier."""
    return carrying(chunks, pairs, texts).carried


def carrying(chunks: list[dict], pairs: list[dict], texts: dict[str, str]) -> Carrying:
    """For each chunk (by position) holding a pair's instruction but not its qualifier: that qualifier, placed.

    ``pairs`` are declared pairs (``name``, ``source_id``, ``instruction_span``,
    ``qualifier_span``); ``texts`` each source's text. A carried caveat is
    ``{"name", "source_id", "start", "end", "start_line", "end_line", "text",
    "holds_instruction"}``, in pair order. A chunk holds a span when ``start <=
    span start`` and ``span end <= end``. An instruction no chunk holds whole
    (longer than a fixed-char slice) is carried at each chunk holding its first
    character, where ``context`` anchors it (``"holds_instruction": "start"``,
    else ``"whole"``), unless that chunk holds the qualifier already. Each
    source's pairs are sorted by instruction start once, so a chunk costs a
    bisection plus the instructions that start in it.
    """
    by_source: dict[str, list[dict]] = {}
    for pair in pairs:
        by_source.setdefault(pair["source_id"], []).append(pair)
    starts = {}
    for source_id, source_pairs in by_source.items():
        source_pairs.sort(key=lambda pair: pair["instruction_span"][0])
        starts[source_id] = [pair["instruction_span"][0] for pair in source_pairs]
    order = {id(pair): position for position, pair in enumerate(pairs)}
    held_whole: set[int] = set()
    kept: set[int] = set()
    started: set[int] = set()
    held_at_start: set[int] = set()
    # (position, pair, whole) for each chunk an instruction starts in whose qualifier it does not hold.
    held: list[tuple[int, dict, bool]] = []
    for position, chunk in enumerate(chunks):
        source_pairs = by_source.get(chunk["source_id"])
        if not source_pairs:
            continue
        source_starts = starts[chunk["source_id"]]
        first = bisect_left(source_starts, chunk["start"])
        last = bisect_left(source_starts, chunk["end"])
        for pair in source_pairs[first:last]:
            whole = pair["instruction_span"][1] <= chunk["end"]
            qualifier_held = chunk["start"] <= pair["qualifier_span"][0] and pair["qualifier_span"][1] <= chunk["end"]
            started.add(id(pair))
            if whole:
                held_whole.add(id(pair))
            if whole and qualifier_held:
                kept.add(id(pair))
            elif qualifier_held:
                held_at_start.add(id(pair))
            else:
                held.append((position, pair, whole))
    carried: dict[int, list[tuple[int, dict, bool]]] = {}
    for position, pair, whole in held:
        if whole or id(pair) not in held_whole:
            carried.setdefault(position, []).append((order[id(pair)], pair, whole))
    carried_pairs = {id(pair) for entries in carried.values() for _, pair, _ in entries}
    return Carrying(
        {
            position: [caveat_record(pair, texts[pair["source_id"]], whole) for _, pair, whole in sorted(entries)]
            for position, entries in carried.items()
        },
        split=len(pairs) - len(kept),
        held_at_start=len(held_at_start - held_whole - kept - carried_pairs),
        unplaced=len(pairs) - len(started),
    )


def caveat_record(pair: dict, text: str, whole: bool = True) -> dict:
    """A pair's qualifier as carried metadata: its pair's name, where it is, its text, and what the chunk holds."""
    start, end = pair["qualifier_span"]
    return {
        "name": pair["name"],
        "source_id": pair["source_id"],
        "start": start,
        "end": end,
        "start_line": text.count("\n", 0, start) + 1,
        "end_line": text.count("\n", 0, end - 1) + 1,
        "text": text[start:end],
        "holds_instruction": "whole" if whole else "start",
    }


def with_caveats(record: dict, caveats: list[dict]) -> dict:
    """``record`` with ``carried_caveats`` and their texts joined (``carried_caveats_text``) in its metadata, if any.

    The joined text is what a pipeline prepends before embedding; each
    distinct qualifier once, in offset order, separated by a blank line.
    """
    if not caveats:
        return record
    distinct = {(caveat["start"], caveat["end"]): caveat["text"] for caveat in caveats}
    record["metadata"]["carried_caveats"] = caveats
    record["metadata"]["carried_caveats_text"] = "\n\n".join(distinct[span] for span in sorted(distinct))
    return record


def result_pairs(saved: SavedIndexes, value: dict) -> list[dict] | None:
    """The pairs a validated result declares, named (``None`` for a single index, which declares none).

    A single-pair result records neither name nor source: its source is the
    one the validator re-derived its comparison for, its name ``instruction + qualifier``.
    """
    if saved.kind != "result":
        return None
    comparisons = value["comparisons"]
    first = comparisons[0]
    return declared_pairs(
        comparisons,
        lambda: validate.comparison_source(
            comparisons, saved.indexes, first["instruction_span"], first["qualifier_span"]
        ),
    )


def declared_pairs(comparisons: list, single_source) -> list[dict]:
    """A result's comparisons as named pairs; a single-pair result's one pair is ``instruction + qualifier``, of the
    source ``single_source()`` says (the comparison records none)."""
    if span_checks.is_pairs_comparison(comparisons):
        return [{key: pair[key] for key in span_checks.DECLARED_PAIR_KEYS} for pair in comparisons[0]["pairs"]]
    first = comparisons[0]
    return [
        {
            "name": "instruction + qualifier",
            "source_id": single_source(),
            "instruction_span": first["instruction_span"],
            "qualifier_span": first["qualifier_span"],
        }
    ]


def manifest_pairs(span_checks_: tuple) -> list[dict]:
    """A manifest's span checks as declared pairs (``span_checks.declared_pair``)."""
    return [span_checks.declared_pair(check) for check in span_checks_]


def judged_records(chunks: list[dict], texts: dict[str, str], revisions: dict[str, str]) -> list[dict]:
    """Another chunker's located chunks (``judge.judged_chunks``) as upsert records, in the lab's shape.

    The text is the source's ``[start, end)``, where the chunk was located;
    the id is ``digest({"document_revision", "start", "end"})``, the same for
    the same chunk of the same text; ``line`` is the record's line in the chunk file.
    """
    records = []
    for chunk in chunks:
        revision = revisions[chunk["source_id"]]
        text = texts[chunk["source_id"]][chunk["start"] : chunk["end"]]
        metadata = {
            "source_id": chunk["source_id"],
            "document_revision": revision,
            "section_title": chunk["section_title"],
            "order": chunk["order"],
            "start": chunk["start"],
            "end": chunk["end"],
            "start_line": chunk["start_line"],
            "end_line": chunk["end_line"],
            "text_sha256": chunk_index.sha(text),
            "line": chunk["line"],
            "located": chunk["state"],
        }
        chunk_id = chunk_index.digest({"document_revision": revision, "start": chunk["start"], "end": chunk["end"]})
        records.append({"id": chunk_id, "text": text, "metadata": metadata})
    return records


def judged_export_lines(records: list[dict], carried: dict[int, list[dict]]) -> Iterator[bytes]:
    """Judged chunks' upsert records (``judged_records``) as JSON Lines, each with its carried caveats, in pieces."""
    return json_lines_pieces(with_caveats(record, carried.get(position, ())) for position, record in enumerate(records))
