"""The lab's one write path: every output file or stream, written whole or not at all.

Files are staged beside their target and renamed into place only when every
byte is on disk, so a reader sees the old file or the new one, never a part;
an output that would overwrite an input, a folder, a link, a device or a
write-protected file is refused before any work. Stdout gets the same care:
every byte is checked as written, and a closed or full stream is one
``UsageError`` line (exit 2), never a report of success.

Content is ``bytes`` or an iterable of ``bytes`` pieces written as they come
(still atomic for files: the rename waits for the last piece). While files are
staged, SIGTERM, SIGHUP and SIGINT become ``Interrupted``, so the staged files
are removed before the process exits (``run.py``: one line, exit 128 + signal).

``manifest_lock`` serialises every command that rewrites a manifest (``pin``
and ``scan --add-checks``, ``--accept``, ``--reject``, ``--import``): the read, the change and the write happen under one ``flock`` of the
manifest's folder, so concurrent updates all land, one after the other.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import signal
import stat
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from lab_io.errors import IngestionError, UsageError, printable

# What every writer accepts: the whole content, or its pieces in order.
Content = bytes | bytearray | memoryview | Iterable[bytes]

# File names are limited to 255 bytes on the usual file systems; the staged
# name adds a dot, a dot, eight random characters and ".tmp" to this much of
# the target's name, so a valid long target name still has a valid staged name.
STAGED_NAME_BYTES = 100
# Signals that end the process by default and must not leave a staged file behind.
WRITE_WINDOW_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
# How long a manifest update waits for another one to finish before it refuses.
MANIFEST_LOCK_SECONDS = 30.0


class Interrupted(BaseException):
    """A signal (Ctrl-C, SIGTERM, SIGHUP) received by the lab; ``run.py`` exits with 128 + its number.

    A ``BaseException`` like ``KeyboardInterrupt``, so only cleanup code (which
    re-raises) sees it on the way out, never a handler of ordinary errors.
    """

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_number = signal_number

    @property
    def name(self) -> str:
        try:
            return signal.Signals(self.signal_number).name
        except ValueError:
            return f"signal {self.signal_number}"


# --- content -----------------------------------------------------------------------


def content_pieces(content: Content) -> Iterator[bytes]:
    """The content's pieces in order: ``b"ab"`` -> ``[b"ab"]``; a generator of pieces is passed through."""
    if isinstance(content, (bytes, bytearray, memoryview)):
        yield bytes(content)
        return
    for piece in content:
        if not isinstance(piece, (bytes, bytearray, memoryview)):
            raise TypeError(f"output pieces must be bytes, found {type(piece).__name__}")
        yield bytes(piece)


def write_fully(descriptor: int, piece: bytes, progress: list[int] | None = None) -> int:
    """Write every byte of ``piece`` to ``descriptor``; a write that makes no progress is ``ENOSPC``.

    ``os.write`` may write less than it was given (a full disk, a file-size
    limit); the rest is written again, so the next call reports the real error
    instead of the data being cut silently. ``progress[0]`` (when given) grows
    with every byte written, so a failure can say how much got through.
    """
    view = memoryview(piece)
    written = 0
    while written < len(view):
        count = os.write(descriptor, view[written:])
        if count <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written += count
        if progress is not None:
            progress[0] += count
    return written


# --- signals during the write window -------------------------------------------------


@contextlib.contextmanager
def signals_as_exceptions() -> Iterator[None]:
    """Within the block, SIGINT, SIGTERM and SIGHUP raise ``Interrupted`` so cleanup code runs.

    Handlers can only be set from the main thread; elsewhere the block runs
    with the signals as they are. The previous handlers come back afterwards.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signal_number: int, frame: object) -> None:
        raise Interrupted(signal_number)

    previous = {}
    try:
        for number in WRITE_WINDOW_SIGNALS:
            # A signal the lab was started ignoring (SIGHUP under nohup) stays ignored.
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, interrupt)
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold the write-window signals back for a few statements (a file created and recorded as one step)."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, WRITE_WINDOW_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


# --- files -------------------------------------------------------------------------


def staged_prefix(path: Path) -> str:
    """The staged file's name prefix: ``.NAME.``, with ``NAME`` cut to ``STAGED_NAME_BYTES`` bytes."""
    name = os.fsdecode(os.fsencode(path.name)[:STAGED_NAME_BYTES])
    return f".{name}."


# The characters of a staged name's random part, and how a staged file is opened: created, never an existing file or
# a link, read and write, closed in any program this one runs (as ``tempfile.mkstemp`` opens one, mode 0o600).
STAGED_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"
STAGED_FLAGS = (
    os.O_RDWR
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
# How many names are tried before a folder is taken to hold them all.
STAGED_NAME_TRIES = 100


def staged_file(path: Path) -> tuple[int, str]:
    """A new, empty file beside ``path`` and its descriptor: ``.NAME.`` (``staged_prefix``), eight random characters
    and ``.tmp``, made with ``os.open`` as ``tempfile.mkstemp`` makes one, without importing ``tempfile`` (and the
    ``random`` and ``shutil`` it brings) on every run that writes."""
    folder = os.path.abspath(path.parent)
    prefix = staged_prefix(path)
    for _ in range(STAGED_NAME_TRIES):
        letters = "".join(STAGED_CHARACTERS[byte % len(STAGED_CHARACTERS)] for byte in os.urandom(8))
        name = os.path.join(folder, f"{prefix}{letters}.tmp")
        try:
            return os.open(name, STAGED_FLAGS, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused staged file name", folder)


def staged_copy(path: Path, data: Content, staged: list[str] | None = None) -> str:
    """``data`` written and synced to a new temporary file in ``path``'s folder; its name.

    The name is appended to ``staged`` (when given) in the same step that
    creates the file, so whoever cleans up after an exception or a signal knows it.
    """
    with signals_deferred():
        descriptor, temporary = staged_file(path)
        if staged is not None:
            staged.append(temporary)
    try:
        try:
            for piece in content_pieces(data):
                write_fully(descriptor, piece)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.chmod(temporary, existing_mode(path))
    except BaseException:
        remove_quietly(temporary)
        raise
    return temporary


def remove_quietly(temporary: str) -> None:
    """Remove a staged file if it is still there."""
    try:
        os.unlink(temporary)
    except FileNotFoundError:
        pass


def write_files_atomically(files: list[tuple[Path, Content]]) -> dict[Path, int]:
    """Write several files so that a failure while writing any of them replaces none; bytes per file.

    Every file is first written in full to a temporary file beside its
    target; only when all are on disk are they renamed into place. (A rename
    itself failing part-way, which a full disk or a missing permission cannot
    cause once the files are written, could leave the first renamed.) Any
    exception, a signal included, removes every staged file before it goes on.
    """
    staged: list[str] = []
    sizes: dict[Path, int] = {}
    current = None
    try:
        with signals_as_exceptions():
            for path, data in files:
                current = Path(path)
                counter = CountingPieces(data)
                staged_copy(current, counter, staged)
                sizes[current] = counter.count
            # A signal during the renames waits until all are done, so the files land together.
            with signals_deferred():
                for temporary, (path, _) in zip(staged, files):
                    current = Path(path)
                    os.replace(temporary, path)
                    sync_folder(current.parent)
    except BaseException as error:
        for temporary in staged:
            remove_quietly(temporary)
        if isinstance(error, OSError) and error.filename is None and current is not None:
            # os.write and os.fsync name no file; say which target was being written.
            error.filename = str(current)
        raise
    return sizes


class CountingPieces:
    """An iterable over content's pieces that counts the bytes it hands out."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.count = 0

    def __iter__(self) -> Iterator[bytes]:
        for piece in content_pieces(self.content):
            self.count += len(piece)
            yield piece


def write_atomically(path: Path, data: Content) -> int:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``; bytes written.

    A reader sees the old file or the new one, never a partial one; on any
    failure the temporary file is removed and an existing ``path`` is untouched.
    """
    return write_files_atomically([(Path(path), data)])[Path(path)]


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable where the platform allows it (best effort)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def existing_mode(path: Path) -> int:
    """The permission bits a replaced file keeps, or the umask's default for a new one."""
    try:
        return os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_outputs(files: list[tuple[Path, Content]]) -> dict[Path, int]:
    """Write output files together (see ``write_files_atomically``); a failure is one usage line."""
    try:
        return write_files_atomically(files)
    except OSError as error:
        failed = failed_target(error, [Path(path) for path, _ in files])
        raise UsageError("output_unwritable", printable(str(failed)), error.strerror or str(error)) from error


def failed_target(error: OSError, targets: list[Path]) -> Path:
    """The target an ``OSError`` is about: named by the error, or by its staged file beside it; else the first."""
    if error.filename:
        failed = Path(os.fsdecode(error.filename))
        for target in targets:
            if failed == target or (failed.parent == target.parent and failed.name.startswith(staged_prefix(target))):
                return target
        for target in targets:
            if failed.parent == target.parent:
                return target
    return targets[0]


# --- stdout ------------------------------------------------------------------------


def stdout_problem() -> str | None:
    """Why nothing can be written to stdout (closed with ``>&-``), or ``None`` when it is usable."""
    stream = sys.stdout
    if stream is None:
        return "is closed"
    try:
        descriptor = stream.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        # A stream without a descriptor (a test's capture) is written through its buffer.
        return "is closed" if getattr(stream, "closed", False) else None
    try:
        os.fstat(descriptor)
    except OSError:
        return "is closed"
    return None


def require_stdout() -> None:
    """Refuse before any work when stdout is closed: every command reports there."""
    problem = stdout_problem()
    if problem is not None:
        raise UsageError("output_unwritable", "stdout", f"{problem}; run the command with stdout open")


def write_stdout(data: Content) -> int:
    """Write every byte of ``data`` to stdout after whatever text was printed before; bytes written.

    A short or failed write (a full disk or a file-size limit behind a
    redirect, a closed stream) is ``output_unwritable: stdout`` (exit 2). A
    reader that went away (``| head``) raises ``BrokenPipeError`` for ``run.py``
    to end quietly.
    """
    require_stdout()
    stream = sys.stdout
    progress = [0]
    try:
        stream.flush()
        try:
            descriptor = stream.fileno()
        except (AttributeError, ValueError, io.UnsupportedOperation):
            descriptor = None
        for piece in content_pieces(data):
            if descriptor is None:
                stream_write_fully(stream.buffer, piece, progress)
            else:
                write_fully(descriptor, piece, progress)
        if descriptor is None:
            stream.buffer.flush()
        return progress[0]
    except BrokenPipeError:
        raise
    except OSError as error:
        raise UsageError(
            "output_unwritable",
            "stdout",
            f"{error.strerror or error} after {progress[0]:,} bytes; the output is incomplete",
        ) from error


def stream_write_fully(buffer: io.BufferedIOBase, piece: bytes, progress: list[int]) -> None:
    """Write all of ``piece`` to a binary stream, checking what each write reports (see ``write_fully``)."""
    view = memoryview(piece)
    written = 0
    while written < len(view):
        count = buffer.write(view[written:])
        if count is None or count <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written += count
        progress[0] += count


def emit_text(text: str) -> int:
    """Print ``text`` and a newline on stdout through the checked path, encoded as the terminal wants.

    Characters the terminal cannot encode are escaped (``\\xe9``), never a traceback.
    """
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or "utf-8"
    return write_stdout((text + "\n").encode(encoding, "backslashreplace"))


def emit(data: Content, path: Path | None) -> int:
    """Write ``data`` to ``path`` atomically, or to stdout when ``path`` is ``None``; bytes written."""
    if path is None:
        return write_stdout(data)
    return write_outputs([(path, data)])[path]


def destination(path: Path | None) -> str:
    """How a report line names where output went: ``stdout`` or the path, escaped if need be."""
    return "stdout" if path is None else printable(str(path))


def report_written(path: Path) -> str:
    """The line that names an HTML report written, with its size, for a report a docs set makes large:
    ``wrote report.html (12.6 MB)``; the size left out if the file cannot be read back."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return f"wrote {destination(path)}"
    shown = f"{size / 1e6:.1f} MB" if size >= 1_000_000 else f"{max(1, round(size / 1e3)):,} KB"
    return f"wrote {destination(path)} ({shown})"


# --- which outputs the lab will write ------------------------------------------------


# The lab's own folder: run.py and everything the lab ships beside it.
LAB_FOLDER = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# What the lab ships there, refused as outputs (``lab_file_problem``); names are compared
# case-folded, since on a case-insensitive file system ``readme.md`` is ``README.md``.
# Its folders: every file in them, new or existing, is the lab's.
LAB_FOLDERS = frozenset({"checks", "commands", "docs", "grammars", "judge", "lab_io", "results", "tests", "views"})
# Its files at the top, besides every Python file and every hidden name (.ci, .git, .gitignore).
LAB_TOP_FILES = frozenset({"readme.md", "manifest.json", "expected-result.json"})


def lab_file_problem(resolved: str) -> str | None:
    """Why writing ``resolved`` (a real path) would replace a file the lab ships, or ``None`` if it is the user's.

    ``LAB_FOLDER/docs/SPEC.md`` -> "is in the lab's own docs/ folder ...";
    ``LAB_FOLDER/result.json`` -> ``None`` (the quick start writes it).
    """
    relative = os.path.relpath(resolved, LAB_FOLDER)
    parts = relative.split(os.sep)
    if parts[0] == os.pardir:
        return None
    top = parts[0].casefold()
    if top in LAB_FOLDERS or (len(parts) > 1 and top.startswith(".")):
        return f"is in the lab's own {printable(parts[0])}/ folder, whose files the lab ships; write outputs elsewhere"
    if len(parts) > 1:
        return None
    if top.endswith(".py") and os.path.lexists(resolved):
        return "is one of the lab's own program files; writing it would replace the lab"
    if top.endswith(".py"):
        return "is a Python file beside run.py, where the lab imports its modules from; it could shadow one of them"
    if top in LAB_TOP_FILES or top.startswith("."):
        return "is one of the files the lab ships; writing it would replace it"
    return None


def checked_output(
    value: str,
    protected: tuple[Path, ...],
    stdout_allowed: bool = True,
    writes: str | None = None,
    before_inputs: bool = False,
) -> Path | None:
    """The ``--output`` path, refused before any work if writing it would lose something.

    ``-`` means stdout and returns ``None``. Refused: a name ending in ``/``
    (a folder, even a missing one), a folder, a missing folder, a link, a
    device or pipe, a write-protected file (its protection would be defeated
    by the rename), one of ``protected`` (the inputs), a file the lab ships
    (``lab_file_problem``: ``--output run.py`` would replace the lab,
    ``--html README.md`` its guide), and a path whose state cannot be read.
    A link loop is a link (``output_is_link``), or a missing folder when it
    stands for the folder. A Markdown page's name is refused too, existing or
    not, and an existing file of the lab's own (a manifest, a review decisions
    file, a saved result, an HTML report, an export) unless the file written is
    of its kind (``writes``: ``"manifest"`` for ``pin``, ``"result"`` for the
    main job's ``--output``, …), whichever manifest the command reads
    (``replaced_kind``): ``export r.json --output m.json`` without
    ``--manifest`` would otherwise replace the user's pins and checks, and
    ``scan --html result.json`` the result a later ``diff`` needs. A
    check made before the manifest is read (``before_inputs``) leaves that to
    the check after it, which first says whether the file is one of the inputs.
    """
    if value == "-":
        return None
    path = Path(value)
    where = printable(value)
    if value.endswith(("/", os.sep)) or (os.altsep and value.endswith(os.altsep)):
        raise UsageError("output_is_folder", where, "ends with '/', which names a folder; name a file to write")
    try:
        mode = os.lstat(path).st_mode if os.path.lexists(path) else None
        folder_exists = os.path.isdir(path.parent)
        # realpath, unlike Path.resolve on Python 3.10-3.12, cannot raise on a link loop.
        resolved = os.path.realpath(path)
        protected_resolved = {os.path.realpath(protected_path) for protected_path in protected}
    except OSError as error:
        raise UsageError("output_unreadable", where, error.strerror or str(error)) from error
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageError("output_is_folder", where, "is a folder; name a file to write")
    if not folder_exists:
        raise UsageError(
            "output_folder_missing", where, f"folder {printable(str(path.parent))} does not exist or cannot be entered"
        )
    if mode is not None and stat.S_ISLNK(mode):
        raise UsageError(
            "output_is_link", where, "is a link; replacing it would leave its target stale, so name the file itself"
        )
    if mode is not None and not stat.S_ISREG(mode):
        hint = "; use '-' for stdout" if stdout_allowed else ""
        raise UsageError("output_not_file", where, f"exists and is not a regular file (a device or a pipe){hint}")
    if resolved in protected_resolved:
        raise UsageError("output_is_input", where, "is one of the lab's inputs; writing it would destroy it")
    lab_problem = lab_file_problem(resolved)
    if lab_problem is not None:
        raise UsageError("output_is_lab_file", where, lab_problem)
    if not before_inputs:
        replaced = replaced_kind(path, writes, mode is not None)
        if replaced is not None:
            raise UsageError(f"output_is_{replaced}", where, REPLACED_PROBLEMS[replaced])
    if mode is not None and is_write_protected(path, mode):
        raise UsageError(
            "output_read_only",
            where,
            "is write-protected; the lab will not replace it behind its protection (chmod u+w it, or name another file)",
        )
    return path


# The kinds of file the lab writes, each replaced only by one of its kind, and what it never writes (a page): an output
# of another kind over one is refused (``replaced_kind``).
PAGE_SUFFIXES = (".md", ".mdx", ".markdown")
REPLACED_PROBLEMS = {
    "manifest": "is a manifest (it holds its sources); writing it would lose its pins and span checks, so name another "
    "file",
    "decisions": "is a manifest's review decisions file (scan --accept and --reject write it); writing it would lose "
    "the decisions, so name another file",
    "result": "is a saved result (validate and diff read it); only a result replaces it, so name another file",
    "report": "is an HTML report the lab wrote; only a report replaces it, so name another file",
    "export": "is an export the lab wrote (JSON Lines of chunk records); only an export replaces it, so name another "
    "file",
    "page": "names a Markdown page; the lab writes JSON, JSON Lines or HTML, never a page, so name another file",
}
# How a report the lab writes says so in its head (``views.report.html_page``).
REPORT_GENERATOR = b'<meta name="generator" content="chunk-boundary lab">'


def replaced_kind(path: Path, writes: str | None = None, exists: bool = True) -> str | None:
    """What an output of the kind it ``writes`` must not be: ``"page"`` for a name of a Markdown page, existing or not
    (the lab writes none, so a second run would find its own page), and, of an existing file, the kind of the lab's
    own file it is (``existing_kind``) when that is another kind than the one written; else ``None``. A manifest may
    have any name (``pin --manifest m.md``), but is still no existing page of another kind."""
    page = path.suffix.lower() in PAGE_SUFFIXES
    if writes != "manifest" and page:
        return "page"
    if not exists:
        return None
    kind = existing_kind(path)
    if writes == "manifest" and page and kind is None:
        return "page"
    return kind if kind is not None and kind != writes else None


# What a saved result's or index's head holds, whatever its keys' order or indentation: the spec's mode, a
# comparison's verdict, or a chunk's id beside its text hash.
RESULT_MARKS = re.compile(rb'"execution_mode"\s*:\s*"|"instruction_and_qualifier_share_chunk"\s*:')
# A JSON object's first key, and the first keys of the reports commands print with --json (``FIRST_KEY``).
FIRST_KEY = re.compile(rb'\{\s*"([^"\\]{1,40})"\s*:')
COMMAND_REPORT_KEYS = frozenset(
    {
        b"diff_version",
        b"judge_version",
        b"scan_version",
        b"evaluation_version",
        b"retrieve_version",
        b"context_version",
        b"sweep_version",
    }
)
# How far the first record of an export may run: a chunk is a block of a page, at most a page's bound.
FIRST_RECORD_BYTES = 8 << 20


def existing_kind(path: Path) -> str | None:
    """Which of the lab's own kinds of file ``path`` holds, told from its head and first line (a manifest read whole,
    ``is_manifest_file``): ``"decisions"``, ``"result"`` (a saved result or index, its keys in any order),
    ``"report"``, ``"export"``, ``"manifest"``, or ``None``. A file the lab cannot read is refused
    (``output_unreadable``): what it holds cannot be told, so it is not replaced."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MANIFEST_HEAD_BYTES)
            first_line = raw if b"\n" in raw else raw + handle.readline(FIRST_RECORD_BYTES)
    except OSError as error:
        raise UsageError(
            "output_unreadable",
            printable(str(path)),
            f"exists and cannot be read to tell what it holds ({error.strerror or error}); name another file",
        ) from error
    head = without_mark(raw)
    first_key = FIRST_KEY.match(head)
    if first_key is not None and first_key.group(1) in COMMAND_REPORT_KEYS:
        # A command's --json saved by the shell (diff, judge, scan, …): no file of the lab's, whatever it quotes.
        return None
    if head.startswith(b"{") and b'"decisions_version"' in head:
        return "decisions"
    if head.startswith(b"{") and (
        RESULT_MARKS.search(head) is not None or (b'"chunk_id"' in head and b'"text_sha256"' in head)
    ):
        return "result"
    if head.startswith(b"<!DOCTYPE html>") and REPORT_GENERATOR in head:
        return "report"
    if (
        first_key is not None
        and first_key.group(1) == b"id"
        and is_export_record(without_mark(first_line).split(b"\n")[0])
    ):
        return "export"
    return "manifest" if is_manifest_file(path, head) else None


# The lab's own files, as ``lab_file_kind`` tells them, in words for a refusal of one given where it does not go.
LAB_FILE_KINDS = {
    "manifest": "a manifest (it pins sources; a manifest is given as --manifest M)",
    "decisions": "a manifest's review decisions file (scan --accept and --reject write it)",
    "result": "a saved result or index (the main job writes it)",
    "export": "an export the lab wrote (JSON Lines of chunk records; judge and retrieve --chunks read it)",
    "report": "an HTML report the lab wrote",
    "command report": "a command's --json report (scan, judge, diff, …)",
}


def lab_file_kind(path: Path) -> str | None:
    """Which of the lab's own files ``path`` holds (``existing_kind``), or ``"command report"`` for a command's
    ``--json`` saved by the shell; ``None`` for any other file, for one that cannot be read, and for anything but a
    regular file (a link, a named pipe or a device is never opened: a pipe would wait for a writer)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        kind = existing_kind(path)
    except (OSError, UsageError):
        return None
    first_key = FIRST_KEY.match(json_head(path))
    if kind is None and first_key is not None and first_key.group(1) in COMMAND_REPORT_KEYS:
        return "command report"
    return kind


def lab_file_words(path: Path) -> str | None:
    """``lab_file_kind`` in words (``LAB_FILE_KINDS``): ``"a manifest (it pins sources; …)"``, or ``None``."""
    kind = lab_file_kind(path)
    return None if kind is None else LAB_FILE_KINDS[kind]


# The refusals a reader gives a file before it reads what the file holds: over its size or line bound.
BOUND_REFUSALS = frozenset({"file_too_large", "too_many_chunks"})


def naming_lab_file(
    error: IngestionError, path: Path, wanted: str, taken: frozenset = frozenset(), named: frozenset = frozenset()
) -> IngestionError:
    """``error``, a reader's refusal of the file at ``path``, saying what the file is when it is one of the lab's
    own of a kind the reader does not take (``taken``): ``…; this file is a manifest (it pins sources; a manifest
    is given as --manifest M), not hand labels``; else ``error`` itself. A file given in the wrong place is then
    named for what it is, not only for the first thing wrong with it as what the reader expected. The kinds the
    reader's own refusal names once it reads the file (``named``) are named here too when it refused the file over
    a bound first (``BOUND_REFUSALS``): a docs set's saved result is larger than any chunk file's bound."""
    kind = lab_file_kind(path)
    if kind is None or kind in taken or (kind in named and error.code not in BOUND_REFUSALS):
        return error
    return IngestionError(error.code, error.where, f"{error.what}; this file is {LAB_FILE_KINDS[kind]}, not {wanted}")


def is_export_record(line: bytes) -> bool:
    """Whether one line is a record ``export`` writes: ``{"id", "text", "metadata": {"source_id", …}}``."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return False
    metadata = value.get("metadata") if type(value) is dict else None
    return type(metadata) is dict and "id" in value and "text" in value and "source_id" in metadata


def without_mark(data: bytes) -> bytes:
    """``data`` without a leading UTF-8 byte order mark and whitespace (a manifest saved with one is still one)."""
    data = data.lstrip()
    return data[3:].lstrip() if data.startswith(b"\xef\xbb\xbf") else data


def is_manifest_file(path: Path, head: bytes) -> bool:
    """Whether the file whose ``json_head`` is ``head`` reads as a manifest: a JSON object whose ``sources`` is a list.

    Asked once the file is told to be no other kind of the lab's (``existing_kind``): a JSON object within a
    manifest's bound is read whole and parsed, whatever the order of its keys (a JSON Lines file is read whole too,
    its parse stopping after the first line). One that does not parse is a manifest when its head names
    ``"sources"``: a manifest in the middle of a hand edit is still one."""
    if not head.startswith(b"{"):
        return False
    from load_documents import DOCS_SET_BOUNDS

    try:
        size = os.path.getsize(path)
        if b'"sources"' not in head and size <= MANIFEST_HEAD_BYTES:
            return False
        if size > DOCS_SET_BOUNDS.manifest_bytes:
            return False
        value = json.loads(path.read_bytes())
    except OSError:
        return False
    except (ValueError, RecursionError):
        return b'"sources"' in head
    return type(value) is dict and type(value.get("sources")) is list


# How much of a file ``json_head`` reads: enough for a manifest the lab wrote to name its sources (a quick guess,
# ``looks_like_manifest``, for the note on an unused manifest), and for a saved result's first key.
MANIFEST_HEAD_BYTES = 4096


def looks_like_manifest(path: Path) -> bool:
    """Whether a JSON file opens as the lab's manifests do: an object naming ``sources``, not a saved result nor a
    command's ``--json`` saved by the shell (``judge --json`` names ``"sources"`` in each row's coverage), a quick
    guess from its head, for a note or a hint; what an output must not replace is told by ``existing_kind``."""
    head = json_head(path)
    first_key = FIRST_KEY.match(head)
    if first_key is not None and first_key.group(1) in COMMAND_REPORT_KEYS:
        return False
    return head.startswith(b"{") and b'"sources"' in head and b'"execution_mode"' not in head


def json_head(path: Path) -> bytes:
    """The first ``MANIFEST_HEAD_BYTES`` of a file, a byte order mark and leading whitespace dropped; ``b""`` when it
    cannot be read."""
    try:
        with open(path, "rb") as handle:
            return without_mark(handle.read(MANIFEST_HEAD_BYTES))
    except OSError:
        return b""


def is_write_protected(path: Path, mode: int) -> bool:
    """Whether an existing file says "do not write me": no write bit at all, or none for this user.

    The bits are read directly because ``os.access`` always says yes to root.
    """
    if not mode & 0o222:
        return True
    return os.geteuid() != 0 and not os.access(path, os.W_OK) if hasattr(os, "geteuid") else False


def decisions_file(manifest_path: Path) -> Path:
    """Where a manifest's review decisions live: ``lab/manifest.json`` -> ``lab/manifest.decisions.json``."""
    return manifest_path.with_name(f"{manifest_path.stem}.decisions.json")


def manifest_files(manifest_path: Path, manifest=None) -> tuple[Path, ...]:
    """What no output of a command reading ``manifest_path`` may be: the manifest, its review decisions file
    (``decisions_file``, which ``scan`` reads even before it exists) and, given the loaded ``manifest``, every source
    it pins."""
    sources = () if manifest is None else manifest.source_paths()
    return (manifest_path, decisions_file(manifest_path), *sources)


def manifest_inputs(manifest_path: Path) -> tuple[Path, ...]:
    """The manifest, its review decisions file (``decisions_file``) and every source path it names, read leniently,
    for the "output is not an input" check.

    Nothing is verified here (the command that loads the manifest does that);
    a manifest that cannot be read still protects its own file and its decisions.
    """
    from load_documents import read_manifest_value

    paths = [Path(manifest_path), decisions_file(Path(manifest_path))]
    try:
        value = read_manifest_value(Path(manifest_path))
    except Exception:  # noqa: BLE001 - any unreadable manifest protects only itself; the loader reports why.
        return tuple(paths)
    sources = value.get("sources") if type(value) is dict else None
    for entry in sources if type(sources) is list else ():
        relative = entry.get("path") if type(entry) is dict else None
        if type(relative) is str and relative:
            paths.append(Path(manifest_path).parent / relative)
    return tuple(paths)


def checked_report(value: str, output: Path | None, protected: tuple[Path, ...], before_inputs: bool = False) -> Path:
    """The ``--html`` path, refused like ``--output`` and also when it names the result file."""
    if value == "-":
        raise UsageError("html_to_stdout", value, "the report is a page to open in a browser; name a file")
    path = checked_output(value, protected, stdout_allowed=False, writes="report", before_inputs=before_inputs)
    if output is not None and os.path.realpath(path) == os.path.realpath(output):
        raise UsageError("html_is_output", value, "is also the --output file; name another file for the report")
    return path


# --- the manifest lock ---------------------------------------------------------------


@contextlib.contextmanager
def manifest_lock(manifest_path: Path, timeout: float = MANIFEST_LOCK_SECONDS) -> Iterator[None]:
    """Hold the lock every manifest update takes: an exclusive ``flock`` on the manifest's folder.

    Read the manifest, change it and write it back inside the block; another
    update of any manifest in the same folder waits for the block to end (up
    to ``timeout`` seconds, then ``manifest_locked``, exit 2). Locking the
    folder rather than a lock file beside the manifest leaves nothing behind.
    The lock is advisory: only the lab's own commands honour it.
    """
    # Imported here: flock is POSIX, and only a manifest update needs it.
    import fcntl

    folder = Path(manifest_path).parent
    where = printable(str(manifest_path))
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError as error:
        raise UsageError("output_unwritable", where, error.strerror or str(error)) from error
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise UsageError(
                        "manifest_locked",
                        where,
                        f"another command has been updating a manifest in its folder for over {timeout:g} s; "
                        "nothing was changed, run this one again when it ends",
                    ) from None
                time.sleep(0.005)
        yield
    finally:
        os.close(descriptor)
