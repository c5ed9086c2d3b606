"""The docs workflow benchmark (``python tests/benchmark.py --workflow``): every command a user waits for, beside the build.

On a generated docs set (``--pages`` pages read with blocks-3: front matter,
fences, admonitions, ``:::`` containers, tables, and instruction/caveat pairs
for ``scan`` to find), pinned with ``pin`` and its pairs declared with
``scan --add-checks`` as a user would, each run times, as fresh ``run.py``
processes one after the other: the main job, ``scan --json --no-cache``
(every page read afresh), ``scan --json`` again with its cache (no target), ``validate
--manifest``, ``export --policy heading-aware``, ``context --json``,
``sweep`` and ``judge`` of that export; and, with no target, ``judge`` of
the same chunks as another chunker's plain records (a source id and a text,
no offsets), which judge must find in the text. ``--docs-set MANIFEST``
times a docs set already pinned and scanned instead (outside the repository).

Every figure is the CPU time (user plus system) of the child, as ``wait4``
reports it, because wall time on a shared machine measures the other work
too; wall times and their multiples are printed beside. ``scan`` shares the
pages it reads among one worker process per CPU (``lab_io.workers``): its CPU
time adds up every worker's, its wall time is what a user waits, so its target
is read on wall time. Runs are interleaved command by command,
and the figures are medians. Peak memory is each child's own ``ru_maxrss``.
The children run with bytecode cached, as an installed copy would, after
one uncounted warm-up run of every command.

The floor is measured from outside, in a fresh interpreter that does only
what any program writing the same result must: read and hash every source the
manifest names, then one compact ``json.dumps`` plus ``sha256`` of the written
result (loaded first, untimed). ``tests/benchmark.py`` without ``--workflow``
times its floor in the process that built and validated the result, where the
same ``json.dumps`` runs slower (see ``docs/performance.md``).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from operator import itemgetter, methodcaller
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Targets of issue 24, as multiples of the main job's CPU time; for a command that shares its work among worker
# processes (``WORKER_COMMANDS``), of its wall time, which is what a user waits for, where its CPU time adds up
# every worker's.
WORKER_COMMANDS = {"scan"}
COMMAND_TARGETS = {
    "scan": 1.0,
    "validate": 1.0,
    "export": 1.0,
    "context": 0.7,
    "sweep": 0.7,
    "judge": 1.5,
}
FLOOR_TARGET = 1.5
MAIN_MEMORY_TARGET = 2.0
COMMAND_MEMORY_TARGET = 3.5

# Filler words for the generated pages: plain prose, escapes and non-ASCII letters, no caveat cues.
# A character that does not print (NEL) is rare in real docs: one page in ten holds one, in its synopsis.
PROSE_WORDS = (
    "chunk",
    "boundary",
    "index",
    "retrieval",
    "section",
    "paragraph",
    "offset",
    "the",
    "a",
    "of",
    "and",
    "to",
    "in",
    "is",
    "path",
    "text",
    "café",
    "naïve",
    "日本語",
    "—",
    "“quoted”",
    '"double"',
    "back\\slash",
    "tab\there",
)
RARE_LINE = "Next\x85line.\n"
CALLS = (
    "Use `Set-{noun}` to change the {noun} settings.",
    "Call `{verb}_{noun}()` before the first request.",
    "Run `{verb}-{noun} -Path <path>` to copy the files.",
    "Pass `--{noun}` to keep the {noun} cache.",
    "To stop the {noun}, use `Stop-{noun}` with its name.",
)
CAVEATS = (
    "This cmdlet doesn't work on remote sessions.",
    "You can't use it with `-Force` on a locked {noun}.",
    "It fails if the {noun} is already open.",
    "Don't run it twice on one {noun}; the second call overwrites the first.",
    "Never pass a closed {noun} handle.",
    "It isn't supported on read-only volumes unless you set `-Force`.",
    "This parameter is ignored when the {noun} is remote.",
)
NOUNS = ("Item", "Service", "Location", "Content", "Process", "Variable", "Alias", "Module")
VERBS = ("Get", "Set", "Copy", "Move", "Start")


def prose(rng: random.Random) -> str:
    """One paragraph of one to five lines of filler, each ending in ``\\n``."""
    lines = []
    for _ in range(rng.randint(1, 5)):
        lines.append(" ".join(rng.choice(PROSE_WORDS) for _ in range(rng.randint(6, 16))).capitalize() + ".\n")
    return "".join(lines)


def construct(rng: random.Random) -> str:
    """One block a real page holds: a fence, an admonition, a ``:::`` container, a list or a table."""
    words = prose(rng).splitlines()[0]
    kind = rng.randrange(5)
    if kind == 0:
        return f"```powershell\n# {words}\n\nGet-Item -Path {rng.randint(1, 999)}\n```\n"
    if kind == 1:
        return f"!!! note\n    {words}\n\n    {prose(rng).strip()}\n"
    if kind == 2:
        return f":::caution\n{words}\n\n{prose(rng)}:::\n"
    if kind == 3:
        return "".join(f"- {rng.choice(PROSE_WORDS)} {words}\n" for _ in range(3))
    rows = "".join(f"| {rng.choice(PROSE_WORDS)} | {rng.randint(1, 99)} |\n" for _ in range(3))
    return f"| name | size |\n|---|--:|\n{rows}"


def docs_page(number: int) -> str:
    """A reference page of 2 to 24 KB: front matter, a title, a syntax fence, sections of prose, blocks and pairs.

    About one block in ten is an instruction naming a call with a caveat after
    it, in the same paragraph or one or two paragraphs on, so every policy
    keeps some pairs together and splits others.
    """
    rng = random.Random(number)
    noun = rng.choice(NOUNS)
    verb = rng.choice(VERBS)
    parts = [
        f"---\ntitle: {verb}-{noun} {number}\nms.date: 2026-01-0{number % 9 + 1}\n---\n",
        f"# {verb}-{noun}\n\n## Synopsis\n\n{prose(rng)}{RARE_LINE if number % 10 == 0 else ''}\n",
        f"## Syntax\n\n```powershell\n{verb}-{noun} [-Path] <string[]> [-Force]\n```\n\n",
    ]
    target = rng.randint(2_000, 24_000)
    size = sum(map(len, parts))
    section = 0
    while size < target:
        section += 1
        block = [f"## Section {section}\n\n" if section % 3 else f"### -{noun}{section}\n\n"]
        for _ in range(rng.randint(2, 6)):
            kind = rng.random()
            if kind < 0.1:
                call = rng.choice(CALLS).format(noun=noun, verb=rng.choice(VERBS).lower())
                caveat = rng.choice(CAVEATS).format(noun=noun.lower())
                gap = rng.randint(0, 2)
                between = "".join(prose(rng) + "\n" for _ in range(gap - 1))
                block.append(f"{call} {caveat}\n\n" if gap == 0 else f"{call}\n\n{between}{caveat}\n\n")
            elif kind < 0.4:
                block.append(construct(rng) + "\n")
            else:
                block.append(prose(rng) + "\n")
        text = "".join(block)
        parts.append(text)
        size += len(text)
    return "".join(parts)


def lab_command(*args: str) -> list[str]:
    return [sys.executable, str(ROOT / "run.py"), *args]


def child_run(command: list[str], env: dict | None = None) -> dict:
    """Run ``command``; its CPU seconds (user + system), wall seconds and peak memory, as ``wait4`` reports them."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    # wait4 gives this one child's usage; the pipe is small (a summary, at most an error line).
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stderr.close()
    wall = time.perf_counter() - started
    if process.returncode != 0:
        shown = " ".join(command[1:])
        raise SystemExit(f"workflow: {shown} exited {process.returncode}: {stderr.decode(errors='replace').strip()}")
    peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "peak": peak}


def write_docs_set(folder: Path, pages: int) -> Path:
    """Write ``pages`` generated pages, pin them under blocks-3 and declare their pairs, as a user would."""
    docs = folder / "docs"
    docs.mkdir()
    for number in range(pages):
        (docs / f"page-{number:04d}.md").write_text(docs_page(number), encoding="utf-8")
    manifest = folder / "manifest.json"
    child_run(lab_command("pin", "--markdown", "blocks-3", "--manifest", str(manifest), str(docs)))
    child_run(lab_command("scan", "--manifest", str(manifest), "--add-checks"))
    return manifest


def plain_records(export: Path, chunks: Path) -> None:
    """The exported upsert records as another chunker's plain records: ``source_id`` and ``text`` alone."""
    with export.open(encoding="utf-8") as lines, chunks.open("w", encoding="utf-8") as out:
        for line in lines:
            record = json.loads(line)
            out.write(json.dumps({"source_id": record["metadata"]["source_id"], "text": record["text"]}) + "\n")


def workflow_commands(manifest: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    """Each command of the workflow, in the order a user runs them, by name."""
    result = str(scratch / "result.json")
    export = str(scratch / "heading-aware.jsonl")
    given = ("--manifest", str(manifest))
    return [
        ("main job", lab_command(*given, "--output", result)),
        # Every page read afresh: the target is this one. Then as a user's next scan runs, its pages cached.
        ("scan", lab_command(*given, "scan", "--json", "--no-cache")),
        ("scan again", lab_command(*given, "scan", "--json")),
        ("validate", lab_command(*given, "validate", "--manifest", str(manifest), result)),
        ("export", lab_command(*given, "export", "--policy", "heading-aware", "--output", export, result)),
        ("context", lab_command(*given, "context", "--json")),
        ("sweep", lab_command(*given, "sweep")),
        ("judge", lab_command(*given, "judge", export)),
        ("judge text", lab_command(*given, "judge", str(scratch / "chunks.jsonl"))),
    ]


def floor_seconds(manifest: Path, result: Path) -> dict:
    """In this (fresh) process: CPU seconds to read and hash every source, then to ``json.dumps`` and hash the result."""
    folder = manifest.parent
    value = json.loads(manifest.read_text(encoding="utf-8"))
    started = time.process_time()
    for source in value["sources"]:
        hashlib.sha256((folder / source["path"]).read_bytes()).hexdigest()
    sources = time.process_time() - started
    saved = json.loads(result.read_text(encoding="utf-8"))
    started = time.process_time()
    canonical = json.dumps(saved, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    serialise = time.process_time() - started
    del canonical
    # What the spec's ids add, as C calls mapped over the chunks and nothing else: each text's
    # SHA-256, and a canonical dump of each chunk (a stand-in for the payload its id hashes) hashed.
    dump = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
    digest_of = methodcaller("hexdigest")
    encoded = methodcaller("encode", "utf-8")
    started = time.process_time()
    for index in saved["indexes"].values():
        chunks = index["chunks"]
        list(map(digest_of, map(hashlib.sha256, map(encoded, map(itemgetter("text"), chunks)))))
        list(map(digest_of, map(hashlib.sha256, map(encoded, map(dump, chunks)))))
    ids = time.process_time() - started
    return {"sources": sources, "serialise": serialise, "ids": ids}


def measure_floor(manifest: Path, result: Path) -> dict:
    """``floor_seconds`` in a fresh interpreter: its objects laid out as a fresh program's would be."""
    completed = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--floor", str(manifest), str(result)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout)


def show_progress(message: str) -> None:
    from benchmark import show_progress as show

    show(message)


def measure_startup(runs: int) -> tuple[float, float]:
    from benchmark import measure_startup as startup

    return startup(runs)


def run_workflow(pages: int, runs: int, docs_set: Path | None, base: Path | None, startup_runs: int) -> int:
    """``--workflow``: time every command of the docs workflow against the main job; exit 1 if a target is missed."""
    with tempfile.TemporaryDirectory(prefix="chunk-lab-workflow-", dir=base) as temporary:
        scratch = Path(temporary)
        if docs_set is None:
            started = time.perf_counter()
            (scratch / "set").mkdir()
            manifest = write_docs_set(scratch / "set", pages)
            print(f"generated, pinned and scanned {pages} pages in {time.perf_counter() - started:.1f} s")
        else:
            manifest = docs_set.resolve()
        commands = workflow_commands(manifest, scratch)
        figures: dict[str, list[dict]] = {name: [] for name, _ in commands}
        floors = []
        # As an installed copy runs: the lab's modules compiled once, their bytecode cached (outside the
        # working tree), even where the environment sets PYTHONDONTWRITEBYTECODE; the first run of each
        # command warms that cache and is not counted.
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
        for run in range(-1, runs):
            for name, command in commands:
                if name == "judge text":
                    plain_records(scratch / "heading-aware.jsonl", scratch / "chunks.jsonl")
                show_progress(f"workflow: {'warm-up' if run < 0 else f'run {run + 1} of {runs}'}, {name}")
                measured = child_run(command, env)
                if run >= 0:
                    figures[name].append(measured)
            if run >= 0:
                floors.append(measure_floor(manifest, scratch / "result.json"))
        show_progress("")
        sizes = {
            "result": (scratch / "result.json").stat().st_size,
            "export": (scratch / "heading-aware.jsonl").stat().st_size,
            "chunks": (scratch / "chunks.jsonl").stat().st_size,
            "manifest": manifest.stat().st_size,
        }
        value = json.loads(manifest.read_text(encoding="utf-8"))
        source_bytes = sum((manifest.parent / source["path"]).stat().st_size for source in value["sources"])
        shape = (len(value["sources"]), source_bytes, len(value.get("span_checks", ())))
    startup = measure_startup(startup_runs) if startup_runs > 0 else None
    return workflow_report(figures, floors, sizes, shape, runs, startup)


def workflow_report(
    figures: dict, floors: list[dict], sizes: dict, shape: tuple, runs: int, startup: tuple | None
) -> int:
    """Print every command's medians against the main job, the floor and the memory targets; 1 if one is missed."""
    medians = {
        name: {key: statistics.median(run[key] for run in measured) for key in measured[0]}
        for name, measured in figures.items()
    }
    main = medians["main job"]["cpu"]
    pages, source_bytes, pairs = shape
    print(
        f"docs workflow: {pages:,} pages ({source_bytes / 1e6:.1f} MB), {pairs:,} span checks, "
        f"result {sizes['result'] / 1e6:.0f} MB; CPU seconds of fresh run.py processes, median of {runs} interleaved runs"
    )
    print(f"  load average {' '.join(f'{load:.2f}' for load in os.getloadavg())} at the end")
    main_wall = medians["main job"]["wall"]
    print(
        f"  {'command':<10}{'CPU s':>8}{'x main':>8}{'target':>10}{'wall s':>8}{'x main':>8}{'peak MB':>9}"
        f"{'x result':>9}"
    )
    missed = []
    for name, median in medians.items():
        ratio = median["cpu"] / main
        wall_ratio = median["wall"] / main_wall
        target = COMMAND_TARGETS.get(name)
        memory = median["peak"] / sizes["result"]
        memory_target = MAIN_MEMORY_TARGET if name == "main job" else COMMAND_MEMORY_TARGET
        shown_target = "" if target is None else f"{target:.1f}" + (" wall" if name in WORKER_COMMANDS else "")
        print(
            f"  {name:<10}{median['cpu']:>8.2f}{ratio:>8.2f}{shown_target:>10}{median['wall']:>8.2f}{wall_ratio:>8.2f}"
            f"{median['peak'] / 1e6:>9.0f}{memory:>9.2f}"
        )
        judged = wall_ratio if name in WORKER_COMMANDS else ratio
        if target is not None and judged > target:
            kind = "wall time" if name in WORKER_COMMANDS else "CPU time"
            missed.append(f"{name} {judged:.2f}x the main job's {kind} (target {target}x)")
        if memory > memory_target:
            missed.append(f"{name} peak {memory:.2f}x the result (target {memory_target}x)")
    floor = {key: statistics.median(run[key] for run in floors) for key in floors[0]}
    total = floor["sources"] + floor["serialise"]
    ratio = main / total
    print(
        f"  floor in a fresh process: {total:.2f} s (read and hash the sources {floor['sources']:.2f} s, "
        f"compact json.dumps + sha256 of the result {floor['serialise']:.2f} s); main job {ratio:.2f}x "
        f"(target {FLOOR_TARGET}x)"
    )
    print(
        f"  with the ids the spec makes every writer compute (each text hashed, each chunk dumped and hashed): "
        f"{total + floor['ids']:.2f} s; main job {main / (total + floor['ids']):.2f}x"
    )
    if ratio > FLOOR_TARGET:
        missed.append(f"main job {ratio:.2f}x the fresh-process floor (target {FLOOR_TARGET}x)")
    if startup is not None:
        from benchmark import STARTUP_TARGET, startup_report

        startup_ratio = startup_report(*startup, "interleaved runs")
        if startup_ratio > STARTUP_TARGET:
            missed.append(f"startup {startup_ratio:.2f}x python")
    from benchmark import targets_verdict

    return targets_verdict(missed)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--floor"]:
        print(json.dumps(floor_seconds(Path(sys.argv[2]), Path(sys.argv[3]))))
