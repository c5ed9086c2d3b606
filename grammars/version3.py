"""What "blocks-3" reads on top of "blocks-2", page by page (``SPEC.md``, "The block grammar, version 3").

``PageReader`` is what the one pass of ``blocks.block_sections`` asks first,
where a block may start or a paragraph may end: mkdocstrings directives
(``mkdocs``), Hugo shortcodes (``shortcodes``), HTML blocks and elements
(``html_blocks``), ESM lines and expressions (``mdx``); and what a heading's
text becomes as a section title (attribute lists dropped). Whatever needs the
whole page (shortcode and element pairs, expression ends, the last colon
container's closing line) is found once, on first use, in one pass each.
"""

from __future__ import annotations

from itertools import repeat
from operator import contains

from grammars.blocks import admonition_end, closes_container
from grammars.html_blocks import (
    ANY_TAG,
    element_pairs,
    holds_only_markup,
    html_start,
    lines_hold_only_markup,
    markup_end,
    opens_alone,
)
from grammars.mdx import esm_end, expression_ends, is_esm_line, opens_expression
from grammars.mkdocs import directive_name, without_attribute_list
from grammars.shortcodes import is_lone_closing_marker, opening_marker, shortcode_kind, shortcode_pairs


class PageReader:
    """The "blocks-3" rules for one page's lines (the text after its front matter, ``blocks.page_lines``)."""

    # The first characters (after spaces) of the lines ``interrupts`` may answer yes for; any other it answers no.
    INTERRUPTING = frozenset(":{<")

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self._shortcode_pairs: dict[int, int] | None = None
        self._element_pairs: dict[int, int] | None = None
        self._expression_ends: list[int | None] | None = None
        self._last_colon_closing: int | None = None
        # For each line, the first blank line from it on (the page's end if none): built on first use, so a page of
        # many HTML blocks that each run on to a blank line finds each end in one look.
        self._next_blank: list[int] | None = None

    heading_title = staticmethod(without_attribute_list)

    def shortcode_pairs(self) -> dict[int, int]:
        if self._shortcode_pairs is None:
            self._shortcode_pairs = shortcode_pairs(self.texts)
        return self._shortcode_pairs

    def element_pairs(self) -> dict[int, int]:
        if self._element_pairs is None:
            self._element_pairs = element_pairs(self.texts)
        return self._element_pairs

    def expression_ends(self) -> list[int | None]:
        if self._expression_ends is None:
            self._expression_ends = expression_ends(self.texts)
        return self._expression_ends

    def closed_later(self, index: int) -> bool:
        """Whether a line after ``texts[index]`` closes a colon container (a run of three or more ``:`` alone)."""
        if self._last_colon_closing is None:
            self._last_colon_closing = next(
                (
                    position
                    for position in range(len(self.texts) - 1, -1, -1)
                    if closes_container(self.texts[position], ":", 3)
                ),
                -1,
            )
        return self._last_colon_closing > index

    def holds_text(self, first: int, after: int) -> bool:
        """Whether the paragraph of lines ``[first, after)`` holds text once its tags and comments are taken out.

        A paragraph of inline tags alone (``<a href="…"><img src="…"></a>``, ``<a id="x"></a>``)
        holds nothing to retrieve, as an HTML block of tags alone does: it belongs to no block.
        """
        if not any(map(contains, self.texts[first:after], repeat("<"))):
            return True
        return not holds_only_markup("\n".join(self.texts[first:after]))

    @staticmethod
    def may_start(text: str) -> bool:
        """Whether a line "blocks-2" leaves to paragraphs could start a "blocks-3" block; ``False`` is certain."""
        return text.lstrip(" ")[:1] in ("{", "<") or text.startswith(("import", "export"))

    def interrupts(self, index: int) -> bool:
        """Whether ``texts[index]`` ends the paragraph or lazy list line above it.

        A directive, a paired shortcode's opening line, a lone closing marker
        and an HTML block of CommonMark's conditions 1 to 6 do; condition 7, an
        ESM line and an expression do not (as CommonMark and MDX read them).
        """
        text = self.texts[index]
        first = text.lstrip(" ")[:1]
        if first == ":":
            return directive_name(self.texts, index, self.closed_later(index)) is not None
        if first == "{":
            return index in self.shortcode_pairs() or is_lone_closing_marker(text)
        if first == "<":
            start = html_start(text)
            return start is not None and start[0] <= 6
        return False

    def block_at(self, index: int) -> tuple[str, int, str] | None:
        """The kind, end (index after its last line) and label of the block ``texts[index]`` starts, else ``None``.

        A kind of ``""`` is markup that belongs to no block (a lone closing
        marker, an HTML block of tags and comments alone): the pass steps over it.
        """
        text = self.texts[index]
        first = text.lstrip(" ")[:1]
        if first == ":":
            name = directive_name(self.texts, index, self.closed_later(index))
            return None if name is None else ("directive", admonition_end(self.texts, index), name)
        if first == "{":
            return self.brace_block(index)
        if first == "<":
            return self.html_block(index)
        if is_esm_line(text):
            return "esm", esm_end(self.texts, index), ""
        return None

    def brace_block(self, index: int) -> tuple[str, int, str] | None:
        """A paired shortcode, a lone closing marker, or an expression whose last line ends with its ``}``."""
        text = self.texts[index]
        closing = self.shortcode_pairs().get(index)
        if closing is not None:
            kind, label = shortcode_kind(opening_marker(text))
            return kind, closing + 1, label
        if is_lone_closing_marker(text):
            return "", index + 1, ""
        if opens_expression(text):
            end = self.expression_ends()[index]
            if end is not None and self.texts[end].rstrip(" \t").endswith("}"):
                return "expression", end + 1, ""
        return None

    def blank_line_after(self, index: int) -> int:
        """Where an HTML block that runs on to a blank line ends, from ``texts[index]``: the first blank line after it,
        or the page's end (``html_blocks.blank_line_end``, answered from a table of the page's lines)."""
        texts = self.texts
        if index + 1 >= len(texts):
            return len(texts)
        if self._next_blank is None:
            following = [len(texts)] * (len(texts) + 1)
            for line in range(len(texts) - 1, -1, -1):
                following[line] = following[line + 1] if texts[line].strip() else line
            self._next_blank = following
        return self._next_blank[index + 1]

    def html_block(self, index: int) -> tuple[str, int, str] | None:
        """An HTML block as CommonMark starts and ends it, an element kept whole through its closing tag's line."""
        text = self.texts[index]
        start = html_start(text)
        closing = self.element_pairs().get(index)
        if start is None and (closing is None or not opens_alone(text)):
            # Inline HTML of a paragraph; an element is kept whole from a start of CommonMark's, or from an
            # opening tag alone on its line (a JSX element whose attributes CommonMark cannot read).
            return None
        if closing is not None and (start is None or start[0] >= 6):
            # Through the line of the matching closing tag, then on to a blank line, as condition 6 or 7 ends.
            after = self.blank_line_after(closing)
            label = ANY_TAG.search(text).group(2).lower()
        elif start[0] <= 5:
            after = markup_end(self.texts, index, start[0])
            label = start[1]
        else:
            after = self.blank_line_after(index)
            label = start[1]
        if lines_hold_only_markup(self.texts, index, after):
            return "", after, ""
        return "html", after, label
