"""What "blocks-4" reads on top of "blocks-3" (``SPEC.md``, "The block grammar, version 4").

Two things a page holds that render as nothing, or as something else, and
that "blocks-3" took for text:

- a paragraph of link reference definitions alone (``[Google Fonts]:
  changing-the-fonts.md``), where a page's reference links point, or of
  shortcode calls alone (``{{< new-in 0.154.0 />}}``), belongs to no block, as
  a paragraph of tags alone does: nothing to retrieve;
- a heading's HTML comments and tags leave its section title (``0.1.0
  <small>February 9, 2016</small>`` is titled ``0.1.0 February 9, 2016``), as
  does an attribute list of bare names too (``{ data-search-exclude }``). A
  heading of comments alone (``#### <!-- md:setting config.enabled -->``,
  which a site's hook renders) is titled by what the comments say
  (``md:setting config.enabled``).

And MDX's import and export lines and comments alone render nothing either;
an element ends before a heading that follows its closing tag; and when the
page's elements are paired, a fence shown indented inside a fence no longer
ends it (``html_blocks.element_pairs``). No heading moves; every other rule
is "blocks-3"'s.
"""

from __future__ import annotations

from grammars import mkdocs
from grammars.blocks import LINK_DEFINITION_TEXT, atx_heading_title, fence_opening
from grammars.html_blocks import comment_spans, element_pairs, holds_only_markup, without_code_spans
from grammars.records import LazyPattern
from grammars.version3 import PageReader as Version3Reader

# A link reference definition on its line, up to three spaces in (a docs theme indents them by two).
LINK_DEFINITION = LazyPattern(r" {0,3}" + LINK_DEFINITION_TEXT)
# A line of shortcode calls alone (``{{< new-in 0.154.0 />}}``, ``{{% include "a.md" %}}``), tags and comments between
# them: what a site renders in their place is not in the page. Hugo's escaped ``{{</* x */>}}`` shows as text.
CALLS_LINE = LazyPattern(
    r"[ \t]*(?:(?:\{\{[<%](?![ \t]*/\*)(?:[^\n%>]|[%>](?!\}\})){0,1000}[%>]\}\}|</?[A-Za-z][^<>\n]{0,1000}>"
    r"|<!--(?:[^\n-]|-(?!->)){0,1000}-->)[ \t]*)+"
)
# An ESM statement as MDX writes one (``import X from "./x"``, ``import "./a.css"``, ``export const meta = {…}``), not a
# line of prose or shell that opens on the word ("export AWS_PROFILE=prod", "import this to see …").
ESM_STATEMENT = LazyPattern(
    r"""[ \t]*(?:import[ \t]+(?:["']|[\w$*{][^"'\n]*?[ \t]from[ \t]*["'])"""
    r"|export[ \t]+(?:const|let|var|function|class|default|async|\{|\*)(?![\w$]))"
)
# An MDX comment alone as a flow expression: ``{/* note to the editors */}``, over one line or several.
MDX_COMMENT = LazyPattern(r"[ \t]*\{[ \t]*/\*(?:[^*]|\*(?!/))*\*/[ \t]*\}[ \t]*")
# A tag in a title, as CommonMark writes one: a name, then attributes after a space (a quoted value may hold a ">"),
# or none ("<K, V>" is text); not after a backslash ("\\<T>" shows "<T>").
TITLE_TAG = LazyPattern(r"""(?<!\\)</?[A-Za-z][A-Za-z0-9-]*(?:[ \t](?:[^<>"']|"[^"]*"|'[^']*')*)?/?>""")
# An attribute list at the end of a title whose attributes may be bare names (``{ data-search-exclude }``,
# ``{: .class #id key=value flag }``), as Python-Markdown's ``attr_list`` reads them, written with spaces inside
# its braces: ``Set {x}`` keeps its braces, as under "blocks-3".
_BARE_ATTRIBUTE = r"""(?:[#.][A-Za-z0-9_:-]+|[A-Za-z_][A-Za-z0-9_:-]*(?:=(?:"[^"]*"|'[^']*'|[^ \t}"']+))?)"""
ATTRIBUTE_LIST = LazyPattern(rf"\{{:?[ \t]+{_BARE_ATTRIBUTE}(?:[ \t]+{_BARE_ATTRIBUTE})*[ \t]+\}}")


class PageReader(Version3Reader):
    """The "blocks-4" rules for one page's lines: "blocks-3"'s, with link definitions and title markup read."""

    def element_pairs(self) -> dict[int, int]:
        # A fence shown inside a fence ends nothing: the element after it still finds its closing tag.
        if self._element_pairs is None:
            self._element_pairs = element_pairs(self.texts, fence_indents=True)
        return self._element_pairs

    def holds_text(self, first: int, after: int) -> bool:
        """Whether the paragraph of lines ``[first, after)`` holds text: not when every line is a link definition or
        shortcode calls alone (tags and comments beside them), nor when "blocks-3" finds tags alone."""
        texts = self.texts[first:after]
        if texts[0].lstrip(" \t")[:1] in ("[", "{", "<") and all(
            LINK_DEFINITION.fullmatch(text) or CALLS_LINE.fullmatch(text) for text in texts
        ):
            return False
        return super().holds_text(first, after)

    @staticmethod
    def heading_title(title: str) -> str:
        return section_title(title)

    def block_at(self, index: int) -> tuple[str, int, str] | None:
        """ "blocks-3"'s block at ``texts[index]``, where MDX's import and export lines and a comment alone
        (``{/* … */}``) render nothing and so belong to no block, and an element kept whole ends before a heading
        that follows its closing tag (MDX ends an element at its closing tag)."""
        found = super().block_at(index)
        if found is None:
            return None
        kind, after, label = found
        if (kind == "esm" and ESM_STATEMENT.match(self.texts[index])) or (
            kind == "expression" and MDX_COMMENT.fullmatch("\n".join(self.texts[index:after]))
        ):
            return "", after, ""
        if kind == "html":
            closing = self.element_pairs().get(index)
            if closing is not None:
                heading = self.heading_after(closing, after)
                if heading is not None:
                    if holds_only_markup("\n".join(self.texts[index:heading])):
                        return "", heading, ""
                    return kind, heading, label
        return found

    def heading_after(self, closing: int, after: int) -> int | None:
        """The first ATX heading among lines ``(closing, after)``, looked for up to a fence's opening line (a ``#``
        line inside code is no heading), else ``None``."""
        for line in range(closing + 1, after):
            text = self.texts[line]
            if fence_opening(text.lstrip(" \t")) is not None:
                return None
            if atx_heading_title(text) is not None:
                return line
        return None


def section_title(heading: str) -> str:
    """A heading's text as its section title under "blocks-4" (see the module's docstring).

    ``section_title("Changes to `*.html` files { data-search-exclude }")`` -> ``"Changes to `*.html` files"``. A tag
    is one as CommonMark writes it (``<small>``, ``<a id="x">``, ``</b>``; not ``<K, V>``), never inside a code span
    (```` `<div>` ```` stays). Where markup leaves, the space on its two sides is one; nothing else of the text
    changes. A heading of tags alone keeps the title "blocks-3" gives it: there is no other.
    """
    if "<" not in heading:
        return without_attribute_list(heading)
    blanked = without_code_spans(heading)
    markup = sorted([*comment_spans(blanked), *(match.span() for match in TITLE_TAG.finditer(blanked))])
    pieces: list[str] = []
    position = 0
    for start, stop in markup:
        if start >= position:
            pieces.append(heading[position:start])
            position = stop
    pieces.append(heading[position:])
    title = pieces[0]
    for piece in pieces[1:]:
        # "0.1.0 <small>Feb</small> x" -> "0.1.0 Feb x": one space where markup stood between two.
        title += piece.lstrip(" \t") if title[-1:] in (" ", "\t") else piece
    title = title.strip(" \t")
    if not title and any(True for _ in comment_spans(blanked)):
        # Comments alone: what they say, without their markers.
        said = (heading[start + 4 : stop].removesuffix("-->") for start, stop in comment_spans(blanked))
        title = " ".join(" ".join(said).split())
    return without_attribute_list(title) if title else mkdocs.without_attribute_list(heading)


def without_attribute_list(title: str) -> str:
    """``title`` without a trailing attribute list, bare names included: ``"Search { data-search-exclude }"`` -> ``"Search"``.

    "blocks-3"'s rule (``grammars.mkdocs.without_attribute_list``), then a list with names that take no value.
    """
    title = mkdocs.without_attribute_list(title)
    start = title.rfind("{")
    if start == -1 or ATTRIBUTE_LIST.fullmatch(title, start) is None:
        return title
    return title[:start].rstrip(" \t")
