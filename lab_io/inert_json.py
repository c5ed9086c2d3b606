"""JSON the lab prints: every character that does not print written as its ``\\u`` escape.

``json.dumps`` escapes the C0 controls inside strings but leaves DEL, the C1
controls (``\\x9b`` starts a terminal sequence), bidirectional overrides
(``\\u202e``), the line and paragraph separators and every other character
``str.isprintable`` refuses raw. Text from the sources reaches the JSON the
lab prints (``--output -``, ``export``, ``scan --json``, ``judge --json``,
``context --json``, ``diff --json``), so these are escaped there too: a JSON
reader gets exactly the same values, and a terminal or an editor showing the
JSON shows the escape, never acts on it. Only characters inside strings change;
JSON holds no other place for them.

Not applied to the result and index files the main job writes: their bytes are
the spec's canonical form (``indented_json``). For a result whose texts hold
no such character (the lesson, ``docs/examples``) both are the same bytes.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator

from lab_io.indented_json import saved_json_bytes

# Everything but printable ASCII and the newline between lines: the only places a
# character that does not print can be. Each run found is checked character by character.
_MAYBE_UNPRINTABLE = re.compile("[^\x20-\x7e\n]+")


def _escape(character: str) -> str:
    """``"\\u202e"`` -> ``"\\\\u202e"``; a character past U+FFFF as its two surrogate escapes, as JSON writes it."""
    point = ord(character)
    if point < 0x10000:
        return f"\\u{point:04x}"
    point -= 0x10000
    return f"\\u{0xD800 + (point >> 10):04x}\\u{0xDC00 + (point & 0x3FF):04x}"


def _escaped_run(match: re.Match) -> str:
    run = match.group()
    if run.isprintable():
        return run
    return "".join(character if character.isprintable() else _escape(character) for character in run)


def inert_json_text(text: str) -> str:
    """JSON text with every character that does not print escaped: ``'["a\\u202eb"]'`` -> ``'["a\\\\u202eb"]'``.

    Line by line: a line that prints as it is (nearly every line of real
    docs, accents and all) passes on one check in C.
    """
    if text.isascii() and "\x7f" not in text:
        return text
    return "\n".join(
        line if line.isprintable() else _MAYBE_UNPRINTABLE.sub(_escaped_run, line) for line in text.split("\n")
    )


def inert_json_pieces(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """UTF-8 JSON pieces with every character that does not print escaped (see ``inert_json_text``).

    A piece of printable ASCII passes as it is; any other is decoded, escaped and
    encoded again, a character cut between two pieces included.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    for piece in pieces:
        # A piece that continues a character cut at the end of the last starts with a byte that is not ASCII.
        if piece.isascii() and b"\x7f" not in piece:
            yield piece
            continue
        yield inert_json_text(decoder.decode(piece)).encode("utf-8")
    rest = decoder.decode(b"", final=True)
    if rest:
        yield inert_json_text(rest).encode("utf-8")


def printed_json_bytes(value: object) -> bytes:
    """``value`` as the lab's indented JSON (``saved_json_bytes``), with every character that does not print escaped."""
    return b"".join(inert_json_pieces([saved_json_bytes(value)]))
