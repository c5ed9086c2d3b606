"""What the command line's two halves share: ``main_job`` (the main job) and ``parser`` (every other command).

The exit codes and the help that lists them, the lab's version, the default
manifest with the note for a user who meant their own, and how a command
reports to the person at the terminal. It imports neither half, so both import
it without a cycle.
"""

from __future__ import annotations

import os
import sys
from collections import namedtuple
from pathlib import Path

from lab_io.errors import LISTED_ENTRIES, printable, quoted_name
from lab_io.outputs import emit_text, looks_like_manifest

# The lab's own version, printed by ``--version``; the saved formats carry their own versions.
LAB_VERSION = "1.1.0"

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
# A process ended by a signal exits with 128 + its number (130 for Ctrl-C), as shells report it.
EXIT_SIGNAL_BASE = 128
DEFAULT_MANIFEST = Path(__file__).resolve().parent.parent / "manifest.json"

EXIT_CODES_HELP = """\
exit codes:
  0  ok
  1  refused input: a source that fails its pin, a malformed file, or a
     saved result or index that does not re-derive exactly
  2  usage: unknown command or option, or an output the lab will not or
     cannot write (a folder, a missing folder, a link, a device, one of the
     inputs or the lab's own code, a write-protected file, no permission, a
     full disk, a closed stdout), or a manifest another command kept locked
  130 interrupted by Ctrl-C (143 SIGTERM, 129 SIGHUP): every output file is
     whole or as it was, and no temporary file is left

Every refusal is one line on stderr: error: <code>: <where>: <what>
"""


def manifest_argument(value: str | None) -> Path:
    """The ``--manifest`` given, or the lab's own ``manifest.json`` beside ``run.py``."""
    return DEFAULT_MANIFEST if value is None else Path(value)


# The manifests of the current folder ``manifest_to_build`` passed over, held back until the run ends: their note is
# printed on stderr after a run that succeeds, or folded into the one line of a refusal (``with_pending_note``), so a
# refused run still says one line, and one that refused a name the fixture lacks can name a manifest that holds it.
PENDING_NOTES: list[UnusedManifests] = []


def manifest_to_build(value: str | None) -> Path:
    """``manifest_argument`` for the commands that build from it (the main job, show, sweep, scan, context, judge).

    Falling back while the current folder holds a manifest of its own says so
    on stderr (``unused_manifest_note``): that user meant their own. The note is
    held back (``PENDING_NOTES``) until ``main`` knows how the run ends.
    """
    if value is None:
        # Looked for now, before the command writes anything into the folder; the note is written at the end.
        found = unused_manifests(Path.cwd())
        if found is not None:
            PENDING_NOTES.append(found)
    return manifest_argument(value)


def flush_pending_notes() -> None:
    """Print the held-back notes on stderr (after a run that ended without a refusal), and forget them."""
    for found in PENDING_NOTES:
        report(found.note(), to_stderr=True)
    PENDING_NOTES.clear()


def with_pending_note(refusal: str, sought: tuple[str, str] | None = None) -> str:
    """A refusal's one line, the held-back note after it when there is one (``note: …`` kept as it reads), and the
    notes forgotten: "error: unknown_name: --check: … (note: m.json in the current folder …)". ``sought``, what the
    refusal looked for (``IngestionError.sought``), lets the note name a manifest that holds it."""
    notes = [found.note(sought) for found in PENDING_NOTES]
    PENDING_NOTES.clear()
    return refusal if not notes else f"{refusal} ({'; '.join(notes)})"


# How much of a folder's JSON files the fallback note looks at: their names, and the head of each.
NOTE_FILES_LOOKED_AT = 200
# The note names at most this many of them, and says when there are others.
NOTE_MANIFESTS_NAMED = 3
FALLBACK_SENTENCE = "without --manifest the lab reads the lesson's fixture manifest beside run.py"


class UnusedManifests(namedtuple("UnusedManifests", ("folder", "own", "names"), defaults=((),))):
    """The manifests of a folder the fallback to the fixture's passes over: its own ``manifest.json`` (``own``), or
    the ``*.json`` files that open as manifests do (``names``, sorted, one more than the note names when there are
    more).

    A named tuple, as the lab's records are (``load_documents``): a dataclass would import ``dataclasses`` (and with
    it ``inspect``, ``ast``, ``dis`` and ``tokenize``), about 9 ms of every start (docs/performance.md, "Startup").
    """

    __slots__ = ()

    def note(self, sought: tuple[str, str] | None = None) -> str:
        """The one line on stderr. With several manifests it picks none blindly: given what a refusal looked for
        (``sought``), it names those that hold it; else it says how many there are."""
        if self.own:
            return (
                f"note: {DEFAULT_MANIFEST.name} in the current folder is not used: {FALLBACK_SENTENCE}; "
                f"pass --manifest {DEFAULT_MANIFEST.name} to use yours"
            )
        # A file's name is the folder's to choose: shown inert, as every name the lab prints.
        found = [printable(name) for name in self.names]
        many = len(found) > NOTE_MANIFESTS_NAMED
        if many:
            # More than the note names: it says so, without reading every file of the folder to count them.
            named = f"{', '.join(found[:NOTE_MANIFESTS_NAMED])} and others"
        else:
            named = and_joined(found)
        lead = (
            f"note: {named} in the current folder "
            f"{'looks like a manifest and is' if len(found) == 1 else 'look like manifests and are'} not used: "
            f"{FALLBACK_SENTENCE}; "
        )
        holders = [] if sought is None else [name for name in self.names if manifest_holds(self.folder / name, sought)]
        if holders:
            shown = [printable(name) for name in holders]
            if len(holders) == 1:
                return f"{lead}{shown[0]} holds {sought_label(sought)}: pass --manifest {shown[0]} to use it"
            return f"{lead}{and_joined(shown)} hold {sought_label(sought)}: pass --manifest with the one you meant"
        if len(found) == 1:
            tail = f"pass --manifest {found[0]} to use it"
            lacks = "it holds no"
        else:
            tail = f"pass one of {'them' if many else f'the {len(found)}'} as --manifest to use it"
            lacks = "none of them holds"
        if sought is not None:
            tail += f" ({lacks} {sought_label(sought)} either)"
        return lead + tail


def and_joined(names: list[str]) -> str:
    """``["a"]`` -> ``"a"``, ``["a", "b", "c"]`` -> ``"a, b and c"``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


SOUGHT_NOUNS = {"check": "span check", "source_id": "source", "source": "source"}


def sought_label(sought: tuple[str, str]) -> str:
    """``("check", "scan:docs/a:5")`` -> ``'span check "scan:docs/a:5"'``."""
    kind, name = sought
    return f"{SOUGHT_NOUNS[kind]} {quoted_name(name)}"


def manifest_holds(path: Path, sought: tuple[str, str]) -> bool:
    """Whether the manifest at ``path`` holds what a refusal looked for, read leniently (a guess for a note, as
    ``looks_like_manifest``): a span check of that name (``"check"``), a source of that id (``"source_id"``), or a
    source that id, path or end of a path names, as ``judge`` matches a chunk's source (``"source"``)."""
    import json

    from load_documents import MAX_MANIFEST_BYTES

    try:
        with open(path, "rb") as handle:
            value = json.loads(handle.read(MAX_MANIFEST_BYTES + 1).decode("utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return False
    kind, name = sought
    field = "span_checks" if kind == "check" else "sources"
    entries = value.get(field) if type(value) is dict else None
    for entry in entries if type(entries) is list else ():
        if type(entry) is not dict:
            continue
        if kind == "check":
            if entry.get("name") == name:
                return True
        elif entry.get("source_id") == name or (kind == "source" and path_names(entry.get("path"), name)):
            return True
    return False


def path_names(path: object, reference: str) -> bool:
    """Whether a chunk's source ``reference`` names the pinned ``path``: the path itself or the end of it, or a path
    ending in it (``"guide.md"``, ``"/ci/proj/docs/guide.md"`` for ``"docs/guide.md"``), ``\\`` read as ``/``."""
    if type(path) is not str:
        return False
    parts = [part for part in reference.replace("\\", "/").split("/") if part not in ("", ".")]
    pinned = [part for part in path.split("/") if part not in ("", ".")]
    if not parts or not pinned:
        return False
    shorter = min(len(parts), len(pinned))
    return parts[-shorter:] == pinned[-shorter:]


def unused_manifests(folder: Path) -> UnusedManifests | None:
    """The manifests of ``folder`` other than the fixture's, which the fallback ignores: a ``manifest.json``, or
    other ``*.json`` files that open as a manifest does (``looks_like_manifest``); ``None`` when there is none."""
    candidate = folder / DEFAULT_MANIFEST.name
    if os.path.lexists(candidate):
        try:
            if os.path.samefile(candidate, DEFAULT_MANIFEST):
                return None
        except OSError:
            pass
        return UnusedManifests(folder, own=True)
    names = other_manifests(folder)
    return UnusedManifests(folder, own=False, names=tuple(names)) if names else None


def unused_manifest_note(folder: Path, sought: tuple[str, str] | None = None) -> str | None:
    """The one line for ``folder``'s unused manifests (``UnusedManifests.note``), or ``None`` when it has none."""
    found = unused_manifests(folder)
    return None if found is None else found.note(sought)


def other_manifests(folder: Path) -> list[str]:
    """The names (sorted; one more than the note names, so it can tell there are more) of the ``*.json`` files in
    ``folder`` that look like manifests."""
    try:
        with os.scandir(folder) as entries:
            names = sorted(
                entry.name
                for entry in entries
                if entry.name.endswith(".json")
                and not entry.name.endswith(".decisions.json")
                and entry.is_file(follow_symlinks=False)
            )[:NOTE_FILES_LOOKED_AT]
    except OSError:
        return []
    return [name for name in names if looks_like_manifest(folder / name)][: NOTE_MANIFESTS_NAMED + 1]


# An unknown name is matched against at most this many known ones for the closest.
MAX_CLOSE_LOOKUP = 10_000


def closest_names(typed: str, known: list[str]) -> list[str]:
    """The few names of ``known`` closest to ``typed``, for a refusal of a name the lab does not hold: first those
    ``typed`` ends after a ``/`` or ``:`` (a page's id typed without its folders, a pair's name without its "scan:"
    and folders), else ``difflib``'s closest:
    ``closest_names("docs/a:52", ["scan:docs/a:52", "scan:docs/b:9"])`` -> ``["scan:docs/a:52"]``,
    ``closest_names("cli", ["site/docs/cli", "site/docs/client"])`` -> ``["site/docs/cli"]``; then, for a pair's
    name whose line an edit moved, the names of the same page by the nearest line
    (``closest_names("scan:p:136", ["scan:p:513", "scan:p:134"])`` -> ``["scan:p:134", "scan:p:513"]``). difflib's
    are not looked for among more than ``MAX_CLOSE_LOOKUP`` (it weighs each)."""
    # difflib weighs a short tail against a long id by the share of it that matches: "client:96" is 0.4 like
    # "scan:website/docs/advanced/client:96", under its cutoff, though no other name ends so.
    tails = [name for name in known if name.endswith(typed) and name[: -len(typed)][-1:] in ("/", ":")]
    if tails:
        return tails[:LISTED_ENTRIES]
    # A pair's name on a line an edit moved ("scan:docs/tasks:136" for the check declared as "scan:docs/tasks:134"):
    # the names of the same page, nearest line first, before any spelling.
    page, colon, line = typed.rpartition(":")
    if colon and line.isascii() and line.isdigit():
        # The page as typed, or its tail after a "/" or ":" ("tasks:136", "docs/tasks:136" for "scan:docs/tasks").
        def same(name_page: str) -> bool:
            return name_page == page or (name_page.endswith(page) and name_page[: -len(page)][-1:] in ("/", ":"))

        same_page = []
        for name in known:
            name_page, _, name_line = name.rpartition(":")
            if name_line.isascii() and name_line.isdigit() and same(name_page):
                same_page.append((abs(int(name_line) - int(line)), name))
        if same_page:
            return [name for _, name in sorted(same_page)[:LISTED_ENTRIES]]
    if len(known) > MAX_CLOSE_LOOKUP:
        return []
    import difflib

    return difflib.get_close_matches(typed, known, n=LISTED_ENTRIES)


def report(text: str, to_stderr: bool = False) -> None:
    """A line (or lines) for the person at the terminal: stdout through the checked write path, or stderr."""
    if to_stderr:
        print(text, file=sys.stderr)
    else:
        emit_text(text)
