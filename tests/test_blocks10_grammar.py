"""The block grammar, version 10 (``SPEC.md``, "The block grammar, version 10"): "blocks-9" with YAML front matter
closed by a line of ``...`` too (rule V), as pandoc's and hotdoc's pages write it. Each rule on a short text written
for the test; offsets counted by hand, and "blocks-9" read on the same text to show what it made of it."""

from __future__ import annotations

import random
import unittest

import grammars
from judge.judgement import counted_text
from lab_io.errors import IngestionError
from source_pins import front_matter_title
from tests.support import LabTestCase
from tests.test_blocks6_grammar import TITLE, pinned_built_validated, read
from tests.test_fast_paths import random_page_lines


def read9(text: str):
    return read(text, "blocks-9")


def read10(text: str):
    return read(text, "blocks-10")


class YamlDocumentEnd(unittest.TestCase):
    """Rule V: a ``---`` front matter ends at the first later line of ``---`` or ``...``; ``+++`` at ``+++`` alone."""

    def test_dots_close_yaml_front_matter(self) -> None:
        # "---\n" [0, 4); "title: A\n" (9) [4, 13); "...\n" [13, 17); "# Intro\n" [17, 25); "Body\n" [25, 30).
        text = "---\ntitle: A\n...\n# Intro\nBody\n"
        self.assertEqual(len(text), 30)
        self.assertEqual(grammars.front_matter_end(text, "t", True), 17)
        self.assertEqual(read10(text), [("Intro", 17, 25, [("paragraph", 25, 30, "")])])
        # blocks-9: no "---" closes it, so the page is refused.
        with self.assertRaises(IngestionError) as raised:
            read9(text)
        self.assertEqual(raised.exception.code, "front_matter_unclosed")
        self.assertEqual(
            raised.exception.what, 'front matter opened by "---" at line 1 is never closed by a "---" line'
        )

    def test_the_first_closing_line_of_either_kind_ends_it(self) -> None:
        # "---\n" [0, 4); "a: 1\n" [4, 9); "...\n" [9, 13); "# T\n" [13, 17); a blank line; "One.\n" [18, 23); a blank
        # line; "---\n" [24, 28) a thematic break; a blank line; "Two.\n" [29, 34).
        text = "---\na: 1\n...\n# T\n\nOne.\n\n---\n\nTwo.\n"
        self.assertEqual(len(text), 34)
        self.assertEqual(read10(text), [("T", 13, 17, [("paragraph", 18, 23, ""), ("paragraph", 29, 34, "")])])
        # blocks-9 took the thematic break for the end of the front matter: the heading and "One." vanished into it,
        # and "Two." lay in the page's untitled opening section.
        self.assertEqual(read9(text), [(TITLE, 28, 28, [("paragraph", 29, 34, "")])])
        # A "---" before any "..." still closes it: "---\n" [0, 4); "a: 1\n" [4, 9); "---\n" [9, 13).
        self.assertEqual(grammars.front_matter_end("---\na: 1\n---\n...\n", "t", True), 13)

    def test_only_three_dots_alone_close_it(self) -> None:
        # Trailing spaces and tabs are allowed, as for "---"; "....", ". . ." and indented dots are YAML text.
        self.assertEqual(grammars.front_matter_end("---\na: 1\n... \t\nx\n", "t", True), 15)
        for line in ("....", " ...", ". . .", "...x"):
            with self.subTest(line=line):
                with self.assertRaises(IngestionError) as raised:
                    grammars.front_matter_end(f"---\na: 1\n{line}\nx\n", "t", True)
                self.assertEqual(
                    raised.exception.what,
                    'front matter opened by "---" at line 1 is never closed by a "---" or "..." line',
                )

    def test_toml_front_matter_is_not_closed_by_dots(self) -> None:
        # "+++\n" [0, 4); "a = 1\n" [4, 10); "...\n" [10, 14) TOML text; "+++\n" [14, 18); "# T\n" [18, 22);
        # "x\n" [22, 24).
        text = "+++\na = 1\n...\n+++\n# T\nx\n"
        self.assertEqual(read10(text), [("T", 18, 22, [("paragraph", 22, 24, "")])])
        with self.assertRaises(IngestionError) as raised:
            grammars.front_matter_end("+++\na = 1\n...\n# T\n", "t", True)
        self.assertEqual(
            raised.exception.what, 'front matter opened by "+++" at line 1 is never closed by a "+++" line'
        )

    def test_dots_anywhere_but_in_front_matter_are_text(self) -> None:
        # "# T\n" [0, 4); "...\n" [4, 8): a paragraph, as under blocks-9.
        self.assertEqual(read10("# T\n...\n"), [("T", 0, 4, [("paragraph", 4, 8, "")])])
        self.assertEqual(read10("# T\n...\n"), read9("# T\n...\n"))

    def test_liquid_tags_after_dots_front_matter_are_read(self) -> None:
        # "---\n" [0, 4); "a: 1\n" [4, 9); "...\n" [9, 13); '{% hint style="info" %}\n' (24) [13, 37);
        # "Mind it.\n" [37, 46); "{% endhint %}\n" (14) [46, 60). Rule U counts tag lines after the front matter.
        text = '---\na: 1\n...\n{% hint style="info" %}\nMind it.\n{% endhint %}\n'
        self.assertEqual(len(text), 60)
        self.assertEqual(read10(text), [(TITLE, 13, 13, [("admonition", 13, 60, "info")])])

    def test_pages_without_dots_front_matter_read_as_under_blocks_9(self) -> None:
        rng = random.Random(10)
        pieces = ("---", "...", "... ", "+++", "title: A", "# H", "text")
        compared = 0
        for _ in range(200):
            lines = [rng.choice(pieces) for _ in range(rng.randint(0, 4))] + random_page_lines(rng)
            if dots_close_it_first(lines):
                continue
            compared += 1
            text = "\n".join(lines) + "\n"
            with self.subTest(text=text):
                self.assertEqual(reading(text, "blocks-10"), reading(text, "blocks-9"))
        self.assertGreater(compared, 150)


def dots_close_it_first(lines: list[str]) -> bool:
    """Whether a ``---`` front matter's first closing line is ``...``: rule V's one change, told line by line."""
    if not lines or lines[0].rstrip(" \t") != "---":
        return False
    for line in lines[1:]:
        if line.rstrip(" \t") in ("---", "..."):
            return line.rstrip(" \t") == "..."
    return False


def reading(text: str, grammar: str):
    """The sections ``read`` gives, or the code of the refusal."""
    try:
        return read(text, grammar)
    except IngestionError as refused:
        return refused.code


class FrontMatterReaders(unittest.TestCase):
    """What else reads the front matter reads it as the manifest's grammar does: a page's title, a judge's count."""

    def test_the_title_is_read_from_dots_front_matter(self) -> None:
        page = "---\ntitle: Compiling D\nshort-description: D sources\n...\n# D\n"
        self.assertEqual(front_matter_title(page, "blocks-10"), "Compiling D")
        # blocks-9 reads no front matter it can close: no title.
        self.assertIsNone(front_matter_title(page, "blocks-9"))

    def test_judge_counts_the_text_after_it(self) -> None:
        # "---\n" [0, 4); "a: 1\n" [4, 9); "...\n" [9, 13); "# T\n" [13, 17): "#" and "T", 2 characters.
        source = {"source_id": "a", "text": "---\na: 1\n...\n# T\n"}
        self.assertEqual(counted_text((source,), "blocks-10"), {"a": (13, 2)})


class Blocks10InTheLab(LabTestCase):
    """blocks-10 end to end: pinned, built, validated, its config named; a hotdoc page's body is chunked."""

    def test_a_hotdoc_page(self) -> None:
        # "---\n" [0, 4); "title: D\n" (9) [4, 13); "...\n" [13, 17); a blank line; "# D\n" [18, 22); a blank line;
        # "Never mix compilers.\n" (21) [23, 44).
        page = "---\ntitle: D\n...\n\n# D\n\nNever mix compilers.\n"
        paragraph = pinned_built_validated(self, "blocks-10", page)
        self.assertEqual(
            [(chunk["start"], chunk["end"], chunk["text"]) for chunk in paragraph["chunks"]],
            [(23, 44, "Never mix compilers.\n")],
        )
        self.assertEqual(paragraph["documents"][0]["title"], "D")


if __name__ == "__main__":
    unittest.main()
