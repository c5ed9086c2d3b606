"""Pin the user's own documents into a manifest, and tell whether a saved result still matches its pins.

``pin_sources`` adds a file to a manifest (starting a new manifest if there is
none) or deliberately re-pins one after an edit. It runs the loader's own checks
on the file (inside the manifest's folder, no link, size bound, UTF-8, no NUL,
not blank, and whatever the manifest's Markdown grammar requires), then checks
the whole edited manifest exactly as a build would, span checks included, before
anything is written. It returns the new manifest's bytes; writing them is the
command line's job. A folder stands for every page under it (``page_files``:
``*.md``, and ``*.mdx`` under "blocks-3" to "blocks-10"); every source gets an id taken from
its path. A page of a folder the lab cannot take is passed over with its reason
unless the user asks for all or nothing.

``stale_sources`` and ``index_id_mismatches`` compare a validated result with
pins held outside it: the manifest's, or index ids the user recorded.

It does not chunk or compare spans: that is ``chunk_index``.
"""

from __future__ import annotations

import bisect
import fnmatch
import hashlib
import json
import os
import re
import shlex
import stat
from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath
from typing import NamedTuple

import chunk_index
import grammars
from checks import span_checks
from lab_io.errors import (
    NAME_LIMIT,
    IngestionError,
    UsageError,
    counted,
    first_few,
    printable,
    quoted,
    quoted_name,
    text_difference,
)
from lab_io.indented_json import saved_json_bytes
from lab_io.inert_json import inert_json_text
from lab_io.outputs import PAGE_SUFFIXES as NAMED_PAGE_SUFFIXES
from lab_io.outputs import lab_file_words
from load_documents import (
    DOCS_SET_BOUNDS,
    LESSON_BOUNDS,
    LINK_HINT,
    SOURCE_FIELDS,
    Manifest,
    check_manifest_size,
    checked_manifest_sources,
    decode_source_text,
    grammar_bounds,
    manifest_from_value,
    manifest_grammar,
    named_entry,
    quote_offsets,
    read_manifest_value,
    read_source_bytes,
    span_source_id,
)
from results import validate

DEFAULT_VERSION = "1.0"
# A local file has no published address; "local:" says so instead of inventing one.
LOCAL_URL_PREFIX = "local:"
# The lab cannot know whether a user's document is accurate, so the default says nothing is vouched for.
DEFAULT_FACT_STATUS = "unstated: local document pinned without --fact-status; the lab does not vouch for its facts"
# The fields a user may set with a flag; ``path`` and ``sha256`` always come from the file itself.
METADATA_FIELDS = ("source_id", "title", "version", "url", "fact_status")
# The flags that name one file's own metadata; --version and --fact-status may apply to a whole folder.
ONE_FILE_FIELDS = ("source_id", "title", "url")
# A folder stands for the pages under it, the files whose names end so; the rest (images, configs) are not sources.
MARKDOWN_SUFFIX = ".md"
MDX_SUFFIX = ".mdx"
PAGE_SUFFIXES = (MARKDOWN_SUFFIX, MDX_SUFFIX)
# The grammars that read MDX pages (ESM lines, JSX elements); under the others a folder's *.mdx pages are passed over.
MDX_GRAMMARS = grammars.MDX_GRAMMARS
# Why a page of a folder cannot be taken: the page's own fault, not the manifest's. Such a page is
# passed over with its reason (unless --all-or-nothing); any other refusal refuses the whole pin.
PASSED_OVER_CODES = frozenset(
    {
        "source_too_large",
        "not_utf8",
        "nul_character",
        "blank_text",
        "front_matter_unclosed",
        "heading_required",
        "source_unreadable",
        "source_missing",
        "source_not_file",
        "path_link",
        "path_unprintable",
    }
)


@dataclass(frozen=True)
class PinRequest:
    """One file to pin, as typed on the command line, and any metadata the user gave for it."""

    path: str
    source_id: str | None = None
    title: str | None = None
    version: str | None = None
    url: str | None = None
    fact_status: str | None = None
    # Found under a folder given on the command line: a page the lab cannot take is passed over, not refused.
    from_folder: bool = False

    def given(self) -> dict[str, str]:
        """The metadata fields the user set, by name: ``{"version": "1.1"}``."""
        return {field: getattr(self, field) for field in METADATA_FIELDS if getattr(self, field) is not None}


@dataclass(frozen=True)
class PinChange:
    """What pinning did to one source: ``new``, ``repinned`` or ``unchanged``."""

    kind: str
    source_id: str
    path: str
    old_sha256: str | None
    new_sha256: str
    changed_fields: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class PinOutcome:
    """The manifest's new bytes (``None`` when nothing changed), what changed source by source, and what a folder walk skipped."""

    manifest_bytes: bytes | None
    changes: tuple[PinChange, ...]
    skipped: tuple[str, ...] = ()
    folders: int = 0
    # One line per span moved by ``--reanchor`` (see ``reanchored_spans``).
    moved: tuple[str, ...] = ()
    # One line per span check ``--drop-stale`` removed (see ``dropped_checks``).
    dropped: tuple[str, ...] = ()
    # One line per page of a folder the lab could not take, with its reason (see ``PASSED_OVER_CODES``).
    passed_over: tuple[str, ...] = ()
    # One line per new page whose front matter's title was not taken, with why (``front_matter_title_read``).
    titles_passed_over: tuple[str, ...] = ()
    # How many pages of the folders --exclude left out, and each pattern that left out none (a typo, most often).
    excluded: int = 0
    unmatched_excludes: tuple[str, ...] = ()
    # What the manifest holds after the pin: its sources and span checks.
    sources: int = 0
    span_checks: int = 0


# Where a span check's span was refused: ``m.json: span_checks[5] ("scan:docs/faq:227").qualifier`` (its name when it
# has one, as ``load_documents.named_entry`` gives it, shortened or not).
REFUSED_SPAN = re.compile(r": span_checks\[(\d+)\](?: \(.*\))?\.(instruction|qualifier)$")


def manifest_relative_path(typed: str, folder: Path, where: str) -> str:
    """The path a manifest in ``folder`` records for the file typed as ``typed``.

    ``manifest_relative_path("work/docs/a.md", Path("work"), ...)`` -> ``"docs/a.md"``.
    Paths are compared as written (``abspath``), not resolved, so a link is
    still seen, and refused, by the loader's component-by-component check.
    """
    outside = f"{quoted_name(typed)} is not inside the manifest's folder {quoted_name(os.path.abspath(folder))}; {OUTSIDE_HINT}"
    try:
        relative = os.path.relpath(os.path.abspath(typed), os.path.abspath(folder))
    except ValueError as error:
        raise IngestionError("path_outside", where, outside) from error
    parts = PurePath(relative).parts
    if not parts or parts[0] == os.pardir or relative == os.curdir:
        raise IngestionError("path_outside", where, outside)
    return PurePath(relative).as_posix()


OUTSIDE_HINT = (
    "a manifest pins files under its own folder: put the manifest in a folder that holds the docs "
    "(e.g. at the docs repository's root, --manifest DOCS_REPO/m.json) and pin from there"
)


def pinnable_file(folder: Path, relative: str, where: str, grammar: str = grammars.LESSON_GRAMMAR) -> tuple[str, str]:
    """The sha256 and the text of a file that passes every check a build makes under ``grammar``.

    The lesson grammar wants a heading at offset 0; the block grammar takes
    text before the first heading, and refuses only what it cannot read (front
    matter that is never closed).
    """
    raw = read_source_bytes(folder, relative, where, grammar_bounds(grammar).source_bytes)
    text = decode_source_text(raw, relative, where, grammar)
    if grammar == grammars.LESSON_GRAMMAR:
        # Its only refusal is the opening heading; sections alone say so without cutting every paragraph.
        grammars.heading_sections(text, where)
    else:
        grammars.document_sections(text, grammar, where)
    return hashlib.sha256(raw).hexdigest(), text


# What ``pin`` says on stderr when it starts a manifest without ``--markdown``: the grammar is chosen then.
LESSON_GRAMMAR_NOTE = (
    "note: this new manifest reads its sources with the lesson grammar (a '# ' heading at offset 0, then "
    "paragraphs); for a docs site's pages (front matter, code fences, admonitions) "
    f"{grammars.BLOCKS_HINT} from the start: delete the manifest and pin again"
)


def manifest_to_update(manifest_path: Path, markdown: str | None = None) -> dict:
    """The manifest's parsed value, or a fresh empty one when the file does not exist yet.

    ``markdown`` (``pin --markdown``) is written into a new manifest; an
    existing manifest keeps its grammar, and asking for another is refused:
    switching changes every chunk id, so it is an edit made on purpose.
    """
    label = str(manifest_path)
    if not manifest_path.parent.is_dir():
        raise IngestionError(
            "manifest_folder_missing", label, f"folder {quoted_name(str(manifest_path.parent))} does not exist"
        )
    if not os.path.lexists(manifest_path):
        # The lesson grammar is what a manifest without the key means, so only another grammar is written,
        # and with it the sizes a pipeline runs (the lesson's 80 and 220 are sized for its two short pages).
        if markdown in (None, grammars.LESSON_GRAMMAR):
            return {"sources": [], "span_checks": []}
        return {"markdown": markdown, "policies": dict(chunk_index.PIPELINE_SIZES), "sources": [], "span_checks": []}
    value = read_manifest_value(manifest_path)
    checked_manifest_sources(value, label, allow_empty=True)
    grammar = manifest_grammar(value, label)
    if markdown is not None and markdown != grammar:
        raise IngestionError(
            "grammar_switch",
            printable(label),
            f"this manifest reads its sources with the {grammar} grammar, not {markdown}; switching would change "
            f'every chunk id and may move every boundary, so set "markdown": "{markdown}" in the manifest by hand '
            "if you mean it, or start a new manifest",
        )
    value.setdefault("span_checks", [])
    return value


def path_source_id(relative: str) -> str:
    """The id of a new source: its manifest-relative path without the file's suffix.

    ``path_source_id("docs/guide/index.md")`` -> ``"docs/guide/index"``, so
    the ``index.md`` that real docs repeat in every folder gets a distinct id,
    whether the file was found under a folder or named on the command line.
    """
    suffix = PurePosixPath(relative).suffix
    return relative[: -len(suffix)] if suffix else relative


def first_free_id(wanted: str, taken: AbstractSet[str]) -> str:
    """``wanted``, or the first of ``wanted-2``, ``wanted-3``, … that no source holds yet."""
    candidate = wanted
    number = 1
    while candidate in taken:
        number += 1
        candidate = f"{wanted}-{number}"
    return candidate


def is_folder(typed: str) -> bool:
    """Whether ``typed`` names a folder itself (a link to one is not: the loader refuses links).

    A trailing separator is dropped first: ``lstat("docs/")`` would follow a link named ``docs``.
    """
    try:
        return stat.S_ISDIR(os.lstat(typed.rstrip("/" + os.sep) or typed).st_mode)
    except OSError:
        return False


def page_files(typed: str, where: str) -> tuple[list[str], list[str]]:
    """Every ``*.md`` and ``*.mdx`` regular file under the folder ``typed``, and a line for each entry skipped.

    Sorted by path components (``a/b.md`` before ``a-b.md``), recursive,
    without following links. Hidden entries (a name starting with ``.``, such
    as ``.git``) are passed over silently, as are other files. A link is never
    followed, not even to learn what it points to (it may dangle, loop or lead
    into a folder that cannot be read): a link named as a page, or with no
    suffix (it may be a folder), is skipped with a line saying so; other links
    are passed over as other files are. A non-regular file named as a page is
    skipped with a line, and so is an entry whose type cannot be read.
    """
    found: list[tuple[tuple[str, ...], str]] = []
    skipped: list[tuple[tuple[str, ...], str]] = []
    pending = [()]
    while pending:
        parts = pending.pop()
        current = os.path.join(typed, *parts)
        try:
            with os.scandir(current) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
        except OSError as error:
            raise IngestionError(
                "folder_unreadable", where, f"{quoted_name(current)}: {error.strerror or error}"
            ) from error
        for entry in listed:
            if entry.name.startswith("."):
                continue
            entry_parts = (*parts, entry.name)
            shown = printable(os.path.join(typed, *entry_parts))
            is_page = entry.name.endswith(PAGE_SUFFIXES)
            try:
                # lstat only (follow_symlinks=False): a dangling link, a loop or an unreadable target is still a link.
                is_link = entry.is_symlink()
                is_folder = not is_link and entry.is_dir(follow_symlinks=False)
                is_file = not is_link and not is_folder and entry.is_file(follow_symlinks=False)
            except OSError as error:
                skipped.append((entry_parts, f"skipped {shown}: {error.strerror or error}"))
                continue
            if is_link:
                if is_page or "." not in entry.name:
                    skipped.append((entry_parts, f"skipped {shown}: a link; pin the file or folder it points to"))
            elif is_folder:
                pending.append(entry_parts)
            elif is_page:
                if is_file:
                    found.append((entry_parts, os.path.join(typed, *entry_parts)))
                else:
                    skipped.append((entry_parts, f"skipped {shown}: not a regular file"))
    found.sort()
    skipped.sort()
    return [path for _, path in found], [line for _, line in skipped]


def check_folder_inside(typed: str, folder: Path, where: str) -> None:
    """Refuse a folder PATH outside the manifest's folder, or reached through a link, before walking it.

    The folder itself is fine. Each component below the manifest's folder is
    looked at with ``lstat``, as the loader looks at a source's path: a walk
    through a linked folder would list pages that every build then refuses.
    """
    relative = os.path.relpath(os.path.abspath(typed), os.path.abspath(folder))
    if relative == os.curdir:
        return
    parts = PurePath(manifest_relative_path(typed, folder, where)).parts
    current = folder
    for index, part in enumerate(parts):
        current = current / part
        if os.path.islink(current):
            raise IngestionError(
                "path_link", where, f"{quoted_name('/'.join(parts[: index + 1]))} is a link; {LINK_HINT}"
            )


def is_manifest(path: str, manifest_path: Path) -> bool:
    """Whether ``path`` names the manifest itself (as typed, or the same file): the manifest is never a source."""
    if os.path.abspath(path) == os.path.abspath(manifest_path):
        return True
    try:
        return os.path.samefile(path, manifest_path)
    except OSError:
        return False


def excluded_by(relative: str, patterns: tuple[str, ...]) -> str | None:
    """The first of ``patterns`` (``fnmatch`` globs, ``*`` crossing ``/``) that the page at ``relative`` (its path
    under the folder pinned, with ``/``) or one of the folders above it matches, or ``None``.

    ``excluded_by("content/no/docs/a.md", ("content/no",))`` -> ``"content/no"``; so does ``"*/no"``, and
    ``"*.mdx"`` leaves out every MDX page.
    """
    parts = relative.split("/")
    prefixes = ["/".join(parts[: count + 1]) for count in range(len(parts))]
    for pattern in patterns:
        cleaned = pattern.strip("/")
        if any(fnmatch.fnmatchcase(prefix, cleaned) for prefix in prefixes):
            return pattern
    return None


def expanded_requests(
    requests: list[PinRequest], manifest_path: Path, grammar: str, where: str, exclude: tuple[str, ...] = ()
) -> tuple[list[PinRequest], list[str], int, int, tuple[str, ...]]:
    """The requests with each folder replaced by its pages; the skipped lines; how many folders; how many pages
    ``exclude`` left out (``excluded_by``), and the patterns that left out none.

    A file reached twice (a folder and the file itself) is pinned once; the
    manifest itself is skipped with a line, whatever its name. A file named
    on the command line is never excluded: it was asked for by name.
    """
    folder = manifest_path.parent
    max_files = grammar_bounds(grammar).folder_files
    expanded: list[PinRequest] = []
    skipped: list[str] = []
    folders = 0
    excluded = 0
    matched: set[str] = set()
    for request in requests:
        if not is_folder(request.path):
            expanded.append(request)
            continue
        folders += 1
        if any(getattr(request, field) is not None for field in ONE_FILE_FIELDS):
            raise UsageError(
                "pin_metadata",
                "pin",
                f"{quoted_name(request.path)} is a folder: --source-id, --title and --url need exactly one file PATH",
            )
        check_folder_inside(request.path, folder, f"{where}: pin {quoted_name(request.path)}")
        files, skipped_here = page_files(request.path, f"{where}: pin {quoted_name(request.path)}")
        walked = len(files)
        if exclude:
            kept_files = []
            for path in files:
                pattern = excluded_by(PurePath(os.path.relpath(path, request.path)).as_posix(), exclude)
                if pattern is None:
                    kept_files.append(path)
                else:
                    matched.add(pattern)
            excluded += walked - len(kept_files)
            files = kept_files
        if not files:
            raise IngestionError(
                "no_markdown_files",
                f"{where}: pin {quoted_name(request.path)}",
                (
                    f"no {MARKDOWN_SUFFIX} or {MDX_SUFFIX} file under this folder (hidden folders and links are not "
                    "searched)"
                    if not walked
                    else f"every one of its {walked:,} pages is left out by --exclude"
                ),
            )
        if len(files) > max_files:
            raise IngestionError(
                "too_many_files",
                f"{where}: pin {quoted_name(request.path)}",
                f"{len(files):,} pages, more than the {max_files:,} a manifest read with the {grammar} grammar holds; "
                + (
                    "pin with a block grammar (pin --markdown blocks-10) into a new manifest, or pin its subfolders "
                    "into separate manifests"
                    if grammar == grammars.LESSON_GRAMMAR
                    else "pin its subfolders into separate manifests"
                ),
            )
        shared = {"version": request.version, "fact_status": request.fact_status}
        expanded.extend(PinRequest(path, from_folder=True, **shared) for path in files)
        skipped.extend(skipped_here)
    seen: set[str] = set()
    unique = []
    for request in expanded:
        key = os.path.abspath(request.path)
        if key in seen:
            continue
        seen.add(key)
        if is_manifest(request.path, manifest_path):
            skipped.append(f"skipped {printable(request.path)}: the manifest itself is never one of its sources")
            continue
        unique.append(request)
    return unique, skipped, folders, excluded, tuple(pattern for pattern in exclude if pattern not in matched)


def new_source_entry(
    relative: str, sha256: str, request: PinRequest, taken: AbstractSet[str] = frozenset(), title: str | None = None
) -> dict:
    """A brand-new source entry; omitted metadata gets defaults that claim nothing.

    The id defaults to the file's manifest-relative path without its suffix
    (``path_source_id``), made unique against ``taken``, the title to ``title``
    (the page's own, ``front_matter_title``) or else the id, the version to
    ``1.0``, the url to ``local:<path>`` and the fact status to "unstated".
    """
    given = request.given()
    source_id = given.get("source_id", first_free_id(path_source_id(relative), taken))
    return {
        "source_id": source_id,
        "path": relative,
        "title": given.get("title", title or source_id),
        "sha256": sha256,
        "version": given.get("version", DEFAULT_VERSION),
        "url": given.get("url", LOCAL_URL_PREFIX + relative),
        "fact_status": given.get("fact_status", DEFAULT_FACT_STATUS),
    }


# Where a new page's title comes from (``pin --titles``): its front matter's ``title``, else its id; or its id.
TITLE_SOURCES = ("front-matter", "id")
# A title longer than this is no title (a paragraph pasted into the field): the id stands instead.
MAX_TITLE_CHARACTERS = 300
# A top-level ``title`` key: ``title: X`` in YAML (``---``), ``title = "X"`` in TOML (``+++``).
FRONT_MATTER_TITLE = {
    "---": re.compile(r"^title[ \t]*:(?P<value>[^\n]*)$", re.MULTILINE),
    "+++": re.compile(r"^title[ \t]*=(?P<value>[^\n]*)$", re.MULTILINE),
}
# A TOML table's header: the keys after it are the table's (``[params]`` then ``title = …`` is params.title).
TOML_TABLE = re.compile(r"^[ \t]*\[", re.MULTILINE)
# What YAML reads as no value at all.
YAML_NULLS = frozenset({"~", "null", "Null", "NULL"})
# A plain YAML scalar may not open on one of these: a block scalar, a flow collection, an anchor, a tag, ...
YAML_INDICATORS = frozenset("|>[]{}&*!%@`#,?-\"'")


def front_matter_title(text: str, grammar: str) -> str | None:
    """The ``title`` a page's front matter gives it, or ``None``: no front matter (or the lesson grammar, which
    reads none), no top-level ``title``, or one this reading does not take (``front_matter_title_read``).

    ``front_matter_title("---\\ntitle: 'It''s here'\\n---\\n", "blocks-4")`` -> ``"It's here"``.
    """
    return front_matter_title_read(text, grammar)[0]


def front_matter_title_read(text: str, grammar: str) -> tuple[str | None, str | None]:
    """The ``title`` a page's front matter gives it, and why one it holds is not taken: ``(title, None)``,
    ``(None, reason)``, or ``(None, None)`` for a page with no title to take (no front matter, the lesson grammar,
    no top-level ``title``, an empty or null one).

    Taken: a plain scalar on its line (``title: Get started``, a ``#`` comment after a space cut off), a
    single-quoted one (``''`` is a quote) and a double-quoted one or a TOML basic string (JSON's escapes); a TOML
    literal string (``'...'``). Left to the id, with the reason ``pin`` prints: block scalars (``title: >``), flow
    collections, anchors, tags, a value over ``MAX_TITLE_CHARACTERS``, one that does not print as it is or names
    nothing; and, with no reason (no title of the page's own), anything nested (an indented ``title``).
    """
    if grammar == grammars.LESSON_GRAMMAR:
        return None, None
    try:
        end = grammars.front_matter_end_under(text, "front matter", grammar)
    except IngestionError:
        return None, None
    if not end:
        return None, None
    delimiter = text[: text.find("\n")].rstrip(" \t")
    body = text[text.find("\n") + 1 : end]
    if delimiter == "+++":
        table = TOML_TABLE.search(body)
        body = body if table is None else body[: table.start()]
    match = FRONT_MATTER_TITLE[delimiter].search(body)
    if match is None:
        return None, None
    raw = match.group("value")
    # YAML wants a space after the colon ("title:x" is no key of its own); the value is trimmed in code, not by
    # the pattern, which would try every split of a long run of spaces.
    if delimiter == "---" and raw[:1] not in ("", " ", "\t"):
        return None, None
    if len(raw) > 4 * MAX_TITLE_CHARACTERS:
        return None, TITLE_TOO_LONG
    raw = raw.strip(" \t")
    if not raw or (delimiter == "---" and raw in YAML_NULLS):
        return None, None
    value = quoted_scalar(raw, toml=delimiter == "+++")
    if value is None:
        return None, "is not a one-line string the lab reads (a block scalar, a list, an anchor, a tag or a bad quote)"
    if not value.strip():
        return None, None
    if len(value) > MAX_TITLE_CHARACTERS:
        return None, TITLE_TOO_LONG
    # A title names a page wherever the lab shows it: one that does not print as it is (a control, a lone
    # zero-width space) is left to the id.
    if not value.strip().isprintable():
        return None, "holds a character that does not print (a control or an invisible one)"
    if not any(character.isalnum() for character in value):
        return None, "names nothing (no letter or digit)"
    return value.strip(), None


TITLE_TOO_LONG = f"is longer than {MAX_TITLE_CHARACTERS} characters"


def quoted_scalar(raw: str, toml: bool) -> str | None:
    """One line's scalar value, its quotes read (see ``front_matter_title``); ``None`` if it is not one."""
    if raw.startswith('"'):
        closing = re.match(r'"(?:[^"\\]|\\.)*"', raw)
        if closing is None or raw[closing.end() :].strip(" \t")[:1] not in ("", "#"):
            return None
        try:
            value = json.loads(closing.group(0))
            # A lone surrogate ("\\ud800") is no text a manifest can hold.
            value.encode("utf-8")
        except (ValueError, UnicodeEncodeError):
            return None
        return value
    if raw.startswith("'"):
        closing = re.match(r"'[^']*'" if toml else r"'(?:[^']|'')*'", raw)
        if closing is None or raw[closing.end() :].strip(" \t")[:1] not in ("", "#"):
            return None
        inner = closing.group(0)[1:-1]
        return inner if toml else inner.replace("''", "'")
    if toml or raw[0] in YAML_INDICATORS:
        return None
    # A plain scalar ends where a comment opens (" #") and may not hold ": " (a mapping).
    comment = re.search(r"[ \t]#", raw)
    value = raw[: comment.start()] if comment else raw
    return None if ": " in value else value


def repinned_entry(entry: dict, sha256: str, request: PinRequest, where: str) -> dict:
    """An existing entry with the file's new hash and any metadata the user changed, keys in place."""
    given = request.given()
    if "source_id" in given and given["source_id"] != entry["source_id"]:
        raise IngestionError(
            "source_id_mismatch",
            where,
            f"this file is pinned as {quoted_name(entry['source_id'])}, not {quoted_name(given['source_id'])}; "
            "renaming a source would orphan its span checks, so edit the manifest to rename it",
        )
    updated = dict(entry)
    updated.update(given)
    updated["sha256"] = sha256
    return updated


def entry_change(old: dict | None, new: dict) -> PinChange:
    """How ``new`` differs from ``old`` (``None`` for a brand-new source)."""
    if old is None:
        return PinChange("new", new["source_id"], new["path"], None, new["sha256"], ())
    changed = tuple((field, old[field], new[field]) for field in SOURCE_FIELDS if old[field] != new[field])
    kind = "repinned" if changed else "unchanged"
    return PinChange(kind, new["source_id"], new["path"], old["sha256"], new["sha256"], changed)


class PinnedSpan(NamedTuple):
    """A well-formed span of a check on a source being pinned: the check's index, its check and role, the text."""

    index: int
    check: str
    role: str
    span: dict
    text: str

    @property
    def label(self) -> str:
        """``'span_checks[3] ("open").qualifier'``: the place a refusal names."""
        return f"{self.check}.{self.role}"

    @property
    def stale(self) -> bool:
        """Whether the span no longer holds: its offsets hold other text, or a quote given alone is not there once."""
        if "start" in self.span:
            return not holds_quote(self.span, self.text)
        return only_place(self.text, self.span["quote"]) is None


def pinned_spans(value: dict, texts: dict[str, str]):
    """Each well-formed span of a source in ``texts``: ``{"start", "end", "quote"}``, or ``{"quote"}`` alone.

    Malformed checks are left to the manifest's own checks, which refuse them with their place.
    """
    checks = value.get("span_checks")
    if type(checks) is not list:
        return
    for index, check in enumerate(checks):
        if type(check) is not dict:
            continue
        for role in ("instruction", "qualifier"):
            span = check.get(role)
            if type(span) is not dict or type(span.get("quote")) is not str or not span["quote"]:
                continue
            offsets = {"start", "end"} & span.keys()
            if offsets and (
                offsets != {"start", "end"} or type(span["start"]) is not int or type(span["end"]) is not int
            ):
                continue
            source_id = span_source_id(span, check.get("source_id"))
            text = texts.get(source_id) if type(source_id) is str else None
            if text is not None:
                yield PinnedSpan(index, f"span_checks[{index}]{named_entry(check)}", role, span, text)


def only_place(text: str, quote: str) -> int | None:
    """Where ``quote`` starts in ``text`` if it occurs there exactly once, else ``None``: two finds, never a list."""
    first = text.find(quote)
    return None if first == -1 or text.find(quote, first + 1) != -1 else first


def holds_quote(span: dict, text: str) -> bool:
    """Whether ``text[start:end]`` is the span's quote, with the offsets inside the text."""
    return 0 <= span["start"] < span["end"] <= len(text) and text[span["start"] : span["end"]] == span["quote"]


# A quote found at several places moves to the one nearest its old start only when every other place is at least
# this many times as far from it. An edit above a span shifts it, and every repeat of its quote below the edit, by the
# edit's size d: the quote it held is then d from its old start, and a repeat g characters from that one is at least
# g - d from it, so the quote it held is chosen after any edit of up to a third of the spacing g of the repeats (a
# word changed above a page of repeated steps); a larger one is refused rather than guessed at.
CLEARLY_NEARER = 2
# The other span of a check: the one whose move a moved span of several places must agree with.
PARTNER_ROLE = {"instruction": "qualifier", "qualifier": "instruction"}


def nearest_places(offsets: list[int], old_start: int) -> tuple[int, int | None]:
    """The start in sorted, non-empty ``offsets`` nearest ``old_start``, and the next nearest (``None`` if none).

    ``nearest_places([10, 101, 400], 100)`` -> ``(101, 10)``; a tie goes to the earlier place,
    ``nearest_places([95, 105], 100)`` -> ``(95, 105)``. Only the two places on each side of
    ``old_start`` can be the nearest two, so a bisection finds them among any number.
    """
    after = bisect.bisect_left(offsets, old_start)
    around = offsets[max(0, after - 2) : after + 2]
    ranked = sorted(around, key=lambda start: (abs(start - old_start), start))
    return ranked[0], ranked[1] if len(ranked) > 1 else None


def clearly_nearest(old_start: int, nearest: int, runner_up: int | None) -> bool:
    """Whether ``nearest`` is the place to move to: the only one, or the others ``CLEARLY_NEARER`` times as far or more.

    ``clearly_nearest(100, 101, 10)`` -> ``True`` (1 away, the next 90); ``clearly_nearest(100, 95, 105)`` -> ``False``.
    """
    if runner_up is None:
        return True
    return abs(runner_up - old_start) >= CLEARLY_NEARER * abs(nearest - old_start)


class NewPlace(NamedTuple):
    """Where ``--reanchor`` would move a stale span: the start chosen, its quote's count of places, the next nearest."""

    pinned: PinnedSpan
    start: int
    places: int
    runner_up: int | None

    @property
    def shift(self) -> int:
        """How far the span would move: ``+1`` after one character was added above it."""
        return self.start - self.pinned.span["start"]


class Anchors(NamedTuple):
    """The spans of one text whose move is certain, by old start: each holds its quote (shift 0) or moved to the
    one place its quote occurs. ``shifts[start]`` holds every shift seen at that start; ``starts`` is sorted."""

    starts: list[int]
    shifts: dict[int, set[int]]

    def around(self, old_start: int) -> tuple[set[int] | None, set[int] | None]:
        """The shifts of the nearest anchor at or before ``old_start`` and at or after it (``None``: no anchor there).

        With anchors at 50 (shift 0) and 180 (+77): ``around(134)`` -> ``({0}, {77})``,
        ``around(200)`` -> ``({77}, None)``.
        """
        before = bisect.bisect_right(self.starts, old_start)
        after = bisect.bisect_left(self.starts, old_start)
        return (
            self.shifts[self.starts[before - 1]] if before else None,
            self.shifts[self.starts[after]] if after < len(self.starts) else None,
        )


def shift_words(shifts: set[int]) -> str:
    """``{77}`` -> ``"+77"``, ``{0, 3}`` -> ``"0 or +3"``."""
    return " or ".join(f"{shift:+,}" if shift else "0" for shift in sorted(shifts))


def place_refusal(place: NewPlace, partner: NewPlace | None, anchors: Anchors | None) -> str | None:
    """Why ``--reanchor`` does not take ``place``, the clearly nearest of several, or ``None`` when it does.

    Not when the check's other span moves by another shift (``partner``), nor when the nearest anchors on either
    side of the old start (``Anchors.around``) moved by another: an edit shifts a span as it shifts the text
    around it, so a nearer place that neither agrees with is a copy or a neighbour, not the quote that moved.
    """
    if place.places == 1:
        return None
    quote = place.pinned.span["quote"]
    taken = f"--reanchor took none of its {place.places:,} places: the nearest, {span_text(place.start, quote)}, would "
    if partner is not None and partner.shift != place.shift:
        return (
            f"{taken}move it by {place.shift:+,}, its {partner.pinned.role} by {partner.shift:+,}, and an edit above "
            "both would move them alike"
        )
    before, after = anchors.around(place.pinned.span["start"]) if anchors is not None else (None, None)
    sides = [side for side in (before, after) if side is not None]
    if not sides or any(place.shift in side for side in sides):
        return None
    if before is not None and after is not None:
        neighbours = (
            "the nearest spans before and after it that hold their quotes or moved to their one place moved by "
            f"{shift_words(before)} and {shift_words(after)}"
        )
    else:
        neighbours = (
            f"the nearest span {'before' if before is not None else 'after'} it that holds its quote or moved to "
            f"its one place moved by {shift_words(sides[0])}"
        )
    return f"{taken}move it by {place.shift:+,}, but {neighbours}, and an edit moves a span as the text around it"


def span_text(start: int, quote: str) -> str:
    """``"[120, 135)"``: the offsets a span at ``start`` holding ``quote`` would have."""
    return f"[{start}, {start + len(quote)})"


def reanchored_spans(value: dict, texts: dict[str, str]) -> tuple[list[tuple[int, str]], dict[tuple[int, str], str]]:
    """Move each stale span of a source in ``texts`` to its quote's new place; a line per move, and why not, per span.

    The quote is what the user declared, the offsets only where it was, so:

    - a quote that now occurs once moves there
      (``(0, 'moved span_checks[0] ("open").qualifier: [120, 160) -> [131, 171)')``);
    - a quote that occurs at several places moves to the one whose start is nearest its old start, if every other
      is at least ``CLEARLY_NEARER`` times as far from it, and if the move agrees with the spans whose move is
      certain (``place_refusal``): the check's other span, when it moves too, and the nearest ``Anchors`` around
      it. Its line names the choice
      (``..., the nearest of the 2 places its quote occurs (next nearest [530, 545))``);
    - a quote that is gone, or has no such place, is left as it is, and the manifest's check refuses it, saying
      where it occurs. A quote given alone has no offsets to move.

    The dict says, by the check's index and the span's role, why a span whose quote has several places was not
    moved, for the refusal to say. Each quote is looked for once per text, however many checks quote it.
    """
    found: dict[tuple[str, str], list[int]] = {}
    proposals: dict[int, dict[str, NewPlace]] = {}
    unmoved: dict[tuple[int, str], str] = {}
    certain: dict[str, dict[int, set[int]]] = {}
    for pinned in pinned_spans(value, texts):
        span, text = pinned.span, pinned.text
        if "start" not in span:
            continue
        if holds_quote(span, text):
            certain.setdefault(text, {}).setdefault(span["start"], set()).add(0)
            continue
        key = (text, span["quote"])
        if key not in found:
            found[key] = quote_offsets(text, span["quote"])
        offsets = found[key]
        if not offsets:
            continue
        if len(offsets) == 1:
            certain.setdefault(text, {}).setdefault(span["start"], set()).add(offsets[0] - span["start"])
        nearest, runner_up = nearest_places(offsets, span["start"])
        if not clearly_nearest(span["start"], nearest, runner_up):
            unmoved[(pinned.index, pinned.role)] = (
                f"--reanchor took none of its {len(offsets):,} places: the two nearest its old start "
                f"{span['start']}, {span_text(nearest, span['quote'])} and {span_text(runner_up, span['quote'])}, "
                f"lie {abs(nearest - span['start']):,} and {abs(runner_up - span['start']):,} characters from it, "
                "so neither is clearly the one it was (the nearer must be twice as near)"
            )
            continue
        proposals.setdefault(pinned.index, {})[pinned.role] = NewPlace(pinned, nearest, len(offsets), runner_up)
    anchors = {text: Anchors(sorted(shifts), shifts) for text, shifts in certain.items()}
    moved = []
    for index, places in proposals.items():
        for role, place in places.items():
            why = place_refusal(place, places.get(PARTNER_ROLE[role]), anchors.get(place.pinned.text))
            if why is not None:
                unmoved[(index, role)] = why
                continue
            moved.append((index, moved_line(place)))
        gap = gap_change(value["span_checks"][index], places, unmoved, index)
        if gap and moved and moved[-1][0] == index:
            # Most moves shift both spans alike; one that changes how far apart they are is the one to look at.
            moved[-1] = (
                index,
                f"{moved[-1][1]}; its two spans are now {abs(gap):,} characters "
                f"{'farther apart' if gap > 0 else 'nearer'}",
            )
        # Applied once the whole check is decided: each shift above is measured from the old offsets.
        for role, place in places.items():
            if (index, role) not in unmoved:
                span = place.pinned.span
                span["start"], span["end"] = place.start, place.start + len(span["quote"])
    return moved, unmoved


def gap_change(check: dict, places: dict, unmoved: dict, index: int) -> int:
    """How much farther apart (positive) or nearer (negative) a check's two spans' starts are once the spans of
    ``places`` that move have moved; 0 when they keep their distance, or a span has no offsets."""
    starts = {}
    for role in ("instruction", "qualifier"):
        span = check.get(role) if type(check) is dict else None
        if type(span) is not dict or type(span.get("start")) is not int:
            return 0
        place = places.get(role)
        starts[role] = (
            span["start"],
            place.start if place is not None and (index, role) not in unmoved else span["start"],
        )
    before = abs(starts["qualifier"][0] - starts["instruction"][0])
    after = abs(starts["qualifier"][1] - starts["instruction"][1])
    return after - before


def moved_line(place: NewPlace) -> str:
    """``'moved span_checks[0] ("open").qualifier: [120, 160) -> [131, 171)'``, and the choice made among several."""
    span = place.pinned.span
    line = f"moved {place.pinned.label}: [{span['start']}, {span['end']}) -> {span_text(place.start, span['quote'])}"
    if place.places == 1:
        return line
    return (
        f"{line}, the nearest of the {place.places:,} places its quote occurs "
        f"(next nearest {span_text(place.runner_up, span['quote'])})"
    )


# How many stale spans a refusal names before it counts the rest.
STALE_NAMED = 3


def dropped_checks(
    value: dict, texts: dict[str, str], accepted: frozenset = frozenset(), entries: list | None = None
) -> list[tuple[int, str]]:
    """Remove each span check of which a span of a source in ``texts`` is stale; a line per check, with its index.

    ``[(3, 'dropped span_checks[3] ("open"): its qualifier quotes "It must not run twice.", which occurs 0
    times in the new text')]``, the index as it was. Run after ``reanchored_spans``, so what is left stale has
    no one honest new place: the quote is gone or occurs several times. The remaining checks keep their
    order; ``scan --add-checks`` proposes a pair again where the new text holds one. A check a review accepted
    (``accepted``: the decisions' keys: the source id and both quotes, each run of whitespace one space) says so, and
    how to declare it again. ``entries``, when given, gets the ``entry_line`` of each check dropped that no scan
    declares again as it was.
    """
    stale: dict[int, str] = {}
    for pinned in pinned_spans(value, texts):
        if pinned.index in stale or not pinned.stale:
            continue
        found = len(quote_offsets(pinned.text, pinned.span["quote"]))
        line = (
            f"dropped {pinned.check}: its {pinned.role} quotes {quoted(pinned.span['quote'])}, which occurs "
            f"{found:,} {'time' if found == 1 else 'times'} in the new text"
        )
        check = value["span_checks"][pinned.index]
        if accepted and accepted_check_key(check) in accepted:
            line += "; a review accepted it: scan --accept declares it again once the scan finds its pair again"
        stale[pinned.index] = line
        if entries is not None:
            entries.extend(entry_line(pinned.check, check))
    if stale:
        value["span_checks"] = [check for index, check in enumerate(value["span_checks"]) if index not in stale]
    return sorted(stale.items())


def entry_line(label: str, check: dict) -> list[str]:
    """The line that keeps a dropped check's whole entry, one line of inert JSON, when no scan declares it again as
    it was: one of the user's own, one imported, or one holding a ``query`` the scan does not write (a page renamed,
    a quote reworded: it can be declared again by hand); none for a check a scan declared and would declare again.
    ``label``: the check as its dropped line names it, ``span_checks[3] ("open")``."""
    from checks.caveats.findings import NAME_PREFIX

    name = check.get("name")
    if type(name) is str and name.startswith(NAME_PREFIX) and "query" not in check:
        return []
    # Readable as the manifest holds it (an accent as itself), and inert: what does not print is its \u escape.
    entry = inert_json_text(json.dumps(check, ensure_ascii=False))
    return [f"entry of {label}, which no scan declares again as it was: {entry}"]


def listed_checks(value: dict) -> list:
    """The manifest's ``span_checks`` when it is a list, else none (the loader refuses any other)."""
    checks = value.get("span_checks", [])
    return checks if type(checks) is list else []


def removed_sources(
    value: dict,
    asked: list[PinRequest],
    folder: Path,
    accepted: frozenset,
    indexes_before: dict[int, int],
    entries: list | None = None,
) -> list[str]:
    """Remove each source under a folder of ``asked`` whose file is gone, with its span checks; a line for each.

    What ``--drop-stale`` does for a page deleted from a folder pinned again: its checks' quotes are gone with it.
    Only a source whose path lies under a folder named in this pin is removed, never one pinned file by file or
    from elsewhere (that is still refused, ``source_missing``). Each check removed is named with its index as it
    was before the pin (``indexes_before``, by the check's identity), and one a review accepted says so;
    ``entries``, when given, gets the ``entry_line`` of each.
    """
    roots = [
        PurePosixPath(PurePath(os.path.relpath(os.path.abspath(request.path), os.path.abspath(folder))).as_posix())
        for request in asked
        if is_folder(request.path)
    ]
    gone: dict[str, str] = {}
    gone_bytes: dict[str, object] = {}
    kept = []
    for entry in value["sources"]:
        path = entry.get("path") if type(entry) is dict else None
        under = type(path) is str and any(
            root == PurePosixPath(".") or root in PurePosixPath(path).parents for root in roots
        )
        if under and type(entry.get("source_id")) is str and not os.path.lexists(folder / path):
            gone[entry["source_id"]] = path
            gone_bytes[entry["source_id"]] = entry.get("sha256")
        else:
            kept.append(entry)
    if not gone:
        return []
    # A page moved or renamed in the folder: its bytes are pinned again under another id, which nothing here links.
    pinned_bytes: dict[object, dict] = {}
    for entry in kept:
        if type(entry) is dict and type(entry.get("sha256")) is str:
            pinned_bytes.setdefault(entry["sha256"], entry)
    value["sources"] = kept
    checks = listed_checks(value)
    removed = [check for check in checks if type(check) is dict and check.get("source_id") in gone]
    # Counted once for every page: a count per page over every removed check cost pages x checks.
    counts = Counter(check["source_id"] for check in removed)
    lines = []
    for source_id, path in gone.items():
        lines.append(
            f"dropped source {quoted_name(source_id)}: {quoted_name(path)} no longer exists"
            + held_checks(counts[source_id])
            + renamed_note(pinned_bytes.get(gone_bytes[source_id]))
        )
    for check in sorted(removed, key=lambda check: indexes_before.get(id(check), 0)):
        label = f"span_checks[{indexes_before.get(id(check), 0)}]{named_entry(check)}"
        line = f"dropped {label}: its source {quoted_name(check['source_id'])} was removed"
        if entries is not None:
            entries.extend(entry_line(label, check))
        if accepted and accepted_check_key(check) in accepted:
            # Its page is gone, so no scan finds the pair again: the decision is left for scan to name as unmatched.
            line += "; a review accepted it: scan names that decision as unmatched, scan --forget-unmatched drops it"
        lines.append(line)
    if removed:
        removed_ids = {id(check) for check in removed}
        value["span_checks"] = [check for check in checks if id(check) not in removed_ids]
    return lines


def renamed_note(same: dict | None) -> str:
    """What a dropped page whose bytes the manifest still pins under another id (``same``, that entry) is told:
    ``'; "docs/b" ("docs/b.md") holds its very bytes: ...'``, or nothing.

    A renamed page is the old one removed and a new one pinned: its checks go with the old id, and the review
    decisions on its pairs match no pair found now, so a pair rejected before is proposed again.
    """
    if same is None or type(same.get("source_id")) is not str or type(same.get("path")) is not str:
        return ""
    return (
        f"; {quoted_name(same['source_id'])} ({quoted_name(same['path'])}) holds its very bytes: if it was renamed, "
        "its checks and review decisions do not follow it (scan --add-checks proposes its pairs again, one "
        "rejected before too, and scan names the old decisions as unmatched)"
    )


def held_checks(count: int) -> str:
    """What a removed page took with it: ``" (with its 2 span checks, each named below)"``, ``" (with its span check,
    named below)"``, or nothing."""
    if not count:
        return ""
    return (
        " (with its span check, named below)" if count == 1 else f" (with its {count:,} span checks, each named below)"
    )


def accepted_check_key(check: dict) -> tuple | None:
    """A check's key as review decisions key a pair: its source id and both quotes, each run of whitespace one
    space; ``None`` for an entry without them (the loader refuses it anyway)."""
    source_id = check.get("source_id")
    quotes = [
        check[role].get("quote") if type(check.get(role)) is dict else None for role in ("instruction", "qualifier")
    ]
    if type(source_id) is not str or not all(type(quote) is str for quote in quotes):
        return None
    return source_id, *(" ".join(quote.split()) for quote in quotes)


def verified_manifest(
    value: dict,
    folder: Path,
    label: str,
    stale: list[str] | None = None,
    offer_reanchor: bool = True,
    offer_drop_stale: bool = True,
    unmoved: dict[tuple[int, str], str] | None = None,
) -> Manifest:
    """The edited manifest checked exactly as a build loads it; any refusal says nothing was written.

    A span check that no longer matches a re-pinned text (its offsets hold other
    text, or lie past the end of a page cut shorter) is refused here, so a pin
    never leaves a manifest whose checks went stale without a word. ``stale``
    names the spans of the files pinned that no longer hold their quotes
    (``PinnedSpan.stale``); the refusal offers ``--reanchor`` and ``--drop-stale``
    as remedies only where they were not tried and could help. ``unmoved``
    (from ``reanchored_spans``) says why ``--reanchor`` left the refused span
    where it was when its quote occurs at several places.
    """
    try:
        return manifest_from_value(value, folder, label)
    except IngestionError as error:
        hint = "; the manifest is unchanged"
        refused_span = REFUSED_SPAN.search(error.where)
        if refused_span is not None and unmoved:
            why = unmoved.get((int(refused_span.group(1)), refused_span.group(2)))
            hint = f"; {why}{hint}" if why else hint
        if error.code == "hash_mismatch":
            hint += " (if that edit is intended too, pin both files in one call)"
        elif error.code == "source_missing":
            hint += (
                " (if the file was removed on purpose, pin its folder again with --drop-stale, which removes its entry "
                "and its span checks, naming each; or remove them from the manifest by hand)"
            )
        elif error.code in ("stale_span_check", "quote_not_found", "quote_ambiguous", "span_out_of_range"):
            stale = stale or []
            if len(stale) > 1:
                named = first_few(stale, STALE_NAMED)
                hint += f"; {len(stale):,} spans of the files pinned here no longer hold their quotes: {named}"
            remedies = (
                [
                    "pin again with --reanchor to move each span whose quote now appears once, or at several places "
                    "one clearly nearest its old start"
                ]
                if offer_reanchor
                else []
            )
            if offer_drop_stale:
                remedies.append(
                    "--drop-stale also removes each check whose quote is gone or occurs more than once with none "
                    "of its places clearly the one it was, naming it, for scan --add-checks to propose again"
                )
            remedies.append(
                "fix such a check by hand: correct its offsets or quote, or add start/end to pick one place of an "
                "ambiguous quote"
            )
            hint += f" ({'; '.join(remedies)})"
        raise IngestionError(error.code, error.where, error.what + hint) from error


def block_grammar_takes(reason: str, path: Path) -> bool:
    """Whether a page the lesson grammar passed over for ``reason`` is one a block grammar would take: it opens on no
    '# ' heading, it is MDX, or it is over the lesson's bound and within a docs set's."""
    if reason.startswith(("heading_required: ", "an MDX page")):
        return True
    if reason.startswith("source_too_large: "):
        try:
            return path.stat().st_size <= DOCS_SET_BOUNDS.source_bytes
        except OSError:
            return False
    return False


def page_problem(
    request: PinRequest, relative: str, folder: Path, where: str, grammar: str, all_or_nothing: bool = False
) -> tuple[str, str] | str:
    """The sha256 and text of a new page to pin, or, for a page of a folder the lab cannot take, why not.

    A page of a folder is passed over when it is the page's own fault (over the
    grammar's bound, not UTF-8, front matter never closed: ``PASSED_OVER_CODES``)
    or an MDX page under a grammar that does not read MDX; any other refusal,
    any refusal of a file named on the command line, and with ``all_or_nothing``
    every one, refuses the pin.
    """
    if request.from_folder and relative.endswith(MDX_SUFFIX) and grammar not in MDX_GRAMMARS:
        newest = MDX_GRAMMARS[-1]
        reason = (
            f"an MDX page; only the grammars {MDX_GRAMMARS[0]} to {newest} read MDX (pin --markdown {newest} into a "
            "new manifest)"
        )
        if all_or_nothing:
            raise IngestionError(
                "mdx_page", where, f"{quoted_name(relative)} is {reason}; or pin it by name to read it as Markdown"
            )
        return reason
    if not request.from_folder and PurePosixPath(relative).suffix.lower() not in NAMED_PAGE_SUFFIXES:
        refuse_lab_file(folder / relative, relative, where)
        refuse_code_or_data(relative, where)
    try:
        return pinnable_file(folder, relative, where, grammar)
    except IngestionError as error:
        if all_or_nothing or not request.from_folder or error.code not in PASSED_OVER_CODES:
            raise
        return f"{error.code}: {error.what}"


def refuse_lab_file(path: Path, relative: str, where: str) -> None:
    """Refuse a file named on the command line, not named as a page (``.md``, ``.mdx``, ``.markdown``), that is one
    of the lab's own (``existing_kind``) or a command's ``--json`` report: read as a page, its JSON or HTML would be
    chunked and scanned as docs text. One that cannot be read is left to the page's own checks, which say why."""
    words = lab_file_words(path)
    if words is not None:
        raise IngestionError(
            "source_is_lab_file",
            where,
            f"{quoted_name(relative)} is {words}, not a page; pin the docs' Markdown pages or their folder",
        )


# What a file named with one of these suffixes holds: code, styles, data, configuration or an image, never a page of
# docs (a shell's ``docs/*.*`` names a Mintlify site's docs.json, conftest.py, script.js, styles.css and favicon.svg
# beside its pages; an SVG is text, so it would be pinned and read as a page).
NOT_PAGE_SUFFIXES = {
    **dict.fromkeys((".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".sh", ".rb", ".go", ".rs"), "code"),
    **dict.fromkeys((".css", ".scss", ".sass", ".less"), "a style sheet"),
    **dict.fromkeys(
        (".json", ".jsonl", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".lock", ".xml", ".csv", ".tsv"), "data"
    ),
    **dict.fromkeys((".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico"), "an image"),
}


def refuse_code_or_data(relative: str, where: str) -> None:
    """Refuse a file named on the command line whose suffix says it holds code, styles, data or an image
    (``NOT_PAGE_SUFFIXES``): read as a page, it would be chunked and scanned as docs text. A folder's such files are
    passed over, as every file not a page is; a file of any other suffix (``notes.txt``) is read as a page."""
    suffix = PurePosixPath(relative).suffix.lower()
    if suffix in NOT_PAGE_SUFFIXES:
        raise IngestionError(
            "source_not_a_page",
            where,
            f"{quoted_name(relative)} is {NOT_PAGE_SUFFIXES[suffix]} ({suffix}), not a Markdown page; pin the docs' "
            "pages (*.md, *.mdx) or their folder, which passes such files over",
        )


def pin_sources(
    manifest_path: Path,
    requests: list[PinRequest],
    markdown: str | None = None,
    reanchor: bool = False,
    all_or_nothing: bool = False,
    drop_stale: bool = False,
    titles: str = TITLE_SOURCES[0],
    progress=None,
    accepted: frozenset = frozenset(),
    exclude: tuple[str, ...] = (),
) -> PinOutcome:
    """Pin each requested file (or every page under a requested folder) into the manifest at ``manifest_path``.

    Existing entries keep their place and key order; new ones are appended.
    Nothing is written here, and a refusal leaves no trace of the attempt.
    ``markdown`` chooses the grammar of a new manifest (see ``manifest_to_update``).
    ``reanchor`` moves the span checks of the files pinned here whose quotes
    moved (see ``reanchored_spans``); without it such a check is refused.
    ``drop_stale`` moves them too and removes each check still stale (``dropped_checks``).
    ``titles`` (``TITLE_SOURCES``) says where a new page's title comes from when ``--title`` gives none: its
    front matter's ``title`` (``front_matter_title``), else its id; or its id. A page pinned before keeps its.
    ``progress`` (``lab_io.progress.Progress``), if given, counts the pages read once the folders are walked.
    ``accepted``: the keys of the pairs a review accepted (``dropped_checks`` names them when it drops one).
    A new page of a folder that the lab cannot take is passed over with its
    reason (``page_problem``); ``all_or_nothing`` refuses the pin instead.
    ``exclude``: globs of a folder's pages (or subfolders) left out of this pin (``excluded_by``); a page pinned
    before that a pattern leaves out is left as it is in the manifest, neither re-pinned nor removed.
    """
    manifest_path = Path(manifest_path)
    label = str(manifest_path)
    folder = manifest_path.parent
    # A new manifest whose grammar no --markdown chose: the lesson's, which a docs site's pages rarely fit.
    default_grammar = markdown is None and not os.path.lexists(manifest_path)
    value = manifest_to_update(manifest_path, markdown)
    grammar = manifest_grammar(value, label)
    asked = requests
    requests, skipped, folders, excluded, unmatched = expanded_requests(
        requests, manifest_path, grammar, label, exclude
    )
    if progress is not None:
        progress.stage("pinning", len(requests), 0, unit="pages")
    entries = value["sources"]
    # Paths as the loader compares them, so a folder walk finds a file pinned before by hand.
    positions = {PurePosixPath(entry["path"]).as_posix(): index for index, entry in enumerate(entries)}
    taken = {entry["source_id"] for entry in entries}
    changes = []
    # The texts of the files pinned in this call, by source id: the only ones whose checks can have gone stale.
    texts: dict[str, str] = {}
    passed_over: list[str] = []
    titles_passed_over: list[str] = []
    # The pages the default lesson grammar passed over that a block grammar takes.
    block_only: list = []
    for request in requests:
        where = f"{label}: pin {quoted_name(request.path)}"
        try:
            relative = manifest_relative_path(request.path, folder, where)
        except IngestionError as error:
            # A page of a folder whose name the lab cannot show is its own fault, as an unreadable page is.
            if all_or_nothing or not request.from_folder or error.code != "path_unprintable":
                raise
            passed_over.append(f"passed over {printable(request.path)}: {error.code}: {error.what}")
            if progress is not None:
                progress.advance(1, 0)
            continue
        position = positions.get(relative)
        if position is None:
            pinnable = page_problem(request, relative, folder, where, grammar, all_or_nothing)
            if type(pinnable) is str:
                passed_over.append(f"passed over {printable(request.path)}: {pinnable}")
                if default_grammar and block_grammar_takes(pinnable, folder / relative):
                    block_only.append(relative)
                if progress is not None:
                    progress.advance(1, 0)
                continue
            sha256, text = pinnable
        else:
            sha256, text = pinnable_file(folder, relative, where, grammar)
        if position is None:
            title, why = front_matter_title_read(text, grammar) if titles == "front-matter" else (None, None)
            entry = new_source_entry(relative, sha256, request, taken, title)
            if why is not None and "title" not in request.given():
                titles_passed_over.append(
                    f"title of {printable(request.path)} left to its id {quoted_name(entry['source_id'])}: the front "
                    f"matter's title {why}"
                )
            positions[relative] = len(entries)
            taken.add(entry["source_id"])
            entries.append(entry)
            changes.append(entry_change(None, entry))
        else:
            entry = repinned_entry(entries[position], sha256, request, where)
            changes.append(entry_change(entries[position], entry))
            entries[position] = entry
        texts[entry["source_id"]] = text
        if progress is not None:
            progress.advance(1, 0)
    if block_only:
        # The grammar is chosen once, here, and switching later is refused: a docs folder pinned under the default
        # would start a manifest of the few pages the lesson grammar takes, and pass over the rest.
        raise IngestionError(
            "grammar_for_docs",
            printable(label),
            f"{counted(len(block_only), 'page')} of {len(requests):,} found are ones the lesson grammar (a new "
            "manifest's without --markdown) cannot take and a block grammar reads: no '# ' heading at offset 0, MDX, "
            f"or over {LESSON_BOUNDS.source_bytes:,} bytes (the first: {quoted_name(block_only[0])}); pin --markdown "
            f"{grammars.BLOCKS10_GRAMMAR} reads a docs site's pages, --markdown lesson passes them over; nothing "
            "was written",
        )
    if passed_over and not entries:
        raise IngestionError(
            "no_pinnable_files",
            printable(label),
            f"every page found was passed over ({counted(len(passed_over), 'page')}; the first {passed_over[0]}); "
            "the manifest is unchanged",
        )
    # Each check's index as it was, for the lines of a removed page's checks, named after any other drop.
    indexes_before = {id(check): index for index, check in enumerate(listed_checks(value))}
    moves, unmoved = reanchored_spans(value, texts) if reanchor or drop_stale else ([], {})
    # The whole entry of each check dropped that no scan declares again, after the lines that name every drop.
    removed_entries: list[str] = []
    kept_entries: list[str] = []
    drops = dropped_checks(value, texts, accepted, kept_entries) if drop_stale else []
    # A check dropped is named once, as dropped, even if one of its spans could move.
    gone = {index for index, _ in drops}
    moved = [line for index, line in moves if index not in gone]
    dropped = [line for _, line in drops]
    if drop_stale:
        dropped = removed_sources(value, asked, folder, accepted, indexes_before, removed_entries) + dropped
        dropped += removed_entries + kept_entries
    unchanged = not moved and not dropped and all(change.kind == "unchanged" for change in changes)
    manifest_bytes = None if unchanged and os.path.lexists(manifest_path) else saved_json_bytes(value)
    if manifest_bytes is not None:
        # Before the build-like check of every source: a manifest the lab would refuse to read is never written.
        check_manifest_size(manifest_bytes, grammar, printable(label), "pin fewer files (a subfolder) per manifest")
    stale = [pinned for pinned in pinned_spans(value, texts) if pinned.stale]
    # --reanchor is worth offering only for a span with offsets to move; it was tried if --drop-stale was given.
    movable = any("start" in pinned.span for pinned in stale)
    verified_manifest(
        value,
        folder,
        label,
        [pinned.label for pinned in stale],
        movable and not (reanchor or drop_stale),
        not drop_stale,
        unmoved,
    )
    return PinOutcome(
        manifest_bytes,
        tuple(changes),
        tuple(skipped),
        folders,
        tuple(moved),
        tuple(dropped),
        tuple(passed_over),
        tuple(titles_passed_over),
        excluded,
        unmatched,
        len(value.get("sources", ())),
        len(listed_checks(value)),
    )


def pin_report_lines(outcome: PinOutcome, limit: int | None = None) -> list[str]:
    """Every line that tells the user what a pin did, skipped files first.

    When a folder was pinned, the files already pinned at their current
    bytes are one count instead of a line each, so a re-run stays short. Each
    kind of line (pages skipped or passed over, sources pinned or re-pinned)
    stops after ``limit`` lines, when given, with a count of the rest (``pin``
    gives 20 unless ``--list``). The span checks moved or dropped are named
    every one: they are edits made to the manifest, and no later pin could list
    them again.
    """
    lines = listed_pins(list(outcome.skipped), limit, "skipped", "pages skipped")
    lines.extend(listed_pins(list(outcome.passed_over), limit, "passed over", "pages passed over"))
    lines.extend(listed_pins(list(outcome.titles_passed_over), limit, "titles", "titles left to their ids"))
    unchanged = [change for change in outcome.changes if change.kind == "unchanged"]
    lines.extend(outcome.moved)
    lines.extend(outcome.dropped)
    reported = [change for change in outcome.changes if change.kind != "unchanged" or not outcome.folders]
    shown = reported if limit is None else reported[:limit]
    for change in shown:
        lines.extend(pin_report(change))
    if len(reported) > len(shown):
        kinds = [change.kind for change in reported[len(shown) :]]
        counts = ", ".join(
            f"{kinds.count(kind):,} {word}"
            for kind, word in (("new", "new"), ("repinned", "re-pinned"), ("unchanged", "unchanged"))
            if kind in kinds
        )
        lines.append(
            f"… {counted(len(kinds), 'more source')} ({counts}): the manifest holds every pin; the same pin with --list prints each"
        )
    if outcome.folders and unchanged:
        lines.append(f"unchanged: {counted(len(unchanged), 'source')} already pinned at their current bytes")
    if outcome.passed_over:
        lines.append(
            f"passed over: {counted(len(outcome.passed_over), 'page')} the lab cannot take, each named above "
            "(pin --all-or-nothing refuses the whole pin instead)"
        )
    if outcome.excluded:
        lines.append(
            f"excluded: {counted(outcome.excluded, 'page')} left out by --exclude (any pinned before as they were)"
        )
    for pattern in outcome.unmatched_excludes:
        lines.append(f"note: --exclude {printable(shlex.quote(pattern))} left out no page of the folders pinned")
    return lines


def listed_pins(lines: list[str], limit: int | None, kind: str, what: str) -> list[str]:
    """``lines`` up to ``limit``, then one line counting the rest: ``"… 12 more pages passed over: pin --list names each"``."""
    if limit is None or len(lines) <= limit:
        return lines
    return [*lines[:limit], f"… {len(lines) - limit:,} more {what}: pin --list names each"]


def pin_report(change: PinChange) -> list[str]:
    """The lines that tell the user what pinning did to one source."""
    name = printable(change.source_id)
    path = printable(change.path)
    if change.kind == "new":
        return [f"pinned {name}: {path}, sha256 {change.new_sha256} (new source)"]
    if change.kind == "unchanged":
        return [f"unchanged {name}: {path} is already pinned at sha256 {change.new_sha256}"]
    lines = [f"re-pinned {name}: {path}"]
    for field, old, new in change.changed_fields:
        if field == "sha256":
            lines.append(f"  old sha256 {old}")
            lines.append(f"  new sha256 {new}")
        else:
            lines.append(f"  {field}: {printable(old)} -> {printable(new)}")
    lines.append(
        f"  the document revision of {name} changes, and so does every chunk id of {name}: "
        "results built before this no longer match the manifest"
    )
    return lines


# --- is a saved result still current? ----------------------------------------------

# The pinned fields a saved document must share with the manifest, in the order a refusal lists them.
PINNED_FIELDS = ("sha256", "path", "version", "title", "url", "fact_status")


def field_difference(field: str, saved: str, pinned: str) -> str:
    """``"saved sha256 34257e6c9c3e…, manifest pins 9f1c…"``: hashes shortened, other values quoted.

    A path, a title or a URL is shown whole up to ``NAME_LIMIT`` characters; past
    that, around where the two part (``text_difference``).
    """
    if field == "sha256":
        return f"saved sha256 {saved[:12]}…, manifest pins {pinned[:12]}…"
    return text_difference(saved, pinned, (f"saved {field}", "manifest pins"), NAME_LIMIT)


def document_differences(document: dict, source: dict) -> list[str]:
    """How a saved document differs from the manifest's pin of the same source."""
    differences = [
        field_difference(field, document[field], source[field])
        for field in PINNED_FIELDS
        if document[field] != source[field]
    ]
    pinned_text_sha256 = chunk_index.sha(source["text"])
    if not differences and document["normalized_text_sha256"] != pinned_text_sha256:
        differences.append(
            f"saved text sha256 {document['normalized_text_sha256'][:12]}…, the pinned file's text has {pinned_text_sha256[:12]}…"
        )
    return differences


def stale_sources(indexes: dict, manifest: Manifest) -> list[str]:
    """One entry per source whose saved documents moved away from the manifest's pins.

    ``["aster-copy-v1: saved sha256 34257e6c9c3e…, manifest pins 9f1c…"]``;
    empty when every index holds exactly the pinned sources.
    """
    pinned = {source["source_id"]: source for source in manifest.sources}
    problems = []
    saved_ids = set()
    for index in indexes.values():
        for document in index["documents"]:
            source_id = document["source_id"]
            saved_ids.add(source_id)
            source = pinned.get(source_id)
            if source is None:
                problems.append(f"{printable(source_id)}: in the result, not pinned in the manifest")
                continue
            differences = document_differences(document, source)
            if differences:
                problems.append(f"{printable(source_id)}: {', '.join(differences)}")
    for source_id in pinned:
        if source_id not in saved_ids:
            problems.append(f"{printable(source_id)}: pinned in the manifest, not in the result")
    return list(dict.fromkeys(problems))


def stale_configs(indexes: dict, manifest: Manifest, kind: str = "result") -> list[str]:
    """One entry per index whose config is not the one the manifest's grammar, sizes and pairs build now.

    ``['heading-aware: saved max_chars 220, the manifest builds 288']``; compared by digest.
    A result must also hold every index the manifest builds (pair-aware once "policies" names it).
    """
    wanted = chunk_index.manifest_policy_configs(manifest)
    problems = []
    for name, index in indexes.items():
        saved = index["config"]
        if name not in wanted:
            problems.append(f'{name}: in the result, the manifest builds none (its "policies" names no {name} size)')
            continue
        if chunk_index.digest(saved) == chunk_index.digest(wanted[name]):
            continue
        if chunk_index.config_grammar(saved) != manifest.grammar:
            problems.append(
                f"{name}: built with the {quoted_name(chunk_index.config_grammar(saved))} grammar, "
                f"the manifest reads {quoted_name(manifest.grammar)}"
            )
        elif saved["max_chars"] != wanted[name]["max_chars"]:
            problems.append(
                f"{name}: saved max_chars {saved['max_chars']}, the manifest builds {wanted[name]['max_chars']}"
            )
        else:
            problems.append(f"{name}: {pair_change(saved['pairs'], wanted[name]['pairs'])}")
    # Only a single index is checked on its own: a result must hold every index the manifest builds.
    if kind == "result":
        problems.extend(
            f"{name}: the manifest builds it, the result holds none" for name in wanted if name not in indexes
        )
    return problems


def pair_change(saved: list[dict], wanted: list[dict]) -> str:
    """How a pair-aware config's pairs differ from the manifest's: ``"built for 3 pairs, the manifest declares 4 (1 added, 0 removed)"``."""
    saved_keys = {chunk_index.pair_sort_key(pair) for pair in saved}
    wanted_keys = {chunk_index.pair_sort_key(pair) for pair in wanted}
    return (
        f"built for {len(saved):,} pairs, the manifest declares {len(wanted):,} "
        f"({len(wanted_keys - saved_keys):,} added, {len(saved_keys - wanted_keys):,} removed since the build)"
    )


def require_current(kind: str, artifact: dict, manifest: Manifest, where: str) -> dict:
    """The artifact's indexes, refused as stale unless they hold the manifest's pins (and, for a result, answer its span checks).

    The configs count too: a result built with another grammar or other sizes
    than the manifest sets now is not what a build of that manifest gives.
    """
    indexes = validate.artifact_indexes(kind, artifact)
    problems = stale_sources(indexes, manifest)
    if problems:
        # Say what to do, as stale_configs does: a newcomer who re-pinned after an edit needs a new build.
        # A result of another docs set differs in every source: the first few are named, the rest counted.
        raise IngestionError("stale_result", where, first_few(problems, separator="; ") + "; rebuild the result")
    problems = stale_configs(indexes, manifest, kind)
    if problems:
        raise IngestionError("stale_configs", where, "; ".join(problems) + "; rebuild the result")
    if kind == "result":
        expected = span_checks.checked_comparisons(indexes, manifest.span_checks)
        if chunk_index.digest(expected) != chunk_index.digest(artifact["comparisons"]):
            moved = first_moved(expected, artifact["comparisons"])
            if moved is not None:
                # The contract lists the pairs in manifest order: a consumer may read pairs[i] as span_checks[i].
                raise IngestionError(
                    "stale_span_checks",
                    where,
                    f"the comparisons answer the same span checks in another order than the manifest declares now "
                    f"({moved}): rebuild with the main job",
                )
            raise IngestionError(
                "stale_span_checks",
                where,
                f"the comparisons answer other span checks than the manifest declares now "
                f"({checks_difference(manifest.span_checks, artifact['comparisons'])}); rebuild the result",
            )
    return indexes


def checks_difference(checks: tuple, saved: list[dict]) -> str:
    """Which span checks the manifest and a saved result's comparisons differ by, named (the first few of each side):
    ``"the manifest declares 1 the result does not: scan:a:5; the result answers 1 the manifest does not: scan:a:3"``;
    when both name the same checks, that their spans differ. A result of the spec's one-check shape names none, and
    is said to be one."""
    declared = [check.name for check in checks]
    if saved and "pairs" not in saved[0]:
        # The spec's shape answers one check and names none: say so, with the manifest's count.
        return f"the result answers the spec's one unnamed check; the manifest declares {len(declared):,}"
    answered = [pair["name"] for pair in (saved[0].get("pairs", []) if saved else []) if "name" in pair]
    only_declared = [name for name in declared if name not in set(answered)]
    only_answered = [name for name in answered if name not in set(declared)]
    parts = []
    if only_declared:
        parts.append(
            f"the manifest declares {len(only_declared):,} the result does not: "
            f"{first_few([printable(name) for name in only_declared])}"
        )
    if only_answered:
        parts.append(
            f"the result answers {len(only_answered):,} the manifest does not: "
            f"{first_few([printable(name) for name in only_answered])}"
        )
    return "; ".join(parts) or "checks of the same names declare other spans"


def first_moved(expected: list[dict], saved: list[dict]) -> str | None:
    """When the saved comparisons are the expected ones with their pairs in another order, where the first pair is
    out of place (``"scan:a:5" is span_checks[3], pairs[1] in the result``); otherwise ``None``.

    Only the shape of several checks lists pairs; each is named, and names are unique in both.
    """
    if len(expected) != len(saved) or not all("pairs" in comparison for comparison in (*expected, *saved)):
        return None

    def by_name(comparisons: list[dict]) -> list[dict]:
        return [
            {**comparison, "pairs": sorted(comparison["pairs"], key=lambda pair: pair["name"])}
            for comparison in comparisons
        ]

    if chunk_index.digest(by_name(expected)) != chunk_index.digest(by_name(saved)):
        return None
    for position, (wanted, found) in enumerate(zip(expected[0]["pairs"], saved[0]["pairs"])):
        if wanted["name"] != found["name"]:
            at = next(number for number, pair in enumerate(saved[0]["pairs"]) if pair["name"] == wanted["name"])
            return f"{quoted_name(wanted['name'])} is span_checks[{position}], pairs[{at}] in the result"
    return None


def index_id_mismatches(indexes: dict, recorded: dict[str, str]) -> list[str]:
    """One entry per policy whose saved index id is not the one the user recorded."""
    problems = []
    for policy, wanted in recorded.items():
        index = indexes.get(policy)
        if index is None:
            problems.append(f"{policy}: recorded {wanted[:12]}…, the file holds no {policy} index")
        elif index["index_id"] != wanted:
            problems.append(f"{policy}: saved index_id {index['index_id'][:12]}…, recorded {wanted[:12]}…")
    return problems
