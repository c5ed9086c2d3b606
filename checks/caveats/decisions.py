"""Review decisions that stick: ``scan --accept NAME`` and ``scan --reject NAME``.

Decisions live in a file beside the manifest (``manifest.json`` ->
``manifest.decisions.json``), one entry per decided pair with its source and
both quotes. A decision is matched to a found pair by source and by the two
quotes, whitespace runs made one space, never by offsets or name: after an
edit and a re-pin the same pair is still the one decided, wherever its lines
moved. So one decision covers every found pair of its source with those two
quotes (a page that repeats an instruction and its caveat holds several); the
review names them all. A rejected pair is never proposed, added as a check or imported again;
an accepted one is declared as a span check in the manifest. It reads no
files; ``commands/scan.py`` does the I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lab_io.errors import IngestionError, quoted
from lab_io.outputs import decisions_file

DECISIONS_VERSION = 1
ACCEPT = "accept"
REJECT = "reject"


@dataclass(frozen=True)
class Decision:
    """One reviewed pair: ``accept`` or ``reject``, its source, its two quotes and the name it had when decided."""

    decision: str
    name: str
    source_id: str
    instruction: str
    qualifier: str

    def key(self) -> tuple[str, str, str]:
        return pair_key(self.source_id, self.instruction, self.qualifier)


def decisions_path(manifest_path: Path) -> Path:
    """Where a manifest's decisions live: ``lab/manifest.json`` -> ``lab/manifest.decisions.json``
    (``lab_io.outputs.decisions_file``, which every command's outputs are kept from)."""
    return decisions_file(manifest_path)


def pair_key(source_id: str, instruction: str, qualifier: str) -> tuple[str, str, str]:
    """What a decision and a pair are matched by: the source and both quotes with each whitespace run one space."""
    return source_id, " ".join(instruction.split()), " ".join(qualifier.split())


def found_key(pair) -> tuple[str, str, str]:
    return pair_key(pair.source_id, pair.instruction.quote, pair.qualifier.quote)


def parsed_decisions(value: object, where: str) -> list[Decision]:
    """The decisions of a parsed decisions file, each field checked; refused in one line otherwise."""
    if not isinstance(value, dict) or value.get("decisions_version") != DECISIONS_VERSION:
        raise IngestionError(
            "bad_decisions", where, f'expected an object with "decisions_version": {DECISIONS_VERSION} and "decisions"'
        )
    entries = value.get("decisions")
    if type(entries) is not list:
        raise IngestionError("bad_decisions", f"{where}: decisions", "expected a list")
    decisions = []
    for number, entry in enumerate(entries):
        place = f"{where}: decisions[{number}]"
        if not isinstance(entry, dict):
            raise IngestionError("bad_decisions", place, f"expected an object, found {quoted(entry)}")
        if entry.get("decision") not in (ACCEPT, REJECT):
            raise IngestionError(
                "bad_decisions",
                f"{place}.decision",
                f'expected "accept" or "reject", found {quoted(entry.get("decision"))}',
            )
        fields = {}
        for field in ("name", "source_id"):
            if type(entry.get(field)) is not str:
                raise IngestionError(
                    "bad_decisions", f"{place}.{field}", f"expected a string, found {quoted(entry.get(field))}"
                )
            fields[field] = entry[field]
        for role in ("instruction", "qualifier"):
            span = entry.get(role)
            if not isinstance(span, dict) or type(span.get("quote")) is not str or not span["quote"].strip():
                raise IngestionError("bad_decisions", f"{place}.{role}", 'expected an object with a non-empty "quote"')
            fields[role] = span["quote"]
        decisions.append(Decision(entry["decision"], **fields))
    return decisions


def decision_entry(decision: str, pair) -> dict:
    """A found pair's decision as the file holds it: the quotes decide, the offsets and name say where it was."""
    return {
        "decision": decision,
        "name": pair.name,
        "source_id": pair.source_id,
        "instruction": {"start": pair.instruction.start, "end": pair.instruction.end, "quote": pair.instruction.quote},
        "qualifier": {"start": pair.qualifier.start, "end": pair.qualifier.end, "quote": pair.qualifier.quote},
    }


def decisions_value(existing: dict | None, decided: list[tuple[str, object]]) -> dict:
    """The decisions file after ``decided`` (decision, pair): a pair decided again keeps only its new decision.

    Entries keep their order; a new decision for a pair already decided takes that entry's place.
    """
    entries = [] if existing is None else list(existing["decisions"])
    position = {
        pair_key(entry["source_id"], entry["instruction"]["quote"], entry["qualifier"]["quote"]): number
        for number, entry in enumerate(entries)
    }
    for decision, pair in decided:
        entry = decision_entry(decision, pair)
        key = found_key(pair)
        if key in position:
            entries[position[key]] = entry
        else:
            position[key] = len(entries)
            entries.append(entry)
    return {"decisions_version": DECISIONS_VERSION, "decisions": entries}


def decision_of(decisions: list[Decision]) -> dict[tuple[str, str, str], str]:
    """Each decided pair's key and its decision (the last one when a file names a pair twice)."""
    return {decision.key(): decision.decision for decision in decisions}


def without_rejected(pairs: list, decisions: list[Decision]) -> tuple[list, list]:
    """The found pairs no decision rejects, and the pairs a decision rejects."""
    decided = decision_of(decisions)
    kept, rejected = [], []
    for pair in pairs:
        (rejected if decided.get(found_key(pair)) == REJECT else kept).append(pair)
    return kept, rejected


def covered_pairs(pairs: list, named: list) -> list:
    """Every pair of ``pairs`` a decision on ``named`` covers (same source, same quotes), in ``pairs``' order."""
    keys = {found_key(pair) for pair in named}
    return [pair for pair in pairs if found_key(pair) in keys]
