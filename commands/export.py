"""``run.py export FILE --policy P``: one policy's chunks as JSON Lines upsert records."""

from __future__ import annotations

import argparse
from pathlib import Path

import chunk_index
from commands.basics import EXIT_OK, manifest_argument, report
from commands.options import add_command, add_manifest_option
from lab_io import outputs
from lab_io.errors import counted
from lab_io.outputs import checked_output, destination, emit

EXPORT_DESCRIPTION = """\
Validate FILE (a saved result or a single saved index), then write every chunk
of --policy's index as one JSON line, the record shape vector stores take for
an upsert: {"id": chunk_id, "text": ..., "metadata": {...}}.
"""


def register(commands: argparse._SubParsersAction) -> None:
    export = add_command(
        commands,
        "export",
        "write one policy's chunks as JSON Lines upsert records",
        EXPORT_DESCRIPTION,
        "python run.py export result.json --policy heading-aware --output chunks.jsonl",
    )
    export.add_argument("file", metavar="FILE", help="a saved result.json or a single saved index")
    export.add_argument(
        "--policy", required=True, choices=chunk_index.POLICY_NAMES, help="the policy whose chunks to export"
    )
    export.add_argument(
        "--output",
        dest="export_output",
        metavar="FILE",
        default="-",
        help="write the JSON Lines here, atomically; '-' (the default) for stdout; never FILE, the manifest or a source",
    )
    add_manifest_option(
        export, "the manifest whose file and sources --output must not overwrite (default: the lab's own)"
    )
    export.set_defaults(handler=run_export)


def run_export(args: argparse.Namespace) -> int:
    """Write one policy's chunks as JSON Lines upsert records."""
    from results import reembed

    source = Path(args.file)
    # Neither the saved file nor the manifest (given, or the lab's own) nor a source it pins may be overwritten.
    output = checked_output(args.export_output, (source, *outputs.manifest_inputs(manifest_argument(args.manifest))))
    index = reembed.exported_index(source, args.policy)
    emit(reembed.export_lines(index), output)
    exported = counted(len(index["chunks"]), f"{args.policy} chunk")
    report(f"exported {exported} (index {index['index_id'][:12]}) to {destination(output)}", to_stderr=output is None)
    return EXIT_OK
