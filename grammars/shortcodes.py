"""Hugo shortcodes under "blocks-3" (``SPEC.md``, "The block grammar, version 3", rule D).

A shortcode marker is ``{{< name args >}}`` or ``{{% name args %}}``; its
closing marker ``{{< /name >}}`` (or ``%``). A shortcode whose closing marker
follows on a later line is *paired*: from its opening line through its closing
line it is one block, nested pairs inside. The cautionary ones (``warning``,
``note``, ``tip``, ...) are admonitions labelled with their kind, as ``!!! warning``
is; the others are blocks of kind ``shortcode``. A self-closing or unpaired
shortcode is text of its paragraph, and a closing marker alone on a line whose
opening was read elsewhere belongs to no block.

Pairs are matched once per page (``shortcode_pairs``), in one pass over the
lines with a stack, so a page of many unpaired markers stays linear.
"""

from __future__ import annotations

from collections import namedtuple

from grammars.blocks import space_indent
from grammars.records import LazyPattern

# A shortcode's name: Hugo's file names under layouts/shortcodes, nested folders included ("docs/note").
SHORTCODE_NAME = LazyPattern(r"[A-Za-z0-9_][A-Za-z0-9_./-]*")
# The shortcodes docs themes draw as a callout of their own kind: each is an admonition labelled with its name.
CAUTIONARY_SHORTCODES = frozenset(
    {"attention", "caution", "danger", "error", "important", "info", "note", "tip", "warning"}
)
# The shortcodes that take the kind as an argument ({{< hint warning >}}, {{% alert color="warning" %}},
# {{< callout type="danger" >}}): labelled with that kind when it is one of the above, else with their own name.
WRAPPER_SHORTCODES = frozenset({"admonition", "alert", "callout", "hint", "notice"})
# One argument: an optional key (type=, color=, title=, ...) and a quoted or bare value.
ARGUMENT = LazyPattern(r"""(?:([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*)?("[^"]*"|'[^']*'|[^ \t"'=]+)""")
KIND_KEYS = frozenset({"", "type", "color"})
# Paired shortcodes whose body is code: Hugo's own ``highlight`` and the ``code``, ``codeblock`` and ``code-toggle``
# (one configuration shown as TOML, YAML and JSON) of docs sites. The caveat scan reads such a body as a fence's
# (scan_version 8); from "blocks-7" a ``#`` line in it heads nothing.
CODE_SHORTCODES = frozenset({"highlight", "code", "codeblock", "code-block", "code-toggle"})


class Marker(namedtuple("Marker", ("name", "closing", "arguments", "end"))):
    """A shortcode marker read at an offset of a line: its name, whether it closes, its arguments, where it ends."""

    __slots__ = ()


def marker_at(content: str, start: int) -> Marker | None:
    """The opening or closing shortcode marker at ``content[start:]``, else ``None`` (a self-closing one too).

    ``marker_at("{{% note %}}", 0)`` -> ``Marker("note", False, "", 12)``;
    ``marker_at("{{< /tabs >}}", 0)`` -> ``Marker("tabs", True, "", 13)``; ``{{< x />}}``
    (self-closing) and Hugo's escaped ``{{</* x */>}}`` -> ``None``. A marker must end on its own line.
    """
    delimiter = content[start : start + 3]
    if delimiter not in ("{{<", "{{%"):
        return None
    closer = ">}}" if delimiter == "{{<" else "%}}"
    end = content.find(closer, start + 3)
    if end == -1:
        return None
    inner = content[start + 3 : end].strip(" \t")
    if inner.startswith("/*") or inner.endswith("/"):
        return None
    closing = inner.startswith("/")
    if closing:
        inner = inner[1:].lstrip(" \t")
    name = SHORTCODE_NAME.match(inner)
    if name is None:
        return None
    arguments = inner[name.end() :]
    if closing and arguments.strip(" \t"):
        return None
    return Marker(name.group(0), closing, arguments, end + len(closer))


def opening_marker(line: str) -> Marker | None:
    """The marker that opens ``line`` (indent at most 3) when it is an opening one, else ``None``."""
    indent, rest = space_indent(line)
    if indent > 3 or not rest.startswith("{{"):
        return None
    marker = marker_at(rest, 0)
    return None if marker is None or marker.closing else marker


def closing_name(line: str) -> str | None:
    """The name ``line`` closes when it ends (trailing spaces and tabs aside) with a closing marker, else ``None``.

    ``closing_name("Text. {{% /note %}}")`` -> ``"note"``.
    """
    content = line.rstrip(" \t")
    if not content.endswith("}}"):
        return None
    start = content.rfind("{{")
    marker = None if start == -1 else marker_at(content, start)
    return marker.name if marker is not None and marker.closing and marker.end == len(content) else None


def is_lone_closing_marker(line: str) -> bool:
    """Whether ``line`` is one closing marker and nothing else (indent at most 3): ``"{{< /tab >}}"``."""
    indent, rest = space_indent(line)
    content = rest.rstrip(" \t")
    if indent > 3 or not content.startswith("{{"):
        return False
    marker = marker_at(content, 0)
    return marker is not None and marker.closing and marker.end == len(content)


def shortcode_pairs(texts: list[str]) -> dict[int, int]:
    """For each line that opens a paired shortcode, the index of the line that closes it.

    ``texts`` are the page's lines (without ``\\n``). A closing marker closes the
    latest open shortcode of its name; those opened after it and still open
    are left unpaired, so pairs nest and never cross. A line that opens and
    closes the same name is paired with itself.
    ``shortcode_pairs(["{{< tabs >}}", "{{< tab >}}", "a", "{{< /tab >}}", "{{< /tabs >}}"])``
    -> ``{1: 3, 0: 4}``.
    """
    pairs: dict[int, int] = {}
    stack: list[tuple[str, int]] = []
    # Where each name's open markers sit on the stack, latest last: a closing marker finds its own in one look.
    places: dict[str, list[int]] = {}
    for index, text in enumerate(texts):
        if "{{" not in text:
            continue
        opening = opening_marker(text)
        closing = closing_name(text)
        if opening is not None and closing == opening.name and text.rstrip(" \t").rfind("{{") > text.find("{{"):
            pairs[index] = index
            continue
        if opening is not None:
            places.setdefault(opening.name, []).append(len(stack))
            stack.append((opening.name, index))
        if closing is not None and places.get(closing):
            place = places[closing][-1]
            while len(stack) > place:
                name, opened = stack.pop()
                places[name].pop()
            pairs[opened] = index
    return pairs


def shortcode_kind(marker: Marker) -> tuple[str, str]:
    """The kind and label of a paired shortcode's block.

    ``{{% warning %}}`` -> ``("admonition", "warning")``; ``{{< hint danger >}}`` ->
    ``("admonition", "danger")``; ``{{< alert title="Hi" >}}`` -> ``("admonition", "alert")``;
    ``{{< tabs >}}`` -> ``("shortcode", "tabs")``.
    """
    name = marker.name.lower()
    if name in CAUTIONARY_SHORTCODES:
        return "admonition", name
    if name in WRAPPER_SHORTCODES:
        for key, value in ARGUMENT.findall(marker.arguments):
            kind = value.strip("\"'").lower()
            if key.lower() in KIND_KEYS and kind in CAUTIONARY_SHORTCODES:
                return "admonition", kind
        return "admonition", name
    return "shortcode", name
