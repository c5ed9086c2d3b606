"""``run.py show``: each policy's chunks over the source text, whole or narrowed to sources, checks or splits."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import chunk_index
from commands.basics import EXIT_OK, closest_names, manifest_to_build
from commands.options import add_command, add_manifest_option
from lab_io.errors import UsageError, counted, first_few, quoted_name
from lab_io.outputs import emit
from lab_io.progress import Progress, source_bytes
from load_documents import load_manifest
from views.summary import OVERVIEW_SOURCES

SHOW_DESCRIPTION = """\
Print every document's text chunk by chunk for each policy: order, id prefix,
lines, [start, end), the instruction and qualifier marked, and the boundary
that splits them. On a docs set (more than 10 sources) without --source,
--check or --split-only it prints an overview instead: the verdict table and
the first 20 split pairs, a line each (--list lists every one); --all prints
everything. There --split-only
draws the first 20 split pairs and counts the rest (--all draws every one). Colour only on a
terminal with NO_COLOR unset; plain markers otherwise, so the view can be
piped and diffed.
"""
# On a docs set, show --split-only draws this many split pairs (about 25 lines each) unless --all is given.
SPLIT_PAIRS_DRAWN = 20
# On a docs set, the overview lists this many split pairs, a line each, unless --list is given.
OVERVIEW_PAIRS = 20


def register(commands: argparse._SubParsersAction) -> None:
    show = add_command(
        commands,
        "show",
        "print each policy's chunks over the source text",
        SHOW_DESCRIPTION,
        "python run.py show --policy heading-aware | less -R",
    )
    show.add_argument(
        "--policy",
        choices=chunk_index.POLICY_NAMES,
        help="show only this policy (default: every policy the manifest builds; pair-aware only when it sets its size)",
    )
    add_manifest_option(show)
    add_show_filters(show)
    show.set_defaults(handler=run_show)


def add_show_filters(show: argparse.ArgumentParser) -> None:
    """``show --source``, ``--check`` and ``--split-only``: narrow the terminal view on a large docs set."""
    show.add_argument(
        "--source",
        dest="show_sources",
        metavar="ID",
        action="append",
        help="show only this source, or every source under a folder: an id prefix ending at a / (docs/guide/) or "
        "the folder's path relative to the manifest (docs/guide); an id that is a source is that source (repeatable)",
    )
    show.add_argument(
        "--check",
        dest="show_checks",
        metavar="NAME",
        action="append",
        help="mark only this span check and show only the text around it (repeatable)",
    )
    show.add_argument(
        "--split-only",
        action="store_true",
        help="show only the pairs a shown policy splits, and under each policy only the text around its splits",
    )
    show.add_argument(
        "--all",
        dest="show_all",
        action="store_true",
        help=f"on a docs set (over {OVERVIEW_SOURCES} sources), every page under every policy instead of the "
        f"overview; with --split-only, every split pair instead of the first {SPLIT_PAIRS_DRAWN}",
    )
    show.add_argument(
        "--list",
        dest="show_list",
        action="store_true",
        help=f"on a docs set, the overview lists every split pair on a line instead of the first {OVERVIEW_PAIRS}, "
        "then every source with no chunk and every one that pulls other files' text in (the main job names the first "
        "few)",
    )


def run_show(args: argparse.Namespace) -> int:
    """Print each policy's chunks over the source text, coloured only on a terminal."""
    from views import terminal

    manifest = load_manifest(manifest_to_build(args.manifest))
    configs = chunk_index.manifest_policy_configs(manifest)
    if args.policy is not None and args.policy not in configs:
        raise UsageError(
            "policy_not_built",
            "--policy",
            f'the manifest builds no {args.policy} index; set its size in "policies", e.g. "{args.policy}": 800',
        )
    policies = tuple(configs) if args.policy is None else (args.policy,)
    colour = terminal.colour_wanted(sys.stdout, os.environ)
    narrowing = show_narrowing(args, manifest)
    judgement = None
    if getattr(args, "show_chunks", None) is not None:
        import judge

        judgement = judge.judge_chunks(
            Path(args.show_chunks), manifest, manifest_label=judge.manifest_label(args.manifest)
        )
    overview_shown = (
        narrowing is None and not getattr(args, "show_all", False) and len(manifest.sources) > OVERVIEW_SOURCES
    )
    if getattr(args, "show_list", False) and not overview_shown:
        # The option asks for more of a view this run does not print: said, not silently dropped.
        print(list_ignored_note(args, narrowing, len(manifest.sources)), file=sys.stderr)
    if overview_shown:
        listed = None if getattr(args, "show_list", False) else OVERVIEW_PAIRS
        view = overview(manifest, policies, configs, colour, judgement, listed, show_command(args.manifest))
    elif narrowing is None:
        view = terminal.terminal_view(manifest.sources, manifest.span_checks, policies, colour, configs)
        if judgement is not None:
            view += terminal.judged_terminal_view(manifest.sources, manifest.span_checks, judgement, colour)
    else:
        # --source, --check and --split-only narrow the judged chunks as they narrow the policies.
        view = terminal.narrowed_terminal_view(
            manifest.sources,
            manifest.span_checks,
            policies,
            colour,
            narrowing,
            configs,
            judgement,
            show_command(args.manifest),
        )
    emit(view.encode("utf-8"), None)
    return EXIT_OK


def list_ignored_note(args: argparse.Namespace, narrowing, source_count: int) -> str:
    """Why ``--list`` changes nothing in this run, and what does what the user asked for.

    ``narrowing`` is ``show_narrowing``'s (``None`` when nothing narrows): its ``pair_limit`` says whether
    ``--split-only`` draws the first pairs only, which it does on a docs set without ``--check`` or ``--all``.
    """
    show_all = getattr(args, "show_all", False)
    if narrowing is not None and narrowing.split_only and narrowing.pair_limit is not None:
        why = f"--split-only draws the first {narrowing.pair_limit} split pairs; add --all to draw every one"
    elif narrowing is not None and narrowing.split_only:
        with_all = " with --all" if show_all else ""
        why = f"--split-only{with_all} draws every split pair already"
    elif show_all:
        why = "--all prints every page instead of the overview"
    elif narrowing is not None:
        why = "--source and --check draw their text instead of the overview"
    else:
        why = f"the manifest holds {source_count:,} sources, so every page is drawn, no overview"
    return f"note: --list only lengthens the docs-set overview, which this run does not print: {why}"


def inside_folder(name: str, manifest) -> str:
    """An absolute ``name`` inside the manifest's folder as the path relative to it (``/lab/docs/a.md`` ->
    ``docs/a.md``), both sides' links resolved (a shell's ``$PWD`` may name the folder through one); any other name
    as it is."""
    if not os.path.isabs(name) or getattr(manifest, "folder", None) is None:
        return name
    folder = os.path.realpath(manifest.folder)
    path = os.path.realpath(name)
    if os.path.commonpath([folder, path]) != folder or path == folder:
        return name
    return os.path.relpath(path, folder).replace(os.sep, "/")


def normal_path(path: str) -> str:
    """``path`` as ``--source`` compares it: normalised, with ``/`` between its parts (``./docs//a/`` -> ``docs/a``)."""
    return os.path.normpath(path).replace(os.sep, "/")


def folder_sources(name: str, places: list[tuple[str, str]]) -> list[str]:
    """The ids of the sources under the folder ``name``, by id or by path: those whose id or path (``places``:
    ``source_places``) begins with it and a ``/`` (``docs/rules``, ``docs/rules/``, ``./docs/rules/``); none for a
    name that is no folder of theirs. ``"docs/rules"`` -> ``["docs/rules/a", "docs/rules/deep/b"]``, not
    ``"docs/rulesets/c"``."""
    typed = normal_path(name)
    if typed in (".", "") or typed.startswith("../"):
        return []
    prefix = typed + "/"
    return [source_id for source_id, path in places if source_id.startswith(prefix) or path.startswith(prefix)]


def source_places(manifest) -> list[tuple[str, str]]:
    """Each source's id and its path relative to the manifest, normalised (``normal_path``), in manifest order."""
    return [(source["source_id"], normal_path(source["path"])) for source in manifest.sources]


def selected_sources(given: list[str], manifest) -> list[str]:
    """The ids ``show --source`` and ``scan --source`` name, in manifest order, each once.

    Each of ``given`` is a source's id, or a folder (``folder_sources``): an id
    prefix ending at a ``/`` (``docs/guide/``) or the folder's path relative to
    the manifest (``docs/guide``), for every source under it. A name that is a
    source's id means that source, even when other ids lie under it as a
    folder. A page's path relative to the manifest (``docs/guide/a.md``,
    however written: ``./docs//guide/a.md``) means the source pinned from
    it, and a path inside
    the manifest's folder may be given absolute too. A name that is none of
    these is refused (``require_known``), a folder with no pinned page as
    any other unknown name.
    """
    known = [source["source_id"] for source in manifest.sources]
    known_set = set(known)
    selected: set[str] = set()
    places = None
    by_path = None
    for typed in given:
        # One rule, after an absolute path is made relative: an id, else a page's path, else a folder.
        name = inside_folder(typed, manifest)
        if by_path is None and name not in known_set:
            # Each page's normalised path, once for all the names given (a name at a time, every page's path
            # normalised again, was quadratic on a docs set's pages).
            by_path = {normal_path(source["path"]): source["source_id"] for source in manifest.sources}
        if name in known_set:
            selected.add(name)
            continue
        meant = by_path.get(normal_path(name))
        if meant is not None:
            selected.add(meant)
            continue
        if places is None:
            places = source_places(manifest)
        inside = folder_sources(name, places)
        if not inside:
            require_known("--source", [typed], known, manifest)
        selected.update(inside)
    return [source_id for source_id in known if source_id in selected]


def held(option: str, typed: str, known: list[str]) -> str:
    """What the manifest holds instead of ``typed``: the names closest to it, else its first few; each whole.

    ``"it has 12 span checks; the closest: "scan:docs/a:52""``, or
    ``"it has 12 span checks: "scan:docs/a:52", "scan:docs/a:57", "scan:docs/b:9" and 9 more"``.
    """
    noun = "source" if option == "--source" else "span check"
    if not known:
        return f"it has no {noun}s"
    close = closest_names(typed, known)
    if close:
        return f"it has {counted(len(known), noun)}; the closest: {', '.join(quoted_name(name) for name in close)}"
    return f"it has {counted(len(known), noun)}: {first_few([quoted_name(name) for name in known])}"


def require_known(option: str, given: list[str], known: list[str], manifest) -> None:
    """Refuse the first of ``given`` (``--source`` ids or ``--check`` names) the manifest does not hold, naming what
    it holds instead. A page's path or a folder of pages is no unknown ``--source``: ``selected_sources`` takes it
    for its pages before asking."""
    known_set = set(known)
    unknown = [name for name in given if name not in known_set]
    if not unknown:
        return
    # A note on a manifest of the current folder names one that holds it (``commands.basics.UnusedManifests``).
    sought = ("source_id" if option == "--source" else "check", unknown[0])
    raise UsageError(
        "unknown_name",
        option,
        f"{quoted_name(unknown[0])} is not in the manifest; {held(option, unknown[0], known)}",
        sought,
    )


def show_narrowing(args: argparse.Namespace, manifest):
    """The ``show`` filters as a ``terminal.Narrowing``, or ``None`` when none is given; unknown names refused."""
    from views import terminal

    source_ids = getattr(args, "show_sources", None) or []
    check_names = getattr(args, "show_checks", None) or []
    split_only = getattr(args, "split_only", False)
    if not source_ids and not check_names and not split_only:
        return None
    # A folder stands for the sources under it; a name that is neither a source nor a folder of them is refused.
    source_ids = selected_sources(source_ids, manifest)
    require_known("--check", check_names, [check.name for check in manifest.span_checks], manifest)
    # On a docs set every split pair drawn runs to megabytes: the first few, unless --all or named by --check.
    capped = split_only and not check_names and not getattr(args, "show_all", False)
    limit = SPLIT_PAIRS_DRAWN if capped and len(manifest.sources) > OVERVIEW_SOURCES else None
    return terminal.Narrowing(frozenset(source_ids), frozenset(check_names), split_only, limit)


def show_command(manifest_path: str | None) -> str:
    """``show`` with the ``--manifest`` this run read (quoted for a shell), as the hints under a capped view name it:
    a hint that drops it would draw the lesson's fixture instead."""
    from commands.main_job import manifest_option

    return "show" + manifest_option(manifest_path)


def overview(
    manifest,
    policies: tuple[str, ...],
    configs: dict,
    colour: bool,
    judgement,
    listed: int | None = None,
    command: str = "show",
) -> str:
    """The docs set's overview (``views.terminal.overview_view``) under the shown policies, ``listed`` split
    pairs on a line (``None``: every one)."""
    from checks import span_checks
    from views import terminal

    shown = {name: configs[name] for name in policies}
    with Progress("building indexes", len(manifest.sources), source_bytes(manifest.sources)) as progress:
        result = span_checks.build_checked_result(manifest.sources, manifest.span_checks, shown, progress.advance)
    section_of = None
    if judgement is not None:
        import judge

        section_of = judge.pair_sections(manifest.sources, manifest.grammar)
    return terminal.overview_view(result, manifest.span_checks, colour, judgement, section_of, listed, command)
