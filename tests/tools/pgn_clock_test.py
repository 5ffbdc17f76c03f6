"""tools/measure/pgn_clock.py on a committed fixture (tests/data/fastchess_clock.pgn): two games at
10+0.1 between "new" and "old", one lost by "old" on time, one from the start position with
book moves, so that move numbers, sides, book comments and the clock left are all checked."""

import contextlib
import io
import os
import sys
import unittest

from tools.measure import pgn_clock

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "data", "fastchess_clock.pgn")


def games():
    with open(FIXTURE, encoding="utf-8") as f:
        return list(pgn_clock.parse_games(f.read()))


class PgnClockTest(unittest.TestCase):
    def test_moves_carry_side_number_think_and_clock(self):
        first, second = games()
        self.assertEqual(first["moves"], [("w", 4, 0.5, 9.6), ("b", 4, 1.0, 9.1),
                                          ("w", 5, 0.4, 9.3), ("b", 5, 9.2, -0.1)])
        # Book moves are skipped but still advance the side and the move number.
        self.assertEqual(second["moves"], [("w", 2, 0.25, 9.85), ("b", 2, 2.0, 8.1),
                                           ("w", 3, 0.25, 9.7), ("b", 3, 3.0, 5.2)])

    def test_summary_per_engine(self):
        engines = pgn_clock.summarise(games())
        self.assertEqual(engines["old"]["games"], 2)
        self.assertEqual(engines["old"]["time_losses"], 1)
        self.assertEqual(engines["new"]["time_losses"], 0)
        self.assertEqual(engines["new"]["left"], [9.3, 5.2])
        self.assertAlmostEqual(engines["new"]["left_share"][1], 0.52)
        self.assertEqual(engines["old"]["left"], [-0.1, 9.7])
        self.assertEqual(sorted(engines["new"]["think"][(1, 10)]), [0.4, 0.5, 2.0, 3.0])

    def test_base_time_of_controls(self):
        self.assertEqual(pgn_clock.base_seconds("10+0.1"), 10.0)
        self.assertEqual(pgn_clock.base_seconds("40/10"), 10.0)
        self.assertEqual(pgn_clock.base_seconds("1+0.01"), 1.0)
        self.assertIsNone(pgn_clock.base_seconds("-"))

    def test_cli_reports_and_rejects_a_missing_file(self):
        out, err = io.StringIO(), io.StringIO()
        sys.argv = ["pgn_clock.py", FIXTURE, "--engine", "old"]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(pgn_clock.main(), 0)
        self.assertIn("old: 2 games, 1 lost on time", out.getvalue())
        self.assertNotIn("new:", out.getvalue())
        sys.argv = ["pgn_clock.py", "/nonexistent.pgn"]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(pgn_clock.main(), 2)
        self.assertIn("cannot read /nonexistent.pgn", err.getvalue())


if __name__ == "__main__":
    unittest.main()
