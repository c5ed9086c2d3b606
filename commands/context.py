"""``run.py context``: how many neighbouring chunks bring a split qualifier back, and at what cost."""

from __future__ import annotations

import argparse

from chunk_index import collector_paused
from commands.basics import EXIT_OK, manifest_to_build, report
from commands.indexes import manifest_outlines
from commands.options import add_command, add_jobs_option, add_manifest_option, add_no_cache_option
from lab_io.errors import UsageError
from lab_io.inert_json import printed_json_bytes
from lab_io.outputs import emit
from lab_io.progress import Progress, source_bytes
from load_documents import load_manifest

CONTEXT_DESCRIPTION = """\
For every span check and policy, how much neighbouring context brings a split
qualifier back: the smallest window of k chunks on each side of the chunk
holding the instruction (k = 0 is the chunk alone), within the section and
crossing headings, and the parent section as a rule of its own; per policy,
recall at k = 0..3 and for the section, the mean characters returned, and the
character precision and IoU of the returned text against the two spans.
Definitions: docs/caveats.md.
"""


def register(commands: argparse._SubParsersAction) -> None:
    """``context``: the window of neighbouring chunks that brings each split qualifier back, and its cost."""
    context = add_command(
        commands,
        "context",
        "how many neighbouring chunks bring a split qualifier back, and at what cost",
        CONTEXT_DESCRIPTION,
        "python run.py context --json",
    )
    add_manifest_option(context)
    context.add_argument(
        "--scanned",
        action="store_true",
        help="also measure the pairs scan finds that the manifest does not declare yet (rejected pairs left out)",
    )
    context.add_argument(
        "--tier",
        type=int,
        choices=(1, 2, 3),
        help="with --scanned (refused without it): only the scanned pairs of this tier or stronger "
        "(1 strongest, 3 every pair; default 2)",
    )
    context.add_argument(
        "--json", action="store_true", help="print every policy's figures as JSON (shape in docs/caveats.md)"
    )
    add_no_cache_option(context)
    add_jobs_option(context)
    context.set_defaults(handler=run_context)


def run_context(args: argparse.Namespace) -> int:
    """For every span check and policy: the smallest window that recovers the qualifier, recall and cost by k."""
    from checks import context_windows

    if args.tier is not None and not args.scanned:
        # The manifest's own span checks have no tier: a --tier alone would filter nothing.
        raise UsageError("usage", "context", "--tier picks among the pairs scan finds; add --scanned to measure them")
    if args.no_cache and not args.scanned:
        raise UsageError("usage", "context", "--no-cache is about the scan's cache; add --scanned to scan")
    if args.jobs is not None and not args.scanned:
        raise UsageError("usage", "context", "--jobs sets how many processes scan; add --scanned to scan")
    manifest_path = manifest_to_build(args.manifest)
    manifest = load_manifest(manifest_path)
    checks = manifest.span_checks
    cache = None
    with Progress("cutting chunks", len(manifest.sources), source_bytes(manifest.sources)) as progress:
        if args.scanned:
            from checks.caveats import scan_cache, verdicts
            from commands.scan import proposals

            progress.stage("scanning", len(manifest.sources), source_bytes(manifest.sources))
            path = scan_cache.cache_path(manifest_path, args.no_cache)
            found, cache = scan_cache.scan_sources_cached(
                manifest.sources, manifest.grammar, path, progress=progress.advance, jobs=args.jobs
            )
            pairs = proposals(manifest_path, found, 2 if args.tier is None else args.tier)[0]
            declared = verdicts.declared_names(pairs, checks)
            taken = {check.name for check in checks}
            checks = checks + tuple(
                pair.as_check() for pair, name in zip(pairs, declared) if name is None and pair.name not in taken
            )
        # Windows only ask where chunks lie: their texts, hashes and ids are never made, and
        # only the pages holding a check are cut (each page's chunks are the whole build's).
        held = {check.source_id for check in checks}
        outlined = [source for source in manifest.sources if source["source_id"] in held]
        progress.stage("cutting chunks", len(outlined), source_bytes(outlined))
        with collector_paused():
            indexes = manifest_outlines(manifest, progress=progress.advance, source_ids=held)
            progress.stage("measuring windows", len(indexes), 0, unit="policies")
            figures = []
            for name, index in indexes.items():
                figures.append(context_windows.policy_context(name, index["chunks"], checks))
                progress.advance(1, 0)
    if args.json:
        document = {
            "context_version": 1,
            "windows": list(context_windows.CONTEXT_WINDOWS),
            "checks": [check.name for check in checks],
            "policies": figures,
        }
        emit(printed_json_bytes(document), None)
    else:
        report(context_windows.context_table(figures, [check.name for check in checks]))
    if cache is not None:
        cache.save()
    return EXIT_OK
