"""The commands beyond the main job: each one's options and handler, and the parsers that read them.

    python run.py validate result.json     re-derive a saved result or index; refuse any change
    python run.py show --policy paragraph  each policy's chunks over the source text
    python run.py diff OLD NEW             which chunk ids changed and which embeddings to compute
    python run.py export FILE --policy P   one policy's chunks as JSON Lines upsert records
    python run.py pin docs/ --manifest M   pin a file or every *.md of a docs folder
    python run.py sweep                    chunk counts and kept pairs over a range of sizes
    python run.py scan / context / judge   caveat pairs, context windows, another chunker's chunks

``run.py`` stays the command line: it runs the main job itself and imports this
module only for any other command line (a command, ``--help``, a mistake), so
the main job neither compiles nor imports the parsers and handlers it never
runs. The parser marks the main job with ``handler=None``; ``run.main`` runs its
own ``run_build`` then. This module never imports ``run``: run as a script,
``run.py`` is ``__main__``, and ``import run`` would load a second copy of it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from pathlib import Path

import chunk_index
import load_documents
import markdown_grammar
import outputs
from command_basics import (
    EXIT_CODES_HELP,
    EXIT_OK,
    EXIT_USAGE,
    LAB_VERSION,
    manifest_argument,
    manifest_to_build,
    report,
)
from errors import IngestionError, UsageError, counted, one_line, printable, quoted
from indented_json import saved_json_bytes
from load_documents import load_manifest
from outputs import checked_output, checked_report, destination, emit, emit_text, write_outputs
from progress import Progress
from strict_json import read_json_file

# --- commands --------------------------------------------------------------------


def run_show(args: argparse.Namespace) -> int:
    """Print each policy's chunks over the source text, coloured only on a terminal."""
    import boundary_view

    manifest = load_manifest(manifest_to_build(args.manifest))
    policies = chunk_index.POLICY_NAMES if args.policy is None else (args.policy,)
    colour = boundary_view.colour_wanted(sys.stdout, os.environ)
    configs = chunk_index.manifest_configs(manifest.grammar, manifest.policy_sizes)
    narrowing = show_narrowing(args, manifest)
    judgement = None
    if getattr(args, "show_chunks", None) is not None:
        import judge

        judgement = judge.judge_chunks(
            Path(args.show_chunks), manifest, manifest_label=judge.manifest_label(args.manifest)
        )
    if narrowing is None:
        view = boundary_view.terminal_view(manifest.sources, manifest.span_checks, policies, colour, configs)
        if judgement is not None:
            view += boundary_view.judged_terminal_view(manifest.sources, manifest.span_checks, judgement, colour)
    else:
        # --source, --check and --split-only narrow the judged chunks as they narrow the policies.
        view = boundary_view.narrowed_terminal_view(
            manifest.sources, manifest.span_checks, policies, colour, narrowing, configs, judgement
        )
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
    import validate

    recorded = recorded_index_ids(args.index_ids)
    value = read_json_file(Path(args.file))
    with Progress("validating", *validate.rebuild_work(value)) as progress:
        kind, artifact = validate.validate_artifact(value, progress.advance)
    indexes = validate.artifact_indexes(kind, artifact)
    checked = ", ".join(
        f"{name} {counted(len(index['chunks']), 'chunk')} (index {index['index_id'][:12]})"
        for name, index in indexes.items()
    )
    shown_file = printable(args.file)
    lines = [f"ok: {shown_file}: {kind} re-derived exactly: {checked}"]
    if args.manifest is not None or recorded:
        import source_pins

        if args.manifest is not None:
            source_pins.require_current(kind, artifact, load_manifest(Path(args.manifest)), shown_file)
            lines.append(f"ok: {shown_file}: current: its documents match the pins of {printable(args.manifest)}")
        problems = source_pins.index_id_mismatches(indexes, recorded)
        if problems:
            raise IngestionError("index_id_mismatch", shown_file, "; ".join(problems))
        if recorded:
            lines.append(f"ok: {shown_file}: index ids match the recorded ones ({', '.join(recorded)})")
    report("\n".join(lines))
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
        report(reembed.diff_summary(diff))
    return EXIT_OK


def run_export(args: argparse.Namespace) -> int:
    """Write one policy's chunks as JSON Lines upsert records."""
    import reembed

    source = Path(args.file)
    # Neither the saved file nor the manifest (given, or the lab's own) nor a source it pins may be overwritten.
    output = checked_output(args.export_output, (source, *outputs.manifest_inputs(manifest_argument(args.manifest))))
    index = reembed.exported_index(source, args.policy)
    emit(reembed.export_lines(index), output)
    exported = counted(len(index["chunks"]), f"{args.policy} chunk")
    report(f"exported {exported} (index {index['index_id'][:12]}) to {destination(output)}", to_stderr=output is None)
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
    """Pin files into a manifest (or re-pin them after an edit) and rewrite it atomically, under the manifest lock."""
    import source_pins

    if args.manifest is None:
        raise UsageError("usage", "pin", "pin needs --manifest M: the manifest to update or start")
    # Everything typed here is stored in the manifest, which holds UTF-8 text only.
    for path in args.paths:
        require_utf8_argument("PATH", path)
    metadata = {field: getattr(args, field) for field in source_pins.METADATA_FIELDS}
    for field, value in metadata.items():
        if value is not None:
            require_utf8_argument(f"--{field.replace('_', '-')}", value)
    if len(args.paths) > 1 and any(metadata[field] is not None for field in source_pins.ONE_FILE_FIELDS):
        raise UsageError("pin_metadata", "pin", "--source-id, --title and --url need exactly one file PATH")
    requests = [source_pins.PinRequest(path, **metadata) for path in args.paths]
    # The manifest is rewritten in place, so it must be a writable regular file (or new).
    manifest_path = checked_output(args.manifest, (), stdout_allowed=False)
    if manifest_path is None:
        raise UsageError("manifest_to_stdout", "--manifest", "pin rewrites a manifest file; name one")
    # Read, change and write under one lock: a concurrent pin waits and then sees this one's sources.
    with outputs.manifest_lock(manifest_path):
        new_manifest = not os.path.lexists(manifest_path)
        outcome = source_pins.pin_sources(manifest_path, requests, args.markdown, args.reanchor)
        if outcome.manifest_bytes is not None:
            emit(outcome.manifest_bytes, manifest_path)
    if new_manifest and args.markdown is None:
        # The grammar is chosen once, when the manifest starts (switching later is refused): say which it is.
        report(source_pins.LESSON_GRAMMAR_NOTE, to_stderr=True)
    lines = source_pins.pin_report_lines(outcome)
    shown_manifest = destination(manifest_path)
    lines.append(
        f"wrote {shown_manifest}" if outcome.manifest_bytes is not None else f"manifest unchanged: {shown_manifest}"
    )
    report("\n".join(lines))
    return EXIT_OK


def require_utf8_argument(option: str, value: str) -> None:
    """Refuse an argument holding a byte that is not UTF-8 (``surrogateescape`` in argv) before it reaches a file."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise UsageError(
            "argument_not_utf8",
            option,
            f"{printable(value)} holds a byte that is not UTF-8 at character {error.start}; the manifest stores UTF-8 text",
        ) from None


def run_sweep(args: argparse.Namespace) -> int:
    """Print chunk counts, mean lengths and kept pairs over a range of sizes, and each pair's smallest target."""
    import size_sweep

    manifest = load_manifest(manifest_to_build(args.manifest))
    sizes = tuple(sorted(set(args.sizes))) if args.sizes else size_sweep.DEFAULT_SIZES
    if len(sizes) > size_sweep.MAX_SIZE_COUNT:
        raise UsageError("too_many_sizes", "--sizes", f"{len(sizes)} sizes; at most {size_sweep.MAX_SIZE_COUNT}")
    size_sweep.require_bounded_sweep(manifest, sizes)
    sweep = size_sweep.run_sweep(manifest, sizes)
    report(size_sweep.sweep_json(sweep) if args.json else size_sweep.sweep_table(sweep))
    return EXIT_OK


def sweep_size(value: str) -> int:
    """One ``--sizes`` value: a whole number from 1 to the source size bound."""
    import size_sweep

    if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= size_sweep.MAX_SIZE:
        raise argparse.ArgumentTypeError(f"a size is a whole number from 1 to {size_sweep.MAX_SIZE}, found {value!r}")
    return int(value)


def run_judge(args: argparse.Namespace) -> int:
    """Locate another chunker's chunks in the pinned sources and judge them beside the lab's policies."""
    import judge

    manifest_path = manifest_to_build(args.manifest)
    chunks_path = Path(args.chunks)
    html_path = None
    if args.judge_html is not None:
        # Refused before any work: the report may not overwrite an input.
        checked_report(args.judge_html, None, (manifest_path, chunks_path))
    manifest = load_manifest(manifest_path)
    if args.judge_html is not None:
        html_path = checked_report(args.judge_html, None, (manifest_path, chunks_path, *manifest.source_paths()))
    judgement = judge.judge_chunks(chunks_path, manifest, args.name, judge.manifest_label(args.manifest))
    if html_path is not None:
        import boundary_view

        page = boundary_view.judge_html_report(manifest.sources, manifest.span_checks, judgement)
        write_outputs([(html_path, page.encode("utf-8"))])
    if args.json:
        emit(judge.judgement_json_text(judgement).encode("utf-8"), None)
    else:
        report(judge.judgement_text(judgement))
    if html_path is not None:
        report(f"wrote {destination(html_path)}", to_stderr=args.json)
    return EXIT_OK


def manifest_grammar(manifest) -> str:
    """The Markdown grammar a manifest chose (``"markdown"``)."""
    return manifest.grammar


def manifest_indexes(manifest) -> dict:
    """The three indexes the main job would build from ``manifest`` (its grammar and sizes), by policy name."""
    return chunk_index.build_indexes(
        manifest.sources, chunk_index.manifest_configs(manifest.grammar, manifest.policy_sizes)
    )


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

    if args.add_checks and args.manifest is None:
        # As pin: the fallback is the lesson's fixture, whose manifest the reference result depends on.
        raise UsageError("usage", "scan", "--add-checks needs --manifest M: the manifest to add the found pairs to")
    manifest_path = manifest_to_build(args.manifest)
    if args.add_checks:
        # The manifest is rewritten in place: refuse a link or a device before any work.
        checked_output(str(manifest_path), (), stdout_allowed=False)
    manifest = load_manifest(manifest_path)
    # Scanned before the indexes exist: the collector then has a small heap to walk while sentences come and go.
    found = caveat_scan.scan_sources(manifest.sources, manifest_grammar(manifest))
    indexes = manifest_indexes(manifest)
    with collector_skips_what_exists():
        findings = caveat_scan.scan_report(manifest, indexes, manifest_grammar(manifest), found)
    if args.json:
        emit(saved_json_bytes(findings), None)
    else:
        report(caveat_scan.scan_table(findings))
    if args.add_checks:
        line = add_scanned_checks(manifest_path, found[0])
        report(line, to_stderr=args.json)
    return EXIT_OK


def add_scanned_checks(manifest_path: Path, pairs: list) -> str:
    """Append the found pairs no check already is to the manifest's span_checks, atomically; say what changed.

    Read, change and write under the manifest lock, against the manifest as it
    is then: a pin or another scan that ran meanwhile is seen, never undone.
    """
    import caveat_scan
    import source_pins

    shown = destination(manifest_path)
    with outputs.manifest_lock(manifest_path):
        current = load_manifest(manifest_path)
        entries = caveat_scan.checks_to_add(pairs, current.span_checks)
        if not entries:
            return f"manifest unchanged: {shown} (all {counted(len(pairs), 'found pair')} already declared)"
        value = load_documents.read_manifest_value(manifest_path)
        value.setdefault("span_checks", [])
        value["span_checks"].extend(entries)
        # Checked exactly as a build will load it before a byte is written.
        source_pins.verified_manifest(value, manifest_path.parent, str(manifest_path))
        emit(saved_json_bytes(value), manifest_path)
    declared = len(pairs) - len(entries)
    return f"added {counted(len(entries), 'span check')} to {shown} ({declared} already declared)"


def run_context(args: argparse.Namespace) -> int:
    """For every span check and policy: the smallest window that recovers the qualifier, recall and cost by k."""
    import context_windows

    manifest = load_manifest(manifest_to_build(args.manifest))
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
        report(context_windows.context_table(figures, [check.name for check in checks]))
    return EXIT_OK


# --- the parser ------------------------------------------------------------------


class FullParserNeeded(Exception):
    """The quick parser met what only the full one answers: a command, ``--help`` or a usage error."""


class LabArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line, like every other refusal."""

    # True while ``build_parser(quick=True)``'s parser parses (see ``parsed_arguments``).
    quick = False

    def error(self, message: str) -> None:
        if self.quick:
            raise FullParserNeeded
        # argparse quotes some values and not others; one_line makes any of them one inert line.
        self.exit(EXIT_USAGE, f"error: usage: {self.prog}: {one_line(message)} (see --help)\n")

    def print_help(self, file=None) -> None:
        if self.quick:
            raise FullParserNeeded
        super().print_help(file)

    def _print_message(self, message: str, file=None) -> None:
        # argparse drops a failed write silently; --help and --version go through the checked stdout path instead.
        if message and file is sys.stdout:
            emit_text(message.rstrip("\n"))
        else:
            super()._print_message(message, file)


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

PIN_DESCRIPTION = """\
Check each PATH as a build would (inside the manifest's folder, no link, size
bound, UTF-8, read with the manifest's grammar: a heading at offset 0 under the
lesson's, none needed under "blocks" or "blocks-2"), record its sha256 in the
manifest and rewrite the manifest atomically. A missing manifest is
started. Re-pinning changes the document revision and every chunk id of that
source; a span check the edit made stale is refused and the manifest left
unchanged, unless --reanchor moves it to the one place its quote now occurs.

A folder PATH pins every *.md file under it, sorted, recursively. Hidden
entries (.git, .cache) and other files are passed over; links and non-regular
files named *.md are skipped with a line (no link is followed). Each new file's
source id is its path relative to the manifest's folder without .md
(docs/guide/index), or that id with -2, -3, ... when a source already holds it.
Pinning the same folder again changes nothing, except re-pinning edited files.

Concurrent pins into one folder's manifests take turns (a lock on the folder),
so none is lost.
"""


def wrapped(text: str) -> str:
    """``text`` with each blank-line-separated paragraph filled to 78 columns, for ``--help``."""
    import textwrap

    return "\n\n".join(textwrap.fill(" ".join(paragraph.split()), 78) for paragraph in text.strip().split("\n\n"))


MANIFEST_HELP = (
    "manifest of pinned sources and span checks (default: manifest.json beside run.py); "
    "source paths are relative to its folder; also accepted before the command"
)


def add_command(
    commands: argparse._SubParsersAction, name: str, summary: str, description: str, example: str
) -> argparse.ArgumentParser:
    """A subcommand parser with an example and the lab's exit-code table under its help."""
    import textwrap

    return commands.add_parser(
        name,
        help=summary,
        description=wrapped(description),
        epilog=f"example:\n{textwrap.indent(textwrap.dedent(example).strip(), '  ')}\n\n{EXIT_CODES_HELP}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def add_manifest_option(
    command: argparse.ArgumentParser, help_text: str = MANIFEST_HELP, required: bool = False
) -> None:
    """``--manifest M`` after the command, read together with one given before it (see ``merged_manifest``)."""
    suffix = " (required, here or before the command)" if required else ""
    command.add_argument("--manifest", dest="command_manifest", metavar="M", default=None, help=help_text + suffix)


def add_validate_command(commands: argparse._SubParsersAction) -> None:
    validate = add_command(
        commands,
        "validate",
        "re-derive a saved result or index and refuse any difference",
        "Re-derive every index in FILE (a whole result or a single saved index) from its documents and config, "
        "recompute a result's comparisons, and refuse any difference, even when its hashes were recomputed to "
        "match. With --manifest, also refuse a result whose documents no longer match that manifest's pins.",
        "python run.py validate result.json --manifest manifest.json",
    )
    validate.add_argument("file", metavar="FILE", help="a saved result.json or a single saved index")
    add_manifest_option(
        validate, "also refuse a result whose documents (or span checks) no longer match this manifest's pins"
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


def add_show_command(commands: argparse._SubParsersAction) -> None:
    show = add_command(
        commands,
        "show",
        "print each policy's chunks over the source text",
        SHOW_DESCRIPTION,
        "python run.py show --policy heading-aware | less -R",
    )
    show.add_argument("--policy", choices=chunk_index.POLICY_NAMES, help="show only this policy (default: all three)")
    add_manifest_option(show)
    add_show_filters(show)
    show.set_defaults(handler=run_show)


def add_diff_command(commands: argparse._SubParsersAction) -> None:
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


def add_export_command(commands: argparse._SubParsersAction) -> None:
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


def add_pin_command(commands: argparse._SubParsersAction) -> None:
    pin = add_command(
        commands,
        "pin",
        "pin files or whole docs folders into a manifest, or re-pin them after an edit",
        PIN_DESCRIPTION,
        """\
        python run.py pin --markdown blocks-2 --manifest m.json docs/
        python run.py pin --manifest my/manifest.json my/docs/guide.md --title 'User guide' --version 2.0""",
    )
    pin.add_argument(
        "paths",
        metavar="PATH",
        nargs="+",
        help="a source file, or a folder standing for every *.md file under it, inside the manifest's folder",
    )
    pin.add_argument(
        "--markdown",
        choices=markdown_grammar.GRAMMARS,
        help="the Markdown grammar of a new manifest (default: lesson, the fixture's tiny one; "
        "blocks-2 reads real docs: front matter, fences, admonitions, /// and ::: containers, content tabs; "
        "blocks is its first version, kept so saved results validate); an existing manifest keeps its own",
    )
    add_manifest_option(pin, "the manifest to update or start", required=True)
    pin.add_argument(
        "--source-id", dest="source_id", help="id of a new source (default: the file name without extension)"
    )
    pin.add_argument("--title", help="title (default for a new source: its id)")
    pin.add_argument(
        "--version", help="MAJOR.MINOR version (default for a new source: 1.0); with a folder, of every file pinned"
    )
    pin.add_argument("--url", help="where the document is published (default for a new source: local:PATH)")
    pin.add_argument(
        "--fact-status",
        dest="fact_status",
        help="what is known of its accuracy (default for a new source: unstated); with a folder, of every file pinned",
    )
    pin.add_argument(
        "--reanchor",
        action="store_true",
        help="after an edit, move each span check of the files pinned whose quote now occurs once in the new text "
        "to that place (one line per move); a quote that is gone or occurs more than once is still refused",
    )
    pin.set_defaults(handler=run_pin)


def add_sweep_command(commands: argparse._SubParsersAction) -> None:
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
        "--sizes", nargs="+", type=sweep_size, metavar="N", help="sizes to try (default: 40 to 600 in steps of 20)"
    )
    sweep.add_argument("--json", action="store_true", help="print the sweep as JSON for plotting")
    sweep.set_defaults(handler=run_sweep)


JUDGE_DESCRIPTION = """\
Read CHUNKS, a JSON Lines file of chunks your own pipeline wrote (plain
records, LangChain documents, LlamaIndex nodes or chonkie chunks; see
docs/judge.md for a snippet per library), match each chunk to a pinned source
by id or path, and locate it in the source text: at its own offset when that
is right, else by order, else as a unique occurrence, else modulo whitespace.
A wrong offset is reported, never trusted; a chunk that is ambiguous or not
found is counted and left out, and verdicts it could change are marked
partial. Then the chunks are judged beside the lab's three policies: the
manifest's span checks, coverage (non-whitespace text no chunk holds, and text
two chunks hold) and the context figures of the context command (how many
neighbouring chunks bring a split qualifier back, and at what cost).
"""


def add_judge_command(commands: argparse._SubParsersAction) -> None:
    """``judge CHUNKS [--manifest M] [--name NAME] [--json] [--html FILE]``, and ``show --chunks CHUNKS``."""
    judge = add_command(
        commands,
        "judge",
        "locate another chunker's chunks in the pinned sources and judge them",
        JUDGE_DESCRIPTION,
        "python run.py judge chunks.jsonl --manifest manifest.json --name my-splitter",
    )
    judge.add_argument("chunks", metavar="CHUNKS", help="a JSON Lines file of chunks, one record per line")
    add_manifest_option(judge)
    judge.add_argument("--name", help="the judged chunker's row name in the table (default: the file name)")
    judge.add_argument("--json", action="store_true", help="print the judgement as JSON (shape in docs/judge.md)")
    judge.add_argument(
        "--html",
        dest="judge_html",
        metavar="FILE",
        help="also write a self-contained HTML report of the judged chunks beside the lab's policies",
    )
    judge.set_defaults(handler=run_judge)
    # show draws judged chunks too; its option lives here so the judge's wiring stays in one place.
    commands.choices["show"].add_argument(
        "--chunks",
        dest="show_chunks",
        metavar="CHUNKS",
        help="also draw the chunks of this JSON Lines file (see judge), located in the sources",
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
block break, the size target, a fixed-width cut). With --add-checks the pairs
not declared yet are appended to the manifest's span_checks, so the main job,
validate and context cover them. Rules and limits: docs/caveats.md.
"""
CONTEXT_DESCRIPTION = """\
For every span check and policy, how much neighbouring context brings a split
qualifier back: the smallest window of k chunks on each side of the chunk
holding the instruction (k = 0 is the chunk alone), within the section and
crossing headings, and the parent section as a rule of its own; per policy,
recall at k = 0..3 and for the section, the mean characters returned, and the
character precision and IoU of the returned text against the two spans.
Definitions: docs/caveats.md.
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


def add_context_command(commands: argparse._SubParsersAction) -> None:
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
        help="also measure the pairs scan finds that the manifest does not declare yet",
    )
    context.add_argument(
        "--json", action="store_true", help="print every policy's figures as JSON (shape in docs/caveats.md)"
    )
    context.set_defaults(handler=run_context)


# One line per command: a new command is one ``add_..._command`` function and one entry here.
COMMANDS = (
    ("validate", add_validate_command),
    ("show", add_show_command),
    ("diff", add_diff_command),
    ("export", add_export_command),
    ("pin", add_pin_command),
    ("sweep", add_sweep_command),
    ("scan", add_scan_command),
    ("context", add_context_command),
    ("judge", add_judge_command),
)


class UnbuiltCommand:
    """A command's place in the quick parser: argparse reaching for its parser means the full one is needed."""

    def __getattr__(self, name: str):
        raise FullParserNeeded


def build_parser(quick: bool = False) -> argparse.ArgumentParser:
    """The main job's options and one subparser per command (see ``COMMANDS``), each with an example.

    ``quick`` builds only what the main job's own command line needs, in a
    fraction of the time: no description or epilog, and each command a name
    alone (``UnbuiltCommand``). Its parse either gives what the full parser
    would or raises ``FullParserNeeded`` (see ``parsed_arguments``).
    """
    parser = LabArgumentParser(
        prog="run.py",
        usage="%(prog)s [--manifest M] --output FILE [--html FILE]\n       %(prog)s [--manifest M] COMMAND [options]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if not quick:
        parser.description = wrapped(
            "The chunk-boundary lab: build fixed-char, paragraph and heading-aware chunk "
            "indexes of hash-pinned sources and show whether an API instruction and the "
            "qualifier after it land in the same chunk.\n\n"
            "The main job (no command): load the manifest, build the three indexes, compare "
            "every span check and write the result to --output. The commands below look at, "
            "check or extend what it does; each has its own --help."
        )
        parser.epilog = "example:\n  python run.py --output result.json --html report.html\n\n" + EXIT_CODES_HELP
    parser.add_argument("--version", action="version", version=f"%(prog)s (chunk-boundary lab) {LAB_VERSION}")
    parser.add_argument("--manifest", metavar="M", default=None, help=MANIFEST_HELP)
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
    # The main job: run.py runs its own run_build (see the module docstring).
    parser.set_defaults(handler=None)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", prog="run.py")
    for name, add in COMMANDS:
        if quick:
            commands.choices[name] = UnbuiltCommand()
        else:
            add(commands)
    parser.quick = quick
    return parser


_FULL_PARSER: list[argparse.ArgumentParser] = []


def full_parser() -> argparse.ArgumentParser:
    """The parser of every command, built once per process: its help texts are most of a short run's parse.

    Parsing leaves it unchanged, so a process that runs ``main`` many times
    (the tests do) reuses it; ``main`` calls each handler by name (see
    ``current_handler``), so a function replaced after the build still runs.
    """
    if not _FULL_PARSER:
        _FULL_PARSER.append(build_parser())
    return _FULL_PARSER[0]


def current_handler(args: argparse.Namespace):
    """The command's handler as this module holds it now, looked up by the name the parser recorded."""
    return globals()[args.handler.__name__]


def parsed_arguments(
    parser: argparse.ArgumentParser, arguments: list[str]
) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """``arguments`` parsed by the quick ``parser`` when it can, else by the full one; and the parser that did it.

    The quick parser holds the same main-job options as the full one, so a
    command line without a command, ``--help`` or a mistake parses the same;
    anything else is parsed again from the start by the full parser, which
    gives every command, help text and error message as before.
    """
    try:
        args = parser.parse_args(arguments)
    except FullParserNeeded:
        parser = full_parser()
        args = parser.parse_args(arguments)
    parser.quick = False
    return parser, args


def merged_manifest(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """One ``args.manifest`` from ``--manifest`` given before the command, after it, or both alike."""
    after = getattr(args, "command_manifest", None)
    if after is not None and args.manifest is not None and after != args.manifest:
        parser.error(
            f"--manifest is given twice with different values ({printable(args.manifest)} and {printable(after)})"
        )
    if after is not None:
        args.manifest = after


def parsed_command_line(arguments: list[str]) -> argparse.Namespace | None:
    """``arguments`` parsed and checked (see ``parsed_arguments``); ``None`` after the usage line when there are none."""
    parser = build_parser(quick=True)
    if not arguments:
        sys.stderr.write(parser.format_usage())
        print("error: usage: run.py: no command or --output given; run.py --help explains each", file=sys.stderr)
        return None
    parser, args = parsed_arguments(parser, arguments)
    merged_manifest(parser, args)
    if args.handler is None and args.output is None:
        parser.error("the main job needs --output FILE (or --output - for stdout)")
    misplaced = misplaced_options(args)
    if misplaced:
        parser.error(
            f"{' and '.join(misplaced)} before the command would be ignored by it; give the command's own options after its name"
        )
    return args


def misplaced_options(args: argparse.Namespace) -> list[str]:
    """Main-job options given with a command that does not read them, which would drop them silently."""
    readers = {
        None: {"output", "html", "manifest"},  # the main job
        run_show: {"manifest"},
        run_sweep: {"manifest"},
        run_validate: {"manifest"},
        run_export: {"manifest"},
        run_pin: {"manifest"},
        run_scan: {"manifest"},
        run_context: {"manifest"},
        run_judge: {"manifest"},
    }
    used = readers.get(args.handler, set())
    return [
        f"--{name}"
        for name in ("output", "html", "manifest")
        if getattr(args, name, None) is not None and name not in used
    ]
