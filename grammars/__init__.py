"""Where a source's text splits into sections and blocks: the Markdown grammars, behind ``document_sections``.

The lesson's grammar (``SPEC.md``, "Sections" and "Paragraphs") is ``lesson``:
deliberately tiny, simple ATX headings only, and paragraphs as runs of
non-blank lines. The block grammar (``SPEC.md``, "The block grammar") and its
second version "blocks-2" are ``blocks``: front matter, text before the first
heading, fenced code, ATX and setext headings, admonitions, blockquotes and
alerts, lists and tables, and the containers of docs sites. "blocks-3" is
"blocks-2" with the page reader of ``version3``: Hugo shortcodes (``shortcodes``),
HTML blocks (``html_blocks``), MkDocs attribute lists and mkdocstrings
directives (``mkdocs``), and MDX (``mdx``); "blocks-4" is "blocks-3" with the page
reader of ``version4``, which also reads link reference definitions and the
markup of headings; "blocks-5" is "blocks-4" with the page reader of
``version5``, which also reads MDC's components (``mdc``); "blocks-6" is "blocks-5"
with the page reader of ``version6``, which reads an HTML or JSX element around a
heading through instead of keeping it whole; "blocks-7" is "blocks-6" with the page
reader of ``version7``, which reads a Hugo shortcode around a heading through too; "blocks-8" is "blocks-7" with
the page reader of ``version8``, which reads an HTML definition list entry by entry; "blocks-9" is "blocks-8" reading
the Liquid tags of GitBook and Jekyll pages as Hugo shortcodes (``version9``); "blocks-10" is "blocks-9" closing YAML
front matter at a line of ``...`` too, as pandoc's and hotdoc's pages do (``blocks.front_matter_end``). The records
every grammar yields are ``records``. The names other modules import from ``grammars`` are
kept here.

The policies in ``chunk_index`` cut chunks from what this package finds; nothing
here knows about configs, ids or hashes.
"""

from __future__ import annotations

from grammars.blocks import (
    ADMONITION,
    ADMONITION_INDENT,
    ALERT,
    BLOCK_START_CHARACTERS,
    BLOCK_START_CHARACTERS_2,
    COLON_CONTAINER,
    CONTENT_TAB,
    FRONT_MATTER_DELIMITERS,
    ORDERED_MARKER,
    SETEXT_UNDERLINE,
    SLASH_BLOCK,
    TABLE_DELIMITER_CELL,
    THEMATIC_BREAK,
    admonition_end,
    admonition_label,
    atx_heading_title,
    block_sections,
    closes_container,
    closes_fence,
    container_end,
    container_opening,
    fence_end,
    fence_opening,
    front_matter_end,
    is_blank,
    is_quote_line,
    is_table_delimiter,
    leading_columns,
    list_end,
    list_item,
    may_start_block,
    page_lines,
    paragraph_end,
    quote_end,
    quote_label,
    space_indent,
    starts_block,
    starts_table,
    table_end,
)
from grammars.lesson import (
    BLOCKS_HINT,
    HEADING,
    NON_BLANK,
    OPENING_KINDS,
    PARAGRAPH,
    first_line,
    heading_matches,
    heading_sections,
    lesson_opening_problem,
    paragraph_spans,
)
from grammars.records import Block, LazyPattern, Section
from lab_io.errors import IngestionError, quoted_name

__all__ = [
    "BLOCKS3_GRAMMAR",
    "BLOCKS4_GRAMMAR",
    "BLOCKS5_GRAMMAR",
    "BLOCKS6_GRAMMAR",
    "BLOCKS7_GRAMMAR",
    "BLOCKS8_GRAMMAR",
    "BLOCKS9_GRAMMAR",
    "BLOCKS10_GRAMMAR",
    "MDX_GRAMMARS",
    "YAML_DOCUMENT_END_GRAMMARS",
    "front_matter_end_under",
    "ADMONITION",
    "ADMONITION_INDENT",
    "ALERT",
    "BLOCKS2_GRAMMAR",
    "BLOCKS_GRAMMAR",
    "BLOCKS_HINT",
    "BLOCK_GRAMMARS",
    "BLOCK_KINDS",
    "BLOCK_START_CHARACTERS",
    "BLOCK_START_CHARACTERS_2",
    "Block",
    "COLON_CONTAINER",
    "CONTENT_TAB",
    "FRONT_MATTER_DELIMITERS",
    "GRAMMARS",
    "HEADING",
    "LESSON_GRAMMAR",
    "LazyPattern",
    "NON_BLANK",
    "OPENING_KINDS",
    "ORDERED_MARKER",
    "PARAGRAPH",
    "SETEXT_UNDERLINE",
    "SLASH_BLOCK",
    "Section",
    "TABLE_DELIMITER_CELL",
    "THEMATIC_BREAK",
    "admonition_end",
    "admonition_label",
    "atx_heading_title",
    "block_sections",
    "closes_container",
    "closes_fence",
    "container_end",
    "container_opening",
    "document_sections",
    "fence_end",
    "fence_opening",
    "first_line",
    "front_matter_end",
    "heading_matches",
    "heading_sections",
    "is_blank",
    "is_quote_line",
    "is_table_delimiter",
    "leading_columns",
    "lesson_opening_problem",
    "list_end",
    "list_item",
    "may_start_block",
    "page_lines",
    "paragraph_end",
    "paragraph_spans",
    "quote_end",
    "quote_label",
    "space_indent",
    "starts_block",
    "starts_table",
    "table_end",
]


# The grammars a manifest can choose ("markdown": ...); "lesson" is the spec's own.
LESSON_GRAMMAR = "lesson"
BLOCKS_GRAMMAR = "blocks"
BLOCKS2_GRAMMAR = "blocks-2"
BLOCKS3_GRAMMAR = "blocks-3"
BLOCKS4_GRAMMAR = "blocks-4"
BLOCKS5_GRAMMAR = "blocks-5"
BLOCKS6_GRAMMAR = "blocks-6"
BLOCKS7_GRAMMAR = "blocks-7"
BLOCKS8_GRAMMAR = "blocks-8"
BLOCKS9_GRAMMAR = "blocks-9"
BLOCKS10_GRAMMAR = "blocks-10"
GRAMMARS = (
    LESSON_GRAMMAR,
    BLOCKS_GRAMMAR,
    BLOCKS2_GRAMMAR,
    BLOCKS3_GRAMMAR,
    BLOCKS4_GRAMMAR,
    BLOCKS5_GRAMMAR,
    BLOCKS6_GRAMMAR,
    BLOCKS7_GRAMMAR,
    BLOCKS8_GRAMMAR,
    BLOCKS9_GRAMMAR,
    BLOCKS10_GRAMMAR,
)
# The grammars that read real docs with ``block_sections`` (front matter, byte order mark, text before a heading).
BLOCK_GRAMMARS = GRAMMARS[1:]
# The grammars that read MDX (ESM lines, expressions, JSX elements): "blocks-3" and the ones after it.
MDX_GRAMMARS = GRAMMARS[GRAMMARS.index(BLOCKS3_GRAMMAR) :]
# The grammars whose YAML front matter also closes at a line of "...": "blocks-10" and the ones after it.
YAML_DOCUMENT_END_GRAMMARS = GRAMMARS[GRAMMARS.index(BLOCKS10_GRAMMAR) :]
# The kinds of block the block grammars find (the lesson's are all "paragraph"; "tab" from "blocks-2" on,
# "shortcode" to "expression" from "blocks-3" on, "component" from "blocks-5" on).
BLOCK_KINDS = (
    "paragraph",
    "fence",
    "admonition",
    "quote",
    "list",
    "table",
    "tab",
    "shortcode",
    "html",
    "directive",
    "esm",
    "expression",
    "component",
)


def front_matter_end_under(text: str, where: str, grammar: str) -> int:
    """Where ``text``'s front matter ends as ``grammar`` reads it (``blocks.front_matter_end``); 0 under the lesson's,
    which reads none: ``front_matter_end_under("---\\na: 1\\n...\\n", w, "blocks-10")`` -> ``13``."""
    if grammar not in BLOCK_GRAMMARS:
        return 0
    return front_matter_end(text, where, grammar in YAML_DOCUMENT_END_GRAMMARS)


def document_sections(text: str, grammar: str = LESSON_GRAMMAR, where: str = "text", title: str = "") -> list[Section]:
    """The sections of ``text`` under ``grammar``, each with its blocks, in offset order.

    Under the lesson grammar a section's blocks are its paragraphs:
    ``"# A\\nab\\n\\ncd\\n"`` -> one section ``A`` with blocks ``[4, 7)`` and ``[8, 11)``.
    Under the block grammar ``title`` (the source's title) names the section of
    text before the first heading: ``document_sections("ab\\n# B\\ncd\\n", "blocks", title="T")``
    -> ``T`` with a paragraph ``[0, 3)``, then ``B`` with a paragraph ``[7, 10)``.
    """
    if grammar == BLOCKS3_GRAMMAR:
        # Imported on first use: a lesson or blocks-2 build never pays for the readers of blocks-3.
        from grammars.version3 import PageReader

        return block_sections(text, title, where, True, PageReader)
    if grammar == BLOCKS4_GRAMMAR:
        from grammars.version4 import PageReader as Version4Reader

        return block_sections(text, title, where, True, Version4Reader)
    if grammar == BLOCKS5_GRAMMAR:
        from grammars.version5 import PageReader as Version5Reader

        return block_sections(text, title, where, True, Version5Reader)
    if grammar == BLOCKS6_GRAMMAR:
        from grammars.version6 import PageReader as Version6Reader

        return block_sections(text, title, where, True, Version6Reader)
    if grammar == BLOCKS7_GRAMMAR:
        from grammars.version7 import PageReader as Version7Reader

        return block_sections(text, title, where, True, Version7Reader)
    if grammar == BLOCKS8_GRAMMAR:
        from grammars.version8 import PageReader as Version8Reader

        return block_sections(text, title, where, True, Version8Reader)
    if grammar in (BLOCKS9_GRAMMAR, BLOCKS10_GRAMMAR):
        from grammars.version8 import PageReader as Version8Reader
        from grammars.version9 import liquid_as_shortcodes

        # The page read through a copy of it whose Liquid tag lines are Hugo markers or comments, the same length:
        # the offsets are the page's, and so are the titles (no rewritten line is a heading's text; rule U).
        # "blocks-10" closes YAML front matter at YAML's end of a document ("...") too (rule V).
        dots = grammar == BLOCKS10_GRAMMAR
        return block_sections(liquid_as_shortcodes(text, dots), title, where, True, Version8Reader, dots)
    if grammar in BLOCK_GRAMMARS:
        return block_sections(text, title, where, grammar == BLOCKS2_GRAMMAR)
    if grammar != LESSON_GRAMMAR:
        raise IngestionError("unknown_grammar", where, f"no Markdown grammar called {quoted_name(grammar)}")
    return [
        Section(
            section.heading_start,
            section.title,
            section.body_start,
            section.body_end,
            tuple(
                Block("paragraph", start, end)
                for start, end in paragraph_spans(text, section.body_start, section.body_end)
            ),
        )
        for section in heading_sections(text, where)
    ]
