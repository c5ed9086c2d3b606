"""What "blocks-9" reads on top of "blocks-8" (``SPEC.md``, "The block grammar, version 9"): Liquid tags, as GitBook's
and Jekyll's pages write their containers, read as Hugo's shortcodes are.

GitBook writes a callout as ``{% hint style="warning" %}`` … ``{% endhint %}``,
tab sets as ``{% tabs %}``, ``{% tab title="Go" %}`` … ``{% endtab %}``, a code
block's caption as ``{% code title="a.py" %}`` around its fence, and an embed as
``{% embed url="…" %}``. Under "blocks-8" each such line is a paragraph of its
own: on one public docs set read at a paragraph target of 1,000, one chunk in
seven held tags and nothing else, and a warning callout was three paragraphs,
none of them a warning. Here (rule U) a line of Liquid tags alone, outside a
fence, is read as the line of Hugo markers it stands for: ``{% NAME ARGS %}`` as
``{{% NAME ARGS %}}``, ``{% endNAME %}`` as ``{{% /NAME %}}``, a ``hint``'s
``style`` as ``type`` (the key that names a Hugo callout's kind). Rule D and the
rules after it then read the page as they read a Hugo page: a hint is an
admonition labelled with its style (``warning``, ``danger``, ``info``), a tab set
and its tabs are layout whose Markdown is read through, their tag lines no
block, a code tag's body is code, and an unpaired tag alone on its line
(``{% embed … %}``) belongs to no block.

The page is read through a copy in which each such tag is rewritten in place, the
same length (``{% `` and `` %}`` become ``{{%`` and ``%}}``; ``end`` and the space
around the name become `` /`` and a space), so every block's offsets are the
page's own. A tag that cannot be rewritten so (no space after ``{%`` or before
``%}``, ``{%x%}``) is text, as are tags on a line with text beside them. A page
without such a line is read exactly as under "blocks-8".
"""

from __future__ import annotations

import re

from grammars.blocks import closes_fence, fence_opening

# One Liquid tag: ``{%``, whitespace control (``-``) and spaces or tabs, its content (no ``%}`` in it, at most 1,000
# characters), spaces or tabs and ``-``, ``%}``.
LIQUID_TAG = r"\{%-?[ \t]*(?:[^%\n]|%(?!\})){1,1000}?[ \t]*-?%\}"
# A line of Liquid tags alone: at most three spaces of indent, spaces and tabs between and after.
LIQUID_LINE = re.compile(rf" {{0,3}}(?:{LIQUID_TAG}[ \t]*)+")
# A tag's parts, as rewritten: its opening (``{%`` and ``-``), the space after, the content, the space before, closing.
TAG_PARTS = re.compile(
    r"\{%(?P<open>-?)(?P<before>[ \t]*)(?P<content>(?:[^%\n]|%(?!\}))+?)(?P<after>[ \t]*)(?P<close>-?)%\}"
)
# A closing tag's content: ``endhint``, ``endtabs``, ``endcontent-ref``.
END_TAG = re.compile(r"end(?P<name>[A-Za-z0-9_][A-Za-z0-9_./-]*)")
# A hint's style argument, which names its kind: read as the ``type`` of a Hugo callout (``type =`` keeps the length).
HINT_STYLE = re.compile(r"(?<=[ \t])style(?==)")
# The containers a reader sees as one thing, kept whole as Hugo's paired shortcodes are: a callout, a captioned code
# block, an embed, a link card, a file. Every other tag (tab sets and tabs, steppers and steps, columns, an API
# endpoint's parts, Jekyll's ``if`` and ``raw``) is layout around Markdown, which is read through: its closing tag is
# rewritten as an opening one that nothing closes, so neither pairs, and a line of them alone is no block.
KEPT_CONTAINERS = frozenset({"hint", "code", "embed", "content-ref", "file"})


def rewritten_tag(match: re.Match) -> str:
    """One Liquid tag as the Hugo marker it stands for, the same length, or the tag as it is when it cannot be.

    ``{% hint style="warning" %}`` -> ``{{%hint type ="warning"%}}``; ``{% endhint %}`` -> ``{{% /hint %}}``;
    ``{%x%}`` (no room for the third brace of each side) stays as it is.
    """
    tag = match.group(0)
    content = match.group("content")
    room = len(tag) - 4 - len(content)
    ending = END_TAG.fullmatch(content)
    if ending is not None and ending.group("name").lower() in KEPT_CONTAINERS and room >= 1:
        # "{%" "endNAME" "%}" becomes "{{% /" NAME "%}}": two characters fewer but for the room's spaces, one of them
        # kept before the closing "%}}".
        return "{{% /" + ending.group("name") + " " * (room - 1) + "%}}"
    if room < 2:
        return tag
    if content.startswith("hint") and content[4:5] in (" ", "\t"):
        # "style" (5) becomes "type " (5): ``type ="warning"`` names the kind as a Hugo callout's ``type`` does.
        content = HINT_STYLE.sub("type ", content, count=1)
    return "{{%" + content + " " * (room - 2) + "%}}"


def liquid_as_shortcodes(text: str) -> str:
    """``text`` with each line of Liquid tags alone outside a fence rewritten in place as Hugo markers (rule U): the
    same length, line for line, so the grammar's offsets are the page's. Lines inside a fence, and lines with text
    beside their tags, are left as they are.

    ``liquid_as_shortcodes('{% hint style="info" %}\\nMind it.\\n{% endhint %}\\n')`` ->
    ``'{{%hint type ="info"%}}\\nMind it.\\n{{% /hint %}}\\n'``.
    """
    if "{%" not in text:
        return text
    lines = text.split("\n")
    fence: tuple[str, int] | None = None
    for index, line in enumerate(lines):
        if fence is not None:
            if closes_fence(line, *fence):
                fence = None
            continue
        opening = fence_opening(line)
        if opening is not None:
            fence = opening
            continue
        if "{%" in line and LIQUID_LINE.fullmatch(line.rstrip(" \t")) is not None:
            lines[index] = TAG_PARTS.sub(rewritten_tag, line)
    return "\n".join(lines)
