"""The records every grammar yields: ``Block`` and ``Section``, and the lazily compiled pattern they share.

Nothing here reads text; ``lesson`` and ``blocks`` find the offsets these records hold.
"""

from __future__ import annotations

import re
from collections import namedtuple


# Records are named tuples from ``collections`` (not dataclasses or
# ``typing.NamedTuple``, whose imports cost every run of the lab more than its work on the fixture).
class Block(namedtuple("Block", ("kind", "start", "end", "label"), defaults=("",))):
    """One unit the paragraph and heading-aware policies never cut: ``[start, end)`` in the text.

    ``kind`` (str) is ``"paragraph"`` under the lesson grammar. ``label`` says
    more where the kind has more to say (an admonition's type, say); else ``""``.
    A named tuple, not a dataclass: a large build makes one per paragraph,
    and a tuple is several times cheaper to make.
    """

    __slots__ = ()


class Section(namedtuple("Section", ("heading_start", "title", "body_start", "body_end", "blocks"), defaults=((),))):
    """A heading and the body that follows it, as offsets into the text, with the body's blocks (a tuple of ``Block``)."""

    __slots__ = ()


class LazyPattern:
    """A regular expression compiled on its first use, not at import: the main job's lesson grammar needs few of them.

    ``LazyPattern(r"=+").fullmatch("==")`` compiles ``=+`` then and matches as
    ``re.compile(r"=+").fullmatch("==")`` does; each method is looked up once
    and kept, so later calls cost what the compiled pattern's own do.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str):
        method = getattr(re.compile(self.pattern, self.flags), name)
        setattr(self, name, method)
        return method
