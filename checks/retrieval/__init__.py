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
from lab_io.errors import IngestionError

RETRIEVE_VERSION = 1
# Postings one index's ranking may walk at most, counted before it starts: a
# query walks each of its tokens' postings once at worst (about 0.1 µs each).
MAX_WALK = 400_000_000
MAX_DEPTH = 10_000


def measured(
    checks: tuple, indexes: dict, chunks: RankedIndex | None, run, depth: int, where: str, progress=None
) -> dict:
    """Every index's figures and every pair's ranks, as the JSON ``retrieve --json`` prints (docs/retrieval.md).

    ``indexes``: the lab's, by policy name, as the main job builds them;
    ``chunks``: another chunker's, or ``None``; ``run``: a ``judged.Run`` or
    ``None``. Each index's BM25 postings are built, used and let go before the next's. ``progress``
    (``lab_io.progress.Progress``), if given, counts the pairs ranked, index by index.
    """
    rows = []
    by_pair: list[dict] = [{} for _ in checks]
    queries = [check_query(check) for check in checks]

    def add_row(name: str, kind: str, chunk_count: int | None, returned_lists, judged: bool) -> None:
        pairs = []
        for place, (check, returned) in enumerate(zip(checks, returned_lists)):
            ranks = pair_ranks(check, returned, judged)
            by_pair[place][name] = {key: ranks.ranks[key] for key in RANK_KEYS}
            pairs.append(ranks)
        rows.append(index_figures(name, kind, chunk_count, pairs))

    def ranked_lists(index: RankedIndex):
        for query in queries:
            returned = index.retrieve(query, depth)
            if progress is not None:
                progress.advance(1, 0)
            yield returned

    def add_ranked(index: RankedIndex) -> None:
        require_bounded_walk(index, queries, where)
        if progress is not None:
            # The stage's clock starts once the index is built: its time left is the ranking's alone (counted from
            # before the build, the first pair's share held the build, and the line said minutes for seconds).
            progress.stage(f"ranking {index.name}'s chunks", len(queries), 0, unit="pairs")
        add_row(index.name, index.kind, len(index.units), ranked_lists(index), index.judged)

    for name, index in indexes.items():
        add_ranked(lab_ranked_index(name, index["chunks"]))
    if chunks is not None:
        add_ranked(chunks)
    if run is not None:
        add_row(run.name, "run", None, (run.results[check.name] for check in checks), True)
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
