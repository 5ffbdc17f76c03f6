"""tools/measure/sprt.py: the figures fastchess printed for the same pentanomial counts, runs
added up, and one clear line for input it cannot use."""

import math
import os
import random
import subprocess
import sys
import tempfile
import unittest

from tools.measure import sprt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# A module of the package, run from the repository (on PYTHONPATH under CTest).
SCRIPT = ["-m", "tools.measure.sprt"]

# What fastchess 1.x printed at the end of four of the project's matches (pentanomial counts,
# its SPRT bounds; Elo, its error, nElo, its error, LLR).
FASTCHESS = [
    ([33, 25, 94, 30, 48], 0, 25, 26.49, 28.85, 29.33, 31.75, 1.59),
    ([3, 7, 30, 12, 26], 0, 20, 117.91, 49.72, 140.71, 54.52, 2.96),
    ([22, 19, 47, 26, 26], 0, 25, 18.63, 37.57, 20.30, 40.70, 0.45),
    ([6, 3, 12, 3, 6], 0, 25, -0.00, 85.06, 0.00, 87.91, -0.15),
]


def log_with(*counts, heading="a vs b (10+0.1, 1t, 16MB, noob_3moves.epd)"):
    """A fastchess log whose reports carry these counts, in order."""
    lines = ["Started game 1 of 800 (a vs b)\n"]
    for c in counts:
        lines += ["--------------------------------------------------\n",
                  f"Results of {heading}:\n",
                  "Elo: 0.00 +/- 0.00, nElo: 0.00 +/- 0.00\n",
                  f"Ptnml(0-2): [{c[0]}, {c[1]}, {c[2]}, {c[3]}, {c[4]}], WL/DD Ratio: 1.00\n",
                  "LLR: 0.00 (0.0%) (-2.25, 2.89) [0.00, 25.00]\n"]
    return lines


class SprtTest(unittest.TestCase):
    def test_the_figures_fastchess_printed(self):
        for counts, elo0, elo1, elo, error, nelo, nerror, llr in FASTCHESS:
            r = sprt.summary(counts, elo0, elo1, 0.05, 0.1)
            with self.subTest(counts=counts):
                self.assertAlmostEqual(r["elo"], elo, delta=0.006)
                self.assertAlmostEqual(r["elo_error"], error, delta=0.006)
                self.assertAlmostEqual(r["nelo"], nelo, delta=0.006)
                self.assertAlmostEqual(r["nelo_error"], nerror, delta=0.006)
                self.assertAlmostEqual(r["llr"], llr, delta=0.006)
                self.assertAlmostEqual(r["lower"], -2.25, delta=0.006)
                self.assertAlmostEqual(r["upper"], 2.89, delta=0.006)

    def test_the_exact_llr_differs_from_its_normal_approximation(self):
        # A lopsided result: the approximation N (t1 - t0)(2 t - t0 - t1) / 2 overshoots, so
        # the test would pass with an approximate LLR only by accident.
        counts = [0, 1, 6, 9, 24]
        r = sprt.summary(counts, 0, 25, 0.05, 0.1)
        mean, deviation = sprt.mean_and_deviation([c / sum(counts) for c in counts])
        t1 = 2**0.5 * 25 / sprt.NORMALIZED_ELO_SCALE
        approximate = sum(counts) * t1 * (2 * (mean - 0.5) / deviation - t1) / 2
        self.assertGreater(abs(r["llr"] - approximate), 0.05)

    def test_the_most_likely_distribution_has_the_asked_normalized_score(self):
        # Ordinary samples, and ones nearly all in one outcome, where an iteration started
        # from the sample's own (tiny) deviation settled off the constraint.
        samples = [[33, 25, 94, 30, 48], [0, 0, 100, 0, 0], [0, 0, 4, 0, 0], [1, 1000, 0, 0, 0],
                   [0, 0, 1000, 1, 0], [0, 0, 0, 0, 10], [10, 0, 0, 0, 0], [1, 0, 0, 0, 1]]
        for counts in samples:
            values = sprt.regularized(counts)
            empirical = [v / sum(values) for v in values]
            for t in (0.0, 0.1, -0.2, 0.5):
                with self.subTest(counts=counts, t=t):
                    p = sprt.most_likely_with_t(empirical, t)
                    mean, deviation = sprt.mean_and_deviation(p)
                    self.assertAlmostEqual(sum(p), 1.0, places=12)
                    self.assertAlmostEqual((mean - 0.5) / deviation, t, places=6)
                    self.assertGreaterEqual(local_loss(empirical, p, t), -1e-10)
                    # And the check can fail: a point of the same score farther off loses
                    # likelihood to some neighbour (1e-9 to 1e-5 here, against 1e-11 at most
                    # for the maximum's rounding).
                    self.assertLess(local_loss(empirical, elsewhere(p, t), t), -1e-10)

    def test_a_sample_all_draws_leans_to_h0(self):
        # 100 pairs all drawn: no sign of the +25 of H1. fastchess gives -1.02 here (its own
        # routine copied into Python, not committed, gave the same); an iteration started from
        # the sample's deviation gave -0.17.
        r = sprt.summary([0, 0, 100, 0, 0], 0, 25, 0.05, 0.1)
        self.assertAlmostEqual(r["llr"], -1.02, delta=0.006)
        self.assertEqual(r["elo"], 0.0)
        self.assertTrue(math.isnan(r["nelo"]))

    def test_elo_figures_come_from_the_counts_as_they_are(self):
        # fastchess's nElo for these, from the raw counts (the regularized ones give 413.95).
        self.assertAlmostEqual(sprt.summary([0, 1, 6, 9, 24], 0, 25, 0.05, 0.1)["nelo"], 414.06,
                               delta=0.006)
        every_pair_won = sprt.summary([0, 0, 0, 0, 10], 0, 25, 0.05, 0.1)
        self.assertEqual(every_pair_won["elo"], math.inf)
        self.assertEqual(every_pair_won["elo_error"], math.inf)
        one_each = sprt.summary([1, 0, 0, 0, 1], 0, 25, 0.05, 0.1)
        self.assertEqual(one_each["elo"], 0.0)
        self.assertEqual(one_each["elo_error"], math.inf)  # its interval leaves (0, 1)

    def test_verdicts(self):
        self.assertEqual(sprt.verdict(sprt.summary([3, 7, 30, 12, 26], 0, 20, 0.05, 0.1)),
                         "H1 accepted")
        self.assertEqual(sprt.verdict(sprt.summary([33, 25, 94, 30, 48], 0, 25, 0.05, 0.1)),
                         "continue")
        self.assertEqual(sprt.verdict(sprt.summary([60, 30, 100, 25, 15], 0, 25, 0.05, 0.1)),
                         "H0 accepted")

    def test_a_log_counts_its_last_report_and_runs_add_up(self):
        self.assertEqual(sprt.last_ptnml(log_with([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])),
                         [2, 3, 4, 5, 6])
        self.assertIsNone(sprt.last_ptnml(["Started game 1 of 2 (a vs b)\n"]))
        with tempfile.TemporaryDirectory() as folder:
            first, second = os.path.join(folder, "a.log"), os.path.join(folder, "b.log")
            with open(first, "w") as out:
                out.writelines(log_with([10, 12, 40, 15, 20], [20, 15, 60, 18, 30]))
            with open(second, "w") as out:
                out.writelines(log_with([13, 10, 34, 12, 18]))
            together = run(first, second)
            self.assertEqual(together.returncode, 0, together.stderr)
            mixed = run(first, "--ptnml", "13,10,34,12,18")
            summed = run("--ptnml", "33,25,94,30,48")
            other = os.path.join(folder, "other.log")
            with open(other, "w") as out:
                out.writelines(log_with([13, 10, 34, 12, 18], heading="b vs a (10+0.1)"))
            another_match = run(first, other)
        self.assertEqual(another_match.returncode, 2)
        self.assertIn("is another match", another_match.stderr)
        self.assertIn("match: a vs b (10+0.1, 1t, 16MB, noob_3moves.epd)", together.stdout)
        for output in (together.stdout, mixed.stdout):
            self.assertIn("together: 460 games (230 pairs), ptnml [33, 25, 94, 30, 48]", output)
            self.assertIn("LLR: 1.59 (-2.25, 2.89) [0.00, 25.00]: continue", output)
        self.assertEqual(together.stdout.splitlines()[-2:], summed.stdout.splitlines()[-2:])

    def test_bad_input_gets_one_line(self):
        with tempfile.TemporaryDirectory() as folder:
            empty = os.path.join(folder, "empty.log")
            open(empty, "w").close()
            cases = [
                (run(empty), "has no 'Results of ...' and 'Ptnml(0-2): [...]' lines"),
                (run(os.path.join(folder, "missing.log")), "cannot read"),
                (run("--ptnml", "1,2,3"), "five counts"),
                (run("--ptnml", "1,2,-3,4,5"), "five counts"),
                (run("--ptnml", "1,2,x,4,5"), "five counts"),
                (run("--ptnml", "0,0,0,0,0"), "no game pairs"),
                (run(), "give at least one"),
                (run("--elo0", "5", "--elo1", "5", "--ptnml", "1,2,3,4,5"), "elo0 below elo1"),
                (run("--elo1", "inf", "--ptnml", "1,2,3,4,5"), "two finite bounds"),
                (run("--alpha", "0", "--ptnml", "1,2,3,4,5"), "each in (0, 1)"),
                (run("--beta", "1", "--ptnml", "1,2,3,4,5"), "each in (0, 1)"),
                (run("--alpha", "0.6", "--beta", "0.6", "--ptnml", "1,2,3,4,5"), "sum below 1"),
            ]
        for result, message in cases:
            with self.subTest(message=message):
                self.assertEqual(result.returncode, 2)
                self.assertEqual(result.stdout, "")
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
                self.assertIn(message, result.stderr)


def normalized_score(p):
    mean, deviation = sprt.mean_and_deviation(p)
    return (mean - 0.5) / deviation


def restore_score(moved, p, t, reach):
    """moved, with mass shifted along p_i (a_i - mean of p) until its normalized score is t
    (by bisection: the score rises with the shift)."""
    mean, _ = sprt.mean_and_deviation(p)
    shift = [x * (a - mean) for x, a in zip(p, sprt.PAIR_SCORES)]
    low, high = -reach, reach
    for _ in range(100):
        middle = (low + high) / 2
        q = [x + middle * g for x, g in zip(moved, shift)]
        low, high = (middle, high) if normalized_score(q) < t else (low, middle)
    return [x + low * g for x, g in zip(moved, shift)]


def nudged(p, rng, size):
    """p with each p_i moved by a random fraction (at most `size`) of itself, the sum kept."""
    r = [rng.uniform(-1, 1) for _ in p]
    average = sum(x * ri for x, ri in zip(p, r))
    return [x + size * x * (ri - average) for x, ri in zip(p, r)]


def elsewhere(p, t):
    """Another distribution of normalized score t, a fifth of each p_i away."""
    return restore_score(nudged(p, random.Random(3), 0.2), p, t, 0.5)


def local_loss(empirical, p, t, steps=25, size=1e-3):
    """The least log-likelihood p keeps over random distributions near it of the same
    normalized score t: a maximum keeps more than all of them (>= 0, up to rounding), any
    other point loses to some direction."""
    rng = random.Random(1)

    def likelihood(q):
        return sum(e * math.log(x) for e, x in zip(empirical, q))

    return min(likelihood(p) - likelihood(restore_score(nudged(p, rng, size), p, t, 0.05))
               for _ in range(steps))


def run(*args):
    return subprocess.run([sys.executable, *SCRIPT, *args], capture_output=True, text=True)


if __name__ == "__main__":
    unittest.main()
