"""One updating progress line on stderr for the lab's long jobs, for a person watching a terminal.

A 400-document build runs for several seconds; without a sign of life it
looks hung. ``Progress`` shows documents done, the source megabytes per second
and the time left on one line that rewrites itself, and, for the writing
that follows, megabytes written. It shows nothing unless stderr is a
terminal, ``CI`` is unset and ``TERM`` is not ``dumb``, and nothing for work
that ends within ``DELAY_SECONDS``: pipes, logs, CI and the tests see no
progress at all. The line is cleared when the work ends, so whatever is
printed next (the summary table, an error line) starts on a clean line.

It only reports: the jobs call ``advance`` as they go and never depend on it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping

# Work that ends sooner shows no line at all.
DELAY_SECONDS = 2.0
# The line is rewritten at most this often.
REFRESH_SECONDS = 0.25


def source_bytes(sources) -> int:
    """The UTF-8 bytes of the sources' texts: what a progress line counts, and its megabytes per second."""
    return sum(len(source["text"].encode("utf-8")) for source in sources)


def terminal_wanted(stream: object, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``stream`` is a terminal a person watches: a tty, ``CI`` unset, ``TERM`` not ``dumb``."""
    if environ.get("CI") or environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def time_left(seconds: float) -> str:
    """``time_left(8.2)`` -> ``"about 9 s left"``; ``time_left(125)`` -> ``"about 3 min left"``."""
    if seconds < 100:
        return f"about {int(seconds) + 1} s left"
    return f"about {int(seconds / 60) + 1} min left"


class Progress:
    """The progress line of one job: ``label``, then what is done of ``documents`` documents of ``size`` bytes.

    ``advance(1, n)`` after each document; ``writing(pieces, name)`` passes a
    write's pieces through and counts them; ``close()`` (or leaving a ``with``
    block) clears the line. ``unit`` names what is counted (documents, sizes);
    work of no ``size`` is timed by the count alone.
    """

    def __init__(
        self,
        label: str,
        documents: int = 0,
        size: int = 0,
        stream: object = None,
        environ: Mapping[str, str] = os.environ,
        clock: Callable[[], float] = time.monotonic,
        unit: str = "documents",
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = terminal_wanted(self.stream, environ)
        self.clock = clock
        self.started = clock()
        self.label = label
        self.documents = documents
        self.size = size
        self.unit = unit
        self.done = 0
        self.done_bytes = 0
        self.shown = ""
        self.shown_at = self.started
        # When the current stage began: its rate and time left count from there.
        self.stage_started = self.started

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def expect(self, documents: int, size: int) -> None:
        """Add ``documents`` documents of ``size`` bytes to the work this line counts towards."""
        self.documents += documents
        self.size += size

    def stage(self, label: str, documents: int, size: int, unit: str = "documents") -> None:
        """Count a new stage of the same job from zero: ``label``, ``documents`` documents (or ``unit``) of ``size`` bytes.

        The line keeps its place (no second delay before it shows); the rate
        and the time left are the new stage's.
        """
        self.label = label
        self.documents = documents
        self.size = size
        self.unit = unit
        self.done = 0
        self.done_bytes = 0
        self.stage_started = self.clock()

    def advance(self, documents: int, size: int) -> None:
        """``documents`` more documents of ``size`` bytes are done."""
        self.done += documents
        self.done_bytes += size
        if self.enabled:
            self.show(self.document_line)

    def document_line(self, elapsed: float) -> str:
        """``"building indexes: 120 of 400 documents, 3.1 MB/s, about 12 s left"``; ``"sweeping: 9 of 29 sizes, about 3 s left"``."""
        stage_elapsed = max(elapsed - (self.stage_started - self.started), 1e-9)
        line = f"{self.label}: {self.done:,} of {self.documents:,} {self.unit}"
        if self.size == 0:
            if 0 < self.done < self.documents:
                line += ", " + time_left((self.documents - self.done) * stage_elapsed / self.done)
            return line
        rate = self.done_bytes / stage_elapsed
        line += f", {rate / 1e6:.1f} MB/s"
        if rate > 0 and self.size > self.done_bytes:
            line += ", " + time_left((self.size - self.done_bytes) / rate)
        return line

    def writing(self, pieces: Iterable[bytes], name: str) -> Iterator[bytes]:
        """``pieces`` unchanged, with the line saying how many megabytes of ``name`` are written."""
        if not self.enabled:
            yield from pieces
            return
        self.label = f"writing {name}"
        written = 0
        writing_started = self.clock()

        def line(elapsed: float) -> str:
            rate = written / max(self.clock() - writing_started, 1e-9)
            return f"{self.label}: {written / 1e6:,.0f} MB, {rate / 1e6:.0f} MB/s"

        for piece in pieces:
            yield piece
            written += len(piece)
            self.show(line)

    def show(self, line: Callable[[float], str]) -> None:
        """Rewrite the line, once the work has run ``DELAY_SECONDS`` and at most every ``REFRESH_SECONDS``."""
        now = self.clock()
        elapsed = now - self.started
        if elapsed < DELAY_SECONDS or (self.shown and now - self.shown_at < REFRESH_SECONDS):
            return
        text = line(elapsed)
        # Spaces over whatever a longer previous line left behind.
        self.write("\r" + text + " " * max(0, len(self.shown) - len(text)))
        self.shown = text
        self.shown_at = now

    def close(self) -> None:
        """Clear the line, if one was shown, so the next output starts at the left margin."""
        if self.shown:
            self.write("\r" + " " * len(self.shown) + "\r")
            self.shown = ""

    def write(self, text: str) -> None:
        """Write to the terminal; a terminal that went away only ends the progress line."""
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False
