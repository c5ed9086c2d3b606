"""The block grammar (``SPEC.md``, "The block grammar") and its second version, "blocks-2".

The block grammar reads real documentation: front matter, text before the first
heading, fenced code, ATX and setext headings, admonitions, blockquotes and
alerts, lists and tables. It is CommonMark-inspired, not a Markdown parser: it
finds where blocks begin and end, in one pass over the lines, and nothing else.

"blocks-2" (``SPEC.md``, "The block grammar, version 2") reads everything
"blocks" does plus the containers of other docs sites: pymdownx blocks
(``/// warning``), colon containers (``:::warning``) and content tabs
(``=== "Tab"``). "blocks" itself never changes: its ids are in saved results,
and neither does "blocks-2".

"blocks-3" is "blocks-2" with a page reader (``grammars.version3``) that the one
pass asks first where a block may start or a paragraph end; without one, nothing
here reads differently.
"""

from __future__ import annotations

from itertools import accumulate

from grammars.records import Block, LazyPattern, Section
from lab_io.errors import IngestionError, quoted

# Every test below reads one line (its text without the "\n") and at most the
# next one; no pattern can backtrack over more than the line it is given.

FRONT_MATTER_DELIMITERS = ("---", "+++")
# The line that also closes YAML front matter under "blocks-10": YAML's end of a document.
YAML_DOCUMENT_END = "..."
ADMONITION = LazyPattern(r"(?:!!!|\?\?\?\+?)[ \t]+([A-Za-z][A-Za-z0-9_-]*)(?=[ \t]|$)")
ALERT = LazyPattern(r"\[!([A-Za-z]+)\][ \t]*")
ORDERED_MARKER = LazyPattern(r"[0-9]{1,9}[.)]")
SETEXT_UNDERLINE = LazyPattern(r" {0,3}(?:=+|-+)[ \t]*")
TABLE_DELIMITER_CELL = LazyPattern(r":?-+:?")
# Three or more of one of "*", "-", "_" alone on a line (spaces and tabs between
# allowed): a separator docs sites draw between parts of a page. It holds no
# text to retrieve, so it belongs to no block, like a blank line.
THEMATIC_BREAK = LazyPattern(r" {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})")
# A body line of an admonition is indented this far (Python-Markdown's tab length).
ADMONITION_INDENT = 4
# Every block but a paragraph starts with one of these after its leading spaces,
# or holds a pipe (a table's header row): any other line is paragraph text,
# which spares the full set of tests on most lines of a page.
BLOCK_START_CHARACTERS = frozenset("#`~!?>-*+_0123456789")
# "blocks-2" also starts blocks at "/" (``/// name``), ":" (``::: name``) and "=" (``=== "Tab"``).
BLOCK_START_CHARACTERS_2 = BLOCK_START_CHARACTERS | frozenset("/:=")
# What a fence (after up to three spaces) and an admonition (at column 0) open with.
FENCE_CHARACTERS = frozenset("`~")
ADMONITION_CHARACTERS = frozenset("!?")
# What a line of a paragraph may open with (after its spaces) to end it: a block's first character, or a setext
# underline's ("=" or "-"); any other line ends it only if it is blank or holds a pipe (a table's header row).
PARAGRAPH_BREAKS = BLOCK_START_CHARACTERS | frozenset("=")
PARAGRAPH_BREAKS_2 = BLOCK_START_CHARACTERS_2
# A pymdownx block's opening line: up to three spaces, three or more "/", a TYPE as an
# admonition's, then nothing or a "|" and a title. Its closing line is a run of exactly as many "/".
SLASH_BLOCK = LazyPattern(r" {0,3}(/{3,})[ \t]*([A-Za-z][A-Za-z0-9_-]*)[ \t]*(?:\|.*)?")
# A colon container's opening line (Docusaurus, VitePress): up to three spaces, three or
# more ":", a TYPE, then nothing or a space, a tab, "[" or "{" and anything. It closes at a
# run of at least as many ":".
COLON_CONTAINER = LazyPattern(r" {0,3}(:{3,})[ \t]*([A-Za-z][A-Za-z0-9_-]*)(?:[ \t\[{].*)?")
# A content tab's opening line (pymdownx.tabbed): at column 0, "===" (then "!" or "+"
# markers), spaces and a quoted title; its body is indented as an admonition's.
CONTENT_TAB = LazyPattern(r'===[!+]{0,2}[ \t]+".*"[ \t]*')
# A link reference definition's text on one line (CommonMark's, its destination on the label's line): the label
# (not a footnote's ``[^1]``), a colon, the destination, an optional title in quotes or parentheses. "blocks-4" reads
# a paragraph of them as no block (``grammars.version4``); the caveat scan reads such a line as no sentence.
LINK_DEFINITION_TEXT = (
    r"\[(?!\^)[^\]\n]{1,999}\]:[ \t]*(?:<[^<>\n]*>|[^\s<>]+)"
    r"""(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*"""
)


def page_lines(text: str, start: int) -> tuple[list[str], list[int]]:
    """The lines of ``text`` from ``start``, each without its ``\\n``, and their bounds.

    Line ``i`` spans ``[bounds[i], bounds[i + 1])``, its ``\\n`` included (none on a last line without one):
    ``page_lines("ab\\nc", 0)`` -> ``(["ab", "c"], [0, 3, 4])``. The grammar reads the texts and looks a bound
    up only where a block or a section starts or ends: a page's lines are two lists made in C, not a record a line.
    """
    texts = text[start:].split("\n")
    if texts[-1] == "":
        # The text ends with "\n" (or is empty from ``start``): no line follows it.
        texts.pop()
    # Each line starts one character (its "\n") after the previous one ends; split,
    # accumulate and map run in C, where a find() per line would not.
    bounds = list(accumulate(map((1).__add__, map(len, texts)), initial=start))
    if len(bounds) > 1 and bounds[-1] > len(text):
        bounds[-1] = len(text)
    return texts, bounds


def may_start_block(line: str, extended: bool = False) -> bool:
    """Whether ``line`` could start a block other than a paragraph (or be an ATX heading); ``False`` is certain.

    ``extended`` is "blocks-2", whose containers start with characters "blocks" leaves to paragraphs.
    """
    characters = BLOCK_START_CHARACTERS_2 if extended else BLOCK_START_CHARACTERS
    return line.lstrip(" ")[:1] in characters or "|" in line


def is_blank(line: str) -> bool:
    """Blank as the lesson has it: nothing but whitespace (``"  \\t"`` is blank)."""
    return not line.strip()


def leading_columns(line: str) -> int:
    """How far ``line`` is indented, a tab reaching the next multiple of 4: ``" \\tx"`` -> ``4``."""
    columns = 0
    for character in line:
        if character == " ":
            columns += 1
        elif character == "\t":
            columns += 4 - columns % 4
        else:
            break
    return columns


def space_indent(line: str) -> tuple[int, str]:
    """Leading spaces (not tabs) and the rest: ``"  # a"`` -> ``(2, "# a")``."""
    rest = line.lstrip(" ")
    return len(line) - len(rest), rest


def front_matter_end(text: str, where: str, yaml_document_end: bool = False) -> int:
    """Where the text after the front matter starts: 0 without front matter.

    Front matter opens with a first line of ``---`` or ``+++`` (trailing spaces
    and tabs allowed) and closes at the next line that is the same delimiter,
    its ``\\n`` included: ``front_matter_end("---\\na: 1\\n---\\n# T\\n", w)`` -> ``13``.
    With ``yaml_document_end`` ("blocks-10"), YAML front matter (``---``) also
    closes at a line of ``...``, YAML's end of a document, as pandoc's and
    hotdoc's pages write it: ``front_matter_end("---\\na: 1\\n...\\n# T\\n", w, True)`` -> ``13``.
    One that is never closed is refused: the rest of the page would vanish.
    """
    newline = text.find("\n")
    first = text if newline == -1 else text[:newline]
    delimiter = first.rstrip(" \t")
    if delimiter not in FRONT_MATTER_DELIMITERS:
        return 0
    closers = (delimiter, YAML_DOCUMENT_END) if yaml_document_end and delimiter == "---" else (delimiter,)
    line_start = len(text) if newline == -1 else newline + 1
    while line_start < len(text):
        newline = text.find("\n", line_start)
        line_end = len(text) if newline == -1 else newline + 1
        if text[line_start : line_end if newline == -1 else newline].rstrip(" \t") in closers:
            return line_end
        line_start = line_end
    raise IngestionError(
        "front_matter_unclosed",
        where,
        f"front matter opened by {quoted(delimiter)} at line 1 is never closed by a "
        f"{' or '.join(quoted(closer) for closer in closers)} line",
    )


def fence_opening(line: str) -> tuple[str, int] | None:
    """The fence character and run length if ``line`` opens fenced code: ``"  ~~~~ py"`` -> ``("~", 4)``.

    Up to three spaces of indent, then three or more backticks or tildes; a
    backtick fence's info string may hold no backtick (``"``` a`b"`` is not a fence).
    """
    rest = line.lstrip(" ")
    fence = rest[:1]
    # Most lines open with neither character: they are told apart before the indent is measured.
    if fence not in ("`", "~") or len(line) - len(rest) > 3:
        return None
    run = len(rest) - len(rest.lstrip(fence))
    if run < 3 or (fence == "`" and "`" in rest[run:]):
        return None
    return fence, run


def closes_fence(line: str, fence: str, run: int) -> bool:
    """Whether ``line`` closes a fence of ``run`` ``fence`` characters: the same character, at least as many, nothing after but spaces."""
    rest = line.lstrip(" ")
    # Most lines of a fence's body do not open with its character: they are told apart first.
    if not rest.startswith(fence):
        return False
    closing = len(rest) - len(rest.lstrip(fence))
    return len(line) - len(rest) <= 3 and closing >= run and not rest[closing:].strip(" \t")


def closes_fence_within(line: str, fence: tuple[str, int], indent: int) -> bool:
    """Whether ``line`` closes ``fence``, opened ``indent`` columns in, at any indent up to 3 columns deeper than that.

    As "blocks-4" pairs elements (``SPEC.md``, rule K): a fence shown indented inside another does not end it.
    ``closes_fence_within("     ```", ("`", 3), 2)`` -> ``True``; ``"      ```"`` (6 columns) -> ``False``.
    """
    # A line without the fence's character cannot close it: most of a fence's body is passed on one check.
    if fence[0] not in line:
        return False
    content = line.lstrip(" \t")
    return closes_fence(content, *fence) and leading_columns(line[: len(line) - len(content)]) <= indent + 3


def atx_heading_title(line: str) -> str | None:
    """The title if ``line`` is an ATX heading, else ``None``: ``"  ## Setup ##"`` -> ``"Setup"``.

    Up to three spaces, one to six ``#``, then a space, a tab or the end of the
    line; the title is stripped of spaces and tabs, and a closing run of ``#``
    after a space or tab is not part of it (``"# C#"`` -> ``"C#"``, ``"#"`` -> ``""``).
    """
    indent, rest = space_indent(line)
    hashes = len(rest) - len(rest.lstrip("#"))
    if indent > 3 or not 1 <= hashes <= 6:
        return None
    after = rest[hashes:]
    if after and after[0] not in " \t":
        return None
    title = after.strip(" \t")
    without_closing = title.rstrip("#")
    if not without_closing:
        return ""
    if without_closing != title and without_closing[-1] in " \t":
        return without_closing.rstrip(" \t")
    return title


def admonition_label(line: str) -> str | None:
    """The type of an admonition's first line, lowercased: ``'!!! Warning "Mind"'`` -> ``"warning"``; else ``None``."""
    found = ADMONITION.match(line)
    return None if found is None else found.group(1).lower()


def is_quote_line(line: str) -> bool:
    """Whether ``line`` is a blockquote line: up to three spaces, then ``>``."""
    indent, rest = space_indent(line)
    return indent <= 3 and rest.startswith(">")


def quote_label(line: str) -> str:
    """The alert type of a quote's first line, lowercased: ``"> [!WARNING]"`` -> ``"warning"``; else ``""``."""
    content = space_indent(line)[1][1:]
    found = ALERT.fullmatch(content[1:] if content.startswith(" ") else content)
    return "" if found is None else found.group(1).lower()


def list_item(line: str) -> tuple[int, str] | None:
    """The content column and content of a list item's first line, or ``None``.

    Up to three spaces, a bullet (``-``, ``*``, ``+``) or one to nine digits and
    ``.`` or ``)``, then a space, a tab or the end of the line. The content
    column is where the text after the marker starts (one past the marker
    when five or more spaces follow): ``"1.  go"`` -> ``(4, "go")``.
    """
    indent, rest = space_indent(line)
    if indent > 3 or not rest:
        return None
    if rest[0] in "-*+":
        marker = 1
    else:
        found = ORDERED_MARKER.match(rest)
        if found is None:
            return None
        marker = found.end()
    after = rest[marker:]
    if after and after[0] not in " \t":
        return None
    content = after.lstrip(" \t")
    spaces = len(after) - len(content)
    if not content or spaces > 4:
        spaces = 1
    return indent + marker + spaces, content


def is_table_delimiter(line: str) -> bool:
    """Whether ``line`` is a table's delimiter row: cells of ``:?-+:?`` between pipes, at least one pipe.

    ``"| --- | :-: |"`` -> ``True``; ``"---"`` -> ``False`` (a setext underline).
    """
    row = line.strip(" \t")
    if "|" not in row:
        return False
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") else row
    return all(TABLE_DELIMITER_CELL.fullmatch(cell.strip(" \t")) for cell in row.split("|"))


def starts_table(texts: list[str], index: int) -> bool:
    """Whether ``texts[index]`` is a table's header row: a pipe, at most three spaces of indent, a delimiter row next."""
    line = texts[index]
    return (
        "|" in line and space_indent(line)[0] <= 3 and index + 1 < len(texts) and is_table_delimiter(texts[index + 1])
    )


def starts_block(texts: list[str], index: int, extended: bool = False, reader=None) -> bool:
    """Whether ``texts[index]`` begins a block other than a paragraph, or is an ATX heading: it ends a paragraph.

    ``texts`` are a page's lines (``page_lines``); ``extended`` ("blocks-2") adds pymdownx blocks,
    colon containers and content tabs; ``reader`` ("blocks-3", ``grammars.version3.PageReader``) what it reads.
    """
    if reader is not None and reader.interrupts(index):
        return True
    line = texts[index]
    if not may_start_block(line, extended):
        return False
    if extended and (container_opening(line) is not None or CONTENT_TAB.fullmatch(line) is not None):
        return True
    return (
        THEMATIC_BREAK.fullmatch(line) is not None
        or fence_opening(line) is not None
        or atx_heading_title(line) is not None
        or admonition_label(line) is not None
        or is_quote_line(line)
        or list_item(line) is not None
        or starts_table(texts, index)
    )


def fence_end(texts: list[str], index: int, fence: tuple[str, int], nested: bool = False) -> int:
    """The index after the line that closes ``fence``, searching from ``texts[index]``; the end of the text if none does.

    A fence nested in a list or an admonition closes on a line whose text,
    leading spaces and tabs removed, closes it.
    """
    character, run = fence
    for position in range(index, len(texts)):
        line = texts[position]
        # A line without the fence's character cannot close it: most of a fence's body is passed on one check.
        if character in line and closes_fence(line.lstrip(" \t") if nested else line, character, run):
            return position + 1
    return len(texts)


def admonition_end(texts: list[str], index: int) -> int:
    """The index after an admonition's last body line: lines indented four columns or more, blank lines between them included."""
    after = index + 1
    position = index + 1
    while position < len(texts):
        line = texts[position]
        if is_blank(line):
            position += 1
            continue
        if leading_columns(line) < ADMONITION_INDENT:
            break
        fence = fence_opening(line.lstrip(" \t"))
        position = fence_end(texts, position + 1, fence, nested=True) if fence else position + 1
        after = position
    return after


def quote_end(texts: list[str], index: int) -> int:
    """The index after a run of blockquote lines starting at ``texts[index]``."""
    position = index
    while position < len(texts) and is_quote_line(texts[position]):
        position += 1
    return position


def list_end(texts: list[str], index: int, extended: bool = False, reader=None) -> int:
    """The index after a list's last line (see ``SPEC.md``, "The block grammar", for the rule).

    A line belongs to the list when it is an item at the list's level, is
    indented at least to the content column of the latest such item, or
    directly follows a list line that is not a fence and starts no other
    block (a lazy continuation). Blank lines count only when the list goes on
    after them; a fence opened on a list line runs, whatever its indent, to
    its close.
    """
    content_column = list_item(texts[index])[0]
    after = index + 1
    position = index
    lazy_allowed = False
    while position < len(texts):
        line = texts[position]
        if is_blank(line):
            lazy_allowed = False
            position += 1
            continue
        column = leading_columns(line)
        item = list_item(line)
        if position == index or (item is not None and column < content_column):
            content_column, content = item
        elif column >= content_column:
            content = line.lstrip(" \t")
        elif lazy_allowed and not starts_block(texts, position, extended, reader):
            content = line
        else:
            break
        fence = fence_opening(content)
        lazy_allowed = fence is None
        position = fence_end(texts, position + 1, fence, nested=True) if fence else position + 1
        after = position
    return after


def table_end(texts: list[str], index: int) -> int:
    """The index after a table: its header, its delimiter row and every following non-blank line holding a pipe."""
    position = index + 2
    while position < len(texts) and not is_blank(texts[position]) and "|" in texts[position]:
        position += 1
    return position


def paragraph_end(texts: list[str], index: int, extended: bool = False, reader=None) -> tuple[int, int | None]:
    """The index after a paragraph, and the index of its setext underline if it is a heading instead.

    A paragraph runs until a blank line or a line that starts another block;
    a ``===`` or ``---`` line under it makes its lines a setext heading.
    """
    # A line that opens (after its spaces) with none of these and holds no pipe starts no block, underlines
    # nothing and is not the reader's to end the paragraph: it goes on the paragraph on one check.
    breaks = PARAGRAPH_BREAKS_2 if extended else PARAGRAPH_BREAKS
    interrupting = () if reader is None else reader.INTERRUPTING
    position = index + 1
    while position < len(texts):
        line = texts[position]
        if not line.strip():
            break
        first = line.lstrip(" ")[:1]
        if first not in breaks and first not in interrupting and "|" not in line:
            position += 1
            continue
        if SETEXT_UNDERLINE.fullmatch(line):
            return position + 1, position
        if starts_block(texts, position, extended, reader):
            break
        position += 1
    return position, None


def container_opening(line: str) -> tuple[str, int, str] | None:
    """The marker character, run length and lowercased TYPE if ``line`` opens a container of "blocks-2", else ``None``.

    ``"/// Warning | Mind"`` -> ``("/", 3, "warning")``; ``"::::note[Mind]"`` -> ``(":", 4, "note")``.
    """
    marker = line.lstrip(" ")[:1]
    if marker == "/":
        found = SLASH_BLOCK.fullmatch(line)
    elif marker == ":":
        found = COLON_CONTAINER.fullmatch(line)
    else:
        return None
    return None if found is None else (marker, len(found.group(1)), found.group(2).lower())


def closes_container(line: str, marker: str, run: int) -> bool:
    """Whether ``line`` closes a container opened by ``run`` ``marker`` characters.

    Up to three spaces, then a run of the marker and only spaces and tabs: a
    pymdownx block (``/``) closes at exactly ``run`` slashes, a colon container
    at ``run`` colons or more.
    """
    indent, rest = space_indent(line)
    closing = len(rest) - len(rest.lstrip(marker))
    if indent > 3 or closing < 3 or rest[closing:].strip(" \t"):
        return False
    return closing == run if marker == "/" else closing >= run


def container_end(texts: list[str], index: int, marker: str, run: int) -> int:
    """The index after the line that closes the container opened at ``texts[index]``; the end of the text if none does.

    Nothing inside is read but fences: a fence opened on a body line (leading
    spaces and tabs removed) runs to its close, so a marker line in code
    closes nothing.
    """
    position = index + 1
    while position < len(texts):
        line = texts[position]
        if closes_container(line, marker, run):
            return position + 1
        fence = fence_opening(line.lstrip(" \t"))
        position = fence_end(texts, position + 1, fence, nested=True) if fence else position + 1
    return len(texts)


class _SectionBuilder:
    """Sections as the one pass over the lines finds them; a section without blocks is dropped.

    ``bounds`` are the page's line bounds (``page_lines``): lines ``[first, after)`` span
    ``[bounds[first], bounds[after])``.
    """

    def __init__(self, bounds: list[int], heading_start: int, title: str, body_start: int, reader=None) -> None:
        self.bounds = bounds
        self.sections: list[Section] = []
        # "blocks-3": what a heading's text becomes as a section title, and which paragraphs hold text at all.
        self.reader = reader
        self.open_section(heading_start, title, body_start)

    def open_section(self, heading_start: int, title: str, body_start: int) -> None:
        self.heading_start = heading_start
        self.title = title
        self.body_start = body_start
        self.blocks: list[Block] = []

    def add(self, kind: str, first: int, after: int, label: str = "") -> None:
        # tuple.__new__ makes the Block in C, without the Python-level __new__ a namedtuple call runs.
        self.blocks.append(tuple.__new__(Block, (kind, self.bounds[first], self.bounds[after], label)))

    def add_paragraph_or_heading(self, texts: list[str], first: int, after: int, underline: int | None) -> None:
        """A paragraph, or, when ``underline`` is its setext underline, a heading that opens a section."""
        if underline is None:
            if self.reader is None or self.reader.holds_text(first, after):
                self.add("paragraph", first, after)
            return
        self.close(self.bounds[first])
        title = " ".join(line.strip(" \t") for line in texts[first:underline])
        if self.reader is not None:
            title = self.reader.heading_title(title)
        self.open_section(self.bounds[first], title, self.bounds[underline + 1])

    def close(self, body_end: int) -> None:
        if self.blocks:
            self.sections.append(Section(self.heading_start, self.title, self.body_start, body_end, tuple(self.blocks)))


def block_sections(
    text: str,
    title: str,
    where: str = "text",
    extended: bool = False,
    page_reader=None,
    yaml_document_end: bool = False,
) -> list[Section]:
    """The sections of ``text`` under the block grammar, each with its blocks, in one pass over the lines.

    ``extended`` reads "blocks-2": every rule of "blocks", and pymdownx blocks,
    colon containers (both kind ``admonition``) and content tabs (kind ``tab``).
    ``page_reader`` (with ``extended``) reads "blocks-3": called with the page's
    lines (``page_lines``), it returns the reader the pass asks first (``grammars.version3``).
    ``yaml_document_end`` closes YAML front matter at ``...`` too ("blocks-10", ``front_matter_end``).

    Front matter belongs to no section; text before the first heading is a
    section titled ``title`` whose heading offset is its body's start.
    ``block_sections("---\\nx: 1\\n---\\nab\\n", "T")`` -> one section ``T``,
    body ``[13, 16)``, one paragraph ``[13, 16)``.
    """
    body_start = front_matter_end(text, where, yaml_document_end)
    texts, bounds = page_lines(text, body_start)
    reader = None if page_reader is None else page_reader(texts)
    builder = _SectionBuilder(bounds, body_start, title, body_start, reader)
    characters = BLOCK_START_CHARACTERS_2 if extended else BLOCK_START_CHARACTERS
    index = 0
    while index < len(texts):
        line = texts[index]
        if not line.strip():
            # A blank line (``is_blank``) belongs to no block.
            index += 1
            continue
        # Each rule is asked only where a line can open what it reads: its first character, after spaces or at
        # column 0, is one the rule's own first test requires (``may_start_block`` with the next three).
        first = line.lstrip(" ")[:1]
        if first not in characters and "|" not in line and (reader is None or not reader.may_start(line)):
            after, underline = paragraph_end(texts, index, extended, reader)
            builder.add_paragraph_or_heading(texts, index, after, underline)
            index = after
            continue
        fence = fence_opening(line) if first in FENCE_CHARACTERS else None
        heading = atx_heading_title(line) if first == "#" else None
        label = admonition_label(line) if line[0] in ADMONITION_CHARACTERS else None
        found = None if reader is None or fence is not None or heading is not None else reader.block_at(index)
        if fence is not None:
            after = fence_end(texts, index + 1, fence)
            builder.add("fence", index, after)
        elif heading is not None:
            builder.close(bounds[index])
            builder.open_section(
                bounds[index], heading if reader is None else reader.heading_title(heading), bounds[index + 1]
            )
            after = index + 1
        elif found is not None:
            # What "blocks-3" reads where a block may start; a kind of "" is markup that belongs to no block.
            kind, after, found_label = found
            if kind:
                builder.add(kind, index, after, found_label)
        elif THEMATIC_BREAK.fullmatch(line):
            # Before the list rule: "- - -" and "* * *" are breaks, not items.
            after = index + 1
        elif label is not None:
            after = admonition_end(texts, index)
            builder.add("admonition", index, after, label)
        elif extended and (container := container_opening(line)) is not None:
            marker, run, container_label = container
            after = container_end(texts, index, marker, run)
            builder.add("admonition", index, after, container_label)
        elif extended and CONTENT_TAB.fullmatch(line):
            after = admonition_end(texts, index)
            builder.add("tab", index, after)
        elif is_quote_line(line):
            after = quote_end(texts, index)
            builder.add("quote", index, after, quote_label(line))
        elif list_item(line) is not None:
            after = list_end(texts, index, extended, reader)
            builder.add("list", index, after)
        elif starts_table(texts, index):
            after = table_end(texts, index)
            builder.add("table", index, after)
        else:
            after, underline = paragraph_end(texts, index, extended, reader)
            builder.add_paragraph_or_heading(texts, index, after, underline)
        index = after
    builder.close(len(text))
    return builder.sections
