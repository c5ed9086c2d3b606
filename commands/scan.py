"""``run.py scan``: propose instruction/caveat pairs, judge them under every policy; ``--add-checks`` declares them."""

from __future__ import annotations

import argparse
from pathlib import Path

import load_documents
from commands.basics import EXIT_OK, manifest_to_build, report
from commands.indexes import collector_skips_what_exists, manifest_indexes
from commands.options import add_command, add_manifest_option
from lab_io import outputs
from lab_io.errors import UsageError, counted, printable
from lab_io.indented_json import saved_json_bytes
from lab_io.inert_json import printed_json_bytes
from lab_io.outputs import checked_output, destination, emit
from load_documents import load_manifest

SCAN_DESCRIPTION = """\
Find candidate instruction/caveat pairs in every pinned source by fixed rules
(no model, no network): a caveat is a sentence with a cue such as "must not",
"never", "refuses", "only if", "deprecated", or a whole warning, caution,
danger or important admonition or alert; its instruction is the nearest earlier
sentence of the same section, at most 3 blocks back, that names a call, holds a
code span or opens with an imperative (Call, Use, Pass, Set, Run, ...),
preferring one that shares an identifier with the caveat. Each pair is judged
under every policy the manifest builds: kept together, or split and by what (a heading, a
block break, the size target, a fixed-width cut). With --add-checks the pairs
not declared yet are appended to the manifest's span_checks, so the main job,
validate and context cover them. Rules and limits: docs/caveats.md.
"""


def register(commands: argparse._SubParsersAction) -> None:
    """``scan``: find instruction/caveat pairs; ``--add-checks`` declares them in the manifest."""
    scan = add_command(
        commands,
        "scan",
        "find instruction/caveat pairs and judge them under every policy",
        SCAN_DESCRIPTION,
        """
        python run.py scan --manifest docs-lab/manifest.json --add-checks
        python run.py --manifest docs-lab/manifest.json --output result.json
        python run.py context --manifest docs-lab/manifest.json
        """,
    )
    add_manifest_option(scan)
    scan.add_argument(
        "--json", action="store_true", help="print every pair and verdict as JSON (shape in docs/caveats.md)"
    )
    scan.add_argument(
        "--add-checks",
        action="store_true",
        help="append the found pairs to the span_checks of the manifest named by --manifest (required here), "
        "atomically; existing checks are kept and a pair "
        "already declared (overlapping spans in the same source) is not added again",
    )
    scan.set_defaults(handler=run_scan)


def run_scan(args: argparse.Namespace) -> int:
    """Find instruction/caveat pairs, judge each under the manifest's policies; with --add-checks, declare them."""
    from checks.caveats import pairing
    from checks.caveats import report as caveat_report

    if args.add_checks and args.manifest is None:
        # As pin: the fallback is the lesson's fixture, whose manifest the reference result depends on.
        raise UsageError("usage", "scan", "--add-checks needs --manifest M: the manifest to add the found pairs to")
    manifest_path = manifest_to_build(args.manifest)
    if args.add_checks:
        # The manifest is rewritten in place: refuse a link or a device before any work.
        checked_output(str(manifest_path), (), stdout_allowed=False)
    manifest = load_manifest(manifest_path)
    # Scanned before the indexes exist: the collector then has a small heap to walk while sentences come and go.
    found = pairing.scan_sources(manifest.sources, manifest.grammar)
    indexes = manifest_indexes(manifest)
    with collector_skips_what_exists():
        findings = caveat_report.scan_report(manifest, indexes, manifest.grammar, found)
    if args.json:
        emit(printed_json_bytes(findings), None)
    else:
        report(caveat_report.scan_table(findings))
    if args.add_checks:
        line = add_scanned_checks(manifest_path, found[0])
        report(line, to_stderr=args.json)
    return EXIT_OK


def add_scanned_checks(manifest_path: Path, pairs: list) -> str:
    """Append the found pairs no check already is to the manifest's span_checks, atomically; say what changed.

    Read, change and write under the manifest lock, against the manifest as it
    is then: a pin or another scan that ran meanwhile is seen, never undone.
    """
    import source_pins
    from checks.caveats import declare

    shown = destination(manifest_path)
    with outputs.manifest_lock(manifest_path):
        current = load_manifest(manifest_path)
        entries = declare.checks_to_add(pairs, current.span_checks)
        if not entries:
            return f"manifest unchanged: {shown} (all {counted(len(pairs), 'found pair')} already declared)"
        value = load_documents.read_manifest_value(manifest_path)
        value.setdefault("span_checks", [])
        value["span_checks"].extend(entries)
        manifest_bytes = saved_json_bytes(value)
        # Held to the bound the lab reads it with, and checked exactly as a build will load it, before a byte is written.
        load_documents.check_manifest_size(
            manifest_bytes,
            current.grammar,
            printable(str(manifest_path)),
            f"{counted(len(entries), 'found pair')} would not fit; scan fewer sources per manifest "
            "(pin a subfolder into a manifest of its own)",
        )
        source_pins.verified_manifest(value, manifest_path.parent, str(manifest_path))
        emit(manifest_bytes, manifest_path)
    declared = len(pairs) - len(entries)
    return f"added {counted(len(entries), 'span check')} to {shown} ({declared} already declared)"
