"""What makes a sentence a caveat or an instruction: the scan's word lists and its tests on one sentence.

The lists and their limits are stated in ``docs/caveats.md``. Every test here
reads one sentence with its code masked (``checks.caveats.masking``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from types import MappingProxyType

import grammars

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


CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\((?!s\))")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A prose word that reads as code: snake_case or camelCase; or a dotted name (``client.open``).
DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
IDENTIFIER_LIKE = re.compile(r"[A-Za-z0-9]*(?:_[A-Za-z0-9_]*|[a-z][A-Z][A-Za-z0-9]*)")


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


def cautionary_cue(block: grammars.Block) -> str | None:
    """``"warning admonition"`` or ``"caution alert"`` for a cautionary block; ``None`` for any other."""
    if block.label not in CAUTIONARY_LABELS:
        return None
    if block.kind == "admonition":
        return f"{block.label} admonition"
    if block.kind == "quote":
        return f"{block.label} alert"
    return None
