"""``run.py retrieve``: would a retriever return the caveat? Ranks and recall by an exactly defined baseline."""

from __future__ import annotations

import argparse
from pathlib import Path

from commands.basics import EXIT_OK, manifest_to_build, report
from commands.indexes import collector_skips_what_exists, manifest_indexes
from commands.options import add_command, add_jobs_option, add_manifest_option
from lab_io.errors import UsageError, counted
from lab_io.inert_json import printed_json_bytes
from lab_io.outputs import emit
from lab_io.progress import Progress, source_bytes
from load_documents import load_manifest

RETRIEVE_DESCRIPTION = """\
For every span check, rank each policy's chunks of the whole manifest (all
sources together, as a vector store holds them) for the check's query, its
"query" or else its instruction's text, by a lexical baseline defined exactly
(BM25, k1 = 1.2, b = 0.75, on \\w+ tokens of the casefolded text), and report
where the instruction and the caveat come back: the smallest k at which the
first k chunks cover each span, alone and with one neighbour on each side of
every returned chunk within its section (context's window k = 1); per policy,
recall of the caveat and of both spans at k = 1, 3, 5 and 10 and the mean
characters the first k hold. --chunks ranks another chunker's chunks beside
the lab's; --run judges your own retriever's results by the same rule. Writes
nothing. Definitions and formats: docs/retrieval.md.
"""


def depth_argument(value: str) -> int:
    """``--depth``: a whole number from 10 (the largest k reported) to ``MAX_DEPTH``."""
    from checks.retrieval import MAX_DEPTH

    if not value.isdecimal() or not 10 <= int(value) <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(f"expected a whole number from 10 to {MAX_DEPTH:,}, found {value!r}")
    return int(value)


def register(commands: argparse._SubParsersAction) -> None:
    """``retrieve [--manifest M] [--chunks FILE] [--run FILE] [--depth N] [--json]``."""
    retrieve = add_command(
        commands,
        "retrieve",
        "would a retriever return the caveat? ranks and recall by a lexical baseline",
        RETRIEVE_DESCRIPTION,
        "python run.py retrieve --manifest docs-lab/manifest.json\n"
        "python run.py retrieve --manifest docs-lab/manifest.json --chunks chunks.jsonl --run run.jsonl --json",
    )
    add_manifest_option(retrieve)
    add_jobs_option(
        retrieve,
        "rank each index's queries in N processes, 1 to 64 (1: in this one); by default, on Linux and the other "
        "Unixes, one per CPU and per MB of the index's text (two at least), and none under 1 MB; the figures are the "
        "same for any N",
    )
    retrieve.add_argument(
        "--chunks",
        dest="retrieve_chunks",
        metavar="FILE",
        help="also rank this JSON Lines file of another chunker's chunks (read and placed as judge reads them)",
    )
    retrieve.add_argument(
        "--name",
        dest="chunks_name",
        metavar="NAME",
        help="the --chunks row's name (default: chunks:FILE), as judge --name names it; not blank, nor a policy's",
    )
    retrieve.add_argument(
        "--run",
        metavar="FILE",
        help='also judge your own retriever\'s results: one JSON line per span check, {"check": NAME, '
        '"results": [chunk records as judge reads them, best first]}; windows come from --chunks when given',
    )
    retrieve.add_argument(
        "--depth",
        type=depth_argument,
        default=None,
        metavar="N",
        help="how many chunks the baseline returns per query (default 100); a span not covered by them has no rank",
    )
    retrieve.add_argument(
        "--json", action="store_true", help="print every policy's figures and every pair's ranks as JSON"
    )
    retrieve.set_defaults(handler=run_retrieve)


def run_retrieve(args: argparse.Namespace) -> int:
    """Rank every policy's chunks (and the files given) for every span check; print the figures."""
    import checks.retrieval as retrieval
    from checks.retrieval.report import retrieval_table

    if args.chunks_name is not None:
        if args.retrieve_chunks is None:
            raise UsageError("usage", "retrieve", "--name names the row of --chunks FILE; give --chunks too")
        from commands.judge import require_own_name

        require_own_name(args.chunks_name, Path(args.retrieve_chunks))
    manifest_path = manifest_to_build(args.manifest)
    manifest = load_manifest(manifest_path)
    depth = retrieval.DEPTH if args.depth is None else args.depth
    chunks = run = None
    notes = []
    if args.retrieve_chunks is not None or args.run is not None:
        import judge
        from checks.retrieval import judged

        label = judge.manifest_label(args.manifest)
        if args.retrieve_chunks is not None:
            chunks, carrying = judged.chunks_ranked_index(Path(args.retrieve_chunks), manifest, label, args.chunks_name)
            notes.append(judged.chunks_note(chunks, carrying))
        if args.run is not None:
            run = judged.read_run(Path(args.run), manifest, label, chunks)
            notes.append(judged.run_note(run, chunks))
    with Progress("building indexes", len(manifest.sources), source_bytes(manifest.sources)) as progress:
        indexes = manifest_indexes(manifest, progress.advance)
        with collector_skips_what_exists():
            document = retrieval.measured(
                manifest.span_checks, indexes, chunks, run, depth, str(manifest_path), progress, args.jobs
            )
    unasked = sum(check.query is None for check in manifest.span_checks)
    if unasked:
        # The instruction's own words find the chunk that holds them: a rank of 1 there measures little.
        notes.append(
            f"{unasked:,} of {counted(len(manifest.span_checks), 'span check')} "
            f"{'has' if unasked == 1 else 'have'} no \"query\": the baseline asks each with "
            "its instruction's own text, which the chunk holding it usually matches best; a check's \"query\", worded "
            "as your users ask, is the truer test (docs/retrieval.md)"
        )
    if args.json:
        emit(printed_json_bytes(document), None)
    else:
        report(retrieval_table(document, notes))
    return EXIT_OK
