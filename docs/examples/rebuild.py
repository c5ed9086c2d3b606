"""Rebuild the example corpus's manifest and saved result from its pages, with the lab's own commands.

    python docs/examples/rebuild.py

1. ``pin --markdown blocks`` pins every page under ``parcel-queue/`` into a
   fresh ``manifest.json`` (ids from the paths: ``parcel-queue/guide/index``);
2. the span checks below are written into it, each as two quotes the loader
   locates in its page;
3. the main job builds ``expected-result.json`` from that manifest.

The lab refuses to write the files it ships (``output_is_lab_file``), these two
among them, so both are built in a scratch copy of the pages (the paths in them
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


def span_check(name: str, source_id: str, instruction: str, qualifier: str) -> dict:
    return {
        "name": name,
        "source_id": source_id,
        "instruction": {"quote": instruction},
        "qualifier": {"quote": qualifier},
    }


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        shutil.copytree(HERE / "parcel-queue", Path(scratch) / "parcel-queue")
        code = build(Path(scratch))
        if code != 0:
            return code
        built = [
            (HERE / name, (Path(scratch) / name).read_bytes()) for name in ("manifest.json", "expected-result.json")
        ]
    write_outputs(built)
    print(f"rebuilt {HERE / 'manifest.json'} and {HERE / 'expected-result.json'}")
    return 0


def build(folder: Path) -> int:
    """Pin ``folder/parcel-queue``, add the span checks and build the result there; the main job's exit code."""
    previous = os.getcwd()
    os.chdir(folder)
    try:
        manifest = Path("manifest.json")
        code = run.main(
            ["pin", "--markdown", "blocks", "--manifest", str(manifest), "--fact-status", FACT_STATUS, "parcel-queue"]
        )
        if code != 0:
            return code
        value = json.loads(manifest.read_text(encoding="utf-8"))
        # Built at the lesson's sizes, as it was first: its ids are in its saved result.
        del value["policies"]
        value["span_checks"] = [span_check(*check) for check in SPAN_CHECKS]
        manifest.write_bytes(saved_json_bytes(value))
        return run.main(["--manifest", str(manifest), "--output", "expected-result.json"])
    finally:
        os.chdir(previous)


if __name__ == "__main__":
    raise SystemExit(main())
