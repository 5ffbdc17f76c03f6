"""tools/data/labels.py and land.sh: the Python reader of labelled games against the committed
fixture (whose .lines file the C++ test reads too), damaged and cut-short files named by game,
and landing an empty and a non-empty labeller folder into a repository."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from tools.data import labels

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


FIXTURE = os.path.join(ROOT, "tests", "data", "labels", "four-games.games")


def read_all(path, allow_cut_short=False):
    header, games = labels.games_of_file(path, allow_cut_short)
    return header, list(games)


class ReaderTest(unittest.TestCase):
    def test_the_fixture_reads_as_its_golden_lines(self):
        header, games = read_all(FIXTURE)
        self.assertEqual(header["recipe"]["depth"], 11)
        self.assertEqual(len(games), 4)
        lines = [line for g in games for line in labels.annotation_lines(g)]
        with open(FIXTURE.replace(".games", ".lines")) as golden:
            self.assertEqual(lines, golden.readlines())

    def test_scores_round_trip_through_the_column_code(self):
        scores = [0, 35, -40, 31997, -31998, 30000, -30000, 12, 12, -5]
        codes, previous = [], 0
        for s in scores:  # the writer's code, as game_record.cpp computes it
            total = ((s + previous + 32768) & 0xFFFF) - 32768
            codes.append(((total << 1) ^ (total >> 15)) & 0xFFFF)
            previous = s
        self.assertEqual(labels.decode_scores(codes), scores)
        self.assertEqual([labels.decode_score(s) for s in (35, 31997, -31998)],
                         ["35", "m3", "m-2"])

    def test_a_board_replays_castling_en_passant_and_promotion(self):
        board = labels.Board("r3k2r/8/8/8/4p3/8/3P2P1/R3K2R w KQkq - 0 1")
        for move in ("d2d4", "e4d3", "e1g1", "e8c8", "g2g4"):
            board.play(move)
        self.assertEqual(board.fen(), "2kr3r/8/8/8/6P1/3p4/8/R4RK1 b - - 0 3")
        board = labels.Board("8/P7/8/8/8/8/7k/K7 w - - 3 9")
        board.play("a7a8n")
        self.assertEqual(board.fen(), "N7/8/8/8/8/8/7k/K7 b - - 0 9")

    def damaged_copy_fails_at_game_4(self, data, name, why):
        """Writes `data` as `name` and reads it: the error names game 4 and `why`, and the
        three games before it were yielded. Returns the file's path (in a folder kept open)."""
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        path = os.path.join(folder.name, name)
        with open(path, "wb") as out:
            out.write(data)
        _, games = labels.games_of_file(path)
        kept = []
        with self.assertRaisesRegex(labels.LabelError, rf"{name}: game 4 .*{why}"):
            for game in games:
                kept.append(game)
        self.assertEqual(len(kept), 3)
        return path

    def test_a_cut_short_file_names_the_game_and_keeps_the_ones_before(self):
        with open(FIXTURE, "rb") as file:
            data = file.read()
        path = self.damaged_copy_fails_at_game_4(data[:-7], "cut.games", "cut short")
        # The labeller's file being written: its last game waits, quietly.
        self.assertEqual(len(read_all(path, allow_cut_short=True)[1]), 3)

    def test_a_damaged_byte_names_its_game(self):
        with open(FIXTURE, "rb") as file:
            data = bytearray(file.read())
        data[-30] ^= 0x10  # inside the last game
        path = self.damaged_copy_fails_at_game_4(bytes(data), "bad.games", "checksum")
        with open(path, "wb") as out:
            out.write(b"FEN\tmoves\n")
        with self.assertRaisesRegex(labels.LabelError, "not a labelled-games file"):
            labels.games_of_file(path)


class LandTest(unittest.TestCase):
    """land.sh in a repository of its own: nothing to land, then two landings of a growing
    labeller file, each taking only the whole games written since the last."""

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.repo = os.path.join(self.folder, "repo")
        os.makedirs(os.path.join(self.repo, "tools", "data"))
        for name in ("__init__.py", "data/__init__.py", "data/land.sh", "data/land.py",
                     "data/labels.py"):
            shutil.copy(os.path.join(ROOT, "tools", name), os.path.join(self.repo, "tools", name))
        self.git("init", "-q")
        self.git("add", ".")
        self.git("commit", "-qm", "start")
        self.data = os.path.join(self.folder, "data")
        os.makedirs(self.data)

    def tearDown(self):
        shutil.rmtree(self.folder)

    def git(self, *args):
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
        return subprocess.run(["git", "-C", self.repo, *args], env=env, check=True,
                              capture_output=True, text=True).stdout

    def land(self):
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
        result = subprocess.run(["bash", os.path.join(self.repo, "tools", "data", "land.sh"),
                                 self.data], env=env, capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def write_labeller_file(self, size):
        """The labeller's folder holding the fixture's first `size` bytes."""
        with open(FIXTURE, "rb") as file:
            data = file.read()
        header, _ = read_all(FIXTURE)
        recipe = os.path.join(self.data, "noob-d11-pv")
        os.makedirs(recipe, exist_ok=True)
        with open(os.path.join(recipe, "recipe.json"), "w") as out:
            json.dump({"recipe": header["recipe"], "files": {}}, out)
        with open(os.path.join(recipe, "sf-seed9-worker0.games"), "wb") as out:
            out.write(data[:size])

    def test_an_empty_folder_lands_nothing(self):
        self.assertIn("nothing to land", self.land())
        os.makedirs(os.path.join(self.data, "noob-d11-pv"))
        self.assertIn("nothing to land", self.land())
        self.assertEqual(self.git("log", "--format=%s").split("\n")[0], "start")

    def test_landings_take_the_new_whole_games_once(self):
        size = os.path.getsize(FIXTURE)
        plies = [len(g.plies) for g in read_all(FIXTURE)[1]]
        self.write_labeller_file(size - 100)  # the fourth game still being written
        self.land()
        self.assertEqual(self.git("log", "-1", "--format=%s").strip(),
                         f"data: land {sum(plies[:3])} positions of noob-d11-pv")
        self.assertIn("nothing to land", self.land())
        self.write_labeller_file(size)
        self.land()
        self.assertEqual(self.git("log", "-1", "--format=%s").strip(),
                         f"data: land {plies[3]} positions of noob-d11-pv")
        labels_dir = os.path.join(self.repo, "weights", "labels")
        with open(os.path.join(labels_dir, "manifest.json")) as file:
            manifest = json.load(file)
        self.assertEqual(manifest["totals"]["positions"], 380)
        self.assertEqual(manifest["totals"]["games"], 4)
        self.assertEqual(len(manifest["landings"]), 2)
        self.assertNotEqual(manifest["landings"][0]["hash"], manifest["landings"][1]["hash"])
        # The landed files hold the fixture's games, in order, byte for byte.
        games = []
        for entry in manifest["files"]:
            games += read_all(os.path.join(labels_dir, entry["path"]))[1]
        self.assertEqual([g.raw for g in games], [g.raw for g in read_all(FIXTURE)[1]])
        self.assertEqual(self.git("status", "--porcelain"), "")


class PrepareTest(unittest.TestCase):
    """prepare.py --labels: the landed games staged as shards, games held out by their CRC and
    never on both sides, each position once."""

    def test_landed_labels_are_staged_by_game(self):
        if not AVOCET:
            self.skipTest("no avocet binary given")
        from tools.data import land
        from tools.data import prepare
        with tempfile.TemporaryDirectory() as folder:
            data = os.path.join(folder, "data", "noob-d11-pv")
            os.makedirs(data)
            header, _ = read_all(FIXTURE)
            with open(os.path.join(data, "recipe.json"), "w") as out:
                json.dump({"recipe": header["recipe"], "files": {}}, out)
            shutil.copy(FIXTURE, os.path.join(data, "sf-seed9-worker0.games"))
            labels_dir = os.path.join(folder, "labels")
            land.land(os.path.join(folder, "data"), labels_dir)
            out = os.path.join(folder, "staged")
            manifest, counts = prepare.stage_labels(os.path.join(labels_dir, "manifest.json"),
                                                    out, 50)
            c = counts["noob-d11-pv"]
            self.assertEqual(c["train"] + c["held-out"] + c["repeats"], 380)
            self.assertGreater(c["train"], 0)
            self.assertGreater(c["held-out"], 0)
            train = os.path.join(out, "tsv", "train", "noob-d11-pv.tsv")
            held = os.path.join(out, "tsv", "held-out", "noob-d11-pv-games.tsv")
            with open(train) as a, open(held) as b:
                train_keys = {labels.position_key(line) for line in a}
                held_keys = {labels.position_key(line) for line in b}
            self.assertEqual(train_keys & held_keys, set())
            self.assertEqual(len(train_keys), c["train"])
            # The whole command, shards included, through the built binary.
            result = subprocess.run(
                [sys.executable, "-m", "tools.data.prepare", "--labels",
                 os.path.join(labels_dir, "manifest.json"), "-o", out, "--avocet", AVOCET,
                 "--held-out-percent", "50"],
                capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn(f"manifest {manifest['hash']} staged", result.stdout)
            self.assertTrue(os.listdir(os.path.join(out, "train")))
            self.assertTrue(os.listdir(os.path.join(out, "held-out")))


AVOCET = sys.argv.pop(1) if len(sys.argv) > 1 else None

if __name__ == "__main__":
    unittest.main()
