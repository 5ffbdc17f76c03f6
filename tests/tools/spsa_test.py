"""tools/measure/spsa.py: fishtest's gains, a tuner that finds a known optimum against a
noiseless oracle, bad parameters in one line, and a stopped run that resumes to exactly the
values of one that never stopped (through a fake fastchess that scores by the distance to an
optimum)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from tools.measure import spsa

SCRIPT = ["-m", "tools.measure.spsa"]

# A fastchess stand-in: reads the two engines' option.CPuct and writes a log in which the one
# nearer 1400 wins every game of its --rounds pairs (a draw on a tie).
FAKE_FASTCHESS = r'''#!/usr/bin/env python3
import sys
args = sys.argv[1:]
values, rounds, name = {}, 1, None
for i, word in enumerate(args):
    if word.startswith("name="):
        name = word[5:]
    if word.startswith("option.CPuct="):
        values[name] = int(word.split("=")[1])
    if word == "-rounds":
        rounds = int(args[i + 1])
games = 2 * rounds
distance = {n: abs(v - 1400) for n, v in values.items()}
wins = games if distance["plus"] < distance["minus"] else 0
losses = games if distance["plus"] > distance["minus"] else 0
print(f"Results of plus vs minus (10+0.1, 1t, 16MB, book.epd):")
print(f"Games: {games}, Wins: {wins}, Losses: {losses}, Draws: {games - wins - losses}, "
      "Points: 0")
'''


class SpsaTest(unittest.TestCase):
    def test_gains_reach_c_end_and_r_end_at_the_last_pair(self):
        p = spsa.Parameter.parse("CPuct=1075,300,4000,150,0.002")
        schedule = spsa.Schedule(1000)
        self.assertAlmostEqual(schedule.c_k(p, 1000), 150)
        self.assertAlmostEqual(schedule.r_k(p, 1000), 0.002)
        self.assertGreater(schedule.c_k(p, 1), schedule.c_k(p, 500))
        self.assertAlmostEqual(schedule.c_k(p, 1), 150 * 1000 ** spsa.GAMMA)

    def test_probes_are_clamped_integers(self):
        p = spsa.Parameter.parse("MinimaxBlend=95,0,100,8,0.002")
        plus, minus = spsa.probes([p], spsa.Schedule(100), 100, [1])
        self.assertEqual((plus["MinimaxBlend"], minus["MinimaxBlend"]), (100, 87))

    def test_a_noiseless_oracle_is_found(self):
        p = spsa.Parameter.parse("CPuct=1000,300,4000,60,0.05")
        schedule = spsa.Schedule(400)
        for k in range(1, 401):
            flips = [1 if k % 3 else -1]
            plus, minus = spsa.probes([p], schedule, k, flips)
            result = 2 if abs(plus["CPuct"] - 1400) < abs(minus["CPuct"] - 1400) else -2
            spsa.update([p], schedule, k, flips, result)
        self.assertLess(abs(p.theta - 1400), 60, p.theta)

    def test_bad_parameters_are_one_clear_line(self):
        for text, message in (("CPuct", "expected NAME=START,MIN,MAX,C_END,R_END"),
                              ("CPuct=1,2,3", "expected NAME=START,MIN,MAX,C_END,R_END"),
                              ("CPuct=a,0,9,1,1", "are numbers"),
                              ("CPuct=10,0,9,1,1", "START must lie in [MIN, MAX]"),
                              ("CPuct=5,0,9,0,1", "C_END and R_END must be above 0")):
            with self.assertRaises(ValueError) as caught:
                spsa.Parameter.parse(text)
            self.assertIn(message, str(caught.exception))

    def run_tool(self, folder, state, *extra):
        fake = os.path.join(folder, "fastchess")
        if not os.path.exists(fake):
            with open(fake, "w") as file:
                file.write(FAKE_FASTCHESS)
            os.chmod(fake, 0o755)
        book = os.path.join(folder, "book.epd")
        with open(book, "w") as file:
            file.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n")
        return subprocess.run([sys.executable, *SCRIPT, "--engine", "/bin/true", "--state",
                               state, "--fastchess", fake, "--book", book, "--pairs", "60",
                               "--batch", "2", *extra], capture_output=True, text=True)

    def test_a_stopped_run_resumes_to_the_values_of_one_that_never_stopped(self):
        param = ["--param", "CPuct=1000,300,4000,60,0.05"]
        with tempfile.TemporaryDirectory() as folder:
            whole = os.path.join(folder, "whole.json")
            out = self.run_tool(folder, whole, *param)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("60 of 60 pairs", out.stdout)
            self.assertIn("--set CPuct=", out.stdout)

            parts = os.path.join(folder, "parts.json")
            out = self.run_tool(folder, parts, *param, "--steps", "7")
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("14 of 60 pairs", out.stdout)
            # Resumed: its parameters come from the state, and naming them again is refused.
            again = self.run_tool(folder, parts, *param)
            self.assertNotEqual(again.returncode, 0)
            self.assertIn("exists; its parameters are kept", again.stderr)
            out = self.run_tool(folder, parts)
            self.assertEqual(out.returncode, 0, out.stderr)
            with open(whole) as a, open(parts) as b:
                whole_state, parts_state = json.load(a), json.load(b)
            self.assertEqual(whole_state["params"], parts_state["params"])
            self.assertEqual(len(parts_state["steps"]), 30)
            self.assertGreater(parts_state["params"][0]["theta"], 1000)

    def test_a_failed_fastchess_keeps_the_steps_before_it(self):
        with tempfile.TemporaryDirectory() as folder:
            state = os.path.join(folder, "run.json")
            out = self.run_tool(folder, state, "--param", "CPuct=1000,300,4000,60,0.05",
                                "--steps", "2")
            self.assertEqual(out.returncode, 0, out.stderr)
            os.remove(os.path.join(folder, "fastchess"))
            with open(os.path.join(folder, "fastchess"), "w") as file:
                file.write("#!/bin/sh\nexit 3\n")
            os.chmod(os.path.join(folder, "fastchess"), 0o755)
            out = self.run_tool(folder, state)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("fastchess exited with 3 at step 5", out.stderr)
            with open(state) as file:
                self.assertEqual(json.load(file)["done"], 4)
            with open(state, "w") as file:
                file.write("{not json")
            out = self.run_tool(folder, state)
            self.assertIn("not a state file this tool wrote", out.stderr)


if __name__ == "__main__":
    unittest.main()
