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
from collections.abc import Iterable, Iterator
from itertools import chain, repeat
from json import encoder as _json_encoder
from operator import is_

INDENT = "  "
KEY_SEPARATOR = ": "
SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
KEY_TYPES = frozenset({str})


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


# An array of flat objects (an index's chunks, its documents) is laid out a
# batch at a time, one C call per batch; batches aim at about this many
# characters, so a piece stays small however large the array is.
BATCH_CHARACTERS = 1 << 17
FIRST_BATCH_ITEMS = 16
MAX_BATCH_ITEMS = 4096
# Smaller pieces are joined up to about this many bytes before they are handed on.
PIECE_BYTES = 1 << 16
DICT_TYPES = frozenset({dict})
_json_string = _json_encoder.encode_basestring
# How a column of values of one type turns into JSON text in C, as the encoder
# writes them; float (NaN and infinities) and any other type are laid out one object at a time.
COLUMN_JSON = {
    str: _json_string,
    int: int.__repr__,
    bool: {False: "false", True: "true"}.__getitem__,
    type(None): {None: "null"}.__getitem__,
}


REPEATS_SAMPLE = 16


def column_json(kind: type, column: tuple, finish=None):
    """What turns each value of ``column`` (all of type ``kind``, a key of ``COLUMN_JSON``) to its JSON text.

    A column of strings that repeat (a chunk's source, version and revision) turns each distinct one to JSON once
    and looks the others up: escaping a string costs several times a lookup. ``finish``, when given, is applied to
    each JSON text made (so once per distinct value of such a column).
    """
    convert = COLUMN_JSON[kind]
    if finish is not None:
        converted = convert

        def convert(value: object) -> str:
            return finish(converted(value))

    # The first values tell a column of few values from one of ids or of short runs, where a set costs more
    # than it saves: looked up, a value must come back four times or so to pay for its place in the set.
    if kind is str and len(column) >= REPEATS_SAMPLE and len(set(column[:REPEATS_SAMPLE])) <= REPEATS_SAMPLE // 4:
        distinct = set(column)
        return dict(zip(distinct, map(convert, distinct))).__getitem__
    return convert


class _IndentedWriter:
    """Lays out one value as UTF-8 pieces, counting the line breaks it writes.

    Values outside the fast layout (a key that is not a string, a tuple, a
    subclass of a JSON type) are laid out by ``json.dumps`` itself, shifted to
    their depth, so the bytes never differ from it. A cycle is refused with
    the ``ValueError`` ``json.dumps`` raises.

    ``newlines`` counts the line breaks written so far; with it the size of a
    value saved on its own follows from its size nested (see ``measured``).
    """

    def __init__(self, measured: dict | None = None, sizes: dict | None = None, encoded=()) -> None:
        self._encoders: list = []
        self._open: set[int] = set()
        self.newlines = 0
        # id of a value whose saved size is wanted -> its name in ``sizes``; the
        # object that holds them is laid out member by member, so each is seen.
        self._measured = {} if measured is None else {id(member): name for name, member in measured.items()}
        self._measured_parent = None if measured is None else id(measured)
        self._sizes = sizes
        # A list that repeats an earlier sibling's (``repeated_lists``): id -> the id of the first. The first's
        # pieces and line breaks are kept while it is laid out, and written again for each repeat.
        self._repeats: dict[int, int] = {}
        self._kept: dict[int, tuple[int, list[bytes], int]] = {}
        # id of a list of objects -> the key of a string column already turned to JSON, and those texts in order.
        self._encoded = {id(objects): (key, texts) for objects, key, texts in encoded if len(texts) == len(objects)}

    def encoder_at(self, level: int):
        """The flat encoder for the items of a container at nesting ``level`` (built once per level)."""
        while len(self._encoders) <= level:
            depth = len(self._encoders)
            self._encoders.append(_flat_encoder(",\n" + INDENT * (depth + 1)))
        return self._encoders[level]

    def pieces(self, value: object, level: int) -> Iterator[bytes]:
        """``value`` laid out at nesting ``level`` (its first line is already indented), piece by piece."""
        kind = type(value)
        if self._measured and id(value) in self._measured:
            yield from self.measured(value, level)
        elif kind in SCALAR_TYPES:
            yield self.encoder_at(level)(value).encode("utf-8")
        elif kind is not dict and kind is not list:
            yield self.dumped(value, level)
        elif id(value) in self._open:
            raise ValueError("Circular reference detected")
        else:
            self._open.add(id(value))
            if self._repeats and id(value) in self._repeats:
                yield from self.repeated(value, level)
            else:
                yield from (self.object_pieces if kind is dict else self.array_pieces)(value, level)
            self._open.discard(id(value))

    def measured(self, value: object, level: int) -> Iterator[bytes]:
        """``value``'s pieces, recording the size it has saved on its own in ``sizes``.

        Nested at ``level``, every line break inside it is followed by
        ``2 * level`` more spaces than when it is saved alone, and a saved file
        ends in one more ``\\n``.
        """
        name = self._measured.pop(id(value))
        newlines = self.newlines
        size = 0
        for piece in self.pieces(value, level):
            size += len(piece)
            yield piece
        if self._sizes is not None:
            self._sizes[name] = size - len(INDENT) * level * (self.newlines - newlines) + 1

    def repeated(self, value: list, level: int) -> Iterator[bytes]:
        """A list of ``repeated_lists``: the first laid out and its pieces kept, a repeat written as its first was."""
        first = self._repeats.pop(id(value))
        kept = self._kept.get(first)
        if kept is not None and kept[0] == level:
            _, pieces, newlines = kept
            if first not in self._repeats.values():
                del self._kept[first]
            self.newlines += newlines
            yield from pieces
            return
        # The first, or a repeat whose first was laid out otherwise (by ``json.dumps``, in a member it could not take).
        newlines = self.newlines
        pieces = []
        for piece in self.array_pieces(value, level):
            pieces.append(piece)
            yield piece
        if first == id(value) and first in self._repeats.values():
            self._kept[first] = (level, pieces, self.newlines - newlines)

    def dumped(self, value: object, level: int) -> bytes:
        """A value outside the fast layout, as ``json.dumps`` lays it out, shifted to ``level``.

        Nested values are laid out as at the top with every line break followed
        by ``level`` more indents, and a JSON string never holds a raw newline.
        """
        text = json.dumps(value, indent=len(INDENT), ensure_ascii=False)
        line_breaks = text.count("\n")
        self.newlines += line_breaks
        if line_breaks and level:
            text = text.replace("\n", "\n" + INDENT * level)
        return text.encode("utf-8")

    def object_pieces(self, value: dict, level: int) -> Iterator[bytes]:
        """An object: in one C call when every key is a string and every value a scalar."""
        if not value:
            yield b"{}"
            return
        if not KEY_TYPES.issuperset(map(type, value)):
            yield self.dumped(value, level)
            return
        closing = "\n" + INDENT * level + "}"
        self.newlines += len(value) + 1
        if SCALAR_TYPES.issuperset(map(type, value.values())) and id(value) != self._measured_parent:
            # '{"a": 1,\n    "b": 2}' -> '{\n    "a": 1,\n    "b": 2\n  }'
            flat = self.encoder_at(level)(value)
            yield ("{\n" + INDENT * (level + 1) + flat[1:-1] + closing).encode("utf-8")
            return
        if DICT_TYPES.issuperset(map(type, value.values())):
            # An object of objects (a result's indexes): the lists they repeat of one another are laid out once.
            for repeat_id, first_id in repeated_lists(value, self._measured).items():
                self._repeats[repeat_id] = first_id
                self._repeats[first_id] = first_id
        lead = "{\n" + INDENT * (level + 1)
        separator = ",\n" + INDENT * (level + 1)
        key_encoder = self.encoder_at(level)
        # A member that is a scalar or a flat object is laid out here as ``pieces`` would, into the object's piece
        # (a finding's fields, its spans and its context): one piece for them all, not one per key and value.
        member_encoder = self.encoder_at(level + 1)
        member_lead = "{\n" + INDENT * (level + 2)
        member_closing = "\n" + INDENT * (level + 1) + "}"
        texts = []
        for key, item in value.items():
            texts.append(lead + key_encoder(key) + KEY_SEPARATOR)
            lead = separator
            kind = type(item)
            if not (self._measured and id(item) in self._measured):
                if kind in SCALAR_TYPES:
                    texts.append(member_encoder(item))
                    continue
                if (
                    kind is dict
                    and item
                    and id(item) != self._measured_parent
                    and KEY_TYPES.issuperset(map(type, item))
                    and SCALAR_TYPES.issuperset(map(type, item.values()))
                ):
                    self.newlines += len(item) + 1
                    texts.append(member_lead + member_encoder(item)[1:-1] + member_closing)
                    continue
            yield "".join(texts).encode("utf-8")
            texts = []
            yield from self.pieces(item, level + 1)
        texts.append(closing)
        yield "".join(texts).encode("utf-8")

    def array_pieces(self, value: list, level: int) -> Iterator[bytes]:
        """An array: in one C call when every item is a scalar, in batches when every item is a flat object."""
        if not value:
            yield b"[]"
            return
        closing = "\n" + INDENT * level + "]"
        if SCALAR_TYPES.issuperset(map(type, value)):
            flat = self.encoder_at(level)(value)
            self.newlines += len(value) + 1
            yield ("[\n" + INDENT * (level + 1) + flat[1:-1] + closing).encode("utf-8")
            return
        lead = "[\n" + INDENT * (level + 1)
        separator = ",\n" + INDENT * (level + 1)
        if DICT_TYPES.issuperset(map(type, value)):
            yield from self.object_array_pieces(value, level)
        else:
            self.newlines += len(value)
            for item in value:
                yield (lead).encode("utf-8")
                lead = separator
                yield from self.pieces(item, level + 1)
        self.newlines += 1
        yield closing.encode("utf-8")

    def object_array_pieces(self, value: list, level: int) -> Iterator[bytes]:
        """The items of an array of objects, a batch at a time; not the closing bracket.

        A batch of objects that share their keys, in order, and the type of
        each key's value (an index's chunks, its documents) is laid out column
        by column in C: each column's values turned to JSON at once, then each
        object filled into one template of its keys. Any other batch is laid
        out object by object.
        """
        item_lead = "[\n" + INDENT * (level + 1)
        separator = ",\n" + INDENT * (level + 1)
        position = 0
        batch_items = FIRST_BATCH_ITEMS
        encoded_key, encoded_texts = self._encoded.get(id(value), (None, None))
        while position < len(value):
            batch = value[position : position + batch_items]
            known = None if encoded_key is None else (encoded_key, encoded_texts[position : position + len(batch)])
            position += len(batch)
            holds_measured = self._measured_parent is not None and self._measured_parent in map(id, batch)
            text = None if holds_measured else self.uniform_objects(batch, level + 1, known, item_lead)
            if text is None:
                self.newlines += len(batch)
                for item in batch:
                    yield item_lead.encode("utf-8")
                    item_lead = separator
                    yield from self.pieces(item, level + 1)
                continue
            yield text.encode("utf-8")
            item_lead = separator
            batch_items = max(1, min(MAX_BATCH_ITEMS, batch_items * BATCH_CHARACTERS // len(text)))

    def scalar_lists(self, column: tuple, level: int) -> list[str] | None:
        """Lists of scalars laid out at nesting ``level`` as ``array_pieces`` lays them out, or ``None`` if one is not.

        ``[[1, 2], []]`` at level 1 -> ``['[\\n    1,\\n    2\\n  ]', '[]']``.
        """
        if not all(SCALAR_TYPES.issuperset(map(type, value)) for value in column):
            return None
        encode = self.encoder_at(level)
        opening = "[\n" + INDENT * (level + 1)
        closing = "\n" + INDENT * level + "]"
        texts = [opening + encode(value)[1:-1] + closing if value else "[]" for value in column]
        self.newlines += sum(len(value) + 1 for value in column if value)
        return texts

    def uniform_objects(
        self, batch: list, level: int, known: tuple[str, list[str]] | None = None, opening: str = ""
    ) -> str | None:
        """``opening``, then ``batch``'s objects laid out at ``level``, joined by separators; ``None`` if they differ.

        ``[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]`` at level 1 ->
        ``'{\\n    "a": 1,\\n    "b": "x"\\n  },\\n  {\\n    "a": 2,\\n    "b": "y"\\n  }'``.
        ``known``, ``(key, texts)``: the objects' strings under ``key`` already turned to JSON, in order.
        The text is made in one join, ``opening`` its first piece: no copy of it is made to add or cut a piece.
        """
        keys = tuple(batch[0]) if type(batch[0]) is dict else ()
        if (
            not keys
            or not DICT_TYPES.issuperset(map(type, batch))
            or not KEY_TYPES.issuperset(map(type, keys))
            or not all(map(keys.__eq__, map(tuple, batch)))
        ):
            return None
        field_indent = INDENT * (level + 1)
        object_separator = ",\n" + INDENT * level
        # Every object is the same run of texts: its lead and first key, its value, the next key's lead, ... its
        # close; the first object's lead is ``opening``, each other's the separator after the object before it.
        runs = []
        lead = "{\n" + field_indent
        for key, column in zip(keys, zip(*map(dict.values, batch))):
            kinds = set(map(type, column))
            if kinds == {list}:
                # A column of short lists of scalars (a comparison's spans and chunk ids), each in one C call.
                texts = self.scalar_lists(column, level + 1)
                if texts is None:
                    return None
            elif len(kinds) != 1 or not kinds <= COLUMN_JSON.keys():
                return None
            elif known is not None and key == known[0] and kinds == {str}:
                texts = known[1]
            else:
                texts = map(column_json(kinds.pop(), column), column)
            key_lead = lead + _json_string(key) + KEY_SEPARATOR
            runs.append(
                chain((opening + key_lead,), repeat(object_separator + key_lead)) if not runs else repeat(key_lead)
            )
            runs.append(texts)
            lead = ",\n" + field_indent
        runs.append(repeat("\n" + INDENT * level + "}"))
        # Per object: its opening line, a line per key after the first, its closing line; plus its lead.
        self.newlines += len(batch) * (len(keys) + 2)
        return "".join(chain.from_iterable(zip(*runs)))


def same_objects(first: list, other: list) -> bool:
    """Whether two lists of objects hold, item by item, the same keys in order bound to the very same values.

    Such lists lay out alike, byte for byte, at one level: what is compared is
    identity, not equality (``1 == True``, yet they are written differently).
    ``same_objects([{"a": x}], [{"a": x}])`` -> ``True`` for any ``x``.
    """
    if len(first) != len(other) or not DICT_TYPES.issuperset(map(type, chain(first, other))):
        return False
    # The values first: lists that differ (two indexes' chunks) differ at their first value.
    values = chain.from_iterable(map(dict.values, first))
    other_values = chain.from_iterable(map(dict.values, other))
    return all(map(is_, values, other_values)) and all(map(tuple.__eq__, map(tuple, first), map(tuple, other)))


def repeated_lists(value: dict, measured: dict) -> dict[int, int]:
    """In an object of objects, each member's list that repeats (``same_objects``) the first member's under its key.

    ``{id(repeat): id(first)}``: a result's indexes each hold a copy of one
    documents list, so it is laid out once and written three times. A list
    whose saved size is ``measured`` is left out.
    """
    repeats: dict[int, int] = {}
    members = list(value.values())
    for key in members[0] if members else ():
        lists = [member.get(key) for member in members]
        first = lists[0]
        if type(first) is not list or not first or type(first[0]) is not dict or id(first) in measured:
            continue
        for other in lists[1:]:
            if type(other) is list and other is not first and id(other) not in measured and same_objects(first, other):
                repeats[id(other)] = id(first)
    return repeats


def _joined_pieces(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """``pieces`` with small neighbours joined, so a reader gets fewer, larger writes; same bytes in the same order."""
    pending: list[bytes] = []
    pending_bytes = 0
    for piece in pieces:
        if len(piece) >= PIECE_BYTES:
            if pending:
                yield b"".join(pending)
                pending = []
                pending_bytes = 0
            yield piece
            continue
        pending.append(piece)
        pending_bytes += len(piece)
        if pending_bytes >= PIECE_BYTES:
            yield b"".join(pending)
            pending = []
            pending_bytes = 0
    if pending:
        yield b"".join(pending)


def saved_json_pieces(
    value: object, measured: dict | None = None, sizes: dict | None = None, encoded=()
) -> Iterator[bytes]:
    """``saved_json_bytes(value)`` piece by piece, for a writer that streams them to a file.

    ``b"".join(saved_json_pieces(value)) == saved_json_bytes(value)``. Pieces
    come as they are laid out, so a large result is never held whole as bytes.
    ``measured``, an object inside ``value``, names members whose size saved on
    their own (``saved_json_bytes(member)``) is recorded in ``sizes`` by key
    once they are laid out: ``saved_json_pieces(result, result["indexes"], sizes)``
    fills ``sizes`` with each index's saved size.

    ``encoded`` holds ``(objects, key, texts)``: a list of objects inside
    ``value`` whose strings under ``key`` are, in order, ``texts`` once turned
    to JSON (``json.dumps(string, ensure_ascii=False)``), as a build that
    hashed them has them (``chunk_index.build_policy_indexes``'s ``text_json``):
    that column is laid out from them, not encoded again. ``texts`` must be
    those strings' JSON; a list of another length is not used.

    A cycle raises ``ValueError`` as ``json.dumps`` does; a value nested
    deeper than the recursion limit allows raises ``RecursionError``.
    """
    yield from _joined_pieces(_IndentedWriter(measured, sizes, encoded).pieces(value, 0))
    yield b"\n"


def indented_json_bytes(value: object, end: bytes = b"") -> bytes:
    """``json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8") + end``, without the pure-Python encoder.

    Written into one growing buffer rather than joined from a list of pieces:
    the join would hold the whole text twice, and a result runs to hundreds of MB.

    ``indented_json_bytes({"a": [1, "é"]})`` -> ``b'{\\n  "a": [\\n    1,\\n    "\\xc3\\xa9"\\n  ]\\n}'``.
    """
    out = io.BytesIO()
    try:
        for piece in _IndentedWriter().pieces(value, 0):
            out.write(piece)
    except RecursionError:
        return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8") + end
    out.write(end)
    return out.getvalue()


def saved_json_bytes(value: object) -> bytes:
    """A value as the lab saves every JSON file: ``indent=2``, UTF-8, keys in their order, one ``\\n``.

    Byte for byte ``json.dumps(value, indent=2, ensure_ascii=False) + "\\n"``.
    """
    return indented_json_bytes(value, end=b"\n")
