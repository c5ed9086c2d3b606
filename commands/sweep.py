"""``run.py sweep``: chunk counts and kept pairs over a range of sizes, and each pair's smallest target."""

from __future__ import annotations

import argparse
import re

from chunk_index import collector_paused
from commands.basics import EXIT_OK, manifest_to_build, report
from commands.options import add_command, add_manifest_option
from lab_io.errors import UsageError
from lab_io.progress import Progress, source_bytes
from load_documents import load_manifest


def register(commands: argparse._SubParsersAction) -> None:
    # The bounds are written out rather than read from size_sweep, which the main job need not import.
    sweep = add_command(
        commands,
        "sweep",
        "chunk counts and kept pairs for a range of heading-aware targets and fixed-char widths",
        "Cut the manifest's sources at each size with the heading-aware and fixed-char rules and show chunk "
        "count, mean chunk length and pairs kept together, then each pair's smallest heading-aware target "
        "and the manifest line that builds it, e.g. "
        '\'to build it: "policies": {"heading-aware": 288}\'. The sweep reads the sources with the '
        "manifest's grammar and saves nothing. "
        "At most 1,000 sizes, and at most 2,000,000 span checks times sizes (see docs/strict-input.md).",
        "python run.py sweep --manifest my/manifest.json --sizes 200 400 800",
    )
    add_manifest_option(
        sweep, "manifest to sweep (default: manifest.json beside run.py); also accepted before the command"
    )
    sweep.add_argument(
        "--sizes",
        nargs="+",
        type=sweep_size,
        metavar="N",
        help="sizes to try (default: 40 to 600 in steps of 20; for a manifest building a size over 600, twenty steps "
        "of a tenth of its largest size, up to twice it, plus each size it builds)",
    )
    sweep.add_argument("--json", action="store_true", help="print the sweep as JSON for plotting")
    sweep.set_defaults(handler=run_sweep)


def sweep_size(value: str) -> int:
    """One ``--sizes`` value: a whole number from 1 to the source size bound."""
    from checks import size_sweep

    if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= size_sweep.MAX_SIZE:
        # "700,800,900" is three sizes run together: they are given apart, as the shell splits them; "1,000" is one
        # size written with a thousands separator.
        hints = []
        if re.fullmatch(r"\d{1,3}(?:,\d{3})+", value) and int(value.replace(",", "")) <= size_sweep.MAX_SIZE:
            hints.append(f"write it without separators: {value.replace(',', '')}")
        parts = re.split(r"[,;]\s*", value)
        if len(parts) > 1 and all(
            re.fullmatch(r"[1-9]\d*", part) and int(part) <= size_sweep.MAX_SIZE for part in parts
        ):
            hints.append(f"give several sizes separated by spaces: --sizes {' '.join(parts)}")
        apart = f"; {', or '.join(hints)}" if hints else ""
        raise argparse.ArgumentTypeError(
            f"a size is a whole number from 1 to {size_sweep.MAX_SIZE:,}, found {value!r}{apart}"
        )
    return int(value)


def sweep_command(value: str | None) -> str:
    """The sweep of the manifest this one read, as its last line repeats it with sizes to try: a manifest of one's
    own given again (``run.py sweep --manifest 'my docs/m.json'``), or none for the fixture's."""
    from checks import size_sweep
    from commands.main_job import manifest_option

    return size_sweep.SWEEP_COMMAND + manifest_option(value)


def run_sweep(args: argparse.Namespace) -> int:
    """Print chunk counts, mean lengths and kept pairs over a range of sizes, and each pair's smallest target."""
    from checks import size_sweep

    manifest = load_manifest(manifest_to_build(args.manifest))
    sizes = tuple(sorted(set(args.sizes))) if args.sizes else size_sweep.default_sizes(manifest)
    if len(sizes) > size_sweep.MAX_SIZE_COUNT:
        raise UsageError("too_many_sizes", "--sizes", f"{len(sizes):,} sizes; at most {size_sweep.MAX_SIZE_COUNT:,}")
    size_sweep.require_bounded_sweep(manifest, sizes)
    size = source_bytes(manifest.sources)
    with Progress("reading sections", len(manifest.sources), size) as progress, collector_paused():
        sweep = size_sweep.run_sweep(manifest, sizes, progress)
    if args.json:
        report(size_sweep.sweep_json(sweep))
    else:
        report(size_sweep.sweep_table(sweep, manifest.policy_sizes, sweep_command(args.manifest)))
    return EXIT_OK
