"""The comparison as a person reads it: per policy, what it costs and which pairs it keeps.

The main job prints this table after writing the result; ``show`` and the HTML
report reuse its rows. Per policy: the chunk count, the mean chunk length in
characters and the largest chunk's, the index's size saved as JSON against
the UTF-8 bytes of its sources, and how many declared pairs share a chunk;
then one line per pair, and what a pair-aware index left split and why.
It reads no files and writes none.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import namedtuple
from collections.abc import Callable
from itertools import compress
from operator import itemgetter, sub

import chunk_index
from checks import span_checks
from grammars import LESSON_GRAMMAR
from lab_io.errors import LISTED_ENTRIES, counted, first_few, printable
from lab_io.indented_json import saved_json_bytes


class StorageGrowth(
    namedtuple(
        "StorageGrowth", ("chunk_count", "mean_chunk_chars", "index_bytes", "source_bytes", "largest_chunk_chars")
    )
):
    """What one policy's index costs: chunks, mean and largest chunk length, saved size against the source."""

    __slots__ = ()

    @property
    def ratio(self) -> float:
        return self.index_bytes / self.source_bytes


def serialized_size(value: object) -> int:
    """UTF-8 bytes of ``value`` saved as the lab saves JSON (``indent=2``, one trailing newline)."""
    return len(saved_json_bytes(value))


def saved_index_sizes(result_bytes: bytes) -> dict[str, int]:
    """Each index's ``serialized_size``, measured inside the saved result instead of saving it again.

    In the result an index sits two levels deep (``indexes`` -> policy), so
    every newline inside it is followed by four more spaces than when it is
    saved alone (a JSON string never holds a raw newline), and it has no
    trailing newline: its own size is its slice's length, less four per
    newline, plus one. ``{}`` when the bytes are not laid out as the lab saves
    a result; callers then serialize.
    """
    indexes_key = result_bytes.find(b'\n  "indexes": {')
    closing = b"\n  }\n}\n"
    if indexes_key == -1 or not result_bytes.endswith(closing):
        return {}
    openings = []
    for name in chunk_index.POLICY_NAMES:
        # A key at this indent can only be an index's: a JSON string never holds a raw newline.
        key = b"\n    " + json.dumps(name).encode("utf-8") + b": "
        position = result_bytes.find(key, indexes_key)
        if position == -1 and name in chunk_index.DEFAULT_POLICY_NAMES:
            return {}
        if position != -1:
            openings.append((name, position + len(key)))
    sizes = {}
    for number, (name, start) in enumerate(openings):
        if number + 1 < len(openings):
            next_key = result_bytes.rfind(b"\n", start, openings[number + 1][1])
            end = next_key - len(b",")
        else:
            end = len(result_bytes) - len(closing)
        nested = end - start
        sizes[name] = nested - 4 * result_bytes.count(b"\n", start, end) + 1
    return sizes


def storage_growth(index: dict, index_bytes: int | None = None) -> StorageGrowth:
    """Chunk count, mean chunk length in characters, and the saved index's bytes against its sources' bytes.

    The source bytes are the UTF-8 bytes of the documents' normalized texts.
    ``index_bytes``, when the caller already knows it (``saved_index_sizes``),
    spares saving the index again.
    """
    chunks = index["chunks"]
    # In C: an index holds tens of thousands of chunks.
    lengths = list(map(sub, map(itemgetter("end"), chunks), map(itemgetter("start"), chunks)))
    return StorageGrowth(
        chunk_count=len(chunks),
        mean_chunk_chars=sum(lengths) / len(chunks) if chunks else 0.0,
        index_bytes=serialized_size(index) if index_bytes is None else index_bytes,
        source_bytes=sum(len(document["text"].encode("utf-8")) for document in index["documents"]),
        largest_chunk_chars=max(lengths, default=0),
    )


def growth_sentence(growth: StorageGrowth) -> str:
    """``"8 chunks, mean 98.1 chars, index 21,345 bytes = 6.05x the 3,528 source bytes"``."""
    return (
        f"{counted(growth.chunk_count, 'chunk')}, mean {growth.mean_chunk_chars:,.1f} chars,"
        f" index {counted(growth.index_bytes, 'byte')} = {growth.ratio:.2f}x the {counted(growth.source_bytes, 'source byte')}"
    )


def no_span_checks(manifest_option: str = "") -> str:
    """The line of a result with no span check: the ``scan`` that declares pairs, for the manifest built
    (``manifest_option`` as in ``pair_verdict_lines``, ``" --manifest m.json"``), typed as printed; for the fixture's,
    which a review never writes, ``--manifest M``. The command stands in no quotes of its own: a manifest quoted for a
    shell (``--manifest 'my docs/m.json'``) inside them would paste as two broken words."""
    return (
        f"no span checks declared: run.py scan{manifest_option or ' --manifest M'} --add-checks declares the"
        " instruction/caveat pairs it finds, or add your own pairs to the manifest's span_checks"
    )


SUMMARY_HEADER = ("policy", "chunks", "mean chars", "largest", "index bytes", "x source", "pairs kept together")
NUMERIC_COLUMNS = frozenset({1, 2, 3, 4, 5})


SIZE_WORDS = {"fixed-char": "width", "heading-aware": "target", "pair-aware": "target"}


def policy_label(name: str, config: dict) -> str:
    """The policy's name, and its size when the manifest chose one other than the lesson's.

    ``policy_label("heading-aware", {..., "max_chars": 344})`` -> ``"heading-aware (target 344)"``;
    at the lesson's 220 it is ``"heading-aware"``: the views that name a policy in a verdict say it short.
    """
    size = config.get("max_chars")
    if size is None or size == chunk_index.policy_config(name)["max_chars"]:
        return name
    return f"{name} ({SIZE_WORDS[name]} {size:,})"


def sized_label(name: str, config: dict) -> str:
    """The policy's name and the size its index was built with, as the summary table names every policy.

    ``sized_label("heading-aware", {..., "max_chars": 220})`` -> ``"heading-aware (target 220)"``;
    ``sized_label("fixed-char", {..., "max_chars": 1000})`` -> ``"fixed-char (width 1,000)"``;
    paragraph has no size: ``"paragraph"``. The table never leaves a size unsaid.
    """
    size = config.get("max_chars")
    if size is None:
        return name
    return f"{name} ({SIZE_WORDS[name]} {size:,})"


def lesson_sizes_note(grammar: str, configs: dict) -> str | None:
    """One line when a block-grammar build cut its sized policies at the lesson's sizes, else ``None``.

    The lesson's 80 and 220 are sized for its two short pages; a docs set built at
    them looks as if every fixed-width cut split every pair. ``configs`` maps each
    policy name to its config (a result's ``indexes[name]["config"]``).
    """
    if grammar == LESSON_GRAMMAR:
        return None
    at_lesson = [
        f"{name} {configs[name]['max_chars']:,}"
        for name in chunk_index.PIPELINE_SIZES
        if name in configs and configs[name]["max_chars"] == chunk_index.policy_config(name)["max_chars"]
    ]
    if not at_lesson:
        return None
    pipeline = ", ".join(f"{name} {size:,}" for name, size in chunk_index.PIPELINE_SIZES.items())
    return (
        f"note: built at the lesson's sizes ({', '.join(at_lesson)}), cut for its two short pages, not a pipeline's; "
        f'set "policies" in the manifest to your pipeline\'s (pin --markdown starts a new manifest at {pipeline})'
    )


def summary_rows(result: dict, index_sizes: dict[str, int] | None = None) -> list[tuple[str, ...]]:
    """The comparison with each policy's storage figures, header first, as display strings."""
    sizes = index_sizes or {}
    rows = [SUMMARY_HEADER]
    for comparison in result["comparisons"]:
        name = comparison["strategy"]
        growth = storage_growth(result["indexes"][name], sizes.get(name))
        outcomes = span_checks.pair_outcomes(comparison)
        kept = sum(1 for _, is_kept in outcomes if is_kept)
        rows.append(
            (
                sized_label(name, result["indexes"][name]["config"]),
                f"{growth.chunk_count:,}",
                f"{growth.mean_chunk_chars:,.1f}",
                f"{growth.largest_chunk_chars:,}",
                f"{growth.index_bytes:,}",
                f"{growth.ratio:.2f}x",
                f"{kept:,} of {len(outcomes):,}",
            )
        )
    return rows


def pair_verdict_lines(result: dict, names: tuple[str, ...] = (), manifest_option: str = "") -> list[str]:
    """One line per declared pair: its name and whether each policy keeps it in one chunk.

    ``names`` labels a single-pair result, whose comparison records no name:
    ``["save-copy: fixed-char split, paragraph split, heading-aware same chunk"]``.
    ``manifest_option`` (``" --manifest m.json"``, or nothing for the fixture's) goes in the ``show`` the line after
    the first ``LISTED_VERDICTS`` names for the rest, so the command drawn is the one of the manifest built.
    """
    outcomes = {comparison["strategy"]: span_checks.pair_outcomes(comparison) for comparison in result["comparisons"]}
    first = next(iter(outcomes.values()))
    if not first:
        return [no_span_checks(manifest_option)]
    lines = []
    # A scanned docs set declares thousands of pairs; the table above counts them all, and only the first are listed.
    listed = {comparison["strategy"]: listed_spans(comparison) for comparison in result["comparisons"]}
    wanted = {source_id for spans in listed.values() for source_id, _, _ in spans if isinstance(source_id, str)}
    # Each policy's chunks of the listed pairs' pages, read once, only when a pair it does not keep asks.
    chunks: dict[str, dict] = {}
    for position, (name, _) in enumerate(first[:LISTED_VERDICTS]):
        label = name if name is not None else (names[position] if position < len(names) else "instruction + qualifier")
        verdicts = ", ".join(
            f"{policy} {'same chunk' if pairs[position][1] else pair_word(result, policy, listed[policy][position], wanted, chunks)}"
            for policy, pairs in outcomes.items()
        )
        lines.append(f"{printable(label)}: {verdicts}")
    if len(first) > LISTED_VERDICTS:
        rest = len(first) - LISTED_VERDICTS
        lines.append(
            f"… {rest:,} more {'pair' if rest == 1 else 'pairs'}: the result's comparisons hold every verdict;"
            f" run.py show{manifest_option} --split-only draws the split ones"
        )
    return lines


LISTED_VERDICTS = 20
"""The main job prints at most this many pairs' verdict lines (the table counts every pair)."""


def listed_spans(comparison: dict) -> list[tuple[str | tuple, list[int], list[int]]]:
    """``(source_id, instruction_span, qualifier_span)`` of the first ``LISTED_VERDICTS`` pairs of a comparison of
    either shape; a single-pair result names no source, and gives the ids of the chunks holding its instruction in
    its place."""
    if "pairs" in comparison:
        return [
            (pair["source_id"], pair["instruction_span"], pair["qualifier_span"])
            for pair in comparison["pairs"][:LISTED_VERDICTS]
        ]
    # The one pair's source is the one whose chunk holds its instruction (``pair_word``); none when no chunk does.
    return [
        (
            tuple(comparison["instruction_containing_chunk_ids"]),
            comparison["instruction_span"],
            comparison["qualifier_span"],
        )
    ]


def pair_word(result: dict, policy: str, spans: tuple, wanted: set, read: dict) -> str:
    """``split``, or ``apart`` when a span of a pair not kept lies in no chunk of ``policy`` (text the grammar reads
    as no block), as ``scan``, ``show`` and the report say it. ``read`` keeps each policy's chunks of the ``wanted``
    pages (``span_checks.chunks_by_source``) once they are read."""
    source_id, instruction, qualifier = spans
    index = result["indexes"].get(policy)
    if index is None:
        return "split"
    if isinstance(source_id, tuple):
        # A single-pair result names no source: the chunk holding its instruction does; with none, say no more.
        holders = {chunk["chunk_id"]: chunk["source_id"] for chunk in index["chunks"] if chunk["chunk_id"] in source_id}
        if not holders:
            return "split"
        source_id = next(iter(holders.values()))
        chunks = span_checks.chunks_by_source(index, {source_id}).get(source_id)
    else:
        if policy not in read:
            read[policy] = span_checks.chunks_by_source(index, wanted)
        chunks = read[policy].get(source_id)
    if chunks is None or chunks.any_span_outside(instruction, qualifier):
        return "apart"
    return "split"


def declared_names(result: dict, names: tuple[str, ...] = ()) -> dict[str, str]:
    """Each declared pair's name by its ``chunk_index.pair_sort_key``, as the result's comparisons declare it.

    A single-pair result records no name (or source): ``names`` gives it, and
    its one pair is found by its spans alone.
    """
    comparison = result["comparisons"][0]
    if "pairs" in comparison:
        return {chunk_index.pair_sort_key(pair): pair["name"] for pair in comparison["pairs"]}
    spans = (*comparison["instruction_span"], *comparison["qualifier_span"])
    return {("", *spans): names[0] if names else "instruction + qualifier"}


def pairs_in_one_chunk(result: dict, policy: str) -> set[tuple]:
    """The pairs one chunk of ``policy`` holds, keyed as ``declared_names`` keys them (its comparison's verdicts)."""
    for comparison in result["comparisons"]:
        if comparison["strategy"] != policy:
            continue
        if "pairs" in comparison:
            return {
                chunk_index.pair_sort_key(pair)
                for pair in comparison["pairs"]
                if pair["instruction_and_qualifier_share_chunk"]
            }
        if comparison["instruction_and_qualifier_share_chunk"]:
            return {("", *comparison["instruction_span"], *comparison["qualifier_span"])}
    return set()


def pair_key_in(key: tuple, keys: dict | set) -> bool:
    """Whether a ``pair_sort_key`` is among ``keys``, or its spans alone are (a single-pair result names no source)."""
    return key in keys or ("", *key[1:]) in keys


def placement_reason(placement: chunk_index.PairPlacement, target: int) -> str:
    """Why pair-aware leaves one pair split, in words: ``"over the cap: 1,204 chars apart, cap 880 (4 x 220)"``."""
    if placement.status == chunk_index.OVER_CAP:
        cap = chunk_index.PAIR_CAP_MULTIPLE * target
        return f"over the cap: {placement.distance:,} chars apart, cap {cap:,} ({chunk_index.PAIR_CAP_MULTIPLE} x {target:,})"
    if placement.status == chunk_index.ACROSS_HEADINGS:
        return "across headings: a heading lies between its spans"
    return "outside every section body: a span touches a heading line or front matter"


def pair_aware_lines(
    result: dict, names: tuple[str, ...] = (), section_cache: dict | None = None, manifest_option: str = ""
) -> list[str]:
    """What the result's pair-aware index keeps, and each pair it leaves split, with why (``[]`` without one).

    ``["pair-aware respects 5 of 6 pairs (both spans in one section, at most 4 x 220 = 880 chars apart);
    1 stays split:", "  scan:guide:3: across headings: a heading lies between its spans"]``.
    At most ``LISTED_VERDICTS`` pairs are listed. ``section_cache`` holds the
    sections a build read (``chunk_index.pair_placements``), so they are not read again; ``manifest_option`` as in
    ``pair_verdict_lines``.
    """
    index = result["indexes"].get(chunk_index.PAIR_AWARE)
    if index is None:
        return []
    config = index["config"]
    target = config["max_chars"]
    placements = chunk_index.pair_placements(config, index["documents"], section_cache)
    split = [placement for placement in placements if placement.status != chunk_index.KEPT]
    kept = len(placements) - len(split)
    cap = chunk_index.PAIR_CAP_MULTIPLE * target
    lines = [
        f"pair-aware respects {kept:,} of {counted(len(placements), 'pair')}"
        f" (both spans in one section, at most {chunk_index.PAIR_CAP_MULTIPLE} x {target:,} = {cap:,} chars apart)"
    ]
    together = pairs_in_one_chunk(result, chunk_index.PAIR_AWARE)
    # A pair the rule joins lies in no one chunk when a span is in none: text the grammar reads as no block (a
    # paragraph of shortcode calls alone); said here, so the line agrees with the table's count.
    absent = sum(
        placement.status == chunk_index.KEPT and not pair_key_in(chunk_index.pair_sort_key(placement.pair), together)
        for placement in placements
    )
    if absent:
        lines[0] += (
            f"; {absent:,} of them {'has' if absent == 1 else 'have'} a span in no chunk (text the grammar reads"
            " as no block), so no chunk holds both"
        )
    if not split:
        return lines
    # A pair the rule does not join can still lie in one chunk (a block longer than
    # the cap, say): it is counted apart, so the line agrees with the table's count.
    anyway = [placement for placement in split if pair_key_in(chunk_index.pair_sort_key(placement.pair), together)]
    split = [placement for placement in split if not pair_key_in(chunk_index.pair_sort_key(placement.pair), together)]
    if anyway:
        lines[0] += f"; {len(anyway):,} more, over the cap, {'lies' if len(anyway) == 1 else 'lie'} in one chunk anyway"
    if not split:
        return lines
    lines[0] += f"; {len(split):,} {'stays' if len(split) == 1 else 'stay'} split:"
    by_key = declared_names(result, names)
    for placement in split[:LISTED_VERDICTS]:
        key = chunk_index.pair_sort_key(placement.pair)
        name = by_key.get(key, by_key.get(("", *key[1:]), "instruction + qualifier"))
        lines.append(f"  {printable(name)}: {placement_reason(placement, target)}")
    if len(split) > LISTED_VERDICTS:
        rest = len(split) - LISTED_VERDICTS
        lines.append(f"  … {rest:,} more: run.py show{manifest_option} --policy pair-aware --split-only draws them")
    return lines


# A chunk over this many times its target gets counted under the table: a block the rules keep whole.
OVERSIZED_FACTOR = 2


def oversized_kept(result: dict, over: dict) -> dict:
    """For each policy of ``over`` (its target and its chunks over twice it): how many of the pairs it keeps together
    lie in one of those chunks, and how many it keeps; only the policies where some do."""
    inside = {}
    by_policy = {comparison["strategy"]: comparison for comparison in result.get("comparisons", ())}
    for policy, (_, chunks) in over.items():
        comparison = by_policy.get(result["indexes"][policy]["config"]["strategy"])
        if comparison is None:
            continue
        ids = {chunk["chunk_id"] for chunk in chunks}
        # (The lesson's single pair is the comparison itself, the spec's shape; a docs set's are its "pairs".)
        pairs = comparison["pairs"] if "pairs" in comparison else [comparison]
        kept = [pair for pair in pairs if pair["instruction_and_qualifier_share_chunk"]]
        count = sum(1 for pair in kept if ids.intersection(pair["instruction_containing_chunk_ids"]))
        if count:
            inside[policy] = (count, len(kept))
    return inside


def oversized_line(result: dict) -> str | None:
    """One line counting the chunks over twice their target and naming the largest, or ``None`` when none is.

    Only the rules that group whole blocks up to a target (heading-aware,
    pair-aware) can pass it; fixed-char never does, paragraph has none. The
    largest named is heading-aware's, where a block kept whole is the only
    reason (pair-aware also joins groups for a pair, which the line then adds),
    and the line says whose it is: ``"over twice their target: 1 chunk of
    heading-aware, 1 chunk of pair-aware; heading-aware's largest, 11,011 characters
    at target 1,000: docs/_index lines 31-300; …"``.
    """
    over = {}
    for name, index in result["indexes"].items():
        target = index["config"].get("max_chars")
        if index["config"]["strategy"] not in ("heading-aware", "pair-aware") or target is None:
            continue
        lengths = map(sub, map(itemgetter("end"), index["chunks"]), map(itemgetter("start"), index["chunks"]))
        chunks = list(compress(index["chunks"], map((OVERSIZED_FACTOR * target).__lt__, lengths)))
        if chunks:
            over[name] = (target, chunks)
    if not over:
        return None
    name, (target, chunks) = next(iter(over.items()))
    # The first of the longest, in index order.
    chunk = max(chunks, key=lambda chunk: chunk["end"] - chunk["start"])
    # Each policy's own count: two policies' chunks of the same pages are no one sum.
    counts = ", ".join(
        f"{counted(len(policy_chunks), 'chunk')} of {policy}" for policy, (_, policy_chunks) in over.items()
    )
    several = len(over) > 1 or len(chunks) > 1
    line = (
        f"over twice {'their' if several else 'its'} target: {counts}; "
        f"{name}'s largest, {chunk['end'] - chunk['start']:,} characters at target {target:,}: "
        f"{printable(chunk['source_id'])} lines {chunk['start_line']}-{chunk['end_line']}; "
        "a block (a list, a table, a fence, a container, an HTML or JSX element) is never cut, so one longer than the "
        "target is a chunk of its own"
    )
    inside = oversized_kept(result, over)
    if inside:
        # A pair kept in a chunk of 274,406 characters is kept as the whole chunk is returned, which few retrievers do.
        line += "; of the pairs kept together, " + ", ".join(
            f"{kept:,} of {policy}'s {total:,} lie in such a chunk" for policy, (kept, total) in inside.items()
        )
    if any(result["indexes"][policy]["config"]["strategy"] == "pair-aware" for policy in over):
        # Not every long pair-aware chunk is one long block: the rule joins groups for a pair too.
        line += (
            "; pair-aware also joins the groups a declared pair would be cut across (its spans at most "
            f"{chunk_index.PAIR_CAP_MULTIPLE} x the target apart), so a chunk of it can pass twice the target without "
            "a long block"
        )
    return line


def chunkless_line(result: dict) -> str | None:
    """One line counting the sources no policy cuts a chunk of, naming the first few, or ``None`` when every source
    has one.

    Under a block grammar a page of front matter, headings and elements alone holds nothing to retrieve: an API
    reference's ``<Autofunction function="streamlit.pydeck_chart" />``, whose text the site's build fills in, is
    such a page. Its caveats are in no index, and no verdict says so.
    """
    empty = chunkless_sources(result)
    if not empty:
        return None
    documents = next(iter(result["indexes"].values()))["documents"]
    return (
        f"{counted(len(empty), 'source')} of {len(documents):,} {'holds' if len(empty) == 1 else 'hold'} "
        "no chunk under "
        "any policy (headings, front matter, elements or components alone, which the grammar reads as nothing to "
        f"retrieve; a site that fills a component in at build time is not read here): "
        f"{named_sources([printable(source_id) for source_id in empty], len(documents))}"
    )


# More sources than this make a docs set: show prints its overview unless told what to draw.
OVERVIEW_SOURCES = 10
# Said after a line that names the first few of a docs set's sources: where every one is named (``show --list``).
ALL_NAMED_HINT = " (show --list names every one)"


def named_sources(names: list[str], documents: int) -> str:
    """The sources a line names: every one when the manifest is no docs set (``show`` draws every page there, no
    overview), else the first few and where every one is named."""
    if documents <= OVERVIEW_SOURCES:
        return ", ".join(names)
    return first_few(names) + (ALL_NAMED_HINT if len(names) > LISTED_ENTRIES else "")


def chunkless_sources(result: dict) -> list[str]:
    """The ids of the sources no policy of ``result`` cuts a chunk of, in the indexes' order (``chunkless_line``)."""
    indexes = list(result["indexes"].values())
    if not indexes:
        return []
    held = set()
    for index in indexes:
        held.update(map(itemgetter("source_id"), index["chunks"]))
    # Every index holds the same documents.
    return [document["source_id"] for document in indexes[0]["documents"] if document["source_id"] not in held]


def including_sources(result: dict) -> list[str]:
    """The ids of the sources that pull other files' text in where the site is built (``included_line``)."""
    indexes = list(result["indexes"].values())
    if not indexes:
        return []
    return [document["source_id"] for document in indexes[0]["documents"] if includes_text(document["text"])]


# A page that pulls another file's text in where it is built: a Hugo shortcode named for inclusion (``{{< docs/shared
# … >}}``, ``{{% include "x.md" %}}``, ``readfile``; not Grafana's ``{{< shared id="x" >}}``, which marks the page's own
# text for other pages to pull in), an mdBook include (``{{#include x.rs}}``, ``{{#rustdoc_include …}}``), a Liquid
# include (``{% include x.md %}``) or a MkDocs snippet line (``--8<-- "x.md"``).
INCLUDED_TEXT = re.compile(
    r"\{(?:\{[<%](?![ \t]*shared[ \t]+id=)[ \t]*(?:[\w.-]+/)*(?:include|readfile|shared|partial|snippet|reuse)[\w.-]*"
    r"(?=[\s>%/])"
    r"|%-?[ \t]*include(?:_relative)?[ \t])"
)
# An MDX partial: a Markdown or MDX file imported as a component, its text rendered where the page uses it: its
# default export (Docusaurus's ``import Warning from "./_warning.mdx"``, used as ``<Warning />``) or a component it
# exports by name (Mintlify's snippets: ``import { Helm } from "/snippets/helm.mdx"``, used as ``<Helm />``; a
# lowercase name too, ``import fork from "/snippets/fork.mdx"`` used as ``<fork />``).
MDX_PARTIAL_IMPORT = re.compile(
    r"import[ \t]+(?:(?P<default>[A-Za-z_]\w*)[ \t]*(?:,[ \t]*)?)?(?:\{(?P<named>[^{}\n]*)\}[ \t]*)?"
    r"(?<=[ \t}])from[ \t]+['\"][^'\"\n]+\.mdx?['\"]"
)
# A raw import: a file's text imported as a string, which the page shows where it writes it as an expression, most
# often as a code block's text (Docusaurus's ``import Source from "!!raw-loader!./rule.ts"``, or a bundler's
# ``import Types from "./types.ts?raw"``, then ``<CodeBlock language="ts">{Source}</CodeBlock>``).
RAW_IMPORT = re.compile(
    r"import[ \t]+(?P<name>[A-Za-z_$][\w$]*)[ \t]+from[ \t]+"
    r"(?P<quote>['\"])[^'\"\n]*(?:raw-loader!|\?raw(?![\w-]))[^'\"\n]*(?P=quote)"
)
# One name of an import's braces, ``Name`` or ``Name as Local``: the page uses the local name.
IMPORTED_NAME = re.compile(r"[ \t]*(?:\w+[ \t]+as[ \t]+)?(\w+)[ \t]*")


def imported_components(match: re.Match) -> list[str]:
    """The names an ``MDX_PARTIAL_IMPORT`` gives the page, its default import and each name of its braces (``{ Helm,
    vars as v }`` -> ``["Helm", "v"]``), each of them a component where the page uses it as an element (``<Helm />``;
    ``{v.url}`` is a value)."""
    names = [] if match.group("default") is None else [match.group("default")]
    for entry in (match.group("named") or "").split(","):
        name = IMPORTED_NAME.fullmatch(entry)
        if name is not None:
            names.append(name.group(1))
    return names


# An mdBook include, which mdBook fills in wherever it stands, inside a listing's fence too; one escaped with a
# backslash (``\{{#include x.rs}}``) is shown as written.
MDBOOK_INCLUDE = re.compile(r"(?<!\\)\{\{#(?:include|rustdoc_include|playground)[ \t]")
# A MkDocs snippet line, matched at a line's start: found by its literal ``8<-`` (``included_places``), since a
# pattern anchored at every line's start is tried at every character of the page (a tenth of the main job's time on
# 500 pages).
SNIPPET_LINE = re.compile(r"[ \t]*-{2,}8<-{2,}")
SNIPPET_MARK = "8<-"


FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})", re.MULTILINE)


def includes_text(text: str) -> bool:
    """Whether a page pulls another file's text in: an mdBook include anywhere (``MDBOOK_INCLUDE``), or another one
    (``included_places``) outside a fenced code block, where a page that documents the shortcode shows one:
    ``includes_text('{{< readfile "a.md" >}}')`` -> ``True``.

    A fence closes at a line of its own character at least as long as its opening, as Markdown reads it, so a
    ```` ``` ```` inside a ``~~~`` fence closes nothing.
    """
    if MDBOOK_INCLUDE.search(text) is not None:
        return True
    places = included_places(text)
    if not places:
        return False
    fenced = fenced_spans(text)
    return any(not in_spans(fenced, start) for start in places)


def mdx_partial_places(text: str) -> list[int]:
    """Where the page imports a Markdown or MDX file as a component at a line's start (``MDX_PARTIAL_IMPORT``) that
    it uses after (``<Note />``, not ``<NoteCard />``): ``import Note from "./_note.mdx"``, ``import { Note } from
    "/snippets/note.mdx"``."""
    return used_import_places(text, MDX_PARTIAL_IMPORT, imported_components, ELEMENT_USE)


def raw_import_places(text: str) -> list[int]:
    """Where the page imports a file's text as a string at a line's start (``RAW_IMPORT``) that it writes after as
    an expression of its own (``{Source}``, not ``{SourceMap}``): ``import Source from "!!raw-loader!./rule.ts"``
    then ``<CodeBlock>{Source}</CodeBlock>``."""
    return used_import_places(text, RAW_IMPORT, lambda match: [match.group("name")], EXPRESSION_USE)


def used_import_places(
    text: str, imports: re.Pattern, names_of: Callable[[re.Match], list[str]], uses: re.Pattern
) -> list[int]:
    """Where an import ``imports`` matches stands at a line's start and gives names (``names_of``) the page uses after
    it, outside a fenced code block, a use being what ``uses`` matches (its first group the name).

    The page's uses are read once, each name's last one outside a fence kept (``last_uses``), so a page of many
    imports costs one pass, not one pass of the rest of the page per import."""
    found = []
    for match in imports.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        names = names_of(match)
        if text[line_start : match.start()].strip() or not names:
            continue
        found.append((match, names))
    if not found:
        return []
    last = last_uses(text, {name for _, names in found for name in names}, uses)
    return [match.start() for match, names in found if any(last.get(name, -1) >= match.end() for name in names)]


# An element's name where the page uses it, ``<Note`` of ``<Note />``: the whole name, not a part of ``<NoteCard`` or
# ``<Note.Body``.
ELEMENT_USE = re.compile(r"<(\w+)(?![\w.-])")
# A name written as an expression of its own, ``{Source}`` (spaces inside allowed), not a part of ``{SourceMap}``.
EXPRESSION_USE = re.compile(r"\{[ \t]*([\w$]+)[ \t]*\}")


def last_uses(text: str, names: set[str], uses: re.Pattern) -> dict[str, int]:
    """Where each of ``names`` is last used, as ``uses`` finds a use (``ELEMENT_USE``, ``EXPRESSION_USE``), outside
    a fenced block (a use shown in a fence renders nothing): ``last_uses("<A />\\n<A />", {"A"}, ELEMENT_USE)`` ->
    ``{"A": 6}``; a name never so used is absent."""
    fenced = fenced_spans(text)
    last: dict[str, int] = {}
    for used in uses.finditer(text):
        name = used.group(1)
        if name in names and not in_spans(fenced, used.start()):
            last[name] = used.start()
    return last


def in_spans(spans: list[tuple[int, int]], place: int) -> bool:
    """Whether ``place`` lies in one of ``spans`` (sorted, not overlapping)."""
    index = bisect_right(spans, (place, float("inf"))) - 1
    return index >= 0 and spans[index][1] > place


def included_places(text: str) -> list[int]:
    """Where the page pulls another file's text in: an include shortcode or a Liquid include (``INCLUDED_TEXT``), an
    MDX partial it uses (``mdx_partial_places``), a raw import it shows (``raw_import_places``), or a MkDocs snippet line (``SNIPPET_LINE``, from the start of its
    line), in text order."""
    places = [match.start() for match in INCLUDED_TEXT.finditer(text)] + mdx_partial_places(text)
    places += raw_import_places(text)
    mark = text.find(SNIPPET_MARK)
    while mark != -1:
        line_start = text.rfind("\n", 0, mark) + 1
        snippet = SNIPPET_LINE.match(text, line_start)
        if snippet is not None and snippet.end() > mark:
            places.append(line_start)
        # A line is a snippet line or not once: the next mark looked for is on a later line (a line of many marks
        # is read once, not once a mark).
        line_end = text.find("\n", mark)
        mark = -1 if line_end == -1 else text.find(SNIPPET_MARK, line_end)
    return sorted(places)


def fenced_spans(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each fenced code block, in order; one never closed runs to the end of the text."""
    spans = []
    opening = None
    for fence in FENCE_LINE.finditer(text):
        marks = fence.group(1)
        if opening is None:
            opening = (fence.start(), marks[0], len(marks))
        elif marks[0] == opening[1] and len(marks) >= opening[2]:
            spans.append((opening[0], fence.end()))
            opening = None
    if opening is not None:
        spans.append((opening[0], len(text)))
    return spans


def included_line(result: dict) -> str | None:
    """One line counting the sources that pull other files' text in where the site is built (``INCLUDED_TEXT``),
    naming the first few, or ``None`` when none does: the lab reads each page as written, so the text pulled in, and
    its caveats, is in no chunk of it (k6's ``{{< docs/shared … >}}`` holds the StatsD output's removal notice)."""
    including = including_sources(result)
    if not including:
        return None
    documents = len(next(iter(result["indexes"].values()))["documents"])
    return (
        f"{counted(len(including), 'source')} {'pulls' if len(including) == 1 else 'pull'} other files' text in "
        "where the site is built (an include shortcode, an mdBook or Liquid include, an MDX partial or raw import, "
        "a snippet line): "
        "the lab reads each page as written, so that text is in none of its chunks: "
        f"{named_sources([printable(name) for name in including], documents)}"
    )


def summary_table(
    result: dict,
    names: tuple[str, ...] = (),
    index_sizes: dict[str, int] | None = None,
    section_cache: dict | None = None,
    manifest_option: str = "",
) -> str:
    """The summary rows as aligned plain text (numbers right, words left), then each pair's verdicts.

    With a pair-aware index, its kept and split pairs follow (``pair_aware_lines``); ``manifest_option`` as in
    ``pair_verdict_lines``.
    """
    lines = aligned_rows(summary_rows(result, index_sizes))
    verdicts = pair_verdict_lines(result, names, manifest_option)
    return "\n".join(lines + verdicts + pair_aware_lines(result, names, section_cache, manifest_option))


def aligned_rows(rows: list[tuple[str, ...]]) -> list[str]:
    """The summary rows as aligned lines: numbers right, words left, two spaces between columns."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(SUMMARY_HEADER))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(widths[column]) if column in NUMERIC_COLUMNS else cell.ljust(widths[column])
            for column, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines
