"""The manifest lock: concurrent updates of one manifest all land, or the late one refuses; none is lost."""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from pathlib import Path
from unittest import mock

import source_pins
from lab_io import outputs
from lab_io.errors import UsageError
from tests.support import LabTestCase, run_lab


def folder_is_locked(folder: Path) -> bool:
    """Whether another holder has the lock ``manifest_lock`` takes on ``folder``."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)
    return False


class ManifestLock(LabTestCase):
    def test_concurrent_updates_all_land(self):
        manifest = self.folder / "manifest.json"
        manifest.write_text('{"sources": []}', encoding="utf-8")

        def add(name: str):
            # As pin and scan update a manifest: read, change and write it under the lock.
            with outputs.manifest_lock(manifest):
                value = json.loads(manifest.read_bytes())
                # Widen the window between read and write, where an unlocked update would lose the other.
                time.sleep(0.005)
                value["sources"].append(name)
                outputs.emit(json.dumps(value).encode("utf-8"), manifest)

        threads = [threading.Thread(target=add, args=(f"source-{number}",)) for number in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        sources = json.loads(manifest.read_text(encoding="utf-8"))["sources"]
        self.assertEqual(sorted(sources), sorted(f"source-{number}" for number in range(10)))
        self.assertEqual(sorted(path.name for path in self.folder.iterdir()), ["manifest.json"])

    def test_a_lock_held_too_long_is_one_clear_refusal(self):
        manifest = self.folder / "manifest.json"
        with outputs.manifest_lock(manifest):
            holder = threading.Thread(target=lambda: None)
            holder.start()
            holder.join()
            with self.assertRaises(UsageError) as caught:
                with outputs.manifest_lock(manifest, timeout=0.05):
                    self.fail("the lock was taken twice")
        self.assertEqual(caught.exception.code, "manifest_locked")
        self.assertFalse(folder_is_locked(self.folder))

    def test_pin_reads_and_writes_the_manifest_under_the_lock(self):
        self.copy_inputs()
        (self.folder / "docs" / "extra.md").write_text("# Extra\n\nMore text.\n", encoding="utf-8")
        seen = []
        real_pin_sources = source_pins.pin_sources

        def pin_while_checking(*args, **kwargs):
            seen.append(folder_is_locked(self.folder))
            return real_pin_sources(*args, **kwargs)

        with mock.patch.object(source_pins, "pin_sources", side_effect=pin_while_checking):
            completed = run_lab("pin", "docs/extra.md", "--manifest", "manifest.json", cwd=self.folder)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        self.assertEqual(seen, [True])
        self.assertFalse(folder_is_locked(self.folder))
