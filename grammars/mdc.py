"""MDC, the Markdown of Nuxt Content, under "blocks-5" (``SPEC.md``, "The block grammar, version 5", rules M to O).

A *block component* opens with a line ``::name``, optionally ``[label]`` and
``{attributes}`` after it (``::note``, ``::code-group{sync="pm"}``), and closes
at a line of ``::`` alone; components nest (Nuxt indents the inner ones:
``::card-group`` holds ``  ::card`` … ``  ::``), and a YAML block between two
``---`` lines right after the opening line holds its props. An *inline
component* is ``:name``, optionally with ``[label]`` and ``{attributes}``
(``:read-more{to="/docs/x"}``, ``:badge[v4.4]``).

Pairs are matched once per page (``component_pairs``), in one pass over the
lines with a stack, outside code fences, so a page of many components stays
linear. Three colons or more (``:::note``) are the colon containers
"blocks-2" reads; nothing here reads them.
"""

from __future__ import annotations

from collections import namedtuple

from grammars.blocks import atx_heading_title, closes_fence_within, fence_opening, leading_columns
from grammars.html_blocks import without_code_spans
from grammars.records import LazyPattern
from grammars.shortcodes import CAUTIONARY_SHORTCODES

# A component's name, as MDC writes one: a letter, then letters, digits, "_" and "-" (``read-more``, ``u-button``).
_NAME = r"[A-Za-z][A-Za-z0-9_-]*"
# Attributes in braces, a quoted value holding any character but its quote and a newline; one pass, no backtracking.
_ATTRIBUTES = r"""\{(?:[^{}"'\n]|"[^"\n]*"|'[^'\n]*')*\}"""
# A label in brackets, on one line, without a bracket inside.
_LABEL = r"\[[^\[\]\n]*\]"
# A block component's opening line: any indent, exactly two colons, the name, a label and attributes, nothing else.
OPENING = LazyPattern(rf"[ \t]*::({_NAME})(?:{_LABEL})?({_ATTRIBUTES})?[ \t]*")
# Its closing line: any indent, exactly two colons, nothing else.
CLOSING = LazyPattern(r"[ \t]*::[ \t]*")
# Either, after its indent, as the caveat scan reads a marker line (``checks.caveats.sentences``).
MARKER_LINE_TEXT = rf"::(?:{_NAME}(?:{_LABEL})?(?:{_ATTRIBUTES})?)?[ \t]*"
# A line of inline components alone (``:read-more{to="/docs/x"}``, ``:br :br``), without a label: what they render is
# a link card, a video, a break, never the page's own text. A definition list's ``: value`` and ``::name`` are not.
INLINE_LINE_TEXT = rf"(?::{_NAME}(?:{_ATTRIBUTES})?[ \t]*)+"
INLINE_LINE = LazyPattern(rf"[ \t]*{INLINE_LINE_TEXT}")
# An inline component inside a line: not after a letter, a digit or a colon (``std::vec``, ``10:30am`` are text).
INLINE = LazyPattern(rf"(?<![\w:]):{_NAME}(?:({_LABEL})({_ATTRIBUTES})?|({_ATTRIBUTES}))")
# The attribute that names a wrapper's kind: ``::callout{type="warning"}``, ``::alert{color="danger"}``.
KIND_ATTRIBUTE = LazyPattern(r"""(?:^|[{ \t])(?:type|color)=(?:"([^"\n]*)"|'([^'\n]*)'|([A-Za-z]+))""")
# The components drawn as a callout of their own kind, labelled with it (as the shortcodes of the same names are).
CALLOUT_COMPONENTS = CAUTIONARY_SHORTCODES
# The components that take the kind as an attribute: labelled with it when it is one of the above.
WRAPPER_COMPONENTS = frozenset({"alert", "callout"})


class Components(namedtuple("Components", ("pairs", "sectioned"))):
    """The block components of a page: each opening line's closing line, and the openings whose body holds a heading."""

    __slots__ = ()


def component_pairs(texts: list[str]) -> Components:
    """Every paired block component of the page's lines ``texts`` (without ``\\n``).

    A closing line closes the latest open component; one opened and never
    closed is no component (its line is text), nor is a closing line with none
    open. Lines inside a code fence are neither (a fence opens and closes at any
    indent, closed only at most 3 columns deeper than it opened, as "blocks-4"
    pairs elements). A component is *sectioned* when an ATX heading lies
    inside it, outside code, its own or a nested component's: up to three
    spaces in, as the page reader opens one, and not in its props (there a
    ``#`` line is YAML's comment).
    ``component_pairs(["::note", "Mind it.", "::"])`` -> ``Components({0: 2}, set())``;
    ``component_pairs(["::steps", "### One", "::"]).sectioned`` -> ``{0}``.
    """
    # The lines outside code that pairing and sectioning look at, in order: (index, "open" | "close" | "heading").
    events: list[tuple[int, str]] = []
    fence = None
    fence_indent = 0
    for index, text in enumerate(texts):
        if fence is not None:
            if closes_fence_within(text, fence, fence_indent):
                fence = None
            continue
        content = text.lstrip(" \t")
        if content[:1] in ("`", "~"):
            fence = fence_opening(content)
            if fence is not None:
                fence_indent = leading_columns(text[: len(text) - len(content)])
                continue
        if content[:1] == "#" and atx_heading_title(text) is not None:
            events.append((index, "heading"))
        elif content.startswith("::") and not content.startswith(":::"):
            if CLOSING.fullmatch(text):
                events.append((index, "close"))
            elif OPENING.fullmatch(text):
                events.append((index, "open"))
    pairs: dict[int, int] = {}
    opened: list[int] = []
    for index, event in events:
        if event == "open":
            opened.append(index)
        elif event == "close" and opened:
            pairs[opened.pop()] = index
    # A "#" line of a component's props is YAML's comment: the props' lines are known once the closing line is.
    props_lines: set[int] = set()
    for opening, closing in pairs.items():
        props_lines.update(range(opening + 1, props_end(texts, opening, closing)))
    sectioned: set[int] = set()
    # The open components, latest last, each with whether a heading was seen inside it.
    stack: list[list] = []
    for index, event in events:
        if event == "heading":
            if stack and index not in props_lines:
                stack[-1][1] = True
        elif event == "open":
            stack.append([index, False])
        elif stack:
            opening, holds_heading = stack.pop()
            if holds_heading:
                sectioned.add(opening)
                if stack:
                    stack[-1][1] = True
    return Components(pairs, sectioned)


def component_kind(line: str) -> tuple[str, str]:
    """The kind and label of a paired block component's block, from its opening line.

    ``"::warning"`` -> ``("admonition", "warning")``; ``'::callout{type="danger"}'`` -> ``("admonition", "danger")``;
    ``'::code-group{sync="pm"}'`` -> ``("component", "code-group")``.
    """
    found = OPENING.fullmatch(line)
    name = found.group(1).lower()
    if name in CALLOUT_COMPONENTS:
        return "admonition", name
    if name in WRAPPER_COMPONENTS:
        attributes = found.group(2) or ""
        for kind in KIND_ATTRIBUTE.finditer(attributes):
            value = next(value for value in kind.groups() if value is not None).lower()
            if value in CALLOUT_COMPONENTS:
                return "admonition", value
        return "admonition", name
    return "component", name


def props_end(texts: list[str], index: int, closing: int) -> int:
    """The index after a component's opening line and its props: a ``---`` line right after it, through the next
    ``---`` line before ``closing``; the opening line alone when there is none."""
    if index + 1 < closing and texts[index + 1].strip(" \t") == "---":
        for position in range(index + 2, closing):
            if texts[position].strip(" \t") == "---":
                return position + 1
    return index + 1


def title_without_components(title: str) -> str:
    """A section title with its inline components as they render: a label's text, else nothing.

    ``"View Transitions :badge[v4.4]"`` -> ``"View Transitions v4.4"``; ``'Hooks :badge{label="new"} here'`` ->
    ``"Hooks here"``; ``"Use `a :b{c}`"`` (in a code span) and ``"At 10:30"`` stay. Where a component leaves, the
    space on its two sides is one; nothing else of the text changes. A title of components alone stays as it is.
    """
    if ":" not in title:
        return title
    title_text = ""
    position = 0
    for found in INLINE.finditer(without_code_spans(title)):
        before = title[position : found.start()]
        title_text += before.lstrip(" \t") if title_text[-1:] in (" ", "\t") else before
        if found.group(1) is not None:
            # The label as the title writes it: in the text searched, a code span inside it is blanked.
            title_text += title[found.start(1) + 1 : found.end(1) - 1]
        position = found.end()
    if not position:
        return title
    rest = title[position:]
    title_text += rest.lstrip(" \t") if title_text[-1:] in (" ", "\t") else rest
    return title_text.strip(" \t") or title
