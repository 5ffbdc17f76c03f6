"""tools/measure/lichess_bot_check.py without lichess-bot: the typing of --option values as
lichess-bot's YAML would type them, and one clear line for each kind of bad input (no checkout,
a malformed option, an engine that is not there, a checkout whose modules do not import)."""

import os
import subprocess
import sys
import tempfile
import unittest

from tools.measure import lichess_bot_check

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# A module of the package, run from the repository (on PYTHONPATH under CTest).
SCRIPT = ["-m", "tools.measure.lichess_bot_check"]


def run(*args):
    return subprocess.run([sys.executable, *SCRIPT, *args], capture_output=True, text=True)


class LichessBotCheckTest(unittest.TestCase):
    def test_option_values_are_typed_as_yaml_types_them(self):
        self.assertIs(lichess_bot_check.option_value("true"), True)
        self.assertIs(lichess_bot_check.option_value("False"), False)
        self.assertEqual(lichess_bot_check.option_value("1450"), 1450)
        self.assertEqual(lichess_bot_check.option_value("/path/to/syzygy"), "/path/to/syzygy")

    def test_bad_input_is_one_clear_line(self):
        with tempfile.TemporaryDirectory() as folder:
            out = run("--lichess-bot", folder)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("not a lichess-bot checkout (no test_bot/lichess.py)", out.stderr)

            out = run("--lichess-bot", folder, "--option", "UCI_Elo")
            self.assertIn("--option 'UCI_Elo': expected NAME=VALUE", out.stderr)

            os.makedirs(os.path.join(folder, "test_bot"))
            open(os.path.join(folder, "test_bot", "lichess.py"), "w").close()
            out = run("--lichess-bot", folder, "--engine", os.path.join(folder, "avocet"))
            self.assertIn("avocet: not an executable engine", out.stderr)

            # A checkout without lib/: its modules cannot be imported.
            out = run("--lichess-bot", folder, "--engine", sys.executable,
                      "--python-chess", folder)
            self.assertNotEqual(out.returncode, 0)
            self.assertIn("cannot import lichess-bot's modules", out.stderr)
            self.assertEqual(len(out.stderr.strip().splitlines()), 1, out.stderr)


if __name__ == "__main__":
    unittest.main()
