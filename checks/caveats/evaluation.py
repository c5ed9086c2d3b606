"""Measure the scan against hand labels: ``run.py scan --evaluate LABELS``.

A labels file holds pages labelled by hand (the shape of
``docs/caveats.md``, "Measure the scan"): per page the ``text_sha256`` of its
normalized text, its instruction/caveat ``pairs`` and its ``general_caveats``
(caveats that qualify no single instruction). Each page is matched to the
manifest's source whose text has that hash; the scan's proposals on those
sources are then counted:

- **precision**: proposed pairs whose caveat matches a labelled caveat and
  whose instruction matches that caveat's labelled instruction (a general
  caveat accepts any instruction), over all proposed pairs;
- **caveat recall**: labelled caveats that some proposed caveat matches,
  paired or reported unpaired;
- **pair recall**: labelled pairs that some proposed pair matches, caveat and
  instruction both.

Two spans match when they overlap by at least half of the shorter one. It
reads no files; the command hands it the parsed labels and the sources.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from checks.caveats.findings import TIERS
from checks.caveats.report import aligned_lines
from lab_io.errors import IngestionError, counted, quoted, quoted_name

SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Proposal:
    """One caveat the scan proposes on a source: its span and tier, its instruction's span and the pair's tier.

    ``instruction`` is ``None`` for a caveat reported unpaired. Kept to tier N, a pair of tier N or
    stronger is a pair; a caveat of tier N or stronger whose pair is weaker is a caveat reported unpaired.
    """

    source_id: str
    name: str
    caveat: tuple[int, int]
    caveat_tier: int
    instruction: tuple[int, int] | None
    tier: int

    def kept(self, tier: int) -> Proposal | None:
        """This proposal as ``scan --tier tier`` reports it: a pair, an unpaired caveat, or nothing."""
        if self.instruction is not None and self.tier <= tier:
            return self
        if self.caveat_tier <= tier:
            return Proposal(self.source_id, self.name, self.caveat, self.caveat_tier, None, self.caveat_tier)
        return None


@dataclass(frozen=True)
class LabelledPage:
    """One labelled page: its hash, its pairs as ``(instruction, caveat)`` spans and its general caveats."""

    where: str
    text_sha256: str
    pairs: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    general: tuple[tuple[int, int], ...]


def spans_match(first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Whether two ``[start, end)`` spans overlap by at least half of the shorter one.

    ``spans_match((0, 10), (5, 30))`` -> ``True`` (5 of the shorter 10);
    ``spans_match((0, 10), (6, 30))`` -> ``False``.
    """
    overlap = min(first[1], second[1]) - max(first[0], second[0])
    shorter = min(first[1] - first[0], second[1] - second[0])
    return overlap > 0 and 2 * overlap >= shorter


def text_sha256(text: str) -> str:
    """The hash a labels file names a page by: sha256 of its normalized text, UTF-8 encoded."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def labelled_span(value: object, where: str) -> tuple[int, int]:
    """A label's ``[start, end]`` pair of offsets, refused unless two integers with ``0 <= start < end``."""
    if (
        type(value) is not list
        or len(value) != 2
        or any(type(offset) is not int for offset in value)
        or not 0 <= value[0] < value[1]
    ):
        raise IngestionError("bad_labels", where, f"expected [start, end] with 0 <= start < end, found {quoted(value)}")
    return value[0], value[1]


def labelled_pages(value: object, where: str) -> list[LabelledPage]:
    """The pages of a parsed labels file, each checked for the fields the evaluation reads (others are ignored)."""
    if not isinstance(value, dict) or type(value.get("pages")) is not list:
        raise IngestionError("bad_labels", where, 'expected an object with a "pages" list')
    pages = []
    for number, page in enumerate(value["pages"]):
        place = f"{where}: pages[{number}]"
        if not isinstance(page, dict):
            raise IngestionError("bad_labels", place, f"expected an object, found {quoted(page)}")
        sha = page.get("text_sha256")
        if type(sha) is not str or not SHA256.fullmatch(sha):
            raise IngestionError(
                "bad_labels", f"{place}.text_sha256", f"expected 64 lower-case hex digits, found {quoted(sha)}"
            )
        pairs = []
        for field in ("pairs", "general_caveats"):
            if type(page.get(field, [])) is not list:
                raise IngestionError("bad_labels", f"{place}.{field}", "expected a list")
        for index, pair in enumerate(page.get("pairs", [])):
            item = f"{place}.pairs[{index}]"
            if not isinstance(pair, dict):
                raise IngestionError("bad_labels", item, f"expected an object, found {quoted(pair)}")
            pairs.append(
                (
                    labelled_span(pair.get("instruction"), f"{item}.instruction"),
                    labelled_span(pair.get("caveat"), f"{item}.caveat"),
                )
            )
        general = []
        for index, caveat in enumerate(page.get("general_caveats", [])):
            item = f"{place}.general_caveats[{index}]"
            if not isinstance(caveat, dict):
                raise IngestionError("bad_labels", item, f"expected an object, found {quoted(caveat)}")
            general.append(labelled_span(caveat.get("caveat"), f"{item}.caveat"))
        pages.append(LabelledPage(place, sha, tuple(pairs), tuple(general)))
    return pages


def matched_sources(pages: list[LabelledPage], sources, where: str) -> list[tuple[LabelledPage, dict]]:
    """Each labelled page with the source whose text has its hash (the first by ``source_id``); pages without one left out.

    A label's offsets must lie inside its page's text, or the labels are refused.
    """
    by_hash: dict[str, dict] = {}
    for source in sorted(sources, key=lambda source: source["source_id"]):
        by_hash.setdefault(text_sha256(source["text"]), source)
    matched = []
    for page in pages:
        source = by_hash.get(page.text_sha256)
        if source is None:
            continue
        length = len(source["text"])
        for span in [span for pair in page.pairs for span in pair] + list(page.general):
            if span[1] > length:
                raise IngestionError(
                    "bad_labels",
                    page.where,
                    f"offset {span[1]} is past the end of {quoted_name(source['source_id'])} ({length:,} characters)",
                )
        matched.append((page, source))
    if not matched:
        raise IngestionError(
            "labels_not_in_manifest",
            where,
            f"none of its {counted(len(pages), 'page')} has the text of a source of the manifest",
        )
    return matched


def page_figures(page: LabelledPage, proposals: list[Proposal]) -> dict:
    """Counts on one page: proposed pairs and how many are right, labelled caveats and pairs and how many were found."""
    paired = [proposal for proposal in proposals if proposal.instruction is not None]
    right = [proposal for proposal in paired if proposal_is_right(page, proposal)]
    caveats = sorted({caveat for _, caveat in page.pairs} | set(page.general))
    found_caveats = [caveat for caveat in caveats if any(spans_match(caveat, item.caveat) for item in proposals)]
    found_pairs = [
        pair
        for pair in page.pairs
        if any(spans_match(pair[1], item.caveat) and spans_match(pair[0], item.instruction) for item in paired)
    ]
    return {
        "proposed": len(paired),
        "right": len(right),
        "wrong": [proposal.name for proposal in paired if proposal not in right],
        "caveats": len(caveats),
        "caveats_found": len(found_caveats),
        "caveats_missed": [caveat for caveat in caveats if caveat not in found_caveats],
        "pairs": len(page.pairs),
        "pairs_found": len(found_pairs),
        "pairs_missed": [pair for pair in page.pairs if pair not in found_pairs],
    }


def proposal_is_right(page: LabelledPage, proposal: Proposal) -> bool:
    """Whether a proposed pair's caveat is labelled and its instruction is the labelled one (any, for a general caveat)."""
    if any(spans_match(caveat, proposal.caveat) for caveat in page.general):
        return True
    return any(
        spans_match(caveat, proposal.caveat) and spans_match(instruction, proposal.instruction)
        for instruction, caveat in page.pairs
    )


def ratio(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 4)


def proposals_of(found: tuple) -> list[Proposal]:
    """``scan_sources``'s pairs and unpaired caveats as proposals to measure."""
    pairs, unpaired = found
    proposals = [
        Proposal(
            pair.source_id,
            pair.name,
            (pair.qualifier.start, pair.qualifier.end),
            pair.caveat_tier,
            (pair.instruction.start, pair.instruction.end),
            pair.tier,
        )
        for pair in pairs
    ]
    proposals.extend(
        Proposal(item.source_id, "", (item.span.start, item.span.end), item.tier, None, item.tier) for item in unpaired
    )
    return proposals


COUNTS = ("proposed", "right", "caveats", "caveats_found", "pairs", "pairs_found")


def evaluation(matched: list[tuple[LabelledPage, dict]], proposals: list[Proposal], chosen: int = max(TIERS)) -> dict:
    """The three figures over every matched page, kept to each tier in turn; per page, at tier ``chosen``."""
    by_source: dict[str, list[Proposal]] = {}
    for proposal in proposals:
        by_source.setdefault(proposal.source_id, []).append(proposal)
    rows = []
    pages = []
    for tier in TIERS:
        totals = dict.fromkeys(COUNTS, 0)
        for page, source in matched:
            kept = [item.kept(tier) for item in by_source.get(source["source_id"], [])]
            figures = page_figures(page, [item for item in kept if item is not None])
            for key in COUNTS:
                totals[key] += figures[key]
            if tier == chosen:
                pages.append({"source_id": source["source_id"], **figures})
        rows.append(
            {
                "tier": tier,
                **totals,
                "precision": ratio(totals["right"], totals["proposed"]),
                "caveat_recall": ratio(totals["caveats_found"], totals["caveats"]),
                "pair_recall": ratio(totals["pairs_found"], totals["pairs"]),
            }
        )
    return {"evaluation_version": 1, "matched_pages": len(matched), "tier": chosen, "tiers": rows, "pages": pages}


MATCHING_RULE = (
    "a proposed pair is right when its caveat matches a labelled caveat and its instruction that caveat's "
    "labelled instruction (a caveat that qualifies no single instruction accepts any); two spans match when "
    "they overlap by at least half of the shorter one; a caveat is found when a proposed caveat matches it, "
    "paired or unpaired"
)


def evaluation_table(figures: dict) -> str:
    """The evaluation as a person reads it: one row per tier kept, the chosen tier marked, then the matching rule."""
    header = (
        "tier kept",
        "pairs",
        "right",
        "precision",
        "caveats found",
        "caveat recall",
        "pairs found",
        "pair recall",
    )
    rows = [header]
    for row in figures["tiers"]:
        marker = " *" if row["tier"] == figures["tier"] else ""
        rows.append(
            (
                f"{row['tier']} and stronger{marker}" if row["tier"] < max(TIERS) else f"all ({row['tier']}){marker}",
                f"{row['proposed']:,}",
                f"{row['right']:,}",
                shown_ratio(row["precision"]),
                f"{row['caveats_found']:,} of {row['caveats']:,}",
                shown_ratio(row["caveat_recall"]),
                f"{row['pairs_found']:,} of {row['pairs']:,}",
                shown_ratio(row["pair_recall"]),
            )
        )
    lines = aligned_lines(rows)
    lines.append(
        f"{figures['matched_pages']:,} of {counted(figures['labelled_pages'], 'labelled page')} matched a source "
        "by text_sha256; * the tier scan keeps now (--tier)"
    )
    lines.append(f"matching: {MATCHING_RULE}")
    return "\n".join(lines)


def shown_ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
