"""The lexical baseline: BM25 over one index's chunks, exactly as docs/retrieval.md defines it.

    tokens(text)     re.findall(r"\\w+", text.casefold())
    length           a chunk's token count; avg_length their mean over the N chunks
    idf(t)           math.log(1 + (N - df + 0.5) / (df + 0.5))
    term(t, chunk)   idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg_length))
    score(chunk)     0.0 plus term(t, chunk) for each of the query's distinct tokens in sorted order

Chunks rank by score, highest first, ties in index order (their position in
the list given); a chunk scoring 0 (holding no query token) is not returned.
Scores are floating-point sums added one term at a time in that order, so an
independent implementation of the formula gets the same numbers, ties and ranks.

Cost: ``LexicalIndex`` is one pass over the chunks' tokens. ``ranked`` returns
the first ``depth`` chunks and walks each query token's postings once, rarest
and highest-scoring first; once ``depth`` chunks score more than any chunk
could from the tokens left, no new chunk can enter, the tokens left are only
looked up for the chunks still in reach, and the walk stops there (the
"quit and continue" pruning of term-at-a-time evaluation). Every bound keeps
a relative margin (``MARGIN``) far above floating-point rounding, and the
chunks kept are scored again exactly by the formula, so pruning changes the
cost, never a rank. Worst case, a query of common words, it walks every
posting of its tokens: ``walk_bound`` says how many, before any work.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from itertools import compress

TOKEN = re.compile(r"\w+")
K1 = 1.2
B = 0.75
# Sums of a query's terms in two orders differ by a few units in the last place
# (about 1e-16 of their size per term); bounds are widened by far more than that.
MARGIN = 1e-9
# A threshold is sought only when the next posting list is at least this share of the
# chunks scored so far: finding it costs about as much as walking a list that long.
THRESHOLD_SHARE = 4


def tokens(text: str) -> list[str]:
    """``tokens("Call save_copy(path, Text)")`` -> ``["call", "save_copy", "path", "text"]``."""
    return TOKEN.findall(text.casefold())


def query_tokens(text: str) -> list[str]:
    """A query's distinct tokens in sorted order: ``query_tokens("b a b")`` -> ``["a", "b"]``."""
    return sorted(set(tokens(text)))


class LexicalIndex:
    """BM25 over ``texts`` (one index's chunks in index order): each token's terms by chunk position.

    ``postings[token]`` maps the position of every chunk holding ``token`` to
    its term (``term(t, chunk)`` in the module docstring), in position order;
    ``bounds[token]`` is the largest of them.
    """

    def __init__(self, texts: list[str]) -> None:
        self.count = len(texts)
        counts: dict[str, dict[int, int]] = {}
        lengths = []
        for position, text in enumerate(texts):
            found = tokens(text)
            lengths.append(len(found))
            for token, frequency in Counter(found).items():
                counts.setdefault(token, {})[position] = frequency
        total = sum(lengths)
        self.avg_length = total / self.count if total else 0.0
        # K1 * (1 - B + B * length / avg_length), the same operations as the formula's, once per chunk.
        norms = [K1 * (1 - B + B * length / self.avg_length) if total else 0.0 for length in lengths]
        self.answers: dict[tuple, list[int]] = {}
        self.postings: dict[str, dict[int, float]] = {}
        self.bounds: dict[str, float] = {}
        n = self.count
        for token, frequencies in counts.items():
            df = len(frequencies)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            terms = {position: idf * tf * (K1 + 1) / (tf + norms[position]) for position, tf in frequencies.items()}
            self.postings[token] = terms
            self.bounds[token] = max(terms.values())

    def walk_bound(self, query: list[str]) -> int:
        """The most postings ``ranked(query, ...)`` can walk: the number of chunks holding each of its tokens."""
        return sum(len(self.postings[token]) for token in query if token in self.postings)

    def score(self, query: list[str], position: int) -> float:
        """The chunk at ``position``'s score for ``query`` (distinct tokens, sorted), by the formula."""
        total = 0.0
        for token in query:
            term = self.postings.get(token, {}).get(position)
            if term is not None:
                total += term
        return total

    def ranked(self, query: list[str], depth: int) -> list[int]:
        """The positions of the first ``depth`` chunks for ``query`` (``query_tokens``), best first.

        A query asked again (an instruction with several caveats, checks that share their instruction's
        words) is answered from the first asking: the same list, never to be changed by the caller.
        """
        key = (tuple(query), depth)
        answer = self.answers.get(key)
        if answer is None:
            answer = self.answers[key] = self.walked(query, depth)
        return answer

    def walked(self, query: list[str], depth: int) -> list[int]:
        """``ranked``, worked out: each token's postings walked once, rarest and highest-scoring first."""
        tables = [self.postings[token] for token in query if token in self.postings]
        if not tables:
            return []
        bounds = [self.bounds[token] for token in query if token in self.postings]
        walk = sorted(range(len(tables)), key=lambda place: -bounds[place])
        # left[j]: the most the tokens from walk[j] on can add to a chunk's score.
        left = [0.0] * (len(walk) + 1)
        for step in range(len(walk) - 1, -1, -1):
            left[step] = left[step + 1] + bounds[walk[step]]
        scores = dict(tables[walk[0]])
        step = 1
        while step < len(walk):
            table = tables[walk[step]]
            reach = self.reach(scores, depth, left[step], len(table))
            if reach is not None:
                scores = self.continued(scores, depth, reach, [tables[place] for place in walk[step:]], left[step:])
                break
            get = scores.get
            for position, term in table.items():
                scores[position] = get(position, 0.0) + term
            step += 1
        return self.exact_first(scores, query, depth)

    @staticmethod
    def reach(scores: dict[int, float], depth: int, left: float, next_length: int) -> float | None:
        """The least partial score a chunk needs to stay in reach, once no unseen chunk can enter; else ``None``.

        Partial scores only grow, so the ``depth``-th largest is a floor under
        the final ``depth``-th score; a chunk not scored yet can reach at most
        ``left``. When the floor beats ``left`` (both widened by ``MARGIN``),
        only the chunks already scored can be returned, and of those only the
        ones whose partial score plus ``left`` reaches the floor.
        """
        if len(scores) <= depth or next_length * THRESHOLD_SHARE < len(scores):
            return None
        widened = left * (1 + MARGIN)
        # Only the scores above what the tokens left can add may set the floor: counted at C speed first.
        above = list(filter(widened.__lt__, scores.values()))
        if len(above) < depth:
            return None
        floor = heapq.nlargest(depth, above)[-1] * (1 - MARGIN)
        if floor <= widened:
            return None
        return floor - widened

    @staticmethod
    def continued(
        scores: dict[int, float], depth: int, reach: float, tables: list[dict[int, float]], left: list[float]
    ) -> dict[int, float]:
        """The chunks in reach, each with the terms of the tokens left added: looked up, or their postings walked.

        After each token the floor is raised to the ``depth``-th partial score
        and what the tokens still left can add shrinks, so the chunks that fall
        out of reach are dropped before the next token is looked up.
        """
        kept = in_reach(scores, reach)
        for step, table in enumerate(tables):
            if len(kept) <= len(table):
                get = table.get
                for position in kept:
                    term = get(position)
                    if term is not None:
                        kept[position] += term
            else:
                for position, term in table.items():
                    if position in kept:
                        kept[position] += term
            # Partial scores only grow, so the last floor still holds; raising it pays only while many are kept.
            if step + 1 < len(tables) and len(kept) > 2 * depth:
                floor = heapq.nlargest(depth, kept.values())[-1] * (1 - MARGIN)
                reach = floor - left[step + 1] * (1 + MARGIN)
                kept = in_reach(kept, reach)
        return kept

    def exact_first(self, scores: dict[int, float], query: list[str], depth: int) -> list[int]:
        """The first ``depth`` of the scored chunks, by their exact scores then position.

        ``scores`` were added in walk order; the ones that may be among the
        first ``depth`` (within ``MARGIN`` of the ``depth``-th) are scored again
        in the formula's order, which decides the ranks and the ties.
        """
        if len(scores) > depth:
            floor = heapq.nlargest(depth, scores.values())[-1] * (1 - MARGIN)
            near = [position for position, score in scores.items() if score >= floor]
        else:
            near = list(scores)
        tables = [self.postings[token] for token in query if token in self.postings]
        exact = {}
        for position in near:
            total = 0.0
            for table in tables:
                term = table.get(position)
                if term is not None:
                    total += term
            exact[position] = total
        return sorted(near, key=lambda position: (-exact[position], position))[:depth]


def in_reach(scores: dict[int, float], reach: float) -> dict[int, float]:
    """The entries of ``scores`` whose score is at least ``reach``, picked at C speed (most fall short)."""
    return {position: scores[position] for position in compress(scores, map(reach.__le__, scores.values()))}
