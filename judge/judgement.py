"""The located chunks judged like a fourth index: sections, coverage, span checks and context figures.

``judge_chunks`` reads, places and judges a chunk file against a manifest;
what a person reads of the result is in ``report``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import chunk_index
import grammars
from checks import context_windows, span_checks
from checks.context_windows import non_whitespace
from judge.chunk_files import ChunkRecord, read_chunk_records
from judge.placement import STATES, Location, locate_chunks
from lab_io.errors import IngestionError, printable
from lab_io.outputs import naming_lab_file
from lab_io.progress import source_bytes
from load_documents import read_file_text

# How many judged chunks may hold one character of a source. Overlapping
# splitters hold each character in two or three chunks; a file far deeper
# than this would make every pair's context search look at every holder of
# its instruction times every chunk near its qualifier, so it is refused up front.
MAX_OVERLAP_DEPTH = 64


class SectionFinder:
    """The sections of one source under a grammar: which holds an offset, which a span lies in.

    A section runs from its heading to the next section's heading; an offset
    before the first non-blank section (a title heading with a blank body)
    belongs to that first section, whose text it leads into. A page with
    nothing under its headings (a stub of headings, a lone setext heading,
    only ``- - -`` lines) has no section under any grammar, so the lab cuts
    no chunk there; a judged chunk on it lies in one section spanning the
    page, named by the source's title, its id made as a section's at offset 0.
    """

    def __init__(self, source: dict, grammar: str, section_cache: dict | None = None) -> None:
        document = chunk_index.document_record(source)
        revision = document["document_revision"]
        sections = chunk_index.document_sections_once(document, grammar, section_cache)
        heads = [(section.heading_start, section.title) for section in sections] or [(0, source["title"])]
        self.starts = [start for start, _ in heads]
        self.labels = [
            (chunk_index.digest({"document_revision": revision, "heading_start": start}), title)
            for start, title in heads
        ]

    def place(self, offset: int) -> int:
        return max(bisect_right(self.starts, offset) - 1, 0)

    def __call__(self, offset: int) -> tuple[str, str]:
        """``(section_id, section_title)`` of the section holding ``offset``."""
        return self.labels[self.place(offset)]

    def breaks_between(self, start: int, end: int) -> list[int]:
        """Where each section after the first that ``[start, end)`` lies in begins (none when it lies in one)."""
        first = self.place(start)
        last = self.place(max(start, end - 1))
        return self.starts[first + 1 : last + 1]

    def sections_between(self, start: int, end: int) -> list[str]:
        """The ids of every section ``[start, end)`` lies in, in order (a judged chunk may cross a heading)."""
        first = self.place(start)
        last = self.place(max(start, end - 1))
        if first == last:
            return [self.labels[first][0]]
        return [self.labels[position][0] for position in range(first, last + 1)]


def section_finder(source: dict, grammar: str, section_cache: dict | None = None) -> SectionFinder:
    """A function from an offset of ``source`` to ``(section_id, section_title)`` of the section holding it.

    ``section_cache`` (``chunk_index.document_sections_once``) shares one reading of the
    sections with the build of the lab's indexes.
    """
    return SectionFinder(source, grammar, section_cache)


class SectionFinders:
    """Each source's ``SectionFinder``, made on first need and kept, by source id.

    The judged chunks' sections and their pairs' sections are read off the
    same finders: a source's section ids are made once.
    """

    def __init__(self, sources: tuple[dict, ...], grammar: str, section_cache: dict | None = None) -> None:
        self.sources = {source["source_id"]: source for source in sources}
        self.grammar = grammar
        self.section_cache = section_cache
        self.finders: dict[str, SectionFinder] = {}

    def __getitem__(self, source_id: str) -> SectionFinder:
        if source_id not in self.finders:
            self.finders[source_id] = section_finder(self.sources[source_id], self.grammar, self.section_cache)
        return self.finders[source_id]


def pair_sections(
    sources: tuple[dict, ...], grammar: str, section_cache: dict | None = None, finders: SectionFinders | None = None
):
    """``section_of(source_id, offset)`` -> the id of the section holding it, each source's sections found once.

    What ``context_windows`` takes to bound a pair's "within the section"
    window by the section of the pair, not of the chunk that holds it.
    ``finders`` (``SectionFinders``), when given, are the judged chunks' own
    (``section_cache`` is then theirs): each source's section ids are made once.
    """
    if finders is None:
        finders = SectionFinders(sources, grammar, section_cache)

    def section_of(source_id: str, offset: int) -> str:
        return finders[source_id](offset)[0]

    return section_of


def judged_chunks(
    locations: tuple[Location, ...],
    sources: tuple[dict, ...],
    grammar: str,
    section_cache: dict | None = None,
    finders: SectionFinders | None = None,
) -> list[dict]:
    """The located chunks as chunk dicts the lab's views and checks take, by source then offset.

    ``order`` counts from 0 within each source in offset order (ties by file
    line), like the lab's own chunks; ``line`` is the record's line in the file.
    ``finders`` as in ``pair_sections`` (``section_cache`` is then theirs).
    """
    if finders is None:
        finders = SectionFinders(sources, grammar, section_cache)
    texts = {source["source_id"]: source for source in sources}
    newlines: dict[str, list[int]] = {}
    chunks = []
    for location in sorted(
        (location for location in locations if location.located),
        key=lambda location: (location.record.source_id, location.start, location.end, location.record.line),
    ):
        source_id = location.record.source_id
        finder = finders[source_id]
        if source_id not in newlines:
            newlines[source_id] = chunk_index.newline_offsets(texts[source_id]["text"])
        section_id, title = finder(location.start)
        previous = chunks[-1] if chunks and chunks[-1]["source_id"] == source_id else None
        chunks.append(
            {
                "source_id": source_id,
                "order": 0 if previous is None else previous["order"] + 1,
                "start": location.start,
                "end": location.end,
                # text.count("\n", 0, offset) + 1, by bisection rather than a scan per chunk.
                "start_line": bisect_left(newlines[source_id], location.start) + 1,
                "end_line": bisect_left(newlines[source_id], location.end - 1) + 1,
                "section_id": section_id,
                "section_title": title,
                # Every section the chunk lies in: a chunk that starts before a heading reaches the next one.
                "section_ids": finder.sections_between(location.start, location.end),
                # ... and where each of them after the first begins: which section holds an offset of the chunk.
                "section_breaks": finder.breaks_between(location.start, location.end),
                "line": location.record.line,
                "state": location.state,
            }
        )
    return chunks


# --- coverage ----------------------------------------------------------------------


def depth_stretches(text_length: int, spans: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """``(start, end, depth)``: the text cut where the number of spans holding it changes.

    ``depth_stretches(10, [(2, 6), (4, 8)])`` ->
    ``[(0, 2, 0), (2, 4, 1), (4, 6, 2), (6, 8, 1), (8, 10, 0)]``.
    """
    changes: dict[int, int] = {}
    for start, end in spans:
        changes[start] = changes.get(start, 0) + 1
        changes[end] = changes.get(end, 0) - 1
    stretches = []
    depth = 0
    position = 0
    for offset in sorted(changes):
        if offset > position:
            stretches.append((position, offset, depth))
        depth += changes[offset]
        position = max(position, offset)
    if position < text_length:
        stretches.append((position, text_length, depth))
    return stretches


def require_bounded_overlap(chunks: list[dict], where: str) -> None:
    """Refuse judged chunks of which more than ``MAX_OVERLAP_DEPTH`` hold one character of a source."""
    by_source: dict[str, list[tuple[int, int]]] = {}
    for chunk in chunks:
        by_source.setdefault(chunk["source_id"], []).append((chunk["start"], chunk["end"]))
    for source_id, spans in by_source.items():
        deepest = max(depth_stretches(0, spans), key=lambda stretch: stretch[2], default=(0, 0, 0))
        if deepest[2] > MAX_OVERLAP_DEPTH:
            raise IngestionError(
                "judge_overlap_too_deep",
                where,
                f"{deepest[2]:,} chunks hold offset {deepest[0]:,} of {printable(source_id)}; at most "
                f"{MAX_OVERLAP_DEPTH} may hold one character (a sliding window of stride 1/{MAX_OVERLAP_DEPTH} "
                "of its width, or the same chunk repeated)",
            )


def source_coverage(text: str, spans: list[tuple[int, int]], counted: tuple[int, int | None] = (0, None)) -> dict:
    """How much of ``text``'s non-whitespace no span holds (``uncovered_chars``) and two or more hold (``overlap_chars``).

    Whitespace is left out on purpose: splitters strip it at chunk edges, so
    counting blank lines would report losses no reader notices; a dropped
    heading or a lost sentence counts in full. ``counted``: where the counted
    text starts (after the front matter the grammar reads, which no page
    renders and pipelines drop, so a chunker that drops it loses nothing) and
    its count of non-whitespace characters, when already known.
    """
    counted_from, total = counted
    uncovered = 0
    overlap = 0
    # One sweep by start: `held` is where the chunks so far reach, `doubled` where two of them
    # do; a gap before a start is uncovered, a stretch below `held` held twice (counted once).
    held = counted_from
    doubled = counted_from
    for start, end in sorted(spans):
        start = max(start, counted_from)
        if start >= end:
            continue
        if start > held:
            uncovered += non_whitespace(text, held, start)
        twice_end = min(end, held)
        twice_start = max(start, doubled)
        if twice_start < twice_end:
            overlap += non_whitespace(text, twice_start, twice_end)
            doubled = twice_end
        held = max(held, end)
    if held < len(text):
        uncovered += non_whitespace(text, held, len(text))
    return {
        "non_whitespace_chars": non_whitespace(text, counted_from, len(text)) if total is None else total,
        "uncovered_chars": uncovered,
        "overlap_chars": overlap,
    }


def coverage(sources: tuple[dict, ...], chunks: list[dict], counted: dict[str, tuple[int, int]] | None = None) -> dict:
    """Per source (by ``source_id``) and in total, the coverage of ``chunks``.

    ``counted``: each source's ``(start, count)`` as ``source_coverage`` takes it, worked out once for every row
    (``counted_text``); a source it leaves out is counted whole.
    """
    counted = counted or {}
    spans: dict[str, list[tuple[int, int]]] = {source["source_id"]: [] for source in sources}
    for chunk in chunks:
        spans[chunk["source_id"]].append((chunk["start"], chunk["end"]))
    per_source = [
        {
            "source_id": source["source_id"],
            **source_coverage(source["text"], spans[source["source_id"]], counted.get(source["source_id"], (0, None))),
        }
        for source in sources
    ]
    total = {
        key: sum(entry[key] for entry in per_source)
        for key in ("non_whitespace_chars", "uncovered_chars", "overlap_chars")
    }
    return {"sources": per_source, "total": total}


def counted_text(sources: tuple[dict, ...], grammar: str) -> dict[str, tuple[int, int]]:
    """Each source's counted text for coverage: where it starts (after the front matter a block grammar reads; the
    lesson's grammar reads none) and its non-whitespace characters."""
    counted = {}
    for source in sources:
        text = source["text"]
        start = grammars.front_matter_end_under(text, source["source_id"], grammar)
        counted[source["source_id"]] = (start, non_whitespace(text, start, len(text)))
    return counted


# --- span checks -------------------------------------------------------------------


class SpanHolders:
    """The chunks of one source that hold a span: those starting at or before it that reach its end."""

    def __init__(self, chunks: list[dict]) -> None:
        self.chunks = sorted(chunks, key=lambda chunk: (chunk["start"], chunk["order"]))
        self.starts = [chunk["start"] for chunk in self.chunks]
        self.ends = span_checks.ReachingSpans([(chunk["start"], chunk["end"]) for chunk in self.chunks])

    def holding(self, start: int, end: int) -> list[dict]:
        positions = self.ends.reaching(bisect_right(self.starts, start), end - 1)
        return [self.chunks[position] for position in positions]


def pair_verdicts(
    chunks: list[dict],
    checks: tuple,
    unlocated: dict[str, int],
    judged: bool = False,
    carried: dict[int, str] | None = None,
) -> list[dict]:
    """Each span check under one index: the chunks (orders) holding the instruction, and the verdict.

    ``partial`` is true when the pair's source has chunks that were not
    located: one of them might hold both spans, so a split is not certain.
    ``carried`` (judged chunks' ``ChunkRecord.carried`` by line) credits a
    split pair as ``caveat_carried`` when a chunk holding its instruction, or
    if none holds it whole the chunk where it starts (where ``context``
    anchors it), carries the qualifier's text, whitespace aside.
    ``caveat_at_instruction_start``: no chunk holds the instruction whole, and
    the chunk where it starts holds the qualifier (context's k = 0 counts it;
    ``export --carry-caveats`` carries nothing there).
    A lab chunk holds a span exactly, as the main job compares; a ``judged``
    chunk when it holds every non-whitespace character of it
    (``context_windows.held_span``), so "same chunk" agrees with context's k = 0.
    """
    paired = {check.source_id for check in checks}
    by_source: dict[str, list[dict]] = {}
    for chunk in chunks:
        if chunk["source_id"] in paired:
            by_source.setdefault(chunk["source_id"], []).append(chunk)
    holders = {source_id: SpanHolders(source_chunks) for source_id, source_chunks in by_source.items()}
    verdicts = []
    for check in checks:
        finder = holders.get(check.source_id) or SpanHolders([])
        instruction = finder.holding(*context_windows.held_span(check.instruction, judged))
        qualifier_start, qualifier_end = context_windows.held_span(check.qualifier, judged)
        kept = any(span_checks.chunk_holds(chunk, qualifier_start, qualifier_end) for chunk in instruction)
        caveat_carried = False
        at_start = False
        if not kept:
            anchors = instruction or finder.holding(
                instruction_start(check, judged), instruction_start(check, judged) + 1
            )
            if carried:
                wanted = " ".join(check.qualifier.quote.split())
                caveat_carried = any(wanted in carried.get(chunk["line"], "") for chunk in anchors)
            if not instruction and not caveat_carried:
                # No chunk holds the instruction whole: where it starts (context's anchor) may hold the caveat. (Of
                # chunks that overlap there, export may carry it to another: then it is carried, counted once.)
                at_start = any(span_checks.chunk_holds(chunk, qualifier_start, qualifier_end) for chunk in anchors)
        missing = unlocated.get(check.source_id, 0)
        verdicts.append(
            {
                "name": check.name,
                "source_id": check.source_id,
                "instruction_span": check.instruction.as_list(),
                "qualifier_span": check.qualifier.as_list(),
                "instruction_chunk_orders": [chunk["order"] for chunk in instruction],
                "instruction_and_qualifier_share_chunk": kept,
                "caveat_carried": caveat_carried,
                "caveat_at_instruction_start": at_start,
                "partial": missing > 0 and not kept and not caveat_carried and not at_start,
            }
        )
    return verdicts


def instruction_start(check, judged: bool) -> int:
    """Where the instruction starts as a chunk must hold it (``context_windows.held_span``)."""
    return context_windows.held_span(check.instruction, judged)[0]


# --- context figures ------------------------------------------------------------------


def context_figures(name: str, chunks: list[dict], checks: tuple, section_of=None) -> dict:
    """``context_windows.policy_context`` for one index: the lab's or the judged one, the same figures.

    ``section_of`` (``pair_sections``) is given for judged chunks: one may start
    before the heading of the section its pair lies in. Every figure is a
    pair's, made of the chunks of the pair's source, so only those are passed.
    """
    paired = {check.source_id for check in checks}
    chunks = [chunk for chunk in chunks if chunk["source_id"] in paired]
    return context_windows.policy_context(name, chunks, checks, section_of)


def context_text(rows: list[dict], complete: bool = True, pair_lines: bool = True) -> str:
    """The context table of ``context_windows`` over every row, names made printable.

    A judged row with unlocated chunks is named ``NAME (partial)`` there too. ``pair_lines``: with each pair's
    smallest windows (the first 20), which the HTML report's pairs table holds for every pair instead.
    """
    figures = [row["context"] for row in rows]
    shown = [
        {**entry, "policy": printable(entry["policy"]) + ("" if complete or row["kind"] == "lab" else " (partial)")}
        for entry, row in zip(figures, rows)
    ]
    names = [pair["name"] for pair in rows[0]["pairs"]] if pair_lines else []
    return context_windows.context_table(shown, names)


# --- the judgement -------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """Everything ``judge`` reports: the locations, the judged chunks, and each index's figures."""

    name: str
    file: str
    shape: str
    locations: tuple[Location, ...]
    chunks: list[dict]
    rows: list[dict]
    indexes: dict
    # Each source's pinned revision (``document_revision``), to tell an exported record of an older one.
    revisions: dict = field(default_factory=dict)

    # Each is a pass over every location, asked for by several lines of the report: counted once.
    @cached_property
    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(STATES, 0)
        for location in self.locations:
            counts[location.state] += 1
        return counts

    @cached_property
    def unlocated(self) -> dict[str, int]:
        return unlocated_counts(self.locations)

    @cached_property
    def complete(self) -> bool:
        return all(location.located for location in self.locations)


def unlocated_counts(locations: tuple[Location, ...]) -> dict[str, int]:
    """How many chunks of each source were not located (ambiguous or not found)."""
    missing: dict[str, int] = {}
    for location in locations:
        if not location.located:
            missing[location.record.source_id] = missing.get(location.record.source_id, 0) + 1
    return missing


def index_row(
    name: str,
    kind: str,
    chunks: list[dict],
    sources: tuple,
    checks: tuple,
    unlocated: dict,
    section_of=None,
    counted: dict[str, tuple[int, int]] | None = None,
    carried: dict[int, str] | None = None,
) -> dict:
    """One row of the judge's table: chunk count, mean and largest length, coverage, pair verdicts, context figures.

    ``counted`` as in ``coverage``; ``carried`` as in ``pair_verdicts``.
    """
    verdicts = pair_verdicts(chunks, checks, unlocated, judged=kind == "judged", carried=carried)
    lengths = [chunk["end"] - chunk["start"] for chunk in chunks]
    return {
        "policy": name,
        "kind": kind,
        "chunk_count": len(chunks),
        "mean_chars": round(sum(lengths) / len(chunks), 1) if chunks else 0.0,
        "largest_chars": max(lengths, default=0),
        "coverage": coverage(sources, chunks, counted),
        "pairs_kept_together": sum(verdict["instruction_and_qualifier_share_chunk"] for verdict in verdicts),
        "pairs_carried": sum(verdict["caveat_carried"] for verdict in verdicts),
        "pairs_at_instruction_start": sum(verdict["caveat_at_instruction_start"] for verdict in verdicts),
        "pairs": verdicts,
        "context": context_figures(name, chunks, checks, section_of),
    }


def judge_chunks(
    chunks_path: Path,
    manifest,
    name: str | None = None,
    manifest_label: str = "the manifest",
    whole_indexes: bool = True,
    progress=None,
) -> Judgement:
    """Read, locate and judge the chunk file at ``chunks_path`` against ``manifest``'s sources and checks.

    The lab's rows use the manifest's own grammar and sizes, as the main job
    does. ``manifest_label`` (``manifest_label()``) names it in a refusal.
    ``whole_indexes=False`` keeps only outlines of the lab's chunks
    (``chunk_index.build_outlines``) in ``Judgement.indexes``: the rows need no
    more, a view that shows the chunks does. ``progress``, a ``lab_io.progress.Progress``,
    counts the documents of the lab's build.
    Each source's file is read again (verified against its pin) for its text
    as a splitter reading it saw it: byte order mark and ``\\r\\n`` kept.
    """
    chunks_path = Path(chunks_path)
    # As the build does: a judgement makes no reference cycles, but each pass of the cyclic
    # collector would walk every record and chunk made so far (about a sixth of a large run).
    with chunk_index.collector_paused():
        return judged_file(chunks_path, manifest, name, manifest_label, whole_indexes, progress)


def splitter_texts(manifest, manifest_label: str = "the manifest") -> dict[str, str]:
    """How a splitter reading the pinned files saw them: each source's file text (``load_documents.read_file_text``:
    byte order mark and ``\\r`` kept) where it differs from the lab's text, by source id, for ``locate_chunks``."""
    file_texts = {}
    for source in manifest.sources:
        file_text = read_file_text(
            manifest.folder, source, f"{manifest_label}: source {printable(source['source_id'])}", manifest.grammar
        )
        if file_text != source["text"]:
            file_texts[source["source_id"]] = file_text
    return file_texts


def placed_chunk_file(
    chunks_path: Path, manifest, manifest_label: str = "the manifest"
) -> tuple[tuple[ChunkRecord, ...], tuple[Location, ...]]:
    """The chunk file at ``chunks_path`` read and every record placed in the pinned sources, as ``judge`` does.

    ``(records, locations)``, both in file order. What another command that
    takes a chunk file (``retrieve --chunks``) calls to place it exactly so.
    """
    file_texts = splitter_texts(manifest, manifest_label)
    try:
        records = read_chunk_records(chunks_path, manifest.sources, manifest.folder, manifest_label)
    except IngestionError as error:
        # An export is chunks, and a saved result is named by the reader itself, once it is not over a bound.
        raise naming_lab_file(
            error, Path(chunks_path), "chunks", frozenset({"export"}), named=frozenset({"result"})
        ) from error
    return records, locate_chunks(records, manifest.sources, file_texts)


def judged_file(
    chunks_path: Path, manifest, name: str | None, manifest_label: str, whole_indexes: bool = True, progress=None
) -> Judgement:
    """``judge_chunks`` with the collector paused."""
    grammar = manifest.grammar
    records, locations = placed_chunk_file(chunks_path, manifest, manifest_label)
    # The judged chunks' sections are read first, and the lab's build takes them from here.
    section_cache: dict = {}
    finders = SectionFinders(manifest.sources, grammar, section_cache)
    judged = judged_chunks(locations, manifest.sources, grammar, finders=finders)
    require_bounded_overlap(judged, printable(str(chunks_path)))
    label = name if name is not None else chunks_path.name
    missing = unlocated_counts(locations)
    configs = chunk_index.manifest_policy_configs(manifest)
    advance = None
    if progress is not None:
        progress.stage("cutting the lab's chunks", len(manifest.sources), source_bytes(manifest.sources))
        advance = progress.advance
    if whole_indexes:
        indexes = chunk_index.build_indexes(manifest.sources, configs, advance, section_cache)
    else:
        indexes = chunk_index.build_outlines(configs, manifest.sources, advance, section_cache)
    counted = counted_text(manifest.sources, grammar)
    rows = [
        index_row(policy, "lab", index["chunks"], manifest.sources, manifest.span_checks, {}, None, counted)
        for policy, index in indexes.items()
    ]
    section_of = pair_sections(manifest.sources, grammar, finders=finders)
    carried = {record.line: record.carried for record in records if record.carried is not None}
    rows.append(
        index_row(
            label, "judged", judged, manifest.sources, manifest.span_checks, missing, section_of, counted, carried
        )
    )
    revisions = {
        source["source_id"]: chunk_index.document_record(source)["document_revision"] for source in manifest.sources
    }
    return Judgement(label, printable(str(chunks_path)), records[0].shape, locations, judged, rows, indexes, revisions)
