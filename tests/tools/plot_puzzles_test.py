"""tools/measure/plot_puzzles.py without matplotlib: the CLI's buckets, the intervals, the warnings
about dropped buckets, and --print on a committed fixture (tests/data/puzzle_results.jsonl:
12 puzzles rated 1000-1499 of which 9 solved, 15 rated 1500-1999 of which 5 solved, 3 rated
>=2500 of which 1 solved)."""

import contextlib
import io
import os
import sys
import unittest

from tools.measure import plot_puzzles

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "data", "puzzle_results.jsonl")


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["plot_puzzles.py", *args]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = plot_puzzles.main()
    return status, out.getvalue(), err.getvalue()


class PlotPuzzlesTest(unittest.TestCase):
    def test_buckets_are_the_clis(self):
        buckets = plot_puzzles.DEFAULT_BUCKETS
        self.assertEqual(plot_puzzles.bucket_of(999, buckets), "<1000")
        self.assertEqual(plot_puzzles.bucket_of(1000, buckets), "1000-1499")
        self.assertEqual(plot_puzzles.bucket_of(2499, buckets), "2000-2499")
        self.assertEqual(plot_puzzles.bucket_of(2500, buckets), ">=2500")
        rows, file_buckets, label = plot_puzzles.read_results(FIXTURE)
        self.assertEqual(len(rows), 30)
        self.assertEqual(file_buckets, buckets)  # read from the summary line
        self.assertEqual(label, "fixture")

    def test_wilson_interval(self):
        low, high = plot_puzzles.wilson_interval(9, 12)
        self.assertAlmostEqual(low, 0.4677, places=3)
        self.assertAlmostEqual(high, 0.9111, places=3)
        self.assertEqual(plot_puzzles.wilson_interval(0, 0), (0.0, 0.0))
        self.assertEqual(plot_puzzles.wilson_interval(5, 5)[1], 1.0)

    def test_print_drops_small_buckets_with_a_warning(self):
        status, out, err = run("--print", FIXTURE)
        self.assertEqual(status, 0)
        self.assertIn("fixture: 15/30 solved (50.0%)", out)
        self.assertIn("  1000-1499      12       9     75.0%  46.8-91.1%\n", out)
        self.assertIn("  1500-1999      15       5     33.3%  15.2-58.3%\n", out)
        self.assertNotIn(">=2500", out)
        self.assertIn("bucket >=2500 dropped: 3 puzzles, fewer than --min-count 10", err)
        self.assertIn("bucket <1000 dropped: no puzzles", err)
        status, out, err = run("--print", "--min-count", "3", FIXTURE)
        self.assertIn("  >=2500          3       1     33.3%", out)
        self.assertNotIn(">=2500", err)

    def test_theme_filter(self):
        status, out, _ = run("--print", "--min-count", "1", "--theme", "fork", FIXTURE)
        self.assertEqual(status, 0)
        self.assertIn("9/16 solved", out)
        status, _, err = run("--print", "--theme", "zugzwang", FIXTURE)
        self.assertEqual(status, 1)
        self.assertIn("no puzzles with theme zugzwang", err)


if __name__ == "__main__":
    unittest.main()
