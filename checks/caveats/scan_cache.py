"""What ``scan`` found on each page, kept beside the manifest, so the next scan reads only the pages that changed.

A docs set is scanned again and again while its pairs are reviewed (``--tier``, ``--html``, ``--reject``,
``--add-checks``, ``context --scanned``), and between two scans most pages are as they were. Like a linter's
cache, ``lab/manifest.json`` keeps its findings in ``lab/.lab-cache/manifest.scan.json`` (the folder holds a
``.gitignore`` of ``*``, so version control leaves it out).

A page's findings are a function of its text, its title, its source id, the grammar and the lab's code, and
nothing else (decisions, the tier and the manifest's checks are applied after): an entry is used only for
a page of the same source id whose pinned ``sha256`` and title are the entry's, in a cache whose key
(``rules_key``: the scan and cache versions, the grammar, Python's and its Unicode tables' versions, and
the bytes of every module of the lab) is this run's. Anything else about a cache (missing, unreadable,
malformed, another key, an entry whose offsets do not fit its page) makes the page be read afresh: the
cache is never a reason to refuse. Entries hold offsets and the rules' words, never quotes: quotes, lines
and names are made again from the pinned text, as the scan makes them. A cache that cannot be written (a
read-only folder, a link where the cache or its folder would be) is skipped without a word; ``--no-cache``, or
``LAB_NO_CACHE`` set to anything but the empty string, neither reads nor writes one, and neither do the lab's own
manifests (the fixture, ``docs/examples``) nor the commands that write the manifest (``--add-checks``,
``--accept``, ``--reject``; the last two read only the pages their names hold, ``commands.scan.reviewed_pages``):
what they declare never rests on a file beside the manifest.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path

import chunk_index
from checks.caveats import findings
from lab_io import workers
from lab_io.outputs import write_atomically
from load_documents import Span

CACHE_VERSION = 1
CACHE_FOLDER = ".lab-cache"
CACHE_KIND = "scan"
# The instruction forms a pair may name (``findings.FoundPair.instruction_form``), and the longest word kept.
INSTRUCTION_FORMS = findings.DIRECT_FORMS | findings.INDIRECT_FORMS | {"reference entry", findings.DESCRIBED_FORM}
MAX_WORD_CHARACTERS = 300
NO_CACHE_VARIABLE = "LAB_NO_CACHE"
# A cache larger than this is not read (a docs set of thousands of pages writes a few MB).
MAX_CACHE_BYTES = 256 * 1024 * 1024
IGNORE_FILE = "# The chunk-boundary lab's cache: safe to delete, never to commit.\n*\n"
LAB_ROOT = Path(__file__).resolve().parents[2]


def cache_path(manifest_path: Path, no_cache: bool = False) -> Path | None:
    """Where a manifest's scan cache lives: ``lab/manifest.json`` -> ``lab/.lab-cache/manifest.scan.json``;
    ``None`` (no cache) with ``no_cache`` (``--no-cache``) or when ``LAB_NO_CACHE`` is set to anything but
    the empty string."""
    if no_cache or os.environ.get(NO_CACHE_VARIABLE):
        return None
    folder = manifest_path.parent
    try:
        # The lab's own manifests (the fixture, docs/examples) get none: the lab writes none of its own files.
        if folder.resolve().is_relative_to(LAB_ROOT):
            return None
    except OSError:
        return None
    return folder / CACHE_FOLDER / f"{manifest_path.stem}.{CACHE_KIND}.json"


def regular_or_missing(path: Path) -> bool | None:
    """``True`` for a regular file, ``False`` for a path that is missing, ``None`` for anything else (a link, a
    folder, a FIFO, a device): a cache is read from and written to a regular file of its own, never through one."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError:
        return None
    return True if stat.S_ISREG(mode) else None


def usable_folder(path: Path) -> bool:
    """Whether the cache's folder may be used: missing (it is made) or a folder of its own, not a link."""
    try:
        mode = os.lstat(path.parent).st_mode
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return stat.S_ISDIR(mode)


def lab_modules() -> list[Path]:
    """Every module of the lab outside its tests, in a fixed order: the code a page's findings depend on.

    The modules beside ``run.py`` and those of its packages (the folders there with an ``__init__.py``), so
    a virtual environment or a docs set kept in the same folder is never walked.
    """
    modules = list(LAB_ROOT.glob("*.py"))
    for folder in LAB_ROOT.iterdir():
        if folder.name != "tests" and (folder / "__init__.py").is_file():
            modules.extend(folder.rglob("*.py"))
    return sorted(modules)


def rules_key(grammar: str) -> str | None:
    """The key a cache must hold for its entries to stand for this run's scan under ``grammar``; ``None`` when
    the lab's own modules cannot be read (then no cache is used)."""
    digest = hashlib.sha256()
    header = [CACHE_VERSION, findings.SCAN_VERSION, grammar, sys.version, unicodedata.unidata_version]
    digest.update(json.dumps(header).encode("utf-8"))
    try:
        for path in lab_modules():
            digest.update(str(path.relative_to(LAB_ROOT)).encode("utf-8") + b"\0")
            data = path.read_bytes()
            digest.update(len(data).to_bytes(8, "big") + data)
    except OSError:
        return None
    return digest.hexdigest()


def read_entries(path: Path, key: str) -> dict:
    """The cache's entries by source id, or none when the file is missing, unreadable, too large, malformed or
    made under another key."""
    if not usable_folder(path) or not regular_or_missing(path):
        return {}
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CACHE_BYTES + 1)
        if len(data) > MAX_CACHE_BYTES:
            return {}
        document = json.loads(data)
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(document, dict) or document.get("lab_cache") != CACHE_KIND or document.get("key") != key:
        return {}
    pages = document.get("pages")
    return pages if isinstance(pages, dict) else {}


def entry_for(source: dict, pairs: list, unpaired: list) -> dict:
    """A page's findings as a cache entry: offsets and the rules' words, no quotes, lines or names."""
    return {
        "sha256": source["sha256"],
        "title": source.get("title", ""),
        "pairs": [
            [
                pair.instruction.start,
                pair.instruction.end,
                pair.qualifier.start,
                pair.qualifier.end,
                pair.rule,
                pair.cue,
                pair.link,
                pair.tier,
                pair.instruction_form,
                pair.caveat_tier,
            ]
            for pair in pairs
        ],
        "unpaired": [[item.span.start, item.span.end, item.rule, item.cue, item.tier] for item in unpaired],
    }


def found_in(entry, source: dict) -> tuple[list, list] | None:
    """The findings an entry holds for ``source``, made again as the scan makes them; ``None`` when the entry
    is for another text or title, or is not one the lab writes."""
    if not isinstance(entry, dict) or entry.get("sha256") != source["sha256"]:
        return None
    if entry.get("title") != source.get("title", ""):
        return None
    text = source["text"]
    source_id = source["source_id"]
    newlines = chunk_index.newline_offsets(text)

    def span(start, end) -> Span:
        if type(start) is not int or type(end) is not int or not 0 <= start < end <= len(text):
            raise ValueError("span")
        return Span(start, end, text[start:end])

    def word(value) -> str:
        # The rules' words print as they are: one that does not (an escape, a line break) was never the lab's.
        if type(value) is not str or not value.isprintable() or len(value) > MAX_WORD_CHARACTERS:
            raise ValueError("word")
        return value

    def form(value) -> str:
        if value not in INSTRUCTION_FORMS:
            raise ValueError("form")
        return value

    def tier(value) -> int:
        if value not in findings.TIERS or type(value) is not int:
            raise ValueError("tier")
        return value

    try:
        pairs = []
        names_on_line: dict[int, int] = {}
        for i_start, i_end, q_start, q_end, rule, cue, link, pair_tier, instruction_form, caveat_tier in entry["pairs"]:
            qualifier = span(q_start, q_end)
            line = bisect_right(newlines, qualifier.start - 1) + 1
            pairs.append(
                findings.FoundPair(
                    findings.pair_name(source_id, line, names_on_line),
                    source_id,
                    span(i_start, i_end),
                    qualifier,
                    word(rule),
                    word(cue),
                    word(link),
                    tier(pair_tier),
                    form(instruction_form),
                    line,
                    tier(caveat_tier),
                )
            )
        unpaired = []
        for start, end, rule, cue, caveat_tier in entry["unpaired"]:
            qualifier = span(start, end)
            line = bisect_right(newlines, qualifier.start - 1) + 1
            unpaired.append(findings.Unpaired(source_id, qualifier, word(rule), word(cue), tier(caveat_tier), line))
    except (KeyError, TypeError, ValueError):
        return None
    return pairs, unpaired


class PendingCache:
    """The entries of one scan, to be written when the command succeeds (``save``); a failed run writes none."""

    def __init__(self, path: Path | None, key: str | None, entries: dict, changed: bool) -> None:
        self.path = path
        self.key = key
        self.entries = entries
        self.changed = changed

    def save(self, outputs=()) -> None:
        """Write the cache if it changed; a folder that cannot be written is skipped (the cache only saves time),
        and so is a cache path the command just wrote one of its ``outputs`` to (a report named so is kept)."""
        if self.path is None or self.key is None or not self.changed:
            return
        if any(os.path.abspath(output) == os.path.abspath(self.path) for output in outputs if output is not None):
            return
        document = {"lab_cache": CACHE_KIND, "cache_version": CACHE_VERSION, "key": self.key, "pages": self.entries}
        data = json.dumps(document, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"
        folder = self.path.parent
        if not usable_folder(self.path) or regular_or_missing(self.path) is None:
            return
        try:
            folder.mkdir(exist_ok=True)
            ignore = folder / ".gitignore"
            if not ignore.exists():
                write_atomically(ignore, IGNORE_FILE.encode("utf-8"))
            write_atomically(self.path, data)
        except OSError:
            pass


def scan_sources_cached(
    sources,
    grammar: str,
    path: Path | None,
    section_cache: dict | None = None,
    progress=None,
    kept=None,
    jobs: int | None = None,
) -> tuple[tuple[list, list], PendingCache]:
    """``pairing.scan_sources``, each page's findings taken from the cache at ``path`` where they are current
    (``None``: no cache), and the cache to write once the command succeeds. The same answer either way.

    ``kept``: every source id of the manifest when ``sources`` are some of its pages (``scan --source``): the
    cached findings of the others stay as they were, those of pages no longer pinned go. ``jobs``: the processes
    that read the pages the cache does not answer (``read_pages``).
    """
    key = None if path is None else rules_key(grammar)
    old = {} if key is None else read_entries(path, key)
    ids = {source["source_id"] for source in sources}
    entries: dict = {}
    if kept is not None:
        entries = {source_id: entry for source_id, entry in old.items() if source_id in kept and source_id not in ids}
        ids |= set(entries)
    changed = set(old) != ids
    ordered = sorted(sources, key=lambda source: source["source_id"])
    found: dict = {}
    fresh = []
    for source in ordered:
        entry = old.get(source["source_id"])
        answer = None if entry is None else found_in(entry, source)
        if answer is None:
            fresh.append(source)
            continue
        found[source["source_id"]] = (answer, entry)
        if progress is not None:
            progress(1, len(source["text"].encode("utf-8")))
    # (strict: the reading runs to its end, where its workers stop.)
    for source, answer in zip(fresh, read_pages(fresh, grammar, section_cache, progress, jobs), strict=True):
        found[source["source_id"]] = (answer, entry_for(source, *answer))
        changed = True
    pairs: list = []
    unpaired: list = []
    for source in ordered:
        answer, entries[source["source_id"]] = found[source["source_id"]]
        pairs.extend(answer[0])
        unpaired.extend(answer[1])
    return (pairs, unpaired), PendingCache(path, key, entries, changed)


def read_pages(sources: list, grammar: str, section_cache: dict | None, progress, jobs: int | None) -> Iterator:
    """Each page's pairs and unpaired caveats (``pairing.scan_sections`` of its sections), read afresh, in the
    order of ``sources``: in ``jobs`` processes (``lab_io.workers``; ``None``: one per CPU where the pages are
    worth it), each page's sections kept in ``section_cache`` as if read here. A page's findings are its own (the
    shared classifications only spare reading a sentence twice), so any number of processes finds the same."""
    if not sources:
        return
    # The rules are imported (their patterns compiled) only once a page is read afresh, and before any worker
    # is forked, which starts with them.
    from checks.caveats import pairing

    sizes = [len(source["text"].encode("utf-8")) for source in sources]
    count = workers.worker_count(jobs, sum(sizes))
    pieces = workers.batches(list(zip(sources, sizes)), sizes, count) if count > 1 else []
    if len(pieces) < 2:
        classifications: dict = {}
        for source, size in zip(sources, sizes):
            sections = findings.scanned_sections(source, grammar, section_cache)
            found = pairing.scan_sections(source["source_id"], source["text"], sections, classifications)
            if progress is not None:
                progress(1, size)
            yield found
        return
    work = [[page_of(source) for source, _ in piece] for piece in pieces]
    # One classifications dict for every batch: each forked worker fills its own copy of it (and where no worker can
    # be started, this process fills it, and lets it go with the reading).
    for piece, answers in zip(pieces, workers.mapped(read_batch, work, count, grammar, {})):
        if progress is not None:
            progress(len(piece), sum(size for _, size in piece))
        for (source, _), (sections, answer) in zip(piece, answers):
            findings.kept_sections(section_cache, source, grammar, sections)
            yield answer


def page_of(source: dict) -> dict:
    """What reading a page needs of its source, and all a worker is sent."""
    return {"source_id": source["source_id"], "text": source["text"], "title": source.get("title", "")}


def read_batch(batch: list[dict], grammar: str, classifications: dict) -> list[tuple[list, tuple[list, list]]]:
    """A worker's reading of a batch of pages: each page's sections and its findings; ``classifications``
    (``pairing.Page``) shared by the batches one worker reads."""
    from checks.caveats import pairing

    answers = []
    for source in batch:
        sections = findings.scanned_sections(source, grammar)
        found = pairing.scan_sections(source["source_id"], source["text"], sections, classifications)
        answers.append((sections, found))
    return answers
