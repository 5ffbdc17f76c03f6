"""tools/measure/rating.py: the score's Elo and interval, the fitted rating over several rungs
(the issue's 60+0.6 figures), which side of a fastchess log or PGN is ours, and `levels`
resuming from the runs that already hold its games, including a stopped run whose log has no
summary yet."""

import math
import os
import subprocess
import sys
import tempfile
import unittest

from tools.measure import rating

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# A module of the package, run from the repository (on PYTHONPATH under CTest).
SCRIPT = ["-m", "tools.measure.rating"]


def write_log(folder, name, first, second, wins, losses, draws):
    path = os.path.join(folder, name)
    with open(path, "w") as file:
        file.write(f"Started game 1 of 60 ({first} vs {second})\n"
                   f"Results of {first} vs {second} (10+0.1, 1t, 16MB, noob_3moves.epd):\n"
                   "Games: 2, Wins: 1, Losses: 1, Draws: 0, Points: 1.0 (50.00 %)\n"
                   f"Results of {first} vs {second} (10+0.1, 1t, 16MB, noob_3moves.epd):\n"
                   f"Games: {wins + losses + draws}, Wins: {wins}, Losses: {losses}, "
                   f"Draws: {draws}, Points: 0\n")
    return path


def write_pgn(folder, name, games):
    """A fastchess-like PGN of (white, black, result) games."""
    path = os.path.join(folder, name)
    with open(path, "w") as file:
        for white, black, result in games:
            file.write(f'[Event "Fastchess Tournament"]\n[White "{white}"]\n[Black "{black}"]\n'
                       f'[Result "{result}"]\n[Termination "normal"]\n\n1. e4 e5 {result}\n\n')
    return path


class RatingTest(unittest.TestCase):
    def test_score_to_elo(self):
        self.assertAlmostEqual(rating.elo_difference(0.5), 0.0)
        self.assertAlmostEqual(rating.elo_difference(0.75), 190.85, places=2)
        self.assertAlmostEqual(rating.expected_score(rating.elo_difference(0.37)), 0.37)

    def test_interval_holds_the_score_and_widens_with_fewer_games(self):
        many = rating.Result(1800, 32, 10, 58)
        low, mid, high = many.interval()
        self.assertAlmostEqual(mid, rating.elo_difference(0.37))
        self.assertLess(low, mid)
        self.assertLess(mid, high)
        few = rating.Result(1800, 8, 2, 14)
        self.assertGreater(few.interval()[2] - few.interval()[0], high - low)
        self.assertEqual(rating.Result(2100, 0, 0, 9).interval()[1], -math.inf)

    def test_fit_of_one_rung_is_its_measured_elo(self):
        result = rating.Result(1800, 32, 10, 58)
        fitted, half = rating.fit([result])
        self.assertAlmostEqual(fitted, rating.stair_label(1800) + rating.elo_difference(0.37),
                               places=3)
        self.assertGreater(half, 30)

    def test_stockfish_stairs(self):
        # 1800 and 1850 are one stair (skill 4, depth 5), rated 1785; 1900 is depth 6, 2100
        # depth 8, 2200 depth 10.
        uci_elo = (1350, 1800, 1850, 1900, 2000, 2100, 2200)
        self.assertEqual([rating.stair(e) + 1 for e in uci_elo], [1, 5, 5, 6, 7, 8, 10])
        self.assertEqual([round(rating.stair_label(rating.stair_rung(k))) for k in range(4, 9)],
                         [1785, 1871, 1954, 2035, 2113])
        self.assertAlmostEqual(rating.stair_label(1850), rating.stair_label(1800))
        for k in range(0, 12):  # each rung sets its own stair, never the one below
            self.assertEqual(rating.stair(rating.stair_rung(k)), k)
            self.assertEqual(rating.stair(rating.stair_rung(k) - 2), max(k - 1, 0))

    def test_fit_over_two_rungs_rates_each_at_its_stair(self):
        # +9 =1 -6 against 1800 and 0 of 9 against 2100 at 60+0.6: the rungs are rated 1785
        # and 2035 (skill 4 and 7), not 1800 and 2100.
        fitted, half = rating.fit([rating.Result(1800, 9, 1, 6), rating.Result(2100, 0, 0, 9)])
        self.assertAlmostEqual(half, 150, delta=15)
        # The likelihood's maximum: expected points equal the points scored.
        expected = 16 * rating.expected_score(fitted - 1785) + 9 * rating.expected_score(
            fitted - 2035)
        self.assertAlmostEqual(expected, 9.5, places=2)

    def test_log_read_from_our_side_whichever_engine_is_first(self):
        with tempfile.TemporaryDirectory() as folder:
            ours_first = rating.read_log(write_log(folder, "a.log", "avocet-1450", "sf1450",
                                                   30, 20, 10))
            self.assertEqual((ours_first.wins, ours_first.draws, ours_first.losses), (30, 10, 20))
            self.assertEqual(ours_first.opponent_elo, 1450)
            theirs_first = rating.read_log(write_log(folder, "b.log", "sf1600", "avocet",
                                                     30, 20, 10))
            self.assertEqual((theirs_first.wins, theirs_first.losses), (20, 30))
            self.assertEqual(theirs_first.opponent_elo, 1600)

    def test_pgn_read_from_our_side_in_either_colour(self):
        with tempfile.TemporaryDirectory() as folder:
            path = write_pgn(folder, "a.pgn", [("avocet-full", "sf1850", "1-0"),
                                               ("sf1850", "avocet-full", "1-0"),
                                               ("sf1850", "avocet-full", "0-1"),
                                               ("avocet-full", "sf1850", "1/2-1/2"),
                                               ("sf1850", "avocet-full", "*")])
            [result] = rating.read_games(path)
            self.assertEqual((result.wins, result.draws, result.losses), (2, 1, 1))
            self.assertEqual(result.opponent_elo, 1850)
            self.assertEqual(rating.read_pgn(write_pgn(folder, "b.pgn", [])), [])

    def test_gauntlet_pgn_is_rated_rung_by_rung(self):
        with tempfile.TemporaryDirectory() as folder:
            path = write_pgn(folder, "gauntlet.pgn", [("avocet", "sf2000", "1-0"),
                                                      ("sf2000", "avocet", "1-0"),
                                                      ("avocet", "sf2100", "0-1"),
                                                      ("sf2100", "avocet", "1/2-1/2"),
                                                      ("avocet", "sf2000", "1/2-1/2")])
            rungs = rating.read_games(path)
            self.assertEqual([r.opponent_elo for r in rungs], [2000, 2100])
            self.assertEqual([(r.wins, r.draws, r.losses) for r in rungs],
                             [(1, 1, 1), (0, 1, 1)])
            out = subprocess.run([sys.executable, *SCRIPT, "fit", path],
                                 capture_output=True, text=True, cwd=ROOT)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("gauntlet.pgn (sf2100) | 2100 (depth 8, 2035) | 2 |", out.stdout)
            self.assertIn("over 5 games against UCI_Elo 2000, 2100", out.stdout)

    def test_stopped_run_counts_the_games_its_pgn_holds(self):
        with tempfile.TemporaryDirectory() as folder:
            # Run 1 was stopped after three games: its log has no summary line, its PGN has them.
            with open(os.path.join(folder, "avocet-full-vs-sf1850-1.log"), "w") as file:
                file.write("Started game 1 of 60 (avocet-full vs sf1850)\n")
            write_pgn(folder, "avocet-full-vs-sf1850-1.pgn", [("avocet-full", "sf1850", "1-0"),
                                                              ("sf1850", "avocet-full", "1-0"),
                                                              ("avocet-full", "sf1850", "0-1")])
            write_log(folder, "avocet-full-vs-sf1850-2.log", "avocet-full", "sf1850", 4, 2, 1)
            total = rating.rating_of_logs(folder, "avocet-full-vs-sf1850", 1850)
            self.assertEqual((total.wins, total.draws, total.losses), (5, 1, 4))
            out = subprocess.run([sys.executable, *SCRIPT, "fit",
                                  os.path.join(folder, "avocet-full-vs-sf1850-1.log")],
                                 capture_output=True, text=True)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("no finished game in this file", out.stderr)

    def test_nearest_opponent_is_the_nearest_stair_in_stockfish_range(self):
        self.assertEqual(rating.nearest_opponent(1150, None), 1350)
        self.assertEqual(rating.nearest_opponent(1570, None), rating.stair_rung(2))  # 1597
        self.assertEqual(rating.nearest_opponent(1720, None), rating.stair_rung(3))  # 1694
        self.assertEqual(rating.nearest_opponent(1870, None), rating.stair_rung(5))  # 1871
        self.assertLessEqual(rating.nearest_opponent(3000, None), 2850)
        self.assertEqual(rating.nearest_opponent(1150, 1500), 1500)

    def test_levels_reads_a_finished_log_instead_of_playing(self):
        with tempfile.TemporaryDirectory() as folder:
            # 1450 is nearest skill 1 (1490): its rung is 1491.
            write_log(folder, "avocet-1450-vs-sf1491-1.log", "avocet-1450", "sf1491", 30, 20, 10)
            book = os.path.join(folder, "book.epd")
            with open(book, "w") as file:
                file.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n")
            # A fastchess that fails: reaching it would fail the run.
            out = subprocess.run([sys.executable, *SCRIPT, "levels", "--levels", "1450",
                                  "--games", "60", "--out", folder, "--book", book,
                                  "--fastchess", "/bin/false"],
                                 capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("| 1450 | 1491 (depth 2, 1490) | 60 | 30 / 10 / 20 | 58.3% |",
                          out.stdout)
            self.assertIn("read 60 games", out.stderr)
            # Fewer games than asked: played, and here fastchess fails with one clear line.
            out = subprocess.run([sys.executable, *SCRIPT, "levels", "--levels", "1450",
                                  "--games", "100", "--out", folder, "--book", book,
                                  "--fastchess", "/bin/false"],
                                 capture_output=True, text=True)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("fastchess exited with 1", out.stderr)
            # ... and the games already played are kept: the failed run wrote a log of its own.
            self.assertTrue(os.path.exists(os.path.join(folder, "avocet-1450-vs-sf1491-2.log")))
            self.assertEqual(rating.rating_of_logs(folder, "avocet-1450-vs-sf1491", 1491).games,
                             60)

    def test_bad_level_is_one_clear_line(self):
        with tempfile.TemporaryDirectory() as folder:
            book = os.path.join(folder, "book.epd")
            with open(book, "w") as file:
                file.write("x\n")
            out = subprocess.run([sys.executable, *SCRIPT, "levels", "--levels", "strong",
                                  "--out", folder, "--book", book], capture_output=True, text=True)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("a level is a UCI_Elo or 'full', not 'strong'", out.stderr)


if __name__ == "__main__":
    unittest.main()
