"""``run.py validate FILE``: re-derive a saved result or index; with ``--manifest``, also that it is current."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from pathlib import Path

import chunk_index
import load_documents
from commands.basics import EXIT_OK, report
from commands.options import add_command, add_manifest_option
from lab_io import outputs
from lab_io.errors import IngestionError, UsageError, counted, printable
from lab_io.progress import Progress, source_bytes
from lab_io.strict_json import MAX_ARTIFACT_BYTES
from load_documents import load_manifest


def register(commands: argparse._SubParsersAction) -> None:
    validate = add_command(
        commands,
        "validate",
        "re-derive a saved result or index and refuse any difference",
        "Re-derive every index in FILE (a whole result or a single saved index) from its documents and config, "
        "recompute a result's comparisons, and refuse any difference, even when its hashes were recomputed to "
        "match. With --manifest, also refuse a result whose documents no longer match that manifest's pins.",
        "python run.py validate result.json --manifest manifest.json",
    )
    validate.add_argument(
        "file",
        metavar="FILE",
        help="a saved result.json or a single saved index; - reads it from stdin (run.py --output - | run.py "
        "validate -)",
    )
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


@contextlib.contextmanager
def saved_input(file: str):
    """``file`` as a path; for ``-``, stdin's bytes saved to a private temporary file first (at most
    ``MAX_ARTIFACT_BYTES``, as a file is read), removed afterwards, on a refusal and on SIGTERM or SIGHUP too: the
    reader compares a file's bytes, and a pipe is no file. A refusal of the copy's reading names ``-``, not the copy.
    """
    if file != "-":
        yield Path(file)
        return
    if sys.stdin is None:
        raise IngestionError(
            "stdin_closed", "-", "stdin is closed: pipe the result in (run.py --output - | run.py validate -)"
        )
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        # A text stream alone (an embedding's): its text as UTF-8.
        stream = io.BytesIO(sys.stdin.read().encode("utf-8"))
    with outputs.signals_as_exceptions(), tempfile.TemporaryDirectory(prefix="lab-validate-") as folder:
        path = Path(folder) / "stdin.json"
        written = 0
        try:
            with open(path, "wb") as handle:
                while True:
                    block = stream.read(1 << 20)
                    if not block:
                        break
                    written += len(block)
                    if written > MAX_ARTIFACT_BYTES:
                        raise IngestionError(
                            "file_too_large", "-", f"larger than the {MAX_ARTIFACT_BYTES:,}-byte bound"
                        )
                    handle.write(block)
        except OSError as error:
            # Not the output's failure: the copy stdin is read through could not be written (a full disk, a quota).
            raise IngestionError(
                "stdin_unsaved",
                "-",
                f"stdin could not be saved to read it ({error.strerror or error}): save it to a "
                "file and validate that",
            ) from error
        try:
            yield path
        except IngestionError as error:
            if str(path) not in error.where:
                raise
            raise IngestionError(error.code, error.where.replace(str(path), "-"), error.what, error.sought) from error


def run_validate(args: argparse.Namespace) -> int:
    """Re-derive a saved result or index and say what was checked; with pins, also that it is current.

    Every check runs before anything is printed, so a refusal is never preceded by an "ok".
    """
    from results import validate

    recorded = recorded_index_ids(args.index_ids)
    manifest, manifest_error = readable_manifest(args.manifest)
    with saved_input(args.file) as path:
        from results import validate_export

        # An export is told by its first record (stdin's bytes too, once saved): re-derived from --manifest's build.
        head = validate_export.export_head(path)
        if head is not None:
            return run_validate_export(args, path, head, manifest, manifest_error)
        with Progress("validating") as progress:
            expected = None if manifest is None else manifest_build(manifest, progress)
            kind, artifact, current = validate.read_validated(path, progress, expected, label=printable(args.file))
    if manifest_error is not None:
        # The file is refused before its manifest, as when the manifest is read after it.
        raise manifest_error
    indexes = validate.artifact_indexes(kind, artifact)
    checked = ", ".join(
        f"{name} {counted(len(index['chunks']), 'chunk')} (index {index['index_id'][:12]})"
        for name, index in indexes.items()
    )
    shown_file = printable(args.file)
    lines = [f"ok: {shown_file}: {kind} re-derived exactly: {checked}"]
    # A file that is byte for byte the manifest's build is current by construction: nothing of
    # source_pins (nor the dataclasses it imports) is needed then.
    if manifest is not None:
        if not current:
            import source_pins

            source_pins.require_current(kind, artifact, manifest, shown_file)
        lines.append(f"ok: {shown_file}: current: its documents match the pins of {printable(args.manifest)}")
    if recorded:
        import source_pins

        problems = source_pins.index_id_mismatches(indexes, recorded)
        if problems:
            raise IngestionError("index_id_mismatch", shown_file, "; ".join(problems))
        lines.append(f"ok: {shown_file}: index ids match the recorded ones ({', '.join(recorded)})")
    report("\n".join(lines))
    return EXIT_OK


def run_validate_export(args: argparse.Namespace, path: Path, head: dict, manifest, manifest_error) -> int:
    """An export (JSON Lines upsert records) re-derived from ``--manifest``'s build and compared byte for byte."""
    from results import validate_export

    shown_file = printable(args.file)
    if args.manifest is None:
        raise validate_export.needs_manifest(shown_file)
    if manifest_error is not None:
        raise manifest_error
    if args.index_ids:
        raise UsageError("usage", "--index-id", "checks a result or an index, not an export: its records name theirs")
    with Progress("validating") as progress:
        policy, records, caveats = validate_export.validated_export(
            path, shown_file, head, manifest, args.manifest, manifest_build(manifest, progress)
        )
    carrying = "" if caveats is None else f", carrying {counted(caveats, 'caveat')}"
    report(
        f"ok: {shown_file}: export re-derived exactly: {counted(records, f'{policy} record')} (index "
        f"{head['metadata']['index_id'][:12]}){carrying}, as export writes the build of {printable(args.manifest)}"
        + ("" if caveats is not None else " (no caveats carried)")
    )
    return EXIT_OK


def readable_manifest(value: str | None) -> tuple[object, IngestionError | None]:
    """The manifest ``--manifest`` names, read first so the build can be compared at once; or the refusal it met."""
    if value is None:
        return None, None
    try:
        return load_manifest(Path(value)), None
    except IngestionError as error:
        return None, error


def manifest_build(manifest, progress):
    """A callable building the result the main job writes for ``manifest``, counted on ``progress``."""
    from checks import span_checks

    def build(encoded: list | None = None) -> dict:
        size = source_bytes(manifest.sources)
        progress.expect(len(manifest.sources), size)
        configs = chunk_index.manifest_policy_configs(manifest)
        return span_checks.build_checked_result(
            manifest.sources, manifest.span_checks, configs, progress.advance, encoded=encoded
        )

    return build


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
