"""Placing chunk records in their pinned source's text: at a given offset, by order, uniquely, modulo whitespace.

``locate_chunks(records, sources, file_texts)`` is the one entry point: a
sequence of ``ChunkRecord`` (in the order the splitter emitted them) and the
manifest's sources in, one ``Location`` per record out, in the same order. It
reads no file and judges nothing (``judgement`` does); a command that needs
to place chunk texts "exactly as judge does" builds records and calls it.

The placement rule (docs/judge.md, "How each chunk is located"): every
sequential splitter emits the chunks of one source so that each one

- starts at or after the previous chunk's start,
- ends at or past the previous chunk's end (a sliding window's last window,
  inside the one before, ends where it ends), the end of a chunk whose text
  ends in a non-whitespace character counted with the whitespace that
  follows it in the source, and
- is not the previous chunk's span again.

Placed by its text, a chunk goes first where it reaches past the previous
end, and only failing that where it ends exactly there: a chunk that starts
the next stretch of text is not sent back to a copy of it at the previous
chunk's end.

A given offset is trusted only when the source holds the chunk's text there
*and* the rule holds; otherwise the chunk is placed by its text, trying in
this order: verbatim by the rule (``exact_order``), verbatim at its one place
in the source (``exact_unique``), then with whitespace set aside by the rule
or at its one place (``modulo_whitespace``), and last with heading lines set
aside too. A verbatim place therefore always wins over a whitespace-insensitive one.

Offsets and text are read as the splitter saw the file: a byte order mark the
loader dropped and the ``\\r`` of ``\\r\\n`` line ends, when the splitter kept
them, are mapped to the lab's normalized text (``FileText``, ``offset_frame``).

Cost: per chunk, work in its own length plus at most a few C-speed scans of
its source (at most ``load_documents.MAX_SOURCE_BYTES``); a chunk placed by
the rule scans only from where the rule lets it start to where it is found,
so chunks in order walk each source about once. Searches are never repeated
over the occurrences of a text: where a text cannot be placed by the rule
from an offset is remembered, and so are its first places in the source.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

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
BYTE_ORDER_MARK = "\ufeff"


@dataclass(frozen=True)
class OffsetFrame:
    """Which characters the lab's text drops a splitter's offsets count: the byte order mark, the ``\\r`` of ``\\r\\n``."""

    byte_order_mark: bool = False
    carriage_returns: bool = False


LAB_FRAME = OffsetFrame()


class Location(NamedTuple):
    """Where one record's chunk sits in its source, how it was found, and what its own offset said.

    ``start``/``end`` are ``None`` for an ``ambiguous`` or ``not_found`` chunk.
    ``given_start``/``given_end`` are the record's offsets mapped to the lab's
    text (equal to the record's own unless the splitter counted a byte order
    mark or ``\\r`` the lab's text drops). ``offset_issue`` says why a given
    offset was not trusted (``None`` when it was right or absent):
    ``text_differs`` (the source holds other text there), ``not_found_value``
    (LangChain's ``-1``) or ``out_of_order`` (the text is there, but the
    placement rule fails: it starts before the previous chunk's start, is the
    previous chunk's span again, or ends inside the previous chunk, short of
    its end). ``offset_holds`` is what the source holds at that offset.
    ``headings_dropped``: matched only once heading lines were set aside. ``places``: the first places an ambiguous chunk occurs.
    ``frame``: how the record's offsets counted the file (``offset_frame``).
    ``previous_span``: the previous chunk an ``out_of_order`` offset broke the rule against.
    """

    record: ChunkRecord
    state: str
    start: int | None
    end: int | None
    offset_holds: str | None = None
    headings_dropped: bool = False
    places: tuple[tuple[int, int], ...] = ()
    offset_issue: str | None = None
    given_start: int | None = None
    given_end: int | None = None
    frame: OffsetFrame | None = None
    previous_span: tuple[int, int] | None = None

    @property
    def located(self) -> bool:
        return self.state in LOCATED_STATES

    @property
    def offset_wrong(self) -> bool:
        return self.offset_issue is not None


class Place(NamedTuple):
    """Where a search put a chunk: its state and span (``None`` when unlocated), as ``Location`` holds them."""

    state: str
    start: int | None = None
    end: int | None = None
    headings_dropped: bool = False
    places: tuple[tuple[int, int], ...] = ()


# --- the file as the splitter saw it ----------------------------------------------


class FileText:
    """A source's normalized text beside the file's own text, and the way from the file's offsets to the lab's.

    ``FileText("a\\nb\\n", "\\ufeffa\\r\\nb\\r\\n")``: the lab dropped the byte
    order mark and the two ``\\r``; in the frame that counts all three, offset
    ``4`` (the ``b``) maps to ``2``. A lone ``\\r`` becomes ``\\n`` in place, so
    it shifts nothing. Under the lesson grammar the lab keeps the mark, so no
    frame counts it.
    """

    def __init__(self, text: str, file_text: str) -> None:
        self.mark_dropped = file_text.startswith(BYTE_ORDER_MARK) and not text.startswith(BYTE_ORDER_MARK)
        body = file_text[len(BYTE_ORDER_MARK) :] if self.mark_dropped else file_text
        self.crlf = [match.start() for match in re.finditer("\r\n", body)]

    def frames(self) -> list[OffsetFrame]:
        """The distinct frames of this file, the lab's first."""
        marks = (False, True) if self.mark_dropped else (False,)
        returns = (False, True) if self.crlf else (False,)
        return [OffsetFrame(mark, cr) for cr in returns for mark in marks]

    def dropped(self, frame: OffsetFrame) -> list[int]:
        """Positions, in ``frame``'s text, of the characters the lab's text does not hold (sorted)."""
        shift = 1 if frame.byte_order_mark and self.mark_dropped else 0
        positions = [0] if shift else []
        if frame.carriage_returns:
            positions.extend(position + shift for position in self.crlf)
        return positions


def lab_offset(offset: int, dropped: list[int]) -> int:
    """``offset`` in the splitter's text as an offset in the lab's: minus the dropped characters before it.

    ``lab_offset(4, [0, 2])`` -> ``2``; an offset at a dropped ``\\r`` maps to the ``\\n`` after it.
    """
    return offset - bisect_left(dropped, offset)


def placed_text(record: ChunkRecord, file: FileText) -> str:
    """The record's text as the lab's text would hold it: without the byte order mark the loader dropped."""
    if file.mark_dropped and record.text.startswith(BYTE_ORDER_MARK):
        return record.text[len(BYTE_ORDER_MARK) :]
    return record.text


def offset_frame(text: str, file: FileText, records: list[ChunkRecord]) -> OffsetFrame:
    """The frame in which most of ``records``' given offsets hold their text; ties go to what their texts show.

    A span holds its text verbatim or, for a text with no white space at
    either end, as a stripped cut (white space alone around it); of frames
    holding as many, the one holding more verbatim. The texts show a frame
    when one starts with the byte order mark or held a ``\\r``; failing that a
    tie goes to the lab's frame. Each record's text is
    compared once per frame (at most four): linear in the records' text.
    """
    frames = file.frames()
    if len(frames) == 1:
        return frames[0]
    shown = OffsetFrame(
        file.mark_dropped and any(record.text.startswith(BYTE_ORDER_MARK) for record in records),
        bool(file.crlf) and any(record.carriage_returns for record in records),
    )
    given = [record for record in records if record.start is not None and record.start >= 0]
    texts = [placed_text(record, file) for record in given]

    def holding(frame: OffsetFrame) -> tuple[int, int]:
        """How many records' offsets hold their text in ``frame``: verbatim or as a stripped cut; verbatim."""
        dropped = file.dropped(frame)
        verbatim = cut = 0
        for record, chunk_text in zip(given, texts):
            start = lab_offset(record.start, dropped)
            if record.end is None:
                verbatim += text[start : start + len(chunk_text)] == chunk_text
                continue
            end = lab_offset(record.end, dropped)
            if end > len(text):
                # Past the text's end in this frame (a slice would stop short there and hide it).
                continue
            held = text[start:end]
            if held == chunk_text:
                verbatim += 1
            elif chunk_text.strip() and held.strip() == chunk_text.strip():
                # A splitter that stripped the text and kept its cut's offsets (``offset_agrees``).
                cut += 1
        return verbatim + cut, verbatim

    def rank(frame: OffsetFrame) -> tuple:
        held, verbatim = holding(frame)
        return -held, -verbatim, frame != shown, frame != LAB_FRAME

    return min(frames, key=rank)


# --- whitespace set aside ---------------------------------------------------------


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
        self.length = len(text)
        self.word_starts = offsets[0::2][: len(words)]
        self.word_lengths = list(map(len, words))
        self.word_positions = list(accumulate(self.word_lengths, initial=0))[:-1]

    def offset(self, position: int) -> int:
        """The source offset of the squashed character at ``position`` (the text's length past the last one)."""
        if position >= len(self.text):
            return self.length
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


def occurrences(haystack: str, needle: str, end: int | None = None) -> tuple[int, ...]:
    """Where ``needle`` starts in ``haystack[:end]``: ``()``, one place, or the first two (enough to say "ambiguous")."""
    end = len(haystack) if end is None else end
    first = haystack.find(needle, 0, end)
    if first == -1:
        return ()
    second = haystack.find(needle, first + 1, end)
    return (first,) if second == -1 else (first, second)


class Searches:
    """Searches of one text (the source, or a copy of it), remembered so none is repeated.

    ``after(needle, low)`` is the first place at or after ``low``; a needle
    found nowhere from ``low`` on is found nowhere from any later offset
    either, so that is kept and answered without a scan. ``first_places``
    keeps a needle's first two places in the text.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.missing_from: dict[str, int] = {}
        self.places: dict[str, tuple[int, ...]] = {}

    def after(self, needle: str, low: int) -> int:
        if self.missing_from.get(needle, len(self.text) + 1) <= low:
            return -1
        position = self.text.find(needle, low)
        if position == -1:
            self.missing_from[needle] = low
        return position

    def first_places(self, needle: str) -> tuple[int, ...]:
        if needle not in self.places:
            # Not after the lowest offset searched in vain: only the text before it can hold the needle.
            missing = self.missing_from.get(needle)
            end = None if missing is None else missing + len(needle) - 1
            self.places[needle] = occurrences(self.text, needle, end)
        return self.places[needle]


# --- one source ---------------------------------------------------------------------


class SourceLocator:
    """Places one source's chunks in the order given, keeping where the previous one lies.

    ``previous_start``/``previous_end`` are the previous located chunk's span
    (``(0, 0)`` before the first). A next chunk must end at or past
    ``previous_end``; one whose text ends in a non-whitespace character may
    have lost whitespace to a stripping splitter, so its end is counted with
    the whitespace after it. ``tail_end`` is the least end such a chunk may
    have, the previous chunk's end before the whitespace it ends with (never
    before ``previous_start``); ``reach_from`` the least end with which it
    reaches past ``previous_end``: ``tail_end`` when whitespace runs on past
    ``previous_end``, else ``previous_end + 1``. A chunk whose text ends in
    whitespace kept its end: it may end at ``previous_end`` and reaches past
    it from ``previous_end + 1``. No chunk takes the previous chunk's span again.
    """

    def __init__(self, text: str, file: FileText | None = None, frame: OffsetFrame = LAB_FRAME) -> None:
        self.text = text
        self.file = file if file is not None else FileText(text, text)
        self.dropped = self.file.dropped(frame)
        self.frame = frame
        self.verbatim = Searches(text)
        self._squashed: SquashedText | None = None
        self._squashed_searches: Searches | None = None
        self._bare: SquashedText | None = None
        self._bare_searches: Searches | None = None
        self.remember(0, 0)

    def squashed_copy(self) -> tuple[SquashedText, Searches]:
        """The whitespace-free copy of the text and its searches, built on first need."""
        if self._squashed is None:
            self._squashed = SquashedText(self.text)
            self._squashed_searches = Searches(self._squashed.text)
        return self._squashed, self._squashed_searches

    def bare_copy(self) -> tuple[SquashedText, Searches]:
        """The same without heading lines, built on first need."""
        if self._bare is None:
            self._bare = SquashedText(without_headings(self.text))
            self._bare_searches = Searches(self._bare.text)
        return self._bare, self._bare_searches

    def remember(self, start: int, end: int) -> None:
        """Make ``[start, end)`` the previous chunk, and work out the ends the rule then allows the next one."""
        self.previous_start = start
        self.previous_end = end
        self.tail_end = end
        if end > start and self.text[end - 1].isspace():
            # Back over the whitespace that runs into `end`, no further than `start`: C-speed, the chunk's length.
            self.tail_end = start + len(self.text[start:end].rstrip())
        runs_on = end < len(self.text) and self.text[end].isspace()
        self.reach_from = self.tail_end if runs_on else end + 1

    def least_end_of(self, text: str) -> int:
        """The least end with which a verbatim ``text`` placed next reaches past the previous chunk's end."""
        return self.previous_end + 1 if text[-1].isspace() else self.reach_from

    def contained_end_of(self, text: str) -> int:
        """The end of a verbatim ``text`` placed next that ends where the previous chunk ends: the least end allowed."""
        return self.previous_end if text[-1].isspace() else self.tail_end

    def follows(self, start: int, text: str) -> bool:
        """Whether ``text`` verbatim at ``start`` may come next: at or after the previous start, ending at or past its end.

        A sliding window's last window, inside the one before, ends where it ends.
        Never the previous chunk's own span again: a repeated paragraph given the
        first copy's offset (what ``text.find`` answers) is not the next chunk.
        """
        end = start + len(text)
        return start >= self.previous_start and end >= self.contained_end_of(text) and not self.is_previous(start, end)

    def contained_place(self, text: str) -> int | None:
        """Where a verbatim ``text`` ends where the previous chunk ends, when the source holds it there; else ``None``."""
        end = self.contained_end_of(text)
        start = end - len(text)
        if start < self.previous_start or self.is_previous(start, end) or not self.text.startswith(text, start):
            return None
        return start

    def is_previous(self, start: int, end: int) -> bool:
        return start == self.previous_start and end == self.previous_end

    def locate(self, record: ChunkRecord) -> Location:
        text = placed_text(record, self.file)
        given_start, given_end = self.given_offsets(record)
        issue, holds = self.offset_check(record, text, given_start, given_end) if text else (None, None)
        if not text:
            place = Place("not_found")
        elif issue is None and given_start is not None:
            place = Place("exact_offset", given_start, given_start + len(text))
        elif issue == "text_differs" and (cut := self.stripped_cut(text, given_start, given_end)) is not None:
            # A stripped cut whose offsets hold it, blank lines and all: it is there, whatever else the text matches
            # (a search would first find a copy inside the chunk before, its last word the same).
            place = Place("exact_order", cut, cut + len(text))
            issue = None
        else:
            place = self.search(text)
            # A text that opens on the byte order mark kept what follows it: strip stops at the mark.
            marked = record.text.startswith(BYTE_ORDER_MARK)
            if issue is not None and self.offset_agrees(issue, given_start, given_end, place, marked):
                # The chunk is where its record says: a splitter that stripped or collapsed whitespace
                # (the text differs, the place does not), or an out-of-order chunk whose one place it is.
                issue = None
        location = Location(
            record,
            place.state,
            place.start,
            place.end,
            holds,
            place.headings_dropped,
            place.places,
            issue,
            given_start,
            given_end,
            self.frame,
            (self.previous_start, self.previous_end) if issue == "out_of_order" else None,
        )
        if place.start is not None:
            self.remember(place.start, place.end)
        return location

    def stripped_cut(self, text: str, start: int | None, end: int | None) -> int | None:
        """Where a text with no white space at either end lies in a given span that holds it and white space alone
        (a splitter that stripped what it cut, its offsets the cut's), when the placement rule allows it there."""
        if start is None or end is None or not 0 <= start <= end <= len(self.text) or text != text.strip():
            return None
        held = self.text[start:end]
        if held.strip() != text:
            return None
        place = start + len(held) - len(held.lstrip())
        return place if self.follows(place, text) else None

    def given_offsets(self, record: ChunkRecord) -> tuple[int | None, int | None]:
        """The record's offsets in the lab's text (``-1`` and absent ones as they are)."""
        if record.start is None or record.start == LANGCHAIN_NOT_FOUND:
            return record.start, record.end
        end = None if record.end is None else lab_offset(record.end, self.dropped)
        return lab_offset(record.start, self.dropped), end

    def offset_check(
        self, record: ChunkRecord, text: str, start: int | None, end: int | None
    ) -> tuple[str | None, str | None]:
        """``(issue, what the source holds at the offset)``; the issue is ``None`` when the offset is absent or right."""
        if start is None:
            return None, None
        if start == LANGCHAIN_NOT_FOUND:
            return "not_found_value", None
        held = self.text[start : start + len(text) if end is None else end]
        if held != text:
            return "text_differs", held
        if not self.follows(start, text):
            return "out_of_order", held
        return None, held

    def offset_agrees(
        self, issue: str, start: int | None, end: int | None, location: Place, marked: bool = False
    ) -> bool:
        """Whether a chunk not trusted at its offset was placed there anyway, give or take whitespace.

        A chunk placed modulo whitespace, or verbatim where its own text is
        stripped, agrees when only whitespace lies between the given start and
        the located one (the indentation a stripped code chunk lost, the blank
        line before a paragraph) and, when an end is given, between the two
        ends; placed verbatim, only when the given span holds the place and
        the text is stripped where the span reaches past it (a start alone
        spans the text's own length). An out-of-order offset agrees only when the chunk is placed
        exactly there (its one place in the source).
        """
        if location.start is None or start is None or start < 0:
            return False
        if issue == "out_of_order":
            return location.start == start
        if issue != "text_differs":
            return False
        if location.state in ("exact_order", "exact_unique"):
            # Placed verbatim: a splitter that stripped the chunk's text and kept the offsets of what it cut, the blank
            # lines around it inside them. Only a span that holds the place found: offsets one after every chunk's
            # place (counted from 1) hold a character of white space before some chunks, and are wrong for all. A
            # start without an end spans the text's own length, so it holds the place only where it starts; and a
            # text that keeps white space at a side, of a kind the span holds beyond it, was not stripped there.
            found = self.text[location.start : location.end]
            if end is None or end > len(self.text):
                # (A slice past the text's end stops at it, and would hide that the span reaches past it.)
                return False
            if start > location.start or end < location.end:
                return False
            # The white space the text keeps at its edges, of each kind: a splitter that stripped the cut would have
            # lost it from the text as from the span beyond it. One that strips line breaks alone keeps an indented
            # line's spaces; one that strips nothing keeps a line break that the span beyond it holds too. A span
            # beyond one end only is read at that end (a cut stripped at one side).
            leading = set() if marked else set(found[: len(found) - len(found.lstrip())])
            trailing = set(found[len(found.rstrip()) :])
            before, after = set(self.text[start : location.start]), set(self.text[location.end : end])
            if before and after:
                # Beyond both ends: a cut stripped at both, of every kind of white space it kept at either edge.
                if (leading | trailing) & (before | after):
                    return False
            elif leading & before or trailing & after:
                return False
        elif location.state != "modulo_whitespace":
            return False
        if self.text[min(start, location.start) : max(start, location.start)].strip():
            return False
        return end is None or not self.text[min(end, location.end) : max(end, location.end)].strip()

    def search(self, text: str) -> Place:
        """Place ``text`` by itself: verbatim by the rule, verbatim once, then modulo whitespace, then without headings."""
        low = max(self.previous_start, self.least_end_of(text) - len(text))
        position = -1
        if text.isspace():
            # Inside a run of blank lines a chunk of whitespace alone fits many places the rule
            # allows; splitters that emit such chunks do not overlap them: after the previous end first.
            position = self.verbatim.after(text, max(low, self.previous_end))
        if position == -1:
            position = self.verbatim.after(text, low)
        if position != -1 and self.is_previous(position, position + len(text)):
            position = self.verbatim.after(text, position + 1)
        if position == -1:
            # Nowhere reaching past the previous end: ending where it ends (a sliding window's last window).
            contained = self.contained_place(text)
            position = -1 if contained is None else contained
        if position != -1:
            return Place("exact_order", position, position + len(text))
        places = self.verbatim.first_places(text)
        if len(places) == 1:
            return Place("exact_unique", places[0], places[0] + len(text))
        ambiguous = [(place, place + len(text)) for place in places]
        needle = squashed(text)
        if not ambiguous and needle:
            place, ambiguous = self.squashed_search(needle, *self.squashed_copy())
            if place is not None:
                return place
        bare_needle = squashed(without_headings(text)) if not ambiguous and needle else ""
        if bare_needle:
            place, ambiguous = self.squashed_search(bare_needle, *self.bare_copy())
            if place is not None:
                return place._replace(headings_dropped=True)
        return Place("ambiguous" if ambiguous else "not_found", places=tuple(ambiguous))

    def squashed_search(
        self, needle: str, copy: SquashedText, searches: Searches
    ) -> tuple[Place | None, list[tuple[int, int]]]:
        """``needle`` in a whitespace-free copy: by the rule (reaching past, else ending where the previous chunk
        ends), else at its one place; else the places it has."""
        if self.previous_end < len(self.text):
            # The match must start at or after the previous start and end where the next word
            # after it lies past the previous end: squashed positions of both bounds.
            low = max(copy.position_of(self.previous_start), copy.position_of(self.previous_end + 1) - len(needle))
            position = searches.after(needle, low)
            if position != -1 and self.is_previous(*copy.span(position, len(needle))):
                position = searches.after(needle, position + 1)
            if position != -1:
                return Place("modulo_whitespace", *copy.span(position, len(needle))), []
        # Failing that, ending with the previous chunk's last non-whitespace character.
        tail = copy.position_of(self.previous_end) - len(needle)
        if tail >= copy.position_of(self.previous_start) and copy.text.startswith(needle, tail):
            span = copy.span(tail, len(needle))
            if not self.is_previous(*span):
                return Place("modulo_whitespace", *span), []
        places = searches.first_places(needle)
        if len(places) == 1:
            return Place("modulo_whitespace", *copy.span(places[0], len(needle))), []
        return None, [copy.span(place, len(needle)) for place in places]


def locate_chunks(
    records: tuple[ChunkRecord, ...], sources: tuple[dict, ...], file_texts: dict[str, str] | None = None
) -> tuple[Location, ...]:
    """Every record placed in its source's text, in the order given: one ``Location`` per record.

    ``records`` are one splitter's chunks in the order it emitted them (the
    rule compares each chunk with the previous one of its source); ``sources``
    are the manifest's (``source_id``, ``text``). ``file_texts`` maps a
    source id to its file's text as a program reads it (``load_documents.
    read_file_text``); a source missing from it is read as the lab's text.
    """
    by_source: dict[str, list[ChunkRecord]] = {}
    for record in records:
        by_source.setdefault(record.source_id, []).append(record)
    texts = {source["source_id"]: source["text"] for source in sources}
    locators = {}
    for source_id, source_records in by_source.items():
        text = texts[source_id]
        file = FileText(text, (file_texts or {}).get(source_id, text))
        locators[source_id] = SourceLocator(text, file, offset_frame(text, file, source_records))
    return tuple(locators[record.source_id].locate(record) for record in records)
