"""``run.py export FILE --policy P`` (or ``--chunks CHUNKS``): chunks as JSON Lines upsert records, caveats carried on request."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import chunk_index
from commands.basics import EXIT_OK, manifest_argument, manifest_to_build, report
from commands.options import add_command, add_manifest_option
from lab_io import outputs
from lab_io.errors import IngestionError, UsageError, counted, printable
from lab_io.outputs import checked_output, destination, emit
from lab_io.progress import Progress
from load_documents import load_manifest

EXPORT_DESCRIPTION = """\
Validate FILE (a saved result or a single saved index), then write every chunk
of --policy's index as one JSON line, the record shape vector stores take for
an upsert: {"id": chunk_id, "text": ..., "metadata": {...}}. With --chunks
instead of FILE, the chunks another chunker wrote (as judge reads them) are
located in --manifest's sources and written in the same shape: each record's
text is the source's own at the chunk's place (not the file's, where a
splitter collapsed or stripped white space, dropped heading lines or kept the
page's \\r\\n or byte order mark; the line says how many, and how), its
metadata the lab's, and a chunk not located is left out and counted.

--carry-caveats adds, to each chunk that holds a declared pair's instruction
but not its qualifier, the qualifier's text and place (carried_caveats, and
carried_caveats_text to prepend before embedding); an instruction no chunk
holds whole carries it at the chunk where it starts. The pairs are a result's
own; a single index or --chunks takes --manifest's span checks.
"""


def register(commands: argparse._SubParsersAction) -> None:
    export = add_command(
        commands,
        "export",
        "write one policy's chunks as JSON Lines upsert records",
        EXPORT_DESCRIPTION,
        "python run.py export result.json --policy heading-aware --output chunks.jsonl",
    )
    export.add_argument("file", metavar="FILE", nargs="?", help="a saved result.json or a single saved index")
    export.add_argument(
        "--policy", choices=chunk_index.POLICY_NAMES, help="the policy whose chunks to export (required with FILE)"
    )
    export.add_argument(
        "--chunks",
        dest="export_chunks",
        metavar="CHUNKS",
        help="export another chunker's chunks (a JSON Lines file, as judge reads it) instead of FILE's",
    )
    export.add_argument(
        "--carry-caveats",
        action="store_true",
        help="add to each chunk holding an instruction but not its qualifier that qualifier's text and place",
    )
    export.add_argument(
        "--output",
        dest="export_output",
        metavar="FILE",
        default=None,
        help="write the JSON Lines here, atomically; '-' for stdout, the default when stdout is a pipe or a file (to a "
        "terminal, --output - must be given: a docs set's records run to megabytes); never FILE, the manifest, its "
        "review decisions or a source",
    )
    add_manifest_option(
        export,
        "the manifest whose file and sources --output must not overwrite (default: the lab's own); "
        "with --chunks, or --carry-caveats on a single index, also the sources and span checks to use; "
        "a saved result of its documents is first compared with its build",
    )
    export.set_defaults(handler=run_export)


def stdout_is_terminal() -> bool:
    """Whether stdout is a terminal (a closed stdout is none)."""
    return sys.stdout is not None and sys.stdout.isatty()


def run_export(args: argparse.Namespace) -> int:
    """Write one policy's chunks, or another chunker's, as JSON Lines upsert records."""
    from results import reembed

    if (args.file is None) == (args.export_chunks is None):
        raise UsageError("export_input", "export", "give either FILE (a saved result or index) or --chunks CHUNKS")
    if args.file is not None and args.policy is None:
        raise UsageError("export_policy", "--policy", "required with FILE: the policy whose chunks to export")
    if args.export_chunks is not None and args.policy is not None:
        raise UsageError(
            "export_policy", "--policy", "--chunks exports the chunk file's own chunks; leave --policy out"
        )
    if args.export_output is None:
        if stdout_is_terminal():
            # As gzip will not write to a terminal: megabytes of records would scroll past, the summary with them.
            raise UsageError(
                "export_to_terminal",
                "export",
                "the records are JSON Lines for a store, not for reading: give --output FILE, or pipe them (| head); "
                "--output - writes them here anyway",
            )
        args.export_output = "-"
    if args.export_chunks is not None:
        return run_judged_export(args)
    source = Path(args.file)
    manifest_path = manifest_argument(args.manifest)
    # Neither the saved file nor the manifest (given, or the lab's own) nor a source it pins may be overwritten.
    manifest, note = None, ""
    if args.manifest is None:
        inputs = outputs.manifest_inputs(manifest_path)
    else:
        # Checked against the file and the manifest before any work, then against the sources it pins:
        # the manifest is read once, for those and for the build the file is compared with.
        checked_output(args.export_output, (source, *outputs.manifest_files(manifest_path)), before_inputs=True)
        manifest, note = given_manifest(args.manifest, source)
        inputs = (
            outputs.manifest_inputs(manifest_path)
            if manifest is None
            else outputs.manifest_files(manifest_path, manifest)
        )
    output = checked_output(args.export_output, (source, *inputs), writes="export")
    with Progress(f"validating {printable(args.file)}") as progress:
        expected, stale = manifest_expected(manifest, args.manifest, source, progress, args.policy)
        note = note or stale
        # The texts the manifest's build turned to JSON, when the file is that build: its records reuse them.
        encoded: list = []
        index, pairs = reembed.exported_index_and_pairs(source, args.policy, progress, expected, encoded)
        carried = None
        if args.carry_caveats:
            if pairs is None:
                pairs = current_manifest_pairs(args, index)
            carried = reembed.carrying(index["chunks"], pairs, reembed.document_texts(index["documents"]))
        pieces = reembed.export_pieces(
            index, None if carried is None else carried.carried, reembed.texts_json_of(encoded, index["chunks"])
        )
        del encoded
        emit(progress.writing(pieces, destination(output)), output)
    exported = counted(len(index["chunks"]), f"{args.policy} chunk")
    line = f"exported {exported} (index {index['index_id'][:12]}) to {destination(output)}"
    if note:
        line += f"; note: {note}"
    report(line + carried_note(carried), to_stderr=output is None)
    return EXIT_OK


def given_manifest(manifest_value: str, source: Path):
    """``--manifest`` loaded, and ``""``; or ``None`` and the note for the export's line saying why it was not read."""
    try:
        return load_manifest(Path(manifest_value)), ""
    except IngestionError as error:
        return None, (
            f"{printable(manifest_value)} was not read ({error.code}: validate FILE --manifest M says why), so "
            f"{printable(str(source))} was checked on its own documents"
        )


def manifest_expected(
    manifest, manifest_value: str | None, source: Path, progress, policy: str
) -> tuple[dict | None, str]:
    """With ``--manifest`` (``manifest``, as ``given_manifest`` loaded it), its build as the result ``source`` is
    compared with first, if it lists the same documents; and a note for the export's line when it does not
    (``""`` when it does, or without a manifest).

    The file's head is read for its documents' revisions (``validate.saved_head``):
    only a file of the manifest's own documents is worth a build of the
    manifest, which, byte for byte the file, validates it at the cost of the
    build and the comparison alone. ``None`` (the file is rebuilt from its own
    documents) without ``--manifest``, for a manifest that cannot be loaded, or
    for other documents; the file is valid all the same, and the note says
    which of the two it was (an old build, or a manifest mistyped or stale).
    Nor is a file whose head compares no ``policy`` worth the build: it is
    refused as soon as its configs are read (``reembed.validated_file``).
    """
    from commands.validate import manifest_build
    from results import validate

    if manifest is None:
        return None, ""
    head = validate.saved_head(source)
    if head is not None and policy not in validate.head_policies(head):
        return None, ""
    sources = sorted(manifest.sources, key=lambda source: source["source_id"])
    revisions = [chunk_index.document_record(source)["document_revision"] for source in sources]
    if head is None or validate.head_revisions(head) != revisions:
        # Valid, and exported as saved, but not of the sources the manifest pins now: an old build, or another's.
        return None, (
            f"{printable(str(source))} is not a build of {printable(manifest_value)}'s sources as pinned now "
            "(validate FILE --manifest M names what differs)"
        )
    return manifest_build(manifest, progress), ""


def carried_note(carrying) -> str:
    """``"; 3 chunks carry 4 caveats"`` after the export line, and every split pair carried nowhere, counted.

    ``carrying`` is ``reembed.carrying``'s, or ``None`` without ``--carry-caveats``.
    """
    if carrying is None:
        return ""
    carried = carrying.carried
    caveats = sum(len(caveats) for caveats in carried.values())
    at_start = sum(caveat["holds_instruction"] == "start" for caveats in carried.values() for caveat in caveats)
    note = (
        f"; {counted(len(carried), 'chunk')} {'carries' if len(carried) == 1 else 'carry'} {counted(caveats, 'caveat')}"
    )
    if at_start:
        note += f" ({at_start:,} where an instruction no chunk holds whole starts)"
    if carrying.held_at_start:
        note += (
            f"; {carrying.held_at_start:,} of the {counted(carrying.split, 'split pair')} "
            f"{'carries' if carrying.held_at_start == 1 else 'carry'} none: the chunk where the instruction starts "
            "holds the caveat already"
        )
    if carrying.unplaced:
        note += (
            f"; {counted(carrying.unplaced, 'pair')} {'carries' if carrying.unplaced == 1 else 'carry'} none: "
            "no chunk holds where the instruction starts"
        )
    return note


def current_manifest_pairs(args: argparse.Namespace, index: dict) -> list[dict]:
    """The span checks of ``--manifest`` for a single saved index, refused unless the index holds its pinned sources."""
    import source_pins
    from results import reembed

    if args.manifest is None:
        raise UsageError(
            "carry_needs_manifest",
            "--carry-caveats",
            "a single saved index declares no pairs: give --manifest, whose span checks it carries",
        )
    manifest = load_manifest(Path(args.manifest))
    source_pins.require_current("index", index, manifest, printable(args.file))
    return reembed.manifest_pairs(manifest.span_checks)


def differing_texts(locations, texts: dict[str, str]) -> dict[str, int]:
    """How many located records' file text is not the source's at their place, by how it differs, in a fixed order.

    Placed only once heading lines were set aside, the exported text holds
    headings the file's lacks; with ``\r\n`` and ``\r`` made ``\n`` and a
    leading byte order mark dropped, as the lab reads a page, the file's text
    may be the source's; any other differs in white space (a splitter that
    collapsed or stripped it).
    """
    from judge.placement import BYTE_ORDER_MARK

    kinds = ("the file's lacks heading lines", "it differs in line ends or a byte order mark only")
    counts = dict.fromkeys((*kinds, "it differs in white space"), 0)
    for location in locations:
        if not location.located:
            continue
        record = location.record
        exported = texts[record.source_id][location.start : location.end]
        # The record's text is read with its "\r" made "\n" (``carriage_returns`` says it held one).
        if location.headings_dropped:
            counts["the file's lacks heading lines"] += 1
        elif record.text.removeprefix(BYTE_ORDER_MARK) != exported:
            counts["it differs in white space"] += 1
        elif record.carriage_returns or record.text != exported:
            counts["it differs in line ends or a byte order mark only"] += 1
    return {how: count for how, count in counts.items() if count}


def run_judged_export(args: argparse.Namespace) -> int:
    """Locate another chunker's chunks in the manifest's sources and write them as upsert records."""
    import judge
    from results import reembed

    chunks_path = Path(args.export_chunks)
    manifest_path = manifest_to_build(args.manifest)
    checked_output(args.export_output, (chunks_path, *outputs.manifest_files(manifest_path)), before_inputs=True)
    manifest = load_manifest(manifest_path)
    inputs = (chunks_path, *outputs.manifest_files(manifest_path, manifest))
    output = checked_output(args.export_output, inputs, writes="export")
    # Placed as judge places them: offsets that count a file's byte order mark or its "\r" are mapped to the lab's text.
    records, locations = judge.placed_chunk_file(chunks_path, manifest, judge.manifest_label(args.manifest))
    chunks = judge.judged_chunks(locations, manifest.sources, manifest.grammar)
    texts = reembed.document_texts(manifest.sources)
    revisions = {
        source["source_id"]: chunk_index.document_record(source)["document_revision"] for source in manifest.sources
    }
    exported = reembed.judged_records(chunks, texts, revisions)
    carried = (
        reembed.carrying(chunks, reembed.manifest_pairs(manifest.span_checks), texts) if args.carry_caveats else None
    )
    emit(reembed.judged_export_lines(exported, {} if carried is None else carried.carried), output)
    left_out = len(records) - len(chunks)
    line = f"exported {counted(len(chunks), 'judged chunk')} of {printable(args.export_chunks)}"
    # A record's text is the source's at the chunk's place, which is what ties it to its id and offsets: say so when
    # the file's own text differs, and how, so no one embeds text unawares.
    notes = []
    differing = differing_texts(locations, texts)
    if differing:
        notes.append(
            f"{counted(sum(differing.values()), 'record')} with the source's text at its place, not the file's: "
            + ", ".join(f"{count:,} where {how}" for how, count in differing.items())
        )
    if left_out:
        notes.append(f"{counted(left_out, 'chunk')} not located, left out: see judge")
    if notes:
        line += f" ({'; '.join(notes)})"
    report(
        f"{line} to {destination(output)}" + carried_note(carried),
        to_stderr=output is None,
    )
    return EXIT_OK
