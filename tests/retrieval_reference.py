"""A second, independent reading of docs/retrieval.md: every chunk scored, sorted, covered character by character.

Written from the document's definition alone, sharing no code with
``checks.retrieval``: no inverted index, no pruning, no interval merging. It is
slow on purpose (every query scores every chunk) and used two ways:

    python -m unittest tests.test_retrieve            compares it on docs/examples
    python tests/retrieval_reference.py MANIFEST      compares it on any manifest, printing the mismatches

Only the lab's own chunks are ranked here (``retrieve`` without files): the
lab's chunks cover a span when together they hold every character of it.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def bm25_scores(chunk_words: list[list[str]], query: str) -> list[float]:
    """Every chunk's score for ``query`` (each chunk given by its words), straight from the formula."""
    n = len(chunk_words)
    avg_length = sum(len(found) for found in chunk_words) / n
    query_words = sorted(set(words(query)))
    df = {word: sum(1 for found in chunk_words if word in found) for word in query_words}
    scores = []
    for found in chunk_words:
        length = len(found)
        score = 0.0
        for word in query_words:
            tf = found.count(word)
            if tf == 0:
                continue
            idf = math.log(1 + (n - df[word] + 0.5) / (df[word] + 0.5))
            score += idf * tf * (1.2 + 1) / (tf + 1.2 * (1 - 0.75 + 0.75 * length / avg_length))
        scores.append(score)
    return scores


def ranked_positions(chunk_words: list[list[str]], query: str, depth: int) -> list[int]:
    scores = bm25_scores(chunk_words, query)
    order = sorted(range(len(chunk_words)), key=lambda position: (-scores[position], position))
    return [position for position in order if scores[position] > 0][:depth]


def first_covering(span_start: int, span_end: int, source_id: str, steps: list[list[dict]]) -> int | None:
    """The first step after which the chunks so far hold every character of the span."""
    needed = set(range(span_start, span_end))
    for rank, chunks in enumerate(steps, start=1):
        for chunk in chunks:
            if chunk["source_id"] == source_id:
                needed -= set(range(chunk["start"], chunk["end"]))
        if not needed:
            return rank
    return None


def reference_ranks(chunks: list[dict], checks, depth: int = 100) -> list[dict]:
    """For each check: its four ranks under one policy's ``chunks``."""
    ordered = sorted(chunks, key=lambda chunk: (chunk["source_id"], chunk["order"]))
    chunk_words = [words(chunk["text"]) for chunk in ordered]

    def window(position: int) -> list[dict]:
        chunk = ordered[position]
        found = [chunk]
        for other in ordered:
            if (
                other["source_id"] == chunk["source_id"]
                and abs(other["order"] - chunk["order"]) == 1
                and other["section_id"] == chunk["section_id"]
            ):
                found.append(other)
        return found

    results = []
    for check in checks:
        query = check.query if check.query is not None else check.instruction.quote
        returned = ranked_positions(chunk_words, query, depth)
        alone = [[ordered[position]] for position in returned]
        windows = [window(position) for position in returned]
        ranks = {}
        for key, span in (("instruction", check.instruction), ("caveat", check.qualifier)):
            ranks[f"{key}_rank"] = first_covering(span.start, span.end, check.source_id, alone)
            ranks[f"{key}_rank_w1"] = first_covering(span.start, span.end, check.source_id, windows)
        results.append(ranks)
    return results


def main(argv: list[str]) -> int:
    """Compare every rank ``retrieve`` gives on the manifest ``argv[0]`` with this reading; print a line per policy."""
    import chunk_index
    from checks import retrieval
    from load_documents import load_manifest

    manifest = load_manifest(Path(argv[0]))
    indexes = chunk_index.build_indexes(manifest.sources, chunk_index.manifest_policy_configs(manifest))
    document = retrieval.measured(manifest.span_checks, indexes, None, None, retrieval.DEPTH, argv[0])
    mismatches = 0
    for name, index in indexes.items():
        expected = reference_ranks(index["chunks"], manifest.span_checks)
        differing = [
            pair["name"] for pair, ranks in zip(document["pairs"], expected) if pair["policies"][name] != ranks
        ]
        mismatches += len(differing)
        print(
            f"{name}: {len(expected)} pairs, {len(index['chunks'])} chunks, {len(differing)} ranks differ {differing[:3]}"
        )
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
