"""The lab's tests. They run with no scan cache (``LAB_NO_CACHE``), so no test writes one into the repository or
reads one another test left; the cache's own tests turn it back on.

Their temporary folders go to the machine's shared memory (``/dev/shm``) when it has one and ``TMPDIR`` does
not name another place: the lab syncs every file it writes, and on a virtual machine's disk each sync and each
folder removed after it waits several milliseconds (about 1,500 folders and 800 syncs a run, half the suite's
time on such a machine). What the tests check, the files and bytes each command leaves, is the same there.
"""

import os
import tempfile

os.environ["LAB_NO_CACHE"] = "1"

SHARED_MEMORY = "/dev/shm"
if "TMPDIR" not in os.environ and os.path.isdir(SHARED_MEMORY) and os.access(SHARED_MEMORY, os.W_OK | os.X_OK):
    tempfile.tempdir = SHARED_MEMORY
