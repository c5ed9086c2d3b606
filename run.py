"""The chunk-boundary lab's command line.

    python run.py --output result.json     build the three indexes, compare, write the result
    python run.py validate result.json     re-derive a saved result or index; refuse any change
    python run.py diff OLD NEW             which chunk ids changed and which embeddings to compute
    python run.py export FILE --policy P   one policy's chunks as JSON Lines upsert records
    python run.py pin docs/a.md --manifest M   pin a file (or re-pin it after an edit)
    python run.py sweep                    chunk counts and kept pairs over a range of sizes

Exit codes: 0 ok, 1 refused input or a failed validation, 2 usage.
Every refusal is one line on stderr: ``error: <code>: <where>: <what>``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import textwrap
from pathlib import Path

import chunk_index
import load_documents
import span_checks
import summary
import validate
from errors import IngestionError, UsageError, counted, printable, quoted
from indented_json import saved_json_bytes
from load_documents import load_manifest
from outputs import checked_output, checked_report, destination, emit, write_outputs
from strict_json import read_json_file

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
DEFAULT_MANIFEST = Path(__file__).resolve().parent / "manifest.json"

EXIT_CODES_HELP = """\
exit codes:
  0  ok
  1  refused input: a source that fails its pin, a malformed file, or a
     saved result or index that does not re-derive exactly
  2  usage: unknown command or option, or an output the lab will not or
     cannot write (a folder, a missing folder, a link, a device, one of the
     inputs, no permission, a full disk)

Every refusal is one line on stderr: error: <code>: <where>: <what>
"""


def manifest_argument(value: str | None) -> Path:
    """The ``--manifest`` given, or the lab's own ``manifest.json`` beside ``run.py``."""
    return DEFAULT_MANIFEST if value is None else Path(value)


# --- commands --------------------------------------------------------------------


def run_build(args: argparse.Namespace) -> int:
    """The main job: load, build the three indexes, compare every span check, write the result."""
    manifest_path = manifest_argument(args.manifest)
    # Checked against the manifest before any work, then against the sources it names.
    checked_output(args.output, (manifest_path,))
    manifest = load_manifest(manifest_path)
    inputs = (manifest_path, *manifest.source_paths())
    output = checked_output(args.output, inputs)
    html_path = None if args.html is None else checked_report(args.html, output, inputs)
    result = span_checks.build_checked_result(manifest.sources, manifest.span_checks)
    result_bytes = saved_json_bytes(result)
    files = [] if output is None else [(output, result_bytes)]
    if html_path is not None:
        files.append((html_path, report_bytes(result, manifest.span_checks)))
    # The result and the report land together or not at all.
    write_outputs(files)
    if output is None:
        emit(result_bytes, None)
    report = sys.stderr if output is None else sys.stdout
    names = tuple(check.name for check in manifest.span_checks)
    # The index sizes are read off the bytes just written rather than saving each index again.
    print(summary.summary_table(result, names, summary.saved_index_sizes(result_bytes)), file=report)
    print(f"wrote {destination(output)}", file=report)
    if html_path is not None:
        print(f"wrote {destination(html_path)}", file=report)
    return EXIT_OK


def report_bytes(result: dict, span_checks: tuple) -> bytes:
    """The self-contained HTML report of ``result`` (see ``boundary_view``)."""
    import boundary_view

    return boundary_view.html_report(result, span_checks).encode("utf-8")


def run_show(args: argparse.Namespace) -> int:
    """Print each policy's chunks over the source text, coloured only on a terminal."""
    import boundary_view

    manifest = load_manifest(manifest_argument(args.manifest))
    policies = chunk_index.POLICY_NAMES if args.policy is None else (args.policy,)
    colour = boundary_view.colour_wanted(sys.stdout, os.environ)
    narrowing = show_narrowing(args, manifest)
    if narrowing is None:
        view = boundary_view.terminal_view(manifest.sources, manifest.span_checks, policies, colour)
    else:
        view = boundary_view.narrowed_terminal_view(manifest.sources, manifest.span_checks, policies, colour, narrowing)
    emit(view.encode("utf-8"), None)
    return EXIT_OK


def show_narrowing(args: argparse.Namespace, manifest):
    """The ``show`` filters as a ``boundary_view.Narrowing``, or ``None`` when none is given; unknown names refused."""
    import boundary_view

    source_ids = getattr(args, "show_sources", None) or []
    check_names = getattr(args, "show_checks", None) or []
    split_only = getattr(args, "split_only", False)
    if not source_ids and not check_names and not split_only:
        return None
    known_sources = [source["source_id"] for source in manifest.sources]
    known_checks = [check.name for check in manifest.span_checks]
    for option, given, known in (("--source", source_ids, known_sources), ("--check", check_names, known_checks)):
        unknown = [name for name in given if name not in known]
        if unknown:
            listed = ", ".join(quoted(name) for name in known[:5]) + (", …" if len(known) > 5 else "")
            raise UsageError(
                "unknown_name", option, f"{quoted(unknown[0])} is not in the manifest; it has {listed or 'none'}"
            )
    return boundary_view.Narrowing(frozenset(source_ids), frozenset(check_names), split_only)


def run_validate(args: argparse.Namespace) -> int:
    """Re-derive a saved result or index and say what was checked; with pins, also that it is current.

    Every check runs before anything is printed, so a refusal is never preceded by an "ok".
    """
    recorded = recorded_index_ids(args.index_ids)
    kind, artifact = validate.validate_artifact(read_json_file(Path(args.file)))
    indexes = validate.artifact_indexes(kind, artifact)
    checked = ", ".join(
        f"{name} {counted(len(index['chunks']), 'chunk')} (index {index['index_id'][:12]})"
        for name, index in indexes.items()
    )
    shown_file = printable(args.file)
    lines = [f"ok: {shown_file}: {kind} re-derived exactly: {checked}"]
    if args.pins_manifest is not None or recorded:
        import source_pins

        if args.pins_manifest is not None:
            source_pins.require_current(kind, artifact, load_manifest(Path(args.pins_manifest)), shown_file)
            lines.append(f"ok: {shown_file}: current: its documents match the pins of {printable(args.pins_manifest)}")
        problems = source_pins.index_id_mismatches(indexes, recorded)
        if problems:
            raise IngestionError("index_id_mismatch", shown_file, "; ".join(problems))
        if recorded:
            lines.append(f"ok: {shown_file}: index ids match the recorded ones ({', '.join(recorded)})")
    print("\n".join(lines))
    return EXIT_OK


def run_diff(args: argparse.Namespace) -> int:
    """Compare two saved results or indexes as a re-embedding plan."""
    import reembed

    diff = reembed.diff_files(
        Path(args.old), Path(args.new), args.old_policy or args.policy, args.new_policy or args.policy
    )
    if args.json:
        emit(saved_json_bytes(reembed.diff_json(diff)), None)
    else:
        print(reembed.diff_summary(diff))
    return EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    """Write one policy's chunks as JSON Lines upsert records."""
    import reembed

    source = Path(args.file)
    output = checked_output(args.export_output, (source,))
    index = reembed.exported_index(source, args.policy)
    emit(reembed.export_lines(index), output)
    report = sys.stderr if output is None else sys.stdout
    exported = counted(len(index["chunks"]), f"{args.policy} chunk")
    print(f"exported {exported} (index {index['index_id'][:12]}) to {destination(output)}", file=report)
    return EXIT_OK


def index_id_argument(value: str) -> tuple[str, str]:
    """``fixed-char=27a9…`` (a policy and a full 64-hex index id) as a pair, for ``--index-id``."""
    policy, separator, index_id = value.partition("=")
    if not separator or policy not in chunk_index.POLICY_NAMES:
        raise argparse.ArgumentTypeError(
            f"expected POLICY=ID with POLICY one of {', '.join(chunk_index.POLICY_NAMES)}, found {value!r}"
        )
    if not load_documents.SHA256_PATTERN.fullmatch(index_id):
        raise argparse.ArgumentTypeError(f"the index id for {policy} must be all 64 lowercase hex digits")
    return policy, index_id


def recorded_index_ids(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """The ``--index-id`` values by policy; one policy given twice is a usage error."""
    recorded: dict[str, str] = {}
    for policy, index_id in pairs:
        if policy in recorded:
            raise UsageError("index_id_twice", "--index-id", f"{policy} is given more than once")
        recorded[policy] = index_id
    return recorded


def run_pin(args: argparse.Namespace) -> int:
    """Pin files into a manifest (or re-pin them after an edit) and rewrite it atomically."""
    import source_pins

    metadata = {field: getattr(args, field) for field in source_pins.METADATA_FIELDS}
    if len(args.paths) > 1 and any(value is not None for value in metadata.values()):
        raise UsageError(
            "pin_metadata", "pin", "--source-id, --title, --version, --url and --fact-status need exactly one PATH"
        )
    requests = [source_pins.PinRequest(path, **metadata) for path in args.paths]
    # The manifest is rewritten in place, so it must be a writable regular file (or new).
    manifest_path = checked_output(args.pin_manifest, ())
    if manifest_path is None:
        raise UsageError("manifest_to_stdout", "--manifest", "pin rewrites a manifest file; name one")
    outcome = source_pins.pin_sources(manifest_path, requests)
    if outcome.manifest_bytes is not None:
        emit(outcome.manifest_bytes, manifest_path)
    for change in outcome.changes:
        print("\n".join(source_pins.pin_report(change)))
    shown_manifest = destination(manifest_path)
    print(f"wrote {shown_manifest}" if outcome.manifest_bytes is not None else f"manifest unchanged: {shown_manifest}")
    return EXIT_OK


def run_sweep(args: argparse.Namespace) -> int:
    """Print chunk counts, mean lengths and kept pairs over a range of sizes, and each pair's smallest target."""
    import size_sweep

    manifest = load_manifest(manifest_argument(args.sweep_manifest or args.manifest))
    sizes = tuple(sorted(set(args.sizes))) if args.sizes else size_sweep.DEFAULT_SIZES
    if len(sizes) > size_sweep.MAX_SIZE_COUNT:
        raise UsageError("too_many_sizes", "--sizes", f"{len(sizes)} sizes; at most {size_sweep.MAX_SIZE_COUNT}")
    sweep = size_sweep.run_sweep(manifest, sizes)
    print(size_sweep.sweep_json(sweep) if args.json else size_sweep.sweep_table(sweep))
    return EXIT_OK


def sweep_size(value: str) -> int:
    """One ``--sizes`` value: a whole number from 1 to the source size bound."""
    import size_sweep

    if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= size_sweep.MAX_SIZE:
        raise argparse.ArgumentTypeError(f"a size is a whole number from 1 to {size_sweep.MAX_SIZE}, found {value!r}")
    return int(value)


def manifest_grammar(manifest) -> str:
    """The Markdown grammar a manifest chose (``"markdown"``); the lesson grammar until manifests carry one."""
    return getattr(manifest, "grammar", "lesson")


def manifest_indexes(manifest) -> dict:
    """The three indexes the main job would build from ``manifest``, by policy name."""
    return chunk_index.build_indexes(manifest.sources)


@contextlib.contextmanager
def collector_skips_what_exists():
    """Keep the cyclic garbage collector off every object alive now (the indexes) until the block ends.

    ``scan`` and ``context`` allocate a little per pair while hundreds of
    thousands of index objects stay alive; left in view, the collector walks
    them again and again, and the commands grow faster than the corpus.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def run_scan(args: argparse.Namespace) -> int:
    """Find instruction/caveat pairs, judge each under the three policies; with --add-checks, declare them."""
    import caveat_scan

    manifest_path = manifest_argument(args.manifest)
    if args.add_checks:
        # The manifest is rewritten in place: refuse a link or a device before any work.
        checked_output(str(manifest_path), ())
    manifest = load_manifest(manifest_path)
    # Scanned before the indexes exist: the collector then has a small heap to walk while sentences come and go.
    found = caveat_scan.scan_sources(manifest.sources, manifest_grammar(manifest))
    indexes = manifest_indexes(manifest)
    with collector_skips_what_exists():
        report = caveat_scan.scan_report(manifest, indexes, manifest_grammar(manifest), found)
    if args.json:
        emit(saved_json_bytes(report), None)
    else:
        print(caveat_scan.scan_table(report))
    if args.add_checks:
        line = add_scanned_checks(manifest_path, manifest, found[0])
        print(line, file=sys.stderr if args.json else sys.stdout)
    return EXIT_OK


def add_scanned_checks(manifest_path: Path, manifest, pairs: list) -> str:
    """Append the found pairs no check already is to the manifest's span_checks, atomically; say what changed."""
    import caveat_scan
    import source_pins

    entries = caveat_scan.checks_to_add(pairs, manifest.span_checks)
    shown = destination(manifest_path)
    declared = len(pairs) - len(entries)
    if not entries:
        return f"manifest unchanged: {shown} (all {counted(len(pairs), 'found pair')} already declared)"
    value = load_documents.read_manifest_value(manifest_path)
    value.setdefault("span_checks", [])
    value["span_checks"].extend(entries)
    # Checked exactly as a build will load it before a byte is written.
    source_pins.verified_manifest(value, manifest_path.parent, str(manifest_path))
    emit(saved_json_bytes(value), manifest_path)
    return f"added {counted(len(entries), 'span check')} to {shown} ({declared} already declared)"


def run_context(args: argparse.Namespace) -> int:
    """For every span check and policy: the smallest window that recovers the qualifier, recall and cost by k."""
    import context_windows

    manifest = load_manifest(manifest_argument(args.manifest))
    checks = manifest.span_checks
    if args.scanned:
        import caveat_scan

        pairs, _ = caveat_scan.scan_sources(manifest.sources, manifest_grammar(manifest))
        declared = caveat_scan.declared_names(pairs, checks)
        taken = {check.name for check in checks}
        checks = checks + tuple(
            pair.as_check() for pair, name in zip(pairs, declared) if name is None and pair.name not in taken
        )
    indexes = manifest_indexes(manifest)
    with collector_skips_what_exists():
        figures = [
            context_windows.policy_context(name, indexes[name]["chunks"], checks) for name in chunk_index.POLICY_NAMES
        ]
    if args.json:
        document = {
            "context_version": 1,
            "windows": list(context_windows.CONTEXT_WINDOWS),
            "checks": [check.name for check in checks],
            "policies": figures,
        }
        emit(saved_json_bytes(document), None)
    else:
        print(context_windows.context_table(figures, [check.name for check in checks]))
    return EXIT_OK


# --- the parser ------------------------------------------------------------------


class LabArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line, like every other refusal."""

    def error(self, message: str) -> None:
        self.exit(EXIT_USAGE, f"error: usage: {self.prog}: {message} (see --help)\n")


DIFF_DESCRIPTION = """\
Validate OLD and NEW (saved results or single saved indexes), then per policy
list the chunk ids kept, removed and added; among the added, those whose text
already existed in OLD (an embedding keyed by text_sha256 is reusable) and those
whose text is new; and why each document's revision changed (text, version or
metadata). The summary ends with the count of embeddings to compute.

Two results are compared policy by policy; a single index on each side is
compared with the other whatever its policy. --policy narrows both sides to one
policy; --old-policy and --new-policy narrow one side each, to compare policies
(e.g. the paragraph and heading-aware indexes of one result).
"""
SHOW_DESCRIPTION = """\
Print every document's text chunk by chunk for each policy: order, id prefix,
lines, [start, end), the instruction and qualifier marked, and the boundary
that splits them. Colour only on a terminal with NO_COLOR unset; plain
markers otherwise, so the view can be piped and diffed.
"""
EXPORT_DESCRIPTION = """\
Validate FILE (a saved result or a single saved index), then write every chunk
of --policy's index as one JSON line, the record shape vector stores take for
an upsert: {"id": chunk_id, "text": ..., "metadata": {...}}.
"""


def wrapped(text: str) -> str:
    """``text`` with each blank-line-separated paragraph filled to 78 columns, for ``--help``."""
    return "\n\n".join(textwrap.fill(" ".join(paragraph.split()), 78) for paragraph in text.strip().split("\n\n"))


def add_command(
    commands: argparse._SubParsersAction, name: str, summary: str, description: str
) -> argparse.ArgumentParser:
    """A subcommand parser with the lab's exit-code table under its help."""
    return commands.add_parser(
        name,
        help=summary,
        description=wrapped(description),
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


SCAN_DESCRIPTION = """\
Find candidate instruction/caveat pairs in every pinned source by fixed rules
(no model, no network): a caveat is a sentence with a cue such as "must not",
"never", "refuses", "only if", "deprecated", or a whole warning, caution,
danger or important admonition or alert; its instruction is the nearest earlier
sentence of the same section, at most 3 blocks back, that names a call, holds a
code span or opens with an imperative (Call, Use, Pass, Set, Run, ...),
preferring one that shares an identifier with the caveat. Each pair is judged
under the three policies: kept together, or split and by what (a heading, a
block break, the size target, a fixed-width cut). Rules and limits:
docs/caveats.md.

Example: python run.py scan --add-checks, then python run.py --output
result.json and python run.py context.
"""
CONTEXT_DESCRIPTION = """\
For every span check and policy, how much neighbouring context brings a split
qualifier back: the smallest window of k chunks on each side of the chunk
holding the instruction (k = 0 is the chunk alone), within the section and
crossing headings, and the parent section as a rule of its own; per policy,
recall at k = 0..3 and for the section, the mean characters returned, and the
character precision and IoU of the returned text against the two spans.
Definitions: docs/caveats.md.

Example: python run.py context --json
"""


def add_show_filters(show: argparse.ArgumentParser) -> None:
    """``show --source``, ``--check`` and ``--split-only``: narrow the terminal view on a large docs set."""
    show.add_argument(
        "--source",
        dest="show_sources",
        metavar="ID",
        action="append",
        help="show only this source (repeatable)",
    )
    show.add_argument(
        "--check",
        dest="show_checks",
        metavar="NAME",
        action="append",
        help="mark only this span check and show only the text around it (repeatable)",
    )
    show.add_argument(
        "--split-only",
        action="store_true",
        help="show only the pairs a shown policy splits, and under each policy only the text around its splits",
    )


def add_scan_command(commands: argparse._SubParsersAction) -> None:
    """``scan``: find instruction/caveat pairs; ``--add-checks`` declares them in the manifest."""
    scan = add_command(
        commands, "scan", "find instruction/caveat pairs and judge them under every policy", SCAN_DESCRIPTION
    )
    scan.add_argument(
        "--manifest",
        metavar="M",
        default=argparse.SUPPRESS,
        help="manifest of pinned sources (default: manifest.json beside run.py)",
    )
    scan.add_argument(
        "--json", action="store_true", help="print every pair and verdict as JSON (shape in docs/caveats.md)"
    )
    scan.add_argument(
        "--add-checks",
        action="store_true",
        help="append the found pairs to the manifest's span_checks, atomically; existing checks are kept and a pair "
        "already declared (overlapping spans in the same source) is not added again",
    )
    scan.set_defaults(handler=run_scan)


def add_context_command(commands: argparse._SubParsersAction) -> None:
    """``context``: the window of neighbouring chunks that brings each split qualifier back, and its cost."""
    context = add_command(
        commands,
        "context",
        "how many neighbouring chunks bring a split qualifier back, and at what cost",
        CONTEXT_DESCRIPTION,
    )
    context.add_argument(
        "--manifest",
        metavar="M",
        default=argparse.SUPPRESS,
        help="manifest of pinned sources and span checks (default: manifest.json beside run.py)",
    )
    context.add_argument(
        "--scanned",
        action="store_true",
        help="also measure the pairs scan finds that the manifest does not declare yet",
    )
    context.add_argument(
        "--json", action="store_true", help="print every policy's figures as JSON (shape in docs/caveats.md)"
    )
    context.set_defaults(handler=run_context)


def build_parser() -> argparse.ArgumentParser:
    """The main job's options and one subparser per command, each with the exit-code table."""
    parser = LabArgumentParser(
        prog="run.py",
        usage="%(prog)s [--manifest M] --output FILE [--html FILE]\n       %(prog)s COMMAND [options]",
        description=wrapped(
            "The chunk-boundary lab: build fixed-char, paragraph and heading-aware chunk "
            "indexes of hash-pinned sources and show whether an API instruction and the "
            "qualifier after it land in the same chunk.\n\n"
            "The main job (no command): load the manifest, build the three indexes, compare "
            "every span check and write the result to --output. The commands below look at, "
            "check or extend what it does; each has its own --help."
        ),
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--manifest",
        metavar="M",
        default=None,
        help="manifest of pinned sources and span checks (default: manifest.json beside run.py); "
        "source paths are relative to its folder",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the result JSON here, atomically; '-' for stdout (the table then goes to stderr)",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="also write a self-contained HTML report of every policy's chunks here, atomically",
    )
    parser.set_defaults(handler=run_build)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", prog="run.py")
    validate = commands.add_parser(
        "validate",
        help="re-derive a saved result or index and refuse any difference",
        description=wrapped(
            "Re-derive every index in FILE (a whole result or a single saved index) from its "
            "documents and config, recompute a result's comparisons, and refuse any difference, "
            "even when its hashes were recomputed to match."
        ),
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    validate.add_argument("file", metavar="FILE", help="a saved result.json or a single saved index")
    validate.add_argument(
        "--manifest",
        dest="pins_manifest",
        metavar="M",
        help="also refuse a result whose documents (or span checks) no longer match this manifest's pins",
    )
    validate.add_argument(
        "--index-id",
        dest="index_ids",
        metavar="POLICY=ID",
        action="append",
        default=[],
        type=index_id_argument,
        help="refuse unless POLICY's index has this full index id (repeatable); catches a result re-forged end to end",
    )
    validate.set_defaults(handler=run_validate)
    show = add_command(commands, "show", "print each policy's chunks over the source text", SHOW_DESCRIPTION)
    show.add_argument("--policy", choices=chunk_index.POLICY_NAMES, help="show only this policy (default: all three)")
    # SUPPRESS keeps a --manifest given before the command from being reset to the default.
    show.add_argument(
        "--manifest",
        metavar="M",
        default=argparse.SUPPRESS,
        help="manifest of pinned sources and span checks (default: manifest.json beside run.py)",
    )
    add_show_filters(show)
    show.set_defaults(handler=run_show)
    diff = add_command(
        commands,
        "diff",
        "which chunk ids two saved files keep, remove and add, and which embeddings to compute",
        DIFF_DESCRIPTION,
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
        "--json", action="store_true", help="print the diff as JSON (shape in README) instead of a summary"
    )
    diff.set_defaults(handler=run_diff)
    export = add_command(
        commands, "export", "write one policy's chunks as JSON Lines upsert records", EXPORT_DESCRIPTION
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
        help="write the JSON Lines here, atomically; '-' (the default) for stdout",
    )
    export.set_defaults(handler=run_export)
    pin = add_command(
        commands,
        "pin",
        "pin files into a manifest, or re-pin them after an edit",
        (
            "Check each PATH as a build would (inside the manifest's folder, no link, size bound, UTF-8, "
            "a heading at offset 0), record its sha256 in the manifest and rewrite the manifest atomically. "
            "A missing manifest is started. Re-pinning changes the document revision and every chunk id of that "
            "source; a span check the edit made stale is refused and the manifest left unchanged."
        ),
    )
    pin.add_argument("paths", metavar="PATH", nargs="+", help="a source file inside the manifest's folder")
    pin.add_argument(
        "--manifest", dest="pin_manifest", metavar="M", required=True, help="the manifest to update or start"
    )
    pin.add_argument(
        "--source-id", dest="source_id", help="id of a new source (default: the file name without extension)"
    )
    pin.add_argument("--title", help="title (default for a new source: its id)")
    pin.add_argument("--version", help="MAJOR.MINOR version (default for a new source: 1.0)")
    pin.add_argument("--url", help="where the document is published (default for a new source: local:PATH)")
    pin.add_argument(
        "--fact-status", dest="fact_status", help="what is known of its accuracy (default for a new source: unstated)"
    )
    pin.set_defaults(handler=run_pin)
    sweep = add_command(
        commands,
        "sweep",
        "chunk counts and kept pairs for a range of heading-aware targets and fixed-char widths",
        (
            "Cut the manifest's sources at each size with the heading-aware and fixed-char rules and show chunk "
            "count, mean chunk length and pairs kept together, then each pair's smallest heading-aware target. "
            "Sweep sizes are never saved; saved indexes keep the three supported configs."
        ),
    )
    sweep.add_argument(
        "--manifest", dest="sweep_manifest", metavar="M", help="manifest to sweep (default: the main --manifest)"
    )
    sweep.add_argument(
        "--sizes", nargs="+", type=sweep_size, metavar="N", help="sizes to try (default: 40 to 600 in steps of 20)"
    )
    sweep.add_argument("--json", action="store_true", help="print the sweep as JSON for plotting")
    sweep.set_defaults(handler=run_sweep)
    add_scan_command(commands)
    add_context_command(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv``; every refusal becomes one stderr line and an exit code."""
    # Text that cannot be encoded for this terminal is shown escaped, never a traceback.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.handler is run_build and args.output is None:
        parser.error("the main job needs --output FILE (or --output - for stdout)")
    misplaced = misplaced_options(args)
    if misplaced:
        parser.error(
            f"{' and '.join(misplaced)} before the command would be ignored by it; give the command's own options after its name"
        )
    try:
        exit_code = args.handler(args)
        sys.stdout.flush()
        return exit_code
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except IngestionError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_REFUSED
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly.
        silence_stdout()
        return EXIT_OK
    except OSError as error:
        # Files are read and written through functions that turn their
        # OSErrors into one-line refusals naming the file; an error without a
        # file name is stdout itself failing (a full disk behind a redirect).
        if error.filename is not None:
            print(f"error: file_error: {printable(str(error.filename))}: {error.strerror or error}", file=sys.stderr)
            return EXIT_REFUSED
        silence_stdout()
        print(f"error: output_unwritable: stdout: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE


def misplaced_options(args: argparse.Namespace) -> list[str]:
    """Main-job options given with a command that does not read them, which would drop them silently."""
    readers = {
        run_build: {"output", "html", "manifest"},
        run_show: {"manifest"},
        run_sweep: {"manifest"},
        run_scan: {"manifest"},
        run_context: {"manifest"},
    }
    used = readers.get(args.handler, set())
    return [
        f"--{name}"
        for name in ("output", "html", "manifest")
        if getattr(args, name, None) is not None and name not in used
    ]


def silence_stdout() -> None:
    """Point stdout at the null device so Python's exit-time flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    raise SystemExit(main())
