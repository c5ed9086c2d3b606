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
card or a file card is one block. Every other line of tags alone (tab sets and
tabs, steppers, columns, Jekyll's ``if``, ``for`` and ``raw``, a lone embed, a
callout whose other tag has text beside it) is read as an HTML comment of its
length: no block, a line that ends the paragraph before it, and the Markdown
around it read as the page's.

The page is read through a copy in which each such line is rewritten in place,
the same length, so every block's offset is the page's own. No rewritten line can
be a heading's text (a marker line opens a block, a comment line ends a
paragraph), so every title is the page's own too. A page without such a line is
read exactly as under "blocks-8".
"""

from __future__ import annotations

import re

from grammars.blocks import closes_fence_within, fence_opening, front_matter_end
from lab_io.errors import IngestionError

# A line's Liquid tags are found with ``str.find`` and read with string operations (``line_tags``, ``tag_parts``), so a
# line of many is read once, one of many ``{%`` without a ``%}`` too. The longest content of a tag rule U reads:
MAX_CONTENT = 1000
# A tag's name: ``hint`` of ``hint style="info"``, ``endhint``.
TAG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
# A hint's style argument, which names its kind: read as the ``type`` of a Hugo callout (``type =`` keeps the length).
HINT_STYLE = re.compile(r"(?<=[ \t])style(?=[ \t]*=)")
# The containers a reader sees as one thing, kept whole as Hugo's paired shortcodes are: a callout, a captioned code
# block, Jekyll's highlighted code, an embed, a link card, a file.
KEPT_CONTAINERS = frozenset({"hint", "code", "highlight", "embed", "content-ref", "file"})


# A "{%" that opens no Hugo marker ("{{%"): a page without one holds no Liquid tag a line of tags alone can be.
LIQUID_OPENING = re.compile(r"(?<!\{)\{%")


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
    """Whether ``line`` is its ``tags`` alone: at most three spaces before the first, spaces and tabs between and
    after."""
    if not tags or tags[0][0] > 3 or line[: tags[0][0]].strip(" "):
        return False
    ends = [end for _, end in tags]
    starts = [start for start, _ in tags[1:]] + [len(line)]
    return all(not line[end:start].strip(" \t") for end, start in zip(ends, starts))


def tag_parts(tag: str) -> tuple[int, str] | None:
    """A tag's room (its whitespace and ``-`` around the content) and its content, or ``None`` when it is not one
    rule U reads (no content, or over 1,000 characters): ``'{% hint style="info" %}'`` -> ``(2, 'hint style="info"')``.
    Read with string operations, in one pass over the tag."""
    core = tag[2:-2]
    core = core[1:] if core.startswith("-") else core
    core = core[:-1] if core.endswith("-") else core
    content = core.strip(" \t")
    if not content or len(content) > MAX_CONTENT:
        return None
    return len(tag) - 4 - len(content), content


def name_of(content: str) -> tuple[str, bool]:
    """A tag's name, as written (Liquid's names and Hugo's are case-sensitive), and whether it closes: ``endhint`` ->
    ``("hint", True)``."""
    name = TAG_NAME.match(content)
    word = "" if name is None else name.group(0)
    if word.startswith("end") and len(word) > 3:
        return word[3:], True
    return word, False


def marker(room: int, content: str, closing: bool) -> str:
    """The Hugo marker a paired kept container's tag is read as, the same length, given its room (one at least for a
    closing tag, two for an opening one): ``{% hint style="warning" %}`` -> ``{{%hint type ="warning"%}}``,
    ``{% endhint %}`` -> ``{{% /hint %}}``."""
    if closing:
        # "{%" "endNAME" "%}" becomes "{{% /" NAME "%}}": two characters fewer but for the room, one of it kept.
        return "{{% /" + name_of(content)[0] + " " * (room - 1) + "%}}"
    if content.startswith("hint"):
        # "style" (5) becomes "type " (5): ``type ="warning"`` names the kind as a Hugo callout's ``type`` does.
        content = HINT_STYLE.sub("type ", content, count=1)
    return "{{%" + content + " " * (room - 2) + "%}}"


def inert_line(line: str) -> str:
    """A line of tags alone that no pair claims, as an HTML comment of its length (``<!--…-->``, dots inside): no
    block, and a line that ends the paragraph before it and starts none, as a comment line is under every block
    grammar; the line as it is when it is too short to be one (under seven characters after its indent)."""
    indent = len(line) - len(line.lstrip(" "))
    room = len(line) - indent - 7
    return line if room < 0 else line[:indent] + "<!--" + "." * room + "-->"


# A container prefix a fence may open after: quote markers, or a list item's marker (its content column).
CONTAINER_PREFIX = re.compile(r"(?:[ ]{0,3}>[ ]?)+|[ ]{0,3}(?:[-*+]|\d{1,9}[.)])[ ]+")


def fenced_lines(lines: list[str], first: int = 0) -> list[bool]:
    """For each line from ``first`` (the line after the front matter), whether it lies in fenced code: a fence opened
    at three columns or fewer, at the page's top level or after a container's prefix (a quote's ``>``, a list item's
    marker: ``- ````, ``> ~~~``), and closed as rule K closes one (a line of its character at least as long, up to
    three columns deeper than it opened), with the same prefix taken off its closing line (a quote's markers, the
    item's content column of spaces); never closed, it runs to the page's end."""
    inside = [False] * len(lines)
    fence: tuple[str, int] | None = None
    indent = 0
    # The open fence's container: how many quote markers open its lines, else the item's content column.
    quotes = 0
    column = 0
    for index in range(first, len(lines)):
        line = lines[index]
        if fence is not None:
            inside[index] = True
            if quotes:
                quoted = re.match(r"(?:[ ]{0,3}>[ ]?){1,%d}" % quotes, line)
                rest = line[quoted.end() :] if quoted is not None else line
            else:
                rest = line[column:] if not line[:column].strip(" ") else line
            if closes_fence_within(rest, fence, indent):
                fence = None
            continue
        prefix = ""
        opening = fence_opening(line)
        if opening is None:
            container = CONTAINER_PREFIX.match(line)
            if container is not None:
                opening = fence_opening(line[container.end() :])
                prefix = container.group(0)
        if opening is not None:
            body = line[len(prefix) :]
            fence, indent = opening, len(body) - len(body.lstrip(" "))
            quotes, column = prefix.count(">"), len(prefix)
            inside[index] = True
    return inside


def liquid_as_shortcodes(text: str, yaml_document_end: bool = False) -> str:
    """``text`` with each line of Liquid tags alone outside fenced code rewritten in place as Hugo markers (rule U):
    the same length, line for line, so the grammar's offsets are the page's.

    A kept container's tags (``KEPT_CONTAINERS``) pair as a stack pairs them over every tag of the page, text beside
    or not; a pair of lone tags on lines of their own, with the room, becomes an opening and a closing marker, and
    every other line of tags alone a comment (``inert_line``):
    ``liquid_as_shortcodes('{% hint style="info" %}\\nMind it.\\n{% endhint %}\\n')`` ->
    ``'{{%hint type ="info"%}}\\nMind it.\\n{{% /hint %}}\\n'``. ``yaml_document_end`` reads the front matter as
    "blocks-10" does (``front_matter_end``).
    """
    if LIQUID_OPENING.search(text) is None:
        # No "{%" but a Hugo marker's ("{{% note %}}"): no line is a Liquid tag's alone, none pairs, the text is as
        # it was (a Hugo page's "{{%" sent every line of it through the reading below).
        return text
    lines = text.split("\n")
    try:
        start = front_matter_end(text, "front matter", yaml_document_end)
    except IngestionError:
        # Never closed: the grammar refuses the page as it reads it, with its own words.
        start = 0
    first = text.count("\n", 0, start)
    fenced = fenced_lines(lines, first)
    tags = [
        line_tags(line) if "{%" in line and index >= first and not fenced[index] else []
        for index, line in enumerate(lines)
    ]
    parts = [[tag_parts(line[tag_start:tag_end]) for tag_start, tag_end in found] for line, found in zip(lines, tags)]
    # A line of tags alone, each one rule U reads (content of 1 to 1,000 characters).
    alone = [tags_alone(line, found) and None not in read for line, found, read in zip(lines, tags, parts)]
    # The kept containers' tags paired as rule D's stack pairs markers (``shortcode_pairs``): one stack, a closing tag
    # closing the latest open tag of its name and every tag opened after it, over every tag of the page, text beside
    # it or not. A pair becomes an opening and a closing marker when each of its tags is the one tag of a line of
    # tags alone and has the room (two for an opening, one for a closing); its other tags, and every other tag, are
    # no marker: its line of tags alone is read as a comment (``inert_line``).
    paired: set[int] = set()
    stack: list[tuple[str, int, bool]] = []
    places: dict[str, list[int]] = {}
    for index in range(len(lines)):
        for read in parts[index]:
            if read is None:
                continue
            name, closing = name_of(read[1])
            if name not in KEPT_CONTAINERS:
                continue
            usable = alone[index] and len(parts[index]) == 1 and read[0] >= (1 if closing else 2)
            if not closing:
                places.setdefault(name, []).append(len(stack))
                stack.append((name, index, usable))
            elif places.get(name):
                place = places[name][-1]
                while len(stack) > place:
                    opened_name, opened, opened_usable = stack.pop()
                    places[opened_name].pop()
                if opened_usable and usable:
                    paired.update((opened, index))
    for index, line in enumerate(lines):
        if not alone[index]:
            continue
        if index not in paired:
            lines[index] = inert_line(line)
            continue
        (tag_start, tag_end), (room, content) = tags[index][0], parts[index][0]
        lines[index] = line[:tag_start] + marker(room, content, name_of(content)[1]) + line[tag_end:]
    return "\n".join(lines)
