"""Judge another chunker's output: locate its chunks in the pinned text, then check them like the lab's own.

A user's pipeline (LangChain, LlamaIndex, chonkie or their own splitter)
writes its chunks as JSON Lines. This module reads that file strictly,
matches each record to a pinned source, and locates every chunk in the
source's normalized text, saying how it found it:

    exact_offset       the record's own offset holds its text exactly
    exact_order        its text, verbatim, first found after the previous chunk of its source (reaching past it)
    exact_unique       its text, verbatim, found once in the source (not after the previous chunk)
    modulo_whitespace  found once whitespace (and, failing that, heading lines) is set aside
    ambiguous          occurs more than once and the order cannot pick one: not located
    not_found          occurs nowhere, even modulo whitespace: not located

A wrong offset is reported with what the source holds there, and never
trusted. The located chunks are then judged like a fourth index: the
manifest's span checks, coverage (source text no chunk holds, text two
chunks hold) and the context figures of ``context_windows``. A partial
judgement is never shown as a whole one: unlocated chunks are counted, and
a pair's verdict in a source with unlocated chunks is marked partial.

It never imports the pipeline that wrote the chunks, and writes no files
(``run.py`` does the I/O). Costs are linear in the file, the chunks and the
source text: each source's whitespace-free copy is built once, on demand.

The work is split by step: ``chunk_files`` (reading the file), ``placement``
(locating records in the sources), ``judgement`` (the judged chunks as an
index: sections, coverage, verdicts, context) and ``report`` (text and JSON).
The names other modules use are re-exported here.
"""

from judge.chunk_files import (
    LANGCHAIN_NOT_FOUND,
    MAX_CHUNK_LINES,
    MAX_CHUNKS_BYTES,
    SHAPE_NAMES,
    SHAPES,
    ChunkRecord,
    SourceResolver,
    manifest_label,
    read_chunk_records,
)
from judge.judgement import (
    MAX_OVERLAP_DEPTH,
    Judgement,
    SectionFinder,
    SpanHolders,
    context_text,
    coverage,
    depth_stretches,
    judge_chunks,
    judged_chunks,
    pair_sections,
    placed_chunk_file,
    section_finder,
    splitter_texts,
)
from judge.placement import LOCATED_STATES, STATE_WORDS, STATES, Location, SourceLocator, SquashedText, locate_chunks
from judge.report import (
    COVERAGE_NOTE,
    JUDGE_VERSION,
    LISTED_LINES,
    NUMERIC,
    first_difference,
    judgement_json,
    judgement_json_text,
    judgement_text,
    kept_cell,
    listed,
    located_line,
    location_sentence,
    offset_sentence,
    pair_lines,
    stale_records_line,
    table_rows,
)

__all__ = [
    "COVERAGE_NOTE",
    "ChunkRecord",
    "JUDGE_VERSION",
    "Judgement",
    "LANGCHAIN_NOT_FOUND",
    "LISTED_LINES",
    "LOCATED_STATES",
    "Location",
    "MAX_CHUNKS_BYTES",
    "MAX_CHUNK_LINES",
    "MAX_OVERLAP_DEPTH",
    "NUMERIC",
    "SHAPES",
    "SHAPE_NAMES",
    "STATES",
    "STATE_WORDS",
    "SectionFinder",
    "SourceLocator",
    "SourceResolver",
    "SpanHolders",
    "SquashedText",
    "context_text",
    "coverage",
    "depth_stretches",
    "first_difference",
    "judge_chunks",
    "judged_chunks",
    "judgement_json",
    "judgement_json_text",
    "judgement_text",
    "kept_cell",
    "listed",
    "locate_chunks",
    "located_line",
    "location_sentence",
    "manifest_label",
    "offset_sentence",
    "pair_lines",
    "pair_sections",
    "placed_chunk_file",
    "read_chunk_records",
    "section_finder",
    "splitter_texts",
    "stale_records_line",
    "table_rows",
]
