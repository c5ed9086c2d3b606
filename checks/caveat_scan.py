"""Find instruction/caveat pairs in pinned sources by fixed rules: ``run.py scan``.

A real docs set holds hundreds of instructions followed by a caveat; nobody
declares them by hand. This module finds candidate pairs deterministically (no
model, no network), checks each against the lab's three policies, and turns the
pairs into span checks for the manifest. The rules, their word lists and their
limits are stated in ``docs/caveats.md``; in short:

- Sentences are split inside one block at a time (``sentence_spans``); fenced
  code, at any indentation, is never split into sentences and code spans are
  masked first, so neither a cue nor a sentence end inside code counts.
- A caveat is a sentence holding a cue from ``CUES`` (case-insensitive, whole
  words) that is no turn of phrase warning of nothing (``is_turn_of_phrase``:
  "you don't have to", "so that you don't", "raises the question"), or a whole
  admonition or alert whose type is in ``CAUTIONARY_LABELS``.
- Its instruction is the nearest earlier sentence of the same section, within
  the caveat's block and the ``LOOK_BACK_BLOCKS`` blocks before it, that names a
  call, holds a code span or opens with a verb from ``IMPERATIVE_VERBS``;
  preferring one that shares an identifier with the caveat, else the nearest
  (linked by an anaphor when the caveat opens with one); never a copy of the
  caveat or a sentence overlapping it.

It reads no files and writes none; ``run.py`` does the I/O.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass
from types import MappingProxyType

import chunk_index
import grammars
from checks import span_checks
from lab_io.errors import counted, printable, quoted
from load_documents import Span, SpanCheck

SCAN_VERSION = 1
# How far back an instruction may sit: the caveat's own block and this many before it.
LOOK_BACK_BLOCKS = 3
# At most this many candidate instructions are weighed per caveat, so a scan stays linear.
MAX_CANDIDATES = 16
NAME_PREFIX = "scan:"

# Cue phrases, matched case-insensitively as whole words; any run of whitespace
# may separate the words of a phrase, and an apostrophe may be ' or ’.
CUES = (
    "must not",
    "must never",
    "mustn't",
    "never",
    "do not",
    "don't",
    "should not",
    "shouldn't",
    "cannot",
    "can't",
    "may not",
    "refuses",
    "refused",
    "rejects",
    "rejected",
    "raises",
    "throws",
    "fails",
    "will fail",
    "only if",
    "only when",
    "only after",
    "only before",
    "only once",
    "unless",
    "is not supported",
    "are not supported",
    "not supported",
    "unsupported",
    "deprecated",
    "no longer",
    "warning:",
    "caution:",
    "danger:",
    "important:",
)
# The cues that forbid; a few turns of phrase around them say the opposite (``NOT_A_CAVEAT_AFTER``, ``…_BEFORE``).
PROHIBITIONS = frozenset(CUES[: CUES.index("may not") + 1])
# Words around a cue that make it no caveat, each tried at the cue alone: another cue of the sentence still counts.
# A prohibition followed by these removes an obligation: "you don't have to", "it never needs to", "do not need".
OBLIGATION_REMOVED = re.compile(
    r"\s+(?:(?:even|really|necessarily|always|usually|actually)\s+)?(?:(?:have|has)\s+to|needs?)(?!\w)", re.IGNORECASE
)
NOT_A_CAVEAT_AFTER = MappingProxyType(
    {
        **{cue: OBLIGATION_REMOVED for cue in PROHIBITIONS},
        # Figurative: "raises the question", "raises concerns"; an error raised never reads so.
        "raises": re.compile(r"\s+(?:(?:(?:the|a)\s+)?(?:questions?|concerns?)|awareness)(?!\w)", re.IGNORECASE),
    }
)
# A prohibition after these is a purpose ("so that you don't lose data", "so you don't have to") or the
# authors saying what their example does ("we don't use it directly"), not a caveat. Matched against the
# end of the sentence before the cue.
NOT_A_CAVEAT_BEFORE = re.compile(
    r"(?<!\w)(?:(?P<so_that>so\s+that(?:\s+[\w'’]+){1,3})|(?P<so>so\s+(?:you|we|they|it))|(?P<we>we))\s+$",
    re.IGNORECASE,
)
# Which cues a "so you" purpose and a "we" narration turn: "it is locked, so you cannot open it twice" is a
# consequence, and "we must not", "we never retry" still tell the reader something to heed.
PURPOSE_CUES = frozenset({"do not", "don't", "never"})
NARRATION_CUES = frozenset({"do not", "don't"})
# "we don't support", "we do not recommend": the authors stating a limit to their users is a caveat.
STATED_LIMIT = re.compile(r"\s+(?:support|supports|recommend|guarantee|promise|allow|accept)(?!\w)", re.IGNORECASE)
# How much of a sentence before a cue the purpose and narration test reads: "so that" and three words fit.
BEFORE_CUE_WINDOW = 120
# Admonition types (``!!! warning``) and GitHub alert types (``> [!WARNING]``) that make a whole block a caveat.
CAUTIONARY_LABELS = frozenset({"attention", "caution", "danger", "error", "failure", "important", "warning"})
# A sentence opening with one of these verbs gives an instruction.
IMPERATIVE_VERBS = frozenset(
    {
        "add",
        "call",
        "check",
        "choose",
        "close",
        "configure",
        "connect",
        "copy",
        "create",
        "define",
        "delete",
        "disable",
        "enable",
        "ensure",
        "execute",
        "import",
        "initialize",
        "install",
        "invoke",
        "load",
        "open",
        "pass",
        "provide",
        "read",
        "register",
        "remove",
        "replace",
        "return",
        "run",
        "save",
        "select",
        "send",
        "set",
        "specify",
        "start",
        "stop",
        "store",
        "update",
        "use",
        "write",
    }
)
# Openings that point back to what came before; longest first so "This call" wins over "This".
ANAPHORS = (
    "this operation",
    "this endpoint",
    "this function",
    "this command",
    "this setting",
    "this parameter",
    "this option",
    "this method",
    "this field",
    "this call",
    "this flag",
    "the operation",
    "the function",
    "the command",
    "the method",
    "the call",
    "doing so",
    "these",
    "this",
    "they",
    "it",
)
# "e.g. the" is no sentence end.
ABBREVIATIONS = frozenset({"e.g", "i.e", "cf", "vs", "etc"})


def phrase_pattern(phrase: str) -> str:
    """A regex for one cue phrase: words joined by any whitespace, either apostrophe, ending at a word's end."""
    words = [re.escape(word).replace("'", "['’]") for word in phrase.split()]
    tail = "" if phrase.endswith(":") else r"(?!\w)"
    return r"\s+".join(words) + tail


# One group per cue, in list order, behind one shared word-start check (far faster than one per cue).
CUE_PATTERN = re.compile(
    r"(?<!\w)(?:" + "|".join(f"({phrase_pattern(cue)})" for cue in CUES) + ")",
    re.IGNORECASE,
)
ANAPHOR_PATTERN = re.compile(r"(?:" + "|".join(phrase_pattern(anaphor) for anaphor in ANAPHORS) + r")", re.IGNORECASE)
BACKTICK_RUN = re.compile(r"`+")
FENCE_LINE = re.compile(r"^([ \t]*)(`{3,}|~{3,})", re.MULTILINE)
CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\((?!s\))")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A prose word that reads as code: snake_case or camelCase; or a dotted name (``client.open``).
DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
IDENTIFIER_LIKE = re.compile(r"[A-Za-z0-9]*(?:_[A-Za-z0-9_]*|[a-z][A-Z][A-Za-z0-9]*)")
# Only from the start of a run of marks: tried from inside a long run, the pattern rescans its rest every time.
SENTENCE_END = re.compile(r"(?<![.!?])[.!?]+[\"'’”)\]]*(?=\s)")
# Line openings that start a new sentence (list items) or are markers, not prose.
# The spaces before the quote markers and after them are one run when there is no marker, never two that
# share it out (which backtracks quadratically on a long run of spaces).
LIST_ITEM = re.compile(r"\n[ \t]*(?:(?:>[ \t]?)+[ \t]*)?(?:[-*+]|\d{1,9}[.)])[ \t]+")
BLANK_LINE = re.compile(r"\n[ \t>]*\n")
# Header lines: admonitions (``!!! warning``), alerts (``> [!NOTE]``), and the marker lines of
# ``/// note | Title`` blocks, ``:::tip`` containers and ``=== "Tab"`` content tabs, closing ones included.
# A content tab opens at the margin only, as grammars.CONTENT_TAB reads it.
HEADER_LINE = re.compile(
    r"(?:[ \t]*(?:(?:!!!|\?\?\?\+?)[ \t]*\w[^\n]*|>[ \t]*\[![A-Za-z]+\][^\n]*|/{3,}[^\n]*|:{3,}[^\n]*)"
    r'|===[!+]{0,2}[ \t]+"[^\n]*)(?:\n|$)'
)
LEADING_MARKERS = re.compile(r"(?:\s+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+)*")
MASK = "\x00"


@dataclass(frozen=True)
class Sentence:
    """One sentence of a source: ``[start, end)`` and what the scan rules see in it."""

    start: int
    end: int
    block: int
    cue: str | None
    is_instruction: bool
    identifiers: frozenset[str]
    words: frozenset[str]
    anaphor: str | None
    # The text with every run of whitespace one space: a copy of the sentence elsewhere on the page is equal.
    normalized: str


@dataclass(frozen=True)
class Caveat:
    """A caveat before pairing: a cue sentence, or a cautionary block as a whole."""

    start: int
    end: int
    block: int
    cue: str
    words: frozenset[str]
    anaphor: str | None
    normalized: str


@dataclass(frozen=True)
class FoundPair:
    """An instruction and the caveat after it, with the cue and the link that paired them."""

    name: str
    source_id: str
    instruction: Span
    qualifier: Span
    cue: str
    link: str
    line: int

    def as_check(self) -> SpanCheck:
        return SpanCheck(self.name, self.source_id, self.instruction, self.qualifier)


@dataclass(frozen=True)
class Unpaired:
    """A caveat with no instruction within reach."""

    source_id: str
    span: Span
    cue: str
    line: int


# --- masking code --------------------------------------------------------------


def fence_spans(text: str, sections=()) -> list[tuple[int, int]]:
    """``[start, end)`` of every fenced code block, whatever its indentation.

    A fence opens at a line of three or more backticks or tildes after any
    indentation (a backtick fence's info string holds no backtick) and closes at
    the next line of the same character, at least as many, and nothing else,
    indented no deeper than the opening line (or up to three spaces, as Markdown
    allows). A fence indented under a content tab or a list item is code as much
    as one at the margin, so it is masked the same way. An unclosed fence runs
    to the end of the block of ``sections`` that encloses its opening line (any
    block but a paragraph, whose lines a blank line inside the code would cut),
    else to the end of the text, as Markdown renders it.

    An opening indented four columns or more outside any such block (a content
    tab the grammar reads as paragraphs, or a literal fence line in indented
    code) is provisional: it is code only once a line indented four columns or
    more closes it. A fence line nearer the margin, or the end of the text,
    drops it, so one stray indented marker never hides the rest of a page.
    ``"a\n```\nx\n```\nb\n"`` -> ``[(2, 12)]``;
    ``"=== \"T\"\n    ```\n    x\n    ```\n"`` -> ``[(8, 30)]``.
    """
    enclosing = sorted(
        (block.start, block.end)
        for section in sections
        for block in section.blocks
        if block.kind != "paragraph" and block.start < block.end
    )
    enclosing_starts = [start for start, _ in enclosing]
    spans = []
    # The fence open so far: where it starts, its character, run length and indentation, where it
    # must end, and whether it is provisional (see above).
    fence_start = None
    fence_character, fence_run, fence_indent, fence_limit, provisional = "", 0, 0, len(text), False
    for match in FENCE_LINE.finditer(text):
        line_start = match.start()
        if fence_start is not None and line_start >= fence_limit:
            spans.append((fence_start, fence_limit))
            fence_start = None
        marker = match.group(2)
        line_end = text.find("\n", match.end())
        line_end = len(text) if line_end == -1 else line_end + 1
        rest = text[match.end() : line_end]
        indent = grammars.leading_columns(match.group(1))
        if fence_start is not None and provisional and indent <= 3:
            # A fence line nearer the margin: the indented opening was no fence after all.
            fence_start = None
        if fence_start is None:
            if marker[0] == "`" and "`" in rest:
                continue
            position = bisect_right(enclosing_starts, line_start) - 1
            inside = position >= 0 and enclosing[position][1] > line_start
            fence_start, fence_character, fence_run, fence_indent = line_start, marker[0], len(marker), indent
            fence_limit = enclosing[position][1] if inside else len(text)
            provisional = indent > 3 and not inside
        elif (
            marker[0] == fence_character
            and len(marker) >= fence_run
            and indent <= max(fence_indent, 3)
            and not rest.strip()
        ):
            spans.append((fence_start, min(line_end, fence_limit)))
            fence_start = None
    if fence_start is not None and not provisional:
        spans.append((fence_start, fence_limit))
    return spans


def code_span_spans(text: str) -> list[tuple[int, int]]:
    """Code spans as Markdown reads them: a backtick run up to the next run of the same length.

    An opening run with no closing one in its paragraph is literal text, and
    the search goes on from the next run: ``code_span_spans("a ` b `` c ``")``
    -> ``[(6, 13)]``. A span never crosses a blank line or a masked fence.
    Linear: each run's next run of the same length is found in one pass from the end.
    """
    runs = [(match.start(), match.end()) for match in BACKTICK_RUN.finditer(text)]
    following: list[int | None] = [None] * len(runs)
    latest: dict[int, int] = {}
    for number in range(len(runs) - 1, -1, -1):
        length = runs[number][1] - runs[number][0]
        following[number] = latest.get(length)
        latest[length] = number
    barriers = [match.start() for match in re.finditer(r"\n[ \t]*\n|" + MASK, text)]
    spans = []
    number = 0
    while number < len(runs):
        closing = following[number]
        if closing is None:
            number += 1
            continue
        start, end = runs[number][0], runs[closing][1]
        barrier = bisect_right(barriers, start)
        if barrier < len(barriers) and barriers[barrier] < end:
            number += 1
            continue
        spans.append((start, end))
        number = closing + 1
    return spans


def masked_code(text: str, fences: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every fence and code span replaced by NUL characters (same length), and the code spans.

    ``masked_code("a `b.c` d", [])`` -> ``("a \\0\\0\\0\\0\\0 d", [(2, 7)])``. The loader
    refuses NUL in a source, so a masked character can never be mistaken for text.
    """
    pieces = []
    position = 0
    for start, end in fences:
        pieces.append(text[position:start])
        pieces.append(MASK * (end - start))
        position = end
    pieces.append(text[position:])
    unfenced = "".join(pieces)
    code_spans = code_span_spans(unfenced)
    pieces = []
    position = 0
    for start, end in code_spans:
        pieces.append(unfenced[position:start])
        pieces.append(MASK * (end - start))
        position = end
    pieces.append(unfenced[position:])
    return "".join(pieces), code_spans


# --- sentences -----------------------------------------------------------------


def sentence_spans(masked: str, start: int, end: int, fences: list[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The sentences of one block ``masked[start:end]``, trimmed, in order.

    A sentence ends after ``.``, ``!`` or ``?`` (and any closing quote or bracket)
    followed by whitespace, unless the word is an abbreviation (``e.g.``) or the
    next word starts in lower case; a blank line, a list item and a header line
    (an admonition, alert, ``///`` block, ``:::`` container or content tab
    marker, see ``HEADER_LINE``) also end one, and a header is no sentence itself.
    Masked code never ends a sentence and a block of masked code yields none.
    ``sentence_spans("Call f(). It fails.\\n", 0, 20)`` -> ``[(0, 9), (10, 19)]``.
    """
    cuts = {start, end}
    # A fence inside the block (the lesson grammar does not know fences) is cut out whole.
    # Only the fences that reach into the block are looked at, so a page of many fences stays linear.
    position = max(bisect_right(fences, (start, start)) - 1, 0)
    while position < len(fences) and fences[position][0] < end:
        cuts.update(edge for edge in fences[position] if start < edge < end)
        position += 1
    # Header lines are tried at line starts only: tried everywhere, a long run of spaces is rescanned
    # from each of its characters.
    headers = []
    line_start = start
    while line_start < end:
        match = HEADER_LINE.match(masked, line_start, end)
        if match is not None:
            headers.append((match.start(), match.end()))
            cuts.update((match.start(), match.end()))
        newline = masked.find("\n", line_start, end)
        if newline == -1:
            break
        line_start = newline + 1
    for pattern in (LIST_ITEM, BLANK_LINE):
        cuts.update(match.start() + 1 for match in pattern.finditer(masked, start, end))
    for match in SENTENCE_END.finditer(masked, start, end):
        if is_sentence_end(masked, match.start(), match.end(), end):
            cuts.add(match.end())
    points = sorted(cuts)
    spans = []
    # Headers and pieces are both in text order and every header edge is a cut, so one
    # pointer tells whether a piece lies inside a header (one pass, not pieces x headers).
    header = 0
    for piece_start, piece_end in zip(points, points[1:]):
        while header < len(headers) and headers[header][1] <= piece_start:
            header += 1
        if header < len(headers) and headers[header][0] <= piece_start and piece_end <= headers[header][1]:
            continue
        trimmed = trimmed_span(masked, piece_start, piece_end)
        if trimmed is not None:
            spans.append(trimmed)
    return spans


def table_row_spans(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """Each row of a table block as one sentence (its cells read together); the ``|---|`` rule is none.

    ``table_row_spans("| a | b |\n|---|---|\n| c | d |\n", 0, 30)`` -> ``[(2, 7), (22, 27)]``.
    """
    spans = []
    line_start = start
    while line_start < end:
        newline = masked.find("\n", line_start, end)
        line_end = end if newline == -1 else newline
        row_start = line_start
        while row_start < line_end and masked[row_start] in " \t|":
            row_start += 1
        row_end = line_end
        while row_end > row_start and masked[row_end - 1] in " \t|":
            row_end -= 1
        if any(character.isalpha() for character in masked[row_start:row_end]):
            spans.append((row_start, row_end))
        line_start = line_end + 1
    return spans


def is_sentence_end(masked: str, mark_start: int, mark_end: int, limit: int) -> bool:
    """Whether the punctuation at ``[mark_start, mark_end)`` ends a sentence (see ``sentence_spans``)."""
    word_start = mark_start
    while word_start > 0 and (masked[word_start - 1].isalnum() or masked[word_start - 1] == "."):
        word_start -= 1
    if masked[word_start:mark_start].lower() in ABBREVIATIONS and masked[mark_start] == ".":
        return False
    following = mark_end
    while following < limit and masked[following].isspace():
        following += 1
    return following >= limit or not masked[following].islower()


def trimmed_span(masked: str, start: int, end: int) -> tuple[int, int] | None:
    """``[start, end)`` without surrounding whitespace or list and quote markers; ``None`` if no prose is left."""
    start = LEADING_MARKERS.match(masked, start, end).end()
    while end > start and masked[end - 1].isspace():
        end -= 1
    piece = masked[start:end]
    if not piece or not any(character.isalpha() for character in piece):
        return None
    return start, end


# --- what a sentence holds --------------------------------------------------------


def first_cue(masked_sentence: str) -> str | None:
    """The leftmost cue in a sentence with its code masked, as listed in ``CUES``; ``None`` if none.

    ``first_cue("Never call it twice; it fails.")`` -> ``"never"``.
    """
    for match in CUE_PATTERN.finditer(masked_sentence):
        cue = CUES[match.lastindex - 1]
        if not is_turn_of_phrase(masked_sentence, cue, match.start(), match.end()):
            return cue
    return None


def is_turn_of_phrase(masked_sentence: str, cue: str, start: int, end: int) -> bool:
    """Whether the cue at ``[start, end)`` is a turn of phrase that warns of nothing.

    A prohibition that removes an obligation (``"You don't have to close it"``,
    ``"it never needs to"``); one in a purpose clause (``"so that it never"``,
    ``"so you don't"``, not ``"so you cannot"``); a ``don't`` or ``do not`` after
    ``we`` (``"we don't use it directly"``, not ``"we don't support"``); and a
    figurative ``raises`` (``"raises the question"``).
    """
    after = NOT_A_CAVEAT_AFTER.get(cue)
    if after is not None and after.match(masked_sentence, end):
        return True
    if cue not in PROHIBITIONS:
        return False
    before = NOT_A_CAVEAT_BEFORE.search(masked_sentence, max(start - BEFORE_CUE_WINDOW, 0), start)
    if before is None:
        return False
    if before.group("so_that") is not None:
        return True
    if before.group("so") is not None:
        return cue in PURPOSE_CUES
    return cue in NARRATION_CUES and STATED_LIMIT.match(masked_sentence, end) is None


def opening_anaphor(masked_sentence: str) -> str | None:
    """The anaphor a sentence opens with, as written: ``"This operation refuses …"`` -> ``"This operation"``."""
    match = ANAPHOR_PATTERN.match(masked_sentence)
    return None if match is None else match.group(0)


def sentence_identifiers(text: str, masked: str, start: int, end: int, code_spans: list[tuple[int, int]]) -> frozenset:
    """The names a sentence gives as code: call names, words inside code spans, snake_case/dotted/camelCase words."""
    names = {part for match in CALL.finditer(masked, start, end) for part in WORD.findall(match.group(1))}
    for code_start, code_end in spans_within(code_spans, start, end):
        names.update(word for word in WORD.findall(text, code_start, code_end) if len(word) >= 3)
    names.update(word for word in WORD.findall(masked, start, end) if IDENTIFIER_LIKE.fullmatch(word))
    names.update(
        part for match in DOTTED.finditer(masked, start, end) for part in WORD.findall(match.group(0)) if len(part) >= 3
    )
    return frozenset(names)


def sentence_words(text: str, start: int, end: int) -> frozenset:
    """Every word of three or more characters in ``text[start:end]``, code included, as written."""
    return frozenset(word for word in WORD.findall(text, start, end) if len(word) >= 3)


def spans_within(spans: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a sorted, disjoint list that lie inside ``[start, end)``."""
    position = bisect_right(spans, (start, -1))
    found = []
    while position < len(spans) and spans[position][1] <= end:
        if spans[position][0] >= start:
            found.append(spans[position])
        position += 1
    return found


def is_instruction(text: str, masked: str, start: int, end: int, code_spans: list[tuple[int, int]]) -> bool:
    """Whether a sentence gives an instruction: it names a call, holds a code span, or opens with an imperative."""
    if CALL.search(masked, start, end) or spans_within(code_spans, start, end):
        return True
    first = WORD.match(masked, start, end)
    return first is not None and first.group(0).lower() in IMPERATIVE_VERBS


# --- pairing ------------------------------------------------------------------------


def cautionary_cue(block: grammars.Block) -> str | None:
    """``"warning admonition"`` or ``"caution alert"`` for a cautionary block; ``None`` for any other."""
    if block.label not in CAUTIONARY_LABELS:
        return None
    if block.kind == "admonition":
        return f"{block.label} admonition"
    if block.kind == "quote":
        return f"{block.label} alert"
    return None


def section_caveats_and_sentences(
    text: str, masked: str, code_spans: list, fences: list, section: grammars.Section
) -> list[Sentence | Caveat]:
    """A section's sentences and cautionary blocks in text order; a cautionary block replaces its sentences."""
    items: list[Sentence | Caveat] = []
    for number, block in enumerate(section.blocks):
        if block.kind == "fence":
            continue
        spans = (
            table_row_spans(masked, block.start, block.end)
            if block.kind == "table"
            else sentence_spans(masked, block.start, block.end, fences)
        )
        cue = cautionary_cue(block)
        if cue is not None:
            # The whole block is the caveat, its marker line included: the marker says how grave it is.
            start = block.start + len(text[block.start : block.end]) - len(text[block.start : block.end].lstrip())
            end = block.start + len(text[block.start : block.end].rstrip())
            if start < end:
                anaphor = opening_anaphor(masked[spans[0][0] : spans[0][1]]) if spans else None
                words = sentence_words(text, start, end)
                items.append(Caveat(start, end, number, cue, words, anaphor, normalized_text(text, start, end)))
            continue
        for start, end in spans:
            masked_sentence = masked[start:end]
            items.append(
                Sentence(
                    start,
                    end,
                    number,
                    first_cue(masked_sentence),
                    is_instruction(text, masked, start, end, code_spans),
                    sentence_identifiers(text, masked, start, end, code_spans),
                    sentence_words(text, start, end),
                    opening_anaphor(masked_sentence),
                    normalized_text(text, start, end),
                )
            )
    return items


def normalized_text(text: str, start: int, end: int) -> str:
    """``text[start:end]`` with every run of whitespace one space: ``"Call\\n  f()."`` -> ``"Call f()."``."""
    return " ".join(text[start:end].split())


def chosen_instruction(candidates, caveat: Sentence | Caveat) -> tuple[Sentence, str] | None:
    """The instruction for ``caveat`` among ``candidates`` (nearest last) and how they are linked.

    A candidate that overlaps the caveat or is a copy of it (the same text once
    whitespace is normalized: a sentence repeated further down the page) is
    never its instruction. Among the others, the nearest sharing an identifier
    with the caveat wins (``"identifier save_copy"``); else the nearest, linked
    by the caveat's opening anaphor if it has one (``"anaphor This operation"``)
    or by nearness alone (``"nearest"``).
    """
    usable = [
        candidate
        for candidate in candidates
        if not (candidate.start < caveat.end and caveat.start < candidate.end)
        and candidate.normalized != caveat.normalized
    ]
    if not usable:
        return None
    for candidate in reversed(usable):
        shared = candidate.identifiers & caveat.words
        if shared:
            return candidate, f"identifier {min(shared)}"
    nearest = usable[-1]
    return nearest, ("nearest" if caveat.anaphor is None else f"anaphor {caveat.anaphor}")


def scan_text(
    source_id: str, text: str, grammar: str = grammars.LESSON_GRAMMAR
) -> tuple[list[FoundPair], list[Unpaired]]:
    """Every instruction/caveat pair of one source under ``grammar``, and the caveats left unpaired."""
    return scan_sections(source_id, text, grammars.document_sections(text, grammar, source_id))


def scan_sections(source_id: str, text: str, sections) -> tuple[list[FoundPair], list[Unpaired]]:
    """Every instruction/caveat pair of one source's ``sections``, in caveat order, and the caveats left unpaired.

    Linear in the text: each sentence is looked at once, and each caveat weighs
    at most ``MAX_CANDIDATES`` earlier instruction sentences.
    """
    sections = tuple(sections)
    fences = fence_spans(text, sections)
    masked, code_spans = masked_code(text, fences)
    newlines = chunk_index.newline_offsets(text)
    pairs: list[FoundPair] = []
    unpaired: list[Unpaired] = []
    names_on_line: dict[int, int] = {}
    for section in sections:
        candidates: deque[Sentence] = deque(maxlen=MAX_CANDIDATES)
        for item in section_caveats_and_sentences(text, masked, code_spans, fences, section):
            while candidates and candidates[0].block < item.block - LOOK_BACK_BLOCKS:
                candidates.popleft()
            caveat_cue = item.cue
            if caveat_cue is not None:
                line = bisect_right(newlines, item.start - 1) + 1
                qualifier = Span(item.start, item.end, text[item.start : item.end])
                chosen = chosen_instruction(candidates, item)
                if chosen is None:
                    unpaired.append(Unpaired(source_id, qualifier, caveat_cue, line))
                else:
                    instruction, link = chosen
                    count = names_on_line.get(line, 0) + 1
                    names_on_line[line] = count
                    name = f"{NAME_PREFIX}{source_id}:{line}" + ("" if count == 1 else f"#{count}")
                    pairs.append(
                        FoundPair(
                            name,
                            source_id,
                            Span(instruction.start, instruction.end, text[instruction.start : instruction.end]),
                            qualifier,
                            caveat_cue,
                            link,
                            line,
                        )
                    )
            if isinstance(item, Sentence) and item.is_instruction:
                candidates.append(item)
    return pairs, unpaired


def scan_sources(sources, grammar: str = grammars.LESSON_GRAMMAR) -> tuple[list[FoundPair], list[Unpaired]]:
    """``scan_text`` over every source, in ``source_id`` order."""
    pairs: list[FoundPair] = []
    unpaired: list[Unpaired] = []
    for source in sorted(sources, key=lambda source: source["source_id"]):
        found, left = scan_text(source["source_id"], source["text"], grammar)
        pairs.extend(found)
        unpaired.extend(left)
    return pairs, unpaired


# --- verdicts under the lab's policies ------------------------------------------------

# Why a policy separates a pair inside one section: each policy has one kind of boundary there.
SPLIT_REASONS = MappingProxyType(
    {"fixed-char": "fixed-width cut", "paragraph": "block break", "heading-aware": "size target"}
)
HEADING_REASON = "heading"
REASON_ORDER = (HEADING_REASON, "block break", "size target", "fixed-width cut")


def policy_verdict(policy: str, chunks: span_checks.SourceChunks | None, headings: list[int], check) -> dict:
    """Whether one chunk of ``policy`` holds both spans of ``check``; if not, where and why they are cut.

    The reason follows from the spans and the policy's rule: a heading between
    the spans ends every chunk; otherwise fixed-char cuts at its width,
    paragraph at every block break, and heading-aware only where the next block
    would take the group past its size target.
    """
    instruction, qualifier = check.instruction, check.qualifier
    low = min(instruction.start, qualifier.start)
    high = max(instruction.end, qualifier.end)
    if chunks is not None:
        if chunks.holding(low, high):
            return {"same_chunk": True, "split_by": None, "boundary": None}
    boundary = None if chunks is None else chunks.first_edge_inside(low, high)
    position = bisect_right(headings, low)
    if position < len(headings) and headings[position] < high:
        reason = HEADING_REASON
    else:
        reason = SPLIT_REASONS[policy]
    return {"same_chunk": False, "split_by": reason, "boundary": boundary}


def heading_offsets(sources, grammar: str) -> dict[str, list[int]]:
    """Every source's section heading offsets, for telling a heading between two spans."""
    return {
        source["source_id"]: [
            section.heading_start
            for section in grammars.document_sections(source["text"], grammar, source["source_id"])
        ]
        for source in sources
    }


def spans_overlap(first: Span, second: Span) -> bool:
    return first.start < second.end and second.start < first.end


def same_pair(pair, check) -> bool:
    """Whether a found pair is ``check`` already: one source, overlapping instructions and overlapping qualifiers.

    Overlap rather than equality, so a hand-declared check quoting only
    ``Call save_copy(path, text)`` counts as the scanned sentence it lies in.
    """
    return (
        pair.source_id == check.source_id
        and spans_overlap(pair.instruction, check.instruction)
        and spans_overlap(pair.qualifier, check.qualifier)
    )


def declared_names(pairs: list[FoundPair], checks) -> list[str | None]:
    """For each found pair, the name of the first check (manifest order) it already is, or ``None``.

    Checks are indexed by source and qualifier start once, so each pair looks
    only at the checks whose qualifier could overlap its own.
    """
    groups: dict[str, list[tuple[int, int, object]]] = {}
    for position, check in enumerate(checks):
        groups.setdefault(check.source_id, []).append((check.qualifier.start, position, check))
    indexed = {}
    for source_id, group in groups.items():
        group.sort(key=lambda entry: entry[:2])
        longest = max(check.qualifier.end - check.qualifier.start for _, _, check in group)
        indexed[source_id] = ([start for start, _, _ in group], group, longest)
    names = []
    for pair in pairs:
        name = None
        if pair.source_id in indexed:
            starts, group, longest = indexed[pair.source_id]
            first = bisect_right(starts, pair.qualifier.start - longest)
            last = bisect_right(starts, pair.qualifier.end - 1)
            matches = [(position, check) for _, position, check in group[first:last] if same_pair(pair, check)]
            name = min(matches, key=lambda match: match[0])[1].name if matches else None
        names.append(name)
    return names


# --- the scan report --------------------------------------------------------------------


def span_json(span: Span) -> dict:
    return {"start": span.start, "end": span.end, "quote": span.quote}


def scan_report(manifest, indexes: dict, grammar: str = grammars.LESSON_GRAMMAR, found: tuple | None = None) -> dict:
    """Every pair found in the manifest's sources, each judged under every policy of ``indexes``, as JSON.

    Per pair: name, source, line, both spans with their quotes, the cue, the
    link, the declared check it already is (``declared_as``), and per policy
    whether one chunk holds both (``same_chunk``) and, if not, ``split_by`` and
    the ``boundary`` offset. Per policy: found, kept together, split and the
    splits by reason. Unpaired caveats are listed apart. ``found`` is
    ``scan_sources``'s answer when the caller already has it.
    """
    pairs, unpaired = scan_sources(manifest.sources, grammar) if found is None else found
    headings = heading_offsets(manifest.sources, grammar)
    grouped = {name: span_checks.chunks_by_source(index) for name, index in indexes.items()}
    declared = declared_names(pairs, manifest.span_checks)
    pair_records = []
    for pair, declared_as in zip(pairs, declared):
        verdicts = {
            name: policy_verdict(name, chunks.get(pair.source_id), headings[pair.source_id], pair)
            for name, chunks in grouped.items()
        }
        pair_records.append(
            {
                "name": pair.name,
                "source_id": pair.source_id,
                "line": pair.line,
                "instruction": span_json(pair.instruction),
                "qualifier": span_json(pair.qualifier),
                "cue": pair.cue,
                "link": pair.link,
                "declared_as": declared_as,
                "policies": verdicts,
            }
        )
    policies = []
    for name in indexes:
        verdicts = [record["policies"][name] for record in pair_records]
        split_by = {reason: 0 for reason in REASON_ORDER}
        for verdict in verdicts:
            if not verdict["same_chunk"]:
                split_by[verdict["split_by"]] += 1
        kept = sum(verdict["same_chunk"] for verdict in verdicts)
        policies.append(
            {
                "policy": name,
                "found": len(verdicts),
                "kept_together": kept,
                "split": len(verdicts) - kept,
                "split_by": split_by,
            }
        )
    return {
        "scan_version": SCAN_VERSION,
        "grammar": grammar,
        "policies": policies,
        "pairs": pair_records,
        "unpaired": [
            {"source_id": item.source_id, "line": item.line, "qualifier": span_json(item.span), "cue": item.cue}
            for item in unpaired
        ],
    }


def verdict_phrase(policy: str, verdict: dict) -> str:
    """``"paragraph split (block break at 130)"`` or ``"heading-aware same chunk"``."""
    if verdict["same_chunk"]:
        return f"{policy} same chunk"
    at = "" if verdict["boundary"] is None else f" at {verdict['boundary']}"
    return f"{policy} split ({verdict['split_by']}{at})"


def scan_table(report: dict) -> str:
    """The scan as a person reads it: a table per policy, then each pair with its quotes and verdicts."""
    header = ("policy", "found", "kept together", "split", *(f"by {reason}" for reason in REASON_ORDER))
    rows = [header]
    for policy in report["policies"]:
        rows.append(
            (
                policy["policy"],
                str(policy["found"]),
                str(policy["kept_together"]),
                str(policy["split"]),
                *(str(policy["split_by"][reason]) for reason in REASON_ORDER),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(widths[0]) if column == 0 else cell.rjust(widths[column]) for column, cell in enumerate(row)
        )
        for row in rows
    ]
    pairs = report["pairs"]
    sources = len({pair["source_id"] for pair in pairs})
    lines.append(f"{counted(len(pairs), 'pair')} found in {counted(sources, 'source')}")
    if report["unpaired"]:
        lines.append(
            f"{counted(len(report['unpaired']), 'caveat')} without an instruction in reach "
            f"(same section, its block and the {LOOK_BACK_BLOCKS} before it); see --json"
        )
    for pair in pairs[:LISTED_PAIRS]:
        declared = "" if pair["declared_as"] is None else f" · declared as {printable(pair['declared_as'])}"
        lines.append("")
        lines.append(f"{printable(pair['name'])} · cue {quoted(pair['cue'])} · {printable(pair['link'])}{declared}")
        for role in ("instruction", "qualifier"):
            span = pair[role]
            lines.append(f"  {role:<11} [{span['start']}, {span['end']}) {quoted(span['quote'], limit=90)}")
        lines.append("  " + ", ".join(verdict_phrase(name, verdict) for name, verdict in pair["policies"].items()))
    if len(pairs) > LISTED_PAIRS:
        # Four lines a pair: a docs set's thousands of pairs would bury the table; --json has them all.
        lines.append("")
        lines.append(f"… {len(pairs) - LISTED_PAIRS:,} more pairs: scan --json lists every one")
    return "\n".join(lines)


LISTED_PAIRS = 20
"""``scan`` prints the quotes and verdicts of at most this many pairs; the table counts them all."""


# --- writing found pairs into the manifest ---------------------------------------------


def check_entry(pair: FoundPair, name: str) -> dict:
    """A found pair as a manifest ``span_checks`` entry in quote form, offsets included."""
    return {
        "name": name,
        "source_id": pair.source_id,
        "instruction": span_json(pair.instruction),
        "qualifier": span_json(pair.qualifier),
    }


def unused_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name~2``, ``name~3``… when a check of another pair already has it."""
    if name not in taken:
        return name
    number = 2
    while f"{name}~{number}" in taken:
        number += 1
    return f"{name}~{number}"


def checks_to_add(pairs: list[FoundPair], checks) -> list[dict]:
    """The manifest entries for found pairs that no existing check already is (``same_pair``).

    Existing checks are never touched. A pair whose scan name is taken by a
    check of another pair gets the first free ``~N`` suffix, so names stay unique.
    """
    taken = {check.name for check in checks}
    entries = []
    for pair, declared_as in zip(pairs, declared_names(pairs, checks)):
        if declared_as is not None:
            continue
        name = unused_name(pair.name, taken)
        taken.add(name)
        entries.append(check_entry(pair, name))
    return entries
