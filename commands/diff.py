"""``run.py diff OLD NEW``: which chunk ids two saved files keep, remove and add, and which embeddings to compute."""

from __future__ import annotations

import argparse
from pathlib import Path

import chunk_index
from commands.basics import EXIT_OK, report
from commands.options import add_command
from lab_io.errors import printable
from lab_io.inert_json import printed_json_bytes
from lab_io.outputs import emit
from lab_io.progress import Progress

DIFF_DESCRIPTION = """\
Validate OLD and NEW (saved results or single saved indexes), then per policy
list the chunk ids kept, removed and added; among the added, those whose text
already existed in OLD (an embedding keyed by text_sha256 is reusable) and those
whose text is new; and why each document's revision changed (text, version or
metadata). Between two results, also the span checks added and removed and
whose verdict changed (kept together, or split). The summary ends with the
count of embeddings to compute.

Two results are compared policy by policy; a single index on each side is
compared with the other whatever its policy. --policy narrows both sides to one
policy; --old-policy and --new-policy narrow one side each, to compare policies
(e.g. the paragraph and heading-aware indexes of one result).
"""


def register(commands: argparse._SubParsersAction) -> None:
    diff = add_command(
        commands,
        "diff",
        "which chunk ids two saved files keep, remove and add, and which embeddings to compute",
        DIFF_DESCRIPTION,
        "python run.py diff old-result.json result.json --policy heading-aware",
    )
    diff.add_argument("old", metavar="OLD", help="the saved result or index embedded so far")
    diff.add_argument("new", metavar="NEW", help="the saved result or index to embed next")
    diff.add_argument("--policy", choices=chunk_index.POLICY_NAMES, help="compare only this policy's indexes")
    diff.add_argument(
        "--old-policy", choices=chunk_index.POLICY_NAMES, help="take this policy's index from OLD (overrides --policy)"
    )
    diff.add_argument(
        "--new-policy", choices=chunk_index.POLICY_NAMES, help="take this policy's index from NEW (overrides --policy)"
    )
    diff.add_argument(
        "--json",
        action="store_true",
        help="print the diff as JSON (shape in docs/re-embedding.md) instead of a summary",
    )
    diff.set_defaults(handler=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    """Compare two saved results or indexes as a re-embedding plan."""
    from results import reembed

    with Progress(f"validating {printable(args.old)}") as progress:
        diff = reembed.diff_files(
            Path(args.old), Path(args.new), args.old_policy or args.policy, args.new_policy or args.policy, progress
        )
    if args.json:
        emit(printed_json_bytes(reembed.diff_json(diff)), None)
    else:
        report(reembed.diff_summary(diff))
    return EXIT_OK
