"""The scan as JSON (``scan --json``) and as the terminal view a person reviews pairs in."""

from __future__ import annotations

import textwrap
from bisect import bisect_right
from collections import Counter

import chunk_index
import grammars
from checks import span_checks
from checks.caveats.decisions import found_key
from checks.caveats.findings import LOOK_BACK_BLOCKS, SCAN_VERSION, TIERS, scanned_sections
from checks.caveats.verdicts import APART_REASON, REASON_ORDER, declared_names, policy_verdict
from lab_io.errors import counted, one_line, printable, quoted
from load_documents import Span
from views.visible_text import visible


def span_json(span: Span) -> dict:
    return {"start": span.start, "end": span.end, "quote": span.quote}


def line_of(newlines: list[int], offset: int) -> int:
    """The 1-based line holding ``offset``, given the text's newline offsets."""
    return bisect_right(newlines, offset - 1) + 1


def section_title(sections, offset: int, starts: list[int] | None = None) -> str:
    """The title of the section holding ``offset`` (``sections`` in text order). ``starts``, the sections'
    heading offsets, may be given once for many calls on one source: building them each time made a page of
    many headings and many pairs quadratic."""
    if starts is None:
        starts = [section.heading_start for section in sections]
    position = bisect_right(starts, offset) - 1
    return sections[max(position, 0)].title if sections else ""


def pair_section(sections, starts: list[int], first: int, last: int) -> str:
    """The title of the section holding a pair, or, for a pair whose spans lie in two (a caveats section's caveat,
    scan_version 31), both: ``"Use automatic resolution -> Limitations"``."""
    opening = section_title(sections, first, starts)
    closing = section_title(sections, max(last - 1, first), starts)
    if bisect_right(starts, first) == bisect_right(starts, max(last - 1, first)):
        return opening
    return f"{opening} -> {closing}"


def scan_report(
    manifest,
    indexes: dict,
    grammar: str = grammars.LESSON_GRAMMAR,
    found: tuple | None = None,
    tier: int = max(TIERS),
    rejected: int = 0,
    decided: dict | None = None,
    section_cache: dict | None = None,
) -> dict:
    """Every pair found in the manifest's sources, each judged under every policy of ``indexes``, as JSON.

    Per pair: name, source, line, both spans with their quotes and lines, why it was found (``rule``,
    ``cue``, ``link``, ``instruction_rule``, ``tier``, and ``caveat_tier``, the cue's own), its
    ``context`` (the section's title and the lines from the first span's to the last's), the declared
    check it already is (``declared_as``), its review ``decision`` (``"accept"`` or ``null``), and per
    policy whether one chunk holds both (``same_chunk``) and, if not, ``split_by`` and the ``boundary``
    offset. Per policy: found, kept together, split and the splits by reason. Unpaired caveats are
    listed apart, each with its reason. ``found`` is the pairs and unpaired caveats to report
    (``scan_sources``'s answer, kept to ``tier``, rejected pairs left out: ``rejected`` says how many).
    ``section_cache`` is the one ``scan_sources`` filled, if any: each source's sections are read once.
    """
    if found is None:
        # (The rules are compiled only for a scan that reads pages: a cached one hands its findings in.)
        from checks.caveats.pairing import scan_sources

        found = scan_sources(manifest.sources, grammar, section_cache)
    pairs, unpaired = found
    decided = decided or {}
    sections = {source["source_id"]: scanned_sections(source, grammar, section_cache) for source in manifest.sources}
    headings = {source_id: [section.heading_start for section in found] for source_id, found in sections.items()}
    texts = {source["source_id"]: source["text"] for source in manifest.sources}
    newlines = {}
    grouped = {name: span_checks.chunks_by_source(index) for name, index in indexes.items()}
    declared = declared_names(pairs, manifest.span_checks)
    pair_records = []
    for pair, declared_as in zip(pairs, declared):
        if pair.source_id not in newlines:
            newlines[pair.source_id] = chunk_index.newline_offsets(texts[pair.source_id])
        lines = newlines[pair.source_id]
        verdicts = {
            name: policy_verdict(name, chunks.get(pair.source_id), headings[pair.source_id], pair)
            for name, chunks in grouped.items()
        }
        first = min(pair.instruction.start, pair.qualifier.start)
        last = max(pair.instruction.end, pair.qualifier.end)
        pair_records.append(
            {
                "name": pair.name,
                "source_id": pair.source_id,
                "line": pair.line,
                "instruction": {**span_json(pair.instruction), "line": line_of(lines, pair.instruction.start)},
                "qualifier": {**span_json(pair.qualifier), "line": line_of(lines, pair.qualifier.start)},
                "rule": pair.rule,
                "cue": pair.cue,
                "link": pair.link,
                "instruction_rule": pair.instruction_form,
                "tier": pair.tier,
                "caveat_tier": pair.caveat_tier,
                "context": {
                    "section": pair_section(sections[pair.source_id], headings[pair.source_id], first, last),
                    "first_line": line_of(lines, first),
                    "last_line": line_of(lines, max(last - 1, first)),
                },
                "declared_as": declared_as,
                "decision": decided.get(found_key(pair)),
                "policies": verdicts,
            }
        )
    policies = []
    for name in indexes:
        verdicts = [record["policies"][name] for record in pair_records]
        split_by = {reason: 0 for reason in REASON_ORDER}
        for verdict in verdicts:
            if not verdict["same_chunk"]:
                split_by[verdict["split_by"]] += 1
        kept = sum(verdict["same_chunk"] for verdict in verdicts)
        policies.append(
            {
                "policy": name,
                "found": len(verdicts),
                "kept_together": kept,
                "split": len(verdicts) - kept,
                "split_by": split_by,
            }
        )
    return {
        "scan_version": SCAN_VERSION,
        "grammar": grammar,
        "tier": tier,
        "rejected": rejected,
        "policies": policies,
        "pairs": pair_records,
        "unpaired": [
            {
                "source_id": item.source_id,
                "line": item.line,
                "qualifier": span_json(item.span),
                "rule": item.rule,
                "cue": item.cue,
                "tier": item.tier,
                "reason": item.reason,
            }
            for item in unpaired
        ],
    }


def verdict_phrase(policy: str, verdict: dict) -> str:
    """``"paragraph split (block break at 130)"``, ``"heading-aware same chunk"`` or ``"paragraph apart (a span in
    no chunk)"``."""
    if verdict["same_chunk"]:
        return f"{policy} same chunk"
    if verdict["split_by"] == APART_REASON:
        return f"{policy} apart (a span in no chunk)"
    at = "" if verdict["boundary"] is None else f" at {verdict['boundary']}"
    return f"{policy} split ({verdict['split_by']}{at})"


def scan_table(
    report: dict,
    texts: dict[str, str] | None = None,
    review: str | None = None,
    every_pair: bool = False,
    command: str = "scan",
    cards: bool = True,
) -> str:
    """The scan as a person reads it: a table per policy, then each pair in context, with its verdicts.

    The first ``LISTED_PAIRS`` pairs, and a count of the rest; all of them with ``every_pair`` (``scan --list``);
    none without ``cards`` (``--add-checks``, whose own line says what it declared and how to read them).
    ``command`` is this scan's command as the hints name it (``commands.scan.scan_again``: its manifest and pages).

    Each pair shows why it was found (tier, rule and cue, link, instruction form) and the lines of
    ``texts`` that hold its two quotes, the instruction marked ``I»…«`` and the caveat ``C»…«``, so a reviewer can
    accept or reject it at a glance. Without ``texts`` the quotes are shown alone.
    """
    header = (
        "policy",
        "found",
        "kept together",
        "split",
        *(reason if reason == APART_REASON else f"by {reason}" for reason in REASON_ORDER),
    )
    rows = [header]
    for policy in report["policies"]:
        rows.append(
            (
                policy["policy"],
                f"{policy['found']:,}",
                f"{policy['kept_together']:,}",
                f"{policy['split']:,}",
                *(f"{policy['split_by'][reason]:,}" for reason in REASON_ORDER),
            )
        )
    lines = aligned_lines(rows)
    pairs = report["pairs"]
    sources = len({pair["source_id"] for pair in pairs})
    # The tiers kept, named as numbers, since "stronger" does not say which way they run: tier 1 is the surest.
    shown = [tier for tier in TIERS if tier <= report["tier"]]
    kept = (
        ""
        if report["tier"] == max(TIERS)
        else f" (tier{'s' * (len(shown) > 1)} {' and '.join(map(str, shown))} of {len(TIERS)}, "
        f"{'tier 1 ' * (len(shown) > 1)}the surest; --tier {max(TIERS)} lists every pair)"
    )
    lines.append(f"{counted(len(pairs), 'pair')} found in {counted(sources, 'source')}{kept}")
    declared = sum(pair["declared_as"] is not None for pair in pairs)
    if declared and declared < len(pairs) and cards:
        # After a re-pin or an edit, which pairs the manifest's checks hold and which are new (--add-checks, which
        # prints no cards, says so itself on the line after).
        lines.append(
            f"{declared:,} of them declared as span checks, {len(pairs) - declared:,} not yet "
            "(--add-checks declares them)"
        )
    listed = len(pairs) if every_pair else LISTED_PAIRS if cards else 0
    if len(pairs) > (listed if cards else LISTED_PAIRS) and sources > 1:
        # More than the view lists: where they are, so a review can go page by page.
        per_source = Counter(pair["source_id"] for pair in pairs).most_common(PAGES_COUNTED)
        counts = ", ".join(f"{printable(source_id)} {count:,}" for source_id, count in per_source)
        more = f" and {sources - len(per_source):,} more" if sources > len(per_source) else ""
        lines.append(f"most pairs: {counts}{more} ({command} --source ID lists one page's)")
    if report["unpaired"]:
        lines.append(
            f"{counted(len(report['unpaired']), 'caveat')} without an instruction (none in reach: same section, "
            f"{LOOK_BACK_BLOCKS} blocks either side, or for a limitations subsection the sections before it; or a pair "
            "weaker than the tier kept); see --json"
        )
    if report["rejected"]:
        lines.append(f"{counted(report['rejected'], 'rejected pair')} left out (the manifest's decisions file)")
    if pairs[:listed] and texts is not None:
        lines.append(f"each pair below in its lines: the instruction {INSTRUCTION_MARK}…«, the caveat {CAVEAT_MARK}…«")
    newlines: dict[str, list[int]] = {}
    for pair in pairs[:listed]:
        declared = "" if pair["declared_as"] is None else f" · declared as {printable(pair['declared_as'])}"
        accepted = ""
        if pair["decision"] == "accept":
            # Accepted, but its check gone (pin --drop-stale removed it when its quotes were): say how to get it back.
            accepted = (
                " · accepted"
                if pair["declared_as"] is not None
                else " · accepted, no check holds it: --accept declares it"
            )
        lines.append("")
        lines.append(
            f"{printable(pair['name'])} · tier {pair['tier']} · {pair['rule']} {quoted(pair['cue'])} · "
            f"{printable(pair['link'])} · {pair['instruction_rule']}{declared}{accepted}"
        )
        text = None if texts is None else texts.get(pair["source_id"])
        if text is None:
            for role in ("instruction", "qualifier"):
                span = pair[role]
                lines.append(f"  {role:<11} [{span['start']}, {span['end']}) {quoted(span['quote'], limit=90)}")
        else:
            if pair["source_id"] not in newlines:
                newlines[pair["source_id"]] = chunk_index.newline_offsets(text)
            # The section's title to the line's end, inert as show's captions show it (``visible``): in JSON's
            # quotes a heading written in quotes showed them doubled, its own escaped.
            lines.append(f"  § {visible(pair['context']['section'])}")
            lines.extend(context_lines(text, newlines[pair["source_id"]], pair["instruction"], pair["qualifier"]))
        lines.append("  " + ", ".join(verdict_phrase(name, verdict) for name, verdict in pair["policies"].items()))
    if not cards:
        return "\n".join(lines)
    if len(pairs) > listed:
        # A few lines a pair: a docs set's thousands of pairs would bury the table; --list shows them all.
        lines.append("")
        lines.append(f"… {len(pairs) - listed:,} more pairs: {command} --list shows every one, --json lists them")
    if pairs:
        lines.append("")
        lines.append(
            review or "review: scan --accept NAME declares a pair as a span check; scan --reject NAME drops it for good"
        )
    return "\n".join(lines)


def aligned_lines(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows of cells as aligned lines: the first column left-aligned, the others right, two spaces between."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(widths[0]) if column == 0 else cell.rjust(widths[column]) for column, cell in enumerate(row)
        )
        for row in rows
    ]


def line_spans(newlines: list[int], length: int, line: int) -> tuple[int, int]:
    """``[start, end)`` of 1-based ``line`` (its newline excluded)."""
    start = 0 if line == 1 else newlines[line - 2] + 1
    end = newlines[line - 1] if line - 1 < len(newlines) else length
    return start, end


def context_lines(text: str, newlines: list[int], instruction: dict, qualifier: dict) -> list[str]:
    """The lines holding both quotes, numbered, the instruction marked ``I»…«`` and the caveat ``C»…«``; long gaps and
    long spans elided.

    Every line is shown escaped (``one_line``), a long one in the rows that hold a mark or a quote's words
    (``marked_rows``). A span of more than ``CONTEXT_SPAN`` lines shows its first two and its last; between shown
    lines, a gap of at most ``CONTEXT_GAP`` lines is shown, a longer one is one ``┆ N lines not shown`` line.
    """
    # Which quote is which, whichever comes first on the page: the instruction's opens on ``I»``, the caveat's on
    # ``C»`` (a caveat may come before its instruction).
    labelled = sorted(
        (
            (instruction["start"], instruction["end"], INSTRUCTION_MARK),
            (qualifier["start"], qualifier["end"], CAVEAT_MARK),
        )
    )
    spans = [(start, end) for start, end, _ in labelled]
    marks: dict[int, str] = {}
    for start, end, opening in labelled:
        marks[start] = marks.get(start, "") + opening
        marks[end] = "«" + marks.get(end, "")
    numbers = set()
    for start, end in spans:
        first = line_of(newlines, start)
        last = line_of(newlines, max(end - 1, start))
        if last - first + 1 > CONTEXT_SPAN:
            numbers.update((first, first + 1, last))
        else:
            numbers.update(range(first, last + 1))
    shown: list[int | str] = []
    for number in sorted(numbers):
        if shown:
            gap = number - shown[-1] - 1
            if gap > CONTEXT_GAP:
                shown.append(f"{gap} lines not shown")
            else:
                shown.extend(range(shown[-1] + 1, number))
        shown.append(number)
    width = len(str(max(numbers)))
    lines = []
    for number in shown:
        if isinstance(number, str):
            lines.append(f"  {'':>{width}} ┆ {number}")
            continue
        start, end = line_spans(newlines, len(text), number)
        inside = sorted(mark for mark in marks if start <= mark <= end)
        if not inside and not text[start:end].strip():
            # A line of spaces alone, however long: a blank row.
            lines.append(f"  {number:>{width}} │")
            continue
        pieces = []
        for stretch_start, stretch_end in near_marks(start, end, inside):
            if stretch_start > start and (not pieces or pieces[-1] != " … "):
                pieces.append(" … ")
            position = stretch_start
            for offset in inside:
                if stretch_start <= offset <= stretch_end:
                    pieces.append(one_line(text[position:offset]))
                    pieces.append(marks[offset])
                    position = offset
            pieces.append(one_line(text[position:stretch_end]))
            if stretch_end < end:
                pieces.append(" … ")
        # A quote opened on an earlier line (its "»" there) is still open where this one starts.
        quoted_at_start = any(span_start < start < span_end for span_start, span_end in spans)
        for place, row in enumerate(marked_rows("".join(pieces), quoted_at_start)):
            label = f"{number:>{width}}" if place == 0 else " " * width
            lines.append(f"  {label} │ {row}".rstrip())
    return lines


def near_marks(start: int, end: int, inside: list[int]) -> list[tuple[int, int]]:
    """The stretches of the line ``[start, end)`` that are shown: all of it, or for a line longer than
    ``LONG_LINE`` only ``CONTEXT_WIDTH`` characters either side of each mark in it (``inside``; the first
    ``CONTEXT_WIDTH`` when there is none), merged, so a page's one line of megabytes is not wrapped whole."""
    if end - start <= LONG_LINE:
        return [(start, end)]
    if not inside:
        return [(start, start + CONTEXT_WIDTH)]
    stretches: list[tuple[int, int]] = []
    for mark in inside:
        low, high = max(start, mark - CONTEXT_WIDTH), min(end, mark + CONTEXT_WIDTH)
        if stretches and low <= stretches[-1][1]:
            stretches[-1] = (stretches[-1][0], max(stretches[-1][1], high))
        else:
            stretches.append((low, high))
    return stretches


def marked_rows(line: str, quoted_at_start: bool = False) -> list[str]:
    """A numbered line as the rows it is shown in: whole when it fits ``CONTEXT_WIDTH``, else wrapped at spaces and
    cut to the rows that hold a quote's mark (``»``, ``«``) or a quote's words (the first ``QUOTED_ROWS`` rows of
    each run of them with no mark), each gap between them, and the rest after the last, shown as ``…`` (a line of
    no mark shows its first row; ``quoted_at_start``: a quote opened on an earlier line is open where it starts).

    A long line holding both quotes ("»Gather the error details.« … »However, capturing them costs …«") shows
    both, however far apart they are on it, and a quote wrapped over three rows shows its middle one too: the
    words a reviewer decides the pair by, "Pydantic will *not* enforce it", are not cut away as a gap.
    """
    if len(line) <= CONTEXT_WIDTH:
        return [line]
    # Room for the "… " before a row and the " …" after it. A line of spaces alone wraps into no row: one blank.
    rows = textwrap.wrap(line, CONTEXT_WIDTH - 4, break_on_hyphens=False) or [""]
    kept = []
    depth = 1 if quoted_at_start else 0
    run = 0
    for place, row in enumerate(rows):
        marked = "»" in row or "«" in row
        if marked:
            run = 0
            kept.append(place)
        elif depth > 0:
            run += 1
            if run <= QUOTED_ROWS:
                kept.append(place)
        depth = max(0, depth + row.count("»") - row.count("«"))
    kept = kept or [0]
    shown = []
    previous = -1
    for place in kept:
        row = rows[place]
        if place > previous + 1:
            row = "… " + row
        shown.append(row)
        previous = place
    if previous < len(rows) - 1:
        shown[-1] += " …"
    return shown


CONTEXT_WIDTH = 110
INSTRUCTION_MARK = "I»"
CAVEAT_MARK = "C»"
# A line longer than this is shown only around its marks (``near_marks``).
LONG_LINE = 20 * CONTEXT_WIDTH
CONTEXT_GAP = 2
CONTEXT_SPAN = 4
# Of a run of wrapped rows inside a quote with no mark, how many are shown (as a span's first lines are).
QUOTED_ROWS = 2
LISTED_PAIRS = 20
"""``scan`` prints the quotes and verdicts of at most this many pairs; the table counts them all."""
PAGES_COUNTED = 5
"""The pages with the most pairs the view names, when it lists fewer pairs than it found."""
