"""Would a retriever return the caveat? Retrieval measured, not assumed: ``run.py retrieve``.

For every span check, each index's chunks of the whole manifest are ranked for
the check's query (its ``query``, else its instruction's text) by an exactly
defined lexical baseline (``bm25``), and ``ranks`` says where the instruction
and the caveat come back, alone and with ``context``'s windows. Another
chunker's chunks and a user's own retriever's results are read and placed as
``judge`` does (``judged``) and measured by the same rule. Definitions:
docs/retrieval.md. ``report`` draws the table and the JSON.

The work is bounded before it starts: ``MAX_WALK`` postings per index at most
(``walk_bound``), refused up front, so a run's cost is known from its size.
"""

from __future__ import annotations

from checks.retrieval.bm25 import K1, B, query_tokens
from checks.retrieval.ranks import (
    DEPTH,
    RANK_KEYS,
    RECALL_KS,
    RankedIndex,
    check_query,
    index_figures,
    lab_ranked_index,
    pair_ranks,
)
from lab_io import workers
from lab_io.errors import IngestionError

RETRIEVE_VERSION = 1
# Postings one index's ranking may walk at most, counted before it starts: a
# query walks each of its tokens' postings once at worst (about 0.1 µs each).
MAX_WALK = 400_000_000
MAX_DEPTH = 10_000


def measured(
    checks: tuple,
    indexes: dict,
    chunks: RankedIndex | None,
    run,
    depth: int,
    where: str,
    progress=None,
    jobs: int | None = None,
) -> dict:
    """Every index's figures and every pair's ranks, as the JSON ``retrieve --json`` prints (docs/retrieval.md).

    ``indexes``: the lab's, by policy name, as the main job builds them;
    ``chunks``: another chunker's, or ``None``; ``run``: a ``judged.Run`` or
    ``None``. Each index's BM25 postings are built, used and let go before the next's. ``progress``
    (``lab_io.progress.Progress``), if given, counts the pairs ranked, index by index. ``jobs``: the processes
    that rank an index's queries (``ranked_pairs``).
    """
    rows = []
    by_pair: list[dict] = [{} for _ in checks]
    queries = [check_query(check) for check in checks]

    def add_row(name: str, kind: str, chunk_count: int | None, pairs: list) -> None:
        for place, ranks in enumerate(pairs):
            by_pair[place][name] = {key: ranks.ranks[key] for key in RANK_KEYS}
        rows.append(index_figures(name, kind, chunk_count, pairs))

    def add_ranked(index: RankedIndex) -> None:
        require_bounded_walk(index, queries, where)
        if progress is not None:
            # The stage's clock starts once the index is built: its time left is the ranking's alone (counted from
            # before the build, the first pair's share held the build, and the line said minutes for seconds).
            progress.stage(f"ranking {index.name}'s chunks", len(queries), 0, unit="pairs")
        add_row(index.name, index.kind, len(index.units), ranked_pairs(index, checks, queries, depth, progress, jobs))

    for name, index in indexes.items():
        add_ranked(lab_ranked_index(name, index["chunks"]))
    if chunks is not None:
        add_ranked(chunks)
    if run is not None:
        add_row(run.name, "run", None, [pair_ranks(check, run.results[check.name], True) for check in checks])
    return {
        "retrieve_version": RETRIEVE_VERSION,
        "baseline": {"tokens": r"\w+ of the casefolded text", "k1": K1, "b": B, "depth": depth},
        "ks": list(RECALL_KS),
        "policies": rows,
        "pairs": [
            {"name": check.name, "query": query, "policies": ranks}
            for check, query, ranks in zip(checks, queries, by_pair)
        ],
    }


def ranked_pairs(index: RankedIndex, checks, queries: list[str], depth: int, progress=None, jobs=None) -> list:
    """Each check's ranks in ``index`` (``pair_ranks`` of what the baseline returns for its query), in check order.

    The queries are ranked one after the other, each on its own (a query's answer is a function of the index and the
    query alone), so where the index's text is large enough they are shared among worker processes as a scan's pages
    are (``lab_io.workers``: one per CPU and per MB of text; ``jobs`` sets the number, 1 is this process), which
    start with the index built and send back only the ranks: the same figures for any number of processes.
    """
    count = workers.worker_count(jobs, sum(len(unit.text) for unit in index.units))
    places = list(range(len(checks)))
    pieces = workers.batches(places, [1] * len(places), count) if count > 1 else []
    if len(pieces) < 2:
        pairs = []
        for check, query in zip(checks, queries):
            pairs.append(pair_ranks(check, index.retrieve(query, depth), index.judged))
            if progress is not None:
                progress.advance(1, 0)
        return pairs
    pairs = []
    for piece, answers in zip(pieces, workers.mapped(ranked_batch, pieces, count, index, checks, queries, depth)):
        pairs.extend(answers)
        if progress is not None:
            progress.advance(len(piece), 0)
    return pairs


def ranked_batch(places: list[int], index: RankedIndex, checks, queries: list[str], depth: int) -> list:
    """A worker's share of ``ranked_pairs``: the ranks of the checks at ``places``."""
    return [pair_ranks(checks[place], index.retrieve(queries[place], depth), index.judged) for place in places]


def require_bounded_walk(index: RankedIndex, queries: list[str], where: str) -> None:
    """Refuse, before ranking, an index whose queries could walk more than ``MAX_WALK`` postings."""
    walk = sum(index.lexical.walk_bound(query_tokens(query)) for query in queries)
    if walk > MAX_WALK:
        raise IngestionError(
            "retrieval_too_large",
            where,
            f"ranking {index.name}'s {len(index.units):,} chunks for {len(queries):,} queries could walk {walk:,} "
            f"postings, more than {MAX_WALK:,}; measure part of the docs set in a manifest of its own",
        )


__all__ = ["DEPTH", "MAX_DEPTH", "MAX_WALK", "RETRIEVE_VERSION", "measured", "require_bounded_walk"]
