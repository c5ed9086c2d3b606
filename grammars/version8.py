"""What "blocks-8" reads on top of "blocks-7" (``SPEC.md``, "The block grammar, version 8"): definition lists entry by
entry, and elements of expressions alone.

Rule E keeps an element whole from its opening line through its closing tag's
line, blank lines inside included, and under "blocks-7" that holds for an
HTML definition list too: a ``<dl>`` of ``<dt>`` / ``<dd>`` entries, each
option of a command's page, is one block (13,294 characters on one page of a
public docs set read at a target of 1,000), so no chunk boundary falls
between two options. Here (rule S), a ``<dl>`` kept whole, its opening tag
alone on its line and ``</dl>`` alone on its closing line, whose entries are
separated by blank lines is read entry by entry:

- an *entry* starts at a ``<dt`` line (``ENTRY_START``) that is the list's
  first line of content or follows a blank line, outside a fence and outside
  an element opened on an earlier line of the list and closed on a later one
  (a ``<dd>`` holding blank lines, a nested ``<dl>``); it runs to the last
  line of content before the next entry or before ``</dl>``: its ``<dd>``
  lines, and the blank lines inside them;
- each entry is an ``html`` block labelled ``dt``; the opening line, the lines
  before the first entry (tags and comments alone, or the list is kept whole)
  and the closing line belong to no block, as tags alone do;
- a list of one entry, one with text before its first entry, or whose block
  runs on past its ``</dl>`` line, is kept whole as before.

And (rule T) an element whose content is a ``{…}`` expression alone
(``<CodeBlock language="ts">{Source}</CodeBlock>``: MDX fills it in from an
imported file at build time) holds no text of the page's: a paragraph or an
HTML block of such elements, tags and comments alone belongs to no block, as
one of tags alone does (``mdx.without_element_expressions``).

Every other rule is "blocks-7"'s; no block ends elsewhere and no heading moves. A
page without such a ``<dl>`` and without such an element is read exactly as
under "blocks-7".
"""

from __future__ import annotations

import re

from grammars.blocks import closes_fence_within, fence_opening, leading_columns
from grammars.html_blocks import holds_only_markup, html_start, opens_alone, without_comments
from grammars.mdx import without_element_expressions
from grammars.records import LazyPattern
from grammars.version7 import BLANK_REFERENCE
from grammars.version7 import PageReader as Version7Reader

# A definition list's closing line: ``</dl>`` alone, case aside.
LIST_CLOSING = LazyPattern(r"[ \t]*</dl[ \t]*>[ \t]*", re.IGNORECASE)
# An entry's first line: a ``<dt>`` tag (attributes allowed) after spaces, case aside.
ENTRY_START = LazyPattern(r" *<dt(?=[ \t>]|$)", re.IGNORECASE)


def opens_definition_list(line: str) -> bool:
    """Whether ``line`` is a ``<dl>`` opening tag alone (indent at most 3, attributes allowed): ``'<dl class="x">'`` ->
    ``True``; ``"<dl><dt>A</dt>"`` and ``"</dl>"`` -> ``False``."""
    return html_start(line) == (6, "dl") and not line.lstrip(" ").startswith("</") and opens_alone(line)


def entry_starts(texts: list[str], opening: int, closing: int, pairs: dict[int, int]) -> list[int]:
    """The lines strictly between a definition list's ``opening`` and ``closing`` lines that start its entries (rule S).

    ``pairs`` are the page's elements kept whole (opening line -> closing line): a ``<dt>`` line inside one opened on
    an earlier line of the list starts no entry, nor does one inside a fence. One look at each line of the list.
    ``entry_starts(["<dl>", "<dt>A</dt>", "<dd>a</dd>", "", "<dt>B</dt>", "<dd>b</dd>", "</dl>"], 0, 6, {})`` ->
    ``[1, 4]``.
    """
    starts = []
    # The last line of the elements opened so far inside the list.
    reach = opening
    fence = None
    fence_indent = 0
    after_blank = True
    for line in range(opening + 1, closing):
        text = texts[line]
        if fence is not None:
            if closes_fence_within(text, fence, fence_indent):
                fence = None
            continue
        content = text.lstrip(" \t")
        if not content:
            after_blank = True
            continue
        if after_blank and line > reach and ENTRY_START.match(text):
            starts.append(line)
        after_blank = False
        reach = max(reach, pairs.get(line, line))
        if content[0] in "`~":
            fence = fence_opening(content)
            fence_indent = leading_columns(text[: len(text) - len(content)])
    return starts


def entry_spans(texts: list[str], starts: list[int], closing: int) -> list[tuple[int, int]]:
    """Each entry's lines ``[first, after)``: from its start to its last line of content before the next entry's start
    or before ``closing``. ``entry_spans(["<dl>", "<dt>A</dt>", "", "<dt>B</dt>", "", "</dl>"], [1, 3], 5)`` ->
    ``[(1, 2), (3, 4)]``."""
    spans = []
    for position, first in enumerate(starts):
        after = starts[position + 1] if position + 1 < len(starts) else closing
        while not texts[after - 1].strip():
            after -= 1
        spans.append((first, after))
    return spans


def markup_and_expressions_alone(text: str) -> bool:
    """Whether ``text`` holds tags, comments, whitespace and elements of ``{…}`` expressions alone (rule T):
    ``'<CodeBlock language="ts">{Source}</CodeBlock>'`` -> ``True``; ``"<code>{a}</code>."`` -> ``False``."""
    return holds_only_markup(without_element_expressions(without_comments(text)))


class PageReader(Version7Reader):
    """The "blocks-8" rules for one page's lines: "blocks-7"'s, with a definition list read entry by entry and an
    element of an expression alone read as markup."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(texts)
        # The blocks of a definition list read entry by entry, by their first line, found when the pass reaches the
        # list's opening line and taken as it reaches each entry and the closing line.
        self._list_blocks: dict[int, tuple[str, int, str]] = {}

    def block_at(self, index: int) -> tuple[str, int, str] | None:
        """ "blocks-7"'s block at ``texts[index]``, where a definition list kept whole is read entry by entry (rule S)
        and an HTML block of elements of expressions, tags and comments alone is no block (rule T)."""
        listed = self._list_blocks.pop(index, None)
        if listed is not None:
            return listed
        found = super().block_at(index)
        if found is None or found[0] != "html":
            return found
        kind, after, label = found
        if label == "dl":
            read = self.list_entries(index, after)
            if read is not None:
                return read
        text = "\n".join(self.texts[index:after])
        if "{" in text and markup_and_expressions_alone(text):
            return "", after, ""
        return found

    def list_entries(self, index: int, after: int) -> tuple[str, int, str] | None:
        """When the ``<dl>`` block of lines ``[index, after)`` is read entry by entry, what its opening line starts (no
        block, through the lines before its first entry), its entries and its closing line kept for the pass; else
        ``None``."""
        closing = self.element_pairs().get(index)
        texts = self.texts
        if (
            closing is None
            or after != closing + 1
            or not opens_definition_list(texts[index])
            or not LIST_CLOSING.fullmatch(texts[closing])
        ):
            return None
        starts = entry_starts(texts, index, closing, self.element_pairs())
        if len(starts) < 2 or not holds_only_markup("\n".join(texts[index : starts[0]])):
            return None
        for first, end in entry_spans(texts, starts, closing):
            holds_text = not markup_and_expressions_alone("\n".join(texts[first:end]))
            self._list_blocks[first] = ("html", end, "dt") if holds_text else ("", end, "")
        self._list_blocks[closing] = ("", closing + 1, "")
        return "", starts[0], ""

    def holds_text(self, first: int, after: int) -> bool:
        """Whether the paragraph of lines ``[first, after)`` holds text: not when it is elements of expressions, tags
        and comments alone (rule T; blank space too, rule R), nor when "blocks-7" finds none."""
        if not super().holds_text(first, after):
            return False
        texts = self.texts[first:after]
        joined = "\n".join(texts)
        if "{" not in joined or "<" not in joined:
            return True
        return not markup_and_expressions_alone(BLANK_REFERENCE.sub("", joined) if "&" in joined else joined)
