"""Rebuild the example corpora's manifests and saved results from their pages, with the lab's own commands.

    python docs/examples/rebuild.py

For each corpus, ``parcel-queue/`` (beside this file) and ``sites/lantern-cache/``:

1. ``pin --markdown GRAMMAR`` pins every page under it into a fresh
   ``manifest.json`` (ids from the paths: ``parcel-queue/guide/index``, and
   titles too, ``--titles id``, as when the examples were first pinned: their
   saved results name the text before a page's first heading by its id);
   Parcel Queue under ``blocks``, the grammar it was first built with, at the
   lesson's sizes (its ids are in its saved result, so the sizes pin writes
   into a new manifest are taken out again); Lantern Cache under ``blocks-3``,
   at the sizes pin writes;
2. the span checks below are written into it, each as two quotes the loader
   locates in its page;
3. the main job builds ``expected-result.json`` from that manifest.

The lab refuses to write the files it ships (``output_is_lab_file``), these
among them, so all are built in a scratch copy of the pages (the paths in them
are relative to the manifest, so the bytes are the same) and then written into
place together through the lab's write path.

Run it only after changing a page or a span check on purpose: the test suite
and ``.ci/run`` hold a fresh build equal to the saved result byte for byte.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

import run  # noqa: E402
from lab_io.indented_json import saved_json_bytes  # noqa: E402
from lab_io.outputs import write_outputs  # noqa: E402

FACT_STATUS = "synthetic example written for the chunk-boundary lab; Parcel Queue is not a real product"

# name, source id, instruction quote, qualifier quote: each qualifier is the admonition or alert after its instruction.
SPAN_CHECKS = (
    (
        "enqueue-refuses-heavy-parcel",
        "parcel-queue/quickstart",
        "Call `queue.enqueue(parcel)` to add a parcel and get its tracking id back.",
        "`enqueue` refuses a parcel whose weight is over 30 kg; split the shipment first.",
    ),
    (
        "late-ack-is-ignored",
        "parcel-queue/guide/index",
        "Acknowledge each parcel with `queue.ack(parcel_id)` as soon as its label is printed.",
        "An acknowledgement that arrives after the lease has expired is ignored, and the parcel is delivered again.",
    ),
    (
        "extend-at-most-five-times",
        "parcel-queue/guide/index",
        "Call `queue.extend(parcel_id, seconds)` while a label is still printing.",
        "A lease can be extended at most five times; the sixth call is refused.",
    ),
    (
        "parked-not-deleted",
        "parcel-queue/guide/retries",
        "Set `retry_limit` and `backoff_seconds` on the queue",
        "After the last attempt a parcel is parked, not deleted",
    ),
    (
        "purge-refused-in-production",
        "parcel-queue/reference/index",
        "Call `queue.purge()` to remove every waiting parcel from a sandbox queue.",
        "`purge` is refused on a production queue; there it always raises `not_allowed`.",
    ),
    (
        "batch-over-limit-refused",
        "parcel-queue/reference/limits",
        "Send up to 100 parcels in one call with `queue.enqueue_many(parcels)`",
        "A batch over 100 parcels is refused as a whole: none of its parcels is enqueued.",
    ),
)


# Lantern Cache (sites/): each pair sits in a construct blocks-3 reads (a Hugo note shortcode, an HTML
# element, an MDX JSX element), or around an mkdocstrings directive.
SITES_SPAN_CHECKS = (
    (
        "put-ttl-over-a-day-refused",
        "lantern-cache/install",
        "Call `cache.put(key, value, ttl=60)` to store a value for a minute.",
        "A `ttl` over 86400 seconds is refused; store such a value without one.",
    ),
    (
        "serve-refuses-low-port",
        "lantern-cache/install",
        "Run `lantern serve --port 7070` to start the server.",
        "`lantern serve` refuses a port below 1024 unless it runs as root; pick a higher port.",
    ),
    (
        "get-missing-returns-none",
        "lantern-cache/guide",
        "Call `cache.get(key)` to read a value.",
        "`cache.get` returns `None` for a missing key; it never raises.",
    ),
    (
        "clear-refused-in-production",
        "lantern-cache/intro",
        "Call `cache.clear()` only in tests.",
        "`cache.clear` refuses to run on a production cache and raises `NotAllowed`.",
    ),
    (
        "check-never-deletes",
        "lantern-cache/reference",
        "Run `lantern check` before a deploy to find stale entries.",
        "`lantern check` never deletes what it finds; it only reports.",
    ),
)
SITES_FACT_STATUS = "synthetic example written for the chunk-boundary lab; Lantern Cache is not a real product"
# Each corpus: its folder under docs/examples, the pages' folder in it, the grammar, whether it keeps the
# lesson's sizes, its fact status and its span checks.
CORPORA = (
    (".", "parcel-queue", "blocks", True, FACT_STATUS, SPAN_CHECKS),
    ("sites", "lantern-cache", "blocks-3", False, SITES_FACT_STATUS, SITES_SPAN_CHECKS),
)
SAVED_FILES = ("manifest.json", "expected-result.json")


def span_check(name: str, source_id: str, instruction: str, qualifier: str) -> dict:
    return {
        "name": name,
        "source_id": source_id,
        "instruction": {"quote": instruction},
        "qualifier": {"quote": qualifier},
    }


def main() -> int:
    built = []
    with tempfile.TemporaryDirectory() as scratch:
        for corpus, pages, grammar, lesson_sizes, fact_status, checks in CORPORA:
            folder = Path(scratch) / corpus
            shutil.copytree(HERE / corpus / pages, folder / pages)
            code = build(folder, pages, grammar, lesson_sizes, fact_status, checks)
            if code != 0:
                return code
            built.extend(((HERE / corpus / name).resolve(), (folder / name).read_bytes()) for name in SAVED_FILES)
    write_outputs(built)
    print("rebuilt " + ", ".join(str(path) for path, _ in built))
    return 0


def build(folder: Path, pages: str, grammar: str, lesson_sizes: bool, fact_status: str, checks: tuple) -> int:
    """Pin ``folder/pages``, add the span checks and build the result there; the main job's exit code."""
    previous = os.getcwd()
    os.chdir(folder)
    try:
        manifest = Path("manifest.json")
        code = run.main(
            [
                "pin",
                "--markdown",
                grammar,
                "--manifest",
                str(manifest),
                "--fact-status",
                fact_status,
                "--titles",
                "id",
                pages,
            ]
        )
        if code != 0:
            return code
        value = json.loads(manifest.read_text(encoding="utf-8"))
        if lesson_sizes:
            del value["policies"]
        value["span_checks"] = [span_check(*check) for check in checks]
        manifest.write_bytes(saved_json_bytes(value))
        return run.main(["--manifest", str(manifest), "--output", "expected-result.json"])
    finally:
        os.chdir(previous)


if __name__ == "__main__":
    raise SystemExit(main())
