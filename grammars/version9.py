"""What "blocks-9" reads on top of "blocks-8" (``SPEC.md``, "The block grammar, version 9"): Liquid tags, as GitBook's
and Jekyll's pages write their containers, read as Hugo's shortcodes are.

GitBook writes a callout as ``{% hint style="warning" %}`` … ``{% endhint %}``,
tab sets as ``{% tabs %}``, ``{% tab title="Go" %}`` … ``{% endtab %}``, a code
block's caption as ``{% code title="a.py" %}`` around its fence, and an embed as
``{% embed url="…" %}``. Under "blocks-8" each such line is a block of its own
(an MDX expression, by its braces): on one public docs set read at a paragraph
target of 1,000, one chunk in seven held tags and nothing else, and a warning
callout was three blocks, none of them a warning. Here (rule U) a line of Liquid
tags alone, outside fenced code, is read as the line of Hugo markers it stands
for. The callouts and cards a reader sees as one thing (``KEPT_CONTAINERS``), when
both their opening and closing lines are such lines, are read as a paired
shortcode: a hint is an admonition labelled with its style (``warning``,
``danger``, ``info``), a code or highlight tag's body is code, an embed, a link
card or a file card is one block. Every other tag (tab sets and tabs, steppers,
columns, Jekyll's ``if``, ``for`` and ``raw``, a callout whose other tag has text
beside it) is an inert marker: its line is no block, and the Markdown around it
is read as the page's.

The page is read through a copy in which each such tag is rewritten in place, the
same length, so every block's offset is the page's own; a setext heading's title
is taken from the page, not the copy. A page without such a line is read exactly
as under "blocks-8".
"""

from __future__ import annotations

import re

from grammars.blocks import closes_fence_within, fence_opening, front_matter_end
from grammars.records import Section
from lab_io.errors import IngestionError

# A line of Liquid tags alone is read with ``str.find``, tag by tag (``line_tags``): a tag is ``{%`` up to the first
# ``%}`` after it on its line, so a line of many is read once, and one of many ``{%`` without a ``%}`` too.
# One tag's parts: its opening ``{%`` and whitespace control, the space after, its content (at most 1,000
# characters), the space before, the closing ``-`` and ``%}``.
TAG_PARTS = re.compile(r"\{%(-?)([ \t]*)((?:[^%\n]|%(?!\})){1,1000}?)([ \t]*)(-?)%\}")
# A tag's name: ``hint`` of ``hint style="info"``, ``endhint``.
TAG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
# A hint's style argument, which names its kind: read as the ``type`` of a Hugo callout (``type =`` keeps the length).
HINT_STYLE = re.compile(r"(?<=[ \t])style(?=[ \t]*=)")
# The containers a reader sees as one thing, kept whole as Hugo's paired shortcodes are: a callout, a captioned code
# block, Jekyll's highlighted code, an embed, a link card, a file.
KEPT_CONTAINERS = frozenset({"hint", "code", "highlight", "embed", "content-ref", "file"})


def line_tags(line: str) -> list[tuple[int, int]]:
    """Where each Liquid tag of ``line`` starts and ends: ``{%`` up to the first ``%}`` after it (``"a {% b %}"`` ->
    ``[(2, 9)]``); a ``{%`` with no ``%}`` after it ends the reading."""
    found = []
    start = line.find("{%")
    while start != -1:
        end = line.find("%}", start + 2)
        if end == -1:
            break
        found.append((start, end + 2))
        start = line.find("{%", end + 2)
    return found


def tags_alone(line: str, tags: list[tuple[int, int]]) -> bool:
    """Whether ``line`` is its ``tags`` alone: at most three spaces before the first, spaces and tabs between and after."""
    if not tags or tags[0][0] > 3 or line[: tags[0][0]].strip(" "):
        return False
    ends = [end for _, end in tags]
    starts = [start for start, _ in tags[1:]] + [len(line)]
    return all(not line[end:start].strip(" \t") for end, start in zip(ends, starts))


def tag_parts(tag: str) -> tuple[int, str] | None:
    """A tag's room (its whitespace and ``-`` around the content) and its content, or ``None`` when it is not one
    rule U reads (content over 1,000 characters): ``'{% hint style="info" %}'`` -> ``(2, 'hint style="info"')``."""
    parts = TAG_PARTS.fullmatch(tag)
    if parts is None:
        return None
    opening, before, content, after, closing = parts.groups()
    return len(opening) + len(before) + len(after) + len(closing), content


def name_of(content: str) -> tuple[str, bool]:
    """A tag's container name, lower case, and whether it closes: ``endhint`` -> ``("hint", True)``."""
    name = TAG_NAME.match(content)
    word = "" if name is None else name.group(0).lower()
    if word.startswith("end") and len(word) > 3:
        return word[3:], True
    return word, False


def marker(tag: str, room: int, content: str, role: str) -> str:
    """The Hugo marker a tag is read as, the same length (``role``: ``open``, ``close`` or ``inert``), or the tag
    itself when there is no room for it.

    ``open``: ``{% hint style="warning" %}`` -> ``{{%hint type ="warning"%}}``; ``close``: ``{% endhint %}`` ->
    ``{{% /hint %}}``; ``inert``: ``{% tabs %}`` -> ``{{%.abs%}}``, a marker no rule pairs (its name opens with a
    dot, which no shortcode name does), whose line of markers alone is no block.
    """
    if role == "close" and room >= 1:
        # "{%" "endNAME" "%}" becomes "{{% /" NAME "%}}": two characters fewer but for the room, one of it kept.
        return "{{% /" + name_of(content)[0] + " " * (room - 1) + "%}}"
    if room < 2:
        return tag
    if role == "open" and content.lower().startswith("hint"):
        # "style" (5) becomes "type " (5): ``type ="warning"`` names the kind as a Hugo callout's ``type`` does.
        content = HINT_STYLE.sub("type ", content, count=1)
    elif role == "inert":
        content = "." + content[1:]
    return "{{%" + content + " " * (room - 2) + "%}}"


def fenced_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it lies in fenced code as the block grammars read fences anywhere on a page: opened by a
    fence line at any indent, inside a list item or a quote too (``- ````, ``> ~~~``), closed by a line of the same
    fence character at least as long at up to three columns deeper, or never; front matter is no code."""
    inside = [False] * len(lines)
    fence: tuple[str, int] | None = None
    indent = 0
    for index, line in enumerate(lines):
        content = re.sub(r"^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?", "", line)
        if fence is not None:
            inside[index] = True
            if closes_fence_within(content, fence, 0) or closes_fence_within(line, fence, indent):
                fence = None
            continue
        opening = fence_opening(content)
        if opening is not None:
            fence, indent = opening, len(line) - len(line.lstrip(" "))
            inside[index] = True
    return inside


def liquid_as_shortcodes(text: str) -> str:
    """``text`` with each line of Liquid tags alone outside fenced code rewritten in place as Hugo markers (rule U):
    the same length, line for line, so the grammar's offsets are the page's.

    A kept container's tags (``KEPT_CONTAINERS``) pair as a stack pairs them over every tag of the page, text beside
    or not; a pair whose two lines are both tags alone becomes an opening and a closing marker, any other of its tags
    an inert one. ``liquid_as_shortcodes('{% hint style="info" %}\\nMind it.\\n{% endhint %}\\n')`` ->
    ``'{{%hint type ="info"%}}\\nMind it.\\n{{% /hint %}}\\n'``.
    """
    if "{%" not in text:
        return text
    lines = text.split("\n")
    try:
        start = front_matter_end(text, "front matter")
    except IngestionError:
        # Never closed: the grammar refuses the page as it reads it, with its own words.
        start = 0
    first = text.count("\n", 0, start)
    fenced = fenced_lines(lines)
    tags = [
        line_tags(line) if "{%" in line and index >= first and not fenced[index] else []
        for index, line in enumerate(lines)
    ]
    alone = [tags_alone(line, found) for line, found in zip(lines, tags)]
    # Each tag of the page, with its line, in order; the kept containers paired by name, as rule D's stack pairs.
    roles: dict[tuple[int, int], str] = {}
    open_tags: dict[str, list[tuple[int, int]]] = {}
    for index, line in enumerate(lines):
        for start, end in tags[index]:
            parts = tag_parts(line[start:end])
            if parts is None:
                continue
            name, closing = name_of(parts[1])
            if name not in KEPT_CONTAINERS:
                continue
            place = (index, start)
            if not closing:
                open_tags.setdefault(name, []).append(place)
            elif open_tags.get(name):
                opened = open_tags[name].pop()
                if alone[opened[0]] and alone[index]:
                    roles[opened], roles[place] = "open", "close"
    for index, line in enumerate(lines):
        if not alone[index]:
            continue
        pieces = []
        last = 0
        for start, end in tags[index]:
            tag = line[start:end]
            parts = tag_parts(tag)
            pieces.append(line[last:start])
            if parts is None:
                pieces.append(tag)
            else:
                pieces.append(marker(tag, parts[0], parts[1], roles.get((index, start), "inert")))
            last = end
        pieces.append(line[last:])
        lines[index] = "".join(pieces)
    return "\n".join(lines)


def with_page_titles(sections: list[Section], text: str, copy: str, heading_title) -> list[Section]:
    """``sections`` read from ``copy``, each setext heading whose lines the copy rewrote titled from ``text`` (its
    lines but the underline, joined as the grammar joins them, through ``heading_title``): a title is the page's
    text, never the markers the grammar read in its place."""
    titled = []
    for section in sections:
        start, end = section.heading_start, section.body_start
        if start < end and text[start:end] != copy[start:end]:
            heading = text[start:end].rstrip("\n").split("\n")[:-1]
            section = section._replace(title=heading_title(" ".join(line.strip(" \t") for line in heading)))
        titled.append(section)
    return titled
