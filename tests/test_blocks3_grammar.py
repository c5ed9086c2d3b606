"""The block grammar's third version, "blocks-3": Hugo shortcodes, HTML blocks, attribute lists,
mkdocstrings directives and MDX, each rule as docs/SPEC.md ("The block grammar, version 3") states it.

Every expected span is worked out by hand from the rule and the line lengths written beside it,
never read back from the grammar.
"""

from __future__ import annotations

import json
import unittest

import grammars
from grammars import code_spans
from tests.support import LabTestCase, run_lab

TITLE = "Page"


def read(text: str, grammar: str = "blocks-3") -> list[tuple[str, list[tuple[str, str, int, int]]]]:
    """Each section's title and its blocks as (kind, label, start, end)."""
    return [
        (section.title, [(block.kind, block.label, block.start, block.end) for block in section.blocks])
        for section in grammars.document_sections(text, grammar, "test", TITLE)
    ]


class HugoShortcodes(unittest.TestCase):
    """Rule D: a paired shortcode is one block; cautionary ones are admonitions of their kind."""

    def test_a_paired_warning_is_one_admonition_blank_lines_included(self) -> None:
        # "{{% warning %}}\n" is 16 characters, "Do not run it twice.\n" 21, "\n" 1, "It loses data.\n" 15,
        # "{{% /warning %}}\n" 17: the block is [0, 70); "After\n" is [70, 76).
        text = "{{% warning %}}\nDo not run it twice.\n\nIt loses data.\n{{% /warning %}}\nAfter\n"
        self.assertEqual(read(text), [(TITLE, [("admonition", "warning", 0, 70), ("paragraph", "", 70, 76)])])
        # Under blocks-2 the marker lines are paragraph text and the blank line splits it.
        self.assertEqual(read(text, "blocks-2"), [(TITLE, [("paragraph", "", 0, 37), ("paragraph", "", 38, 76)])])

    def test_nested_pairs_are_inside_the_outer_block(self) -> None:
        # "{{< tabs >}}\n" 13, "{{< tab >}}\n" 12, "\n", "A\n", "\n", "{{< /tab >}}\n" 13, "{{< /tabs >}}\n" 14: [0, 56).
        text = "{{< tabs >}}\n{{< tab >}}\n\nA\n\n{{< /tab >}}\n{{< /tabs >}}\n"
        self.assertEqual(read(text), [(TITLE, [("shortcode", "tabs", 0, 56)])])

    def test_a_heading_inside_a_pair_opens_no_section(self) -> None:
        # "# A\n" 4, "{{< tab >}}\n" [4, 16), "# B\n" [16, 20), "{{< /tab >}}\n" [20, 33).
        self.assertEqual(read("# A\n{{< tab >}}\n# B\n{{< /tab >}}\n"), [("A", [("shortcode", "tab", 4, 33)])])

    def test_a_self_closing_or_unpaired_shortcode_is_text_of_its_paragraph(self) -> None:
        # 'See {{< relref "a" >}} now.\n' is 28 characters, '{{< figure src="x.png" >}}\n' 27: one paragraph [0, 55).
        text = 'See {{< relref "a" >}} now.\n{{< figure src="x.png" >}}\n'
        self.assertEqual(read(text), [(TITLE, [("paragraph", "", 0, 55)])])
        # Hugo's escaped "{{</* note */>}}" is no marker at all.
        text = "{{</* note */>}}\nText\n{{</* /note */>}}\n"
        self.assertEqual(read(text), [(TITLE, [("paragraph", "", 0, len(text))])])
        # "{{< br />}}" closes itself, so the "{{< /br >}}" below it is a lone closing marker: no block.
        # "A\n" [0, 2), "{{< br />}}\n" [2, 14), "B\n" [14, 16).
        self.assertEqual(read("A\n{{< br />}}\nB\n{{< /br >}}\n"), [(TITLE, [("paragraph", "", 0, 16)])])

    def test_the_kind_of_a_wrapper_shortcode_is_its_argument(self) -> None:
        # "{{< hint danger >}}\n" 20, "Mind it.\n" 9, "{{< /hint >}}\n" 14: [0, 43).
        cases = [
            ("{{< hint danger >}}\nMind it.\n{{< /hint >}}\n", "danger"),
            ('{{% alert color="warning" %}}\nMind it.\n{{% /alert %}}\n', "warning"),
            ('{{< callout type="caution" >}}\nMind it.\n{{< /callout >}}\n', "caution"),
            ('{{< alert title="Heads up" >}}\nMind it.\n{{< /alert >}}\n', "alert"),
            ("{{% Note %}}\nMind it.\n{{% /Note %}}\n", "note"),
        ]
        for text, label in cases:
            with self.subTest(text=text):
                self.assertEqual(read(text), [(TITLE, [("admonition", label, 0, len(text))])])

    def test_a_pair_on_one_line_is_a_block_of_that_line(self) -> None:
        # "{{% warning %}}" 15 + "Never." 6 + "{{% /warning %}}" 16 + "\n": [0, 38).
        self.assertEqual(read("{{% warning %}}Never.{{% /warning %}}\n"), [(TITLE, [("admonition", "warning", 0, 38)])])

    def test_a_pair_interrupts_a_paragraph_and_a_lone_closing_marker_belongs_to_no_block(self) -> None:
        # "Intro.\n" [0, 7), "{{% note %}}\n" [7, 20), "N\n" [20, 22), "{{% /note %}}\n" [22, 36).
        self.assertEqual(
            read("Intro.\n{{% note %}}\nN\n{{% /note %}}\n"),
            [(TITLE, [("paragraph", "", 0, 7), ("admonition", "note", 7, 36)])],
        )
        # "Text.\n" [0, 6), "\n", "{{< /tab >}}\n" [7, 20) no block, "\n", "More.\n" [21, 27).
        self.assertEqual(
            read("Text.\n\n{{< /tab >}}\n\nMore.\n"), [(TITLE, [("paragraph", "", 0, 6), ("paragraph", "", 21, 27)])]
        )
        self.assertEqual(read("Text.\n{{< /tab >}}\n"), [(TITLE, [("paragraph", "", 0, 6)])])

    def test_a_closing_marker_closes_the_latest_open_pair_of_its_name(self) -> None:
        # "{{< a >}}\n" [0, 10), "{{< b >}}\n" [10, 20) never closed, "{{< /a >}}\n" [20, 31): one block "a".
        self.assertEqual(read("{{< a >}}\n{{< b >}}\n{{< /a >}}\n"), [(TITLE, [("shortcode", "a", 0, 31)])])


class HtmlBlocks(unittest.TestCase):
    """Rule E: CommonMark's HTML blocks, an element kept whole through its closing tag, markup alone no block."""

    def test_an_element_is_kept_whole_through_its_closing_tag(self) -> None:
        # "<div>\n" [0, 6), "\n", "Text\n" [7, 12), "\n", "</div>\n" [13, 20), "\n", "After\n" [21, 27).
        text = "<div>\n\nText\n\n</div>\n\nAfter\n"
        self.assertEqual(read(text), [(TITLE, [("html", "div", 0, 20), ("paragraph", "", 21, 27)])])
        # blocks-2 reads the tags as paragraphs of their own.
        self.assertEqual(
            read(text, "blocks-2"),
            [
                (
                    TITLE,
                    [
                        ("paragraph", "", 0, 6),
                        ("paragraph", "", 7, 12),
                        ("paragraph", "", 13, 20),
                        ("paragraph", "", 21, 27),
                    ],
                )
            ],
        )

    def test_after_its_closing_tag_an_element_runs_on_to_a_blank_line(self) -> None:
        # As CommonMark's condition 6 ends: "After\n" directly below "</div>" is the block's last line.
        self.assertEqual(read("<div>\n\nText\n\n</div>\nAfter\n"), [(TITLE, [("html", "div", 0, 26)])])

    def test_tags_in_code_spans_and_fences_are_not_read(self) -> None:
        # "<div>\n" [0, 6), "\n", "`</div>`\n" [7, 16), "\n", "</div>\n" [17, 24).
        self.assertEqual(read("<div>\n\n`</div>`\n\n</div>\n"), [(TITLE, [("html", "div", 0, 24)])])
        # "<div>\n" [0, 6), "\n", "```\n" [7, 11), "</div>\n" [11, 18), "```\n" [18, 22), "\n", "</div>\n" [23, 30).
        self.assertEqual(read("<div>\n\n```\n</div>\n```\n\n</div>\n"), [(TITLE, [("html", "div", 0, 30)])])

    def test_a_jsx_element_is_kept_whole_too(self) -> None:
        # '<Note type="warning">\n' [0, 22), "\n", "Call it once.\n" [23, 37), "\n", "</Note>\n" [38, 46).
        text = '<Note type="warning">\n\nCall it once.\n\n</Note>\n'
        self.assertEqual(read(text), [(TITLE, [("html", "note", 0, 46)])])

    def test_a_block_of_tags_and_comments_alone_belongs_to_no_block(self) -> None:
        # '<p align="center">\n' [0, 19), '<img src="a.png">\n' [19, 37), "</p>\n" [37, 42), "\n", "Text\n" [43, 48).
        self.assertEqual(
            read('<p align="center">\n<img src="a.png">\n</p>\n\nText\n'), [(TITLE, [("paragraph", "", 43, 48)])]
        )
        # "Text\n" [0, 5), "\n", "</div>\n" [6, 13) alone, "\n", "More\n" [14, 19).
        self.assertEqual(
            read("Text\n\n</div>\n\nMore\n"), [(TITLE, [("paragraph", "", 0, 5), ("paragraph", "", 14, 19)])]
        )
        # A paragraph of inline tags alone too: '<a href="x"><img src="y"></a>\n' [0, 30), "\n", "Text\n" [31, 36).
        self.assertEqual(read('<a href="x"><img src="y"></a>\n\nText\n'), [(TITLE, [("paragraph", "", 31, 36)])])
        # A comment (condition 2) ends at the line holding "-->": "<!-- a\n" [0, 7), "b -->\n" [7, 13).
        self.assertEqual(read("<!-- a\nb -->\nText\n"), [(TITLE, [("paragraph", "", 13, 18)])])

    def test_raw_text_elements_end_at_their_closing_tag_blank_lines_included(self) -> None:
        # "<pre>\n" [0, 6), "a\n" [6, 8), "\n", "b\n" [9, 11), "</pre>\n" [11, 18), "After\n" [18, 24).
        self.assertEqual(
            read("<pre>\na\n\nb\n</pre>\nAfter\n"), [(TITLE, [("html", "pre", 0, 18), ("paragraph", "", 18, 24)])]
        )

    def test_which_starts_interrupt_a_paragraph(self) -> None:
        # Condition 7 (a tag of any other name alone on its line) does not: one paragraph [0, 17).
        self.assertEqual(read("Text\n<span>\nmore\n"), [(TITLE, [("paragraph", "", 0, 17)])])
        # Condition 6 (a block-level tag) does: "Text\n" [0, 5), then "<div>\n" [5, 11) and "more\n" [11, 16) to the end.
        self.assertEqual(read("Text\n<div>\nmore\n"), [(TITLE, [("paragraph", "", 0, 5), ("html", "div", 5, 16)])])
        # Inline HTML with text after the tag starts no block, closed on its line or below.
        self.assertEqual(read("<span>text</span>\n"), [(TITLE, [("paragraph", "", 0, 18)])])
        self.assertEqual(read("<span>text\nmore</span>\n"), [(TITLE, [("paragraph", "", 0, 23)])])


class CodeSpanRuns(unittest.TestCase):
    """Which backtick run closes which: the next run of the same length, else none (CommonMark 6.1)."""

    def test_each_run_is_closed_by_the_next_of_its_length(self) -> None:
        cases = [
            ("no code", [], []),
            # "a ` b `` c ``": runs at [2, 3) (one), [6, 8) and [11, 13) (two); the single one has no partner.
            ("a ` b `` c ``", [(2, 3), (6, 8), (11, 13)], [None, 2, None]),
            # "`x` `y`": four single runs at 0, 2, 4 and 6; each is closed by the next, the last by none.
            ("`x` `y`", [(0, 1), (2, 3), (4, 5), (6, 7)], [1, 2, 3, None]),
            # A long run between two short ones does not close them: "``a`b``" has runs [0, 2), [3, 4), [5, 7).
            ("``a`b``", [(0, 2), (3, 4), (5, 7)], [2, None, None]),
        ]
        for text, runs, following in cases:
            with self.subTest(text=text):
                self.assertEqual(code_spans.backtick_runs(text), (runs, following))


class AttributeLists(unittest.TestCase):
    """Rule G: an attribute list at the end of a heading leaves its section's title; no offset moves."""

    def test_attribute_lists_leave_titles(self) -> None:
        # "# Check the password { #check-the-password }" is 44 characters: the body starts at 45.
        sections = grammars.document_sections(
            "# Check the password { #check-the-password }\nText\n", "blocks-3", "t", TITLE
        )
        self.assertEqual(
            [(s.title, s.heading_start, s.body_start, s.body_end) for s in sections],
            [("Check the password", 0, 45, 50)],
        )
        cases = [
            ("## Options {#opts data-x=1}\nText\n", "Options"),
            ("## Options {: .api #opts }\nText\n", "Options"),
            ("Setup {: .note #s }\n=====\nText\n", "Setup"),
            ("# Set {x}\nText\n", "Set {x}"),
            ("# Braces {#a} inside\nText\n", "Braces {#a} inside"),
        ]
        for text, title in cases:
            with self.subTest(text=text):
                self.assertEqual(read(text)[0][0], title)
                self.assertEqual(read(text, "blocks-2")[0][0], text.split("\n")[0].lstrip("# ").strip())


class MkdocstringsDirectives(unittest.TestCase):
    """Rule H: ``::: name`` with its indented options is a block of its own; the headings after it end sections."""

    def test_a_dotted_directive_and_its_options(self) -> None:
        # "# API\n" [0, 6), "::: pkg.mod.Thing\n" [6, 24), "    options:\n" [24, 37), "      show: true\n" [37, 54),
        # "\n" [54, 55), "## After\n" [55, 64), "Text\n" [64, 69).
        text = "# API\n::: pkg.mod.Thing\n    options:\n      show: true\n\n## After\nText\n"
        self.assertEqual(
            read(text), [("API", [("directive", "pkg.mod.Thing", 6, 54)]), ("After", [("paragraph", "", 64, 69)])]
        )

    def test_a_bare_name_that_nothing_closes_is_a_directive_not_a_container_to_the_end(self) -> None:
        # "::: pydantic_settings\n" [0, 22), "# Next\n" [22, 29), "Text\n" [29, 34).
        text = "::: pydantic_settings\n# Next\nText\n"
        self.assertEqual(
            read(text), [(TITLE, [("directive", "pydantic_settings", 0, 22)]), ("Next", [("paragraph", "", 29, 34)])]
        )
        self.assertEqual(read(text, "blocks-2"), [(TITLE, [("admonition", "pydantic_settings", 0, 34)])])
        self.assertEqual(read("::: mymod\n# Next\nText\n")[1][0], "Next")

    def test_a_bare_name_with_options_before_a_closing_line_is_a_directive(self) -> None:
        # "::: mymod\n" [0, 10), "    options:\n" [10, 23), "      a: 1\n" [23, 34), "\n", "Text\n" [35, 40), "\n", ":::\n".
        self.assertEqual(
            read("::: mymod\n    options:\n      a: 1\n\nText\n\n:::\n")[0][1][:2],
            [
                ("directive", "mymod", 0, 34),
                ("paragraph", "", 35, 40),
            ],
        )

    def test_a_colon_container_closed_later_is_still_one(self) -> None:
        # "::: tip\n" [0, 8), "Body.\n" [8, 14), ":::\n" [14, 18).
        self.assertEqual(read("::: tip\nBody.\n:::\n"), [(TITLE, [("admonition", "tip", 0, 18)])])


class Mdx(unittest.TestCase):
    """Rule F: ESM lines and expressions are opaque blocks; JSX elements are read as HTML elements are."""

    def test_esm_lines_run_to_a_blank_line(self) -> None:
        # "import {A} from './a.js'\n" [0, 25), "export const b = 1\n" [25, 44), "\n", "# T\n" [45, 49), "\n",
        # "<A>\n" [50, 54), "\n", "Hi\n" [55, 58), "\n", "</A>\n" [59, 64).
        text = "import {A} from './a.js'\nexport const b = 1\n\n# T\n\n<A>\n\nHi\n\n</A>\n"
        self.assertEqual(read(text), [(TITLE, [("esm", "", 0, 44)]), ("T", [("html", "a", 50, 64)])])

    def test_an_esm_line_neither_interrupts_a_paragraph_nor_is_a_word_that_starts_so(self) -> None:
        for text in ("Text\nimport x\n", "important: read this\n", "exporter runs\n"):
            with self.subTest(text=text):
                self.assertEqual(read(text), [(TITLE, [("paragraph", "", 0, len(text))])])

    def test_an_expression_runs_to_its_closing_brace(self) -> None:
        # "{\n" [0, 2), "  /* c */\n" [2, 12), "\n", "  1\n" [13, 17), "}\n" [17, 19), "Text\n" [19, 24).
        self.assertEqual(
            read("{\n  /* c */\n\n  1\n}\nText\n"), [(TITLE, [("expression", "", 0, 19), ("paragraph", "", 19, 24)])]
        )
        # Never closed, or a template's "{{ x }}": paragraph text.
        for text in ("{\nText\n", "{{ config.site_name }}\nText\n"):
            with self.subTest(text=text):
                self.assertEqual(read(text), [(TITLE, [("paragraph", "", 0, len(text))])])


class Blocks3InTheLab(LabTestCase):
    """blocks-3 end to end: a folder pin takes .mdx pages, scan reads a warning shortcode as a warning."""

    def test_pin_takes_mdx_pages_and_scan_reads_a_warning_shortcode_as_a_warning(self) -> None:
        docs = self.folder / "docs"
        docs.mkdir()
        (docs / "start.md").write_text(
            "# Start\n\nRun `tool serve` to start it.\n\n{{% warning %}}\n`tool serve` refuses a port below 1024.\n"
            "{{% /warning %}}\n",
            encoding="utf-8",
        )
        (docs / "intro.mdx").write_text("import {Note} from './note.jsx'\n\n# Intro\n\nText.\n", encoding="utf-8")
        pinned = run_lab("pin", "--markdown", "blocks-3", "--manifest", "m.json", "docs", cwd=self.folder)
        self.assertEqual(pinned.returncode, 0, pinned.stderr)
        value = json.loads((self.folder / "m.json").read_text(encoding="utf-8"))
        self.assertEqual([source["source_id"] for source in value["sources"]], ["docs/intro", "docs/start"])
        self.assertEqual(value["markdown"], "blocks-3")
        scanned = run_lab("scan", "--manifest", "m.json", "--json", cwd=self.folder)
        self.assertEqual(scanned.returncode, 0, scanned.stderr)
        pairs = json.loads(scanned.stdout)["pairs"]
        # Read as "!!! warning" is: a cautionary block, its caveat the block's text without the marker lines.
        self.assertEqual([(pair["rule"], pair["cue"]) for pair in pairs], [("cautionary block", "warning admonition")])
        self.assertEqual(pairs[0]["qualifier"]["quote"], "`tool serve` refuses a port below 1024.")
        self.assertEqual(pairs[0]["instruction"]["quote"], "Run `tool serve` to start it.")
        built = run_lab("--manifest", "m.json", "--output", "r.json", cwd=self.folder)
        self.assertEqual(built.returncode, 0, built.stderr)
        configs = json.loads((self.folder / "r.json").read_text(encoding="utf-8"))["indexes"]["paragraph"]["config"]
        self.assertEqual(configs, {"strategy": "paragraph", "version": 1, "max_chars": None, "markdown": "blocks-3"})


if __name__ == "__main__":
    unittest.main()
