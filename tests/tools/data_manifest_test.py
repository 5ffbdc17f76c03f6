"""tools/data/manifest.py and prepare.py: the manifest lists every labelled file with its
recipe, positions, cost and hash; a staged manifest reads exactly the bytes it hashed however
far the file has grown, refuses a file rewritten under it, and holds out whole games.

Usage: data_manifest_test.py AVOCET_BINARY (CTest passes the built one)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Modules of the package: CTest puts the repository on PYTHONPATH.
MANIFEST = ["-m", "tools.data.manifest"]
PREPARE = ["-m", "tools.data.prepare"]
AVOCET = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "avocet")

# Two games of a labeller file: a game starts where the full-move number falls.
GAME_A = ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\te7e5:20 d7d5:?\n",
          "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\tg1f3:30\n"]
GAME_B = ["rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\td7d5:10 g8f6:5\n"]


def run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True)


class ManifestTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = os.path.join(self.folder.name, "labels")
        recipe_folder = os.path.join(self.root, "recipe-x")
        os.makedirs(recipe_folder)
        with open(os.path.join(recipe_folder, "recipe.json"), "w") as out:
            json.dump({"recipe": {"depth": 5, "multipv": 1},
                       "files": {"sf-seed1-worker0.tsv": {"seed": 1,
                                                          "engine_cpu_seconds": 1.8}}}, out)
        self.tsv = os.path.join(recipe_folder, "sf-seed1-worker0.tsv")
        with open(self.tsv, "w") as out:
            out.writelines(GAME_A + GAME_B)
            # unfinished
            out.write("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\td7d5")
        self.external = os.path.join(self.folder.name, "ext.tsv")
        with open(self.external, "w") as out:
            out.write("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:35 e1d1:-20\n"
                      # a partial label: `*:?` stands for the moves not listed, counted as none
                      "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1\td2d4:10 e1d1:? *:?\n")

    def tearDown(self):
        self.folder.cleanup()

    def manifest(self):
        result = run(*MANIFEST, self.root, "--external", self.external)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(os.path.join(self.root, "manifest.json")) as file:
            return json.load(file)

    def test_files_recipes_costs_and_hashes(self):
        m = self.manifest()
        labeller, external = m["files"]
        self.assertEqual(labeller["positions"], 3)  # the unfinished line is not counted
        self.assertEqual((labeller["scored_moves"], labeller["unscored_moves"]), (4, 1))
        self.assertEqual(labeller["recipe"], {"depth": 5, "multipv": 1})
        self.assertEqual(labeller["positions_per_core_hour"], 6000)  # 3 in 1.8 s
        self.assertTrue(external["external"])
        self.assertEqual((external["positions"], external["scored_moves"],
                          external["unscored_moves"]), (2, 3, 1))
        self.assertEqual(m["recipes"]["recipe-x"]["positions"], 3)
        self.assertTrue(os.path.exists(os.path.join(self.root, "manifests", m["hash"] + ".json")))
        with open(self.tsv, "a") as out:
            out.write("\n")  # the unfinished line is finished: the file, so the manifest, grows
        self.assertNotEqual(self.manifest()["hash"], m["hash"])

    def test_prepare_reads_what_was_hashed_and_holds_out_whole_games(self):
        old = self.manifest()
        with open(self.tsv, "a") as out:
            out.write("\n" + "".join(GAME_A))  # grown since
        staged = os.path.join(self.folder.name, "staged")
        archived = os.path.join(self.root, "manifests", old["hash"] + ".json")
        result = run(*PREPARE, archived, "-o", staged, "--avocet", AVOCET,
                     "--held-out-percent", "100")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("recipe-x: 0 positions to train, 3 held out", result.stdout)
        self.assertIn("ext: 2 positions to train, 0 held out", result.stdout)
        self.assertEqual(sorted(os.listdir(os.path.join(staged, "held-out"))),
                         ["recipe-x-games-000.shard"])  # apart from the train side's
        judge = os.path.join(self.root, "judge-y")
        os.makedirs(judge)
        with open(os.path.join(judge, "recipe.json"), "w") as out:
            json.dump({"recipe": {"depth": 12}, "files": {}}, out)
        with open(os.path.join(judge, "sf-seed2-worker0.tsv"), "w") as out:
            out.writelines(GAME_A + GAME_B)
        archived = os.path.join(self.root, "manifests", self.manifest()["hash"] + ".json")
        result = run(*PREPARE, archived, "-o", staged, "--avocet", AVOCET,
                     "--held-out-percent", "0")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("judge-y: 0 positions to train, 3 held out", result.stdout)  # whole
        self.assertIn("recipe-x: 6 positions to train, 0 held out", result.stdout)  # grown
        with open(self.tsv, "r+") as out:
            out.write("8")  # rewritten, not grown
        result = run(*PREPARE, archived, "-o", staged, "--avocet", AVOCET)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("no longer match the manifest's hash", result.stderr)


if __name__ == "__main__":
    unittest.main()
