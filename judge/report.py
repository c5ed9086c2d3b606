"""What ``judge`` prints: its text report and its ``--json`` document."""

from __future__ import annotations

from checks import span_checks
from judge.chunk_files import SHAPE_NAMES
from judge.judgement import Judgement, context_text
from judge.placement import BYTE_ORDER_MARK, LAB_FRAME, LOCATED_STATES, STATE_WORDS, STATES, Location
from lab_io.errors import counted, first_difference, first_few, printable, quoted
from lab_io.indented_json import saved_json_bytes
from views.summary import no_span_checks, sized_label

# 2: whitespace-only chunks are judged, the "export" shape, offsets read in the splitter's frame
# ("offset_frames"), "out_of_order" (with "previous_span") in place of "before_previous".
# 3: caveats carried in a chunk's metadata are credited ("pairs_carried", each pair's "caveat_carried").
# 4: each row's largest chunk ("largest_chars"), as the main job's table shows it.
# 5: front matter is in no coverage count (a chunker that drops it leaves no text uncovered).
# 6: records exported before an edit are counted ("stale_records"), as the terminal's note counts them.
# 7: a chunk's end is counted with the whitespace after it (the placement rule), so a stripped overlap follows.
# 8: a verbatim chunk whose given span holds its place, whitespace beyond it, is no wrong offset (a stripped cut).
# 9: a start without an end spans the text's length; a span reaches past the text only where the text is stripped;
# a stripped cut's offsets count toward the file's frame.
# 10: a side is stripped when the white space beyond it lacks the text's edge character; a stripped cut whose span
# holds it is placed there; a frame counts a stripped cut by its text stripped, its mark set aside.
# 11: a split pair whose caveat is in the chunk where its instruction starts is counted ("pairs_at_instruction_start",
# each pair's "caveat_at_instruction_start"), and its caveat reached with the carried ones.
# 12: a span beyond a text holding any white space the text keeps at an edge is no stripped cut; a pair carried is
# carried, whatever a chunk overlapping where its instruction starts holds.
# 13: a span beyond a text at one end only is read at that end (a cut stripped at one side).
# 14: a span that ends past the text's end is never a stripped cut's.
JUDGE_VERSION = 14
SHOWN_QUOTE = 40


def location_json(location: Location, orders: dict[int, int]) -> dict:
    """One record's location; ``order`` is its place among its source's located chunks (``null`` if unlocated)."""
    record = location.record
    entry = {
        "line": record.line,
        "source_id": record.source_id,
        "state": location.state,
        "order": orders.get(record.line),
        "start": location.start,
        "end": location.end,
        "given_start": record.start,
        "given_end": record.end,
        "offset_wrong": location.offset_wrong,
        "headings_dropped": location.headings_dropped,
    }
    if location.offset_wrong:
        entry["offset_issue"] = location.offset_issue
        if location.offset_holds is not None:
            entry["offset_holds"] = location.offset_holds
        if location.previous_span is not None:
            entry["previous_span"] = list(location.previous_span)
    if location.places:
        entry["places"] = [list(place) for place in location.places]
    return entry


def judgement_json(judgement: Judgement) -> dict:
    """The ``judge --json`` document (``judge_version`` 6; shape in ``docs/judge.md``)."""
    counts = judgement.counts
    orders = {chunk["line"]: chunk["order"] for chunk in judgement.chunks}
    return {
        "judge_version": JUDGE_VERSION,
        "name": judgement.name,
        "chunks_file": judgement.file,
        "shape": judgement.shape,
        "chunk_count": len(judgement.locations),
        "located": {state: counts[state] for state in STATES},
        "located_count": sum(counts[state] for state in LOCATED_STATES),
        "complete": judgement.complete,
        "offsets_given": sum(location.record.start is not None for location in judgement.locations),
        "offsets_wrong": sum(location.offset_wrong for location in judgement.locations),
        "stale_records": stale_counts(judgement),
        "offset_frames": [
            {
                "source_id": source_id,
                "byte_order_mark": frame.byte_order_mark,
                "carriage_returns": frame.carriage_returns,
            }
            for source_id, frame in offset_frames(judgement)
        ],
        "chunks": [location_json(location, orders) for location in judgement.locations],
        "policies": judgement.rows,
    }


def offset_frames(judgement: Judgement) -> list[tuple[str, object]]:
    """``(source_id, frame)`` for each source whose given offsets count characters the lab's text drops, by id."""
    frames = {}
    for location in judgement.locations:
        if location.record.start is not None and location.frame not in (None, LAB_FRAME):
            frames[location.record.source_id] = location.frame
    return sorted(frames.items())


def frame_sentence(source_id: str, frame) -> str:
    """``"offsets of guide count the file's byte order mark, which the lab's normalized text drops: mapped to it"``."""
    counted_characters = [
        name
        for name, counts in (
            ("the file's byte order mark", frame.byte_order_mark),
            ("the \\r of its \\r\\n line ends", frame.carriage_returns),
        )
        if counts
    ]
    return (
        f"offsets of {printable(source_id)} count {' and '.join(counted_characters)}, "
        "which the lab's normalized text drops: mapped to it"
    )


def shown_text(text: str) -> str:
    """Untrusted text for one line of output: escaped JSON, cut to ``SHOWN_QUOTE`` characters."""
    return quoted(text, SHOWN_QUOTE)


def location_sentence(location: Location) -> str:
    """``"line 3: exact by order at [131, 270)"`` or why it was not located."""
    record = location.record
    head = f"line {record.line} ({record.source_id}): {STATE_WORDS[location.state]}"
    if location.located:
        head += f" at [{location.start}, {location.end})"
        if location.headings_dropped:
            head += ", heading lines dropped by the splitter"
    elif location.state == "ambiguous":
        places = ", ".join(f"[{start}, {end})" for start, end in location.places)
        head += f": {shown_text(record.text)} occurs at {places}, none after the previous chunk"
    else:
        head += f": {shown_text(record.text)} is not in the source"
    return head


PLACEMENT_RULE = "a chunk starts at or after the previous one's start and ends at or past its end"


def offset_sentence(location: Location) -> str:
    """Why a given offset was not trusted: what the source holds there, and where the chunk really is."""
    record = location.record
    if location.offset_issue == "not_found_value":
        said = f"{record.offset_name} -1 (LangChain's value for a chunk it could not find)"
    elif location.offset_issue == "out_of_order":
        start = location.given_start
        span = f"[{start}, {start + len(location.offset_holds)})"
        previous_start, previous_end = location.previous_span
        previous = f"[{previous_start}, {previous_end})"
        if start < previous_start:
            broken = f"starts before the previous chunk of the source, {previous}"
        elif span == previous:
            broken = "is the previous chunk of the source again"
        else:
            broken = f"ends inside the previous chunk of the source, {previous}"
        said = f"{given_offset(location)} holds the text, but {span} {broken}; {PLACEMENT_RULE}"
    else:
        said = f"{given_offset(location)}: {differing_text(location)}"
    where = (
        f"found at [{location.start}, {location.end}) ({STATE_WORDS[location.state]})"
        if location.located
        else STATE_WORDS[location.state]
    )
    return f"wrong offset, line {record.line}: {said}; the chunk is {printable(where)}"


def shift_note(wrong: list[Location]) -> str:
    """When every wrong offset is the same distance after where its chunk was found, that distance, and what makes it
    1: ``"; every one 1 character after its chunk's place, as when offsets count from 1"``; else ``""``."""
    if not wrong or not all(location.located for location in wrong):
        return ""
    shifts = {location.given_start - location.start for location in wrong}
    shift = shifts.pop()
    if shifts or shift <= 0:
        return ""
    cause = ", as when offsets count from 1" if shift == 1 else ""
    return f"; every one {counted(shift, 'character')} after its chunk's place{cause}"


def given_offset(location: Location) -> str:
    """``"metadata.start_index 85"``, and its place in the lab's text when the splitter counted dropped characters."""
    record = location.record
    said = f"{record.offset_name} {record.start}"
    if location.given_start != record.start:
        said += f" ({location.given_start} in the lab's text)"
    return said


def differing_text(location: Location) -> str:
    """What the source holds at a wrong offset, shown from where it parts from the chunk's text.

    Chunks made before an edit share their start with the source, so previews
    of both from the offset would read the same. ``"the source's [131, 267)
    matches the chunk's first 116 characters, then differs at offset 247: the
    source has "overwrites a documen", the chunk "replaces a document.""``.
    """
    holds = location.offset_holds
    start = location.given_start
    if not holds:
        # A non-empty chunk given an empty span, or an offset at or past the page's end: nothing is held there.
        if location.given_end is not None and location.given_end <= start:
            return f"[{start}, {location.given_end}) is an empty span"
        return "past the source's end"
    text = location.record.text
    if text.startswith(BYTE_ORDER_MARK) and not holds.startswith(BYTE_ORDER_MARK):
        text = text[len(BYTE_ORDER_MARK) :]
    end = start + len(holds)
    same = first_difference(text, holds)
    if same == 0:
        return f"the source holds {shown_text(holds)} at [{start}, {end})"
    source_rest = shown_text(holds[same:]) if same < len(holds) else "nothing more"
    chunk_rest = shown_text(text[same:]) if same < len(text) else "nothing more"
    return (
        f"the source's [{start}, {end}) matches the chunk's first {counted(same, 'character')}, "
        f"then differs at offset {start + same}: the source has {source_rest}, the chunk {chunk_rest}"
    )


COVERAGE_NOTE = "uncovered, overlap: non-whitespace characters of the sources (front matter left out) in no chunk (the lab's own policies leave out headings and what their grammar reads as no block), in two or more chunks"
TABLE_HEADER = ("policy", "chunks", "mean chars", "largest", "uncovered", "overlap", "pairs kept together")
NUMERIC = frozenset({1, 2, 3, 4, 5})


def table_rows(judgement: Judgement) -> list[tuple[str, ...]]:
    """The table as display strings, header first; the judged row's pairs say when they are partial.

    The lab's rows are named with their sizes and give the largest chunk, as the
    main job's table does (``fixed-char (width 80)``), so a judged row of a few
    huge chunks does not pass for one of small ones by its mean alone.
    """
    rows = [TABLE_HEADER]
    for row in judgement.rows:
        total = row["coverage"]["total"]
        kept = kept_cell(row)
        chunks = f"{row['chunk_count']:,}"
        if row["kind"] == "judged" and not judgement.complete:
            chunks += f" ({len(judgement.locations) - row['chunk_count']:,} unlocated)"
        label = row["policy"]
        if row["kind"] == "lab":
            label = sized_label(label, judgement.indexes[label]["config"])
        rows.append(
            (
                printable(label),
                chunks,
                f"{row['mean_chars']:,.1f}",
                f"{row['largest_chars']:,}",
                f"{total['uncovered_chars']:,}",
                f"{total['overlap_chars']:,}",
                kept,
            )
        )
    return rows


def kept_cell(row: dict) -> str:
    """A row's pairs kept together as the table gives them: ``"262 of 327, 65 more carried (2 partial)"``."""
    partial = sum(pair["partial"] for pair in row["pairs"])
    kept = f"{row['pairs_kept_together']:,} of {len(row['pairs']):,}"
    if row["pairs_carried"]:
        kept += f", {row['pairs_carried']:,} more carried"
    if partial:
        kept += f" ({partial} partial)"
    return kept


def aligned(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(widths[column]) if column in NUMERIC else cell.ljust(widths[column])
            for column, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]


def located_line(judgement: Judgement) -> str:
    """``"located 6 of 6 LangChain documents: 6 exact by order"`` (non-zero states only)."""
    counts = judgement.counts
    located = sum(counts[state] for state in LOCATED_STATES)
    parts = [f"{counts[state]:,} {STATE_WORDS[state]}" for state in STATES if counts[state]]
    total = counted(len(judgement.locations), SHAPE_NAMES[judgement.shape])
    dropped = sum(1 for location in judgement.locations if location.located and location.headings_dropped)
    if dropped:
        # Not whitespace alone: the chunk matched once its heading lines were set aside ("line N: … heading lines
        # dropped by the splitter" under --json and the not-located list), as a splitter that moves them to
        # metadata writes its chunks, or as a chunk of an older revision of the page can happen to match.
        parts.append(f"{dropped:,} of them only once heading lines were set aside")
    verdict = "" if judgement.complete else "; PARTIAL judgement: unlocated chunks are left out of every figure"
    if counts["not_found"] * 2 > len(judgement.locations):
        # More than half found nowhere (an ambiguous chunk is in a page, twice): most often chunks of other pages than
        # the ones pinned (another docs folder whose file names match, pages edited since), which no figure stands for.
        verdict += (
            " (most of the file's chunks are in no pinned page: were they cut from pages other than these, "
            "or from pages edited since?)"
        )
    wrong = sum(1 for location in judgement.locations if location.offset_wrong)
    # Said on the first line, where it is read; the offsets' lines come under the coverage.
    offsets = f"; {counted(wrong, 'wrong offset')}, not trusted (listed below)" if wrong else ""
    return f"{printable(judgement.name)}: located {located:,} of {total}: {', '.join(parts)}{verdict}{offsets}"


def stale_counts(judgement: Judgement) -> dict:
    """How many records ``export`` wrote are of another revision of their page than the one pinned now (their
    ``metadata.document_revision``), and of how many pages: chunks exported before an edit, placed by their text
    where it still is (``{"records": 0, "pages": 0}`` when none is)."""
    pinned = judgement.revisions
    stale = [
        location.record
        for location in judgement.locations
        if location.record.revision is not None and location.record.revision != pinned.get(location.record.source_id)
    ]
    return {"records": len(stale), "pages": len({record.source_id for record in stale})}


def stale_records_line(judgement: Judgement) -> str | None:
    """A line when records of the chunk file are of another revision of their page than the one pinned now
    (``stale_counts``), else ``None``."""
    stale = stale_counts(judgement)
    if not stale["records"]:
        return None
    records, pages = stale["records"], stale["pages"]
    return (
        f"note: {counted(records, 'record')} of {counted(pages, 'page')} {'is' if records == 1 else 'are'} of "
        "another revision of the page than the manifest pins (exported before an edit): export again from a build of "
        "the current pins to judge them as they are now"
    )


def split_word(pair: dict, by_source: dict) -> str:
    """``split``, or ``apart`` when a span of the pair lies in no chunk of the row (text the grammar reads as no
    block, or text the judged chunks leave out), as the main job, scan and show say it. A partial pair stays
    ``split``: the chunk that holds the span may be one that was not located."""
    if pair["partial"]:
        return "split"
    chunks = by_source.get(pair["source_id"])
    if chunks is None or chunks.any_span_outside(pair["instruction_span"], pair["qualifier_span"]):
        return "apart"
    return "split"


def pair_lines(judgement: Judgement) -> list[str]:
    """One line per span check: its verdict under each policy and the judged chunks; the first ``LISTED_PAIRS``.

    The table above counts every pair; past ``LISTED_PAIRS``, one line counts the rest and says where they are.
    """
    lines = []
    checks = judgement.rows[0]["pairs"]
    # Each row's chunks of the listed pairs' pages, read once: a pair not kept whose span lies in no chunk is apart.
    wanted = {check["source_id"] for check in checks[:LISTED_PAIRS]}
    chunk_sets = [*(index["chunks"] for index in judgement.indexes.values()), judgement.chunks]
    by_row = [span_checks.chunks_by_source({"chunks": chunks}, wanted) for chunks in chunk_sets]
    for position, check in enumerate(checks):
        verdicts = []
        for row, by_source in zip(judgement.rows, by_row):
            pair = row["pairs"][position]
            word = "same chunk" if pair["instruction_and_qualifier_share_chunk"] else split_word(pair, by_source)
            if pair["caveat_carried"]:
                word = "carried"
            if pair["partial"]:
                word += f" (partial: {counted(judgement.unlocated.get(pair['source_id'], 0), 'chunk')} of its source not located)"
            verdicts.append(f"{printable(row['policy'])} {word}")
        lines.append(f"{printable(check['name'])}: {', '.join(verdicts)}")
        if len(lines) == LISTED_PAIRS and len(checks) > LISTED_PAIRS:
            rest = len(checks) - LISTED_PAIRS
            lines.append(f"… {rest:,} more {'pair' if rest == 1 else 'pairs'}: judge --json lists every verdict")
            break
    return lines


LISTED_PAIRS = 20
"""At most this many pairs' verdict lines, as the main job prints (a scanned docs set declares thousands)."""


LISTED_LINES = 10
"""At most this many lines per list (unlocated chunks, wrong offsets, sources with gaps or overlap):
a real docs set has hundreds of sources, and ``--json`` holds every one."""


def listed(lines: list[str], what: str) -> list[str]:
    """``lines`` up to ``LISTED_LINES``, then one line counting the rest.

    Fifteen wrong offsets -> their first ten lines and ``"  … 5 more wrong offsets: judge --json lists every one"``.
    """
    if len(lines) <= LISTED_LINES:
        return lines
    return [*lines[:LISTED_LINES], f"  … {len(lines) - LISTED_LINES:,} more {what}: judge --json lists every one"]


def coverage_lines(judgement: Judgement) -> list[str]:
    """The judged chunks' coverage in words: a count of the sources no chunk touches, then each source with a gap or
    an overlap, most text in no chunk first (a page left out whole heads the list), then one line for the rest.

    ``["coverage of a: 15 of 634 non-whitespace characters in no chunk, 0 in two or more",
    "coverage of the other 22 sources: every non-whitespace character in exactly one chunk"]``
    """
    entries = judgement.rows[-1]["coverage"]["sources"]
    flawed = [entry for entry in entries if entry["uncovered_chars"] or entry["overlap_chars"]]
    # Sorted by the text left out, then the text twice, then the id: stable, and the worst where a screen shows it.
    flawed.sort(key=lambda entry: (-entry["uncovered_chars"], -entry["overlap_chars"], entry["source_id"]))
    missing = [
        entry["source_id"]
        for entry in flawed
        if entry["non_whitespace_chars"] and entry["uncovered_chars"] == entry["non_whitespace_chars"]
    ]
    lines = []
    if missing:
        lines.append(
            f"{counted(len(missing), 'source')} in no chunk at all: "
            + first_few([printable(source_id) for source_id in missing])
        )
    lines += listed(
        [
            f"coverage of {printable(entry['source_id'])}: {entry['uncovered_chars']:,} of "
            f"{entry['non_whitespace_chars']:,} non-whitespace characters in no chunk, "
            f"{entry['overlap_chars']:,} in two or more"
            for entry in flawed
        ],
        "sources with text in no chunk or in two or more",
    )
    # A page of front matter alone (or blank) has no text to cover: counted apart, not as covered.
    # (A page with no text has none in no chunk nor in two: never among the flawed.)
    empty = sum(1 for entry in entries if not entry["non_whitespace_chars"])
    whole = len(entries) - len(flawed) - empty
    if whole:
        sources = counted(whole, "source")
        if flawed:
            which = f"the other {sources}" if not empty else f"the other {sources} with text"
        elif whole == 1:
            which = printable(next(entry for entry in entries if entry["non_whitespace_chars"])["source_id"])
        else:
            which = f"all {sources}" if not empty else sources
        lines.append(f"coverage of {which}: every non-whitespace character in exactly one chunk")
    if empty:
        lines.append(
            f"{counted(empty, 'source')} {'holds' if empty == 1 else 'hold'} no text to cover "
            "(front matter alone, or blank)"
        )
    return lines


def carried_lines(judgement: Judgement) -> list[str]:
    """The line under the table when the judged chunks carry caveats in their metadata (``export --carry-caveats``)."""
    row = judgement.rows[-1]
    if not row["pairs_carried"]:
        return []
    at_start = row["pairs_at_instruction_start"]
    # (pairs_at_instruction_start counts none that is carried: each pair is reached once.)
    reached = row["pairs_kept_together"] + row["pairs_carried"] + at_start
    # A pair whose instruction no chunk holds whole, its caveat in the chunk where it starts: export carries nothing
    # there, as it says, and the chunk that a retriever anchors on the instruction brings the caveat.
    held = (
        f" ({at_start:,} of them split, the caveat in the chunk where the instruction starts, which carries none)"
        if at_start
        else ""
    )
    return [
        "carried: a split pair whose caveat rides in metadata.carried_caveats_text of the chunk holding its "
        f"instruction (or where it starts); with them {printable(row['policy'])} gives {reached:,} of "
        f"{len(row['pairs']):,} pairs their caveat{held}, if the pipeline prepends that text (coverage and "
        "context judge the chunks' text alone)"
    ]


def judgement_text(judgement: Judgement, manifest_option: str = "") -> str:
    """What ``judge`` prints: how the chunks were located, the table, the verdicts, coverage, offsets, context.

    ``manifest_option`` is the ``--manifest`` the judge read (``" --manifest m.json"``, nothing for the fixture's),
    for the scan the line of a manifest with no span checks names (``views.summary.no_span_checks``).

    Each list (unlocated chunks, wrong offsets, sources with gaps) stops after
    ``LISTED_LINES`` lines with a count of the rest, so a docs set of hundreds
    of pages gives a page to read; ``--json`` holds every chunk and source.
    """
    lines = [located_line(judgement)]
    stale = stale_records_line(judgement)
    if stale is not None:
        lines.append(stale)
    unlocated = [f"  {location_sentence(location)}" for location in judgement.locations if not location.located]
    lines.extend(listed(unlocated, "unlocated chunks"))
    lines.append("")
    lines.extend(aligned(table_rows(judgement)))
    lines.append(COVERAGE_NOTE)
    lines.extend(carried_lines(judgement))
    lines.extend(pair_lines(judgement) if judgement.rows[0]["pairs"] else [no_span_checks(manifest_option)])
    lines.extend(coverage_lines(judgement))
    wrong = [location for location in judgement.locations if location.offset_wrong]
    given = sum(location.record.start is not None for location in judgement.locations)
    if given:
        lines.append(
            f"offsets: {given:,} given, {len(wrong):,} wrong" + (": not trusted" if wrong else "") + shift_note(wrong)
        )
    frames = [f"  {frame_sentence(source_id, frame)}" for source_id, frame in offset_frames(judgement)]
    lines.extend(listed(frames, "sources whose offsets count dropped characters"))
    lines.extend(listed([f"  {offset_sentence(location)}" for location in wrong], "wrong offsets"))
    lines.extend(["", context_text(judgement.rows, judgement.complete)])
    return "\n".join(lines)


def judgement_json_text(judgement: Judgement) -> str:
    """The ``judge --json`` document as the lab saves JSON, byte for byte ``json.dumps(..., indent=2)`` and a ``\n``.

    Laid out by ``saved_json_bytes``, not by ``json.dumps``' pure-Python indenting encoder: the document holds
    a record per chunk of the file, and 20,000 of them take 230 ms that way, 66 ms this way.
    """
    return saved_json_bytes(judgement_json(judgement)).decode("utf-8")
