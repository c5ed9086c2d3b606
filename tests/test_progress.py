"""The progress line: shown only to a person at a terminal, only for work that runs a while, then cleared."""

from __future__ import annotations

import io
import unittest
from unittest import mock

from commands import show
from lab_io import progress
from tests.support import LabTestCase, run_lab


class FakeTerminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class StreamWithoutIsatty:
    """A text stream that cannot say whether it is a terminal; it keeps what is written to it."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def getvalue(self) -> str:
        return "".join(self.written)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def started(stream: io.StringIO, documents: int = 4, size: int = 4_000_000, environ: dict | None = None):
    clock = FakeClock()
    line = progress.Progress("building indexes", documents, size, stream, environ or {}, clock)
    return line, clock


class ProgressLineTest(unittest.TestCase):
    def test_nothing_before_the_delay_then_one_rewritten_line(self) -> None:
        terminal = FakeTerminal()
        line, clock = started(terminal)
        clock.now += 1.0
        line.advance(1, 1_000_000)
        self.assertEqual(terminal.getvalue(), "")
        clock.now += 1.5
        line.advance(1, 1_000_000)
        # 2 MB in 2.5 s: 0.8 MB/s; 2 MB left at that rate take 2.5 s.
        self.assertEqual(terminal.getvalue(), "\rbuilding indexes: 2 of 4 documents, 0.8 MB/s, about 3 s left")
        clock.now += 0.1
        line.advance(1, 1_000_000)
        self.assertEqual(terminal.getvalue().count("\r"), 1, "rewritten at most every REFRESH_SECONDS")
        clock.now += 0.5
        line.advance(1, 1_000_000)
        # 4 MB in 3.1 s, nothing left; padded over the longer line before it.
        self.assertEqual(
            terminal.getvalue().rsplit("\r", 1)[1].rstrip(), "building indexes: 4 of 4 documents, 1.3 MB/s"
        )

    def test_close_clears_the_line(self) -> None:
        terminal = FakeTerminal()
        line, clock = started(terminal)
        clock.now += 3
        line.advance(2, 2_000_000)
        shown = terminal.getvalue()[1:]
        line.close()
        self.assertTrue(terminal.getvalue().endswith("\r" + " " * len(shown) + "\r"))
        line.close()
        self.assertEqual(terminal.getvalue().count("\r"), 3, "a second close writes nothing")

    def test_a_shorter_line_covers_the_longer_one_before_it(self) -> None:
        terminal = FakeTerminal()
        line, clock = started(terminal, documents=1000, size=10**12)
        clock.now += 3
        line.advance(1, 10**6)
        first = terminal.getvalue()[1:]
        clock.now += 1
        line.advance(999, 10**12 - 10**6)
        second = terminal.getvalue()[len(first) + 2 :]
        self.assertEqual(len(second), len(first))
        self.assertTrue(second.startswith("building indexes: 1,000 of 1,000 documents"))

    def test_quiet_off_a_terminal_in_ci_and_on_a_dumb_terminal(self) -> None:
        for name, stream, environ in (
            ("pipe", io.StringIO(), {}),
            ("CI", FakeTerminal(), {"CI": "true"}),
            ("dumb terminal", FakeTerminal(), {"TERM": "dumb"}),
            ("no isatty", StreamWithoutIsatty(), {}),
        ):
            with self.subTest(name):
                line, clock = started(stream, environ=environ)
                clock.now += 10
                line.advance(4, 4_000_000)
                line.close()
                self.assertEqual(stream.getvalue(), "")

    def test_writing_passes_pieces_through_and_counts_megabytes(self) -> None:
        terminal = FakeTerminal()
        line, clock = started(terminal)
        clock.now += 3
        pieces = []
        for piece in line.writing(iter([b"a" * 3_000_000, b"b"]), "result.json"):
            pieces.append(piece)
            clock.now += 1
        self.assertEqual(pieces, [b"a" * 3_000_000, b"b"])
        self.assertIn("\rwriting result.json: 3 MB, 3 MB/s", terminal.getvalue())

    def test_a_new_stage_counts_from_zero_at_its_own_rate(self) -> None:
        terminal = FakeTerminal()
        line, clock = started(terminal)
        clock.now += 3
        line.advance(4, 4_000_000)
        line.stage("laying out the report", 10, 10_000_000)
        clock.now += 2
        line.advance(5, 1_000_000)
        # 1 MB in the stage's own 2 s: 0.5 MB/s, and 9 MB left take 18 s; no second delay before it shows.
        self.assertEqual(
            terminal.getvalue().rsplit("\r", 1)[1].rstrip(),
            "laying out the report: 5 of 10 documents, 0.5 MB/s, about 19 s left",
        )

    def test_work_of_no_size_is_timed_by_its_count(self) -> None:
        terminal = FakeTerminal()
        line, clock = started(terminal)
        line.stage("sweeping", 29, 0, unit="sizes")
        clock.now += 3
        line.advance(9, 0)
        # 9 sizes in 3 s: the other 20 take 6.7 s more.
        self.assertEqual(terminal.getvalue().rsplit("\r", 1)[1].rstrip(), "sweeping: 9 of 29 sizes, about 7 s left")

    def test_time_left_words(self) -> None:
        self.assertEqual(progress.time_left(0.2), "about 1 s left")
        self.assertEqual(progress.time_left(99.5), "about 100 s left")
        self.assertEqual(progress.time_left(125), "about 3 min left")


class ProgressInCommandsTest(LabTestCase):
    def test_main_job_and_validate_show_and_clear_the_line_on_a_terminal(self) -> None:
        output = self.folder / "result.json"
        manifest = self.copy_inputs()
        with (
            mock.patch.object(progress, "terminal_wanted", lambda stream, environ=None: True),
            mock.patch.object(progress, "DELAY_SECONDS", 0.0),
            mock.patch.object(progress, "REFRESH_SECONDS", 0.0),
        ):
            built = run_lab("--output", str(output), "--manifest", str(manifest))
            validated = run_lab("validate", str(output))
        self.assertEqual(built.returncode, 0, built.stderr)
        self.assertIn("\rbuilding indexes: 2 of 2 documents", built.stderr)
        self.assertIn(f"\rwriting {output}: 0 MB", built.stderr)
        self.assertTrue(built.stderr.endswith("\r"), "the line is cleared")
        self.assertTrue(built.stdout.startswith("policy "), "the table starts on its own line")
        self.assertEqual(validated.returncode, 0, validated.stderr)
        # Every policy is rebuilt in one pass over the two documents.
        self.assertIn("\rvalidating: 2 of 2 documents", validated.stderr)
        self.assertTrue(validated.stderr.endswith("\r"))

    def test_the_docs_workflow_commands_show_and_clear_the_line_on_a_terminal(self) -> None:
        manifest = self.copy_inputs()
        result = self.folder / "result.json"
        chunks = self.folder / "chunks.jsonl"
        self.assertEqual(run_lab("--output", str(result), "--manifest", str(manifest)).returncode, 0)
        exported = run_lab("export", str(result), "--policy", "paragraph", "--output", str(chunks))
        self.assertEqual(exported.returncode, 0, exported.stderr)
        # What each command says it is doing (the two fixture pages count in each).
        cases = {
            "scan": (["scan", "--manifest", str(manifest), "--json"], "\rscanning: 2 of 2 documents"),
            "context": (["context", "--manifest", str(manifest)], "\rmeasuring windows: 3 of 3 policies"),
            "sweep": (["sweep", "--manifest", str(manifest)], "\rsweeping: 29 of 29 sizes"),
            "export": (
                ["export", str(result), "--policy", "paragraph", "--output", str(self.folder / "again.jsonl")],
                f"\rwriting {self.folder / 'again.jsonl'}: 0 MB",
            ),
            "judge": (
                ["judge", str(chunks), "--manifest", str(manifest)],
                "\rcutting the lab's chunks: 2 of 2 documents",
            ),
            "diff": (["diff", str(result), str(result)], f"\rvalidating {result}: 2 of 2 documents"),
            # The fixture's one span check, ranked under each policy in turn.
            "retrieve": (["retrieve", "--manifest", str(manifest)], "\rranking heading-aware's chunks: 1 of 1 pairs"),
            "pin": (["pin", "--manifest", str(manifest), str(self.folder / "docs")], "\rpinning: 2 of 2 pages"),
            # More pages than the overview's bound: the docs set's overview, its indexes built first.
            "show": (["show", "--manifest", str(manifest)], "\rbuilding indexes: 2 of 2 documents"),
        }
        for name, (args, shown) in cases.items():
            with (
                self.subTest(command=name),
                mock.patch.object(show, "OVERVIEW_SOURCES", 1),
                mock.patch.object(progress, "terminal_wanted", lambda stream, environ=None: True),
                mock.patch.object(progress, "DELAY_SECONDS", 0.0),
                mock.patch.object(progress, "REFRESH_SECONDS", 0.0),
            ):
                completed = run_lab(*args)
                self.assertEqual(completed.returncode, 0, completed.stderr)
                self.assertIn(shown, completed.stderr)
                self.assertTrue(completed.stderr.endswith("\r"), "the line is cleared")
            with self.subTest(command=name, terminal=False), mock.patch.object(progress, "DELAY_SECONDS", 0.0):
                quiet = run_lab(*args)
                self.assertNotIn("\r", quiet.stderr)

    def test_nothing_on_stderr_when_it_is_not_a_terminal(self) -> None:
        output = self.folder / "result.json"
        with mock.patch.object(progress, "DELAY_SECONDS", 0.0):
            completed = run_lab("--output", str(output))
            self.assertEqual(completed.returncode, 0)
            self.assertEqual(completed.stderr, "")
            validated = run_lab("validate", str(output))
        self.assert_validated(validated, str(output), output)


if __name__ == "__main__":
    unittest.main()
