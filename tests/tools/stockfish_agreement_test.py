"""tools/measure/stockfish_agreement.py without Stockfish: the score conversion matches the shards'
(datagen/shard.cpp), the held-out positions are the split's, malformed lines are skipped
with a line naming them, and a hit is a move with the best labelled value (mates tie), as in
train.py's action accuracy. A scripted engine stands in for Stockfish."""

import contextlib
import io
import math
import os
import tempfile
import unittest

from tools.measure import stockfish_agreement

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Two positions of sf15-d7-001 in the 3% held-out split, and two outside it.
HELD_OUT = ["8/p2K4/8/8/7k/4PP2/8/8 b - - 0 59",
            "1rb1kq1r/3p1nbp/1pp5/p3pNP1/1PP1Pp2/P2P4/3B1P2/R2QKBR1 b Qk - 0 15"]
TRAINING = ["3B4/8/8/6Pp/k2p1n2/7B/3N4/5K2 w - - 6 55",
            "2r3nk/4q1p1/p3r1bp/p1p1pp2/2Pp4/1P1P2PP/RQ1NPP2/R3N1K1 w - - 8 35"]


class ScriptedEngine:
    """Answers each `go` with the next scripted best move."""

    def __init__(self, moves):
        self.moves = list(moves)
        self.sent = []

    def send(self, line):
        self.sent.append(line)

    def read_until(self, prefix):
        if prefix == "bestmove":
            return ["info depth 1", f"bestmove {self.moves.pop(0)}"]
        return [prefix]


class StockfishAgreementTest(unittest.TestCase):
    def test_scores_convert_as_the_shards_do(self):
        win = stockfish_agreement.win_probability
        self.assertEqual(win("0"), 0.5)
        self.assertAlmostEqual(win("100"), 1 / (1 + math.exp(-0.368208)))
        self.assertAlmostEqual(win("-250"), 1 - win("250"))
        self.assertEqual(win("m3"), 1.0)
        self.assertEqual(win("m-2"), 0.0)
        for bad in ("m0", "12x", "", "m"):
            self.assertIsNone(win(bad), bad)

    def test_held_out_positions_are_the_splits_in_file_order(self):
        lines = [f"{TRAINING[0]}\te2e4:10", f"{HELD_OUT[0]}\th4g4:-300 h4h3:-310",
                 "not a line", f"{TRAINING[1]}\ta2a5:-83", f"{HELD_OUT[1]}\tf7d6:12 e8d8:x",
                 f"{HELD_OUT[1]}\tf7d6:12 e8d8:m-1"]
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        try:
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                chosen = stockfish_agreement.held_out_positions(f.name, 10, 3)
                everything = stockfish_agreement.held_out_positions(f.name, 10, 100)
                first = stockfish_agreement.held_out_positions(f.name, 1, 3)
        finally:
            os.unlink(f.name)
        self.assertEqual([fen for fen, _ in chosen], [HELD_OUT[0], HELD_OUT[1]])
        self.assertEqual(chosen[1][1], {"f7d6": stockfish_agreement.win_probability("12"),
                                        "e8d8": 0.0})
        self.assertEqual(len(everything), 4)
        self.assertEqual([fen for fen, _ in first], [HELD_OUT[0]])
        self.assertIn(":3: expected FEN<TAB>moves, skipped", err.getvalue())
        self.assertIn(":5: malformed move value, skipped", err.getvalue())

    def test_a_hit_is_a_move_with_the_best_labelled_value(self):
        positions = [
            ("fen-best", {"a": 0.7, "b": 0.4}),          # picks the best: hit
            ("fen-mates", {"a": 1.0, "b": 1.0, "c": 0.2}),  # a mate, tied with another: hit
            ("fen-worse", {"a": 0.3, "b": 0.6}),         # picks a worse move: miss
            ("fen-unlabelled", {"a": 0.5}),              # picks a move without a label: miss
        ]
        engine = ScriptedEngine(["a", "b", "a", "z"])
        self.assertEqual(stockfish_agreement.agreement(engine, positions, 5), 0.5)
        self.assertIn("position fen fen-worse", engine.sent)
        self.assertEqual(engine.sent.count("go depth 5"), 4)
        self.assertEqual(engine.sent.count("ucinewgame"), 4)  # a cleared hash per position


if __name__ == "__main__":
    unittest.main()
