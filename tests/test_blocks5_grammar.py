"""The block grammar, version 5 (``SPEC.md``, "The block grammar, version 5"): "blocks-4" with MDC's components read.
Each rule on a short text written for the test; offsets counted by hand."""

from __future__ import annotations

import json
import unittest

import grammars
from grammars import mdc
from tests.support import LabTestCase, run_lab

TITLE = "Page"


def read(text: str, grammar: str = "blocks-5") -> list[tuple[str, list[tuple[str, int, int, str]]]]:
    """Each section's title and its blocks as (kind, start, end, label)."""
    return [
        (section.title, [(block.kind, block.start, block.end, block.label) for block in section.blocks])
        for section in grammars.document_sections(text, grammar, "test", TITLE)
    ]


class BlockComponents(unittest.TestCase):
    """Rule M: a paired block component is one block, a callout an admonition of its kind."""

    def test_a_note_is_one_admonition(self) -> None:
        # "# A\n" [0, 4); "::note\n" [4, 11); "Mind the path.\n" [11, 26); "::\n" [26, 29); "After.\n" [29, 36).
        text = "# A\n::note\nMind the path.\n::\nAfter.\n"
        self.assertEqual(len(text), 36)
        self.assertEqual(read(text), [("A", [("admonition", 4, 29, "note"), ("paragraph", 29, 36, "")])])
        # blocks-4 read the four lines as one paragraph, markers and all.
        self.assertEqual(read(text, "blocks-4"), [("A", [("paragraph", 4, 36, "")])])

    def test_props_and_nested_components_are_inside_it(self) -> None:
        # "::cards\n" [4, 12); "  ::card\n" [12, 21); "  ---\n" [21, 27); "  title: One\n" [27, 40); "  ---\n"
        # [40, 46); "  The first card.\n" [46, 64); "  ::\n" [64, 69); "::\n" [69, 72).
        text = "# A\n::cards\n  ::card\n  ---\n  title: One\n  ---\n  The first card.\n  ::\n::\n"
        self.assertEqual(len(text), 72)
        self.assertEqual(read(text), [("A", [("component", 4, 72, "cards")])])
        # blocks-4 took each "---" for a setext underline: the component's lines became two headings, and the
        # card's text a paragraph [46, 72) of the section "title: One".
        self.assertEqual(read(text, "blocks-4")[-1], ("title: One", [("paragraph", 46, 72, "")]))

    def test_kinds_and_labels(self) -> None:
        cases = [
            ("::Warning", ("admonition", "warning")),
            ('::tip{icon="i-bulb"}', ("admonition", "tip")),
            ('::callout{type="danger"}', ("admonition", "danger")),
            ('::callout{icon="i-info" color="neutral"}', ("admonition", "callout")),
            ("::alert{color=warning}", ("admonition", "warning")),
            ('::code-group{sync="pm"}', ("component", "code-group")),
            ("::read-more[the guide]", ("component", "read-more")),
        ]
        for opening, (kind, label) in cases:
            with self.subTest(opening=opening):
                text = opening + "\nBody.\n::\n"
                # The opening line and "Body.\n" (6) and "::\n" (3): one block over the whole text.
                self.assertEqual(read(text), [(TITLE, [(kind, 0, len(opening) + 10, label)])])

    def test_it_interrupts_a_paragraph_and_a_list(self) -> None:
        # "- item one\n" [4, 15); "::warning\n" [15, 25); "Mind it.\n" [25, 34); "::\n" [34, 37).
        text = "# A\n- item one\n::warning\nMind it.\n::\n"
        self.assertEqual(read(text), [("A", [("list", 4, 15, ""), ("admonition", 15, 37, "warning")])])
        # "Text.\n" [4, 10), then the note [10, 29).
        text = "# A\nText.\n::note\nMind it.\n::\n"
        self.assertEqual(read(text), [("A", [("paragraph", 4, 10, ""), ("admonition", 10, 29, "note")])])

    def test_unpaired_and_fenced_markers_are_text(self) -> None:
        # "```md\n" [4, 10); "::note\n" [10, 17); "```\n" [17, 21); a blank line; "::tip\n" [22, 28) never closed;
        # "No end.\n" [28, 36): the fence's "::note" pairs with nothing, and "::tip" is text of its paragraph.
        text = "# A\n```md\n::note\n```\n\n::tip\nNo end.\n"
        self.assertEqual(read(text), [("A", [("fence", 4, 21, ""), ("paragraph", 22, 36, "")])])
        # Three colons are a colon container, as under "blocks-2".
        self.assertEqual(read(":::tip\nBody.\n:::\n"), [(TITLE, [("admonition", 0, 17, "tip")])])

    def test_a_line_of_two_colons_alone_is_no_block(self) -> None:
        # "Text.\n" [4, 10); "::\n" [10, 13); a blank line; "More.\n" [14, 20).
        text = "# A\nText.\n::\n\nMore.\n"
        self.assertEqual(read(text), [("A", [("paragraph", 4, 10, ""), ("paragraph", 14, 20, "")])])
        self.assertEqual(read(text, "blocks-4"), [("A", [("paragraph", 4, 13, ""), ("paragraph", 14, 20, "")])])

    def test_a_component_around_sections_is_read_through(self) -> None:
        # "::steps\n" [4, 12) and "::\n" [27, 30) belong to no block; "## One\n" [12, 19) opens a section;
        # "Do one.\n" [19, 27); "After.\n" [30, 37). "A" holds no block: no section, as an empty one.
        text = "# A\n::steps\n## One\nDo one.\n::\nAfter.\n"
        self.assertEqual(read(text), [("One", [("paragraph", 19, 27, ""), ("paragraph", 30, 37, "")])])
        # Its props too: "::steps\n" [0, 8), "---\n" [8, 12), "level: 4\n" [12, 21), "---\n" [21, 25), then
        # "## One\n" [25, 32) and "Do one.\n" [32, 40), "::\n" [40, 43).
        text = "::steps\n---\nlevel: 4\n---\n## One\nDo one.\n::\n"
        self.assertEqual(read(text), [("One", [("paragraph", 32, 40, "")])])

    def test_a_hash_line_in_indented_code_or_in_props_is_no_heading(self) -> None:
        # "::note\n" [4, 11); "Run it:\n" [11, 19); a blank line [19, 20); "    # install it\n" (17) [20, 37);
        # "    pip install x\n" (18) [37, 55); "::\n" [55, 58): four spaces in, "# install it" is code, no heading, so
        # the note is not sectioned but one admonition.
        text = "# A\n::note\nRun it:\n\n    # install it\n    pip install x\n::\n"
        self.assertEqual(len(text), 58)
        self.assertEqual(read(text), [("A", [("admonition", 4, 58, "note")])])
        # "::tip\n" [4, 10); "---\n" [10, 14); "# the icon\n" (11) [14, 25), YAML's comment; "icon: x\n" [25, 33);
        # "---\n" [33, 37); "Mind it.\n" [37, 46); "::\n" [46, 49).
        text = "# A\n::tip\n---\n# the icon\nicon: x\n---\nMind it.\n::\n"
        self.assertEqual(len(text), 49)
        self.assertEqual(read(text), [("A", [("admonition", 4, 49, "tip")])])
        # A heading after the props still sections the component; a nested one's, up to three spaces in, too.
        self.assertEqual(mdc.component_pairs(["::tip", "---", "# c", "---", "## H", "::"]).sectioned, {0})
        self.assertEqual(mdc.component_pairs(["::tabs", "  ::tab", "  ## H", "  ::", "::"]).sectioned, {0, 1})
        self.assertEqual(mdc.component_pairs(["::steps", "    ## Code", "::"]).sectioned, set())
        # A "---" right after the opening with none after it before the closing line opens no props (rule M's props
        # lie between two): the heading after it is one.
        self.assertEqual(mdc.component_pairs(["::steps", "---", "## One", "Do one.", "::"]).sectioned, {0})

    def test_a_component_of_props_alone_is_no_block(self) -> None:
        # "Text.\n" [4, 10); '::read-more{to="/x"}\n' (21) [10, 31) and "::\n" [31, 34): a link card, no text; a blank
        # line; "::button\n---\nlabel: Go\n---\n::\n" (9 + 4 + 10 + 4 + 3) [35, 65); "More.\n" [65, 71).
        text = '# A\nText.\n::read-more{to="/x"}\n::\n\n::button\n---\nlabel: Go\n---\n::\nMore.\n'
        self.assertEqual(len(text), 71)
        self.assertEqual(read(text), [("A", [("paragraph", 4, 10, ""), ("paragraph", 65, 71, "")])])

    def test_pairs_nest_and_mark_the_sectioned_ones(self) -> None:
        texts = ["::outer", "::inner", "### H", "::", "text", "::", "::note", "x", "::"]
        found = mdc.component_pairs(texts)
        self.assertEqual(found.pairs, {1: 3, 0: 5, 6: 8})
        # A heading inside the inner component is inside the outer one too.
        self.assertEqual(found.sectioned, {0, 1})


class InlineComponents(unittest.TestCase):
    """Rule N: a paragraph of inline components alone belongs to no block."""

    def test_a_paragraph_of_components_alone_is_no_block(self) -> None:
        # "Text.\n" [4, 10); the component's line is 34 characters and its newline [11, 46); ":br :br\n" [47, 55)
        # and "More.\n" [55, 61) are one paragraph with text.
        text = '# A\nText.\n\n:read-more{to="/docs/x" title="X"}\n\n:br :br\nMore.\n'
        self.assertEqual(len(text), 61)
        self.assertEqual(read(text), [("A", [("paragraph", 4, 10, ""), ("paragraph", 47, 61, "")])])
        self.assertEqual(
            read(text, "blocks-4"),
            [("A", [("paragraph", 4, 10, ""), ("paragraph", 11, 46, ""), ("paragraph", 47, 61, "")])],
        )

    def test_a_label_or_a_definition_is_text(self) -> None:
        for line in (":badge[New]", ":   The value.", ":smile:", "::note"):
            with self.subTest(line=line):
                self.assertEqual(read("# A\n" + line + "\n"), [("A", [("paragraph", 4, 5 + len(line), "")])])


class TitleComponents(unittest.TestCase):
    """Rule O: a heading's inline components leave its title but for a label's text."""

    def test_titles(self) -> None:
        cases = [
            ("## View Transitions :badge[v4.4]", "View Transitions v4.4"),
            ('## Hooks :badge{label="new"} here', "Hooks here"),
            ("## Use `a :b{c}`", "Use `a :b{c}`"),
            ("## At 10:30", "At 10:30"),
            ("## Use std::vec", "Use std::vec"),
            ("## Recipe: the client", "Recipe: the client"),
            ("## :badge[v2]", "v2"),
            # A code span inside a label is the label's text as written.
            ("## Fetch :badge[`experimental`] now", "Fetch `experimental` now"),
            # Then blocks-4's rules: the tag leaves too, and an attribute list after a space.
            ('## Setup :badge{label="x"} { #setup }', "Setup"),
            ("## Setup <small>beta</small> :badge[v2]", "Setup beta v2"),
        ]
        for heading, title in cases:
            with self.subTest(heading=heading):
                sections = grammars.document_sections(heading + "\nText\n", "blocks-5", "t", TITLE)
                self.assertEqual(
                    [(s.title, s.heading_start, s.body_start) for s in sections], [(title, 0, len(heading) + 1)]
                )


class Blocks5InTheLab(LabTestCase):
    """blocks-5 end to end: pinned, built, its config named, a note one chunk."""

    def test_pin_and_build(self) -> None:
        docs = self.folder / "docs"
        docs.mkdir()
        (docs / "a.md").write_text("# A\n\nUse it.\n\n::warning\nIt refuses a path.\n::\n", encoding="utf-8")
        pinned = run_lab("pin", "--markdown", "blocks-5", "--manifest", "m.json", "docs", cwd=self.folder)
        self.assertEqual(pinned.returncode, 0, pinned.stderr)
        self.assertEqual(json.loads((self.folder / "m.json").read_text(encoding="utf-8"))["markdown"], "blocks-5")
        built = run_lab("--manifest", "m.json", "--output", "r.json", cwd=self.folder)
        self.assertEqual(built.returncode, 0, built.stderr)
        paragraph = json.loads((self.folder / "r.json").read_text(encoding="utf-8"))["indexes"]["paragraph"]
        self.assertEqual(
            paragraph["config"], {"strategy": "paragraph", "version": 1, "max_chars": None, "markdown": "blocks-5"}
        )
        # "# A\n\n" [0, 5); "Use it.\n" [5, 13); a blank line; the warning "::warning\n" [14, 24), "It refuses a
        # path.\n" [24, 43), "::\n" [43, 46): one chunk.
        self.assertEqual([(c["start"], c["end"]) for c in paragraph["chunks"]], [(5, 13), (14, 46)])
        validated = run_lab("validate", "r.json", "--manifest", "m.json", cwd=self.folder)
        self.assertEqual(validated.returncode, 0, validated.stderr)


if __name__ == "__main__":
    unittest.main()
