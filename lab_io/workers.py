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
ignores the interrupt key: Ctrl-C reaches the command, which stops the workers as it leaves.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial

# Work of fewer bytes runs in this process: starting workers and sending their answers back would cost more than
# they save (a worker reads about 4 MB of pages a second).
MIN_SHARED_BYTES = 1_000_000
# No worker gets less than this: a docs set of 3 MB is read by at most three workers, however many CPUs there are.
MIN_WORKER_BYTES = 1_000_000
# Batches per worker: a worker that draws slow pages takes fewer batches, so all end at about the same time.
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
        jobs = 1 if size < MIN_SHARED_BYTES else min(available_cpus(), size // MIN_WORKER_BYTES)
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


def ignore_interrupt() -> None:
    """A worker's start: the interrupt key is the command's to act on, not each worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def mapped(function: Callable, work: Iterable, workers: int, *arguments) -> Iterator:
    """``function(piece, *arguments)`` for each piece of ``work``, in order: in this process for ``workers`` 1,
    else in that many forked processes (``function`` must be a module's own, and its answers and errors must
    pickle). An error raised for a piece is raised here when that piece's turn comes, as it would be in this
    process; the workers are stopped when the answers are read or the caller stops reading them."""
    call = partial(call_with, function, arguments)
    if workers <= 1:
        yield from map(call, work)
        return
    with multiprocessing.get_context("fork").Pool(workers, initializer=ignore_interrupt) as pool:
        yield from pool.imap(call, work)


def call_with(function: Callable, arguments: tuple, piece):
    """``function(piece, *arguments)``: a piece first, the arguments every piece shares after it."""
    return function(piece, *arguments)
