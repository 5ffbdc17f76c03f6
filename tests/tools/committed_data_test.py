"""The bounds issue 69 set on what is committed under weights/, held on the repository itself:
the landed labels at most 4 bytes a position, their manifest true to its files, and every
candidate net at most land_candidate.py's size with a lineage row that names its labels."""

import glob
import json
import os
import unittest

from tools.data import land
from tools.data.prepare import file_sha256

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LABELS = os.path.join(ROOT, "weights", "labels")
CANDIDATES = os.path.join(ROOT, "weights", "candidates")

# Issue 69's budget for the committed, compressed games (weights/labels/README.md gives the
# format's cost, about 3 bytes).
MAX_BYTES_PER_POSITION = 4.0

try:
    from tools.train import land_candidate  # imports torch
except ImportError:
    land_candidate = None


class LandedLabelsTest(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(LABELS, "manifest.json")) as file:
            self.manifest = json.load(file)

    def test_every_listed_file_is_committed_with_its_bytes_and_hash(self):
        for entry in self.manifest["files"]:
            path = os.path.join(LABELS, entry["path"])
            self.assertTrue(os.path.isfile(path), f"{entry['path']} is listed but missing")
            self.assertEqual(os.path.getsize(path), entry["bytes"], entry["path"])
            self.assertEqual(file_sha256(path), entry["sha256"], entry["path"])

    def test_no_label_file_lies_outside_the_manifest(self):
        listed = {entry["path"] for entry in self.manifest["files"]}
        on_disk = {os.path.basename(p) for p in glob.glob(os.path.join(LABELS, "*.games.xz"))}
        self.assertEqual(on_disk - listed, set())

    def test_the_totals_and_hash_are_those_of_the_files(self):
        self.assertEqual(self.manifest["totals"], land.totals(self.manifest["files"]))
        self.assertEqual(self.manifest["hash"], land.manifest_hash(self.manifest["files"]))

    def test_the_labels_cost_at_most_four_bytes_a_position(self):
        totals = self.manifest["totals"]
        self.assertLessEqual(totals["bytes"] / totals["positions"], MAX_BYTES_PER_POSITION)


class CandidatesTest(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(CANDIDATES, "lineage.jsonl")) as file:
            self.rows = {row["name"]: row for row in map(json.loads, file)}

    @unittest.skipUnless(land_candidate, "needs torch (python3-torch) for land_candidate.py")
    def test_every_candidate_is_within_the_size_a_candidate_may_have(self):
        for path in glob.glob(os.path.join(CANDIDATES, "*.safetensors")):
            self.assertLessEqual(os.path.getsize(path), land_candidate.MAX_BYTES, path)

    def test_every_candidate_has_a_row_naming_its_parent_and_labels(self):
        for path in glob.glob(os.path.join(CANDIDATES, "*.safetensors")):
            name = os.path.basename(path).removesuffix(".safetensors")
            self.assertIn(name, self.rows, f"{name} has no lineage row")
            self.assertTrue(self.rows[name].get("parent"), name)
            self.assertRegex(self.rows[name].get("labels") or "", "^[0-9a-f]{16}$", name)


if __name__ == "__main__":
    unittest.main()
