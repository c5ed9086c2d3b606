"""What "blocks-5" reads on top of "blocks-4" (``SPEC.md``, "The block grammar, version 5"): MDC (``grammars.mdc``).

Nuxt Content's pages write their callouts, tabs and cards as block
components (``::warning`` … ``::``) and their links to other pages as inline
components alone on a line (``:read-more{to="/docs/x"}``), which "blocks-4"
takes for paragraph text: the marker lines become chunks of their own, a
note's marker shares a paragraph with its text, and a component's ``---``
props read as setext underlines turn its lines into section titles. Here:

- a paired block component is one block from its opening line through its
  closing line, props and nested components inside, an ``admonition``
  labelled with its kind for the callouts (``::note``, ``::warning``,
  ``::callout{type="danger"}``), a ``component`` labelled with its name for
  the rest (``::code-group``, ``::card-group``); unless a heading lies
  inside (``::steps`` around ``### Step`` sections): then its opening line,
  props and closing line belong to no block and what is inside is read as
  the page is; and one of nothing but props (``::read-more{to="/docs/x"}``
  then ``::``) belongs to no block;
- a line of ``::`` alone belongs to no block;
- a paragraph of inline components alone belongs to no block;
- a heading's inline components leave its title but for a label's text.

Every other rule is "blocks-4"'s.
"""

from __future__ import annotations

from grammars import mdc
from grammars.blocks import space_indent
from grammars.version4 import PageReader as Version4Reader
from grammars.version4 import section_title as version4_title


class PageReader(Version4Reader):
    """The "blocks-5" rules for one page's lines: "blocks-4"'s, with MDC's components read."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(texts)
        self._components: mdc.Components | None = None

    def components(self) -> mdc.Components:
        if self._components is None:
            self._components = mdc.component_pairs(self.texts)
        return self._components

    def component_line(self, index: int) -> str | None:
        """``"open"``, ``"close"`` or ``None``: whether ``texts[index]`` (indent at most 3) opens a paired block
        component or is a line of ``::`` alone."""
        indent, rest = space_indent(self.texts[index])
        if indent > 3 or not rest.startswith("::") or rest.startswith(":::"):
            return None
        if mdc.CLOSING.fullmatch(rest):
            return "close"
        return "open" if index in self.components().pairs else None

    def interrupts(self, index: int) -> bool:
        return self.component_line(index) is not None or super().interrupts(index)

    def block_at(self, index: int) -> tuple[str, int, str] | None:
        line = self.component_line(index)
        if line == "close":
            return "", index + 1, ""
        if line == "open":
            components = self.components()
            closing = components.pairs[index]
            body = mdc.props_end(self.texts, index, closing)
            if index in components.sectioned:
                return "", body, ""
            if not any(text.strip() for text in self.texts[body:closing]):
                # Props alone (``::read-more{to="/docs/x"}`` then ``::``): a link card or a button, no text of the page's.
                return "", closing + 1, ""
            kind, label = mdc.component_kind(self.texts[index])
            return kind, closing + 1, label
        return super().block_at(index)

    def holds_text(self, first: int, after: int) -> bool:
        """Whether the paragraph of lines ``[first, after)`` holds text: not when every line is inline components
        alone, nor when "blocks-4" finds none."""
        texts = self.texts[first:after]
        if texts[0].lstrip(" \t")[:1] == ":" and all(mdc.INLINE_LINE.fullmatch(text) for text in texts):
            return False
        return super().holds_text(first, after)

    @staticmethod
    def heading_title(title: str) -> str:
        # Before blocks-4's rules: an attribute list is never glued to a name as a component's attributes are.
        return version4_title(mdc.title_without_components(title))
