"""``run.py judge CHUNKS``: another chunker's chunks located in the pinned sources and judged beside the lab's."""

from __future__ import annotations

import argparse
from pathlib import Path

import chunk_index
from commands.basics import EXIT_OK, manifest_to_build, report
from commands.options import add_command, add_manifest_option
from lab_io import outputs
from lab_io.errors import UsageError, printable, quoted_name
from lab_io.inert_json import inert_json_text
from lab_io.outputs import checked_report, emit, write_outputs
from lab_io.progress import Progress, source_bytes
from load_documents import load_manifest

JUDGE_DESCRIPTION = """\
Read CHUNKS, a JSON Lines file of chunks your own pipeline wrote (plain
records, LangChain documents, LlamaIndex nodes, chonkie chunks or the upsert
records of export; see docs/judge.md for a snippet per library), match each
chunk to a pinned source by id or path, and locate it in the source text, its
text and offsets read as the splitter saw the file (a byte order mark and
CRLF line ends mapped to the lab's text): at its own offset when that holds
its text in order, else by order, else as a unique occurrence, else modulo
whitespace. Chunks of one source come in order: each starts at or after the
previous one's start and ends at or past its end (a sliding window's last
window ends where the one before ends). A wrong offset is reported,
never trusted; a chunk that is ambiguous or not
found is counted and left out, and verdicts it could change are marked
partial. Then the chunks are judged beside the manifest's policies: the
manifest's span checks, coverage (non-whitespace text no chunk holds, and text
two chunks hold) and the context figures of the context command (how many
neighbouring chunks bring a split qualifier back, and at what cost). A split
pair whose qualifier a chunk holding its instruction carries in
metadata.carried_caveats_text (export --carry-caveats) is counted as carried.
"""


def register(commands: argparse._SubParsersAction) -> None:
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
    judge.add_argument(
        "--name", help="the judged chunker's row name in the table (default: the file name); not blank, nor a policy's"
    )
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


def require_own_name(name: str | None, chunks_path: Path) -> None:
    """Refuse a judged row's name (``--name``, else the file's) that is blank or reads as a policy's: two rows would
    share it.

    The table, each pair's verdicts and the report's columns tell the rows
    apart by name alone, so ``--name paragraph`` would read as the lab's own.
    """
    import unicodedata

    from views.summary import SIZE_WORDS

    label = name if name is not None else chunks_path.name
    where = "--name" if name is not None else printable(str(chunks_path))
    if not label.strip():
        raise UsageError("judge_name", where, "the judged chunks' name is blank; give --name NAME")
    # As the rows show it: a policy's name with a space after it, in capitals, with another dash (or a minus sign)
    # for its hyphen, or as its row is labelled ("fixed-char (width 1,000)") reads as the lab's own row too;
    # "paragraph (v2)" does not.
    shown = "".join(
        "-" if unicodedata.category(character) == "Pd" or character == "\u2212" else character for character in label
    )
    shown = " ".join(shown.split()).casefold()
    if any(
        shown == policy or (policy in SIZE_WORDS and shown.startswith(f"{policy} ({SIZE_WORDS[policy]} "))
        for policy in chunk_index.POLICY_NAMES
    ):
        raise UsageError(
            "judge_name",
            where,
            f"{quoted_name(label)} names one of the lab's policies; give the judged chunks --name NAME",
        )


def run_judge(args: argparse.Namespace) -> int:
    """Locate another chunker's chunks in the pinned sources and judge them beside the lab's policies."""
    import judge

    manifest_path = manifest_to_build(args.manifest)
    chunks_path = Path(args.chunks)
    require_own_name(args.name, chunks_path)
    html_path = None
    if args.judge_html is not None:
        # Refused before any work: the report may not overwrite an input.
        checked_report(args.judge_html, None, (chunks_path, *outputs.manifest_files(manifest_path)), before_inputs=True)
    manifest = load_manifest(manifest_path)
    if args.judge_html is not None:
        html_path = checked_report(
            args.judge_html, None, (chunks_path, *outputs.manifest_files(manifest_path, manifest))
        )
    # The table and the JSON ask only where the lab's chunks lie; the report shows them whole.
    with Progress("judging") as progress:
        judgement = judge.judge_chunks(
            chunks_path,
            manifest,
            args.name,
            judge.manifest_label(args.manifest),
            whole_indexes=html_path is not None,
            progress=progress,
        )
    if html_path is not None:
        from views import report as html_report

        with Progress("laying out the report", len(manifest.sources), source_bytes(manifest.sources)) as progress:
            page = html_report.judge_html_report(
                manifest.sources,
                manifest.span_checks,
                judgement,
                judge.pair_sections(manifest.sources, manifest.grammar),
                advance=progress.advance,
            )
        write_outputs([(html_path, page.encode("utf-8"))])
    if args.json:
        emit(inert_json_text(judge.judgement_json_text(judgement)).encode("utf-8"), None)
    else:
        from commands.main_job import manifest_option

        report(judge.judgement_text(judgement, manifest_option(args.manifest)))
    if html_path is not None:
        report(outputs.report_written(html_path), to_stderr=args.json)
    return EXIT_OK
