"""tools/dev/include_graph.py on tiny source trees: modules and their edge counts, includes
resolved beside the file and under include/, a file-level cycle named and failing, a
module-level cycle only warned about."""

import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A module of the package, run from the repository (on PYTHONPATH under CTest).
SCRIPT = ["-m", "tools.dev.include_graph"]


def make_tree(folder, files):
    """files: repository-relative path -> the paths it includes, as written in the source."""
    for path, includes in files.items():
        full = os.path.join(folder, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as out:
            out.write("#pragma once\n#include <vector>\n")
            out.writelines(f'#include "{name}"\n' for name in includes)


def run(files, *options):
    with tempfile.TemporaryDirectory() as folder:
        make_tree(folder, files)
        result = subprocess.run([sys.executable, *SCRIPT, "--root", folder, *options],
                                capture_output=True, text=True)
    return result.returncode, result.stdout


class IncludeGraphTest(unittest.TestCase):
    def test_acyclic_tree_gives_module_edges_and_mermaid(self):
        code, out = run({
            "include/avocet/chess/board.h": [],
            "include/avocet/search/search.h": ["avocet/chess/board.h"],
            "src/search/search.cpp": ["avocet/search/search.h", "avocet/chess/board.h",
                                      "helper.h"],
            "src/search/helper.h": [],
            "src/main.cpp": ["avocet/search/search.h", "no/such/header.h"],
        })
        self.assertEqual(code, 0, out)
        self.assertIn("5 files, 5 includes between them, 3 modules, 2 module edges", out)
        self.assertIn("  search -> chess: 2\n", out)
        self.assertIn("  main -> search: 1\n", out)
        self.assertIn("  chess -> (none)\n", out)
        self.assertIn("graph TD\n", out)
        self.assertIn('  search["search (3 files)"]\n', out)
        self.assertIn('  main["main (1 file)"]\n', out)
        self.assertIn("  search -->|2| chess\n", out)
        self.assertNotIn("search -> search", out)  # includes within a module are no edge
        self.assertIn("no file-level include cycle", out)
        self.assertNotIn("cycle:", out)

    def test_file_cycle_is_named_and_fails(self):
        code, out = run({
            "include/avocet/nn/a.h": ["avocet/nn/b.h"],
            "include/avocet/nn/b.h": ["c.h"],  # beside b.h
            "include/avocet/nn/c.h": ["avocet/nn/a.h"],
            "src/nn/d.cpp": ["avocet/nn/a.h"],
        })
        self.assertEqual(code, 1, out)
        self.assertIn("error: include cycle: include/avocet/nn/a.h -> include/avocet/nn/b.h -> "
                      "include/avocet/nn/c.h -> include/avocet/nn/a.h", out)
        self.assertNotIn("no file-level include cycle", out)

    def test_self_include_is_a_cycle(self):
        code, out = run({"src/uci/loop.h": ["loop.h"]})
        self.assertEqual(code, 1, out)
        self.assertIn("error: include cycle: src/uci/loop.h -> src/uci/loop.h", out)

    def test_module_cycle_without_file_cycle_only_warns(self):
        code, out = run({
            "include/avocet/a/one.h": ["avocet/b/two.h"],
            "include/avocet/b/two.h": [],
            "include/avocet/b/three.h": ["avocet/a/four.h"],
            "include/avocet/a/four.h": [],
        })
        self.assertEqual(code, 0, out)
        self.assertIn("warning: module cycle: a -> b -> a", out)
        self.assertIn("no file-level include cycle", out)

    def test_depth_two_splits_subfolders(self):
        files = {
            "src/nn/kernels/gemm.cpp": ["avocet/nn/kernels/gemm.h"],
            "include/avocet/nn/kernels/gemm.h": [],
            "src/nn/network.cpp": ["avocet/nn/kernels/gemm.h"],
        }
        code, out = run(files, "--depth", "2", "--format", "text")
        self.assertEqual(code, 0, out)
        self.assertIn("  nn -> nn/kernels: 1\n", out)
        self.assertNotIn("graph TD", out)
        code, out = run(files, "--format", "mermaid")
        self.assertIn('  nn["nn (3 files)"]\n', out)
        self.assertNotIn("module edges (from", out)


if __name__ == "__main__":
    unittest.main()
