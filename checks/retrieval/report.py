"""``run.py retrieve`` as a person reads it: recall and characters by k, then each pair's ranks.

Drawn from the JSON document ``retrieval.measured`` returns, so the table and
``--json`` never disagree. Counts are counted from the pairs' ranks.
"""

from __future__ import annotations

from checks.context_windows import aligned
from checks.retrieval.ranks import both_rank, within
from lab_io.errors import counted, printable

LISTED_PAIRS = 20
"""The text view gives the ranks of at most this many pairs; the tables above count them all."""

NO_CHECKS = (
    "no span checks to measure: declare some in the manifest, or run `run.py scan --add-checks` to add the pairs "
    "scan finds"
)


def rank_text(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


def recall_cell(pairs: list[dict], name: str, k: int, rank_of, windows: bool) -> str:
    """``"0 (1)"``: pairs covered in the top k, alone and (in brackets) with windows; ``n/a`` when windows are unknown."""
    alone = sum(within(rank_of(pair["policies"][name], ""), k) for pair in pairs)
    if not windows:
        return f"{alone:,} (n/a)"
    with_windows = sum(within(rank_of(pair["policies"][name], "_w1"), k) for pair in pairs)
    return f"{alone:,} ({with_windows:,})"


def caveat_rank(ranks: dict, suffix: str) -> int | None:
    return ranks[f"caveat_rank{suffix}"]


def retrieval_table(document: dict, notes: list[str] = ()) -> str:
    """The recall tables, the characters, each pair's ranks and ``notes`` (what was read from files)."""
    pairs = document["pairs"]
    if not pairs:
        return NO_CHECKS
    rows = document["policies"]
    ks = document["ks"]
    depth = document["baseline"]["depth"]
    labels = [f"k={k}" for k in ks]
    lines = [
        f"BM25 over each index's chunks of the whole manifest, the first {depth:,} per query (docs/retrieval.md)",
        "in brackets, w=1: every chunk returned with its neighbours, one on each side in its section",
        "",
        "caveat in the top k: pairs whose caveat the first k chunks cover",
    ]
    table = [("policy", "chunks", "pairs", *labels)]
    for row in rows:
        windows = row["mean_chars"]["w1"] is not None
        chunks = "-" if row["chunks"] is None else f"{row['chunks']:,}"
        cells = [recall_cell(pairs, row["policy"], k, caveat_rank, windows) for k in ks]
        table.append((printable(row["policy"]), chunks, f"{row['pairs']:,}", *cells))
    lines.extend(aligned(table))
    lines.append("")
    lines.append("both spans in the top k")
    table = [("policy", *labels)]
    for row in rows:
        windows = row["mean_chars"]["w1"] is not None
        cells = [recall_cell(pairs, row["policy"], k, both_rank, windows) for k in ks]
        table.append((printable(row["policy"]), *cells))
    lines.extend(aligned(table))
    lines.append("")
    lines.append("mean characters the top k hold")
    table = [("policy", *labels)]
    for row in rows:
        alone, with_windows = row["mean_chars"]["w0"], row["mean_chars"]["w1"]
        cells = [
            f"{alone[str(k)]:,.0f} ({'n/a' if with_windows is None else format(with_windows[str(k)], ',.0f')})"
            for k in ks
        ]
        table.append((printable(row["policy"]), *cells))
    lines.extend(aligned(table))
    lines.append("")
    lines.append(f"ranks per pair: instruction, caveat, caveat with windows (- when not in the first {depth:,})")
    for pair in pairs[:LISTED_PAIRS]:
        parts = []
        for row in rows:
            ranks = pair["policies"][row["policy"]]
            shown = f"{rank_text(ranks['instruction_rank'])} {rank_text(ranks['caveat_rank'])} "
            shown += rank_text(ranks["caveat_rank_w1"]) if row["mean_chars"]["w1"] is not None else "n/a"
            parts.append(f"{printable(row['policy'])} {shown}")
        lines.append(f"  {printable(pair['name'])}: {', '.join(parts)}")
    if len(pairs) > LISTED_PAIRS:
        lines.append(f"  … {counted(len(pairs) - LISTED_PAIRS, 'more pair')}: --json lists every one")
    if notes:
        lines.append("")
        lines.extend(notes)
    return "\n".join(lines)
