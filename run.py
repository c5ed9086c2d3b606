"""The chunk-boundary lab's command line.

    python run.py --output result.json     build the three indexes, compare, write the result
    python run.py validate result.json     re-derive a saved result or index; refuse any change
    python run.py pin docs/a.md --manifest M   pin a file (or re-pin it after an edit)
    python run.py sweep                    chunk counts and kept pairs over a range of sizes

Exit codes: 0 ok, 1 refused input or a failed validation, 2 usage.
Every refusal is one line on stderr: ``error: <code>: <where>: <what>``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import chunk_index
from load_documents import IngestionError, load_manifest, read_json_file, shown

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
DEFAULT_MANIFEST = Path(__file__).resolve().parent / "manifest.json"

EXIT_CODES_HELP = """\
exit codes:
  0  ok
  1  refused input: a source that fails its pin, a malformed file, or a
     saved result or index that does not re-derive exactly
  2  usage: unknown command or option, or an --output the lab will not write

Every refusal is one line on stderr: error: <code>: <where>: <what>
"""


class UsageError(Exception):
    """A command line the lab will not act on; exit code 2, one line like ``IngestionError``."""

    def __init__(self, code: str, where: str, what: str) -> None:
        super().__init__(f"{code}: {where}: {what}")


# --- output ----------------------------------------------------------------------


def canonical_result_bytes(result: dict) -> bytes:
    """The result as the lab saves it: ``indent=2``, UTF-8, keys in build order, one ``\\n``."""
    return (json.dumps(result, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    A reader sees the old file or the new one, never a partial one; on any
    failure the temporary file is removed and an existing ``path`` is untouched.
    """
    path = Path(path)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, existing_mode(path))
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def existing_mode(path: Path) -> int:
    """The permission bits a replaced file keeps, or the umask's default for a new one."""
    try:
        return os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def checked_output(value: str, protected: tuple[Path, ...]) -> Path | None:
    """The ``--output`` path, refused before any work if writing it would lose something.

    ``-`` means stdout and returns ``None``.
    """
    if value == "-":
        return None
    path = Path(value)
    if path.is_dir():
        raise UsageError("output_is_folder", value, "is a folder; name a file to write")
    if not path.parent.is_dir():
        raise UsageError("output_folder_missing", value, f"folder {str(path.parent)!r} does not exist")
    resolved = path.resolve()
    for protected_path in protected:
        if resolved == protected_path.resolve():
            raise UsageError("output_is_input", value, "is one of the lab's inputs; writing it would destroy it")
    return path


def emit(data: bytes, path: Path | None) -> None:
    """Write ``data`` to ``path`` atomically, or to stdout when ``path`` is ``None``."""
    if path is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_atomically(path, data)


# --- commands --------------------------------------------------------------------


def summary_table(result: dict, names: tuple[str, ...] = ()) -> str:
    """The comparison as a table a person reads at a glance, then each pair's verdict per policy.

    ``names`` labels a single-pair result, whose comparison records no name.
    """
    outcomes = {comparison["strategy"]: chunk_index.pair_outcomes(comparison) for comparison in result["comparisons"]}
    rows = [("policy", "chunks", "pairs kept together")]
    for comparison in result["comparisons"]:
        pairs = outcomes[comparison["strategy"]]
        kept = sum(1 for _, is_kept in pairs if is_kept)
        rows.append((comparison["strategy"], str(comparison["chunk_count"]), f"{kept} of {len(pairs)}"))
    widths = [max(len(row[column]) for row in rows) for column in range(2)]
    lines = [f"{row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]}" for row in rows]
    first = next(iter(outcomes.values()))
    if not first:
        lines.append("no span checks declared: add instruction/qualifier pairs to the manifest's span_checks")
    for position, (name, _) in enumerate(first):
        label = name if name is not None else (names[position] if position < len(names) else "instruction + qualifier")
        verdicts = ", ".join(
            f"{policy} {'same chunk' if pairs[position][1] else 'split'}" for policy, pairs in outcomes.items()
        )
        lines.append(f"{shown(label)}: {verdicts}")
    return "\n".join(lines)


def run_build(args: argparse.Namespace) -> int:
    """The main job: load, build the three indexes, compare every span check, write the result."""
    manifest_path = Path(args.manifest)
    output = checked_output(args.output, (manifest_path,))
    manifest = load_manifest(manifest_path)
    for path in manifest.source_paths():
        checked_output(args.output, (path,))
    result = chunk_index.build_checked_result(manifest.sources, manifest.span_checks)
    emit(canonical_result_bytes(result), output)
    report = sys.stderr if output is None else sys.stdout
    print(summary_table(result, tuple(check.name for check in manifest.span_checks)), file=report)
    print(f"wrote {'stdout' if output is None else output}", file=report)
    return EXIT_OK


def run_validate(args: argparse.Namespace) -> int:
    """Re-derive a saved result or index and say what was checked; with pins, also that it is current.

    Every check runs before anything is printed, so a refusal is never preceded by an "ok".
    """
    recorded = recorded_index_ids(args.index_ids)
    kind, artifact = chunk_index.validate_artifact(read_json_file(Path(args.file)))
    indexes = artifact["indexes"] if kind == "result" else {chunk_index.policy_of_config(artifact["config"]): artifact}
    checked = ", ".join(
        f"{name} {len(index['chunks'])} chunks (index {index['index_id'][:12]})" for name, index in indexes.items()
    )
    lines = [f"ok: {args.file}: {kind} re-derived exactly: {checked}"]
    if args.pins_manifest is not None or recorded:
        import source_pins

        if args.pins_manifest is not None:
            source_pins.require_current(kind, artifact, load_manifest(Path(args.pins_manifest)), args.file)
            lines.append(f"ok: {args.file}: current: its documents match the pins of {args.pins_manifest}")
        problems = source_pins.index_id_mismatches(indexes, recorded)
        if problems:
            raise IngestionError("index_id_mismatch", args.file, "; ".join(problems))
        if recorded:
            lines.append(f"ok: {args.file}: index ids match the recorded ones ({', '.join(recorded)})")
    print("\n".join(lines))
    return EXIT_OK


def index_id_argument(value: str) -> tuple[str, str]:
    """``fixed-char=27a9…`` (a policy and a full 64-hex index id) as a pair, for ``--index-id``."""
    policy, separator, index_id = value.partition("=")
    if not separator or policy not in chunk_index.POLICY_NAMES:
        raise argparse.ArgumentTypeError(f"expected POLICY=ID with POLICY one of {', '.join(chunk_index.POLICY_NAMES)}, found {value!r}")
    if not chunk_index.SHA256_PATTERN.fullmatch(index_id):
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
        raise UsageError("pin_metadata", "pin", "--source-id, --title, --version, --url and --fact-status need exactly one PATH")
    requests = [source_pins.PinRequest(path, **metadata) for path in args.paths]
    manifest_path = Path(args.pin_manifest)
    outcome = source_pins.pin_sources(manifest_path, requests)
    if outcome.manifest_bytes is not None:
        write_atomically(manifest_path, outcome.manifest_bytes)
    for change in outcome.changes:
        print("\n".join(source_pins.pin_report(change)))
    print(f"wrote {manifest_path}" if outcome.manifest_bytes is not None else f"manifest unchanged: {manifest_path}")
    return EXIT_OK


def run_sweep(args: argparse.Namespace) -> int:
    """Print chunk counts, mean lengths and kept pairs over a range of sizes, and each pair's smallest target."""
    import size_sweep

    manifest = load_manifest(Path(args.sweep_manifest or args.manifest))
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


# --- the parser ------------------------------------------------------------------


class LabArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line, like every other refusal."""

    def error(self, message: str) -> None:
        self.exit(EXIT_USAGE, f"error: usage: {self.prog}: {message} (see --help)\n")


def add_command(commands, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    """A subcommand whose help ends with the exit-code table, like the main job's."""
    return commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def build_parser() -> argparse.ArgumentParser:
    parser = LabArgumentParser(
        prog="run.py",
        description=(
            "The chunk-boundary lab: build fixed-char, paragraph and heading-aware chunk "
            "indexes of hash-pinned sources and show whether an API instruction and the "
            "qualifier after it land in the same chunk."
        ),
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--manifest",
        default=str(DEFAULT_MANIFEST),
        help="manifest of pinned sources and span checks (default: manifest.json beside run.py); "
        "source paths are relative to its folder",
    )
    parser.add_argument("--output", metavar="FILE", help="write the result JSON here, atomically; '-' for stdout (the table then goes to stderr)")
    parser.set_defaults(handler=run_build)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    validate = commands.add_parser(
        "validate",
        help="re-derive a saved result or index and refuse any difference",
        description=(
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
    pin.add_argument("--manifest", dest="pin_manifest", metavar="M", required=True, help="the manifest to update or start")
    pin.add_argument("--source-id", dest="source_id", help="id of a new source (default: the file name without extension)")
    pin.add_argument("--title", help="title (default for a new source: its id)")
    pin.add_argument("--version", help="MAJOR.MINOR version (default for a new source: 1.0)")
    pin.add_argument("--url", help="where the document is published (default for a new source: local:PATH)")
    pin.add_argument("--fact-status", dest="fact_status", help="what is known of its accuracy (default for a new source: unstated)")
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
    sweep.add_argument("--manifest", dest="sweep_manifest", metavar="M", help="manifest to sweep (default: the main --manifest)")
    sweep.add_argument("--sizes", nargs="+", type=sweep_size, metavar="N", help="sizes to try (default: 40 to 600 in steps of 20)")
    sweep.add_argument("--json", action="store_true", help="print the sweep as JSON for plotting")
    sweep.set_defaults(handler=run_sweep)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.handler is run_build and args.output is None:
        parser.error("the main job needs --output FILE (or --output - for stdout)")
    try:
        return args.handler(args)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except IngestionError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_REFUSED
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's
        # exit-time flush from failing on the closed pipe too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
