"""JSON the lab prints: the same values to a JSON reader, no character that does not print left raw."""

from __future__ import annotations

import json
import unittest

from lab_io.inert_json import inert_json_pieces, inert_json_text
from tests.support import LabTestCase, run_lab

# Characters the sources may hold that act on a terminal or a reader instead of showing:
# DEL, the C1 controls CSI and NEL, the right-to-left override, an isolate, the line and
# paragraph separators, a zero-width space, and a language tag past U+FFFF.
UNPRINTABLE = "\x7f\x9b\x85\u202e\u2066\u2028\u2029\u200b\U000e0001"
# What json.dumps with ensure_ascii writes for each, worked out from the JSON grammar.
ESCAPED = "\\u007f\\u009b\\u0085\\u202e\\u2066\\u2028\\u2029\\u200b\\udb40\\udc01"


def raw_unprintable(text: str) -> list[str]:
    """The characters of ``text`` that do not print, besides the newline between JSON lines."""
    return sorted({character for character in text if not character.isprintable() and character != "\n"})


class EscapedText(unittest.TestCase):
    def test_each_character_that_does_not_print_becomes_its_escape(self) -> None:
        text = json.dumps(["caf\u00e9 \U0001f600 " + UNPRINTABLE], ensure_ascii=False)
        self.assertEqual(inert_json_text(text), '["caf\u00e9 \U0001f600 ' + ESCAPED + '"]')
        self.assertEqual(json.loads(inert_json_text(text)), json.loads(text))

    def test_printable_text_is_left_as_it_is(self) -> None:
        text = json.dumps({"a": ["x", 1, "é 漢字 \\n"]}, indent=2, ensure_ascii=False)
        self.assertEqual(inert_json_text(text), text)

    def test_del_in_otherwise_plain_ascii(self) -> None:
        # DEL is ASCII, yet does not print: text and pieces of ASCII alone are still checked for it.
        self.assertEqual(inert_json_text('["a\x7fb"]'), '["a\\u007fb"]')
        self.assertEqual(b"".join(inert_json_pieces([b'["a\x7fb"]'])), b'["a\\u007fb"]')

    def test_a_character_cut_between_two_pieces(self) -> None:
        # "é" is c3 a9 in UTF-8 and the CSI c2 9b: each cut in two between the pieces.
        pieces = [b'["\xc3', b"\xa9\xc2", b'\x9b"]', b"\n"]
        self.assertEqual(b"".join(inert_json_pieces(pieces)), b'["\xc3\xa9\\u009b"]\n')


class PrintedJson(LabTestCase):
    """Every JSON output of a manifest whose page holds such characters: inert, and the same values."""

    def setUp(self) -> None:
        super().setUp()
        page = "# Guide\n\nCall open(" + UNPRINTABLE + ") first.\n\nIt never opens a file twice.\n"
        (self.folder / "docs").mkdir()
        (self.folder / "docs" / "guide.md").write_text(page, encoding="utf-8")
        pinned = run_lab("pin", "--manifest", "m.json", "docs/guide.md", "--source-id", "guide", cwd=self.folder)
        self.assertEqual(pinned.returncode, 0, pinned.stderr)
        # A span check named with the same characters: the reports that quote no text still name it.
        manifest = json.loads((self.folder / "m.json").read_text(encoding="utf-8"))
        manifest["span_checks"] = [
            {
                "name": "open-" + UNPRINTABLE,
                "source_id": "guide",
                "instruction": {"quote": "Call open(" + UNPRINTABLE + ") first."},
                "qualifier": {"quote": "It never opens a file twice."},
            }
        ]
        (self.folder / "m.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
        built = run_lab("--manifest", "m.json", "--output", "result.json", cwd=self.folder)
        self.assertEqual(built.returncode, 0, built.stderr)
        self.saved = (self.folder / "result.json").read_text(encoding="utf-8")

    def printed(self, *args: str) -> str:
        completed = run_lab(*args, cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(raw_unprintable(completed.stdout), [])
        return completed.stdout

    def test_the_result_file_keeps_the_canonical_bytes_and_stdout_escapes(self) -> None:
        # The file is json.dumps(indent=2, ensure_ascii=False): the characters stay raw there.
        self.assertEqual(raw_unprintable(self.saved), sorted(set(UNPRINTABLE)))
        printed = self.printed("--manifest", "m.json", "--output", "-")
        self.assertIn(ESCAPED, printed)
        self.assertEqual(json.loads(printed), json.loads(self.saved))

    def test_export_and_every_json_report(self) -> None:
        exported = self.printed("export", "result.json", "--policy", "paragraph")
        self.assertIn(ESCAPED, exported)
        text = json.loads(self.saved)["indexes"]["paragraph"]["chunks"][0]["text"]
        self.assertEqual(json.loads(exported.splitlines()[0])["text"], text)
        # The same bytes go to a file.
        self.printed("export", "result.json", "--policy", "paragraph", "--output", "chunks.jsonl")
        self.assertEqual((self.folder / "chunks.jsonl").read_text(encoding="utf-8"), exported)
        chunks = self.folder / "judged.jsonl"
        chunks.write_text(json.dumps({"source_id": "guide", "text": text}) + "\n", encoding="utf-8")
        # scan quotes the instruction; context and judge name the check.
        for args in (
            ["scan", "--json", "--manifest", "m.json"],
            ["context", "--json", "--manifest", "m.json"],
            ["judge", str(chunks), "--json", "--manifest", "m.json"],
        ):
            with self.subTest(command=args[0]):
                printed = self.printed(*args)
                self.assertIn(ESCAPED, printed)
                self.assertIn(UNPRINTABLE, json.dumps(json.loads(printed), ensure_ascii=False))
        # diff names sources and chunks by id only; it is inert all the same.
        json.loads(self.printed("diff", "result.json", "result.json", "--json"))


if __name__ == "__main__":
    unittest.main()
