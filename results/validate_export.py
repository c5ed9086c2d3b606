"""``validate EXPORT.jsonl --manifest M``: an upsert file ``export`` wrote, compared with the manifest's build.

An export holds chunk records, not the documents they were cut from, so it is
re-derived from the manifest that pins those documents: the manifest is built
as the main job builds it, the index of the export's policy exported again as
``export`` writes it (with the manifest's span checks carried when the file
carries caveats), and the bytes compared. A file that differs is refused at
its first differing line, naming the field; an export of another chunker's
chunks (``export --chunks``) is not re-derivable from the manifest alone and
is refused as such.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import chunk_index
from lab_io.errors import IngestionError, UsageError, counted, printable, quoted
from results.validate import file_holds, opened_regular_file

# A record's line is read up to this: a chunk of a block grammar's largest page (8 MiB), each character escaped as
# JSON escapes a control (six bytes), with its metadata, is shorter.
HEAD_BYTES = 64 * 1024 * 1024
# How a record's line opens, as export writes it or as a tool wrote it back (spaces, another key first, a mark).
RECORD_OPENING = re.compile(rb'(?:\xef\xbb\xbf)?\s*\{\s*"(?:id|text|metadata)"\s*:')
# How much of the file is read at a time when looking for carried caveats and for the first differing line.
BLOCK_BYTES = 1 << 20


def export_head(path: Path) -> dict | None:
    """The first record of ``path`` when it is a JSON Lines upsert file the lab's ``export`` writes, else ``None``.

    Such a record is ``{"id", "text", "metadata"}`` whose metadata names its
    index (``index_id``) and strategy; ``export --chunks`` records say where
    they were located (``located``) instead.
    """
    handle = opened_regular_file(path)
    if handle is None:
        return None
    with handle:
        try:
            if RECORD_OPENING.match(handle.read(80)) is None:
                return None
            handle.seek(0)
            line = handle.readline(HEAD_BYTES)
        except OSError:
            return None
    try:
        record = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        return None
    if type(record) is not dict or set(record) != {"id", "text", "metadata"} or type(record["metadata"]) is not dict:
        return None
    if type(record["id"]) is not str or re.fullmatch("[0-9a-f]{64}", record["id"]) is None:
        return None
    metadata = record["metadata"]
    if "located" in metadata or ("index_id" in metadata and "strategy" in metadata):
        return record
    return None


def carries_caveats(path: Path) -> bool:
    """Whether any record of ``path`` carries caveats (``export --carry-caveats``), read a block at a time."""
    marker = b'"carried_caveats"'
    handle = opened_regular_file(path)
    if handle is None:
        return False
    with handle:
        tail = b""
        while block := handle.read(BLOCK_BYTES):
            if marker in tail + block:
                return True
            tail = block[-len(marker) :]
    return False


def validated_export(
    path: Path, shown: str, head: dict, manifest, manifest_label: str, build
) -> tuple[str, int, int | None]:
    """Refuse ``path`` unless it is byte for byte ``export``'s output of ``manifest``'s build: its policy, its records
    and the caveats they carry (``None`` for an export without ``--carry-caveats``).

    ``build()`` is the manifest's result, as the main job writes it
    (``commands.validate.manifest_build``).
    """
    from results import reembed

    metadata = head["metadata"]
    if "located" in metadata:
        raise IngestionError(
            "export_of_chunks",
            f"{shown}:1",
            "an export of another chunker's chunks (export --chunks): it is derived from that chunk file, not from "
            "the manifest alone; run export --chunks again and compare, or judge the chunk file",
        )
    policy = metadata["strategy"]
    # The policy and its config are the manifest's to say, before any page is built.
    configs = chunk_index.manifest_policy_configs(manifest)
    if policy not in configs:
        raise IngestionError(
            "export_policy_not_built",
            f"{shown}:1",
            f"its records are of {quoted(policy)}, which {printable(manifest_label)} does not build "
            f"(it builds {', '.join(configs)})",
        )
    built = reembed.config_metadata(configs[policy])
    given = {key: metadata.get(key) for key in built}
    if given != built:
        raise IngestionError(
            "export_config_differs",
            f"{shown}:1",
            f"its records were cut by {json.dumps(given, sort_keys=True)}, {printable(manifest_label)} builds "
            f"{json.dumps(built, sort_keys=True)}: export the manifest's build again",
        )
    result = build()
    index = result["indexes"][policy]
    # Carried caveats name their pairs as the export named them: a result's own (the main job's comparisons), or,
    # for a single index exported with --manifest, the manifest's span checks. Either is the build's.
    carried_ways = [None]
    if carries_caveats(path):
        texts = reembed.document_texts(index["documents"])
        # As export of that result names a single unnamed pair: of the manifest's one span check.
        own_pairs = reembed.declared_pairs(result["comparisons"], lambda: manifest.span_checks[0].source_id)
        carried_ways = [
            reembed.carrying(index["chunks"], pairs, texts).carried
            for pairs in (own_pairs, reembed.manifest_pairs(manifest.span_checks))
        ]
    for carried in carried_ways:
        if file_holds(path, reembed.export_pieces(index, carried)):
            return policy, len(index["chunks"]), None if carried is None else sum(map(len, carried.values()))
    raise first_difference(path, shown, b"".join(reembed.export_pieces(index, carried_ways[0])), manifest_label)


def first_difference(path: Path, shown: str, expected: bytes, manifest_label: str) -> IngestionError:
    """The refusal of an export that differs from the build: its first differing line, and the field that differs."""
    expected_lines = expected.split(b"\n")
    handle = opened_regular_file(path)
    number = 0
    with handle:
        # Lines read at most ``HEAD_BYTES`` at a time: a line longer than any record can be is cut, and differs there.
        for number, line in enumerate(iter(lambda: handle.readline(HEAD_BYTES), b""), start=1):
            want = expected_lines[number - 1] + b"\n" if number <= len(expected_lines) - 1 else None
            if line == want:
                continue
            if want is None:
                return IngestionError(
                    "export_differs",
                    f"{shown}:{number}",
                    f"the build of {printable(manifest_label)} exports {len(expected_lines) - 1:,} records; the file "
                    "holds more",
                )
            return IngestionError("export_differs", f"{shown}:{number}", f"{differing_field(line, want)}: {STALE_HINT}")
    return IngestionError(
        "export_differs",
        f"{shown}:{number + 1}",
        f"the file ends after {counted(number, 'record')}; the build of {printable(manifest_label)} exports "
        f"{len(expected_lines) - 1:,}",
    )


STALE_HINT = (
    "the export was changed after it was written, or it is of pages or checks other than those pinned now (export "
    "the manifest's build again)"
)


def differing_field(line: bytes, want: bytes) -> str:
    """Which field of a record differs, in words: ``'metadata.start is 20, the build gives 21'``."""
    try:
        record = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        return "this line is no JSON record, unlike the build's"
    expected = json.loads(want)
    if type(record) is not dict:
        return "this line is no record object, unlike the build's"
    for key in expected:
        if key == "metadata" and type(record.get(key)) is dict:
            for field, value in expected[key].items():
                if record[key].get(field) != value:
                    given = shown_value(record[key].get(field))
                    return f"metadata.{field} is {given}, the build gives {shown_value(value)}"
            extra = sorted(set(record[key]) - set(expected[key]))
            if extra:
                return f"metadata.{extra[0]} is in no record the build exports"
        elif record.get(key) != expected[key]:
            return f"{key} is {shown_value(record.get(key))}, the build gives {shown_value(expected[key])}"
    return "its bytes are laid out otherwise than export writes them (the same values)"


def shown_value(value: object) -> str:
    """A value as a refusal quotes it: a string quoted and shortened, anything else as JSON."""
    if isinstance(value, str):
        return quoted(value, 40)
    return printable(json.dumps(value)[:60])


def needs_manifest(shown: str) -> UsageError:
    """The refusal of an export given without ``--manifest``: its records are re-derived from the pinned pages."""
    return UsageError(
        "export_needs_manifest",
        shown,
        "this is an export (JSON Lines upsert records): its chunks are re-derived from the pages a manifest pins; "
        "give --manifest M",
    )
