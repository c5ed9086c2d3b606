"""What "blocks-7" reads on top of "blocks-6" (``SPEC.md``, "The block grammar, version 7"): shortcodes around headings,
and paragraphs of blank space.

Rule D keeps a paired Hugo shortcode whole from its opening line through its
closing line, and under "blocks-6" that holds for one that wraps Markdown
headings too: a ``{{< tabs >}}`` of ``{{% codetab %}}`` panes, each a whole
tutorial of ``###`` steps, is one block and one section (61,958 characters on
one page of a public docs set read at a target of 1,000), so none of its
headings opens a section. Hugo renders those headings as headings, and a
Markdown splitter reads them so. Here (rule Q), as rule P reads an element:

- a paired shortcode whose body is Markdown (``markdown_body``: one written
  ``{{% name %}}``, which Hugo renders as Markdown, or a layout container
  of ``LAYOUT_SHORTCODES``, ``{{< tabs >}}``; never a cautionary one, which a
  theme draws as one callout, nor a code one, ``{{< highlight >}}``), whose
  opening and closing markers are each alone on their lines and whose lines
  hold a *heading line* (``version6.heading_lines``, read on ``heading_texts``:
  a line inside a code shortcode is none, and such marker lines are blank) between
  the two, is *headed*: not kept whole. Its two marker lines belong to no block and end
  the paragraph, list or HTML block above them; each heading opens its section; the
  Markdown between is read as the page is, shortcodes inside it by these
  same rules.
- any other paired shortcode is kept whole, as under "blocks-6", nested in a
  headed one or not.

And (rule R) a paragraph of nothing but HTML's character references for blank
space (``&nbsp;``, ``&#160;``, ``&emsp;``, …), tags and comments renders as
blank space: it belongs to no block, as a paragraph of tags alone does
(``&nbsp;`` alone between two paragraphs, a page's spacer, was a chunk of its own).

Every other rule is "blocks-6"'s; a page none of whose shortcodes holds a
heading line and none of whose paragraphs is such a spacer is read exactly as
under "blocks-6".
"""

from __future__ import annotations

import re

from grammars.html_blocks import holds_only_markup, html_start
from grammars.shortcodes import CODE_SHORTCODES, is_lone_closing_marker, opening_marker, shortcode_kind
from grammars.version6 import PageReader as Version6Reader
from grammars.version6 import headed_pairs

# The shortcodes docs themes lay Markdown out with, written ``{{< name >}}`` too: tab sets and their tabs, steps,
# columns and collapsible sections.
LAYOUT_SHORTCODES = frozenset(
    {
        "accordion",
        "codetab",
        "collapse",
        "column",
        "columns",
        "details",
        "expand",
        "step",
        "steps",
        "tab",
        "tabpane",
        "tabs",
    }
)


# HTML's character references for blank space, by name or number (names are case-sensitive, as HTML reads them):
# no-break, en, em and thin spaces and the zero-width one.
BLANK_REFERENCE = re.compile(
    r"&(?:nbsp|ensp|emsp|thinsp|ZeroWidthSpace|#0*160|#0*819[45]|#0*8201|#0*8203|#[xX]0*(?:[aA]0|200[29bB]));"
)


def markdown_body(text: str) -> bool:
    """Whether ``text``, a paired shortcode's opening line, opens one whose body is Markdown and is its marker alone
    (indent at most 3): ``{{% codetab %}}``, ``{{< tabs "Python" "Go" >}}``; not ``{{% warning %}}`` (a callout),
    ``{{< highlight go >}}`` (code) or ``{{< figure src="a.png" >}}`` (a template of its own)."""
    marker = opening_marker(text)
    content = text.lstrip(" ").rstrip(" \t")
    if marker is None or marker.end != len(content) or shortcode_kind(marker)[0] != "shortcode":
        return False
    name = marker.name.lower()
    return name not in CODE_SHORTCODES and (content.startswith("{{%") or name in LAYOUT_SHORTCODES)


def without_code_bodies(texts: list[str], pairs: dict[int, int]) -> list[str]:
    """``texts`` with every line strictly inside a code shortcode's pair blank: a ``# comment`` there heads nothing.

    Each line is blanked once: a code pair inside another's body is passed over (pairs nest and never cross), so a
    page of code shortcodes nested thousands deep stays linear in its lines.
    """
    bodies = sorted(
        (opening, closing)
        for opening, closing in pairs.items()
        if closing - opening > 1
        and (marker := opening_marker(texts[opening])) is not None
        and marker.name.lower() in CODE_SHORTCODES
    )
    if not bodies:
        return texts
    blanked = list(texts)
    reach = 0
    for opening, closing in bodies:
        if opening >= reach:
            blanked[opening + 1 : closing] = [""] * (closing - opening - 1)
            reach = closing
    return blanked


def heading_texts(texts: list[str], pairs: dict[int, int], candidates: dict[int, int]) -> list[str]:
    """``texts`` as rule Q looks for heading lines in them: a code shortcode's body blank (``without_code_bodies``),
    and the opening and closing lines of ``candidates`` (the pairs that may be headed) blank too. Such a marker line
    belongs to no block and ends the block above it, as a blank line does: ``Title`` then ``---`` right under
    ``{{% tab %}}`` is a setext heading, and ``---`` right under ``{{% /tab %}}`` is a break, not an underline."""
    blanked = without_code_bodies(texts, pairs)
    if blanked is texts:
        blanked = list(texts)
    for opening, closing in candidates.items():
        blanked[opening] = blanked[closing] = ""
    return blanked


class PageReader(Version6Reader):
    """The "blocks-7" rules for one page's lines: "blocks-6"'s, with a shortcode around a heading read through."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(texts)
        # The opening lines of the headed shortcodes, and those with their closing lines (found with the pairs, on
        # first use).
        self._headed_openings: frozenset[int] = frozenset()
        self._headed_markers: frozenset[int] = frozenset()
        # For each line, the first line from it on that is blank or a headed shortcode's marker line (built on first
        # use, on a page with headed shortcodes).
        self._stops: list[int] | None = None

    def shortcode_pairs(self) -> dict[int, int]:
        """The pairs of the shortcodes kept whole: "blocks-6"'s, less the headed ones."""
        if self._shortcode_pairs is None:
            pairs = super().shortcode_pairs()
            texts = self.texts
            candidates = {
                opening: closing
                for opening, closing in pairs.items()
                if closing > opening and markdown_body(texts[opening]) and is_lone_closing_marker(texts[closing])
            }
            headed = headed_pairs(heading_texts(texts, pairs, candidates), candidates) if candidates else {}
            if headed:
                self._headed_openings = frozenset(headed)
                self._headed_markers = self._headed_openings | frozenset(headed.values())
                self._shortcode_pairs = {
                    opening: closing for opening, closing in pairs.items() if opening not in headed
                }
        return self._shortcode_pairs

    def holds_text(self, first: int, after: int) -> bool:
        """Whether the paragraph of lines ``[first, after)`` holds text: not when it is blank space once its character
        references for blank space are taken out (rule R), nor when "blocks-6" finds none."""
        texts = self.texts[first:after]
        if any("&" in text for text in texts) and holds_only_markup(BLANK_REFERENCE.sub("", "\n".join(texts))):
            return False
        return super().holds_text(first, after)

    def interrupts(self, index: int) -> bool:
        # A headed shortcode's opening line ends the paragraph or list above it, as its closing line does (a lone
        # closing marker).
        if super().interrupts(index):
            return True
        return self.texts[index].lstrip(" ")[:1] == "{" and self.headed_opening(index)

    def headed_opening(self, index: int) -> bool:
        """Whether ``texts[index]`` opens a headed shortcode."""
        self.shortcode_pairs()
        return index in self._headed_openings

    def brace_block(self, index: int) -> tuple[str, int, str] | None:
        if self.headed_opening(index):
            return "", index + 1, ""
        return super().brace_block(index)

    def blank_line_after(self, index: int) -> int:
        """Where an HTML block that runs on to a blank line ends: there, or before a headed shortcode's marker line,
        which belongs to no block (``<img src="a.png">`` then ``{{% /tab %}}``); looked up in one table a page, so a
        page of many such blocks stays linear."""
        self.shortcode_pairs()
        if not self._headed_markers:
            return super().blank_line_after(index)
        if self._stops is None:
            texts = self.texts
            markers = self._headed_markers
            stops = [len(texts)] * (len(texts) + 1)
            for line in range(len(texts) - 1, -1, -1):
                stops[line] = line if line in markers or not texts[line].strip() else stops[line + 1]
            self._stops = stops
        return self._stops[index + 1] if index + 1 < len(self.texts) else len(self.texts)

    def html_block(self, index: int) -> tuple[str, int, str] | None:
        """ "blocks-6"'s HTML block, ended before a headed shortcode's marker line (``blank_line_after``), inside an
        element kept whole too: that line belongs to no block. Of tags and comments alone, it is no block. A comment
        or a raw block (CommonMark's conditions 1 to 5) runs on to its own end, as before."""
        found = super().html_block(index)
        self.shortcode_pairs()
        if found is None or not self._headed_markers:
            return found
        kind, after, label = found
        start = html_start(self.texts[index])
        if start is not None and start[0] <= 5 and index not in self.element_pairs():
            return found
        markers = self._headed_markers
        for line in range(index + 1, after):
            if line in markers:
                if not kind or holds_only_markup("\n".join(self.texts[index:line])):
                    return "", line, ""
                return kind, line, label
        return found
