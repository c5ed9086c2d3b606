"""The lab's one error type and how a refusal shows untrusted values.

Every refusal the lab makes is an ``IngestionError``: a stable ``code``, the
place, and what was wrong, printed by ``run.py`` as one line on stderr.
``quoted`` (text: quotes, saved values), ``quoted_name`` and ``printable``
(names: ids, paths, keys) render untrusted values so that line can never
break in two or drive the terminal.
"""

from __future__ import annotations

import json


class IngestionError(Exception):
    """A refused input: a stable ``code``, the place (``where``) and what was wrong.

    ``str(error)`` is what the CLI prints after ``error: ``, e.g.
    ``hash_mismatch: manifest.json: sources[0] ("aster-copy-v1"): "docs/aster-copy-v1.md": manifest pins 34257e6c9c3e…, file has 0727ef1b6eff…; …``.
    """

    def __init__(self, code: str, where: str, what: str, sought: tuple[str, str] | None = None) -> None:
        # Rendered here, once, so no caller can let a newline or an escape
        # sequence from a path or an argument split the line or drive the terminal.
        where = one_line(where)
        what = one_line(what)
        super().__init__(f"{code}: {where}: {what}")
        self.code = code
        self.where = where
        self.what = what
        # What the refused input looked for in the manifest and did not find, ``("check", NAME)``, ``("source_id",
        # ID)`` or ``("source", REFERENCE)``: the note on a manifest of the current folder names one that holds it.
        self.sought = sought

    def __reduce__(self):
        # Pickled as made, so a worker's refusal (``lab_io.workers``) is raised again whole in the command.
        return type(self), (self.code, self.where, self.what, self.sought)


def quoted(value: object, limit: int = 60) -> str:
    """Show an untrusted value as inert, one-line JSON, shortened to ``limit`` characters.

    ``ensure_ascii`` escapes every control and non-ASCII character, so a value
    can never move the terminal's cursor or pass for markup:
    ``quoted("a\\x1b[2J")`` -> ``'"a\\\\u001b[2J"'``.
    """
    if isinstance(value, str) and len(value) > limit:
        # Cut the text before escaping it, so an escape is never cut in half.
        return json.dumps(value[:limit], ensure_ascii=True) + "…"
    try:
        text = json.dumps(value, ensure_ascii=True, sort_keys=True)
    except (TypeError, ValueError):
        text = f"<{type(value).__name__}>"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


# What JSON calls each type a parser gives (JSON Schema's names: an integer apart from a number written with a
# fraction or an exponent, as validation tells 80 from 80.0).
JSON_TYPE_NAMES = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


def json_type(value: object) -> str:
    """What a refusal says it found where JSON held a value of the wrong type: its JSON name, not Python's.

    ``json_type(None)`` -> ``"null"``, ``json_type(12.5)`` -> ``"number"``, ``json_type(7)`` -> ``"integer"``,
    ``json_type([])`` -> ``"array"``; a value no JSON parser gives keeps its Python name.
    """
    return JSON_TYPE_NAMES.get(type(value), type(value).__name__)


# A name (a source id, a check name, a path, a key) is shown whole up to this many
# characters: the ids of a deep docs tree share their first sixty and differ at the end.
NAME_LIMIT = 200
# How much of its start a longer name keeps; the rest of ``NAME_LIMIT`` comes from its end.
NAME_HEAD = 60


def quoted_name(value: object, limit: int = NAME_LIMIT) -> str:
    """Show an untrusted name as inert, one-line JSON (as ``quoted`` does), whole up to ``limit`` characters.

    Names are told apart by their end (``…/assign-cpu-resource``, ``…/assign-memory-resource``),
    so a longer one loses its middle instead: its first ``NAME_HEAD`` characters and its last
    ones, each quoted, joined by an ellipsis outside the quotes: a 296-character
    ``"docs/" + "x" * 280 + "/assign-cpu"`` shows as ``"docs/xx…x"…"xx…x/assign-cpu"``,
    the first quote holding 60 characters and the second 140.
    A value that is not a string is shown as ``quoted`` shows it.
    """
    if type(value) is not str:
        return quoted(value, limit)
    if len(value) <= limit:
        return json.dumps(value, ensure_ascii=True)
    head = min(NAME_HEAD, limit // 3)
    # Cut before escaping, as ``quoted`` does, so an escape is never cut in half.
    start = json.dumps(value[:head], ensure_ascii=True)
    end = json.dumps(value[len(value) - (limit - head) :], ensure_ascii=True)
    return f"{start}…{end}"


# How many entries a one-line list names before it counts the rest.
LISTED_ENTRIES = 3


def first_few(entries: list[str], shown: int = LISTED_ENTRIES, separator: str = ", ") -> str:
    """The first ``shown`` of ``entries`` and a count of the rest, so a line stays short however many there are.

    ``first_few(["a", "b", "c", "d", "e"])`` -> ``"a, b, c and 2 more"``;
    ``first_few(["a: x", "b: y", "c: z", "d: w"], separator="; ")`` -> ``"a: x; b: y; c: z; and 1 more"``.
    """
    listed = separator.join(entries[:shown])
    rest = len(entries) - shown
    if rest <= 0:
        return listed
    joint = " " if separator == ", " else separator
    return f"{listed}{joint}and {rest:,} more"


def line_span(first: int, last: int) -> str:
    """``line_span(5, 5)`` -> ``"line 5"``; ``line_span(5, 7)`` -> ``"lines 5-7"``."""
    return f"line {first}" if first == last else f"lines {first}-{last}"


def counted(count: int, noun: str) -> str:
    """``counted(1, "chunk")`` -> ``"1 chunk"``, ``counted(1200, "chunk")`` -> ``"1,200 chunks"``."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def first_difference(first: str, second: str) -> int:
    """Where two texts first differ (the shorter one's length when it begins the other): ``("abcd", "abxd")`` -> 2.

    Compared by halving over C-speed prefix comparisons, not a walk per character.
    """
    low, high = 0, min(len(first), len(second))
    while low < high:
        middle = (low + high + 1) // 2
        if first[:middle] == second[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


# Around the place two long texts first differ, how many characters of each a refusal shows.
SHOWN_BEFORE = 20
SHOWN_AFTER = 40


def parting(first: str, second: str) -> tuple[int, str, str]:
    """Where two texts first differ, and each quoted around that place (see ``excerpt``).

    ``parting("the limit field", "the limits field")`` -> ``(9, '"the limit field"', '"the limits field"')``.
    """
    offset = first_difference(first, second)
    return offset, excerpt(first, offset), excerpt(second, offset)


def excerpt(text: str, offset: int) -> str:
    """``text`` from ``SHOWN_BEFORE`` characters before ``offset`` to ``SHOWN_AFTER`` after it, as inert JSON.

    An ellipsis outside the quotes marks each end that was cut:
    ``excerpt("a" * 30 + "b" * 50, 30)`` -> ``'…"aaaaaaaaaaaaaaaaaaaabbbb…b"…'`` (20 a's, 40 b's).
    """
    start = max(0, offset - SHOWN_BEFORE)
    end = min(len(text), offset + SHOWN_AFTER)
    # Cut before escaping, as ``quoted`` does, so an escape is never cut in half.
    shown = json.dumps(text[start:end], ensure_ascii=True)
    return ("…" if start else "") + shown + ("…" if end < len(text) else "")


def text_difference(first: str, second: str, names: tuple[str, str] = ("saved", "derived"), limit: int = 60) -> str:
    """Two differing strings as a refusal shows them: whole when both fit in ``limit`` characters, else where they part.

    ``text_difference("ab", "ac")`` -> ``'saved "ab", derived "ac"'``. Longer
    texts that share their first 60 characters would read the same cut there,
    so each is shown around the first character that differs (``excerpt``):
    two 913-character chunk texts that part at offset 200 give ``'at offset 200
    of 913 characters: saved …"include the `resources` field, then…"…, derived
    …"include the `resourcez` field, then…"…'`` (the quotes hold 60 characters
    each; ``(saved 913 characters, derived 915)`` when their lengths differ).
    """
    if len(first) <= limit and len(second) <= limit:
        return f"{names[0]} {json.dumps(first, ensure_ascii=True)}, {names[1]} {json.dumps(second, ensure_ascii=True)}"
    offset, shown_first, shown_second = parting(first, second)
    if len(first) == len(second):
        sizes = f"of {counted(len(first), 'character')}"
    else:
        sizes = f"({names[0]} {counted(len(first), 'character')}, {names[1]} {len(second):,})"
    return f"at offset {offset} {sizes}: {names[0]} {shown_first}, {names[1]} {shown_second}"


def one_line(text: str) -> str:
    r"""``text`` with every character that does not print replaced by its escape, so it stays one inert line.

    Printable text is returned as it is (so text already shown through
    ``printable`` or ``quoted`` is not escaped twice); a newline, an escape, a
    bidirectional control or a byte that was not UTF-8 (a lone surrogate from
    ``surrogateescape``) becomes visible: ``one_line("a\nb\x1b[2J")`` -> ``'a\\nb\\x1b[2J'``.
    """
    if text.isprintable():
        return text
    return "".join(character if character.isprintable() else _escape(character) for character in text)


def _escape(character: str) -> str:
    r"""``"\n"`` -> ``"\\n"``, ``"\x1b"`` -> ``"\\x1b"``, ``"\u202e"`` -> ``"\\u202e"``, ``"\udcff"`` -> ``"\\udcff"``."""
    escaped = character.encode("unicode_escape", "backslashreplace").decode("ascii")
    return escaped if escaped != character else f"\\u{ord(character):04x}"


def printable(text: str) -> str:
    """``text`` as it is when every character prints, else as escaped JSON (see ``quoted_name``).

    Paths and ids are shown plainly in the usual case, yet a name holding an
    escape sequence cannot drive the terminal: ``printable("a\x1bb")`` -> ``'"a\\u001bb"'``.
    """
    return text if text.isprintable() else quoted_name(text)


class UsageError(IngestionError):
    """A command line or output the lab will not act on: exit code 2 instead of 1, the same one line."""
