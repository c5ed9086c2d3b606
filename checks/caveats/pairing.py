"""Pair each caveat with its instruction, section by section: ``run.py scan``'s proposals (``scan_version`` 25).

Reads one source's sections block by block (``section_items``): every
sentence with what the rules see in it (``classified``), and cautionary and
version blocks as whole caveats. Each caveat then gets the instruction its
reference points to (``chosen_instruction``): before it or just after it,
across code blocks, never across a heading. It reads no files and writes none;
``run.py`` does the I/O.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import deque
from itertools import accumulate

import chunk_index
import grammars
from checks.caveats import anchors, rules
from checks.caveats.findings import (
    DESCRIBED_FORM,
    DIRECT_FORMS,
    IDENTIFIER_BLOCKS,
    INDIRECT_FORMS,
    LOOK_AHEAD_BLOCKS,
    LOOK_BACK_BLOCKS,
    MAX_CANDIDATES,
    FoundPair,
    Unpaired,
    pair_name,
    scanned_sections,
)
from checks.caveats.masking import fence_spans, masked_code
from checks.caveats.sentences import (
    LINE_INDENT,
    after_opening_marker,
    marker_line,
    normalized_text,
    sentence_spans,
    table_cell_spans,
)
from grammars.shortcodes import CODE_SHORTCODES
from load_documents import Span

# The forms whose pairs are tier 3 (scan_version 19): the author's own narrated step ("Now we return the scopes.")
# is what a tutorial tells, not what the reader is told to do; on nineteen labelled sets 8 of its 44 pairs of
# tier 2 were right, against 0.54 of all (docs/caveats.md, "Tiers").
NARRATED_FORMS = frozenset({"tutorial step"})
# The rules whose outright cues (tier 1) state a fact of the product even in a section without code, where every
# other cue is of tier 3 (scan_version 21): "Plugins must be written in Python", "Not supported by SingleStore",
# "Input guardrails run only for the first agent". A prohibition or an error there is mostly a story or advice
# ("you cannot pay attention to your crush", "a run crashes before it connects").
STATED_RULES = frozenset({"requirement", "limitation", "condition"})
# Of those, the rules whose cues of tier 2 keep their tier there too (scan_version 34): "The server does not parse your
# log messages", "Only one screen is active at a time" state the product as a cue of tier 1 does.
STATED_AT_TIER_2 = frozenset({"requirement", "limitation"})
# A caveat no instruction in reach takes may qualify the API a sentence just before it describes (scan_version 22):
# "The `dependencies` parameter is an optional list of decorators." then "If one of the `dependencies` is not met,
# `decorate` raises." Such a sentence instructs by no form; it names, as code, what the caveat names. It is looked
# for in the caveat's own prose block and the one before (DESCRIBED_BLOCKS), its link ``described, identifier x``
# and its form ``api description`` (docs/caveats.md, "How a caveat is paired").
DESCRIBED_BLOCKS = 1
# A section whose title says it lists caveats (scan_version 31): its caveats with no instruction in it qualify what the
# sections before it instruct (``section_before``), looked for at most this many sections back. The word is the
# title's own, not a name's (32), and may end the title on a full stop (35: "Limitations.", which 32 refused).
CAVEATS_SECTION = re.compile(
    r"(?i)(?<![\w.-])(?:limitations?|caveats?|known\s+(?:issues|limitations|problems)|gotchas?|warnings"
    r"|considerations?|restrictions?|unsupported|not\s+supported|pitfalls?)(?!\w)(?![.-]\w)"
)
# A title that labels one message or example ("Error: Tenant ID contains unsupported character", "Example 3: …") names
# no caveats section, whatever words follow its label (scan_version 32).
LABELLED_TITLE = re.compile(r"(?i)^\W*(?:errors?|examples?|exception|warning|fatal|message|issue)\b[^:]{0,20}:\s")
# A qualifier in parentheses names which one of what the title names (scan_version 39): "Failure response (URL not
# supported)" is one response of a protocol, told apart from the others by its case, as a label's text after its colon
# is; the words of the qualifier are not the title's own.
TITLE_QUALIFIER = re.compile(r"\([^()\n]*\)")
# What may come before an "ensure" that opens its sentence (scan_version 74).
ENSURE_OPENING = re.compile(
    r"[\s\x00]*(?:(?:please|always|also|and|then|first|next|now|finally|so)(?:\s*,)?\s+)*", re.IGNORECASE
)
# A caveats section about security or privacy ("### Security considerations", a design proposal's, under "## Proposal")
# weighs what the feature as a whole exposes, not one instruction of a section before it (scan_version 67): its
# caveats stay unpaired, as a top-level caveats section's do.
# From 71 only a title that security or privacy heads, a design's section on them ("Security Considerations", "Security
# and privacy implications"), not a feature's limitations that its name holds the word ("Pod Security Admission
# limitations").
SECURITY_TITLE = re.compile(
    r"(?i)\W*(?:security|privacy)(?:\s+(?:and|&)\s+(?:security|privacy))?\s+(?:considerations?|implications?|concerns?"
    r"|caveats?|limitations?|risks?|notes?|restrictions?)\W*$"
)
CAVEATS_SECTION_REACH = 3
CAVEATS_SECTION_LINK = "caveats section"
DESCRIBED_LINK = "described, "
# The cues a reference entry's description counts (``--quiet: Do not print.`` describes what the option does): the
# ones that date it, say it fails, or label it; and from scan_version 23 the limitation that says where it is
# available at all ("`header` - Only available on macOS 14 and up.", "`--ws` - Not supported on Windows."), which
# labellers count as they count a version. On twenty-nine labelled sets: 4 more pairs of tier 2, 4 right.
ENTRY_RULES = frozenset({"deprecation", "version", "error", "label"})
AVAILABILITY_CUE = re.compile(r"availab|support", re.IGNORECASE)
# The cues of a marker that stands for the notice after it ("**Deprecation notice:**", "**Warning:**").
NOTICE_RULES = frozenset({"deprecation", "label", "risk", "version"})
# A main clause addressed to the reader with "must": "…, you must subclass them".
MUST_STEP = re.compile(r"[\s\x00]*you\s+must\s+(?:\w+ly\s+)?[a-z]", re.IGNORECASE)
# What makes "you need to Y" a requirement added to another step rather than the step itself: "also", "in
# addition", "note that", a contrast, a purpose or condition after the need ("… to run this example"), or an
# object named before ("You have to await it."). See ``adds_requirement``.
ADDED_WORD = re.compile(
    r"(?<!\w)(?:also|as\s+well|in\s+addition|note\s+that|however|though|still)(?!\w)", re.IGNORECASE
)
NEED_TO = re.compile(r"(?:need|have)\s+to\s", re.IGNORECASE)
# Searched after the first need only, one character of the text before each word: linear however long the
# sentence or its runs of spaces (blanked markup).
PURPOSE_AFTER_NEED = re.compile(
    r"[,\s](?:if|when|unless|whenever|before|so\s+that|for\s+(?:this|it)\s+to)\s"
    r"|\sto\s+(?:run|use|work|build|access|enable|support)\s",
    re.IGNORECASE,
)
NAMED_OBJECT = re.compile(r"(?:need|have)\s+to\s+[a-z]+\s+(?:it|them|this|that|these|those)\b", re.IGNORECASE)
# A condition after the main clause: "… can be set to false if verification is to be skipped".
TRAILING_CONDITION = re.compile(r"(?<=[\w\x00)])[\s,]+(?:if|when|whenever|in\s+case)\s", re.IGNORECASE)
# A sentence that is a link alone (scan_version 41): an inline link, a reference link or an HTML anchor, emphasis around
# it and a closing full stop or colon allowed; from 42 its text may wrap onto the next line and its target hold one
# pair of parentheses (``…/CLI_(computing)``).
LINK_TEXT = r"\[(?:[^\]\n]|\n(?![ \t]*\n)){0,300}\]"
LINK_ALONE = re.compile(
    r"[ \t]*(?:\*\*|__|\*|_)?(?:" + LINK_TEXT + r"(?:\((?:[^()\n]|\([^()\n]*\)){0,500}\)|\[[^\]\n]*\])"
    r"|<a\s[^>\n]*>[^<\n]*</a\s*>)(?:\*\*|__|\*|_)?[.:]?[ \t]*",
    re.IGNORECASE,
)
# A heading line between two sections: a heading without a body of its own, ATX (``## B``) or, from scan_version 42,
# setext (``B`` over a line of ``=`` or ``-``).
BODILESS_HEADING = re.compile(
    r"^ {0,3}(?:(?P<marks>#{1,6})[ \t]+(?P<title>[^\n]*)|(?P<text>[^\n]*\S[^\n]*)\n {0,3}(?P<underline>=+|-+)[ \t]*)$",
    re.MULTILINE,
)
# The blocks that hold no prose, neither read nor counted: code (a fence, MDX's ESM lines and expressions) and
# an mkdocstrings directive (a Python path and its options, where the API's documentation will be drawn).
UNREAD_KINDS = frozenset({"fence", "esm", "expression", "directive"})
# The blocks whose Markdown tables the scan reads cell by cell inside them (``html_table_runs``): an HTML element's
# (scan_version 30), an admonition's and a content tab's (44).
TABLE_HOLDING_KINDS = frozenset({"html", "admonition", "tab"})
# The blocks whose first line is their opening marker, text after it on that line or not ("{{% note %}} Mind it.").
MARKED_KINDS = frozenset({"admonition", "shortcode", "html"})
LIST_ITEM_OPENING = re.compile(r"[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]+$")
# A list item's marker opening a line of a list block, its indent (quote markers included) the group.
ITEM_MARKER = re.compile(r"(?m)^([ \t>]*)(?:[-*+]|\d{1,9}[.)])[ \t]+")
# A MyST directive fence that holds an admonition (```` ```{note} ````, ``~~~{warning}``): prose, not code.
DIRECTIVE_OPENING = re.compile(r"[ \t]*(?:`{3,}|~{3,})[ \t]*\{(?P<label>[A-Za-z][\w-]*)\}[^\n]*\n?")
# A MyST directive's options, the lines opening its body (``:class: dropdown``, ``:open:``): settings, not prose.
# (A role opening a sentence, ``:ref:`x` …``, has a backtick after its name.)
DIRECTIVE_OPTIONS = re.compile(r"(?:[ \t]*:[\w-]+:(?:[ \t][^\n]*)?(?:\n|$))*")
# A MyST colon fence that opens a directive (``:::{note}``), and a line that closes one (``:::``) when it has as
# many colons or more: the ``:::`` closing a ``:::{warning}`` nested in a ``::::{note}`` leaves the note open.
COLON_OPENING = re.compile(r"[ \t]*(?P<colons>:{3,})[ \t]*\{(?P<label>[A-Za-z][\w-]*)\}[^\n]*(?:\n|$)")
COLON_CLOSING = re.compile(r"^[ \t]*(?P<colons>:{3,})[ \t]*$", re.MULTILINE)
# An admonition's title on its marker line (``!!! tip "Added in version 0.55.0"``, ``/// note | New in 1.2``).
ADMONITION_TITLE = re.compile(
    r"[ \t>]*(?:!!!|\?\?\?\+?|///)[ \t]*[\w-]+[ \t]*(?:\|[ \t]*|\"(?=[^\"\n]*\"))(?P<title>[^\"\n]+)"
)
# A caveat that is a version badge alone ("New in version 1.4.", "Added in 0.55"): it dates what follows.
VERSION_BADGE = re.compile(
    r"[\s\x00*_]*(?:[a-z]+\s*:[\s\x00*_]*)?(?:new|added|introduced|changed|available|deprecated)\s+(?:in|since)\s+"
    r"(?:version\s+)?v?\d+(?:\.\w+)*[\s\x00*_.]*$",
    re.IGNORECASE,
)
# A version badge on a line of its own (scan_version 10): a component (Starlight's ``<Since v="6.0.0" />``, a
# ``<VersionBadge version="2.9.1" />``; alone, in a ``<p>`` or after a definition's ``:``) or Hugo's
# ``{{< new-in 0.140.0 >}}``. It dates what follows it, as a version note does.
BADGE_LINE = re.compile(
    r"^[ \t]*(?::[ \t]+)?(?:<p>[ \t]*)?(?P<badge>"
    r"<(?P<tag>Since|VersionBadge|Version|Added(?:In)?|NewIn|[A-Z][A-Za-z]*Version(?:Badge)?)"
    r"(?:[ \t]+[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|\{[^{}\n]*\}))*?"
    r"[ \t]+(?:v|version|since)=(?:\"|'|\{[ \t]*[\"'])v?(?P<version>\d+(?:\.\w+)*)[\"']\}?"
    r"(?:[ \t]+[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|\{[^{}\n]*\}))*[ \t]*/>"
    r"|\{\{[<%][ \t]*(?P<shortcode>new-in|deprecated-in)[ \t]+[\"']?v?(?P<shortcode_version>\d+(?:\.\w+)*)[\"']?"
    r"[ \t]*/?[ \t]*[>%]\}\}"
    # a badge whose text is a version, as webpack's docs date an option (scan_version 17): <Badge text="5.80.0+" />
    r"|<Badge(?:[ \t]+[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|\{[^{}\n]*\}))*?[ \t]+text=[\"']v?(?P<badge_version>\d+(?:\.\d+)+)\+?[\"']"
    r"(?:[ \t]+[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|\{[^{}\n]*\}))*[ \t]*/>)"
    r"(?:[ \t]*</p>)?[ \t]*$",
    re.MULTILINE,
)
# A definition list's description line, as a badge's line opens (``BADGE_LINE`` matches from the line's start).
DEFINITION_LINE = re.compile(r"[ \t]*:[ \t]")
# Where a badge may open (``BADGE_LINE`` is tried only on such a line), and the longest line tried.
BADGE_START = re.compile(
    r"<(?:Since|VersionBadge|Version|Added|NewIn|[A-Z][A-Za-z]*Version|Badge)\b|\{\{[<%][ \t]*(?:new|deprecated)-in\b"
)
MAX_BADGE_LINE = 300
# A comment longer than this before a badge is not looked for (``in_comment``).
COMMENT_REACH = 20_000
# What every cue, and the condition that makes a sentence one (``rules.CONDITIONAL_AVAILABILITY``), must hold:
# a pattern that finds any of it, and one that matches it where a sentence starts.
CUE_ANCHORS, CUE_ANCHOR_AT_START = anchors.anchor_patterns(
    (rules.CUE_PATTERN, rules.CONDITIONAL_AVAILABILITY), (rules.MARKUP,), (rules.REASON_OPENING,)
) or (None, None)


class Page:
    """One source as the scan reads it: the text, the text with its code masked, the code spans and fences, and the
    masked text case folded (``anchors.FOLD``), where ``CUE_ANCHORS`` is looked for; ``classifications`` may be
    shared by the pages of one scan."""

    __slots__ = ("text", "masked", "code_spans", "fences", "folded", "classifications")

    def __init__(self, text: str, masked: str, code_spans: list, fences: list, classifications: dict) -> None:
        self.text = text
        self.masked = masked
        self.code_spans = code_spans
        self.fences = fences
        self.folded = anchors.case_folded(masked)
        # ``classified``'s answers by its arguments, and ``sentence_holds_cue``'s by a sentence's masked text: docs
        # repeat sentences ("This parameter is required.").
        self.classifications = classifications


# An item's field not worked out yet.
UNREAD = object()


class Item:
    """One sentence of a section, or one block read as a whole caveat, and what the rules see in it.

    ``block`` counts the section's prose blocks (code blocks are not counted). ``caveat`` is why the item is a
    caveat (``None`` if it is none); ``instruction`` the form by which it instructs (``None`` if it does
    not). An item is never both: a caveat is never the instruction of another caveat.

    Only ``caveat`` is settled when the item is made; every other reading (the instruction form, the names,
    words and terms, the anaphor) is worked out the first time a caveat near it asks, so a sentence no caveat
    looks at costs its span and nothing more. ``reading`` (its code masked, markup blanked) is what the rules
    read; ``context`` is what ``classified`` weighs beside it: whether it is the last sentence before a code
    block, opens a list item, sits in a note, in a section without code, in a table's cell.
    """

    __slots__ = (
        "start",
        "end",
        "block",
        "caveat",
        "aside",
        "in_table",
        "page",
        "context",
        "lead",
        "ahead",
        "in_entry",
        "_reading",
        "_instruction",
        "_identifiers",
        "_words",
        "_terms",
        "_anaphor",
        "_normalized",
        "_back_reference",
        "_opens_item",
        "_instructs_as_entry",
        "list_item",
        "item_end",
        "entry_terms",
        "in_term",
        "in_html_list",
    )

    def __init__(
        self,
        page: Page,
        start: int,
        end: int,
        block: int,
        context: tuple | None = None,
        aside: bool = False,
        in_table: bool = False,
        lead: Item | None = None,
    ) -> None:
        self.page = page
        self.start = start
        self.end = end
        self.block = block
        self.context = context
        self.aside = aside
        # A cell of a table: what the sentence before the table (its lead) instructs, told field by field.
        self.in_table = in_table
        # For a cell, the sentence that may be the table's lead: the last item of the block before the table.
        self.lead = lead
        self.caveat: rules.Cue | None = None
        # A version badge ("New in version 1.4.", a note titled "Added in 0.55"): it dates what follows it; one on a
        # line of a block of more (a definition list's entry) dates what follows it in that block only.
        self.ahead = False
        self.in_entry = False
        self._reading = UNREAD
        self._instruction = UNREAD
        self._identifiers = UNREAD
        self._words = UNREAD
        self._terms = UNREAD
        self._anaphor = UNREAD
        self._normalized = UNREAD
        self._back_reference = UNREAD
        self._opens_item = UNREAD
        self._instructs_as_entry = UNREAD
        # In a list block: where the item the sentence is in opens and how deep its marker is indented (columns), and
        # where that item ends, its nested items included (the next marker at its indent or nearer the margin).
        self.list_item: tuple[int, int] | None = None
        self.item_end: int | None = None
        # An HTML description list's entry (scan_version 39): its term's sentences (``<dt>``) are read as a reference
        # entry's term (``in_term``); the first sentence of its description (``<dd>``) as the entry, its terms in
        # ``entry_terms`` (the term items, none for a ``<dd>`` without a ``<dt>``; ``None`` for any other item).
        self.entry_terms: tuple[Item, ...] | None = None
        self.in_term = False
        # In an item of an HTML list (``html_list_parts``), whose ``item_end`` is always known.
        self.in_html_list = False

    @property
    def reading(self) -> str:
        """The item's text as the rules read it: code masked, markup blanked (same length)."""
        if self._reading is UNREAD:
            self._reading = rules.prose_view(self.page.masked[self.start : self.end])
        return self._reading

    def classification(self, cue_free: bool = False) -> tuple[rules.Cue | None, str | None]:
        """``classified`` of the item's reading in its context (a sentence's, never a whole block's)."""
        before_fence, list_item, in_note, codeless, table_cell = self.context
        if rules.IMAGE_ONLY.fullmatch(self.page.text, self.start, self.end):
            # An image alone is neither instruction nor caveat (scan_version 52; from 53 read on its own text).
            return None, None
        reading = self.reading
        reference_entry = self.in_term or self.entry_terms is not None
        if list_item and not reference_entry:
            reference_entry = self.opens_item and rules.is_reference_entry(reading)
        arguments = (reading, before_fence, reference_entry, in_note, codeless(), table_cell, cue_free)
        known = self.page.classifications
        if arguments not in known:
            known[arguments] = classified(*arguments)
        return known[arguments]

    @property
    def opens_item(self) -> bool:
        """Whether the sentence opens a list item: only a list marker precedes it on its line."""
        if self._opens_item is UNREAD:
            self._opens_item = False
            if self.context is not None and self.context[1]:
                masked = self.page.masked
                line_start = masked.rfind("\n", 0, self.start) + 1
                self._opens_item = LIST_ITEM_OPENING.match(masked, line_start, self.start) is not None
        return self._opens_item

    @property
    def instructs_as_entry(self) -> bool:
        """Whether the sentence is a reference entry, no caveat, that tells how to use its term (``usable_entry``):
        the same for every caveat that asks, so worked out once."""
        if self._instructs_as_entry is UNREAD:
            self._instructs_as_entry = self.opens_item and self.caveat is None and entry_instructs(self)
        return self._instructs_as_entry

    @property
    def instruction(self) -> str | None:
        if self._instruction is UNREAD:
            # Every item that may be a caveat was classified when it was made: this one holds no cue.
            self._instruction = self.classification(cue_free=True)[1]
            if (
                self._instruction is not None
                and ((self.context[1] and self.opens_item) or self.context[4])
                and LINK_ALONE.fullmatch(self.page.text, self.start, self.end)
            ):
                # A list item or a table cell that is a link and nothing else ("[Version `0.25.0`](changes.md)",
                # "[Install the CLI](install.md)"): an entry of a list of pages, which points elsewhere as "See …"
                # does (scan_version 41). A paragraph's sentence written as a link still instructs ("[Set the
                # resource limits](annotations.md).").
                self._instruction = None
        return self._instruction

    @property
    def identifiers(self) -> frozenset:
        if self._identifiers is UNREAD:
            page = self.page
            self._identifiers = rules.sentence_identifiers(
                page.text, page.masked, self.start, self.end, page.code_spans
            ).union(*(term.identifiers for term in self.entry_terms or ()))
        return self._identifiers

    @property
    def words(self) -> frozenset:
        """The sentence's words; a description list's entry has its term's too, as a Markdown entry's sentence has."""
        if self._words is UNREAD:
            self._words = rules.sentence_words(self.page.text, self.start, self.end).union(
                *(term.words for term in self.entry_terms or ())
            )
        return self._words

    @property
    def terms(self) -> frozenset:
        if self._terms is UNREAD:
            self._terms = rules.sentence_terms(self.reading)
        return self._terms

    @property
    def anaphor(self) -> str | None:
        if self._anaphor is UNREAD:
            self._anaphor = rules.opening_anaphor(self.reading)
        return self._anaphor

    @property
    def normalized(self) -> str:
        """The text with every run of whitespace one space: a copy of the sentence elsewhere on the page is equal."""
        if self._normalized is UNREAD:
            self._normalized = normalized_text(self.page.text, self.start, self.end)
        return self._normalized

    @property
    def back_reference(self) -> str | None:
        """A reference back anywhere in a caveat ("the above configuration"): to the nearest earlier instruction."""
        if self._back_reference is UNREAD:
            self._back_reference = rules.back_reference(self.reading) if self.caveat is not None else None
        return self._back_reference

    @property
    def table_lead(self) -> Item | None:
        """For a cell, the table's lead: the last sentence before the table when it instructs, in the block before."""
        lead = self.lead
        return lead if lead is not None and lead.instruction is not None else None


def codeless_cue(cue: rules.Cue) -> rules.Cue:
    """A cue as a section without code weighs it: an outright requirement, limitation or condition (``STATED_RULES``)
    of tier 1 is of tier 2, and from scan_version 34 a requirement or a limitation of tier 2 stays so
    (``STATED_AT_TIER_2``); any other cue is of tier 3."""
    stated = (cue.tier == 1 and cue.rule in STATED_RULES) or (cue.tier == 2 and cue.rule in STATED_AT_TIER_2)
    return rules.Cue(cue.rule, cue.cue, 2 if stated else 3, cue.start)


def classified(
    reading: str,
    before_fence: bool,
    reference_entry: bool,
    in_note: bool,
    codeless: bool = False,
    table_cell: bool = False,
    cue_free: bool = False,
) -> tuple[rules.Cue | None, str | None]:
    """A sentence's caveat cue and instruction form, after the rules that weigh one against the other.

    ``cue_free`` says the caller knows the reading holds no cue (``holds_cue``): the cue rules are then not
    run, and the answer is the same.

    - A reference entry (``--quiet: Do not print.``) instructs nothing, and only its deprecation, version,
      error and label cues count, a field marked as required, and where it is available at all
      (``is_availability``): its other words describe what the option does.
    - A question, a notice that the reader may skip something, and an observation of what an example shows
      ("Notice that …", "As you can see, …") is neither.
    - In a sentence whose leading condition ends before a main clause that instructs ("If you need X, use
      Y"), the condition's cues are the instruction's own: they do not count. When the main clause
      neither instructs nor holds a cue ("If you don't pass a name, a default is used"), they are tier 3.
    - A direct instruction (an imperative, a to-clause, second person) stays an instruction, its cues its
      own (not labelled), unless a cue restricts the instruction itself (``restricts``): then the sentence
      is a caveat, and no instruction. An indirect one (a tutorial step, an API usage sentence, a step
      before code) with a cue of tier 1 or 2 is a caveat.
    - Any other sentence with a cue is a caveat. In a section without code (``codeless``) its cues are
      tier 3 but for deprecation, version and label cues, and for an outright requirement, limitation or
      condition (``STATED_RULES``), which is tier 2; an example sentence is one tier weaker; inside a note,
      tip, info or important block one of tier 2 is of tier 1.
    """
    if reading.rstrip().endswith("?") or rules.SKIP_NOTICE.search(reading) or rules.is_license_notice(reading):
        return None, None
    if rules.is_lead_in(reading):
        # "**Deprecation notice:**", "You must write:": a marker or a lead-in, the notice or the code it
        # introduces follows; the words alone restrict nothing (a short step, "To install `ruff`:", instructs).
        return None, None if table_cell else rules.instruction_form(reading, before_fence, reference_entry)
    if (
        rules.RATIONALE.match(reading)
        or rules.REASSURANCE_OPENING.match(reading)
        or rules.OBSERVATION_OPENING.match(reading)
    ):
        return None, None
    reason = rules.REASON_OPENING.match(reading)
    if reason is not None:
        # "Because X is not called, Y is not applied": the reason is blanked, the main clause read (same length).
        reading = " " * reason.end() + reading[reason.end() :]
    recommendation = rules.RECOMMENDATION.search(reading)
    if recommendation is not None:
        # "X might not find it, so it is recommended to use Y": the recommendation is no caveat and no
        # instruction, but the clauses before it still state what they state.
        clause_end = max(reading.rfind(",", 0, recommendation.start()), reading.rfind(";", 0, recommendation.start()))
        # "However, we recommend …": a lead-in, no clause of its own.
        led = clause_end == -1 or len(reading[:clause_end].split()) < 3
        cues = [] if cue_free or led else rules.sentence_cues(reading[:clause_end])
        after = rules.CLAUSE_AFTER.search(reading, recommendation.end())
        if after is not None and not cue_free:
            # "Use of X is preferred, and Y will be deprecated": the clause after the recommendation states what it
            # states too (scan_version 52); its offsets are the sentence's (a blanked copy of the same length).
            cues += rules.sentence_cues(" " * after.end() + reading[after.end() :])
        best = rules.strongest_cue(cues)
        return (best, None) if best is not None and not codeless else (None, None)
    # A table's cells are read as prose (every cue counts) but instruct nothing: they describe, field by
    # field, what the table's lead sentence instructs.
    form = None if table_cell else rules.instruction_form(reading, before_fence, reference_entry)
    cues = [] if cue_free else rules.sentence_cues(reading)
    if before_fence and reading.rstrip().endswith(":"):
        # "The following command will fail:" tells what the code shows; only a prohibition ("Do not run
        # this:") is still a caveat. A requirement ("you will need to make sure it type-checks:") is the step
        # the code carries out, but in a note, which sets it apart.
        cues = [cue for cue in cues if cue.rule == "prohibition" or (cue.rule == "requirement" and in_note)]
    if reference_entry:
        cues = [cue for cue in cues if cue.rule in ENTRY_RULES or is_marker(cue) or is_availability(cue)]
    clause_end = rules.condition_clause_end(reading)
    if clause_end is not None:
        main_form = (
            None if table_cell else rules.instruction_form(reading[clause_end + 1 :], before_fence, reference_entry)
        )
        if main_form is None and not in_note and MUST_STEP.match(reading, clause_end + 1):
            # "If you wish to check objects, you must subclass them": the step the condition asks for.
            main_form = "second person"
        if main_form is not None:
            form = main_form
            cues = [cue for cue in cues if cue.start > clause_end]
        elif not any(cue.start > clause_end for cue in cues):
            # "If you don't pass a name, a default is used": the condition's cue, with a plain consequence.
            cues = [rules.Cue(cue.rule, cue.cue, 3, cue.start) for cue in cues]
            available = rules.LED_CONDITIONAL_AVAILABILITY.search(reading, clause_end)
            if available is not None and not re.search(r"(?<!\w)(?:you|we)(?!\w)", reading[:clause_end], re.I):
                # (A condition the reader meets, "Once you've implemented it, it will be available", is a step.)
                # "If `brotlipy` is installed, the `brotli` encoding will be supported": only then is it.
                opening = rules.CONDITION_OPENING.match(reading, re.match(r"[\s\x00]*", reading).end())
                word = opening.group(0).split()[-1].lower()
                cues.append(rules.Cue("condition", f"{word} … {rules.normalized_cue(available.group(0))}", 2, 0))
    if form in INDIRECT_FORMS:
        # "A lease can be extended at most five times": an indirect instruction with a caveat is a caveat. Its
        # trailing condition is its own ("X can be set to false if verification is required to be skipped").
        condition = TRAILING_CONDITION.search(reading)
        cues = [cue for cue in cues if cue.tier < 3 and (condition is None or cue.start < condition.start())]
    elif form is not None:
        framed = clause_end is not None or re.match(r"[\s\x00]*to\s", reading, re.IGNORECASE) is not None
        # Whether a need adds a requirement is the sentence's, however many needs it holds: read once.
        adds = once(lambda: adds_requirement(reading))
        cues = [cue for cue in cues if restricts(cue, reading, framed, in_note, adds)]
    if codeless:
        # A section without code is an essay or a story: its cues are weak, but for the dated ones and what states
        # the product.
        cues = [(cue if cue.rule in ("deprecation", "version", "label") else codeless_cue(cue)) for cue in cues]
    best = rules.strongest_cue(cues)
    if best is None:
        if form is None and not table_cell and not reference_entry and rules.API_SUBJECT.match(reading) is not None:
            # "`preload` is a Route property for preparing route data": the API named for what it does, an
            # instruction as the labels count one (scan_version 28), indirect.
            return None, DESCRIBED_FORM
        return None, form
    if rules.EXAMPLE_OPENING.match(reading) and best.tier < 3:
        # "For example, …" shows a case of a caveat more than it states one.
        best = rules.Cue(best.rule, best.cue, best.tier + 1, best.start)
    if in_note and best.tier == 2 and not codeless:
        best = rules.Cue(best.rule, best.cue, best.tier - 1, best.start)
    return best, None


def is_availability(cue: rules.Cue) -> bool:
    """Whether a limitation says where a thing is available at all ("only available", "not supported"): in a
    reference entry's description, a restriction of the entry as a version's is (scan_version 23)."""
    return cue.rule == "limitation" and AVAILABILITY_CUE.search(cue.cue) is not None


def is_marker(cue: rules.Cue) -> bool:
    """Whether a cue marks a field as required (``(required)``, ``REQUIRED (if …)``), as a reference entry does."""
    return cue.rule == "requirement" and (cue.cue.startswith("(") or cue.cue.startswith("required"))


def restricts(cue: rules.Cue, reading: str, framed: bool, in_note: bool = False, adds=None) -> bool:
    """Whether a cue in an instruction's sentence restricts the instruction itself, making the sentence a caveat.

    A prohibition ("Do not …", "you cannot …"), ``must``, ``make sure`` and ``ensure that`` (but after a
    purpose or a condition: "To report it, be sure to include the version" is the step itself; from
    scan_version 25 "Make sure the branch is rebased", opening its sentence, is a requirement), a risk told as
    such ("with caution", "carefully"), an "only" in the sentence's first words ("You can only use …",
    "Only use …"), and "you need to" or "you have to" inside a note, or outside one when it adds a
    requirement to another step (``adds_requirement``, read once per sentence by ``adds``) and the sentence
    does not open with a purpose or a condition ("You will need to choose a theme", "To X, you need to Y"
    and "If X, you have to Y" instruct). A cue of tier 3 (a relative clause, a contrast) never restricts.
    """
    if cue.tier == 3:
        return False
    # ("ensure you", "ensure the": "ensure" before who or what must be so, from scan_version 72 as "ensure that";
    # from 74 only opening its sentence, or after "please", "always" or "also": "Run it, ensure the tests pass, and
    # open a pull request" is a run of steps.)
    assuring = cue.cue in ("make sure", "be sure", "ensure that") or (
        cue.cue.startswith("ensure ") and ENSURE_OPENING.fullmatch(reading[: cue.start]) is not None
    )
    if assuring and framed:
        # "To report it, be sure to include …": the step itself. Opening the sentence ("Make sure your branch is
        # rebased.") it restricts the step it follows (scan_version 25): labelled a caveat more often than a step.
        return False
    if cue.cue == "must" and framed and not in_note and re.search(r"(?<!\w)you\s+$", reading[: cue.start], re.I):
        # "To get the value, you must cast it", "If you wish to X, you must Y": the step, as "you need to" is.
        return False
    if cue.rule == "prohibition":
        # "Do not …", "you cannot …"; not "(mutually exclusive)", which tells how the options relate (tier 2).
        return cue.tier == 1
    if cue.cue == "must" or assuring:
        return True
    if cue.rule == "risk":
        return cue.tier == 1
    if cue.rule == "version" and re.search(r"\+$|\sor\s+(?:later|newer|higher|above|greater)$", cue.cue):
        # "To use `truststore`, you need Python 3.10 or newer and …": a lower bound restricts the instruction;
        # one in a condition ("if you're targeting only MkDocs 1.4+, access …") says when to follow it.
        return not re.search(r"(?<!\w)(?:if|when|whenever|unless)\b[^,.;:]*$", reading[: cue.start], re.IGNORECASE)
    if cue.rule == "requirement" and re.fullmatch(
        r"(?:'ll|will\s+)?(?:need|needs|have|has)\s+to|(?:'ll|will)\s+need", cue.cue
    ):
        # "You will need to choose a theme that …" is the step itself; "You also need to …", "Note that you
        # need to …", "You will need X to run this example" add a requirement to another step.
        if in_note or framed:
            return in_note
        return adds() if adds is not None else adds_requirement(reading)
    # The first words of the sentence, or of its main clause after a leading condition (scan_version 52): "Once
    # the variable is set, you can only update it by …" restricts the update as "You can only update it" does.
    # (53) The main clause opens after the condition's comma, the first: "To see all widgets, run `ls`, which by
    # default can only show ten" instructs.
    clause = reading[: cue.start].split(",", 1)[-1] if framed else reading[: cue.start]
    return cue.rule in ("limitation", "requirement") and "only" in cue.cue.split() and len(clause.split()) <= 3


def adds_requirement(reading: str) -> bool:
    """Whether "you need to" or "you have to" in ``reading`` adds a requirement to another step: a word that adds
    (``ADDED_WORD``), an object named before the need (``NAMED_OBJECT``), or a purpose or a condition after the
    first need (``PURPOSE_AFTER_NEED``), which every later need's would follow too.

    ``"You also need to close it."`` -> ``True``; ``"You will need to choose a theme."`` -> ``False``.
    """
    if ADDED_WORD.search(reading) is not None or NAMED_OBJECT.search(reading) is not None:
        return True
    need = NEED_TO.search(reading)
    return need is not None and PURPOSE_AFTER_NEED.search(reading, need.end()) is not None


def body_span(text: str, block: grammars.Block) -> tuple[int, int]:
    """A labelled block's body without its marker lines and surrounding whitespace; the marker line if nothing else.

    A marker line is a header the sentence reader knows (``!!! warning``, ``> [!NOTE]``, ``/// danger``,
    ``:::``), a line of shortcode markers or HTML or MDX tags alone (``{{< warning >}}``,
    ``<Callout type="warning">``, see ``sentences.MARKUP_LINE``), or a line with no letter but the block's
    label: whatever kind of block a grammar gives, its markers are
    left out. ``"!!! warning\n    Mind it.\n"`` -> the span of ``Mind it.``.
    """
    lines = []
    position = text_start(text, block)
    while position < block.end:
        newline = text.find("\n", position, block.end)
        line_end = block.end if newline == -1 else newline
        lines.append((position, line_end))
        position = line_end + 1
    content = [
        (start, end)
        for start, end in lines
        if text[start:end].strip() and not is_marker_line(text, start, end, block.label)
    ]
    if not content:
        first = next(((start, end) for start, end in lines if text[start:end].strip()), (block.start, block.end))
        return trimmed(text, *first)
    start, end = trimmed(text, content[0][0], content[-1][1])
    if block.kind in MARKED_KINDS:
        # The block's own closing marker after the text on its line: "<Aside type="caution">Back up first.</Aside>"
        # (scan_version 8); an inline tag closed there ("Use <b>bold</b>") is the text's.
        closing = CLOSING_MARKER.search(text, start, end)
        opening = OPENING_NAME.match(text, block.start, block.end)
        if (
            closing is not None
            and opening is not None
            and closing.start() > start
            and (closing["tag"] or closing["shortcode"]).lower() == (opening["tag"] or opening["shortcode"]).lower()
        ):
            return trimmed(text, start, closing.start())
    return start, end


# A closing tag or shortcode marker ending a block's last line (``</Aside>``, ``{{% /warning %}}``), spaces after it.
CLOSING_MARKER = re.compile(
    r"(?:</(?P<tag>[A-Za-z][\w.-]{0,100})[ \t]*>|\{\{[<%][ \t]*/[ \t]*(?P<shortcode>[\w./-]{1,100})[ \t]*[%>]\}\})[ \t]*$"
)
# The name a block's opening tag or shortcode marker gives it, on its first line.
OPENING_NAME = re.compile(r"[ \t]*(?:<(?P<tag>[A-Za-z][\w.-]{0,100})|\{\{[<%][ \t]*(?P<shortcode>[\w./-]{1,100}))")


def text_start(text: str, block: grammars.Block) -> int:
    """Where a block's text starts: after the opening marker on its first line for the kinds that have one."""
    return after_opening_marker(text, block.start, block.end) if block.kind in MARKED_KINDS else block.start


def is_marker_line(text: str, start: int, end: int, label: str) -> bool:
    """Whether ``text[start:end]`` is a marker line of a block labelled ``label`` (see ``body_span``)."""
    line = text[start:end]
    if marker_line(text, start, min(end + 1, len(text))):
        return True
    return not re.search(r"[A-Za-z]", line.replace(label, "") if label else line)


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` without surrounding whitespace, and without the ``>`` quote markers it opens with, nor an
    alert's marker before its text (``> [!NOTE] It runs once.`` -> ``It runs once.``; a marker alone stays)."""
    while start < end and (text[start].isspace() or text[start] == ">"):
        start += 1
    alert = INLINE_ALERT_MARKER.match(text, start, end) or LETTER_NOTE.match(text, start, end)
    if alert is not None:
        after = alert.end()
        # The text may start on the next line ("[!NOTE]" alone in an admonition's body): the space between is out too.
        while after < end and text[after].isspace():
            after += 1
        if after < end:
            start = after
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def is_codeless(text: str, section: grammars.Section) -> bool:
    """Whether a section holds no code (no fence, no code span, no call): an essay or a story, whose cues are weak."""
    body = text[section.body_start : section.body_end]
    return (
        "`" not in body and not rules.CALL.search(body) and not any(block.kind == "fence" for block in section.blocks)
    )


def once(function):
    """``function()``, worked out on the first call only."""
    answer = []

    def remembered():
        if not answer:
            answer.append(function())
        return answer[0]

    return remembered


def may_hold_cue(page: Page, start: int, end: int, block_anchors: rules.CheckSearch | None) -> bool:
    """Whether the rules could find a cue in the sentence ``[start, end)``: it holds an anchor of ``CUE_ANCHORS``
    (else it has none, and no cue); every sentence could when the anchors cannot be read off the cue patterns.

    ``block_anchors`` finds the next anchor of the sentence's block (``anchors_in_block``): a block's sentences
    are asked in text order, so one search passes over the sentences up to the next anchor, where each sentence
    was searched on its own. An anchor the sentence's own text holds after its first character is one of the
    block's, at the same place, since the characters before it are the same; only at its first character can
    the sentence read one the block does not (a word start where the page has a letter before it), which a
    single match tells. An anchor of the block that starts in the sentence and runs past its end is taken as
    one: the rules then read the sentence, and find in it what they find.
    """
    if block_anchors is None:
        return True
    anchor = block_anchors.search(start)
    if anchor is not None and anchor.start() < end:
        return True
    return CUE_ANCHOR_AT_START.match(page.folded, start, end) is not None


def anchors_in_block(page: Page, end: int) -> rules.CheckSearch | None:
    """The next anchor of ``CUE_ANCHORS`` from a place of the page's text up to ``end`` (a block's end), read where
    the page's words start (``may_hold_cue``); ``None`` when the anchors cannot be read off the cue patterns."""
    return None if CUE_ANCHORS is None else rules.CheckSearch(CUE_ANCHORS, page.folded, end)


def holds_cue(reading: str) -> bool:
    """Whether a sentence's reading holds a cue, or the condition that makes one (``classified``): if not, it is
    no caveat. ``classified`` reads the sentence itself, or cut short before a comma or a semicolon, or with an
    opening reason blanked up to its comma; none of them holds a cue the sentence does not, since no cue starts
    with a space and none looks past a comma."""
    return (
        rules.CUE_PATTERN.search(rules.ascii_lowered(reading)) is not None
        or rules.LED_CONDITIONAL_AVAILABILITY.search(reading) is not None
    )


def sentence_holds_cue(item: Item, block_anchors: rules.CheckSearch | None) -> bool:
    """Whether a sentence holds a cue (``holds_cue`` of its reading), looked for only where it may hold one
    (``may_hold_cue``, which finds every sentence that does), and answered once for each masked text of a scan.

    Keyed by the masked text alone (the reading is made of it), the answers of the pages of one scan are shared,
    as ``classified``'s are: of the 39,513 sentences of 500 pages of a shell reference, 22 % repeat an earlier one.
    """
    page = item.page
    masked = page.masked[item.start : item.end]
    known = page.classifications
    answer = known.get(masked)
    if answer is None:
        answer = (
            may_hold_cue(page, item.start, item.end, block_anchors)
            and not rules.is_links_only(masked)
            and holds_cue(item.reading)
        )
        known[masked] = answer
    return answer


def section_items(page: Page, section: grammars.Section, dated: bool = False) -> list[Item]:
    """A section's sentences, and its cautionary and version blocks as whole caveats, in text order.

    On a dated post (``dated``: a blog post, a release announcement) every caveat is of tier 3: news and
    history told as a story, where "users will not get any security pop-ups" is a promise kept. A sentence
    that holds no anchor of a cue (``may_hold_cue``) is no caveat, and the rules read it only if a caveat
    near it asks what it instructs (``Item``).
    """
    text, masked, fences = page.text, page.masked, page.fences
    items: list[Item] = []
    prose_number = -1
    pending_notice = None
    if section.heading_start < section.body_start and rules.is_release_notes(section.title):
        return items
    blocks = read_inline_alerts(text, read_components(text, read_directives(text, section.blocks)))
    # Each block's reading as indented code, asked of it and of the block before it: worked out once.
    indented = [is_indented_code(text, block) for block in blocks]
    codeless = once(lambda: is_codeless(text, section))
    badges = deque(section_badges(page.masked, section))
    for number, block in enumerate(blocks):
        if badges and badges[0].start() < block.end:
            # The badges before this block or inside it, each a caveat of its own (but for one shown in code or
            # in a comment); a block of badges alone is read no further. A badge on a definition's line (``: ``) in
            # a block of more, a definition list's entry, dates that entry only (scan_version 24): "`allowRead`\n:
            # {{< new-in 0.161.0 />}}\n: A slice of paths." The badges of an entry's term line (a ``<p>`` of
            # "**Type:** …" and ``<Since v="4.11.0" />``) still date the text after them.
            code = block.kind in UNREAD_KINDS or indented[number]
            alone = not code and all(
                is_badge_line(line) for line in text[block.start : block.end].splitlines() if line.strip()
            )
            while badges and badges[0].start() < block.end:
                badge = badges.popleft()
                floor = max(section.body_start, badge.start() - COMMENT_REACH)
                if (
                    (code and badge.start() >= block.start)
                    or in_comment(text, badge.start(), floor)
                    or opens_indented_code(text, badge.start(), section.body_start)
                ):
                    continue
                prose_number += 1
                item = badge_item(page, badge, prose_number)
                item.in_entry = not alone and DEFINITION_LINE.match(text, badge.start()) is not None
                items.append(item)
            if alone:
                continue
        if block.kind in UNREAD_KINDS or indented[number]:
            continue
        prose_number += 1
        next_is_fence = number + 1 < len(blocks) and (blocks[number + 1].kind == "fence" or indented[number + 1])
        is_table = block.kind == "table"
        first = block.start if is_table else text_start(masked, block)
        # Which of the spans are a table's cells: all of a table's; of an HTML element's, those of the Markdown
        # tables it holds (scan_version 30), and from 44 of an admonition's and a content tab's too, whose rows ran
        # together into sentences as an element's did ("| `$HOME/.pixi` |\n | `PIXI_BIN_DIR` | The location …");
        # else none.
        cells: list[bool] | None = None
        if is_table:
            spans = table_cell_spans(masked, first, block.end)
        else:
            runs = html_table_runs(text, block) if block.kind in TABLE_HOLDING_KINDS else []
            spans, cells = (
                (sentence_spans(masked, first, block.end, fences), None)
                if not runs
                else spans_around_tables(masked, first, block.end, fences, runs)
            )
        whole = rules.cautionary_cue(block)
        rule = "cautionary block"
        if whole is None:
            whole = rules.version_cue(block)
            rule = "version"
        if whole is not None:
            readings = [rules.prose_view(masked[start:end]) for start, end in spans]
            if not (rule == "cautionary block" and any(rules.SKIP_NOTICE.search(reading) for reading in readings)):
                start, end = body_span(text, block)
                if start < end:
                    anaphor = rules.opening_anaphor(readings[0]) if readings else None
                    items.append(
                        whole_caveat(
                            page, start, end, prose_number, rules.Cue(rule, whole, 1, 0), rule == "version", anaphor
                        )
                    )
            continue
        in_note = rules.is_note(block)
        aside = rules.is_aside(block)
        badge = title_badge(page, block, prose_number) if aside else None
        if badge is not None:
            items.append(badge)
        # A notice's marker standing alone in the paragraph before ("**Deprecation notice:**"): the block it
        # introduces is the notice, its sentences caveats of the marker's cue unless they instruct.
        notice = pending_notice if pending_notice is not None and pending_notice[0] == prose_number - 1 else None
        pending_notice = None
        if notice is None and block.kind == "list" and prerequisites_list(section, items, prose_number):
            # "## Prerequisites", "Before you begin, you will need:": each item that does not instruct is a
            # requirement of what follows (scan_version 11).
            notice = (prose_number - 1, PREREQUISITE_CUE)
        # "You can set these fields:" and then the table of fields: the cells qualify that sentence.
        lead = items[-1] if (is_table or cells) and items and items[-1].block == prose_number - 1 else None
        list_item = block.kind == "list"
        block_anchors = anchors_in_block(page, block.end)
        first_item = len(items)
        # The items of the HTML lists the block holds (scan_version 39), read as a Markdown list's: a sentence of one
        # is never paired with one of a sibling, and an entry of a description list is a reference entry.
        html_parts, html_ends = (
            html_list_parts(masked, first, block.end)
            if not list_item and not is_table and HTML_LIST_OPENING.search(masked, first, block.end) is not None
            else (None, None)
        )
        part_starts = [part[0] for part in html_parts] if html_parts else []
        headed: set[int] = set()
        entry_terms: dict[tuple, list[Item]] = {}
        for position, (start, end) in enumerate(spans):
            before_fence = next_is_fence and position == len(spans) - 1
            cell = is_table or (cells is not None and cells[position])
            if cells is not None and cell and position and not cells[position - 1]:
                # A table after prose of its own element: that prose's last sentence is the table's lead.
                lead = items[-1]
            index = bisect_right(part_starts, start) - 1
            owner, part = html_parts[index][1:] if index >= 0 else (None, None)
            item = Item(
                page,
                start,
                end,
                prose_number,
                (before_fence, list_item or owner is not None, in_note, codeless, cell),
                aside,
            )
            if owner is not None:
                item.in_html_list = True
                item.list_item = owner
                item.item_end = html_ends.get(owner, block.end)
                item._opens_item = part in ("description", "item") and index not in headed
                if item._opens_item:
                    headed.add(index)
                    if part == "description":
                        item.entry_terms = tuple(entry_terms.get(owner, ()))
                elif part == "term":
                    item.in_term = True
                    entry_terms.setdefault(owner, []).append(item)
            if cell:
                item.in_table = True
                item.lead = lead
            if notice is not None or sentence_holds_cue(item, block_anchors):
                caveat, item._instruction = item.classification()
                reading = item.reading
                if (
                    caveat is None
                    and item._instruction is None
                    and notice is not None
                    and not rules.is_lead_in(reading)
                ):
                    caveat = notice[1]
                if caveat is not None and dated:
                    caveat = rules.Cue(caveat.rule, caveat.cue, 3, caveat.start)
                item.caveat = caveat
                item.ahead = (
                    caveat is not None
                    and caveat.rule in ("version", "deprecation")
                    and VERSION_BADGE.match(reading) is not None
                )
                if block.kind == "paragraph" and len(spans) == 1 and rules.is_lead_in(reading):
                    marker = rules.strongest_cue(rules.sentence_cues(reading))
                    if marker is not None and marker.rule in NOTICE_RULES:
                        pending_notice = (prose_number, rules.Cue(marker.rule, marker.cue, marker.tier, 0))
            items.append(item)
        if list_item and any(item.caveat is not None for item in items[first_item:]):
            # Which item each sentence is in matters only to a caveat of this list and the sentences of the same
            # block it weighs (``in_earlier_item``, ``item_head``): told for a list that holds one.
            places, owners = item_openings(masked, block.start, block.end)
            if places:
                ends = item_ends(places, owners, block.end)
                for item in items[first_item:]:
                    if places[0] <= item.start:
                        item.list_item = owners[bisect_right(places, item.start) - 1]
                        item.item_end = None if item.list_item is None else ends[item.list_item]
    for badge in badges:
        # After the section's last block: it dates nothing that follows, and is reported as it is.
        if in_comment(text, badge.start(), max(section.body_start, badge.start() - COMMENT_REACH)):
            continue
        prose_number += 1
        items.append(badge_item(page, badge, prose_number))
    return items


# The tags of HTML's lists (scan_version 39): ``<dl>`` of ``<dt>`` terms and ``<dd>`` descriptions, ``<ul>`` and
# ``<ol>`` of ``<li>`` items. Lower case, as ``sentences.BLOCK_TAG`` reads them.
HTML_LIST_TAG = re.compile(r"<(/?)(dl|ul|ol|dt|dd|li)(?=[\s/>])[^<>\n]{0,300}>")
HTML_LISTS = frozenset({"dl", "ul", "ol"})
HTML_LIST_OPENING = re.compile(r"<(?:dt|dd|li)(?=[\s/>])")


def html_list_parts(masked: str, start: int, end: int) -> tuple[list[tuple[int, tuple | None, str | None]], dict]:
    """The items of the HTML lists in ``masked[start:end]`` (scan_version 39), as the places where the item text belongs
    to changes, each with that item and the part it opens; and where each item ends.

    An item is ``(opening, depth)``, as ``item_openings`` gives a Markdown list's (the depth counts the lists it is
    in): a ``<dl>``'s entry opens at its first ``<dt>`` and holds its terms and its description, up to the next entry,
    a ``<ul>`` or ``<ol>``'s at its ``<li>``. The part is ``"term"`` after a ``<dt>``, ``"description"`` after an
    entry's first ``<dd>``, ``"item"`` after a ``<li>``, else ``None`` (the item runs on, or ``None`` for text of no
    item: before a list, after it). Closing tags that HTML lets a page leave out (``</li>``, ``</dd>``) are not needed.
    ``html_list_parts("<dl><dt>a</dt><dd>b</dd></dl>", 0, 29)`` -> ``([(0, None, None), (4, None, None), (8, (4, 1),
    'term'), (14, (4, 1), None), (18, (4, 1), 'description'), (24, (4, 1), None), (29, None, None)], {(4, 1): 24})``.
    """
    parts: list[tuple[int, tuple | None, str | None]] = [(start, None, None)]
    ends: dict = {}
    # The lists open around the text, innermost last: [name, its open item or None, whether the item has a <dd>,
    # the item the list is in]. The last is fixed while the list is open (only the innermost list's item changes),
    # so the item text belongs to is found in one step, not by a walk down lists nested thousands deep.
    lists: list[list] = []

    def close_item(place: int) -> None:
        if lists and lists[-1][1] is not None:
            ends[lists[-1][1]] = place
            lists[-1][1] = None

    def current() -> tuple | None:
        # The item text after a tag belongs to: the innermost open list's item, else the item that list is in.
        if not lists:
            return None
        return lists[-1][1] if lists[-1][1] is not None else lists[-1][3]

    for match in HTML_LIST_TAG.finditer(masked, start, end):
        closing, name = match.group(1) == "/", match.group(2)
        part = None
        if name in HTML_LISTS:
            if closing:
                while lists:
                    close_item(match.start())
                    if lists.pop()[0] == name:
                        break
            else:
                lists.append([name, None, False, current()])
        elif closing:
            if name == "li":
                close_item(match.end())
        else:
            if not lists:
                # A term, a description or an item outside any list: read as one of a list there.
                lists.append(["dl" if name in ("dt", "dd") else "ul", None, False, None])
            open_list = lists[-1]
            opens = open_list[1] is None or name == "li" or (name == "dt" and open_list[2])
            if opens:
                close_item(match.start())
                open_list[1] = (match.start(), len(lists))
                open_list[2] = False
            if name == "dd":
                part = None if open_list[2] else "description"
                open_list[2] = True
            else:
                part = "term" if name == "dt" else "item"
        parts.append((match.end(), current(), part))
    while lists:
        close_item(end)
        lists.pop()
    return parts, ends


def html_table_runs(text: str, block: grammars.Block) -> list[tuple[int, int]]:
    """The Markdown tables an HTML element's block holds, as ``[start, end)`` of their lines (scan_version 30): a
    header row, its delimiter row (``grammars.blocks.is_table_delimiter``), and the rows after it that hold a ``|``.

    Laravel wraps each table in ``<div class="overflow-auto">``; read as prose, its rows ran together into
    sentences that each began with the row before's closing ``|``. The element's other lines stay prose.
    """
    runs: list[tuple[int, int]] = []
    lines = text[block.start : block.end].splitlines(keepends=True)
    starts = list(accumulate((len(line) for line in lines), initial=block.start))
    index = 1
    while index < len(lines):
        if "|" in lines[index - 1] and grammars.is_table_delimiter(lines[index].rstrip("\n")):
            end = index + 1
            while end < len(lines) and "|" in lines[end] and lines[end].strip():
                end += 1
            runs.append((starts[index - 1], starts[end]))
            index = end + 1
        else:
            index += 1
    return runs


def spans_around_tables(
    masked: str, start: int, end: int, fences, runs: list[tuple[int, int]]
) -> tuple[list[tuple[int, int]], list[bool]]:
    """The sentences of ``masked[start:end]`` with the table ``runs`` in it read cell by cell, and for each span
    whether it is a cell."""
    spans: list[tuple[int, int]] = []
    cells: list[bool] = []
    position = start
    for run_start, run_end in runs:
        if position < run_start:
            prose = sentence_spans(masked, position, run_start, fences)
            spans.extend(prose)
            cells.extend([False] * len(prose))
        table = table_cell_spans(masked, run_start, min(run_end, end))
        spans.extend(table)
        cells.extend([True] * len(table))
        position = run_end
    if position < end:
        prose = sentence_spans(masked, position, end, fences)
        spans.extend(prose)
        cells.extend([False] * len(prose))
    return spans, cells


def is_indented_code(text: str, block: grammars.Block) -> bool:
    """Whether a paragraph is indented code: its first line is indented four columns or more (Markdown's rule)."""
    if block.kind != "paragraph":
        return False
    line_end = text.find("\n", block.start, block.end)
    line = text[block.start : block.end if line_end == -1 else line_end]
    indent = len(line) - len(line.lstrip(" \t"))
    return grammars.leading_columns(line[:indent]) >= 4 and bool(line.strip())


def directive_body(text: str, start: int, end: int) -> tuple[str, int, int] | None:
    """For a MyST directive fence that holds an admonition (```` ```{note} ````), its label and the span of its
    body between the opening line and its options (``DIRECTIVE_OPTIONS``) and the closing line; ``None`` for any
    other fence."""
    opening = DIRECTIVE_OPENING.match(text, start, end)
    if opening is None or not rules.is_admonition_label(opening.group("label").lower()):
        return None
    body_start = DIRECTIVE_OPTIONS.match(text, opening.end(), end).end()
    last = text.rfind("\n", body_start, max(body_start, end - 1)) + 1
    body_end = last if last and re.fullmatch(r"[ \t]*(?:`{3,}|~{3,})[ \t]*\n?", text[last:end]) else end
    return opening.group("label").lower(), body_start, max(body_start, body_end)


# The HTML elements whose content a browser shows as no text (``raw_text_bodies``), by lowercased name.
RAW_TEXT_OPENING = re.compile(r"<(script|style|template)(?=[\s>/])[^>]*>", re.IGNORECASE)
RAW_TEXT_CLOSINGS = {name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in ("script", "style", "template")}


def with_code_shortcodes(text: str, sections, fences: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``fences``, the bodies of the code shortcodes of ``sections`` (between their marker lines) and the raw text of
    their HTML elements (``raw_text_bodies``), in text order.

    A shortcode pair is a block of its own under "blocks-3" and "blocks-4" (kind ``shortcode``, labelled by its
    name); a fence inside such a body is inside its span already.
    """
    bodies = []
    for section in sections:
        for block in section.blocks:
            if block.kind == "shortcode" and block.label in CODE_SHORTCODES:
                body_start = text.find("\n", block.start, block.end) + 1
                closing_line = text.rfind("\n", block.start, block.end - 1) + 1
                if 0 < body_start < closing_line:
                    bodies.append((body_start, closing_line))
            elif block.kind == "html":
                bodies.extend(raw_text_bodies(text, block.start, block.end))
    if not bodies:
        return fences
    spans = []
    for start, end in sorted(fences + bodies):
        if spans and start < spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def raw_text_bodies(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``[start, end)`` of what each ``<script>``, ``<style>`` or ``<template>`` element opening a line of
    ``text[start:end]`` (an HTML block) holds, opening tag to closing tag; one never closed runs to the block's end
    (scan_version 32).

    A browser shows none of it as text: a Handlebars template (``{{#unless this.log_result}}``) or sample log lines
    in ``<script type="text/plain">`` on Loki's LogQL simulator page were caveats and instructions.
    """
    bodies = []
    place = start
    while True:
        opening = RAW_TEXT_OPENING.search(text, place, end)
        if opening is None:
            return bodies
        if text[text.rfind("\n", 0, opening.start()) + 1 : opening.start()].strip(" \t"):
            # Not the first thing on its line: an element mentioned in prose or code ("if not using `<script setup>`").
            place = opening.end()
            continue
        closing = RAW_TEXT_CLOSINGS[opening.group(1).lower()].search(text, opening.end(), end)
        body_end = end if closing is None else closing.end()
        bodies.append((opening.start(), body_end))
        place = body_end


def prose_fences(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` of fenced code where a MyST admonition fence is its opening and closing lines alone: its body
    is prose, and the code fenced inside the body is still code."""
    kept = []
    for start, end in spans:
        directive = directive_body(text, start, end)
        if directive is None:
            kept.append((start, end))
            continue
        _, body_start, body_end = directive
        kept.append((start, body_start))
        kept.extend(
            (body_start + inner_start, body_start + inner_end)
            for inner_start, inner_end in fence_spans(text[body_start:body_end])
        )
        if body_end < end:
            kept.append((body_end, end))
    return kept


def directive_admonition(text: str, block: grammars.Block) -> grammars.Block | None:
    """A fence block that is a MyST admonition, as an admonition block of its body (the whole fence when the
    body holds no prose: ```` ```{versionadded} 1.2 ```` says it all on its opening line); else ``None``."""
    if block.kind != "fence":
        return None
    directive = directive_body(text, block.start, block.end)
    if directive is None:
        return None
    label, body_start, body_end = directive
    if not re.search(r"[A-Za-z]", text[body_start:body_end]):
        return grammars.Block("admonition", block.start, block.end, label)
    return grammars.Block("admonition", body_start, body_end, label)


# JSX admonition components (scan_version 8): Starlight's ``<Aside type="caution">``, the ``<Admonition type="…">``,
# ``<Callout type="…">`` and ``<Alert type="…">`` of other sites, and the components named for their kind
# (``<Warning>``, ``<Note>``, ``<Tip>``). Their kind is the ``type`` attribute, else the name; an ``<Aside>`` without
# one is Starlight's default, a note.
COMPONENT_TYPE = re.compile(
    r"""[ \t]*<([A-Za-z][\w.-]*)(?![\w.-])[^<>]*?(?<![\w.-])type\s*=\s*"""
    r"""(?:"([A-Za-z]+)"|'([A-Za-z]+)'|\{\s*["']([A-Za-z]+)["']\s*\})"""
)
TYPED_COMPONENTS = frozenset({"aside", "admonition", "callout", "alert"})


# An alert's marker with its text after it on the line (scan_version 14): "> [!NOTE] `use:enhance` can only be used
# with …", as SvelteKit's docs write a note, where GitHub puts the marker on a line of its own.
INLINE_ALERT_MARKER = re.compile(r"\[!([A-Za-z]+)\][ \t]*")
INLINE_ALERT = re.compile(r"[ \t]*>[ \t]*\[!([A-Za-z]+)\][ \t]*[^\s]")
# webpack's docs mark a paragraph as a note by its first characters (scan_version 17): "W> " a warning, "T> " a tip,
# "?> " a note; the grammars read it as a paragraph, whose text starts after the marker.
LETTER_NOTE = re.compile(r"[ \t]*(?P<letter>[WT?])>[ \t]+(?=\S)")
LETTER_NOTE_LABELS = {"W": "warning", "T": "tip", "?": "note"}


def read_inline_alerts(text: str, blocks) -> list[grammars.Block]:
    """``blocks`` with the notes a block grammar reads as plain text labelled by their type, each read as an
    admonition of that type: a quote whose first line is an alert's marker and text (``> [!WARNING] Back up
    first.``, as a quote opening on the marker alone is), and a paragraph opening on webpack's ``W>``, ``T>`` or
    ``?>`` (``LETTER_NOTE``)."""
    read = []
    for block in blocks:
        kind, label = block.kind, None
        if block.kind == "quote" and not block.label:
            alert = INLINE_ALERT.match(text, block.start, block.end)
            label = None if alert is None else alert[1].lower()
        elif block.kind == "paragraph" and not block.label:
            note = LETTER_NOTE.match(text, block.start, block.end)
            # A paragraph is never an aside: the note is read as the admonition it renders as.
            kind, label = ("admonition", LETTER_NOTE_LABELS[note["letter"]]) if note is not None else (kind, None)
        read.append(block if label is None else grammars.Block(kind, block.start, block.end, label))
    return read


def read_components(text: str, blocks) -> list[grammars.Block]:
    """``blocks`` with each HTML block that is a JSX admonition component labelled by its kind, so it is read as
    an admonition of that kind (a ``caution`` one is cautionary, a ``note`` one a note); other blocks as they are.

    ``<Aside type="caution">`` … ``</Aside>`` -> an ``html`` block labelled ``caution``.
    """
    read = []
    for block in blocks:
        label = component_kind(text, block) if block.kind == "html" else None
        read.append(block if label is None else grammars.Block(block.kind, block.start, block.end, label))
    return read


def component_kind(text: str, block: grammars.Block) -> str | None:
    """The admonition kind of an HTML block that is a JSX admonition component (``COMPONENT_TYPE``), where it is
    not the block's label already; else ``None``."""
    if block.label not in TYPED_COMPONENTS and not rules.is_admonition_label(block.label):
        return None
    line_end = text.find("\n", block.start, block.end)
    opening = text[block.start : block.end if line_end == -1 else line_end]
    # The block's label is its first tag's name: the type is read there only, in one match from the line's start.
    typed = COMPONENT_TYPE.match(opening)
    if typed is not None and typed.group(1).lower() == block.label:
        kind = next(group for group in typed.groups()[1:] if group).lower()
        return kind if rules.is_admonition_label(kind) else None
    # A component named for its kind (``<Warning>``) carries that label already.
    return "note" if block.label == "aside" else None


def read_directives(text: str, blocks) -> list[grammars.Block]:
    """``blocks`` with each MyST admonition read as an admonition block: a directive fence
    (``directive_admonition``), or a colon fence (``:::{note}`` up to its closing ``:::``), which the block
    grammars read as paragraphs, a blank line inside it parting them: its paragraphs are one admonition up
    to any code fenced inside, which stays code. Text after the closing line in the same paragraph is a
    paragraph of its own (``":::{note}\\nMind it.\\n:::\\nRun it.\\n"`` -> the note ``Mind it.``, then
    ``Run it.``); an opening line alone is the admonition only when no prose of it follows
    (``:::{versionadded} 1.2`` and its closing line)."""
    read = []
    # The colon fence open: its label and run of colons, where in ``read`` its latest admonition block stands,
    # and whether that block is its opening line alone.
    label, colons, latest, alone = None, 0, None, False
    for block in blocks:
        if label is not None and (block.kind in UNREAD_KINDS or is_indented_code(text, block)):
            read.append(block)
            continue
        position = block.start
        while position < block.end:
            if label is None:
                admonition = directive_admonition(text, block) if position == block.start else None
                opening = COLON_OPENING.match(text, position, block.end) if block.kind == "paragraph" else None
                if admonition is not None:
                    read.append(admonition)
                    break
                if opening is None or not rules.is_admonition_label(opening["label"].lower()):
                    if position == block.start:
                        read.append(block)
                    elif text[position : block.end].strip():
                        read.append(grammars.Block(block.kind, position, block.end, block.label))
                    break
                label, colons = opening["label"].lower(), len(opening["colons"])
                start = DIRECTIVE_OPTIONS.match(text, opening.end(), block.end).end()
                opening_line = (position, opening.end())
            else:
                start = position
                opening_line = None
            closing = colon_closing(text, start, block.end, colons)
            end = block.end if closing is None else closing.start()
            if re.search(r"[A-Za-z]", text[start:end]):
                if alone:
                    # The opening line alone, then the directive's prose: the prose is the admonition, as when it
                    # follows the opening line in its paragraph.
                    del read[latest]
                elif latest == len(read) - 1:
                    # The directive's next paragraph: one admonition, as a block grammar reads ``!!! note``'s.
                    start = read.pop().start
                read.append(grammars.Block("admonition", start, end, label))
                latest, alone = len(read) - 1, False
            elif opening_line is not None:
                # ``:::{versionadded} 1.2`` and its closing line alone: the opening line says it all.
                read.append(grammars.Block("admonition", *opening_line, label))
                latest, alone = len(read) - 1, True
            if closing is None:
                break
            label, colons, latest, alone = None, 0, None, False
            position = closing.end() + 1
    return read


def colon_closing(text: str, start: int, end: int, colons: int) -> re.Match | None:
    """The first line of ``text[start:end]`` that closes a colon fence of ``colons`` colons (``COLON_CLOSING``)."""
    for closing in COLON_CLOSING.finditer(text, start, end):
        if len(closing["colons"]) >= colons:
            return closing
    return None


def whole_caveat(
    page: Page, start: int, end: int, prose_number: int, cue: rules.Cue, ahead: bool = True, anaphor=None
) -> Item:
    """A caveat that is a whole block or line, read as no sentence (a warning's body, a version note, a badge):
    it instructs nothing; ``ahead``, it dates what follows it."""
    item = Item(page, start, end, prose_number, aside=True)
    item.caveat = cue
    item.ahead = ahead
    item._instruction = None
    item._anaphor = anaphor
    item._back_reference = None
    return item


def title_badge(page: Page, block: grammars.Block, prose_number: int) -> Item | None:
    """An admonition's marker line whose title dates it (``!!! tip "Added in version 0.55.0"``), as a version
    caveat of the text after it; ``None`` when its title holds no version or deprecation cue."""
    title = ADMONITION_TITLE.match(page.text, block.start, block.end)
    if title is None:
        return None
    reading = rules.prose_view(page.masked[title.start("title") : title.end("title")])
    cue = rules.strongest_cue([cue for cue in rules.sentence_cues(reading) if cue.rule in ("version", "deprecation")])
    if cue is None:
        return None
    line_end = page.text.find("\n", block.start, block.end)
    start, end = trimmed(page.text, block.start, block.end if line_end == -1 else line_end)
    return whole_caveat(page, start, end, prose_number, rules.Cue(cue.rule, cue.cue, 1, 0))


def badge_item(page: Page, match: re.Match, prose_number: int) -> Item:
    """A version badge's line (``BADGE_LINE``) as a version caveat, of tier 1, of the text after it."""
    if match.group("shortcode") is not None:
        rule = "deprecation" if match.group("shortcode") == "deprecated-in" else "version"
        cue = f"{match.group('shortcode')} {match.group('shortcode_version')}"
    elif match.group("badge_version") is not None:
        rule, cue = "version", f"Badge component {match.group('badge_version')}"
    else:
        rule, cue = "version", f"{match.group('tag')} component {match.group('version')}"
    # The badge itself, not the definition's ":" or the "<p>" around it (scan_version 24).
    start, end = match.span("badge")
    return whole_caveat(page, start, end, prose_number, rules.Cue(rule, cue, 1, 0))


# A section or a list's lead-in that lists what the reader must have first (scan_version 11).
PREREQUISITE_TITLE = re.compile(
    # (Hugo's ``## {{% heading "prerequisites" %}}`` is titled by its shortcode, argument and all.)
    r"[\s\W]*(?:heading\s+[\"']?)?(?:prerequisites?|requirements?|before\s+you\s+(?:begin|start)|what\s+you(?:['’]ll|\s+will)?\s+need"
    r"|you(?:['’]ll|\s+will)\s+need)\b",
    re.IGNORECASE,
)
# (Not a condition, "If you need to remove it, follow these steps:", nor a need to do: a need to have.)
PREREQUISITE_LEAD = re.compile(
    r"(?![\s\x00]*(?:if|when|whenever|once|unless)\b)"
    r"[^\n]*(?:\byou(?:['’]ll|\s+will)?\s+need\b(?!\s+to\b)|\bbefore\s+you\s+(?:begin|start)\b|\bprerequisites?\b"
    r"|\byou\s+must\s+have\b)[^\n]*:\s*$",
    re.IGNORECASE,
)
# Of tier 3 (scan_version 12): on an eleventh labelled set, measured once, 4 of the 22 pairs it made at tier 2
# were right, most of them items of "Install prerequisites:", what that instruction installs.
PREREQUISITE_CUE = rules.Cue("requirement", "prerequisite", 3, 0)
MAX_LEAD_IN = 300


def prerequisites_list(section: grammars.Section, items: list[Item], prose_number: int) -> bool:
    """Whether a list lists prerequisites: its section is titled so, or the paragraph just before it is a lead-in
    that says so (``PREREQUISITE_TITLE``, ``PREREQUISITE_LEAD``)."""
    if section.heading_start < section.body_start and PREREQUISITE_TITLE.match(section.title):
        return True
    lead = items[-1] if items and items[-1].block == prose_number - 1 else None
    # A lead-in is a short sentence; a long one is read no further (the pattern would scan it again and again).
    return lead is not None and len(lead.reading) <= MAX_LEAD_IN and PREREQUISITE_LEAD.match(lead.reading) is not None


def section_badges(masked: str, section: grammars.Section) -> list[re.Match]:
    """The version badges on lines of their own in a section's body, in text order: read in the page's
    ``masked`` text, so a badge in fenced code is none. Only a line where a badge's opening is found
    (``BADGE_START``), and no longer than ``MAX_BADGE_LINE``, is matched: each line is looked at once."""
    body_start, body_end = section.body_start, section.body_end
    if masked.find("<", body_start, body_end) == -1 and masked.find("{{", body_start, body_end) == -1:
        # Every badge opens on one of them, which ``str.find`` passes over far sooner than the pattern's search.
        return []
    found = []
    position = body_start
    while position < body_end:
        opening = BADGE_START.search(masked, position, body_end)
        if opening is None:
            break
        line_start = max(masked.rfind("\n", body_start, opening.start()) + 1, body_start)
        line_end = masked.find("\n", opening.end(), body_end)
        line_end = body_end if line_end == -1 else line_end
        if line_end - line_start <= MAX_BADGE_LINE:
            badge = BADGE_LINE.match(masked, line_start, line_end)
            if badge is not None:
                found.append(badge)
        position = line_end + 1
    return found


def is_badge_line(line: str) -> bool:
    """Whether a line is a version badge and nothing else (``BADGE_LINE``)."""
    return len(line) <= MAX_BADGE_LINE and BADGE_LINE.fullmatch(line) is not None


BLANK_LINE_BEFORE = re.compile(r"\n[ \t]*\n[ \t]*\Z")


def opens_indented_code(text: str, line_start: int, floor: int) -> bool:
    """Whether the line at ``line_start`` is indented code as Markdown reads it: four columns in, after a blank
    line whose last text before it is neither as deep nor a tag (a component's or a list's child is no code).
    Only the text from ``floor`` on is looked at."""
    line_end = text.find("\n", line_start)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if grammars.leading_columns(line[: len(line) - len(line.lstrip(" \t"))]) < 4:
        return False
    before = text[max(floor, line_start - 2000) : line_start]
    if BLANK_LINE_BEFORE.search(before) is None:
        return False
    lines = [previous for previous in before.split("\n") if previous.strip()]
    if not lines or lines[-1].lstrip().startswith("<"):
        return False
    previous = lines[-1]
    return grammars.leading_columns(previous[: len(previous) - len(previous.lstrip(" \t"))]) < 4


def in_comment(text: str, start: int, floor: int) -> bool:
    """Whether ``start`` lies inside an HTML comment (``<!-- -->``) or an MDX one (``{/* */}``) opened after
    ``floor``: a badge there renders as nothing."""
    for opener, closer in (("<!--", "-->"), ("{/*", "*/}")):
        opened = text.rfind(opener, floor, start)
        if opened != -1 and text.find(closer, opened, start) == -1:
            return True
    return False


def usable(candidate: Item, caveat: Item) -> bool:
    """Whether ``candidate`` may be ``caveat``'s instruction: it instructs, does not overlap it and is no copy of it."""
    return (
        not (candidate.start < caveat.end and caveat.start < candidate.end)
        and candidate.instruction is not None
        and candidate.normalized != caveat.normalized
    )


def candidates_around(items: list[Item], index: int) -> tuple[list[Item], list[Item]]:
    """The sentences within reach of the caveat ``items[index]``: before it (nearest first) and after it.

    At most ``MAX_CANDIDATES`` sentences are looked at on each side, within ``IDENTIFIER_BLOCKS`` prose
    blocks before (``chosen_instruction`` keeps the farther ones for a shared identifier) and
    ``LOOK_AHEAD_BLOCKS`` after. Which of them are instructions it may take (``usable``) is asked only of
    the ones ``chosen_instruction`` weighs.
    """
    caveat = items[index]
    before = []
    for position in range(index - 1, max(index - 1 - MAX_CANDIDATES, -1), -1):
        candidate = items[position]
        if candidate.block < caveat.block - IDENTIFIER_BLOCKS:
            break
        before.append(candidate)
    if caveat.list_item is not None:
        before = [candidate for candidate in before if not in_earlier_item(candidate, caveat)]
    after = []
    for position in range(index + 1, min(index + 1 + MAX_CANDIDATES, len(items))):
        candidate = items[position]
        if candidate.block > caveat.block + LOOK_AHEAD_BLOCKS:
            break
        after.append(candidate)
    if caveat.list_item is not None:
        after = [candidate for candidate in after if not in_later_item(candidate, caveat)]
    return before, after


def in_earlier_item(candidate: Item, caveat: Item) -> bool:
    """Whether ``candidate`` is in an earlier item of the caveat's list at the caveat item's depth or deeper: a
    sibling's sentence, or one under a sibling (scan_version 27). A parent item's sentence is not.

    A list's items are told one by one: "Bytes can't be passed as a value" in one item restricts bytes, not the
    DataFrames of the item before. On thirty-three labelled sets, 77 pairs of tier 2 took a sibling's sentence, 20
    of them right (0.26, against 0.55 for all). In an HTML list (scan_version 39) an item that ended before the
    caveat's opened is no parent either, however shallow: the option entry before the one whose ``<ul>`` of values
    holds the caveat.
    """
    item = candidate.list_item
    return (
        item is not None
        and candidate.block == caveat.block
        and item[0] < caveat.list_item[0]
        and (item[1] >= caveat.list_item[1] or (candidate.in_html_list and candidate.item_end <= caveat.list_item[0]))
    )


def in_later_item(candidate: Item, caveat: Item) -> bool:
    """Whether ``candidate`` is in an item of the caveat's list after the caveat's own item has ended (its nested
    items are its own): the next sibling's sentence, one under it, or the next item of a parent (scan_version 34,
    as ``in_earlier_item`` before it; from 35 told by where the item ends, ``item_ends``, where 34 compared marker
    indents and so kept the caveat from its own nested items). A caveat at the end of one item ("Note that any
    value but zero may make the cluster unavailable") restricts that item's setting, not the next one's. On
    forty-one labelled sets, 89 pairs of tier 2 took such a sentence, 34 of them right (0.38)."""
    return (
        candidate.list_item is not None
        and candidate.block == caveat.block
        and caveat.item_end is not None
        and candidate.start >= caveat.item_end
    )


def item_ends(places: list[int], owners: list[tuple[int, int] | None], end: int) -> dict[tuple[int, int], int]:
    """Where each item of a list block (``item_openings``) ends, its nested items included: at the next item that
    opens at its indent or nearer the margin, at a paragraph of an item it is nested in, at text that belongs to no
    item, else at the block's ``end``."""
    ends: dict[tuple[int, int], int] = {}
    open_items: list[tuple[int, int]] = []
    for place, owner in zip(places, owners):
        opening = owner is not None and owner[0] == place
        # Text of no item closes every open one; a parent's paragraph again closes the items nested in it; a marker
        # closes the items at its indent or deeper.
        while open_items and (
            owner is None
            or (not opening and open_items[-1] != owner and owner in open_items)
            or (opening and open_items[-1][1] >= owner[1])
        ):
            ends[open_items.pop()] = place
        if opening:
            open_items.append(owner)
    for item in open_items:
        ends[item] = end
    return ends


def item_openings(masked: str, start: int, end: int) -> tuple[list[int], list[tuple[int, int] | None]]:
    """The items of a list block ``masked[start:end]`` as the places where the item a line belongs to changes, and
    that item: where it opens (its marker line's start) and its marker's indent in columns (a tab is 4, a quote
    marker counts); ``None`` for text that belongs to no item. In text order.

    A marker line opens an item, closing the ones at its indent or deeper. A paragraph after a blank line belongs to
    the innermost open item whose content it is indented to (under ``- `` at 2, from column 4): "  The `port` must
    not be below 1024." after a nested list is its parent item's again. A line that runs on a paragraph stays with
    it, indented or not (a lazy continuation).
    ``item_openings("- a\n  - b\n\n  c\n", 0, 15)`` -> ``([0, 4, 11], [(0, 0), (4, 2), (0, 0)])``.
    """
    places: list[int] = []
    owners: list[tuple[int, int] | None] = []
    open_items: list[tuple[int, int, int]] = []  # (opening, indent, content column)
    after_blank = True
    line_start = start
    while line_start < end:
        newline = masked.find("\n", line_start, end)
        line_end = end if newline == -1 else newline
        marker = ITEM_MARKER.match(masked, line_start, line_end)
        if marker is not None:
            indent = len(marker.group(1).expandtabs(4))
            while open_items and open_items[-1][1] >= indent:
                open_items.pop()
            open_items.append((line_start, indent, len(masked[line_start : marker.end()].expandtabs(4))))
            places.append(line_start)
            owners.append((line_start, indent))
            after_blank = False
        elif not masked[line_start:line_end].strip(" \t>"):
            after_blank = True
        else:
            if after_blank:
                indent = len(LINE_INDENT.match(masked, line_start, line_end).group(0).expandtabs(4))
                while open_items and indent < open_items[-1][2]:
                    open_items.pop()
                places.append(line_start)
                owners.append(open_items[-1][:2] if open_items else None)
            after_blank = False
        line_start = line_end + 1
    return places, owners


def shared_link(candidate: Item, caveat: Item, identifiers: bool) -> tuple[str, int] | None:
    """``("identifier save_copy", 1)`` when ``candidate`` names code the caveat names (``identifiers``), or
    ``("term upgrade", 2)`` when the two share a content word; ``None`` when they share nothing of that kind."""
    if identifiers:
        # Every name a sentence gives as code that the caveat's words can hold is one of its own words
        # (three letters or more, or an option): a sentence sharing no word shares no name.
        if candidate.words.isdisjoint(caveat.words):
            return None
        shared = candidate.identifiers & caveat.words
        return (f"identifier {min(shared)}", 1) if shared else None
    shared = candidate.terms & caveat.terms
    return (f"term {min(shared)}", 2) if shared else None


def outside_asides(candidate: Item) -> bool:
    return not candidate.aside


def first_usable(candidates: list[Item], caveat: Item, keep=None) -> Item | None:
    """The first of ``candidates`` that ``caveat`` may take (``usable``) and ``keep`` keeps, or ``None``."""
    for candidate in candidates:
        if (keep is None or keep(candidate)) and usable(candidate, caveat):
            return candidate
    return None


def first_linked(candidates: list[Item], caveat: Item, identifiers: bool, keep=None) -> tuple[Item, tuple] | None:
    """The first of ``candidates`` that shares a name (``identifiers``) or a term with ``caveat`` and is usable:
    an instruction, or for a shared name, a reference entry that instructs (``usable_entry``)."""
    for candidate in candidates:
        if keep is not None and not keep(candidate):
            continue
        link = shared_link(candidate, caveat, identifiers)
        if link is not None and (usable(candidate, caveat) or (identifiers and usable_entry(candidate, caveat))):
            return candidate, link
    return None


def item_head(caveat: Item, before: list[Item]) -> Item | None:
    """The sentence opening the list item that ``caveat`` continues, when it instructs or is a reference entry
    whose description is an imperative (``--ws-max-size <int> - Set the size.``) and no caveat itself; ``None``
    otherwise (an entry that describes, ``samesite - A string that …``, instructs nothing), or when the caveat
    opens its item. From scan_version 28 the item is the one the caveat belongs to by indentation
    (``item_openings``): a paragraph of an item after its nested items has no head here, and the links that
    follow weigh the nested items' sentences."""
    if caveat.context is None or not caveat.context[1] or caveat.opens_item:
        return None
    for candidate in before:
        if candidate.block != caveat.block:
            return None
        if candidate.opens_item:
            if caveat.list_item is not None and candidate.list_item != caveat.list_item:
                # A nested item's opening between the caveat and its item's.
                return None
            return candidate if usable(candidate, caveat) or usable_entry(candidate, caveat) else None
    return None


def usable_entry(candidate: Item, caveat: Item) -> bool:
    """Whether ``candidate`` is a reference entry that tells how to use its term, and may be ``caveat``'s
    instruction where a caveat names it: in the entry's own item, or by a name the two share.

    The entry's description instructs directly (``--loop <str> - Set the event loop.``, ``gtag: To enable
    analytics, set it to your ID.``), or its term is a
    command-line option (``--workers <int> - Number of worker processes.``), which the reader passes. An entry
    that describes a field (``samesite - A string that …``) instructs nothing: the sentence that tells the
    reader to call what has that field does.
    """
    return candidate.instructs_as_entry and candidate.normalized != caveat.normalized


OPENING_TAGS = re.compile(r"^(?:[ \t]*<[A-Za-z][^<>\n]{0,300}>)+")


def entry_instructs(candidate: Item) -> bool:
    """Whether a sentence reads as a reference entry (``rules.REFERENCE_ENTRY``) whose term is an option or whose
    description instructs directly (see ``usable_entry``)."""
    text = candidate.page.text
    if candidate.entry_terms is not None:
        # A description list's entry (scan_version 39): its term is its ``<dt>``, its description the sentence.
        term = "".join(rules.prose_view(text[item.start : item.end]) for item in candidate.entry_terms[:1])
        description = candidate.reading
    else:
        entry = rules.REFERENCE_ENTRY.match(candidate.reading)
        if entry is None:
            return False
        # (An HTML list item's term opens with its tags: ``<li><code>--all</code>: …``.)
        term = OPENING_TAGS.sub("", text[candidate.start : candidate.start + entry.end()])
        description = candidate.reading[entry.end() :]
    return term.lstrip("`*_ ").startswith("-") or rules.instruction_form(description, False, False) in DIRECT_FORMS


def chosen_instruction(caveat: Item, before: list[Item], after: list[Item]) -> tuple[Item, str, int] | None:
    """The instruction ``caveat`` qualifies, how they are linked, and the link's tier; ``None`` if none is in reach.

    ``before`` and ``after`` are the sentences in reach (``candidates_around``), of which only the usable
    ones count. In this order: the nearest earlier instruction that shares an identifier with the caveat
    (``identifier save_copy``, tier 1, up to ``IDENTIFIER_BLOCKS`` back); then, within ``LOOK_BACK_BLOCKS``,
    and leaving out instructions inside an admonition when the caveat is not in one (an aside) unless no
    other is in reach: when the caveat opens with an anaphor, the nearest earlier one (``anaphor This``, tier
    1 within one block, else 2); the nearest later one sharing an identifier (``identifier x, after``, tier
    2); the nearest earlier one sharing a content word (``term upgrade``, tier 2); the nearest earlier one
    (``nearest``, tier 2); when none is earlier, the nearest later one sharing a content word (``term x,
    after``, tier 2) or the nearest later one (``nearest after``, tier 2). No other link is of tier 3: measured
    on hand labels, a pair linked by nearness alone has the right instruction about as often as one linked by a
    shared word; what makes a pair wrong is its caveat (docs/caveats.md, "Tiers"). The exception (scan_version
    9): nearness alone to a lead-in of a few words (``is_short_lead_in``: "Create the Pod:") is tier 3.

    Each step asks what links a sentence to the caveat before asking whether it instructs, so the rules
    read a sentence only when its answer can decide. Every step takes only a sentence the caveat may take
    (``usable``, or a reference entry, ``usable_entry``): when none in reach is one, as for nearly half the
    caveats of a reference's pages, the caveat is unpaired before any link is weighed.
    """
    if not any(usable(candidate, caveat) or usable_entry(candidate, caveat) for candidate in (*before, *after)):
        return described_api(caveat, before)
    if caveat.ahead:
        if caveat.in_entry:
            # A badge on a definition's line dates its entry: the entry's instruction after it, if it has one, never
            # the next entry's (scan_version 24). The entry's block is the one counted after the badge's own, and its
            # sentences before the badge (the term line, a line the block runs on from) come after it in ``after``.
            entry = [
                candidate
                for candidate in after
                if candidate.block == caveat.block + 1 and candidate.start >= caveat.end
            ]
            following = first_usable(entry, caveat)
            return None if following is None else (following, "version badge, same entry", 2)
        # A version badge dates what follows it: the first instruction after it in reach (3 prose blocks).
        following = first_usable(after, caveat)
        if following is not None:
            return following, "version badge, after", 2
    head = item_head(caveat, before)
    if head is not None:
        # A later sentence of a list item qualifies the item's own instruction or entry ("`--ws-max-size` -
        # Set the size. Only available with `websockets`."), never another item's.
        return head, "same item", 1
    # In the caveat's own block, an instruction that shares a word comes first ("For one run, pass the
    # bundle. The bundle replaces the default."): the nearest context a reader has. (The sentences in reach
    # are nearest first, so the caveat's own block is where they start.)
    for candidate in before:
        if candidate.block != caveat.block:
            break
        link = shared_link(candidate, caveat, identifiers=True) or shared_link(candidate, caveat, identifiers=False)
        if link is not None and usable(candidate, caveat):
            return candidate, *link
    if caveat.back_reference is not None:
        nearest = first_usable(before, caveat)
        if nearest is not None and nearest.block >= caveat.block - 1:
            # "…, the above configuration will fail": what the sentence points back to, just before it.
            return nearest, f"back-reference {caveat.back_reference}", 1
    linked = first_linked(before, caveat, identifiers=True)
    if linked is not None:
        return linked[0], *linked[1]
    near = [candidate for candidate in before if candidate.block >= caveat.block - LOOK_BACK_BLOCKS]
    keep = None
    if not caveat.aside and first_usable(near, caveat, outside_asides) is not None:
        # An instruction in a note beside the text is an aside: a caveat of the text qualifies the text's own.
        keep = outside_asides
    nearest = first_usable(near, caveat, keep)
    if caveat.anaphor is not None and nearest is not None:
        return nearest, f"anaphor {caveat.anaphor}", 1 if nearest.block >= caveat.block - 1 else 2
    linked = first_linked(after, caveat, identifiers=True)
    if linked is not None:
        return linked[0], f"{linked[1][0]}, after", 2
    linked = first_linked(near, caveat, identifiers=False, keep=keep)
    if linked is not None:
        return linked[0], *linked[1]
    if nearest is not None:
        return nearest, "nearest", 3 if is_short_lead_in(nearest) else 2
    linked = first_linked(after, caveat, identifiers=False)
    if linked is not None:
        return linked[0], f"{linked[1][0]}, after", 2
    nearest_after = first_usable(after, caveat)
    if nearest_after is not None:
        return nearest_after, "nearest after", 3 if is_short_lead_in(nearest_after) else 2
    return described_api(caveat, before)


def described_api(caveat: Item, before: list[Item]) -> tuple[Item, str, int] | None:
    """For a caveat that no instruction in reach takes: the nearest earlier sentence of its own prose block or the
    one before (``DESCRIBED_BLOCKS``) that names, as code, a word of the caveat, linked ``described, identifier x``
    at tier 2; ``None`` when there is none (scan_version 22).

    The sentence describes the API the caveat restricts ("The `dependencies` parameter is an optional list of
    decorators."), so it is where a reader who meets the caveat learns what it is about. A caveat, a table's cell, a
    description list's term (``<dt>``, scan_version 39: a name, which describes nothing) and a copy of the caveat are
    never taken, nor from scan_version 36 a pointer elsewhere ("See this guide on
    [referencing secrets]({{< ref component-secrets.md >}})", ``rules.is_pointer``), whose link target named the
    identifier. Measured on twenty-five labelled sets (docs/caveats.md): 105 more pairs of tier 2, 66 right, and 17
    more labelled pairs found; a wider reach or a shared word instead of a shared name adds more pairs, fewer of
    them right.
    """
    for candidate in before:
        if candidate.block < caveat.block - DESCRIBED_BLOCKS:
            return None
        if (
            candidate.caveat is not None
            or candidate.in_table
            or candidate.in_term
            or (candidate.start < caveat.end and caveat.start < candidate.end)
            or candidate.normalized == caveat.normalized
            or rules.is_pointer(candidate.reading)
            # a list item or a table cell that is a link and nothing else ("_Appears in:_ - [PipelineTask](#…)"),
            # an entry of a list of pages, describes nothing, as it instructs nothing (scan_version 59)
            or (
                ((candidate.context[1] and candidate.opens_item) or candidate.context[4])
                and LINK_ALONE.fullmatch(candidate.page.text, candidate.start, candidate.end)
            )
        ):
            continue
        link = shared_link(candidate, caveat, identifiers=True)
        if link is not None:
            return candidate, DESCRIBED_LINK + link[0], 2
    return None


# A lead-in this short ("Create the Pod:", "Let's add some tests:") says only that code follows (scan_version 9).
SHORT_LEAD_IN_WORDS = 5


def is_short_lead_in(candidate: Item) -> bool:
    """Whether an instruction is a lead-in of a few words ending in ``:``: a caveat linked to it by nearness
    alone is of tier 3 (on the nine labelled sets, 1 of the 5 such pairs of tier 2 was right)."""
    reading = candidate.reading.rstrip()
    return reading.endswith(":") and len(reading.split()) <= SHORT_LEAD_IN_WORDS


def scan_text(
    source_id: str, text: str, grammar: str = grammars.LESSON_GRAMMAR
) -> tuple[list[FoundPair], list[Unpaired]]:
    """Every instruction/caveat pair of one source under ``grammar``, and the caveats left unpaired."""
    return scan_sections(source_id, text, grammars.document_sections(text, grammar, source_id))


def heading_level(text: str, heading_start: int, body_start: int) -> int:
    """A heading's level: its ``#`` marks (``## Fixed`` is 2), or 1 and 2 for a setext heading's ``=`` and ``-``
    underline, its last line before ``body_start`` (from scan_version 42; before, the line after its first, which a
    title of two lines does not underline: ``"Known issues on\\nWindows\\n---\\n"`` is 2); 0 for none."""
    line_end = text.find("\n", heading_start)
    line = text[heading_start : len(text) if line_end == -1 else line_end].lstrip(" ")
    marks = len(line) - len(line.lstrip("#"))
    if marks:
        return marks
    lines = text[heading_start:body_start].rstrip("\n \t").rsplit("\n", 1)
    underline = lines[-1].strip(" \t") if len(lines) > 1 else ""
    return 1 if underline.startswith("=") else 2 if underline.startswith("-") else 0


def heading_ancestors(text: str, sections) -> list[tuple[tuple[int, int, str], ...]]:
    """For each section, the headings open above it, outermost first, as ``(level, start, title)``: each heading
    before it of a lower level with no heading of its level or lower between them. A heading with no body of its
    own (no section) still opens its level: it is read from the text between the previous section's body and the
    next heading. A heading of no level the rules read (``heading_level`` 0) counts as level 1; a section without a
    heading (a page's opening) has none above it.

    ``# A`` then ``## B`` (no body) then ``### C``: C's are ``((1, 0, "A"), (2, 4, "B"))``.
    """
    found = []
    open_headings: list[tuple[int, int, str]] = []

    def opened(level: int, start: int, title: str) -> tuple[tuple[int, int, str], ...]:
        while open_headings and open_headings[-1][0] >= level:
            open_headings.pop()
        above = tuple(open_headings)
        open_headings.append((level, start, title))
        return above

    previous_end = 0
    for section in sections:
        if section.heading_start == section.body_start:
            found.append(())
            previous_end = section.body_end
            continue
        for match in BODILESS_HEADING.finditer(text, previous_end, section.heading_start):
            if match.group("marks") is not None:
                opened(len(match.group("marks")), match.start(), match.group("title").strip(" #"))
            elif previous_end:
                # A setext heading between two sections (not in the page's front matter, whose closing ``---`` would
                # underline its last line).
                opened(1 if match.group("underline")[0] == "=" else 2, match.start(), match.group("text").strip())
        level = heading_level(text, section.heading_start, section.body_start)
        found.append(opened(max(level, 1), section.heading_start, section.title))
        previous_end = section.body_end
    return found


def release_notes(sections, ancestors: list[tuple[tuple[int, int, str], ...]]) -> list[bool]:
    """For each section, whether it is release notes: titled by a version or a date, or under such a heading
    (``ancestors``: ``heading_ancestors``'s for ``sections``).

    "## 0.47.0 (May 29, 2025)" and its "#### Fixed" are history alike; the next heading of its level or
    higher ends them. A section without a heading (a page's opening) is never release notes.
    """
    history: dict[int, bool] = {}
    flags = []
    for section, above in zip(sections, ancestors):
        if section.heading_start == section.body_start:
            flags.append(False)
            continue
        flag = False
        for _, start, title in above:
            if start not in history:
                history[start] = rules.is_release_notes(title)
            flag = flag or history[start]
        flags.append(flag or rules.is_release_notes(section.title))
    return flags


def scan_sections(
    source_id: str, text: str, sections, classifications: dict | None = None
) -> tuple[list[FoundPair], list[Unpaired]]:
    """Every instruction/caveat pair of one source's ``sections``, in caveat order, and the caveats left unpaired.

    Linear in the text: each sentence is read once, and each caveat looks at no more than
    ``MAX_CANDIDATES`` sentences on either side. ``classifications`` (see ``Page``) may be shared by the
    sources of one scan.
    """
    sections = tuple(sections)
    fences = with_code_shortcodes(text, sections, prose_fences(text, fence_spans(text, sections)))
    masked, code_spans = masked_code(text, fences)
    page = Page(text, masked, code_spans, fences, {} if classifications is None else classifications)
    newlines = chunk_index.newline_offsets(text)
    pairs: list[FoundPair] = []
    unpaired: list[Unpaired] = []
    names_on_line: dict[int, int] = {}
    dated = rules.is_dated_post(text)
    # The sentences of the sections read before, nearest last, each with its heading's start: a caveats section's
    # caveats look back into them, up to its parent heading.
    earlier: deque = deque(maxlen=CAVEATS_SECTION_REACH)
    ancestors = heading_ancestors(text, sections)
    for section, history, above in zip(sections, release_notes(sections, ancestors), ancestors):
        if history:
            continue
        items = section_items(page, section, dated)
        caveats_section = section.heading_start < section.body_start and is_caveats_title(section.title)
        security_section = caveats_section and SECURITY_TITLE.match(section.title) is not None
        for index, item in enumerate(items):
            cue = item.caveat
            if cue is None:
                continue
            line = bisect_right(newlines, item.start - 1) + 1
            qualifier = Span(item.start, item.end, text[item.start : item.end])
            lead = item.table_lead
            chosen = (
                (lead, "table lead", 2)
                if lead is not None and usable(lead, item)
                else chosen_instruction(item, *candidates_around(items, index))
            )
            if chosen is None and caveats_section and above and above[-1][0] >= 2 and not security_section:
                # Only a subsection's: a caveats section at the page's top level, under its title or none, lists what
                # the page's feature as a whole cannot do (scan_version 41).
                chosen = section_before(earlier, item, above[-1][1])
            if chosen is None:
                unpaired.append(Unpaired(source_id, qualifier, cue.rule, cue.cue, cue.tier, line))
                continue
            instruction, link, link_tier = chosen
            # A reference entry instructs only the caveats of its own item ("same item"); a sentence that describes
            # the API a caveat names instructs by no form (``described_api``).
            form = instruction.instruction or (DESCRIBED_FORM if link.startswith(DESCRIBED_LINK) else "reference entry")
            form_tier = (
                3 if form in NARRATED_FORMS else 2 if form in INDIRECT_FORMS or instruction.instruction is None else 1
            )
            name = pair_name(source_id, line, names_on_line)
            pairs.append(
                FoundPair(
                    name,
                    source_id,
                    Span(instruction.start, instruction.end, text[instruction.start : instruction.end]),
                    qualifier,
                    cue.rule,
                    cue.cue,
                    link,
                    max(cue.tier, link_tier, form_tier),
                    form,
                    line,
                    cue.tier,
                )
            )
        earlier.append((section.heading_start, items))
    return pairs, unpaired


def is_caveats_title(title: str) -> bool:
    """Whether a section's title says it lists caveats (``CAVEATS_SECTION``): "Limitations", "Known issues", "Upgrade
    considerations"; from scan_version 32 not a word of a name (``Write-Warning``, ``stats.warnings``), the singular
    "Warning" ("Warning stream") or a message's or an example's label (``LABELLED_TITLE``), and from 39 not a word of a
    qualifier in parentheses (``TITLE_QUALIFIER``: "Failure response (URL not supported)")."""
    if LABELLED_TITLE.match(title) is not None:
        return False
    if "(" in title:
        # (Unless the qualifier is all the title has: "(Limitations)".)
        unqualified = TITLE_QUALIFIER.sub(" ", title)
        title = unqualified if any(character.isalpha() for character in unqualified) else title
    return CAVEATS_SECTION.search(title) is not None


def section_before(earlier: deque, caveat: Item, parent_start: int) -> tuple[Item, str, int] | None:
    """For a caveat of a section titled as caveats ("Limitations", "Known issues", ``CAVEATS_SECTION``) that no
    instruction in its own section takes: the last instruction of the nearest section before it that has one, at
    most ``CAVEATS_SECTION_REACH`` sections back and ``MAX_CANDIDATES`` sentences from that section's end, linked
    ``caveats section``, tier 2 (scan_version 31); from scan_version 41 only for a subsection (its parent heading,
    starting at ``parent_start``, of level 2 or deeper: the caller asks) and no section before that parent.

    "## Use automatic extension resolution" then "### Limitations" and "Only works with official extensions.": the
    section lists what the one before it instructs cannot do. Measured on thirty-seven labelled sets: 19 more pairs
    of tier 2, 12 right; pairing every caveat so with the section before gave 623 more, 0.34 right. A
    "#### Limitations" under "### Mirrors" lists what "### Mirrors" and its other subsections instruct, not what
    the "#### Limitations" of "### Sources" before it did; and "# pixi-build-r" then "## Build Process" then
    "## Limitations" lists what the backend cannot do, not what its build process section last said.
    """
    for heading_start, items in reversed(earlier):
        if heading_start < parent_start:
            return None
        for candidate in items[: -MAX_CANDIDATES - 1 : -1]:
            if candidate.caveat is None and not candidate.in_table and usable(candidate, caveat):
                return candidate, CAVEATS_SECTION_LINK, 2
    return None


def scan_sources(
    sources, grammar: str = grammars.LESSON_GRAMMAR, section_cache: dict | None = None, progress=None
) -> tuple[list[FoundPair], list[Unpaired]]:
    """``scan_text`` over every source, in ``source_id`` order.

    ``section_cache`` (see ``scanned_sections``) keeps each source's sections for the report that follows;
    ``progress(1, size)`` is called after each source, ``size`` its text's UTF-8 bytes.
    """
    pairs: list[FoundPair] = []
    unpaired: list[Unpaired] = []
    classifications: dict = {}
    for source in sorted(sources, key=lambda source: source["source_id"]):
        found, left = scan_sections(
            source["source_id"], source["text"], scanned_sections(source, grammar, section_cache), classifications
        )
        pairs.extend(found)
        unpaired.extend(left)
        if progress is not None:
            progress(1, len(source["text"].encode("utf-8")))
    return pairs, unpaired
