"""The literal text no cue can do without: a quick test that lets a sentence holding none skip the caveat rules.

Most sentences of a docs set hold no cue, yet the cue pattern (``rules.CUE_PATTERN``, one alternation of
every cue) costs as much on each of them as on a caveat. Every cue needs some literal text: ``must`` for
``must\\s+not``, ``not`` for ``(?:is|are)\\s+(?:\\w+ly\\s+)?not``, ``n't`` for ``(?:is|are)\\s*n't``. This
module reads those literals off the patterns themselves (their parse, by ``re``'s own parser), so they never
drift from the rules, and builds one pattern that finds any of them (``anchor_pattern``). A sentence whose
masked text, case folded (``FOLD``), holds none of them has no cue: the rules would find no caveat in it.

Why a literal of what the rules read is in the masked text: the prose view (``rules.prose_view``) only turns
markup into spaces, so every other character is as in the masked text, at the same offset. A literal the
pattern places at a word start (after the cue's start or a space) follows, in the masked text, either the
same character (no letter or digit) or the last character of the markup blanked before it, which is no letter
or digit either (``MARKUP``'s edges are checked, ``edges_outside``); so the test looks for such a literal
after anything but a letter or a digit, or at the start of the sentence. Whatever the parse holds that this
module does not know stops a literal there: the test can only find more sentences, never fewer.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from pathlib import Path

try:  # Python 3.11 and later
    from re import _constants as sre_constants
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants
    import sre_parse

# A-Z as a-z, and the four other characters that ``re.IGNORECASE`` takes for an ASCII letter (dotted and
# dotless i, long s, the Kelvin sign): a literal of a case-insensitive pattern is then a literal here too.
FOLD = str.maketrans(
    {**{chr(code): chr(code + 32) for code in range(ord("A"), ord("Z") + 1)}, "İ": "i", "ı": "i", "ſ": "s", "K": "k"}
)


def case_folded(text: str) -> str:
    """``text.translate(FOLD)``: for ASCII text, where the fold is ``str.lower``, the same in a tenth of the time."""
    return text.lower() if text.isascii() else text.translate(FOLD)


# Past this many literals one position of a pattern gives no anchor (a class of letters, say).
MAX_LITERALS = 64
# Literals are not extended past this length: a longer one finds no more.
MAX_LENGTH = 8
# How many units of a match's opening ``opening_lookahead`` spells out, and the most openings it spells. On the
# cue pattern four found the words worth trying in half the time one character did; longer ones gained nothing.
OPENING_LENGTH = 4
MAX_OPENINGS = 512
# Characters so common in prose that a literal of them alone finds almost every sentence.
COMMON_MARKS = frozenset('.,:;"()-/')
# Words met in almost every sentence: an anchor of one of them alone is chosen last.
FREQUENT_WORDS = frozenset(
    "a an and are as at be by for from in is it its of on or our that the their they this to was we were with you "
    "your".split()
)
# A literal is a tuple of units: a character, or any decimal digit (what ``\\d`` matches in a text pattern).
DIGIT = object()

_LITERAL = sre_constants.LITERAL
_IN = sre_constants.IN
_BRANCH = sre_constants.BRANCH
_SUBPATTERN = sre_constants.SUBPATTERN
_REPEATS = (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT)
_ASSERTIONS = (sre_constants.ASSERT, sre_constants.ASSERT_NOT)
_CATEGORY = sre_constants.CATEGORY
_SPACE = sre_constants.CATEGORY_SPACE
_WORD = sre_constants.CATEGORY_WORD
_DIGIT = sre_constants.CATEGORY_DIGIT


# --- what is read off the patterns, written down ------------------------------------------------------------
#
# Reading the anchors off the rules' patterns is two thirds of importing the rules (about 75 ms of a scan's 140 ms
# import, every run). ``anchor_table.py`` holds the answers of the functions below marked ``written_down``, keyed by
# this module's own bytes, Python's version (whose parser they read) and the arguments: an answer is taken from it
# only for the same code, the same Python and the same patterns, and is read off the patterns as before for any
# other (a rule changed since the table was written costs its time again, never its answer). ``python
# tests/write_anchor_table.py`` writes the table again; tests/test_caveat_anchors.py fails while it is stale.

try:
    CODE_DIGEST = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
except OSError:  # pragma: no cover - a module read from no file
    CODE_DIGEST = ""
PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"
# Every answer asked for in this process: its key, the function that reads it off and the arguments.
ASKED: dict[str, tuple] = {}


def written_answers() -> dict:
    """The table's answers for this module's code under this Python, or none."""
    try:
        from checks.caveats.anchor_table import TABLE
    except ImportError:  # pragma: no cover - the table removed
        return {}
    for section in TABLE:
        if CODE_DIGEST and section["code"] == CODE_DIGEST and PYTHON in section["pythons"]:
            return section["answers"]
    return {}


def argument_key(argument) -> object:
    """An argument as the table's key holds it: a compiled pattern by its text and flags."""
    if isinstance(argument, re.Pattern):
        return ("pattern", argument.pattern, argument.flags)
    if isinstance(argument, (tuple, list)):
        return tuple(argument_key(item) for item in argument)
    return argument


def answer_key(name: str, arguments: tuple) -> str:
    """The table's key of ``name(*arguments)``."""
    return hashlib.sha256(repr((name, argument_key(arguments))).encode("utf-8")).hexdigest()[:32]


def written(answer) -> object:
    """An answer as the table holds it: a compiled pattern by its text (every one here is compiled without flags)."""
    if isinstance(answer, re.Pattern):
        return ["pattern", answer.pattern]
    if isinstance(answer, tuple):
        return [written(item) for item in answer]
    return answer


def revived(value) -> object:
    """An answer as ``written`` wrote it, made again."""
    if isinstance(value, list):
        if len(value) == 2 and value[0] == "pattern":
            return re.compile(value[1])
        return tuple(revived(item) for item in value)
    return value


def written_down(function):
    """``function`` answered from the table where it holds the answer (see above), else read off as before."""
    name = function.__name__

    @functools.wraps(function)
    def answered(*arguments):
        key = answer_key(name, arguments)
        ASKED[key] = (function, arguments)
        answers = WRITTEN_ANSWERS
        return revived(answers[key]) if key in answers else function(*arguments)

    return answered


WRITTEN_ANSWERS = written_answers()


def table_answers() -> dict:
    """Every answer asked for in this process, read off its patterns afresh (the table set aside, for the calls
    these functions make of each other too) and written as the table holds it."""
    global WRITTEN_ANSWERS
    kept, WRITTEN_ANSWERS = WRITTEN_ANSWERS, {}
    try:
        return {key: written(function(*arguments)) for key, (function, arguments) in sorted(ASKED.items())}
    finally:
        WRITTEN_ANSWERS = kept


def is_word_character(character: str) -> bool:
    """What ``\\w`` matches in a text pattern: a letter, a digit or ``_``."""
    return character.isalnum() or character == "_"


def class_units(members: list) -> list | None:
    """The units a class matches: its characters when it is a few plain ones (``['’]`` -> ``["'", "’"]``),
    ``[DIGIT]`` for ``\\d``; ``None`` for any other class."""
    if len(members) == 1 and members[0] == (_CATEGORY, _DIGIT):
        return [DIGIT]
    if len(members) > 4 or any(op is not _LITERAL for op, _ in members):
        return None
    return [chr(code) for _, code in members]


def matches_no_word_character(members: list) -> bool:
    """Whether a class matches only characters that are not word characters (spaces, ``(``, ``,``)."""
    return all(
        (op is _LITERAL and not is_word_character(chr(value))) or (op is _CATEGORY and value is _SPACE)
        for op, value in members
    )


def excludes_word_characters(assertion) -> bool:
    """Whether a negative look-around refuses every word character (``(?<![\\w'’-])``, ``(?![\\w-])``)."""
    _, body = assertion
    return len(body) == 1 and body[0][0] is _IN and any(op is _CATEGORY and value is _WORD for op, value in body[0][1])


def ends_outside_word(items, before: bool) -> bool:
    """Whether the text ``items`` match always ends with a character that is no word character.

    ``before`` says whether the text before them does (an empty match keeps it).
    """
    for op, value in items:
        before = item_ends_outside_word(op, value, before)
    return before


def item_ends_outside_word(op, value, before: bool) -> bool:
    if op is _LITERAL:
        return not is_word_character(chr(value))
    if op is _IN:
        return matches_no_word_character(value)
    if op is sre_constants.ASSERT_NOT and value[0] == -1 and excludes_word_characters(value):
        # (?<![\w…]): whatever comes before is no word character.
        return True
    if op in _ASSERTIONS or op is sre_constants.AT:
        return before
    if op is _SUBPATTERN:
        return ends_outside_word(value[-1], before)
    if op is _BRANCH:
        return all(ends_outside_word(branch, before) for branch in value[1])
    if op in _REPEATS:
        low, _, body = value
        settled = ends_outside_word(body, False) or (before and ends_outside_word(body, True))
        return settled if low >= 1 else before and settled
    return False


def literal_starts(items, room: int = MAX_LENGTH, limit: int = MAX_LITERALS) -> set[tuple] | None:
    """The literals (tuples of units) a match of ``items`` must start with; ``()`` in it when some match starts
    otherwise, ``None`` when they are more than ``limit`` (too many to look for).

    ``literal_starts(parse("mustn'?t"))`` -> the units of ``mustn'`` and ``mustnt``. A literal stops at a space
    (the prose view may hold a space where the masked text holds markup), at what this module does not read, at a
    repeat, and after ``room`` units: a shorter literal is still one every match starts with.
    """
    if not items or room == 0:
        return {()}
    op, value = items[0]
    rest = items[1:]
    if op is _LITERAL or op is _IN:
        units = [chr(value)] if op is _LITERAL else class_units(value)
        if units is None or any(unit is not DIGIT and unit.isspace() for unit in units):
            return {()}
        tails = literal_starts(rest, room - 1, limit)
        if tails is None or len(units) * len(tails) > limit:
            return {(unit,) for unit in units}
        return {(unit,) + tail for unit in units for tail in tails}
    if op in _ASSERTIONS:
        return literal_starts(rest, room, limit)
    if op is _SUBPATTERN:
        return literal_starts(list(value[-1]) + rest, room, limit)
    if op is _BRANCH:
        found: set[tuple] = set()
        for branch in value[1]:
            starts = literal_starts(list(branch) + rest, room, limit)
            if starts is None:
                return None
            found |= starts
            if len(found) > limit:
                return None
        return found
    if op in _REPEATS:
        low, _, body = value
        once = literal_starts(list(body), room, limit)
        if low >= 1 or once is None:
            return once
        skipped = literal_starts(rest, room, limit)
        return None if skipped is None or len(once | skipped) > limit else once | skipped
    return {()}


def last_repeat_starts(op, value, rest: list) -> set[tuple] | None:
    """For a repeat of one unit (``\\d+``), the literals its last round and what follows start with (``\\d.\\d``
    for ``\\d+(?:\\.\\d+)+``), found anywhere in a match; ``None`` for any other item."""
    if op not in _REPEATS or value[0] < 1 or len(value[2]) != 1 or value[2][0][0] not in (_LITERAL, _IN):
        return None
    unit_op, unit_value = value[2][0]
    units = [chr(unit_value)] if unit_op is _LITERAL else class_units(unit_value)
    if units is None or any(unit is not DIGIT and unit.isspace() for unit in units):
        return None
    tails = literal_starts(rest, MAX_LENGTH - 1)
    if tails is None or len(units) * len(tails) > MAX_LITERALS:
        return {(unit,) for unit in units}
    return {(unit,) + tail for unit in units for tail in tails}


# (Cached, as ``folded`` is: reading the cue pattern's anchors weighs the same few thousand anchors again and again,
# each time a set holding them is offered, which took a quarter of that reading at every start of a scan.)
@functools.cache
def weight(anchor: tuple[tuple, bool]) -> int:
    """How rarely an anchor is met in prose, roughly: its letters, twice its rare marks and digits, one more at a
    word start (a guess that only orders the choices: every choice is a literal every match holds)."""
    literal, word_start = anchor
    if "".join(unit for unit in literal if unit is not DIGIT) in FREQUENT_WORDS:
        return 1
    letters = sum(1 for unit in literal if unit is not DIGIT and unit.isalpha())
    rare = sum(1 for unit in literal if unit is DIGIT or not (unit.isalpha() or unit in COMMON_MARKS))
    return letters + 2 * rare + (1 if word_start else 0)


def rank(anchors: frozenset) -> tuple:
    return (min(weight(anchor) for anchor in anchors), -len(anchors))


def word_head(literal: tuple) -> tuple:
    """A literal up to its first unit that is no letter or digit: ``can't`` -> ``can``; a digit ends it too."""
    for position, unit in enumerate(literal):
        if unit is DIGIT or not unit.isalnum():
            return literal[:position]
    return literal


@functools.cache
def folded(literal: tuple) -> tuple:
    return tuple(unit if unit is DIGIT else unit.translate(FOLD) for unit in literal)


def sequence_anchors(items, after_word_break: bool, rest: list) -> frozenset | None:
    """The rarest set of anchors one of which every match of ``items`` (then ``rest``) holds; ``None`` if none.

    An anchor is ``(literal, word_start)``: the literal, and whether it always starts where the character
    before is no word character (``after_word_break`` says so of the start of ``items``).
    """
    best = None
    best_rank = None

    def offer(anchors) -> None:
        nonlocal best, best_rank
        if anchors:
            ranked = rank(anchors)
            if best is None or ranked > best_rank:
                best, best_rank = frozenset(anchors), ranked

    items = list(items)
    for position, (op, value) in enumerate(items):
        following = items[position + 1 :] + rest
        # Inside a word the literal from the word's first letter is the better one: start none there.
        inside_word = position > 0 and items[position - 1][0] is _LITERAL and chr(items[position - 1][1]).isalnum()
        starts = None if inside_word else literal_starts(items[position:] + rest)
        if starts is not None and () not in starts:
            offer({(folded(literal), False) for literal in starts})
            if after_word_break:
                heads = {word_head(literal) for literal in starts}
                if () not in heads:
                    offer({(folded(head), True) for head in heads})
        last_round = last_repeat_starts(op, value, following)
        if last_round is not None and () not in last_round:
            offer({(folded(literal), False) for literal in last_round})
        if op is _SUBPATTERN:
            offer(sequence_anchors(value[-1], after_word_break, following))
        elif op is _BRANCH:
            parts = [sequence_anchors(branch, after_word_break, following) for branch in value[1]]
            offer(None if any(part is None for part in parts) else frozenset().union(*parts))
        elif op in _REPEATS and value[0] >= 1:
            offer(sequence_anchors(value[2], after_word_break, following))
        after_word_break = item_ends_outside_word(op, value, after_word_break)
    return best


def pattern_anchors(pattern: re.Pattern) -> frozenset | None:
    """The anchors of a compiled pattern (``sequence_anchors``), or ``None`` when it has none this module can read."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except Exception:  # pragma: no cover - a parser this module does not know: no anchors, every sentence is read
        return None
    return sequence_anchors(list(parsed), False, [])


def edge_characters(items, last: bool, digits: bool = False) -> set | None:
    """Every character a match of ``items`` can start with (or end with, ``last``); ``None`` if this module cannot tell
    (or a match may be empty). With ``digits``, a decimal digit is one unit, ``DIGIT``."""
    found: set = set()
    for op, value in reversed(items) if last else items:
        if op in _ASSERTIONS:
            continue
        if op is _LITERAL:
            return found | {chr(value)}
        if op is _IN:
            units = class_units(value)
            return None if units is None or (DIGIT in units and not digits) else found | set(units)
        if op is _SUBPATTERN:
            edges = edge_characters(value[-1], last, digits)
            return None if edges is None else found | edges
        if op is _BRANCH:
            for branch in value[1]:
                edges = edge_characters(branch, last, digits)
                if edges is None:
                    return None
                found |= edges
            return found
        if op in _REPEATS:
            edges = edge_characters(value[2], last, digits)
            if edges is None:
                return None
            found |= edges
            if value[0] >= 1:
                return found
            # An optional part: what follows it may come first.
            continue
        return None
    return None


def first_character_class(pattern: str) -> str | None:
    """A class of every character a match of ``pattern`` can start with (``[\\*_]``), or ``None`` when this module
    cannot tell: a text holding none of them holds no match."""
    units = edge_characters(list(sre_parse.parse(pattern)), last=False, digits=True)
    if not units:
        return None
    return "[" + "".join(r"\d" if unit is DIGIT else re.escape(unit) for unit in sorted(units, key=str)) + "]"


@written_down
def first_character_lookahead(pattern: str) -> str:
    """``(?=[…])`` of every character a match of ``pattern`` can start with, or ``""`` when this module cannot tell.

    Put before an alternation of many entries, it lets the engine pass over a place on one look where no
    entry could start, without changing what matches.
    """
    characters = first_character_class(pattern)
    return "" if characters is None else f"(?={characters})"


@written_down
def opening_lookahead(pattern: str) -> str:
    """``(?=…)`` of the literals of up to ``OPENING_LENGTH`` units every match of ``pattern`` starts with, shared by
    their common beginnings (``trie_pattern``); ``first_character_lookahead`` when some match may start otherwise.

    ``opening_lookahead("must(?:n't)?|can\\s+not")`` -> ``"(?=(?:can|must))"``. Put before an alternation of many
    entries that share few openings, it passes over a word no entry can start with on a few compares of its
    first letters, where one class of first characters lets nearly every word through to every entry.
    """
    literals = literal_starts(list(sre_parse.parse(pattern)), OPENING_LENGTH, MAX_OPENINGS)
    if literals is None or () in literals:
        return first_character_lookahead(pattern)
    # A literal another one starts ("mustn" after "must") finds nothing more.
    shortest = [
        literal for literal in literals if not any(literal[:size] in literals for size in range(1, len(literal)))
    ]
    return "(?=" + trie_pattern(sorted(shortest, key=spelled)) + ")"


def first_character_led(compiled: re.Pattern) -> re.Pattern:
    """``compiled`` behind ``first_character_lookahead`` of its pattern (same flags), or as it is when this module
    cannot tell its first characters: the same matches at the same places, found sooner in prose, where most
    places start none and the engine otherwise tries the whole pattern at each. When the pattern is an alternation
    whose every branch opens on a word start (``branches_open_on_word_start``), that is tested first too, once for
    all of them: inside a word, where most places are, the engine then gives up on one look where it tried each
    branch's own (a pattern of one branch looks once already).

    Only for a pattern that opens on no literal: ``re`` looks for a literal opening itself, faster than any look ahead.
    """
    lookahead = first_character_lookahead(compiled.pattern)
    if not lookahead:
        return compiled
    word_start = WORD_START if branches_open_on_word_start(compiled.pattern, compiled.flags) else ""
    return re.compile(word_start + lookahead + "(?:" + compiled.pattern + ")", compiled.flags)


# A pattern opening on a look behind for a class of characters and then one literal character, a letter or a hyphen:
# ``(?<![\w'])I…``, ``(?<![\w-])-…``; not one the pattern repeats or makes optional (``(?<![\w])I?s``), which a
# match need not hold.
LOOK_BEHIND_THEN_LITERAL = re.compile(r"\(\?<!(\[(?:\\.|[^\]\\])*\])\)([A-Za-z-])(?![?*+{])")


def literal_first(compiled: re.Pattern) -> re.Pattern:
    r"""``compiled`` with its opening look behind moved after the character it guards, ``(?<![\w'])I…`` ->
    ``I(?<![\w']I)…`` (the character before it is the one tested): the same matches, and ``re`` looks for the
    character itself quickly, where a pattern that opens on a look behind is tried at every place. A pattern of
    any other shape, or matched case-insensitively (no letter is looked for quickly then), is kept as it is."""
    opening = LOOK_BEHIND_THEN_LITERAL.match(compiled.pattern)
    if opening is None or compiled.flags & re.IGNORECASE:
        return compiled
    characters, literal = opening.groups()
    return re.compile(f"{literal}(?<!{characters}{literal})" + compiled.pattern[opening.end() :], compiled.flags)


# The look behind for a word start the rules' patterns open their branches with.
WORD_START = r"(?<!\w)"


@written_down
def branches_open_on_word_start(pattern: str, flags: int = 0) -> bool:
    r"""Whether ``pattern`` is an alternation every match of which opens with the look behind ``(?<!\w)``: each
    branch starts with it, or with a group or alternation each of whose branches does.
    ``(?<!\w)(?:a|b)|(?<!\w)c`` -> ``True``; ``(?<!\w)a|b`` and ``(?<!\w)(?:a|b)`` -> ``False``."""
    parsed = list(sre_parse.parse(pattern, flags))
    word_start = list(sre_parse.parse(WORD_START, flags))[0]
    return len(parsed) == 1 and parsed[0][0] is sre_constants.BRANCH and opens_on(parsed, word_start)


def opens_on(parsed: list, assertion: tuple) -> bool:
    """Whether a parsed sequence opens with ``assertion`` (an item of a parse) on every branch it can take."""
    if not parsed:
        return False
    operation, argument = parsed[0]
    if operation is sre_constants.BRANCH:
        return all(opens_on(list(branch), assertion) for branch in argument[1])
    if operation is sre_constants.SUBPATTERN and not argument[1] and not argument[2]:
        # A group's flags (``(?i:…)``) would change what the assertion reads: only a plain group is looked into.
        return opens_on(list(argument[3]), assertion)
    return operation is assertion[0] and argument[0] == assertion[1][0] and list(argument[1]) == list(assertion[1][1])


def edges_outside(pattern: re.Pattern, first: bool = True) -> bool:
    """Whether every match of ``pattern`` ends (and, with ``first``, starts) with a character that is no letter or digit.

    Markup the prose view blanks (``rules.MARKUP``) must, and a reason the rules blank from a sentence's start
    (``rules.REASON_OPENING``) must end so: the character a word-start literal follows in the masked text is
    then no letter or digit either.
    """
    parsed = list(sre_parse.parse(pattern.pattern, pattern.flags))
    for last in (True, False) if first else (True,):
        edges = edge_characters(parsed, last)
        if edges is None or any(character.isalnum() for character in edges):
            return False
    return True


def holds(literal: tuple, part: tuple) -> bool:
    """Whether ``part`` occurs in ``literal`` (both tuples of units)."""
    return any(literal[start : start + len(part)] == part for start in range(len(literal) - len(part) + 1))


def fewest(anchors: set[tuple[tuple, bool]]) -> tuple[list[tuple], list[tuple]]:
    """The literals to look for anywhere and at a word start, leaving out each one another already implies.

    A word-start literal is implied by a word-start one it starts with (``are`` finds whatever ``aren`` finds)
    or by a literal it holds anywhere; a literal anywhere by one it holds.
    """
    anywhere = {literal for literal, word_start in anchors if not word_start}
    anywhere = {
        literal for literal in anywhere if not any(other != literal and holds(literal, other) for other in anywhere)
    }
    starts = {literal for literal, word_start in anchors if word_start}
    starts = {
        literal
        for literal in starts
        if not any(other != literal and literal[: len(other)] == other for other in starts)
        and not any(holds(literal, other) for other in anywhere)
    }
    return sorted(anywhere, key=spelled), sorted(starts, key=spelled)


def spelled(literal: tuple) -> str:
    """A literal as a regular expression: ``\\d`` for a digit, every character escaped."""
    return "".join(r"\d" if unit is DIGIT else re.escape(unit) for unit in literal)


def trie_pattern(literals) -> str:
    """One alternation of ``literals`` shared by their common beginnings (``can``, ``cause`` -> ``c(?:an|ause)``):
    the regular expression engine tries a few first characters at each place, not every literal."""
    branches = trie_branches(literals)
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def trie_branches(literals, word_start: bool = False) -> list[str]:
    """The branches of ``trie_pattern(literals)``, one for each first unit; with ``word_start``, each asserts after
    its first unit that no letter or digit comes before it (``c(?<![^\\W_]c)(?:an|ause)``): a literal at a word start.

    Opening on the unit rather than on the look behind, an alternation of such branches opens on a class of
    characters, which the engine looks for quickly instead of trying the branches at every place.
    """
    root: dict = {}
    for literal in literals:
        node = root
        for unit in literal:
            node = node.setdefault(spelled((unit,)), {})
        node[""] = {}

    def alternation(node: dict) -> str:
        branches = ["" if unit == "" else unit + alternation(node[unit]) for unit in sorted(node)]
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    after = (lambda unit: rf"(?<![^\W_]{unit})") if word_start else (lambda unit: "")
    return [unit + after(unit) + alternation(root[unit]) for unit in sorted(root)]


@written_down
def anchor_patterns(patterns, blanked_anywhere=(), blanked_openings=()) -> tuple[re.Pattern, re.Pattern] | None:
    """Two patterns for the anchors of ``patterns`` in a masked and folded text: one that finds any of them, one
    that matches one where a text starts (every literal, a word start or not); ``None`` when some pattern has none
    (then no text may skip the rules).

    ``blanked_anywhere`` are the patterns whose matches the rules turn into spaces before reading, and
    ``blanked_openings`` those they blank from a sentence's start: word-start literals are looked for at a
    word start only when no match of them starts (or ends) with a letter or a digit, else anywhere.
    """
    anchors: set[tuple[tuple, bool]] = set()
    for pattern in patterns:
        found = pattern_anchors(pattern)
        if not found:
            return None
        anchors |= found
    word_starts_hold = all(edges_outside(pattern) for pattern in blanked_anywhere) and all(
        edges_outside(pattern, first=False) for pattern in blanked_openings
    )
    if not word_starts_hold:
        anchors = {(literal, False) for literal, _ in anchors}
    anywhere, at_word_start = fewest(anchors)
    if all(literal[0] is not DIGIT for literal in at_word_start + anywhere):
        # Every branch opens on a character: the engine looks for the first characters quickly.
        branches = trie_branches(at_word_start, word_start=True) + trie_branches(anywhere)
    else:
        # A branch opening on any digit leaves no class to look for: the word starts are tested first, once.
        branches = [r"(?<![^\W_])" + trie_pattern(at_word_start)] if at_word_start else []
        branches += [trie_pattern(anywhere)] if anywhere else []
    return re.compile("|".join(branches)), re.compile(trie_pattern(sorted(at_word_start + anywhere, key=spelled)))


def anchor_pattern(patterns, blanked_anywhere=(), blanked_openings=()) -> re.Pattern | None:
    """The pattern that finds any anchor of ``patterns`` (``anchor_patterns``), or ``None``."""
    found = anchor_patterns(patterns, blanked_anywhere, blanked_openings)
    return None if found is None else found[0]


class Guarded:
    """``compiled.search`` behind a quick look for its anchors (``anchor_pattern`` of the pattern alone): the same
    answers, found sooner when, as in most sentences, the text holds none of them. A pattern whose anchors cannot be
    read is searched as it is.

    The look is made in the text case folded: a literal of a case-insensitive match is there as written in the
    pattern, and a word start stays one (folding changes letters only).
    """

    __slots__ = ("compiled", "anchors")

    def __init__(self, compiled: re.Pattern) -> None:
        self.anchors = anchor_pattern((compiled,))
        self.compiled = first_character_led(compiled)

    def search(self, text: str, position: int = 0) -> re.Match | None:
        if self.anchors is not None and self.anchors.search(case_folded(text), position) is None:
            return None
        return self.compiled.search(text, position)
