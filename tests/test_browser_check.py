"""``tests/browser_check.py``: it skips cleanly without a browser and reads the page's figures as a reader would.

The browser itself runs in ``.ci/run`` where one is installed, never here: the suite stays quick.
"""

from __future__ import annotations

import io
import tempfile
import unittest
from contextlib import redirect_stdout
from unittest import mock

from tests import browser_check

SOUND = {
    "nodes": 400,
    "links": 20,
    "broken": [],
    "broken_count": 0,
    "pairs": 3,
    "cards": 3,
    "reachable": 3,
    "split_rows": 2,
    "split_view": True,
    "loaded_from_elsewhere": 0,
    "overflowing": 0,
    "height": 1700,
    "load_ms": 120.0,
    "unsorted_columns": [],
}
SPLIT_VIEW = {"rows": 2, "cards": 2}


class BrowserCheckTest(unittest.TestCase):
    def test_no_browser_on_the_path_is_a_clean_skip(self) -> None:
        with tempfile.TemporaryDirectory() as empty:
            self.assertIsNone(browser_check.find_browser(empty))
            with mock.patch.object(browser_check, "find_browser", return_value=None), redirect_stdout(
                io.StringIO()
            ) as out:
                self.assertEqual(browser_check.main([]), 0)
        self.assertTrue(out.getvalue().startswith("skipped: no browser found"), out.getvalue())

    def test_a_sound_report_has_no_problem(self) -> None:
        self.assertEqual(browser_check.problems(SOUND, SPLIT_VIEW, SPLIT_VIEW, 2.0), [])

    def test_each_fault_is_named(self) -> None:
        cases = [
            ({"broken_count": 1, "broken": ["#pair-9"]}, SPLIT_VIEW, "1 links point at no element"),
            ({"reachable": 2}, SPLIT_VIEW, "3 pairs in the table, 3 cards, 2 one click away"),
            ({"split_view": False}, SPLIT_VIEW, "no split-only view"),
            ({}, {"rows": 3, "cards": 2}, "the split-only view with script shows 3 rows"),
            ({"loaded_from_elsewhere": 1}, SPLIT_VIEW, "1 elements load something"),
            ({"overflowing": 4}, SPLIT_VIEW, "4 cells of source text run past their edge"),
            ({"load_ms": 2500.0}, SPLIT_VIEW, "loads in 2.50 s, over 2 s"),
            ({"unsorted_columns": ["caveat"]}, SPLIT_VIEW, "a click on caveat leaves the pairs table out of order"),
        ]
        for change, split_view, expected in cases:
            with self.subTest(expected=expected):
                found = browser_check.problems({**SOUND, **change}, split_view, SPLIT_VIEW, 2.0)
                self.assertEqual(len(found), 1, found)
                self.assertIn(expected, found[0])
