"""``run.py scan``: propose instruction/caveat pairs, judge them under every policy; review, declare, import, measure."""

from __future__ import annotations

import argparse
import shlex
from collections import Counter
from pathlib import Path

import load_documents
from chunk_index import collector_paused
from commands.basics import EXIT_OK, closest_names, manifest_to_build, report
from commands.indexes import collector_skips_what_exists, manifest_indexes, manifest_outlines
from commands.options import add_command, add_jobs_option, add_manifest_option, add_no_cache_option
from lab_io import outputs
from lab_io.errors import IngestionError, UsageError, counted, first_few, printable, quoted, quoted_name
from lab_io.indented_json import saved_json_bytes
from lab_io.inert_json import printed_json_bytes
from lab_io.outputs import checked_output, destination, emit
from lab_io.progress import Progress, source_bytes
from load_documents import load_manifest

SCAN_DESCRIPTION = """\
Find candidate instruction/caveat pairs in every pinned source by fixed rules
(no model, no network; versioned, their version is the scan_version that
--json reports). A caveat is a sentence that prohibits,
requires, conditions, limits, raises an error, deprecates or dates, or warns of
a risk ("must not", "needs to", "unless", "is not supported", "raises",
"deprecated", "before 0.5.0", "with caution"), or a whole warning, caution or
danger block or a version note (a MyST {note} fence is one too, and a
version badge on its own line: <Since v="6.0.0" />, {{< new-in 0.140.0 >}}),
or an item of a list of prerequisites; its
instruction is the sentence it restricts: an imperative, "To X, ...", "you can
...", a tutorial step, an API usage sentence or an option's entry, before it or
just after it (a version badge dates what follows it, a list item's caveat
qualifies its own item), across code blocks, across a heading only from a subsection titled
as caveats (### Limitations, Known issues) to the sections before it under
its parent heading. Each pair names its rule, cue, link and a tier
(1 strongest); --tier
keeps the stronger ones. Each pair is judged under every policy the manifest
builds: kept together, or split and by what (a heading, a block break, the
size target, a fixed-width cut), or apart (a span in no chunk at all, as text
the grammar reads as no block). Review sticks: --reject drops a pair for good
(recorded beside the manifest), --accept declares it; --add-checks declares
every pair not declared yet; --import declares pairs from another tool;
--evaluate measures the rules against hand labels. Rules and limits:
docs/caveats.md.
"""

TIER_HELP = (
    "keep only pairs of this tier or stronger (1 strongest, 3 every pair; default 2); a caveat whose pair is "
    "weaker is still reported, unpaired"
)


def register(commands: argparse._SubParsersAction) -> None:
    """``scan``: find instruction/caveat pairs; review, declare, import or measure them."""
    scan = add_command(
        commands,
        "scan",
        "find instruction/caveat pairs, judge them under every policy, review and declare them",
        SCAN_DESCRIPTION,
        """
        python run.py scan --manifest docs-lab/manifest.json --tier 2
        python run.py scan --manifest docs-lab/manifest.json --reject scan:docs/guide:41
        python run.py scan --manifest docs-lab/manifest.json --tier 2 --add-checks
        python run.py context --manifest docs-lab/manifest.json
        """,
    )
    add_manifest_option(scan)
    scan.add_argument(
        "--json", action="store_true", help="print every pair and verdict as JSON (shape in docs/caveats.md)"
    )
    scan.add_argument("--tier", type=int, choices=(1, 2, 3), default=2, help=TIER_HELP)
    scan.add_argument(
        "--list",
        dest="every_pair",
        action="store_true",
        help="show every pair in context (by default the view shows the first 20, then a count of the rest and the "
        "pages that hold the most)",
    )
    scan.add_argument(
        "--source",
        dest="scan_sources",
        metavar="ID",
        action="append",
        default=[],
        help="scan, list, review and declare only this page's pairs, or those of every page under a folder (an id "
        "prefix ending at a /, or the folder's path relative to the manifest; repeatable; as show --source): the "
        "table counts their pairs alone, --accept and --reject take their names, --add-checks adds their pairs",
    )
    scan.add_argument(
        "--add-checks",
        action="store_true",
        help="append the found pairs (of --tier or stronger) to the span_checks of the manifest named by "
        "--manifest (required here), atomically; existing checks are kept, a pair already declared "
        "(overlapping spans in the same source) or rejected is not added",
    )
    scan.add_argument(
        "--accept",
        action="extend",
        nargs="+",
        metavar="NAME",
        default=[],
        help="declare the found pair NAME as a span check and record the decision (one or more names, repeatable; "
        "needs --manifest); "
        "a decision holds for the pair's source and quotes, so it covers every found pair with them",
    )
    scan.add_argument(
        "--reject",
        action="extend",
        nargs="+",
        metavar="NAME",
        default=[],
        help="record that the found pair NAME is no pair: it is never proposed or added again, and a check "
        "scan added for it is removed (one or more names, repeatable; needs --manifest); decisions live in M's "
        "<name>.decisions.json; it covers every found pair with NAME's source and quotes, and says which",
    )
    scan.add_argument(
        "--forget-unmatched",
        action="store_true",
        help="remove from the decisions file every decision no pair found now matches (the ones scan names: a quote "
        "edited or gone, a newer scan_version, a page no longer pinned); needs --manifest",
    )
    scan.add_argument(
        "--import",
        dest="import_file",
        metavar="FILE",
        default=None,
        help="declare the pairs of FILE (JSON lines: source_id, instruction, caveat as quotes, optional start "
        "offsets and name), each quote checked against the pinned text (needs --manifest)",
    )
    scan.add_argument(
        "--html",
        dest="scan_html",
        metavar="FILE",
        help="also write the HTML report (as the main job's --html) of the declared checks and the found pairs, "
        "each found pair with its tier, rule, cue and link, and a view of the pairs per tier",
    )
    scan.add_argument(
        "--evaluate",
        metavar="LABELS",
        default=None,
        help="measure the rules against the hand labels in LABELS: precision, caveat recall and pair recall "
        "per tier (decisions are not applied)",
    )
    add_no_cache_option(scan)
    add_jobs_option(scan)
    scan.set_defaults(handler=run_scan)


def run_scan(args: argparse.Namespace) -> int:
    """Find the pairs; then list them, or review, declare, import or measure them as the options say."""
    writes = [
        option
        for option, given in (
            ("--add-checks", args.add_checks),
            ("--accept/--reject", args.accept or args.reject),
            ("--forget-unmatched", args.forget_unmatched),
            ("--import", args.import_file is not None),
        )
        if given
    ]
    if len(writes) + (args.evaluate is not None) > 1:
        chosen = writes + (["--evaluate"] if args.evaluate is not None else [])
        raise UsageError("usage", "scan", f"{' and '.join(chosen)} do different things; give one of them")
    if args.scan_sources and (args.evaluate is not None or args.import_file is not None):
        # An evaluation measures every labelled page, and an import names its pages itself.
        other = "--evaluate" if args.evaluate is not None else "--import"
        raise UsageError("usage", "scan", f"--source does not narrow {other}: {other} reads the pages it names")
    if writes and args.manifest is None:
        # As pin: the fallback is the lesson's fixture, whose manifest the reference result depends on.
        raise UsageError("usage", "scan", f"{writes[0]} needs --manifest M: the manifest to change")
    manifest_path = manifest_to_build(args.manifest)
    if writes:
        # The manifest is rewritten in place: refuse a link or a device before any work.
        checked_output(str(manifest_path), (), stdout_allowed=False, writes="manifest")
    if args.accept or args.reject or args.forget_unmatched:
        from checks.caveats import decisions

        checked_output(str(decisions.decisions_path(manifest_path)), (), stdout_allowed=False, writes="decisions")
    html_path = None
    if args.scan_html is not None:
        # Refused before any work: the report may not overwrite the manifest.
        outputs.checked_report(args.scan_html, None, outputs.manifest_files(manifest_path), before_inputs=True)
    with collector_paused():
        manifest = load_manifest(manifest_path)
        if args.scan_html is not None:
            html_path = outputs.checked_report(args.scan_html, None, outputs.manifest_files(manifest_path, manifest))
        if args.import_file is not None:
            report(import_pairs(manifest_path, Path(args.import_file)))
            return EXIT_OK
        labelled = read_labels(args, manifest) if args.evaluate is not None else None
        # Each page's sections, read for the scan and kept for the outlines its verdicts need.
        section_cache: dict = {}
        # What is declared in the manifest is found afresh, never read from a file beside it.
        no_cache = args.no_cache or bool(args.add_checks or args.accept or args.reject or args.forget_unmatched)
        scanned = narrowed(manifest, args.scan_sources)
        found = None
        if (args.accept or args.reject) and not args.scan_sources:
            scanned, found = reviewed_pages(
                manifest_path, manifest, args.accept + args.reject, section_cache, args.jobs
            )
        if found is None:
            found, cache = scanned_pairs(manifest_path, scanned, no_cache, section_cache, manifest, args.jobs)
        else:
            cache = None
        pinned = {source["source_id"] for source in manifest.sources}
        code = act_on_pairs(args, manifest_path, scanned, found, section_cache, html_path, pinned, labelled)
        if code == EXIT_OK and cache is not None:
            cache.save(outputs=(html_path,))
        return code


def narrowed(manifest, source_ids: list[str]):
    """The manifest as ``scan --source`` reads it: the named sources alone, and the checks on them; the manifest
    itself without ``source_ids``. A folder is every source under it, and an id the manifest lacks is refused, as
    ``show --source`` reads them (``show.selected_sources``)."""
    if not source_ids:
        return manifest
    from commands.show import selected_sources

    wanted = set(selected_sources(source_ids, manifest))
    return manifest._replace(
        sources=tuple(source for source in manifest.sources if source["source_id"] in wanted),
        span_checks=tuple(check for check in manifest.span_checks if check.source_id in wanted),
    )


def reviewed_pages(manifest_path: Path, manifest, names: list[str], section_cache: dict, jobs=None) -> tuple:
    """The pages ``--accept`` and ``--reject`` name, read afresh, and their findings; ``(manifest, None)`` when a
    name is not found there, for the whole manifest to be read (a name mistyped is refused with the names
    closest to it in every page).

    A pair's name holds its source (``scan:SOURCE:LINE``), a declared check's name its check's source, and a
    page's findings are its own (``scan_cache``): the pairs a decision covers share its source and quotes,
    and the checks it adds or removes are on that source. So reading the named pages alone decides as
    reading every page does, at the cost of a page instead of a docs set.
    """
    from checks.caveats.findings import NAME_PREFIX

    pinned = {source["source_id"] for source in manifest.sources}
    wanted = {name[len(NAME_PREFIX) :].rpartition(":")[0] for name in names if name.startswith(NAME_PREFIX)} | {
        check.source_id for check in manifest.span_checks if check.name in names
    }
    wanted &= pinned
    if not wanted:
        return manifest, None
    scope = manifest._replace(
        sources=tuple(source for source in manifest.sources if source["source_id"] in wanted),
        span_checks=tuple(check for check in manifest.span_checks if check.source_id in wanted),
    )
    found, _ = scanned_pairs(manifest_path, scope, True, section_cache, manifest, jobs)
    known = {pair.name for pair in found[0]} | set(pairs_of_checks(found[0], scope.span_checks))
    if not set(names) <= known:
        return manifest, None
    return scope, found


def scanned_pairs(
    manifest_path: Path, manifest, no_cache: bool, section_cache: dict | None = None, whole=None, jobs=None
):
    """The pairs and unpaired caveats of every pinned source, with a progress line, and the cache to save once
    the command succeeds (``scan_cache``; ``no_cache``: none read or written). ``whole``: the manifest
    ``manifest`` narrows (``scan --source``), whose other pages keep their cached findings; ``jobs``: ``--jobs``."""
    from checks.caveats import scan_cache

    path = scan_cache.cache_path(manifest_path, no_cache)
    kept = None if whole is None or whole is manifest else {source["source_id"] for source in whole.sources}
    with Progress("scanning", len(manifest.sources), source_bytes(manifest.sources)) as progress:
        return scan_cache.scan_sources_cached(
            manifest.sources, manifest.grammar, path, section_cache, progress.advance, kept, jobs
        )


def act_on_pairs(
    args: argparse.Namespace, manifest_path: Path, manifest, found, section_cache, html_path, pinned=None, labelled=None
) -> int:
    """Measure, review, or list the found pairs (and write the report and the checks) as the options say;
    ``labelled``: ``--evaluate``'s labels, read before the scan (``read_labels``)."""
    if args.every_pair and (
        args.json or args.evaluate is not None or args.forget_unmatched or args.accept or args.reject
    ):
        report(list_ignored_note(args), to_stderr=True)
    if args.evaluate is not None:
        return evaluate(args, labelled, found)
    if args.forget_unmatched:
        report(forget_unmatched(manifest_path, found, manifest, pinned))
        return EXIT_OK
    if args.accept or args.reject:
        report(review(manifest_path, found[0], args.accept, args.reject, bool(args.scan_sources), manifest.span_checks))
        return EXIT_OK
    pairs, unpaired, rejected, decided, recorded = proposals(manifest_path, found, args.tier)
    # The verdicts only ask where chunks lie, on the pages that hold a pair; the report page shows them whole, ids
    # and all.
    indexes = (
        manifest_indexes(manifest, section_cache=section_cache)
        if html_path is not None
        else manifest_outlines(manifest, section_cache, source_ids={pair.source_id for pair in pairs})
    )
    from checks.caveats import report as caveat_report

    with collector_skips_what_exists():
        findings = caveat_report.scan_report(
            manifest, indexes, manifest.grammar, (pairs, unpaired), args.tier, rejected, decided, section_cache
        )
    if args.json:
        emit(printed_json_bytes(findings), None)
    else:
        texts = {source["source_id"]: source["text"] for source in manifest.sources}
        report(
            caveat_report.scan_table(
                findings,
                texts,
                review_line(args.manifest, "above", any(" " in pair.source_id for pair in pairs)),
                args.every_pair,
                scan_again(args),
                cards=not args.add_checks or args.every_pair,
            )
        )
    if html_path is not None:
        outputs.write_outputs([(html_path, scan_report_page(manifest, indexes, pairs, args.manifest))])
    stale = unmatched_decisions(recorded, found, manifest, pinned) if recorded else None
    if stale is not None:
        report(stale, to_stderr=args.json)
    if args.add_checks:
        line = add_scanned_checks(manifest_path, pairs, decided)
        report(line, to_stderr=args.json)
    if html_path is not None:
        report(outputs.report_written(html_path), to_stderr=args.json)
    return EXIT_OK


def scan_again(args: argparse.Namespace) -> str:
    """This scan's command as a hint names it: ``scan`` with the ``--manifest``, ``--tier`` and ``--source`` it read
    (each quoted for a shell where it needs it, inert on a terminal), so the hint runs on the same pages."""
    import shlex

    from commands.main_job import manifest_option

    tier = "" if args.tier == 2 else f" --tier {args.tier}"
    sources = "".join(f" --source {printable(shlex.quote(source))}" for source in args.scan_sources)
    return f"scan{manifest_option(args.manifest)}{tier}{sources}"


def list_ignored_note(args: argparse.Namespace) -> str:
    """Why ``--list`` changes nothing in this run: it lengthens the text view, which this run does not print."""
    if args.json:
        why = "--json lists every pair already"
    elif args.evaluate is not None:
        why = "--evaluate prints its figures, not the pairs"
    else:
        why = "a review prints what it recorded, not the pairs"
    return f"note: --list only lengthens the text view of the pairs, which this run does not print: {why}"


def review_line(manifest_arg: str | None, names: str = "in the table and on its card", spaced: bool = False) -> str:
    """What scan says to do with a pair it shows, under its HTML report's title and after its terminal table: the two
    review commands, for this manifest (``--manifest M`` for the lesson's fixture, which a review never writes), its
    name inert on a terminal as the main job's and the sweep's commands show it (``printable``). ``spaced``: some
    name shown holds a space (a page id from a path with one), so the shell would cut it unquoted."""
    manifest = f" --manifest {printable(shlex.quote(manifest_arg))}" if manifest_arg is not None else " --manifest M"
    return (
        f"review: run.py scan --accept NAME{manifest} declares a pair as a span check; "
        f"run.py scan --reject NAME{manifest} drops it for good (NAME: the pair's name {names}"
        f"{', quoted: a name holds a space' if spaced else ''})"
    )


def scan_report_page(manifest, indexes: dict, pairs: list, manifest_arg: str | None = None) -> bytes:
    """The docs-set report of the declared checks and the found pairs, each found pair annotated with what scan says.

    A found pair that is a declared check already is shown under the check's
    name; any other joins under its scan name (``~2`` when a check of another
    pair holds it, as ``--add-checks`` would name it).
    """
    from checks import span_checks
    from checks.caveats.declare import unused_name
    from checks.caveats.verdicts import declared_names
    from views import report as html_report

    checks = list(manifest.span_checks)
    taken = {check.name for check in checks}
    annotations: dict[str, dict] = {}
    for pair, declared_as in zip(pairs, declared_names(pairs, manifest.span_checks)):
        name = declared_as
        if name is None:
            name = unused_name(pair.name, taken)
            taken.add(name)
            checks.append(load_documents.SpanCheck(name, pair.source_id, pair.instruction, pair.qualifier))
        annotations.setdefault(name, {"tier": pair.tier, "rule": pair.rule, "cue": pair.cue, "link": pair.link})
    checks = tuple(checks)
    result = span_checks.assembled_result(manifest.sources, indexes, span_checks.checked_comparisons(indexes, checks))
    review = review_line(manifest_arg, spaced=any(" " in check.name for check in checks))
    return html_report.html_report(result, checks, annotations, review=review).encode("utf-8")


def read_decisions(manifest_path: Path) -> tuple[list, dict | None]:
    """The decisions beside a manifest and the file's parsed value (``None`` when there is no file yet)."""
    import os

    from checks.caveats import decisions
    from lab_io.strict_json import read_json_file

    path = decisions.decisions_path(manifest_path)
    if not os.path.lexists(path):
        return [], None
    try:
        value = read_json_file(path)
        return decisions.parsed_decisions(value, printable(str(path))), value
    except IngestionError as error:
        # Named as what it is: a file the user may not know scan reads, whose loss is theirs to weigh.
        raise IngestionError(
            error.code,
            error.where,
            f"{error.what}; this is the manifest's review decisions file (scan --accept and --reject write it): "
            "restore it, or move it away to start the review anew without its decisions",
        ) from error


def proposals(manifest_path: Path, found: tuple, tier: int) -> tuple[list, list, int, dict, list]:
    """The pairs and unpaired caveats ``scan`` reports: kept to ``tier``, rejected pairs left out.

    Also how many found pairs of ``tier`` or stronger a rejection left out (``--json``'s ``rejected``: pairs, not
    decisions; one decision covers every pair of its source with its quotes), every decided pair's decision
    (none without a decisions file) and the decisions as recorded, read once for the command.
    """
    from checks.caveats import decisions, findings

    recorded = read_decisions(manifest_path)[0]
    pairs, rejected = decisions.without_rejected(found[0], recorded)
    kept, unpaired = findings.kept_to_tier((pairs, found[1]), tier)
    return kept, unpaired, sum(pair.tier <= tier for pair in rejected), decisions.decision_of(recorded), recorded


def unmatched(recorded: list, found: tuple, manifest, pinned: set | None = None) -> list:
    """The recorded decisions (the last of each pair's) that no pair found now has the source and quotes of (an
    edit changed a quote or took it away, or a newer scan_version pairs the caveat with another instruction: what is
    found is a new pair, proposed again), and those on a page no longer pinned (``pinned``: the manifest's source
    ids). Of the pages pinned, only ``manifest``'s (``scan --source`` scans some) are asked."""
    from checks.caveats.decisions import found_key

    keys = {found_key(pair) for pair in found[0]}
    # The last decision of a pair is the one that holds (``decision_of``).
    latest = {decision.key(): decision for decision in recorded}
    scanned = {source["source_id"] for source in manifest.sources}
    return [
        decision
        for key, decision in latest.items()
        if (decision.source_id in scanned and key not in keys)
        or (pinned is not None and decision.source_id not in pinned)
    ]


def decision_names(decisions: list, recorded: list) -> str:
    """``"scan:docs/a:5" (rejected), "scan:docs/b:9" (accepted)``: the first few, and how many more.

    A pair decided anew after an edit keeps its name, so a name that another decision of ``recorded`` holds too
    also gives the caveat this one quotes: ``"scan:docs/a:5" (rejected; caveat "It must not be…")``, the old
    decision told apart from the one just made.
    """
    words = {"accept": "accepted", "reject": "rejected"}
    holders = Counter(decision.name for decision in recorded)
    names = []
    for decision in decisions:
        caveat = f"; caveat {quoted(decision.qualifier, 40)}" if holders[decision.name] > 1 else ""
        names.append(f"{quoted_name(decision.name)} ({words[decision.decision]}{caveat})")
    return first_few(names)


def unmatched_decisions(recorded: list, found: tuple, manifest, pinned: set | None = None) -> str | None:
    """A line naming the decisions no pair found now matches (``unmatched``) and how to drop them; ``None`` if
    every one matches."""
    gone = unmatched(recorded, found, manifest, pinned)
    if not gone:
        return None
    return (
        f"{counted(len(gone), 'decision')} of the decisions file {'matches' if len(gone) == 1 else 'match'} no "
        "pair found now (an edit or a newer scan_version gave its caveat other quotes or another instruction, or "
        f"its page is no longer pinned): {decision_names(gone, recorded)}; scan --forget-unmatched drops them"
    )


def forget_unmatched(manifest_path: Path, found: tuple, manifest, pinned: set) -> str:
    """Remove from the decisions file every decision ``unmatched`` names, under the manifest lock; say which."""
    from checks.caveats import decisions

    path = decisions.decisions_path(manifest_path)
    with outputs.manifest_lock(manifest_path):
        recorded, existing = read_decisions(manifest_path)
        if existing is None:
            return f"decisions unchanged: there is no decisions file ({destination(path)})"
        gone = unmatched(recorded, found, manifest, pinned)
        if not gone:
            # With --source only the pages it names were scanned: the others' decisions were not asked.
            scope = "on the pages scanned " if pinned is not None and len(pinned) > len(manifest.sources) else ""
            return f"decisions unchanged: every decision {scope}in {destination(path)} matches a pair found now"
        keys = {decision.key() for decision in gone}
        kept = [
            entry
            for entry in existing["decisions"]
            if decisions.pair_key(entry["source_id"], entry["instruction"]["quote"], entry["qualifier"]["quote"])
            not in keys
        ]
        outputs.write_outputs([(path, saved_json_bytes({**existing, "decisions": kept}))])
    return (
        f"forgot {counted(len(gone), 'decision')} that no pair found now matches: {decision_names(gone, recorded)}: "
        f"{destination(path)}"
    )


def add_scanned_checks(manifest_path: Path, pairs: list, decided: dict) -> str:
    """Append the found pairs no check already is to the manifest's span_checks, atomically; say what changed, and
    how many of the pairs no review decided (``decided``: each decided pair's decision).

    Read, change and write under the manifest lock, against the manifest as it
    is then: a pin or another scan that ran meanwhile is seen, never undone.
    """
    from checks.caveats import declare, findings, imported
    from checks.caveats.decisions import found_key
    from checks.caveats.verdicts import declared_names

    shown = destination(manifest_path)
    with outputs.manifest_lock(manifest_path):
        current = load_manifest(manifest_path)
        entries = declare.checks_to_add(pairs, current.span_checks)
        # A pair declared by a check of your own is one you read; one scan or --import declared, or none, is not,
        # unless a review decided it.
        machine = (findings.NAME_PREFIX, imported.NAME_PREFIX)
        unreviewed = sum(
            found_key(pair) not in decided and (declared_as is None or declared_as.startswith(machine))
            for pair, declared_as in zip(pairs, declared_names(pairs, current.span_checks))
        )
        if entries:
            write_manifest(manifest_path, lambda value: value["span_checks"].extend(entries))
    if entries:
        line = f"added {counted(len(entries), 'span check')} to {shown} ({len(pairs) - len(entries)} already declared)"
    else:
        line = f"manifest unchanged: {shown} (all {counted(len(pairs), 'found pair')} already declared)"
    if unreviewed:
        # About half of the proposals of a real docs set are right: a check declared unread is a guess measured.
        line += (
            f"; {unreviewed:,} of {counted(len(pairs), 'pair')} not reviewed: "
            f"read {'it' if unreviewed == 1 else 'them'}"
            " (scan, or --html), and scan --reject NAME removes a wrong one and its check"
        )
    return line


def write_manifest(manifest_path: Path, change, more: list | None = None) -> None:
    """Apply ``change`` to the manifest's value, check it as a build will load it, then write it (and ``more``).

    Called under the manifest lock. ``more`` is other files written in the same atomic step.
    """
    import source_pins

    value = load_documents.read_manifest_value(manifest_path)
    value.setdefault("span_checks", [])
    change(value)
    manifest_bytes = saved_json_bytes(value)
    # Held to the bound the lab reads it with, and checked exactly as a build will load it, before a byte is written.
    load_documents.check_manifest_size(
        manifest_bytes,
        value.get("markdown", load_documents.LESSON_GRAMMAR),
        printable(str(manifest_path)),
        "the span checks would not fit; scan fewer sources per manifest (pin a subfolder into a manifest of its own)",
    )
    source_pins.verified_manifest(value, manifest_path.parent, str(manifest_path))
    outputs.write_outputs([(manifest_path, manifest_bytes), *(more or [])])


def review(
    manifest_path: Path,
    pairs: list,
    accepted: list[str],
    rejected: list[str],
    narrowed: bool = False,
    checks: tuple = (),
) -> str:
    """Record ``--accept`` and ``--reject`` decisions beside the manifest; declare the accepted, drop the rejected.

    Names are those the scan gives now (``scan --json`` lists them); a name it does not give is refused
    before anything is written. A decision holds for the pair's source and quotes, so it covers every found
    pair with them, not only the one named: the line names the others. Every pair an acceptance covers
    becomes a span check (unless already declared); every check scan added for a pair a rejection covers (a
    ``scan:`` name, the same pair) is removed from the manifest. Manifest and decisions file are written
    together, under the manifest lock.
    """
    from checks.caveats import decisions, declare

    by_name = {pair.name: pair for pair in pairs}
    found_as = pairs_of_checks(pairs, checks)
    # A declared check's name keeps the line it was declared on, where a saved report shows it; the scan names the
    # pair by its line now. The name is taken for that pair, and a note says so.
    given = {"--accept": accepted, "--reject": rejected}
    for option, names in given.items():
        refuse_split_name(names, option, by_name)
    now = {
        option: [current_name(name, option, by_name, found_as, narrowed) for name in names]
        for option, names in given.items()
    }
    taken_as = [
        f"note: {option} {quoted_name(name)}: a declared check's name; scan finds its pair now as {quoted_name(current)}"
        for option, names in given.items()
        for name, current in zip(names, now[option])
        if current != name
    ]
    # A name given twice is one decision: declared once, counted once.
    accepted = list(dict.fromkeys(now["--accept"]))
    rejected = list(dict.fromkeys(now["--reject"]))
    both = sorted(set(accepted) & set(rejected))
    if both:
        raise UsageError("usage", "scan", f"{quoted_name(both[0])} is given to both --accept and --reject")
    accepted_keys = {decisions.found_key(by_name[name]): name for name in reversed(accepted)}
    for name in rejected:
        if decisions.found_key(by_name[name]) in accepted_keys:
            raise UsageError(
                "usage",
                "scan",
                f"{quoted_name(accepted_keys[decisions.found_key(by_name[name])])} (--accept) and {quoted_name(name)} "
                "(--reject) have the same source and quotes, so one decision covers both; give one of them",
            )
    decided = [(decisions.ACCEPT, by_name[name]) for name in accepted] + [
        (decisions.REJECT, by_name[name]) for name in rejected
    ]
    covered = {
        decision: decisions.covered_pairs(pairs, [by_name[name] for name in names])
        for decision, names in ((decisions.ACCEPT, accepted), (decisions.REJECT, rejected))
    }
    shown = destination(manifest_path)
    path = decisions.decisions_path(manifest_path)
    with outputs.manifest_lock(manifest_path):
        current = load_manifest(manifest_path)
        recorded, existing = read_decisions(manifest_path)
        before = decisions.decision_of(recorded)
        # How many of the names given were decided so already: a second --reject changes nothing, and says so.
        again = {
            decision: sum(
                before.get(decisions.found_key(pair)) == decision for made, pair in decided if made == decision
            )
            for decision in (decisions.ACCEPT, decisions.REJECT)
        }
        # And how many were decided the other way before: a rejection overturned says so.
        turned = {
            decision: sum(
                before.get(decisions.found_key(pair)) not in (None, decision)
                for made, pair in decided
                if made == decision
            )
            for decision in (decisions.ACCEPT, decisions.REJECT)
        }
        new_checks = declare.checks_to_add(covered[decisions.ACCEPT], current.span_checks)
        removed = scanned_checks_of(covered[decisions.REJECT], current.span_checks)
        # In the manifest's order, to name them.
        removed_names = [check.name for check in current.span_checks if check.name in removed]

        def change(value: dict) -> None:
            value["span_checks"] = [entry for entry in value["span_checks"] if entry.get("name") not in removed]
            value["span_checks"].extend(new_checks)

        decisions_bytes = saved_json_bytes(decisions.decisions_value(existing, decided))
        if new_checks or removed:
            write_manifest(manifest_path, change, [(path, decisions_bytes)])
        else:
            # No check added or removed: the manifest is left as it is, byte for byte (a hand-formatted one too).
            outputs.write_outputs([(path, decisions_bytes)])
    parts = []
    for decision, verb, names, effect in (
        (decisions.ACCEPT, "accepted", accepted, f"{counted(len(new_checks), 'span check')} added"),
        (
            decisions.REJECT,
            "rejected",
            rejected,
            f"{counted(len(removed), 'scanned check')} removed{named(removed_names)}",
        ),
    ):
        if names:
            already = f"; {again[decision]:,} {verb} before" if again[decision] else ""
            if turned[decision]:
                other = "rejected" if decision == decisions.ACCEPT else "accepted"
                already += f"; {turned[decision]:,} {other} before, now {verb}"
            parts.append(f"{verb} {covering(names, covered[decision], effect)}{already})")
    # The manifest changes only when a check is added or removed; the decisions file always.
    where = (
        f"{shown}, decisions in {destination(path)}"
        if new_checks or removed
        else f"decisions in {destination(path)} ({shown} unchanged)"
    )
    line = "\n".join([*taken_as, f"{'; '.join(parts)}: {where}"])
    # A name scan gives a pair now may be a declared check's that holds another pair (its lines moved): the decision
    # is the named pair's, as scan names it; say which other pair the check of that name is.
    for name in accepted + rejected:
        now = found_as.get(name)
        if now is not None and now != name:
            line += (
                f"\nnote: {quoted_name(name)} is the pair scan names so now; the declared check of that name is the "
                f"pair scan finds as {quoted_name(now)}"
            )
    return line


def refuse_split_name(names: list[str], option: str, by_name: dict) -> None:
    """Refuse names that are one pair's name cut at its spaces by the shell (a page id from a path with spaces,
    ``scan:docs/API/Kustomization File/patches:216`` pasted unquoted), saying how to quote it.

    Only a run of given names that is not itself a pair's name is joined, up to ``SPLIT_WORDS`` at a time.
    """
    # A name with a run of spaces, cut by the shell, joins back with one: names are compared with their runs as one.
    collapsed = {" ".join(part for part in name.split(" ") if part): name for name in by_name if " " in name}
    for first in range(len(names)):
        if names[first] in by_name:
            continue
        for last in range(first + 1, min(len(names), first + SPLIT_WORDS)):
            joined = collapsed.get(" ".join(names[first : last + 1]))
            if joined is not None:
                raise UsageError(
                    "unknown_name",
                    option,
                    f"{quoted_name(names[first])} is not a pair scan finds; with the {last - first:,} after it, "
                    f"{quoted_name(joined)} is: a name that holds spaces is one argument, quoted "
                    f"({option} {printable(shlex.quote(joined))})",
                )


# How many shell words a pair name cut at its spaces is looked for in.
SPLIT_WORDS = 8


def current_name(name: str, option: str, by_name: dict, found_as: dict, narrowed: bool) -> str:
    """The name scan gives now to the pair ``name`` decides: ``name`` itself, or the pair a declared check of that
    name is (``pairs_of_checks``); refused (``unknown_name``) when it is neither."""
    if name in by_name:
        return name
    now = found_as.get(name)
    if now is None:
        # A name typed without its "scan:", or on a line an edit moved: the pairs named most like it.
        close = closest_names(name, list(by_name))
        hint = f"; the closest: {', '.join(quoted_name(found) for found in close)}" if close else ""
        raise UsageError(
            "unknown_name",
            option,
            f"{quoted_name(name)} is not a pair scan finds in "
            f"{'the pages --source names' if narrowed else 'this manifest'}{hint} (scan --json lists their names)",
        )
    return now


def pairs_of_checks(pairs: list, checks: tuple) -> dict[str, str]:
    """Each declared check's name, and the name the scan gives now to the found pair that check is (those that are
    one): after an edit a check keeps the line it was declared on, the scan names the pair by its line now."""
    from checks.caveats.verdicts import declared_names

    return {declared: pair.name for pair, declared in zip(pairs, declared_names(pairs, checks)) if declared is not None}


NAMED_COVERED = 5


def named(removed: list[str]) -> str:
    """The checks a rejection removed, named: after an edit a check's name may be another pair's now (a check
    ``scan:p:40`` of a pair on line 41, and the pair on line 40 declared as ``scan:p:40~2``)."""
    return f": {first_few([printable(name) for name in removed], NAMED_COVERED)}" if removed else ""


def covering(names: list[str], covered: list, effect: str) -> str:
    """``1 pair (1 scanned check removed`` or, when the decisions cover found pairs not named, ``1 pair and 3 more
    with the same source and quotes (scan:p:53, scan:p:57, scan:p:61; 4 scanned checks removed`` (the first
    ``NAMED_COVERED`` named, then how many more)."""
    given = set(names)
    more = [pair.name for pair in covered if pair.name not in given]
    if not more:
        return f"{counted(len(names), 'pair')} ({effect}"
    listed = first_few([printable(name) for name in more], NAMED_COVERED)
    return f"{counted(len(names), 'pair')} and {len(more):,} more with the same source and quotes ({listed}; {effect}"


def scanned_checks_of(pairs: list, checks) -> set[str]:
    """The names of the checks scan added (a ``scan:`` name) that are one of ``pairs`` (``same_pair``)."""
    from checks.caveats.findings import NAME_PREFIX

    by_source: dict[str, list] = {}
    for pair in pairs:
        by_source.setdefault(pair.source_id, []).append(pair)
    return {
        check.name
        for check in checks
        if check.name.startswith(NAME_PREFIX)
        and any(verdicts_same_pair(pair, check) for pair in by_source.get(check.source_id, ()))
    }


def verdicts_same_pair(pair, check) -> bool:
    from checks.caveats import verdicts

    return verdicts.same_pair(pair, check)


def import_pairs(manifest_path: Path, import_path: Path) -> str:
    """Declare the pairs of an imported JSON-lines file as span checks, as ``--add-checks`` does; say what changed.

    Every quote is located first (the first bad line is refused, nothing written); pairs already declared
    or rejected are passed over; the manifest is then written under its lock.
    """
    from checks.caveats import decisions, declare, imported
    from lab_io.strict_json import read_bounded

    where = printable(str(import_path))
    try:
        data = read_bounded(import_path, load_documents.MAX_SOURCE_BYTES * 64, where)
    except OSError as error:
        raise IngestionError("bad_import", where, error.strerror or str(error)) from error
    except IngestionError as error:
        # A docs set's export or result is over the bound: named for what it is, not only for its size.
        raise outputs.naming_lab_file(error, import_path, "pairs to import") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestionError("bad_import", where, f"byte {error.start} is not UTF-8") from error
    shown = destination(manifest_path)
    with outputs.manifest_lock(manifest_path):
        current = load_manifest(manifest_path)
        try:
            pairs = imported.imported_pairs(text, where, current.sources)
        except IngestionError as error:
            raise outputs.naming_lab_file(error, import_path, "pairs to import") from error
        recorded, _ = read_decisions(manifest_path)
        kept, rejected = decisions.without_rejected(pairs, recorded)
        entries = declare.checks_to_add(kept, current.span_checks)
        if entries:
            write_manifest(manifest_path, lambda value: value["span_checks"].extend(entries))
    return imported.summary(len(entries), len(kept) - len(entries), len(rejected), where, shown)


def read_labels(args: argparse.Namespace, manifest) -> tuple[list, list]:
    """``--evaluate LABELS``'s labelled pages and the sources they match, read before any page is scanned: a
    labels file the lab refuses is refused at once, not after a scan of the whole docs set."""
    from checks.caveats import evaluation
    from lab_io.strict_json import read_json_file

    where = printable(args.evaluate)
    try:
        pages = evaluation.labelled_pages(read_json_file(Path(args.evaluate)), where)
    except IngestionError as error:
        raise outputs.naming_lab_file(error, Path(args.evaluate), "hand labels") from error
    return pages, evaluation.matched_sources(pages, manifest.sources, where)


def evaluate(args: argparse.Namespace, labelled: tuple[list, list], found: tuple) -> int:
    """``--evaluate LABELS``: the rules' precision, caveat recall and pair recall on the labelled pages
    (``read_labels``), per tier."""
    from checks.caveats import evaluation

    pages, matched = labelled
    figures = evaluation.evaluation(matched, evaluation.proposals_of(found), args.tier)
    figures["labelled_pages"] = len(pages)
    if args.json:
        emit(printed_json_bytes(figures), None)
    else:
        report(evaluation.evaluation_table(figures))
    return EXIT_OK
