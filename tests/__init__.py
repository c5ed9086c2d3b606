"""The lab's tests. They run with no scan cache (``LAB_NO_CACHE``), so no test writes one into the repository or
reads one another test left; the cache's own tests turn it back on."""

import os

os.environ["LAB_NO_CACHE"] = "1"
