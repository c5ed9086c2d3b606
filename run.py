"""The chunk-boundary lab's command line.

    python run.py --output result.json     build the three indexes, compare, write the result
    python run.py validate result.json     re-derive a saved result or index; refuse any change

Exit codes: 0 ok, 1 refused input or a failed validation, 2 usage.
Every refusal is one line on stderr: ``error: <code>: <where>: <what>``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import chunk_index
from indented_json import indented_json_bytes
from load_documents import IngestionError, load_manifest, read_json_file

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
    """The result as the lab saves it: ``indent=2``, UTF-8, keys in build order, one ``\\n``.

    Byte for byte ``json.dumps(result, indent=2, ensure_ascii=False) + "\\n"``, laid
    out by ``indented_json`` because ``json`` has no C encoder for ``indent``.
    """
    return indented_json_bytes(result, end=b"\n")


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


def summary_table(result: dict) -> str:
    """The comparison as a table a person reads at a glance."""
    rows = [("policy", "chunks", "instruction + qualifier")]
    for comparison in result["comparisons"]:
        verdict = "same chunk" if comparison["instruction_and_qualifier_share_chunk"] else "split"
        rows.append((comparison["strategy"], str(comparison["chunk_count"]), verdict))
    widths = [max(len(row[column]) for row in rows) for column in range(2)]
    return "\n".join(f"{row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]}" for row in rows)


def run_build(args: argparse.Namespace) -> int:
    """The main job: load, build the three indexes, compare, write the result."""
    manifest_path = Path(args.manifest)
    output = checked_output(args.output, (manifest_path,))
    manifest = load_manifest(manifest_path)
    for path in manifest.source_paths():
        checked_output(args.output, (path,))
    if len(manifest.span_checks) != 1:
        raise IngestionError(
            "span_checks",
            f"{manifest_path}: span_checks",
            f"expected exactly one instruction/qualifier check, found {len(manifest.span_checks)}",
        )
    check = manifest.span_checks[0]
    result = chunk_index.build_result(
        manifest.sources, check.source_id, check.instruction.as_list(), check.qualifier.as_list()
    )
    emit(canonical_result_bytes(result), output)
    report = sys.stderr if output is None else sys.stdout
    print(summary_table(result), file=report)
    print(f"wrote {'stdout' if output is None else output}", file=report)
    return EXIT_OK


def run_validate(args: argparse.Namespace) -> int:
    """Re-derive a saved result or index and say what was checked."""
    kind, artifact = chunk_index.validate_artifact(read_json_file(Path(args.file)))
    indexes = artifact["indexes"] if kind == "result" else {chunk_index.policy_of_config(artifact["config"]): artifact}
    checked = ", ".join(
        f"{name} {len(index['chunks'])} chunks (index {index['index_id'][:12]})" for name, index in indexes.items()
    )
    print(f"ok: {args.file}: {kind} re-derived exactly: {checked}")
    return EXIT_OK


# --- the parser ------------------------------------------------------------------


class LabArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line, like every other refusal."""

    def error(self, message: str) -> None:
        self.exit(EXIT_USAGE, f"error: usage: {self.prog}: {message} (see --help)\n")


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
    validate.set_defaults(handler=run_validate)
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
