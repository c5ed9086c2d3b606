"""The scan as JSON (``scan --json``) and as the terminal table a person reads."""

from __future__ import annotations

import grammars
from checks import span_checks
from checks.caveats.pairing import LOOK_BACK_BLOCKS, SCAN_VERSION, scan_sources
from checks.caveats.verdicts import REASON_ORDER, declared_names, heading_offsets, policy_verdict
from lab_io.errors import counted, printable, quoted
from load_documents import Span


def span_json(span: Span) -> dict:
    return {"start": span.start, "end": span.end, "quote": span.quote}


def scan_report(manifest, indexes: dict, grammar: str = grammars.LESSON_GRAMMAR, found: tuple | None = None) -> dict:
    """Every pair found in the manifest's sources, each judged under every policy of ``indexes``, as JSON.

    Per pair: name, source, line, both spans with their quotes, the cue, the
    link, the declared check it already is (``declared_as``), and per policy
    whether one chunk holds both (``same_chunk``) and, if not, ``split_by`` and
    the ``boundary`` offset. Per policy: found, kept together, split and the
    splits by reason. Unpaired caveats are listed apart. ``found`` is
    ``scan_sources``'s answer when the caller already has it.
    """
    pairs, unpaired = scan_sources(manifest.sources, grammar) if found is None else found
    headings = heading_offsets(manifest.sources, grammar)
    grouped = {name: span_checks.chunks_by_source(index) for name, index in indexes.items()}
    declared = declared_names(pairs, manifest.span_checks)
    pair_records = []
    for pair, declared_as in zip(pairs, declared):
        verdicts = {
            name: policy_verdict(name, chunks.get(pair.source_id), headings[pair.source_id], pair)
            for name, chunks in grouped.items()
        }
        pair_records.append(
            {
                "name": pair.name,
                "source_id": pair.source_id,
                "line": pair.line,
                "instruction": span_json(pair.instruction),
                "qualifier": span_json(pair.qualifier),
                "cue": pair.cue,
                "link": pair.link,
                "declared_as": declared_as,
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
        "policies": policies,
        "pairs": pair_records,
        "unpaired": [
            {"source_id": item.source_id, "line": item.line, "qualifier": span_json(item.span), "cue": item.cue}
            for item in unpaired
        ],
    }


def verdict_phrase(policy: str, verdict: dict) -> str:
    """``"paragraph split (block break at 130)"`` or ``"heading-aware same chunk"``."""
    if verdict["same_chunk"]:
        return f"{policy} same chunk"
    at = "" if verdict["boundary"] is None else f" at {verdict['boundary']}"
    return f"{policy} split ({verdict['split_by']}{at})"


def scan_table(report: dict) -> str:
    """The scan as a person reads it: a table per policy, then each pair with its quotes and verdicts."""
    header = ("policy", "found", "kept together", "split", *(f"by {reason}" for reason in REASON_ORDER))
    rows = [header]
    for policy in report["policies"]:
        rows.append(
            (
                policy["policy"],
                str(policy["found"]),
                str(policy["kept_together"]),
                str(policy["split"]),
                *(str(policy["split_by"][reason]) for reason in REASON_ORDER),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(widths[0]) if column == 0 else cell.rjust(widths[column]) for column, cell in enumerate(row)
        )
        for row in rows
    ]
    pairs = report["pairs"]
    sources = len({pair["source_id"] for pair in pairs})
    lines.append(f"{counted(len(pairs), 'pair')} found in {counted(sources, 'source')}")
    if report["unpaired"]:
        lines.append(
            f"{counted(len(report['unpaired']), 'caveat')} without an instruction in reach "
            f"(same section, its block and the {LOOK_BACK_BLOCKS} before it); see --json"
        )
    for pair in pairs[:LISTED_PAIRS]:
        declared = "" if pair["declared_as"] is None else f" · declared as {printable(pair['declared_as'])}"
        lines.append("")
        lines.append(f"{printable(pair['name'])} · cue {quoted(pair['cue'])} · {printable(pair['link'])}{declared}")
        for role in ("instruction", "qualifier"):
            span = pair[role]
            lines.append(f"  {role:<11} [{span['start']}, {span['end']}) {quoted(span['quote'], limit=90)}")
        lines.append("  " + ", ".join(verdict_phrase(name, verdict) for name, verdict in pair["policies"].items()))
    if len(pairs) > LISTED_PAIRS:
        # Four lines a pair: a docs set's thousands of pairs would bury the table; --json has them all.
        lines.append("")
        lines.append(f"… {len(pairs) - LISTED_PAIRS:,} more pairs: scan --json lists every one")
    return "\n".join(lines)


LISTED_PAIRS = 20
"""``scan`` prints the quotes and verdicts of at most this many pairs; the table counts them all."""
