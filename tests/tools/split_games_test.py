"""tools/data/split_games.py: games found where the full-move number falls, whole games on each
side, and the same games held out however far the file has grown."""

import os
import subprocess
import sys
import tempfile
import unittest

from tools.data import split_games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def game(first_move, plies, tag):
    """`plies` annotation lines of one game from full move `first_move`, each FEN's board
    field made distinct by `tag` (the hash reads the first position's whole FEN)."""
    lines = []
    for ply in range(plies):
        side, move = ("w", "b")[ply % 2], first_move + ply // 2
        lines.append(f"{tag}/8/8/8/8/8/8/8 {side} - - 0 {move}\te2e4:{ply}\n")
    return lines


class SplitGamesTest(unittest.TestCase):
    def test_a_game_starts_where_the_move_number_falls(self):
        lines = game(9, 7, "k7") + game(5, 3, "1k6") + game(5, 4, "2k5")
        self.assertEqual([len(g) for g in split_games.games(lines)], [7, 3, 4])

    def test_whole_games_on_each_side_and_the_same_games_after_the_file_grows(self):
        all_games = [game(4 + i % 5, 6 + i % 7, f"{i}k") for i in range(40)]
        with tempfile.TemporaryDirectory() as folder:
            def split(count, percent=30):
                source = os.path.join(folder, "in.tsv")
                with open(source, "w") as out:
                    out.writelines(line for g in all_games[:count] for line in g)
                train, held = os.path.join(folder, "train.tsv"), os.path.join(folder, "held.tsv")
                script = "tools.data.split_games"
                subprocess.run([sys.executable, "-m", script,
                                source, train, held, "--held-out-percent", str(percent)],
                               check=True, capture_output=True)
                return open(train).readlines(), open(held).readlines()

            train, held = split(40)
            self.assertEqual(len(train) + len(held), sum(len(g) for g in all_games))
            held_games = [g for g in all_games if g[0] in held]
            self.assertTrue(0 < len(held_games) < 40)
            for g in all_games:  # each game whole on one side
                self.assertTrue(set(g) <= set(held) or set(g) <= set(train))
            _, held_early = split(25)
            self.assertEqual(held_early, [line for g in all_games[:25] if g[0] in held
                                          for line in g])

    def test_a_line_without_a_fen_is_named(self):
        with self.assertRaisesRegex(ValueError, "line 2: 'not a fen' does not start with a FEN"):
            list(split_games.games(game(1, 1, "k7") + ["not a fen\n"]))


if __name__ == "__main__":
    unittest.main()
