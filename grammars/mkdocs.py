"""MkDocs constructs under "blocks-3" (``SPEC.md``, "The block grammar, version 3", rules G and H).

Attribute lists (``## Check the password { #check-the-password }``, Python-Markdown's
``attr_list``, also Pandoc's and Hugo's heading attributes) are dropped from a
section's title; no offset moves. An mkdocstrings directive (``::: pydantic.BaseModel``
and its indented options) is a block of its own, so the headings after it still
end sections, where "blocks-2" reads a bare ``::: name`` as a colon container
running to its closing line or the end of the page.
"""

from __future__ import annotations

from grammars.blocks import leading_columns
from grammars.records import LazyPattern

# One attribute: "#id", ".class" or key=value (quoted or bare).
_ATTRIBUTE = r"""(?:[#.][A-Za-z0-9_:-]+|[A-Za-z_][A-Za-z0-9_:-]*=(?:"[^"]*"|'[^']*'|[^ \t}"']+))"""
ATTRIBUTE_LIST = LazyPattern(rf"\{{:?[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}")
# An mkdocstrings directive: at column 0, ":::", spaces, a dotted Python path, nothing else.
DIRECTIVE = LazyPattern(r":::[ \t]+([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)[ \t]*")
# Its options are indented as an admonition's body is (mkdocstrings reads them as YAML under the line).
OPTIONS_INDENT = 4


def without_attribute_list(title: str) -> str:
    """``title`` without a trailing attribute list: ``"Check the password { #check-the-password }"`` -> ``"Check the password"``.

    Only a list at the very end counts, and only of ``#id``, ``.class`` and
    ``key=value`` attributes: ``"Set {x}"`` keeps its braces.
    """
    start = title.rfind("{")
    if start == -1 or ATTRIBUTE_LIST.fullmatch(title, start) is None:
        return title
    return title[:start].rstrip(" \t")


def directive_name(texts: list[str], index: int, closed_later: bool) -> str | None:
    """The Python path an mkdocstrings directive at ``texts[index]`` documents, else ``None``.

    ``::: name`` is also how a colon container opens (``::: note``), so it is a
    directive only when it cannot be one: the name holds a ``.`` or a ``_``
    (container types never do), or the next line is indented 4 columns or more
    (its options), or no later line closes a colon container (``closed_later``
    is false), where "blocks-2" would run it to the end of the page.
    """
    found = DIRECTIVE.fullmatch(texts[index])
    if found is None:
        return None
    name = found.group(1)
    if "." in name or "_" in name or not closed_later:
        return name
    following = texts[index + 1] if index + 1 < len(texts) else ""
    return name if following.strip() and leading_columns(following) >= OPTIONS_INDENT else None
