"""``run.py pin PATH... --manifest M``: pin files or docs folders into a manifest, or re-pin them after an edit."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import grammars
from commands.basics import EXIT_OK, report
from commands.options import add_command, add_manifest_option
from lab_io import outputs
from lab_io.errors import IngestionError, UsageError, counted, printable
from lab_io.outputs import checked_output, destination, emit
from lab_io.progress import Progress

PIN_DESCRIPTION = """\
Check each PATH as a build would (inside the manifest's folder, no link, size
bound, UTF-8, read with the manifest's grammar: a heading at offset 0 under the
lesson's, none needed under a block grammar), record its sha256 in the
manifest and rewrite the manifest atomically. A missing manifest is
started. Re-pinning changes the document revision and every chunk id of that
source; a span check the edit made stale is refused and the manifest left
unchanged, unless --reanchor moves it to the one place its quote now occurs,
or, of several places, to the one nearest its old start when every other is
at least twice as far and the move agrees with the check's other span and the
spans around it (docs/own-documents.md, "Edit, re-pin, and see what moved").

A folder PATH pins every *.md file under it (and *.mdx under blocks-3 to blocks-10),
sorted, recursively. Hidden entries (.git, .cache) and other files are passed
over; links named as pages or without a suffix, and non-regular pages, are
skipped with a line (no link is followed, not even to see what it is), and so
is the manifest itself. A new page the lab cannot take (over the grammar's
bound, not UTF-8, front matter never closed, a name it cannot show) is passed over with its reason and
counted; --all-or-nothing refuses the pin instead. Each new source's id is its
path relative to the manifest's folder without its suffix (docs/guide/index),
for a file named on the command line too, or that id with -2, -3, ... when a
source already holds it; a file named with the suffix of code, styles, data or
an image (.py, .js, .css, .json, .yaml, .svg, ...) is refused (source_not_a_page). Pinning the same folder again changes nothing, except
re-pinning edited files; a page deleted from it is refused (source_missing)
unless --drop-stale removes it with its span checks.

Bounds: under the lesson grammar a page holds 65,536 bytes, a manifest 1 MiB,
a folder pin 2,000 pages; under a block grammar 8 MiB, 64 MiB and 50,000. A
manifest that would pass its bound is refused before it is written.

Concurrent pins into one folder's manifests take turns (a lock on the folder),
so none is lost.
"""


# At most this many lines of each kind a pin prints: a docs set has thousands of pages, the manifest holds them all.
LISTED_PINS = 20


def register(commands: argparse._SubParsersAction) -> None:
    pin = add_command(
        commands,
        "pin",
        "pin files or whole docs folders into a manifest, or re-pin them after an edit",
        PIN_DESCRIPTION,
        """\
        python run.py pin --markdown blocks-10 --manifest m.json docs/
        python run.py pin --manifest my/manifest.json my/docs/guide.md --title 'User guide' --version 2.0""",
    )
    pin.add_argument(
        "paths",
        metavar="PATH",
        nargs="+",
        help="a source file, or a folder standing for every page under it (*.md, and *.mdx under blocks-3 to "
        "blocks-10), inside the manifest's folder",
    )
    pin.add_argument(
        "--markdown",
        choices=grammars.GRAMMARS,
        help="the Markdown grammar of a new manifest (default: lesson, the fixture's tiny one). For a docs site pick "
        "blocks-10: front matter (YAML's closed by --- or ...), fences, admonitions, /// and ::: containers, content "
        "tabs, Hugo shortcodes, HTML blocks, attribute lists, mkdocstrings directives, MDX pages, link reference "
        "definitions, the markup of "
        "headings, MDC's ::name components (Nuxt Content), and headings inside HTML or JSX elements (<details>, "
        "<Tabs>) or Hugo shortcodes ({{< tabs >}}) as sections, a spacer paragraph (&nbsp;) or an element of an "
        "expression alone (<CodeBlock>{Source}</CodeBlock>) as nothing, and each entry of an HTML definition list "
        "(<dl>) as a block, and GitBook's and Jekyll's Liquid tags ({%% hint %%}, {%% tabs %%}) as Hugo shortcodes; it "
        "also starts the manifest at a pipeline's sizes (1,000 characters). blocks to blocks-9 are its earlier "
        "versions, kept so saved results validate. An existing manifest keeps its own",
    )
    add_manifest_option(pin, "the manifest to update or start", required=True)
    pin.add_argument(
        "--source-id",
        dest="source_id",
        help="id of a new source (default: its path relative to the manifest's folder, without the suffix: docs/guide.md is docs/guide)",
    )
    pin.add_argument(
        "--title", help="title (default for a new source: its front matter's title, else its id; see --titles)"
    )
    pin.add_argument(
        "--titles",
        choices=("front-matter", "id"),
        default="front-matter",
        help="where a new page's title comes from without --title: its front matter's top-level title (title: or "
        "title = , one line, under a block grammar), else its id (the default, front-matter); or always its id. "
        "The title names the text before a page's first heading in every index. A page pinned before keeps its "
        "title",
    )
    pin.add_argument(
        "--version", help="MAJOR.MINOR version (default for a new source: 1.0); with a folder, of every file pinned"
    )
    pin.add_argument("--url", help="where the document is published (default for a new source: local:PATH)")
    pin.add_argument(
        "--fact-status",
        dest="fact_status",
        help="what is known of its accuracy (default for a new source: unstated); with a folder, of every file pinned",
    )
    pin.add_argument(
        "--all-or-nothing",
        dest="all_or_nothing",
        action="store_true",
        help="refuse the whole pin at the first page of a folder the lab cannot take (over the bound, not UTF-8, "
        "front matter never closed, an MDX page under a grammar that does not read MDX) instead of passing it "
        "over with its reason",
    )
    pin.add_argument(
        "--reanchor",
        action="store_true",
        help="after an edit, move each stale span of a span check of the files pinned to the one place its quote "
        "now occurs, or to the place nearest its old start when every other is at least twice as far and the move "
        "agrees with the check's other span and the spans around it (one line per move, naming a choice among "
        "places); a quote that is gone or has no such place is still refused",
    )
    pin.add_argument(
        "--drop-stale",
        dest="drop_stale",
        action="store_true",
        help="after an edit, move what --reanchor moves, then remove each span check whose quote is gone from the "
        "new text or occurs more than once with no place --reanchor takes (one line per check removed; scan "
        "--add-checks proposes a pair again where the new text holds one); a page pinned before that is gone "
        "from a folder PATH is removed too, with its span checks, each named",
    )
    pin.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="leave out of a folder PATH's pages each whose path under that folder, or a folder above it, matches "
        "GLOB (fnmatch: * also crosses /; repeat for more): --exclude content/fa --exclude '*/drafts' --exclude "
        "'*.mdx'. A page pinned before that a GLOB leaves out is kept as it is; a GLOB that leaves out nothing is "
        "named",
    )
    pin.add_argument(
        "--list",
        dest="every_line",
        action="store_true",
        help=f"print a line for every file pinned, re-pinned, skipped or passed over (by default each kind stops "
        f"after {LISTED_PINS} lines with a count of the rest)",
    )
    pin.set_defaults(handler=run_pin)


def run_pin(args: argparse.Namespace) -> int:
    """Pin files into a manifest (or re-pin them after an edit) and rewrite it atomically, under the manifest lock."""
    import source_pins

    if args.manifest is None:
        raise UsageError("usage", "pin", "pin needs --manifest M: the manifest to update or start")
    # Everything typed here is stored in the manifest, which holds UTF-8 text only.
    for path in args.paths:
        require_utf8_argument("PATH", path)
    metadata = {field: getattr(args, field) for field in source_pins.METADATA_FIELDS}
    for field, value in metadata.items():
        if value is not None:
            require_utf8_argument(f"--{field.replace('_', '-')}", value)
    if len(args.paths) > 1 and any(metadata[field] is not None for field in source_pins.ONE_FILE_FIELDS):
        raise UsageError("pin_metadata", "pin", "--source-id, --title and --url need exactly one file PATH")
    for pattern in args.exclude:
        require_utf8_argument("--exclude", pattern)
        if not pattern.strip("/"):
            raise UsageError("pin_exclude", "--exclude", f"{printable(pattern)} names no page or folder")
    if args.exclude and not any(os.path.isdir(path) for path in args.paths):
        raise UsageError(
            "pin_exclude", "--exclude", "leaves out pages of a folder PATH, and none is given: name the folder"
        )
    requests = [source_pins.PinRequest(path, **metadata) for path in args.paths]
    # The manifest is rewritten in place, so it must be a writable regular file (or new).
    manifest_path = checked_output(args.manifest, (), stdout_allowed=False, writes="manifest")
    if manifest_path is None:
        raise UsageError("manifest_to_stdout", "--manifest", "pin rewrites a manifest file; name one")
    # Read, change and write under one lock: a concurrent pin waits and then sees this one's sources.
    with outputs.manifest_lock(manifest_path):
        new_manifest = not os.path.lexists(manifest_path)
        with Progress("finding pages") as progress:
            outcome = source_pins.pin_sources(
                manifest_path,
                requests,
                args.markdown,
                args.reanchor,
                args.all_or_nothing,
                args.drop_stale,
                args.titles,
                progress,
                accepted_keys(manifest_path) if args.drop_stale else frozenset(),
                tuple(args.exclude),
            )
        if outcome.manifest_bytes is not None:
            emit(outcome.manifest_bytes, manifest_path)
    if new_manifest and args.markdown is None:
        # The grammar is chosen once, when the manifest starts (switching later is refused): say which it is.
        report(source_pins.LESSON_GRAMMAR_NOTE, to_stderr=True)
    lines = source_pins.pin_report_lines(outcome, None if args.every_line else LISTED_PINS)
    shown_manifest = destination(manifest_path)
    # What the manifest holds, so a pin into a manifest that already had checks (a copied folder) says so.
    holds = f"{counted(outcome.sources, 'source')}, {counted(outcome.span_checks, 'span check')}"
    lines.append(
        f"wrote {shown_manifest} ({holds})"
        if outcome.manifest_bytes is not None
        else f"manifest unchanged: {shown_manifest} ({holds})"
    )
    report("\n".join(lines))
    return EXIT_OK


def require_utf8_argument(option: str, value: str) -> None:
    """Refuse an argument holding a byte that is not UTF-8 (``surrogateescape`` in argv) before it reaches a file."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise UsageError(
            "argument_not_utf8",
            option,
            f"{printable(value)} holds a byte that is not UTF-8 at character {error.start}; the manifest stores UTF-8 text",
        ) from None


def accepted_keys(manifest_path: Path) -> frozenset:
    """The keys of the pairs a review accepted, from the decisions file beside the manifest; none when there is no
    file or it cannot be read (``scan`` refuses such a file; ``pin`` only names what it drops with them)."""
    from checks.caveats import decisions
    from lab_io.strict_json import read_json_file

    path = decisions.decisions_path(manifest_path)
    if not os.path.lexists(path):
        return frozenset()
    try:
        recorded = decisions.parsed_decisions(read_json_file(path), printable(str(path)))
    except IngestionError:
        return frozenset()
    return frozenset(key for key, made in decisions.decision_of(recorded).items() if made == decisions.ACCEPT)
