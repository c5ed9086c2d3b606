"""The main job and the command line's one entry: ``main`` parses, runs a command, and turns every refusal into one line.

The plain main job (``run.py --output FILE`` with only its own options) is
read without building a parser and run by ``run_build`` here; any other
command line goes to ``commands.parser``, imported only then, so the main job
neither compiles nor imports the parsers and handlers it never runs.

Exit codes: 0 ok, 1 refused input or a failed validation, 2 usage or an output
the lab cannot write, 128 + N when stopped by signal N (130 for Ctrl-C).
Every refusal is one line on stderr: ``error: <code>: <where>: <what>``.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import types

import chunk_index
from checks import span_checks
from commands import basics
from commands.basics import (
    DEFAULT_MANIFEST,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_SIGNAL_BASE,
    EXIT_USAGE,
    manifest_to_build,
    report,
)
from lab_io import outputs
from lab_io.errors import IngestionError, UsageError, one_line, printable
from lab_io.indented_json import saved_json_pieces
from lab_io.outputs import checked_output, checked_report, destination, emit, manifest_files, write_outputs
from lab_io.progress import Progress, source_bytes
from lab_io.strict_json import MAX_ARTIFACT_BYTES
from load_documents import load_manifest
from views import summary

# Every other command lives in its own module of ``commands``, and the parsers in
# ``commands.parser``, imported only when the command line is not the plain main job.


def manifest_origin(value: str | None) -> str:
    """The summary's line naming the manifest a build read: the one given, or the fixture's."""
    if value is None:
        return f"built from {DEFAULT_MANIFEST.name} beside run.py (the lesson's fixture)"
    return f"built from {printable(value)}"


def manifest_option(value: str | None) -> str:
    """The ``--manifest`` the summary's ``show`` commands carry, so each draws the manifest a build read: the one
    given, quoted for a shell when it needs it (``" --manifest 'my docs/m.json'"``), or nothing for the fixture's."""
    if value is None:
        return ""
    import shlex

    return f" --manifest {printable(shlex.quote(value))}"


def run_build(args) -> int:
    """The main job: load, build the manifest's indexes, compare every span check, write the result.

    ``args`` holds ``manifest``, ``output`` and ``html``: from ``main_job_arguments``
    or, for any other spelling of the main job's command line, from the parser.
    """
    manifest_path = manifest_to_build(args.manifest)
    # Checked against the manifest before any work, then against the sources it names.
    checked_output(args.output, manifest_files(manifest_path), before_inputs=True)
    manifest = load_manifest(manifest_path)
    inputs = manifest_files(manifest_path, manifest)
    output = checked_output(args.output, inputs, writes="result")
    html_path = None if args.html is None else checked_report(args.html, output, inputs)
    configs = chunk_index.manifest_policy_configs(manifest)
    text_bytes = source_bytes(manifest.sources)
    # The summary says where each pair lies for pair-aware: the build's sections are kept for it.
    section_cache = {} if chunk_index.PAIR_AWARE in configs else None
    # The documents' texts as the build turned them to JSON for the ids: the writer lays them out from it.
    # The chunks' are escaped again as they are written: kept, they would add about 15 % to the peak.
    encoded: list = []
    with Progress("building indexes", len(manifest.sources), text_bytes) as progress:
        result = span_checks.build_checked_result(
            manifest.sources, manifest.span_checks, configs, progress.advance, section_cache, encoded, chunk_texts=False
        )
        # The result is streamed as it is laid out, never held whole as bytes; each
        # index's saved size is recorded on the way, rather than saving it again.
        index_sizes: dict[str, int] = {}
        result_pieces = progress.writing(
            readable_pieces(saved_json_pieces(result, result["indexes"], index_sizes, encoded), destination(output)),
            destination(output),
        )
        files = [] if output is None else [(output, result_pieces)]
        if html_path is not None:
            files.append((html_path, report_pieces(result, manifest.span_checks, index_sizes, progress, text_bytes)))
        # The result and the report land together or not at all.
        write_outputs(files)
        if output is None:
            # On stdout, a character that does not print is its \u escape: the same values, inert on a terminal.
            from lab_io.inert_json import inert_json_pieces

            emit(inert_json_pieces(result_pieces), None)
    names = tuple(check.name for check in manifest.span_checks)
    lines = [summary.summary_table(result, names, index_sizes, section_cache, manifest_option(args.manifest))]
    for note in (
        summary.oversized_line(result),
        summary.chunkless_line(result),
        summary.included_line(result),
        summary.lesson_sizes_note(manifest.grammar, configs),
    ):
        if note is not None:
            lines.append(note)
    lines.extend((manifest_origin(args.manifest), f"wrote {destination(output)}"))
    if html_path is not None:
        lines.append(outputs.report_written(html_path))
    report("\n".join(lines), to_stderr=output is None)
    return EXIT_OK


def readable_pieces(pieces, where: str):
    """``pieces`` unchanged while they stay within what ``validate`` reads (``MAX_ARTIFACT_BYTES``); refused past it.

    The result is streamed, so its size is known only as it is written: the
    refusal comes mid-write, and the staged file is removed, as after any failure.
    """
    written = 0
    for piece in pieces:
        written += len(piece)
        if written > MAX_ARTIFACT_BYTES:
            raise IngestionError(
                "result_too_large",
                where,
                f"the result would pass the {MAX_ARTIFACT_BYTES:,} bytes validate, show and export read, so it is "
                "not written (a file is left as it was; on stdout the output stops here); pin fewer pages per "
                "manifest (a subfolder) or build at larger sizes",
            )
        yield piece


def report_pieces(result: dict, span_checks: tuple, index_sizes: dict[str, int], progress: Progress, text_bytes: int):
    """The self-contained HTML report of ``result`` (see ``views.report``), laid out as its file is written.

    Files are written in order, so by then the result is saved and
    ``index_sizes`` holds each index's saved size: the report's table reuses
    them instead of saving every index again. The progress line counts its pages.
    """
    from views import report as html_report

    progress.stage(
        "laying out the report", len(result["indexes"][next(iter(result["indexes"]))]["documents"]), text_bytes
    )
    page = html_report.html_report(result, span_checks, index_sizes=index_sizes, advance=progress.advance)
    yield page.encode("utf-8")


MAIN_JOB_OPTIONS = ("--manifest", "--output", "--html")


def main_job_arguments(arguments: list[str]) -> types.SimpleNamespace | None:
    """The main job's options when ``arguments`` hold ``--output`` and only the main job's options, in plain form.

    ``["--output", "r.json", "--html", "r.html"]`` -> ``namespace(manifest=None,
    output='r.json', html='r.html', handler=None)``, the attributes the parser
    gives (``handler=None`` marks the main job), without building one. Plain
    form: each option spelled out in full and followed by its value, ``-`` or
    text not starting with ``-``; an option given twice with one value is that
    value. Anything else (``--out``, ``--output=FILE``, an option given twice
    with different values, a command, ``--help``, a mistake) gives ``None``:
    the parser's to read, and to refuse as it refuses every usage error.
    """
    if not arguments or len(arguments) % 2:
        return None
    values = {"manifest": None, "output": None, "html": None}
    for option, value in zip(arguments[::2], arguments[1::2]):
        if option not in MAIN_JOB_OPTIONS or (value.startswith("-") and value != "-"):
            return None
        if values[option[2:]] not in (None, value):
            return None
        values[option[2:]] = value
    if values["output"] is None:
        return None
    return types.SimpleNamespace(**values, handler=None)


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv``; every refusal becomes one stderr line and an exit code."""
    # Text that cannot be encoded for this terminal is shown escaped, never a traceback.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    arguments = sys.argv[1:] if argv is None else list(argv)
    # A run in the same process before this one (the tests run many) leaves no note behind.
    basics.PENDING_NOTES.clear()
    try:
        # Every command reports on stdout: with it closed, refuse before writing anything anywhere.
        outputs.require_stdout()
        # Most runs are the main job, whose plain command line needs no parser built at all.
        args = main_job_arguments(arguments)
        handler = run_build
        if args is None:
            # Any other command line: the parsers and the other commands live in commands.parser.
            from commands import parser

            args = parser.parsed_command_line(arguments)
            if args is None:
                return EXIT_USAGE
            if args.handler is not None:
                handler = parser.current_handler(args)
        exit_code = handler(args)
        outputs.write_stdout(b"")
        basics.flush_pending_notes()
        return exit_code
    except UsageError as error:
        print(basics.with_pending_note(f"error: {error}", sought_by(error)), file=sys.stderr)
        return EXIT_USAGE
    except IngestionError as error:
        print(basics.with_pending_note(f"error: {error}", sought_by(error)), file=sys.stderr)
        return EXIT_REFUSED
    except (KeyboardInterrupt, outputs.Interrupted) as interruption:
        number = getattr(interruption, "signal_number", signal.SIGINT)
        name = interruption.name if isinstance(interruption, outputs.Interrupted) else "SIGINT"
        print(
            f"error: interrupted: run.py: stopped by {name}; every output file is whole or as it was", file=sys.stderr
        )
        return EXIT_SIGNAL_BASE + number
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly.
        silence_stdout()
        return EXIT_OK
    except OSError as error:
        # Files are read and written through functions that turn their
        # OSErrors into one-line refusals naming the file; one that escapes
        # them is still one line, never a traceback. Without a file name it is
        # a stream failing outside the write path (argparse printing --help).
        if error.filename is None:
            print(f"error: output_unwritable: stdout: {one_line(error.strerror or str(error))}", file=sys.stderr)
            return EXIT_USAGE
        where = printable(os.fsdecode(error.filename))
        line = f"error: file_error: {where}: {one_line(error.strerror or str(error))}"
        print(basics.with_pending_note(line), file=sys.stderr)
        return EXIT_REFUSED


def sought_by(error: IngestionError) -> tuple[str, str] | None:
    """What a refusal looked for in the manifest (``IngestionError.sought``), its own or that of the refusal it
    rephrases (raised ``from`` it): a run file's result refused as a chunk record is, with its place."""
    seen = set()
    # A refusal can be its own cause: scan raises what outputs.naming_lab_file hands back `from` the error it was given,
    # often that error itself. Each is looked at once.
    while isinstance(error, IngestionError) and id(error) not in seen:
        seen.add(id(error))
        if getattr(error, "sought", None) is not None:
            return error.sought
        error = error.__cause__
    return None


def silence_stdout() -> None:
    """Point stdout at the null device so Python's exit-time flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        pass
