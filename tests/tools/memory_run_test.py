"""tools/measure/memory_run.py on the real engine at a small Hash: a short `go infinite` at
Hash 2 stays within the idle process plus Hash (the long runs at Hash 16 and 256 are the
benchmark, in a results log); and tools/measure/depth_times.py still finds the bench positions
where they are defined."""

import os
import subprocess
import sys
import unittest

from tools.measure import depth_times

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AVOCET = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "avocet")


class MemoryRunTest(unittest.TestCase):
    @unittest.skipUnless(sys.platform.startswith("linux"), "reads /proc")
    def test_a_short_search_at_a_small_hash_stays_within_its_bound(self):
        out = subprocess.run([sys.executable, "-m", "tools.measure.memory_run", AVOCET,
                              "--hash", "2", "--seconds", "3"],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("within the bound", out.stdout)
        self.assertIn("Hash 2 MB, go infinite 3 s", out.stdout)

    def test_bad_arguments_are_one_clear_line(self):
        out = subprocess.run([sys.executable, "-m", "tools.measure.memory_run", AVOCET,
                              "--hash", "0"], capture_output=True, text=True)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("--hash must be >= 1", out.stderr)


class DepthTimesTest(unittest.TestCase):
    def test_the_bench_positions_are_found(self):
        fens = depth_times.bench_positions()
        self.assertEqual(len(fens), 10)
        self.assertTrue(all(len(fen.split()) == 6 for fen in fens), fens)


if __name__ == "__main__":
    unittest.main()
