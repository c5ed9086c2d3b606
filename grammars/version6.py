"""What "blocks-6" reads on top of "blocks-5" (``SPEC.md``, "The block grammar, version 6"): elements around headings.

Rule E keeps an element whole from its opening line through its closing tag's
line, and under "blocks-5" that holds for one that wraps Markdown headings too:
a ``<details>`` around ``## Manual setup`` and its ``###`` subsections, a JSX
``<Tabs>`` / ``<TabItem>`` or ``<Steps>`` around ``###`` headings, is one
block and one section, so none of its headings opens a section. GitHub,
CommonMark and MDX render those headings as headings. Here (rule P):

- an element whose lines hold a *heading line* between its opening line and
  its closing line (``heading_lines``: an ATX heading, or a setext underline
  under plain text; not in a fence, a comment, a raw ``<pre>`` / ``<script>``
  block, or an HTML block of CommonMark's once it holds text) is *headed*:
  not kept whole. Its opening line starts an ordinary HTML block
  (CommonMark's conditions 6 and 7, or an opening tag alone on its line as
  rule E reads JSX) which, while its lines are tags alone, also ends before a
  heading, a fence or an element kept whole, and which, of tags alone,
  belongs to no block; each heading opens its section; the Markdown between
  is read as the page is; its closing line starts a block the same way. Both
  lines interrupt a paragraph and a list, as MDX reads a JSX tag alone on its
  line.
- an element without a heading line inside is kept whole, as under
  "blocks-5", nested in a headed one or not; the lines it takes after its
  closing tag (on to the next blank line) end before a headed element's line.

Every other rule is "blocks-5"'s; a page none of whose elements holds a
heading line is read exactly as under "blocks-5".
"""

from __future__ import annotations

from bisect import bisect_right

from grammars.blocks import (
    SETEXT_UNDERLINE,
    THEMATIC_BREAK,
    atx_heading_title,
    closes_fence_within,
    fence_opening,
    leading_columns,
    starts_block,
)
from grammars.html_blocks import (
    ANY_TAG,
    RAW_END,
    element_pairs,
    holds_only_markup,
    html_start,
    opens_alone,
    space_indent,
)
from grammars.mdx import is_esm_line
from grammars.version5 import PageReader as Version5Reader


def heading_lines(texts: list[str]) -> list[int]:
    """The indexes of the page's lines that are headings as a reader of the rendered page sees them, in order.

    An ATX heading (``atx_heading_title``: up to three spaces in), or a setext
    underline (``===`` or ``---``, up to three spaces in) right under a run of
    plain text: lines since a blank line, a heading or a fence, the first of
    which opens no block (``opens_block``: no list item, quote, table,
    container, HTML block, brace, ESM or ``::`` line) and none of the others
    interrupts a paragraph. Never a heading: a line inside a fence (opened at
    any indent, closed at most 3 columns deeper, as rule K reads them), a
    comment opened at the start of a line (to its ``-->``), a raw ``<pre>``,
    ``<script>``, ``<style>`` or ``<textarea>`` block (to its closing tag), or
    an HTML block of CommonMark's once it holds text (a ``# comment<br />``
    line inside a ``<table>``'s cells, before the blank line that ends it);
    under tags alone (``<Box>`` then ``## Checklist``) a heading is one, as MDX
    reads it.
    ``heading_lines(["<details>", "", "## In", "```", "# c", "```", "Title", "---"])`` -> ``[2, 7]``.
    """
    found: list[int] = []
    fence = None
    fence_indent = 0
    # The marker that ends the comment or raw block the line is in, else None.
    raw_end = None
    # The lines since the last blank line, heading or fence: None (none), "text" (a paragraph's), "markup" (an HTML
    # block's, tags and comments alone so far), "html" (an HTML block's, with text) or "other" (another block's).
    run = None
    for index, text in enumerate(texts):
        if fence is not None:
            if closes_fence_within(text, fence, fence_indent):
                fence = None
            continue
        if raw_end is not None:
            if (RAW_END.search(text) is not None) if raw_end == "raw" else ("-->" in text):
                raw_end = None
            continue
        content = text.lstrip(" \t")
        if not content:
            run = None
            continue
        if run == "html":
            # CommonMark's HTML block runs on to the blank line: nothing in it is Markdown.
            continue
        if content[0] in "`~":
            fence = fence_opening(content)
            if fence is not None:
                fence_indent = leading_columns(text[: len(text) - len(content)])
                run = None
                continue
        indent, rest = space_indent(text)
        start = html_start(text) if content[0] == "<" else None
        if start is not None and start[0] <= 2:
            # A raw block or a comment: none of its lines is a heading. Inside tags alone it is that HTML block's (a
            # comment is markup); anywhere else it is a block of its own, ended on the line that closes it.
            closed = RAW_END.search(rest) is not None if start[0] == 1 else "-->" in rest[4:]
            if not closed:
                raw_end = "raw" if start[0] == 1 else "comment"
            if run != "markup":
                run = None
            elif start[0] == 1:
                run = "html"
            continue
        if content[0] == "#" and atx_heading_title(text) is not None:
            found.append(index)
            run = None
        elif run == "text" and SETEXT_UNDERLINE.fullmatch(text):
            found.append(index)
            run = None
        elif THEMATIC_BREAK.fullmatch(text):
            run = None
        elif run == "markup":
            if not holds_only_markup(text):
                run = "html"
        elif run is None or (start is not None and start[0] <= 6):
            # A block starts here: a run's first line, or an HTML block of conditions 3 to 6 (they interrupt).
            if start is not None or (content[0] == "<" and indent <= 3 and opens_alone(text)):
                run = "markup" if holds_only_markup(text) else "html"
            else:
                run = "other" if opens_block(texts, index) else "text"
        elif run == "text" and starts_block(texts, index, True):
            run = "other"
    return found


def opens_block(texts: list[str], index: int) -> bool:
    """Whether ``texts[index]``, where a block may start, may open one other than a paragraph: a line
    ``starts_block`` names, an HTML block's first line (or an opening tag alone on its line), a brace, an ESM line or
    a line of MDC's ``::``; ``False`` is certain, ``True`` may be a paragraph's line after all."""
    text = texts[index]
    content = text.lstrip(" \t")
    if content[0] == "<":
        return html_start(text) is not None or opens_alone(text)
    return content[0] == "{" or content.startswith("::") or is_esm_line(text) or starts_block(texts, index, True)


def headed_pairs(texts: list[str], pairs: dict[int, int]) -> dict[int, int]:
    """The element pairs (opening line -> closing line) with a heading line strictly between the two."""
    headings = None
    headed = {}
    for opening, closing in pairs.items():
        if closing - opening < 2:
            continue
        if headings is None:
            headings = heading_lines(texts)
            if not headings:
                return headed
        following = bisect_right(headings, opening)
        if following < len(headings) and headings[following] < closing:
            headed[opening] = closing
    return headed


class PageReader(Version5Reader):
    """The "blocks-6" rules for one page's lines: "blocks-5"'s, with an element around a heading read through."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(texts)
        # The opening and closing lines of the headed elements (found with the pairs, on first use).
        self._headed_lines: frozenset[int] = frozenset()

    def element_pairs(self) -> dict[int, int]:
        """The pairs of the elements kept whole: "blocks-5"'s, less the headed ones."""
        if self._element_pairs is None:
            pairs = element_pairs(self.texts, fence_indents=True)
            headed = headed_pairs(self.texts, pairs)
            if headed:
                self._headed_lines = frozenset(headed) | frozenset(headed.values())
                pairs = {opening: closing for opening, closing in pairs.items() if opening not in headed}
            self._element_pairs = pairs
        return self._element_pairs

    def headed_line(self, index: int) -> bool:
        """Whether ``texts[index]`` is a headed element's opening or closing line that starts an HTML block here:
        CommonMark's condition 6 or 7, or an opening tag alone on its line (indent at most 3)."""
        self.element_pairs()
        if index not in self._headed_lines:
            return False
        text = self.texts[index]
        start = html_start(text)
        if start is not None:
            return start[0] >= 6
        return space_indent(text)[0] <= 3 and opens_alone(text) and text.lstrip(" ")[:2] != "</"

    def interrupts(self, index: int) -> bool:
        # A headed element's tag line ends the paragraph or list above it, as MDX reads a JSX tag alone on its line
        # (a line of conditions 1 to 6 already does).
        if super().interrupts(index):
            return True
        return self.texts[index].lstrip(" ")[:1] == "<" and self.headed_line(index)

    def html_block(self, index: int) -> tuple[str, int, str] | None:
        if self.headed_line(index):
            start = html_start(self.texts[index])
            label = start[1] if start is not None else ANY_TAG.search(self.texts[index]).group(2).lower()
            return self.cut_block(index, self.blank_line_after(index), "html", label)
        found = super().html_block(index)
        closing = self.element_pairs().get(index)
        if found is None or closing is None or not self._headed_lines:
            return found
        # An element kept whole: the lines it takes after its closing tag end before a headed element's line.
        kind, after, label = found
        for line in range(closing + 1, after):
            if line in self._headed_lines:
                if not kind or holds_only_markup("\n".join(self.texts[index:line])):
                    return "", line, ""
                return kind, line, label
        return found

    def cut_block(self, index: int, after: int, kind: str, label: str) -> tuple[str, int, str]:
        """The HTML block of lines ``[index, after)`` as a headed element's tag line starts it: while its lines hold
        tags and comments alone, it ends before a line that is an ATX heading, opens a fence or opens an element kept
        whole whose closing tag is on a later line; once one holds text it runs on, as CommonMark's does. Of tags
        alone, it is no block."""
        pairs = self.element_pairs()
        texts = self.texts
        if holds_only_markup(texts[index]):
            for line in range(index + 1, after):
                text = texts[line]
                if (
                    atx_heading_title(text) is not None
                    or fence_opening(text.lstrip(" \t")) is not None
                    or pairs.get(line, line) > line
                ):
                    return "", line, ""
                if not holds_only_markup(text):
                    break
        if holds_only_markup("\n".join(texts[index:after])):
            return "", after, ""
        return kind, after, label
