"""Found pairs as manifest ``span_checks`` entries: what ``scan --add-checks`` appends."""

from __future__ import annotations

from checks.caveats.findings import FoundPair
from checks.caveats.report import span_json
from checks.caveats.verdicts import declared_names


def check_entry(pair: FoundPair, name: str) -> dict:
    """A found pair as a manifest ``span_checks`` entry in quote form, offsets included."""
    return {
        "name": name,
        "source_id": pair.source_id,
        "instruction": span_json(pair.instruction),
        "qualifier": span_json(pair.qualifier),
    }


def unused_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name~2``, ``name~3``… when a check of another pair already has it."""
    if name not in taken:
        return name
    number = 2
    while f"{name}~{number}" in taken:
        number += 1
    return f"{name}~{number}"


def checks_to_add(pairs: list[FoundPair], checks) -> list[dict]:
    """The manifest entries for found pairs that no existing check already is (``same_pair``).

    Existing checks are never touched. A pair whose scan name is taken by a
    check of another pair gets the first free ``~N`` suffix, so names stay unique.
    """
    taken = {check.name for check in checks}
    entries = []
    for pair, declared_as in zip(pairs, declared_names(pairs, checks)):
        if declared_as is not None:
            continue
        name = unused_name(pair.name, taken)
        taken.add(name)
        entries.append(check_entry(pair, name))
    return entries
