"""Placing chunk records in their pinned source's text: at a given offset, by order, uniquely, modulo whitespace.

``locate_chunks`` takes a sequence of ``ChunkRecord`` and the sources and
returns one ``Location`` per record, in order; it reads no file and judges
nothing (``judgement`` does).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, replace
from itertools import accumulate

from grammars import HEADING
from judge.chunk_files import LANGCHAIN_NOT_FOUND, ChunkRecord

STATES = ("exact_offset", "exact_order", "exact_unique", "modulo_whitespace", "ambiguous", "not_found")
LOCATED_STATES = frozenset(STATES[:4])
STATE_WORDS = {
    "exact_offset": "exact at the given offset",
    "exact_order": "exact by order",
    "exact_unique": "exact unique",
    "modulo_whitespace": "modulo whitespace",
    "ambiguous": "ambiguous",
    "not_found": "not found",
}
WHITESPACE_RUN = re.compile(r"(\s+)")


@dataclass(frozen=True)
class Location:
    """Where one record's chunk sits in its source, how it was found, and what its own offset said.

    ``start``/``end`` are ``None`` for an ``ambiguous`` or ``not_found`` chunk.
    ``offset_issue`` says why a given offset was not trusted (``None`` when it
    was right or absent): ``text_differs`` (the source holds other text there),
    ``not_found_value`` (LangChain's ``-1``) or ``before_previous`` (the text is
    there, but at or before the previous chunk's start while it also occurs
    after it: what ``text.find`` from the start of a text gives for repeated
    text). ``offset_holds`` is what the source holds at that offset. ``headings_dropped``: matched only
    once heading lines were set aside. ``places``: the first places an
    ambiguous chunk occurs.
    """

    record: ChunkRecord
    state: str
    start: int | None
    end: int | None
    offset_holds: str | None = None
    headings_dropped: bool = False
    places: tuple[tuple[int, int], ...] = ()
    offset_issue: str | None = None

    @property
    def located(self) -> bool:
        return self.state in LOCATED_STATES

    @property
    def offset_wrong(self) -> bool:
        return self.offset_issue is not None


class SquashedText:
    """A text with whitespace removed, and the way back from a position in it to an offset in the text.

    ``SquashedText("a b\\n cd")`` -> ``text "abcd"``: a match of ``"bc"`` at 1 maps back
    to ``[2, 6)``. The map is kept per word (where each word starts in both
    texts), not per character, and built in C-speed passes over the text.
    """

    def __init__(self, text: str) -> None:
        # re.split with a group alternates words and whitespace runs: words at even places.
        pieces = WHITESPACE_RUN.split(text)
        offsets = list(accumulate(map(len, pieces), initial=0))
        words = pieces[0::2]
        self.text = "".join(words)
        self.word_starts = offsets[0::2][: len(words)]
        self.word_lengths = list(map(len, words))
        self.word_positions = list(accumulate(self.word_lengths, initial=0))[:-1]

    def offset(self, position: int) -> int:
        """The source offset of the squashed character at ``position``."""
        word = bisect_right(self.word_positions, position) - 1
        return self.word_starts[word] + position - self.word_positions[word]

    def span(self, position: int, length: int) -> tuple[int, int]:
        """The source span from the first to the last character of a match ``length`` long at ``position``."""
        return self.offset(position), self.offset(position + length - 1) + 1

    def position_of(self, offset: int) -> int:
        """The squashed position of the first non-whitespace character at or after source ``offset``."""
        word = bisect_right(self.word_starts, offset) - 1
        if word >= 0 and offset < self.word_starts[word] + self.word_lengths[word]:
            return self.word_positions[word] + offset - self.word_starts[word]
        following = word + 1
        return self.word_positions[following] if following < len(self.word_positions) else len(self.text)


def without_headings(text: str) -> str:
    """``text`` with each heading line blanked to spaces (same length, so offsets stay put)."""
    return HEADING.sub(lambda heading: " " * len(heading.group()), text)


def squashed(text: str) -> str:
    """``"a b\\n c"`` -> ``"abc"``."""
    return "".join(text.split())


def occurrences(haystack: str, needle: str) -> tuple[int, ...]:
    """Where ``needle`` occurs in ``haystack``: ``()``, one place, or the first two (enough to say "ambiguous")."""
    first = haystack.find(needle)
    if first == -1:
        return ()
    second = haystack.find(needle, first + 1)
    return (first,) if second == -1 else (first, second)


class SourceLocator:
    """Locates one source's chunks in file order, keeping the place of the previous one.

    Order comes first and is searched once, in the whitespace-free copy: the
    first place after the previous chunk's start, ending past the previous
    chunk's end, where the chunk's text matches modulo whitespace, exact when
    the characters there are identical.
    A search that succeeds costs the distance it walks, so a file of chunks in
    order costs one pass over the source; only a chunk not found after the
    previous one pays a search of the whole text (unique occurrence, then the
    copy without heading lines).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.cursor = 0
        # Where the previous chunk ends: a chunk wholly inside it is not the next one in order.
        self.previous_end = 0
        self.squashed = SquashedText(text)
        self._bare: SquashedText | None = None

    @property
    def bare(self) -> SquashedText:
        if self._bare is None:
            self._bare = SquashedText(without_headings(self.text))
        return self._bare

    def locate(self, record: ChunkRecord) -> Location:
        issue, holds = self.offset_check(record)
        if issue is None and record.start is not None:
            return self.found(Location(record, "exact_offset", record.start, record.start + len(record.text)))
        location = self.search(record, holds)
        if issue == "text_differs" and offset_agrees(self.text, record, location):
            # A splitter that stripped or collapsed whitespace yet said where the chunk
            # starts gave the right offset: the text differs, the place does not.
            issue = None
        return replace(location, offset_issue=issue)

    def search(self, record: ChunkRecord, holds: str | None) -> Location:
        """Locate ``record`` by its text alone: order, then a unique place, verbatim or modulo whitespace."""
        text = record.text
        needle = squashed(text)
        copy = self.squashed
        position = copy.text.find(needle, copy.position_of(self.cursor))
        # A place that ends inside the previous chunk is passed over: a splitter's next chunk may
        # overlap the previous one but reaches past it, and a short chunk ("```") found inside the
        # previous one would be placed there while its own place is further on.
        while needle and position != -1 and copy.span(position, len(needle))[1] <= self.previous_end:
            position = copy.text.find(needle, position + 1)
        if position != -1:
            start, end = copy.span(position, len(needle))
            exact_start = start - (len(text) - len(text.lstrip()))
            if exact_start >= 0 and self.text.startswith(text, exact_start):
                return self.found(Location(record, "exact_order", exact_start, exact_start + len(text), holds))
            return self.found(Location(record, "modulo_whitespace", start, end, holds))
        places = occurrences(self.text, text)
        if len(places) == 1:
            return self.found(Location(record, "exact_unique", places[0], places[0] + len(text), holds))
        ambiguous = [(place, place + len(text)) for place in places]
        if not ambiguous:
            squashed_places = occurrences(copy.text, needle)
            if len(squashed_places) == 1:
                start, end = copy.span(squashed_places[0], len(needle))
                return self.found(Location(record, "modulo_whitespace", start, end, holds))
            ambiguous = [copy.span(place, len(needle)) for place in squashed_places]
        if not ambiguous:
            bare_needle = squashed(without_headings(text))
            if bare_needle:
                bare = self.bare
                position = bare.text.find(bare_needle, bare.position_of(self.cursor))
                bare_places = (position,) if position != -1 else occurrences(bare.text, bare_needle)
                if len(bare_places) == 1:
                    start, end = bare.span(bare_places[0], len(bare_needle))
                    return self.found(Location(record, "modulo_whitespace", start, end, holds, headings_dropped=True))
                ambiguous = [bare.span(place, len(bare_needle)) for place in bare_places]
        state = "ambiguous" if ambiguous else "not_found"
        return Location(record, state, None, None, holds, places=tuple(ambiguous))

    def offset_check(self, record: ChunkRecord) -> tuple[str | None, str | None]:
        """``(issue, what the source holds at the offset)``; the issue is ``None`` when the offset is absent or right.

        An offset holding the text is still not trusted when it lies at or
        before the previous chunk's start and the text also occurs after it:
        splitters emit chunks in order, and ``text.find`` from the start of a
        text answers the first of several occurrences.
        """
        if record.start is None:
            return None, None
        if record.start == LANGCHAIN_NOT_FOUND:
            return "not_found_value", None
        end = record.end if record.end is not None else min(record.start + len(record.text), len(self.text))
        held = self.text[record.start : end]
        if held != record.text:
            return "text_differs", held
        if record.start < self.cursor and self.text.find(record.text, self.cursor) != -1:
            return "before_previous", held
        return None, held

    def found(self, location: Location) -> Location:
        # The next chunk is searched after this one's start: overlapping chunks start later, not after its end.
        self.cursor = location.start + 1
        self.previous_end = location.end
        return location


def offset_agrees(text: str, record: ChunkRecord, location: Location) -> bool:
    """Whether a chunk located modulo whitespace starts (and, when given, ends) where its record says.

    Only whitespace may lie between the given offset and the located one: a
    chunk ``"    def f():"`` stripped to ``"def f():"`` and given the offset of
    its indentation is where it says, as is one given the offset of its ``d``.
    """
    if location.state != "modulo_whitespace" or record.start is None:
        return False
    if text[min(record.start, location.start) : max(record.start, location.start)].strip():
        return False
    if record.end is None:
        return True
    return not text[min(record.end, location.end) : max(record.end, location.end)].strip()


def locate_chunks(records: tuple[ChunkRecord, ...], sources: tuple[dict, ...]) -> tuple[Location, ...]:
    """Every record located in its source's text, in file order."""
    locators = {source["source_id"]: SourceLocator(source["text"]) for source in sources}
    return tuple(locators[record.source_id].locate(record) for record in records)
