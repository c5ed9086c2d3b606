"""Independent pieces of work shared out among worker processes, where the machine has CPUs to spare and the work
outweighs their start.

``scan`` reads each page on its own (its sections, then its sentences and pairs), and a page's findings are a
function of that page alone (``checks.caveats.scan_cache``): on a machine of several CPUs the pages are read in
that many processes. Each batch's answer comes back in the order the batches were given, so what a command
prints and writes is the same for any number of processes.

Workers are forked, never spawned: a forked worker starts with this process's imported modules and compiled
patterns, where a spawned one imports the lab again (the caveat rules compile about 240 patterns, 0.1 s of a scan
that may take a second). Where the platform does not fork (Windows), or forking a process that has used the
system's frameworks is unsafe (macOS), and for work under ``MIN_SHARED_BYTES``, it runs in this process. A worker
ignores the interrupt key: Ctrl-C reaches the command, which stops the workers as it leaves. No thread is started
(``multiprocessing.Pool`` starts three, and waits for ever on a worker that was killed): each worker answers through
a pipe of its own, and one that closes without an answer is a refusal.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing import connection

from lab_io.errors import IngestionError

# Work of fewer bytes runs in this process: starting workers and sending their answers back would cost more than
# they save (a worker reads about 4 MB of pages a second).
MIN_SHARED_BYTES = 1_000_000
# Workers per MB of work, a started MB counted whole: a docs set of 3 MB is read by at most three workers, however
# many CPUs there are.
MIN_WORKER_BYTES = 1_000_000
# Batches per worker, dealt out in turn (worker w of n takes batches w, w + n, …): a stretch of slow pages is shared.
BATCHES_PER_WORKER = 4


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether workers can be forked safely here: Linux and the other Unixes, not Windows (no fork) or macOS."""
    return sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods()


def worker_count(jobs: int | None, size: int) -> int:
    """How many processes read work of ``size`` bytes: ``jobs`` when given (1: this process alone), else one per
    CPU and per ``MIN_WORKER_BYTES``, and 1 for work under ``MIN_SHARED_BYTES``; always 1 where workers cannot be
    forked (``can_fork``)."""
    if not can_fork():
        return 1
    if jobs is None:
        # (From 1 MB, two at least: "per MB" counts a started one, so 1.5 MB of pages is shared too.)
        jobs = 1 if size < MIN_SHARED_BYTES else min(available_cpus(), max(2, -(-size // MIN_WORKER_BYTES)))
    return max(1, jobs)


def batches(items: Sequence, sizes: Sequence[int], workers: int) -> list[list]:
    """``items`` in order, cut into consecutive batches of about an equal share of ``sizes``, ``BATCHES_PER_WORKER``
    a worker: ``batches("abcd", [1, 1, 1, 1], 1)`` -> ``[["a"], ["b"], ["c"], ["d"]]``."""
    share = max(1, sum(sizes) // max(1, workers * BATCHES_PER_WORKER))
    cut: list[list] = []
    batch: list = []
    held = 0
    for item, size in zip(items, sizes):
        batch.append(item)
        held += size
        if held >= share:
            cut.append(batch)
            batch, held = [], 0
    if batch:
        cut.append(batch)
    return cut


def mapped(function: Callable, work: Iterable, workers: int, *arguments) -> Iterator:
    """``function(piece, *arguments)`` for each piece of ``work``, in order: in this process for ``workers`` 1,
    else in that many forked processes (``function`` must be a module's own, its answers must pickle).

    Worker ``w`` of ``n`` is given pieces ``w``, ``w + n``, ``w + 2n`` … and sends each answer back through a pipe
    of its own as soon as it has it; answers that come before their turn wait here. An ``IngestionError`` raised
    for a piece is raised here when that piece's turn comes, as it would be in this process; a worker that stops
    without answering (killed by the OOM killer, a signal) is refused as ``worker_failed`` as soon as that is seen.
    Every worker is stopped when the answers are read, or when the caller stops reading them (an error, Ctrl-C).
    """
    work = list(work)
    workers = min(workers, len(work))
    started = [] if workers <= 1 else started_workers(function, work, workers, arguments)
    if not started:
        yield from (function(piece, *arguments) for piece in work)
        return
    try:
        arrived: dict[int, tuple] = {}
        # The next piece each worker answers, counted from its first; a worker that sent a refusal sends no more, and
        # its pipe's closing after it is no failure.
        answered = [0] * workers
        refused: set[int] = set()
        for turn in range(len(work)):
            while turn not in arrived:
                waiting = [
                    started[number][1]
                    for number in range(workers)
                    if number not in refused and answered[number] * workers + number < len(work)
                ]
                for ready in connection.wait(waiting):
                    number = next(number for number, (_, receiving) in enumerate(started) if receiving is ready)
                    answer = arrived[answered[number] * workers + number] = received(ready, number, started)
                    answered[number] += 1
                    if answer[0] == "error":
                        refused.add(number)
            kind, value = arrived.pop(turn)
            if kind == "error":
                raise value
            yield value
    finally:
        stopped(started)


def started_workers(function: Callable, work: list, workers: int, arguments: tuple) -> list:
    """``workers`` processes forked, each with its pieces and the pipe it answers through; none (the work is then
    done in this process, to the same answers) where the system will not start them: a limit on processes, no
    memory to fork, no pipe left.

    The interrupt key is held back while they start, so Ctrl-C then reaches this process alone, once every worker
    ignores it (``serve``), and stops them all through the caller's ``finally``."""
    context = multiprocessing.get_context("fork")
    started: list = []
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for number in range(workers):
            receiving, sending = context.Pipe(duplex=False)
            # (The reading ends, its own and those of the workers before it, are passed for it to close: the fork
            # gives it them all. A pipe is then read by this process alone, and a worker's answer to a command that
            # is gone fails at once rather than waiting for ever on a reader that is the worker itself.)
            inherited = [receiving] + [earlier for _, earlier in started]
            process = context.Process(
                target=serve, args=(sending, function, work[number::workers], arguments, inherited), daemon=True
            )
            try:
                process.start()
            finally:
                sending.close()
            started.append((process, receiving))
    except OSError:
        stopped(started)
        return []
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return started


def stopped(started: list) -> None:
    """Every worker killed if it still runs, reaped, and its pipe closed."""
    for process, receiving in started:
        if process.is_alive():
            process.kill()
        process.join()
        receiving.close()


def received(receiving, number: int, started: list) -> tuple:
    """The next answer from worker ``number``; ``worker_failed`` if it stopped before sending one."""
    try:
        return receiving.recv()
    except (EOFError, OSError):
        # (A worker killed while it sends an answer leaves half a message: "got end of file during message".)
        process = started[number][0]
        process.join(timeout=5)
        code = process.exitcode
        how = (
            f"was stopped by signal {-code} (out of memory?)"
            if code is not None and code < 0
            else f"exited with {code} (its error is above)"
        )
        raise IngestionError(
            "worker_failed",
            f"worker {number + 1} of {len(started)} (process {process.pid})",
            f"{how} before it answered; --jobs 1 does the work in the command's own process",
        ) from None


def serve(sending, function: Callable, pieces: list, arguments: tuple, inherited: list = ()) -> None:
    """A worker: each piece's answer sent in order, until an error, which is sent in its place and ends the work;
    ``inherited``: the reading ends of the pipes, its own among them, which the fork gave it and it closes.

    The interrupt key is the command's to act on, not each worker's; the termination signals kill a worker as they
    would any process (the command's handlers, inherited by the fork, would turn them into exceptions here)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stopping = {signal.SIGTERM, signal.SIGHUP}
    for number in stopping:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, stopping | {signal.SIGINT})
    for pipe in inherited:
        pipe.close()
    try:
        for piece in pieces:
            try:
                sending.send(("answer", function(piece, *arguments)))
            except IngestionError as error:
                sending.send(("error", error))
                return
    except OSError:
        # The command is gone (killed, its pipe closed): there is no one to answer, and nothing to say.
        return
    finally:
        sending.close()
