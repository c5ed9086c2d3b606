"""Where the instruction and the caveat come back: ranks per pair, recall and characters per index.

An index to rank is a list of retrieval units in index order (``RankedIndex``):
the lab's chunks of one policy, or another chunker's records, of every source
of the manifest together, as a vector store holds them. For a span check, a
retrieval returns a list of units best first (the BM25 baseline's, or a
user's own retriever's, read from a run file), and:

- a rank is the smallest k at which the units returned first, k of them,
  together cover the span (``None`` when the whole list does not): the lab's
  own chunks cover it exactly, another chunker's every non-whitespace
  character of it, as ``context`` and ``judge`` count (``SpanCover``);
- with windows (w = 1), each returned unit brings its neighbours, the units
  just before and after it in its source that lie in a section with it, as
  ``context`` windows are drawn (its k = 1 within the section);
- the characters the first k hold: the sum of their texts' lengths; with
  windows, of every distinct unit the k windows hold.

It reads no files and writes none.
"""

from __future__ import annotations

from typing import NamedTuple

from checks.context_windows import SpanCover, chunk_sections
from checks.retrieval.bm25 import LexicalIndex, query_tokens

RECALL_KS = (1, 3, 5, 10)
DEPTH = 100
RANK_KEYS = ("instruction_rank", "caveat_rank", "instruction_rank_w1", "caveat_rank_w1")


class Unit(NamedTuple):
    """One retrieval unit: where it lies in its source (``start`` ``None``: not located, covers nothing), its text."""

    source_id: str
    start: int | None
    end: int | None
    text: str


class Returned(NamedTuple):
    """One unit a retrieval returned, and its window: ``(identity, unit)`` pairs, itself first; ``None`` if unknown.

    The identity tells the same unit apart when two windows both hold it.
    """

    unit: Unit
    window: tuple[tuple[object, Unit], ...] | None


class RankedIndex:
    """An index ranked by the baseline: its units in index order, each one's window neighbours, and BM25 over them."""

    def __init__(self, name: str, kind: str, units: list[Unit], neighbours: list[tuple[int, ...]], judged: bool):
        self.name = name
        self.kind = kind
        self.units = units
        self.neighbours = neighbours
        self.judged = judged
        self.lexical = LexicalIndex([unit.text for unit in units])

    def returned(self, position: int) -> Returned:
        window = ((position, self.units[position]),)
        window += tuple((other, self.units[other]) for other in self.neighbours[position])
        return Returned(self.units[position], window)

    def retrieve(self, query: str, depth: int) -> list[Returned]:
        return [self.returned(position) for position in self.lexical.ranked(query_tokens(query), depth)]


def lab_ranked_index(name: str, chunks: list[dict]) -> RankedIndex:
    """One policy's chunks in index order (source id, then chunk order), each with its neighbours in its section."""
    ordered = sorted(chunks, key=lambda chunk: (chunk["source_id"], chunk["order"]))
    units = [Unit(chunk["source_id"], chunk["start"], chunk["end"], chunk["text"]) for chunk in ordered]
    return RankedIndex(name, "lab", units, window_neighbours(ordered, list(range(len(ordered)))), judged=False)


def window_neighbours(chunks: list[dict | None], places: list[int]) -> list[tuple[int, ...]]:
    """For each unit, the places of the chunks just before and after its chunk in ``order``, sharing a section.

    ``chunks[i]`` is the chunk of unit ``i`` (``None`` for a unit that is not
    located, which has no neighbours); ``places[j]`` is the unit of the
    ``j``-th located chunk. ``[a, b, c]`` of one section -> ``[(1,), (0, 2), (1,)]``.
    """
    by_order = {}
    for place in places:
        chunk = chunks[place]
        by_order[(chunk["source_id"], chunk["order"])] = place
    neighbours = []
    for chunk in chunks:
        if chunk is None:
            neighbours.append(())
            continue
        sections = set(chunk_sections(chunk))
        found = []
        for step in (-1, 1):
            other = by_order.get((chunk["source_id"], chunk["order"] + step))
            if other is not None and sections.intersection(chunk_sections(chunks[other])):
                found.append(other)
        neighbours.append(tuple(found))
    return neighbours


def check_query(check) -> str:
    """What a check asks a retriever: its own ``query``, else its instruction's text."""
    return check.query if check.query is not None else check.instruction.quote


def covering_rank(span, source_id: str, steps, judged: bool) -> int | None:
    """The first step (1-based) after which the units of ``steps`` so far cover ``span``; ``None`` if they never do."""
    cover = SpanCover(span, judged)
    for rank, units in enumerate(steps, start=1):
        for unit in units:
            if unit.start is not None and unit.source_id == source_id:
                cover.add(unit.start, unit.end)
        if cover.whole:
            return rank
    return None


class PairRanks(NamedTuple):
    """One check under one index: its four ranks and the characters the first k hold, by ``RECALL_KS``."""

    ranks: dict
    characters: tuple[int, ...]
    window_characters: tuple[int, ...] | None


def pair_ranks(check, returned: list[Returned], judged: bool) -> PairRanks:
    """The ranks of ``check``'s two spans in ``returned`` (best first), alone and with windows, and the characters."""
    alone = [(item.unit,) for item in returned]
    windows_known = all(item.window is not None for item in returned)
    ranks = {
        "instruction_rank": covering_rank(check.instruction, check.source_id, alone, judged),
        "caveat_rank": covering_rank(check.qualifier, check.source_id, alone, judged),
        "instruction_rank_w1": None,
        "caveat_rank_w1": None,
    }
    window_characters = None
    if windows_known:
        windows = [[unit for _, unit in item.window] for item in returned]
        ranks["instruction_rank_w1"] = covering_rank(check.instruction, check.source_id, windows, judged)
        ranks["caveat_rank_w1"] = covering_rank(check.qualifier, check.source_id, windows, judged)
        window_characters = tuple(held_characters(returned[:k]) for k in RECALL_KS)
    characters = tuple(sum(len(item.unit.text) for item in returned[:k]) for k in RECALL_KS)
    return PairRanks(ranks, characters, window_characters)


def held_characters(returned: list[Returned]) -> int:
    """The characters of every distinct unit the windows of ``returned`` hold."""
    held = {}
    for item in returned:
        for identity, unit in item.window:
            held[identity] = len(unit.text)
    return sum(held.values())


def within(rank: int | None, k: int) -> bool:
    return rank is not None and rank <= k


def both_rank(ranks: dict, suffix: str = "") -> int | None:
    """The rank at which both spans are covered: the later of the two."""
    first, second = ranks[f"instruction_rank{suffix}"], ranks[f"caveat_rank{suffix}"]
    return None if first is None or second is None else max(first, second)


def index_figures(name: str, kind: str, chunk_count: int, pairs: list[PairRanks]) -> dict:
    """One index's figures over every pair: recall of the caveat and of both spans, and the mean characters, by k.

    Recall is the share of all pairs; with windows it is ``None`` when the
    windows are unknown (a run without the chunks it retrieved from).
    """
    count = len(pairs)
    windows_known = all(pair.window_characters is not None for pair in pairs)

    def recall(rank_of) -> dict:
        return {str(k): share(sum(within(rank_of(pair.ranks), k) for pair in pairs), count) for k in RECALL_KS}

    def mean(values) -> dict:
        return {
            str(k): round(sum(value[place] for value in values) / count, 1) if count else 0.0
            for place, k in enumerate(RECALL_KS)
        }

    figures = {
        "policy": name,
        "kind": kind,
        "chunks": chunk_count,
        "pairs": count,
        "recall": {
            "caveat": {"w0": recall(lambda ranks: ranks["caveat_rank"]), "w1": None},
            "both": {"w0": recall(both_rank), "w1": None},
        },
        "mean_chars": {"w0": mean([pair.characters for pair in pairs]), "w1": None},
    }
    if windows_known:
        figures["recall"]["caveat"]["w1"] = recall(lambda ranks: ranks["caveat_rank_w1"])
        figures["recall"]["both"]["w1"] = recall(lambda ranks: both_rank(ranks, "_w1"))
        figures["mean_chars"]["w1"] = mean([pair.window_characters for pair in pairs])
    return figures


def share(count: int, total: int) -> float:
    return round(count / total, 4) if total else 0.0
