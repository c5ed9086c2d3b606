"""Another chunker's chunks and a user's own retriever's results, read and placed as ``judge`` reads and places them.

``--chunks FILE`` is a chunk file ``judge`` reads (``judge.read_chunk_records``,
placed by ``judge.locate_chunks``): its records become an index ranked by the
baseline beside the lab's, in index order by source id, then line of the file.
A record ``judge`` cannot place (ambiguous, not found) stays in the index, as
a vector store holds it: it can be returned and covers nothing.

``--run FILE`` holds one JSON line per span check, ``{"check": NAME,
"results": [RECORD, ...]}``, each record a chunk record as ``judge`` reads it,
best first. Each result is placed on its own, as ``judge`` places a file
holding that one chunk: a retriever's results are ranked, not in the order a
splitter emits them, so no result's place depends on another's. A result
placed at the very span of one of the ``--chunks`` file's chunks has that
chunk's neighbours as its window; without ``--chunks`` a run's windows are unknown.

This module reads the two files; it writes none.
"""

from __future__ import annotations

import json
from pathlib import Path

import judge
from checks.retrieval.ranks import RankedIndex, Returned, Unit, window_neighbours
from judge.chunk_files import chunk_record, is_lab_artifact
from lab_io.errors import IngestionError, counted, json_type, printable, quoted_name
from lab_io.outputs import naming_lab_file
from lab_io.strict_json import json_text, parse_json_text, read_bounded

RUN_KEYS = frozenset({"check", "results"})
# A retriever's top k for one query; far past any k a reader is handed.
MAX_RUN_RESULTS = 10_000


def chunks_ranked_index(path: Path, manifest, manifest_label: str, name: str | None = None) -> tuple[RankedIndex, int]:
    """The chunk file at ``path`` read and placed as ``judge`` does, as an index in index order, named ``name``
    (``retrieve --name``) or ``chunks:FILE``; and how many of its records carry caveats in their metadata, which
    the index ranks and places by their text alone (``chunks_note`` says so)."""
    records, locations = judge.placed_chunk_file(path, manifest, manifest_label)
    carrying = sum(record.carried is not None for record in records)
    located = {chunk["line"]: chunk for chunk in judge.judged_chunks(locations, manifest.sources, manifest.grammar)}
    placed = sorted(zip(records, locations), key=lambda pair: (pair[0].source_id, pair[0].line))
    units = []
    chunks = []
    for record, location in placed:
        units.append(Unit(record.source_id, location.start, location.end, record.text))
        chunks.append(located.get(record.line))
    places = [place for place, chunk in enumerate(chunks) if chunk is not None]
    index = RankedIndex(name or f"chunks:{path.name}", "chunks", units, window_neighbours(chunks, places), judged=True)
    return index, carrying


class Run:
    """A run file's results by check name, each a list of ``Returned`` best first; how many were not placed."""

    def __init__(self, name: str, results: dict[str, list[Returned]], result_count: int, unplaced: int) -> None:
        self.name = name
        self.results = results
        self.result_count = result_count
        self.unplaced = unplaced


RUN_NOT_ARTIFACT = (
    "this is a result or index the lab saved, not a run: --run reads your own retriever's results, one JSON "
    "object per line (docs/retrieval.md shows the shape); --chunks takes your own chunks"
)


RESULT_NOT_ID = (
    "a result is the chunk returned, a record as judge reads one (its source and text, docs/retrieval.md), "
    "not its id"
)


def read_run(path: Path, manifest, manifest_label: str, chunks: RankedIndex | None = None) -> Run:
    """The run file at ``path``: one line per span check, every result placed alone; one refusal names ``FILE:LINE``."""
    label = printable(str(path))
    try:
        raw = read_bounded(path, judge.MAX_CHUNKS_BYTES, label)
    except IngestionError as error:
        # A saved result over the bound is named here, as the line reader names a smaller one.
        raise naming_lab_file(error, path, "a run", named=frozenset({"result"})) from error
    text = json_text(raw, label)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise IngestionError("run_empty", label, "the file holds no lines; a run gives one line per span check")
    checks = {check.name for check in manifest.span_checks}
    resolver = judge.SourceResolver(manifest.sources, manifest.folder, manifest_label)
    # Offsets and text as the retriever's splitter saw each file, as judge reads them.
    file_texts = judge.splitter_texts(manifest, manifest_label)
    sources = {source["source_id"]: source for source in manifest.sources}
    spans = {} if chunks is None else chunk_spans(chunks)
    placements: dict[tuple, tuple[int | None, int | None]] = {}
    results: dict[str, list[Returned]] = {}
    seen: dict[str, int] = {}
    count = 0
    unplaced = 0
    for number, line in enumerate(lines, start=1):
        where = f"{label}:{number}"
        try:
            name, values = run_line(line, where, checks, seen)
        except IngestionError as error:
            if error.code == "json_syntax" and is_lab_artifact(text):
                # Valid JSON, only not a run: the parser's complaint about line 1 would mislead.
                raise IngestionError(error.code, where, RUN_NOT_ARTIFACT) from error
            if number == 1:
                # An export (chunks, for --chunks), a manifest or a command's report given as the run.
                raise naming_lab_file(error, path, "a run", frozenset({"result"})) from error
            raise
        seen[name] = number
        returned = []
        for place, value in enumerate(values):
            try:
                record = chunk_record(value, number, f"{where}: results[{place}]", resolver)
            except IngestionError as error:
                if error.code == "chunk_not_object" and type(value) in (str, int, float):
                    # A vector store's answer is often its chunks' ids: a result needs the chunk itself.
                    raise IngestionError(error.code, error.where, f"{error.what}; {RESULT_NOT_ID}") from error
                raise
            start, end = placed_alone(record, sources[record.source_id], placements, file_texts)
            unit = Unit(record.source_id, start, end, record.text)
            unplaced += start is None
            returned.append(run_returned(unit, (number, place), chunks, spans))
        count += len(returned)
        results[name] = returned
    missing = [check.name for check in manifest.span_checks if check.name not in results]
    if missing:
        more = f" and {len(missing) - 1:,} more" if len(missing) > 1 else ""
        raise IngestionError(
            "run_check_missing",
            label,
            f"no line for span check {quoted_name(missing[0])}{more}; a run gives one line per span check",
        )
    return Run(f"run:{path.name}", results, count, unplaced)


def run_line(line: str, where: str, checks: set[str], seen: dict[str, int]) -> tuple[str, list]:
    """One line of a run file, checked: ``(check name, the results' JSON values)``."""
    if not line.strip():
        raise IngestionError("run_blank_line", where, "blank line; a run file holds one JSON object per line")
    try:
        value = parse_json_text(line, where)
    except IngestionError as error:
        cause = error.__cause__
        if isinstance(cause, json.JSONDecodeError):
            # The reader places the error at LINE:COLUMN of the one line it was given.
            raise IngestionError(error.code, where, f"column {cause.colno}: {error.what}") from error
        raise
    if type(value) is not dict:
        raise IngestionError(
            "run_not_object",
            where,
            f'expected a JSON object {{"check": NAME, "results": [...]}}, found {json_type(value)}',
        )
    if set(value) != RUN_KEYS:
        raise IngestionError(
            "run_fields", where, f"expected exactly check and results, found {', '.join(sorted(value)) or 'nothing'}"
        )
    name, values = value["check"], value["results"]
    if type(name) is not str or name not in checks:
        raise IngestionError("run_check_unknown", where, f"check {quoted_name(name)} is no span check of the manifest")
    if name in seen:
        raise IngestionError(
            "run_check_twice", where, f"check {quoted_name(name)} was given at line {seen[name]} already"
        )
    if type(values) is not list:
        raise IngestionError("run_results_not_list", where, f"results must be a list, found {json_type(values)}")
    if len(values) > MAX_RUN_RESULTS:
        raise IngestionError("run_too_many_results", where, f"{len(values):,} results; at most {MAX_RUN_RESULTS:,}")
    return name, values


def placed_alone(
    record, source: dict, placements: dict, file_texts: dict | None = None
) -> tuple[int | None, int | None]:
    """Where ``judge`` places ``record`` as a file's only chunk: ``(start, end)``, or ``(None, None)``.

    That place depends on the record's source, text and offsets alone, so a
    result the run repeats is placed once.
    """
    key = (record.source_id, record.text, record.start, record.end)
    if key not in placements:
        location = judge.locate_chunks((record,), (source,), file_texts)[0]
        placements[key] = (location.start, location.end) if location.located else (None, None)
    return placements[key]


def chunk_spans(chunks: RankedIndex) -> dict[tuple[str, int, int], int]:
    """The first position of each placed span of ``chunks``: ``(source_id, start, end)`` -> position."""
    spans = {}
    for position, unit in enumerate(chunks.units):
        if unit.start is not None:
            spans.setdefault((unit.source_id, unit.start, unit.end), position)
    return spans


def run_returned(unit: Unit, identity: tuple, chunks: RankedIndex | None, spans: dict) -> Returned:
    """A run's result with its window: the neighbours of the ``--chunks`` chunk at its span, if any."""
    if chunks is None:
        return Returned(unit, None)
    position = spans.get((unit.source_id, unit.start, unit.end)) if unit.start is not None else None
    if position is None:
        return Returned(unit, (((identity,), unit),))
    return Returned(unit, ((position, unit), *chunks.returned(position).window[1:]))


def chunks_note(chunks: RankedIndex, carrying: int = 0) -> str:
    """``"chunks:c.jsonl: 40 chunks, 2 not placed (ranked; they cover nothing)"``, and what ``carrying`` records'
    carried caveats count for here: nothing, as ``judge`` would count them (docs/retrieval.md)."""
    unplaced = sum(unit.start is None for unit in chunks.units)
    note = f"{printable(chunks.name)}: {counted(len(chunks.units), 'chunk')}"
    if unplaced:
        note += f", {unplaced:,} not placed in their source (ranked; they cover nothing)"
    if carrying:
        # An export --carry-caveats ranks as the same export without them: said, so the row is not read as theirs.
        note += (
            f"; {carrying:,} of them carry caveats in metadata.carried_caveats_text, which retrieve does not read: "
            "each is ranked and covers by its text alone (judge credits them)"
        )
    return note


def run_note(run: Run, chunks: RankedIndex | None) -> str:
    """What the run held, how many results were not placed, and where its windows come from."""
    note = f"{printable(run.name)}: {counted(run.result_count, 'result')} for {counted(len(run.results), 'check')}"
    if run.unplaced:
        note += f", {run.unplaced:,} not placed in their source (they cover nothing)"
    if chunks is None:
        return note + "; windows unknown (n/a): give --chunks, the chunks the run retrieved from"
    return note + f"; windows from {printable(chunks.name)}"
