"""The lab's write path: every output file or stream, written whole or not at all.

Files are staged beside their target and renamed into place only when every
byte is on disk, so a reader sees the old file or the new one, never a part;
an output that would overwrite an input, a folder, a link or a device is
refused before any work. Failures become one ``UsageError`` line (exit 2).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

from errors import UsageError, printable


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    A reader sees the old file or the new one, never a partial one; on any
    failure the temporary file is removed and an existing ``path`` is untouched.
    """
    write_files_atomically([(Path(path), data)])


def write_files_atomically(files: list[tuple[Path, bytes]]) -> None:
    """Write several files so that a failure while writing any of them replaces none.

    Every file is first written in full to a temporary file beside its
    target; only when all are on disk are they renamed into place. (A rename
    itself failing part-way, which a full disk or a missing permission cannot
    cause once the files are written, could leave the first renamed.)
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files:
            staged.append((staged_copy(path, data), path))
        for temporary, path in staged:
            os.replace(temporary, path)
            sync_folder(path.parent)
    except BaseException:
        for temporary, _ in staged:
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass
        raise


def staged_copy(path: Path, data: bytes) -> str:
    """``data`` written and synced to a new temporary file in ``path``'s folder; its name."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, existing_mode(path))
    except BaseException:
        os.unlink(temporary)
        raise
    return temporary


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


def checked_output(value: str, protected: tuple[Path, ...]) -> Path | None:
    """The ``--output`` path, refused before any work if writing it would lose something.

    ``-`` means stdout and returns ``None``. Refused: a folder, a missing
    folder, a link, a device or pipe, one of ``protected`` (the inputs), and a
    path the lab cannot even look at (no permission, a link loop).
    """
    if value == "-":
        return None
    path = Path(value)
    where = printable(value)
    try:
        mode = os.lstat(path).st_mode if os.path.lexists(path) else None
        folder_exists = os.path.isdir(path.parent)
        # realpath, unlike Path.resolve on Python 3.10-3.12, cannot raise on a link loop.
        resolved = os.path.realpath(path)
        protected_resolved = [os.path.realpath(protected_path) for protected_path in protected]
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
        raise UsageError(
            "output_not_file", where, "exists and is not a regular file (a device or a pipe); use '-' for stdout"
        )
    if resolved in protected_resolved:
        raise UsageError("output_is_input", where, "is one of the lab's inputs; writing it would destroy it")
    return path


def write_outputs(files: list[tuple[Path, bytes]]) -> None:
    """Write output files together (see ``write_files_atomically``); a failure is one usage line."""
    try:
        write_files_atomically(files)
    except OSError as error:
        # Name the target, not the temporary file beside it that failed.
        failed = next(
            (path for path, _ in files if error.filename and Path(error.filename).parent == path.parent), files[0][0]
        )
        raise UsageError("output_unwritable", printable(str(failed)), error.strerror or str(error)) from error


def emit(data: bytes, path: Path | None) -> None:
    """Write ``data`` to ``path`` atomically, or to stdout when ``path`` is ``None``."""
    if path is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_outputs([(path, data)])


def destination(path: Path | None) -> str:
    """How a report line names where output went: ``stdout`` or the path, escaped if need be."""
    return "stdout" if path is None else printable(str(path))


def checked_report(value: str, output: Path | None, protected: tuple[Path, ...]) -> Path:
    """The ``--html`` path, refused like ``--output`` and also when it names the result file."""
    if value == "-":
        raise UsageError("html_to_stdout", value, "the report is a page to open in a browser; name a file")
    path = checked_output(value, protected)
    if output is not None and os.path.realpath(path) == os.path.realpath(output):
        raise UsageError("html_is_output", value, "is also the --output file; name another file for the report")
    return path
