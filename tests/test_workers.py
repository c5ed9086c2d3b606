"""Work shared among worker processes (``lab_io.workers``): answers in the order given, errors raised in turn, and
a scan that finds the same in any number of processes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
import unittest
from unittest import mock

from lab_io import workers
from lab_io.errors import IngestionError
from tests.support import ROOT, LabTestCase, run_lab
from tests.test_caveat_scan import main_quietly

EXAMPLES = ROOT / "docs" / "examples" / "manifest.json"


def squared_or_refused(piece, offset: int):
    """A piece's square plus ``offset``; a refusal for a piece that is not a number."""
    if not isinstance(piece, int):
        raise IngestionError("not_a_number", f"piece {piece}", "expected a whole number")
    return piece * piece + offset


def slow_first(piece, pieces: int):
    """A piece's own value, the earlier pieces slower: the later ones are answered first."""
    time.sleep(0.01 * (pieces - piece))
    return piece


def killed_at(piece, doomed):
    """A piece's own value; the worker that draws ``doomed`` is killed as the OOM killer kills, without a word."""
    if piece == doomed:
        os.kill(os.getpid(), signal.SIGKILL)
    return piece


def pipes_read(piece):
    """The pipes the process that reads ``piece`` holds a reading end of, by inode (Linux's /proc)."""
    inodes = []
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
            with open(f"/proc/self/fdinfo/{name}", encoding="ascii") as info:
                flags = next(int(line.split()[1], 8) for line in info if line.startswith("flags:"))
        except OSError:
            continue  # (the listing's own descriptor, closed by now)
        if target.startswith("pipe:") and flags & os.O_ACCMODE == os.O_RDONLY:
            inodes.append(int(target[len("pipe:[") : -1]))
    return sorted(inodes)


def run_alone_and_shared(*argv: str) -> tuple[tuple, tuple, list[tuple[int, int]]]:
    """The command in-process with ``--jobs 1``, then with ``--jobs 2``, and each sharing of the second (``mapped``'s
    worker count and its number of batches)."""
    shared = []
    real = workers.mapped

    def recorded(function, work, count, *arguments):
        shared.append((count, len(work)))
        return real(function, work, count, *arguments)

    alone = main_quietly(*argv, "--jobs", "1")
    with mock.patch.object(workers, "mapped", recorded):
        two = main_quietly(*argv, "--jobs", "2")
    return alone, two, shared


class BatchesTest(LabTestCase):
    """Pieces cut in order, of about an equal share of the sizes, ``BATCHES_PER_WORKER`` a worker."""

    def test_equal_sizes_make_equal_batches(self) -> None:
        # 8 pieces of 1, 2 workers: 8 batches wanted, a share of 8 // 8 = 1 each.
        self.assertEqual(workers.batches(list("abcdefgh"), [1] * 8, 2), [[c] for c in "abcdefgh"])
        # 1 worker: 4 batches, a share of 2.
        self.assertEqual(
            workers.batches(list("abcdefgh"), [1] * 8, 1), [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]]
        )

    def test_a_large_piece_ends_its_batch_and_the_rest_keep_their_order(self) -> None:
        # Sizes 1, 9, 1, 1 over 1 worker: a share of 12 // 4 = 3; "b" fills one batch, the last two are left over.
        self.assertEqual(workers.batches(list("abcd"), [1, 9, 1, 1], 1), [["a", "b"], ["c", "d"]])
        self.assertEqual(workers.batches([], [], 4), [])


class WorkerCountTest(LabTestCase):
    """How many processes: the option's number, else one per CPU and MB of work, and one where fork is not safe."""

    def test_given_jobs_are_taken_and_small_work_stays_here(self) -> None:
        with mock.patch.object(workers, "can_fork", return_value=True):
            self.assertEqual(workers.worker_count(3, 10), 3)
            self.assertEqual(workers.worker_count(None, workers.MIN_SHARED_BYTES - 1), 1)
            with mock.patch.object(workers, "available_cpus", return_value=8):
                # 2.5 MB: one worker per MB begun (3), not per CPU (8); 1.5 MB: two, shared from 1 MB on.
                self.assertEqual(workers.worker_count(None, 2_500_000), 3)
                self.assertEqual(workers.worker_count(None, 1_500_000), 2)
                self.assertEqual(workers.worker_count(None, 3_000_000), 3)
                self.assertEqual(workers.worker_count(None, 20_000_000), 8)

    def test_no_worker_where_the_platform_does_not_fork_safely(self) -> None:
        with mock.patch.object(sys, "platform", "darwin"):
            self.assertFalse(workers.can_fork())
            self.assertEqual(workers.worker_count(4, 20_000_000), 1)


class MappedTest(LabTestCase):
    """Answers in order from two processes as from this one; a refusal raised when its piece's turn comes."""

    def test_two_processes_answer_in_the_order_given(self) -> None:
        pieces = list(range(12))
        expected = [piece * piece + 5 for piece in pieces]
        self.assertEqual(list(workers.mapped(squared_or_refused, pieces, 1, 5)), expected)
        self.assertEqual(list(workers.mapped(squared_or_refused, pieces, 2, 5)), expected)
        # Worker 2's pieces 1, 3, 5 … are each quicker than worker 1's 0, 2, 4 …: they wait for their turn.
        self.assertEqual(list(workers.mapped(slow_first, list(range(8)), 2, 8)), list(range(8)))

    def test_where_no_worker_can_be_started_the_work_is_done_here(self) -> None:
        with mock.patch("multiprocessing.context.Process.start", side_effect=OSError(11, "Resource unavailable")):
            self.assertEqual(list(workers.mapped(squared_or_refused, [1, 2, 3], 2, 0)), [1, 4, 9])
        self.assertEqual(multiprocessing.active_children(), [])

    def test_a_worker_s_refusal_comes_back_whole_after_the_answers_before_it(self) -> None:
        answers = workers.mapped(squared_or_refused, [1, 2, "x\n", 4], 2, 0)
        self.assertEqual([next(answers), next(answers)], [1, 4])
        with self.assertRaises(IngestionError) as raised:
            next(answers)
        # Rebuilt as made: the line break in its place, escaped when the worker made it, is not escaped twice.
        self.assertEqual(str(raised.exception), "not_a_number: piece x\\n: expected a whole number")
        self.assertEqual(raised.exception.code, "not_a_number")

    def test_a_worker_killed_before_it_answers_is_refused_and_none_is_left_running(self) -> None:
        # Worker 2 of 2 is given pieces 1, 3, 5, and killed on the first.
        answers = []
        with self.assertRaises(IngestionError) as raised:
            for answer in workers.mapped(killed_at, list(range(6)), 2, 1):
                answers.append(answer)
        # Refused as soon as it is seen: before piece 0's answer is read, or after, never later.
        self.assertIn(answers, ([], [0]))
        self.assertEqual(raised.exception.code, "worker_failed")
        self.assertRegex(
            str(raised.exception),
            r"^worker_failed: worker 2 of 2 \(process \d+\): was stopped by signal 9 \(out of memory\?\) before",
        )
        self.assertEqual(multiprocessing.active_children(), [])

    @unittest.skipUnless(os.path.isdir("/proc/self/fd"), "reads the open descriptors from Linux's /proc")
    def test_no_worker_holds_a_pipe_s_reading_end(self) -> None:
        # Were one held (its own, inherited by the fork), a worker whose command is gone would wait for ever to write.
        started = workers.started_workers(pipes_read, [0, 1, 2], 3, ())
        try:
            readers = {os.fstat(receiving.fileno()).st_ino for _, receiving in started}
            self.assertEqual(len(readers), 3)
            for _, receiving in started:
                kind, held = receiving.recv()
                self.assertEqual(kind, "answer")
                self.assertEqual(readers & set(held), set())
        finally:
            workers.stopped(started)

    def test_a_reader_that_stops_early_stops_the_workers(self) -> None:
        answers = workers.mapped(squared_or_refused, list(range(40)), 3, 0)
        self.assertEqual(next(answers), 0)
        answers.close()
        self.assertEqual(multiprocessing.active_children(), [])


class ScanJobsTest(LabTestCase):
    """``scan --jobs``: the same findings in any number of processes, and a number outside 1 to 64 refused."""

    def test_two_processes_find_what_one_does(self) -> None:
        alone, two, shared = run_alone_and_shared("scan", "--json", "--tier", "3", "--manifest", str(EXAMPLES))
        self.assertEqual(alone[0], 0, alone[2])
        self.assertEqual(two, alone)
        # The example docs set's pages went to two processes, in more batches than one (8 wanted, 4 a worker).
        self.assertEqual(len(shared), 1)
        self.assertEqual(shared[0][0], 2)
        self.assertGreater(shared[0][1], 2)
        self.assertIn('"source_id": "parcel-queue/reference/limits"', alone[1])

    def test_a_number_of_jobs_outside_the_range_is_a_usage_error(self) -> None:
        for value in ("0", "65", "two", "-1"):
            with self.subTest(value=value):
                done = run_lab("scan", "--manifest", str(EXAMPLES), "--jobs", value)
                self.assertEqual(done.returncode, 2)
                self.assertIn(f"argument --jobs: expected a whole number from 1 to 64, found {value!r}", done.stderr)
                self.assertEqual(len(done.stderr.splitlines()), 1)

    def test_context_scanned_in_two_processes_measures_what_one_does(self) -> None:
        runs = [
            main_quietly("context", "--scanned", "--json", "--manifest", str(EXAMPLES), "--jobs", jobs) for jobs in "12"
        ]
        self.assertEqual(runs[0][0], 0, runs[0][2])
        self.assertEqual(runs[1], runs[0])

    def test_context_takes_jobs_only_to_scan(self) -> None:
        done = run_lab("context", "--manifest", str(EXAMPLES), "--jobs", "2")
        self.assertEqual(done.returncode, 2)
        self.assertIn("--jobs sets how many processes scan; add --scanned to scan", done.stderr)


def slow_or_refused(piece):
    """``"slow"`` answered after a while, ``"bad"`` refused at once, anything else as it is."""
    if piece == "slow":
        time.sleep(0.2)
    if piece == "bad":
        raise IngestionError("bad_piece", "piece", "refused")
    return piece


class EarlyRefusalTest(LabTestCase):
    """A worker's refusal that comes before its turn waits for it: the worker's pipe closing after it is no failure."""

    def test_a_refusal_before_its_turn_is_the_refusal_raised(self) -> None:
        # Worker 1 of 2 has "slow" and 3, worker 2 "bad" and 4: its refusal arrives while "slow" is still read.
        answers = workers.mapped(slow_or_refused, ["slow", "bad", 3, 4], 2)
        self.assertEqual(next(answers), "slow")
        with self.assertRaises(IngestionError) as raised:
            next(answers)
        self.assertEqual(raised.exception.code, "bad_piece")
        self.assertEqual(multiprocessing.active_children(), [])


class HalfAnswerTest(LabTestCase):
    """A worker killed while it sends an answer leaves half a message: refused as a worker that failed."""

    def test_half_a_message_is_a_worker_that_failed(self) -> None:
        pipe = mock.Mock()
        pipe.recv.side_effect = OSError("got end of file during message")
        process = mock.Mock(exitcode=-9, pid=4321)
        with self.assertRaises(IngestionError) as raised:
            workers.received(pipe, 0, [(process, pipe), (mock.Mock(), mock.Mock())])
        self.assertEqual(
            str(raised.exception),
            "worker_failed: worker 1 of 2 (process 4321): was stopped by signal 9 (out of memory?) before it answered; "
            "--jobs 1 does the work in the command's own process",
        )
        process.exitcode = 1
        with self.assertRaises(IngestionError) as raised:
            workers.received(pipe, 0, [(process, pipe)])
        self.assertIn("exited with 1 (its error is above) before it answered", str(raised.exception))


class RetrieveJobsTest(LabTestCase):
    """``retrieve --jobs``: an index's queries ranked in two processes give the figures one process gives."""

    def test_two_processes_rank_as_one_does(self) -> None:
        alone, two, shared = run_alone_and_shared("retrieve", "--json", "--manifest", str(EXAMPLES))
        self.assertEqual(alone[0], 0, alone[2])
        self.assertEqual(two, alone)
        # One sharing per index the example manifest builds (fixed-char, paragraph, heading-aware), each in batches.
        self.assertEqual([count for count, _ in shared], [2, 2, 2])
        self.assertTrue(all(batches > 1 for _, batches in shared))
