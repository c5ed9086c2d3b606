"""The lab's indented JSON, byte for byte as ``json.dumps(value, indent=2, ensure_ascii=False)``, fast.

With ``indent`` set, Python's ``json`` drops to its pure-Python encoder, which
turns a result of a few hundred megabytes into tens of millions of small
strings. Most of a result is flat objects (a chunk: thirteen scalars), and the
C encoder can lay out a flat object itself when it is given the indented line
break as its item separator, since a string it encodes never holds a raw
newline. So the nesting is walked here and every flat object or array goes to
the C encoder in one call.

Anything this layout does not cover (a key that is not a string, a tuple, a
subclass of a JSON type, a cycle) is handed to ``json.dumps`` itself, so the
output never differs from it. It writes nothing: ``run.py`` does the I/O.
"""

from __future__ import annotations

import io
import json
from json import encoder as _json_encoder

INDENT = "  "
KEY_SEPARATOR = ": "
SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
KEY_TYPES = frozenset({str})


class _NotCovered(Exception):
    """A value outside the fast layout; the caller falls back to ``json.dumps``."""


_PROBE = {"a": 'é\u2028"\\\n', "b": [1, -2.5, 1e100, True, None], "c": {}}


def _flat_encoder(item_separator: str):
    """A compact C encoder whose items are separated by ``item_separator`` (no sorting, no escaping to ASCII).

    ``c_make_encoder`` is an internal of ``json`` called here with positional
    arguments: if it is missing, takes other arguments, or lays out a probe
    differently from the public encoder configured the same way (a sign the
    arguments moved), the public encoder is used instead, so the bytes never change.
    """
    public = json.JSONEncoder(
        ensure_ascii=False, check_circular=False, separators=(item_separator, KEY_SEPARATOR)
    ).encode
    make_encoder = _json_encoder.c_make_encoder
    if make_encoder is None:
        return public
    try:
        encoder = make_encoder(
            None, None, _json_encoder.encode_basestring, None, KEY_SEPARATOR, item_separator, False, False, True
        )
    except TypeError:
        return public

    def encode(value: object) -> str:
        # The C encoder returns a sequence of pieces (one on 3.11, possibly several on 3.10).
        return "".join(encoder(value, 0))

    try:
        if encode(_PROBE) == public(_PROBE):
            return encode
    except (TypeError, ValueError):
        pass
    return public


class _IndentedWriter:
    """Lays out one value as UTF-8 into ``out``.

    One growing buffer rather than a list of pieces joined at the end: the
    join would hold the whole text twice, and a result runs to hundreds of MB.
    """

    def __init__(self) -> None:
        self.out = io.BytesIO()
        self._encoders: list = []

    def encoder_at(self, level: int):
        """The flat encoder for the items of a container at nesting ``level`` (built once per level)."""
        while len(self._encoders) <= level:
            depth = len(self._encoders)
            self._encoders.append(_flat_encoder(",\n" + INDENT * (depth + 1)))
        return self._encoders[level]

    def write(self, value: object, level: int) -> None:
        """Append ``value`` laid out at nesting ``level`` (its first line is already indented)."""
        kind = type(value)
        if kind is dict:
            self.write_object(value, level)
        elif kind is list:
            self.write_array(value, level)
        elif kind in SCALAR_TYPES:
            self.out.write(self.encoder_at(level)(value).encode("utf-8"))
        else:
            raise _NotCovered(kind.__name__)

    def write_object(self, value: dict, level: int) -> None:
        """An object: in one C call when every key is a string and every value a scalar."""
        if not value:
            self.out.write(b"{}")
            return
        closing = "\n" + INDENT * level
        if SCALAR_TYPES.issuperset(map(type, value.values())) and KEY_TYPES.issuperset(map(type, value)):
            # '{"a": 1,\n    "b": 2}' -> '{\n    "a": 1,\n    "b": 2\n  }'
            flat = self.encoder_at(level)(value)
            self.out.write(("{\n" + INDENT * (level + 1) + flat[1:-1] + closing + "}").encode("utf-8"))
            return
        opening = "{\n" + INDENT * (level + 1)
        separator = ",\n" + INDENT * (level + 1)
        key_encoder = self.encoder_at(level)
        for position, (key, item) in enumerate(value.items()):
            if type(key) is not str:
                raise _NotCovered("key")
            lead = opening if position == 0 else separator
            self.out.write((lead + key_encoder(key) + KEY_SEPARATOR).encode("utf-8"))
            self.write(item, level + 1)
        self.out.write((closing + "}").encode("utf-8"))

    def write_array(self, value: list, level: int) -> None:
        """An array: in one C call when every item is a scalar."""
        if not value:
            self.out.write(b"[]")
            return
        closing = "\n" + INDENT * level
        if SCALAR_TYPES.issuperset(map(type, value)):
            flat = self.encoder_at(level)(value)
            self.out.write(("[\n" + INDENT * (level + 1) + flat[1:-1] + closing + "]").encode("utf-8"))
            return
        opening = ("[\n" + INDENT * (level + 1)).encode("utf-8")
        separator = (",\n" + INDENT * (level + 1)).encode("utf-8")
        for position, item in enumerate(value):
            self.out.write(opening if position == 0 else separator)
            self.write(item, level + 1)
        self.out.write((closing + "]").encode("utf-8"))


def indented_json_bytes(value: object, end: bytes = b"") -> bytes:
    """``json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8") + end``, without the pure-Python encoder.

    ``end`` is joined on rather than appended, which would copy the whole text again.

    ``indented_json_bytes({"a": [1, "é"]})`` -> ``b'{\\n  "a": [\\n    1,\\n    "\\xc3\\xa9"\\n  ]\\n}'``.
    """
    writer = _IndentedWriter()
    try:
        writer.write(value, 0)
    except (_NotCovered, RecursionError):
        return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8") + end
    writer.out.write(end)
    return writer.out.getvalue()


def saved_json_bytes(value: object) -> bytes:
    """A value as the lab saves every JSON file: ``indent=2``, UTF-8, keys in their order, one ``\\n``.

    Byte for byte ``json.dumps(value, indent=2, ensure_ascii=False) + "\\n"``.
    """
    return indented_json_bytes(value, end=b"\n")
