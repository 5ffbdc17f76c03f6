"""tools/sprt.py: the figures fastchess printed for the same pentanomial counts, runs added up,
and one clear line for input it cannot use."""

import io
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import sprt  # noqa: E402

SCRIPT = os.path.join(ROOT, "tools", "sprt.py")

# What fastchess 1.x printed at the end of four of the project's matches (pentanomial counts,
# its SPRT bounds; Elo, its error, nElo, its error, LLR).
FASTCHESS = [
    ([33, 25, 94, 30, 48], 0, 25, 26.49, 28.85, 29.33, 31.75, 1.59),
    ([3, 7, 30, 12, 26], 0, 20, 117.91, 49.72, 140.71, 54.52, 2.96),
    ([22, 19, 47, 26, 26], 0, 25, 18.63, 37.57, 20.30, 40.70, 0.45),
    ([6, 3, 12, 3, 6], 0, 25, -0.00, 85.06, 0.00, 87.91, -0.15),
]


def log_with(*counts):
    """A fastchess log whose reports carry these counts, in order."""
    lines = ["Started game 1 of 800 (a vs b)\n"]
    for c in counts:
        lines += ["Elo: 0.00 +/- 0.00, nElo: 0.00 +/- 0.00\n",
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
        empirical = [c / 230 for c in [33, 25, 94, 30, 48]]
        for t in (0.0, 0.1, -0.2):
            p = sprt.most_likely_with_t(empirical, t)
            mean, deviation = sprt.mean_and_deviation(p)
            self.assertAlmostEqual(sum(p), 1.0, places=12)
            self.assertAlmostEqual((mean - 0.5) / deviation, t, places=9)

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
        for output in (together.stdout, mixed.stdout):
            self.assertIn("together: 460 games (230 pairs), ptnml [33, 25, 94, 30, 48]", output)
            self.assertIn("LLR: 1.59 (-2.25, 2.89) [0.00, 25.00]: continue", output)
        self.assertEqual(together.stdout.splitlines()[-2:], summed.stdout.splitlines()[-2:])

    def test_bad_input_gets_one_line(self):
        with tempfile.TemporaryDirectory() as folder:
            empty = os.path.join(folder, "empty.log")
            open(empty, "w").close()
            cases = [
                (run(empty), "has no 'Ptnml(0-2): [...]' line"),
                (run(os.path.join(folder, "missing.log")), "cannot read"),
                (run("--ptnml", "1,2,3"), "five counts"),
                (run("--ptnml", "1,2,-3,4,5"), "five counts"),
                (run("--ptnml", "1,2,x,4,5"), "five counts"),
                (run("--ptnml", "0,0,0,0,0"), "no game pairs"),
            ]
        for result, message in cases:
            with self.subTest(message=message):
                self.assertEqual(result.returncode, 2)
                self.assertEqual(result.stdout, "")
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
                self.assertIn(message, result.stderr)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


if __name__ == "__main__":
    unittest.main()
