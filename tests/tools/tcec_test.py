"""tools/data/tcec.py without Stockfish: rows parse or are named as malformed, the calibration
sample is fixed and in range, both fits recover a known factor, Stockfish's last score is read
(a scripted engine stands in for it), and the converted lines are partial labels that
`avocet datagen --from-tsv` imports with every legal move.

Usage: tcec_test.py AVOCET_BINARY (CTest passes the built one)."""

import io
import lzma
import math
import os
import subprocess
import sys
import tempfile
import unittest

from tools.data import tcec

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AVOCET = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "avocet")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ROWS = [
    f"{START}\te2e4\t30\t25\t0.5",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\tc7c5\t28\t-31\t0.5",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a8\t40\tm1\t1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4\t8\t650\t1",
]


class ScriptedEngine:
    """Answers each `go` with the next scripted lines."""

    def __init__(self, answers):
        self.answers = list(answers)

    def send(self, line):
        pass

    def read_until(self, prefix):
        return self.answers.pop(0) + ["bestmove e2e4"] if prefix == "bestmove" else [prefix]


def write(path, lines):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "wt") as f:
        f.write("\n".join(lines) + "\n")


class TcecTest(unittest.TestCase):
    def test_rows_parse_and_four_field_fens_gain_counters(self):
        row = tcec.parse_row(ROWS[1])
        self.assertTrue(row.fen.endswith(" b KQkq - 0 1"))
        self.assertEqual((row.move, row.depth, row.centipawns(), row.result),
                         ("c7c5", 28, -31, 0.5))
        self.assertIsNone(tcec.parse_row(ROWS[2]).centipawns())

    def test_malformed_rows_are_named_and_counted(self):
        bad = [f"{START}\te2e4\t30\t25", f"{START}\te2e4\tx\t25\t1", f"{START}\te2e4\t30\tm0\t1",
               f"{START}\te2e4\t30\t12.5\t1", f"{START}\te2e4\t30\t25\t2", "8/8 w\te2e4\t3\t1\t1",
               f"{START}\tzz\t30\t25\t1"]
        for line in bad:
            with self.assertRaises(ValueError, msg=line):
                tcec.parse_row(line)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.tsv")
            write(path, ROWS[:1] + bad + ROWS[1:2])
            report = io.StringIO()
            reader = tcec.TcecFile(path, report=report, max_reports=3)
            self.assertEqual(len(list(reader)), 2)
            self.assertEqual(reader.malformed, len(bad))
            self.assertEqual(len(report.getvalue().splitlines()), 3)
            self.assertIn("t.tsv line 2: 4 tab-separated fields", report.getvalue())

    def test_calibration_sample_is_fixed_and_within_range(self):
        rows = [tcec.parse_row(line) for line in ROWS]
        sample = tcec.calibration_sample(rows, 10)
        self.assertEqual(sorted(cp for _, cp in sample), [-31, 25])  # no mate, no 650
        self.assertEqual(tcec.calibration_sample(list(reversed(rows)), 1), sample[:1])

    def test_fits_recover_a_known_factor(self):
        pairs = [(t, 0.8 * t) for t in range(-600, 601, 50)]
        self.assertAlmostEqual(tcec.fit_scale(pairs), 0.8)
        with self.assertRaises(ValueError):
            tcec.fit_scale([(0, 10)])
        k = 0.5 * tcec.LABEL_SLOPE  # results as fractions won, exactly on the curve
        results = [(t, 1 / (1 + math.exp(-k * t))) for t in range(-900, 901, 30)]
        self.assertAlmostEqual(tcec.fit_result_slope(results) / k, 1.0, places=6)
        # TCEC's scores reach tens of thousands of centipawns: no overflow on the way.
        extreme = [(30000, 1.0), (-30000, 0.0), (25000, 0.5), (-28000, 0.5)] * 10
        self.assertTrue(0 < tcec.fit_result_slope(results + extreme) < k)

    def test_stockfish_score_is_the_last_one_and_none_for_a_mate(self):
        engine = ScriptedEngine([["info depth 9 score cp 40 pv e2e4", "info depth 10 score cp 35"],
                                 ["info depth 10 score mate 3 pv a1a8"]])
        self.assertEqual(tcec.stockfish_score(engine, START, 10), 35)
        self.assertIsNone(tcec.stockfish_score(engine, START, 10))

    def test_converted_lines_import_with_every_legal_move(self):
        with tempfile.TemporaryDirectory() as d:
            source, out = os.path.join(d, "tcec.tsv.xz"), os.path.join(d, "out.tsv.xz")
            write(source, ROWS)
            tcec.main(["convert", source, "--scale", "0.5", "--min-depth", "10", "-o", out])
            with lzma.open(out, "rt") as f:
                lines = f.read().splitlines()
            self.assertEqual(lines, [f"{START}\te2e4:12 *:?",  # round half to even
                                     ROWS[1].split("\t")[0] + " 0 1\tc7c5:-16 *:?",
                                     "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a8:m1 *:?"])
            result = subprocess.run([AVOCET, "datagen", "--from-tsv", out, "-o",
                                     os.path.join(d, "shards")], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            # 20 legal moves in each position, one of them scored.
            self.assertIn("3 positions, 3 labelled moves (57 more unscored), 0 malformed",
                          result.stdout)


if __name__ == "__main__":
    unittest.main()
