"""tools/train.py's GPU-scale pieces without a GPU: the vectorised move gathering of
batches.Batches.make against the per-row loop it replaced, --keep-best's choice of weights,
and validation logs holding numpy floats (numpy 2 scalars, which json cannot write by itself).
Needs torch and numpy (python3-torch); exits 77, which CTest counts as skipped, without them."""

import json
import os
import sys
import tempfile
import types
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
try:
    import numpy as np
    import torch
except ImportError:
    print("skipped: needs numpy and torch (python3-torch)")
    sys.exit(77)

import shards as shard_io  # noqa: E402
import train  # noqa: E402
from batches import Batches  # noqa: E402


def positions(counts, seed=1):
    """Synthetic shard data: len(counts) positions with counts[i] labelled moves each."""
    rng = np.random.default_rng(seed)
    n, m = len(counts), int(sum(counts))
    return shard_io.Positions(
        tokens=rng.integers(0, 20, (n, 77)).astype(np.uint8),
        offsets=np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
        actions=rng.integers(0, len(shard_io.ACTIONS), m).astype(np.int64),
        wins=rng.random(m).astype(np.float32),
        squares=rng.integers(0, 3, (n, 64, 2)).astype(np.uint8),
        moves=rng.integers(0, 3, (m, 3)).astype(np.uint8),
        square_groups=[("a", 3), ("b", 3)], move_groups=[("c", 3)] * 3)


class BatchesTest(unittest.TestCase):
    def test_moves_gathered_per_row_in_order(self):
        counts = [3, 1, 7, 2, 5, 4, 9, 1]
        data = positions(counts)
        rows = np.array([6, 0, 6, 3, 7, 2])   # repeats and any order, as random batches are
        *inputs, wins, batch_counts = Batches(data, mirror=False, device="cpu").make(rows)
        loop = np.concatenate([np.arange(data.offsets[r], data.offsets[r + 1]) for r in rows])
        np.testing.assert_array_equal(batch_counts.numpy(), [counts[r] for r in rows])
        np.testing.assert_array_equal(wins.numpy(), data.wins[loop])
        np.testing.assert_array_equal(inputs[6].numpy(), data.moves[loop])
        np.testing.assert_array_equal(inputs[4].numpy(), np.repeat(np.arange(len(rows)),
                                                                  [counts[r] for r in rows]))


class KeepBestTest(unittest.TestCase):
    def test_keeps_the_lowest_mean_loss_and_a_copy_of_its_weights(self):
        model = torch.nn.Linear(2, 1)
        best = train.BestWeights()
        sets = ["x", "y"]
        for step, (lx, ly) in enumerate([(3.0, 3.2), (2.0, 2.2), (2.6, 1.8), (2.5, 2.4)], 1):
            with torch.no_grad():
                model.weight.fill_(step)
            best.offer(model, {"x": {"val_loss": np.float32(lx)},
                               "y": {"val_loss": np.float32(ly)}}, step, sets)
        # Step 2 (mean 2.1) and step 3 (mean 2.2): the lower mean wins, not the lower first set.
        self.assertEqual(best.step, 2)
        self.assertAlmostEqual(best.loss, 2.1, places=5)
        # The snapshot is a copy: later training does not change it.
        self.assertTrue(torch.equal(best.state["weight"], torch.full((1, 2), 2.0)))


class LogLineTest(unittest.TestCase):
    def test_numpy_floats_are_written_as_json_numbers(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "log.jsonl")
            args = types.SimpleNamespace(log=path, out="net.safetensors")
            train.log_line(args, {"step": 3, "val_loss": np.float32(2.5),
                                  "set": {"regret": np.float64(0.03)}})
            entry = json.loads(open(path).read())
        self.assertEqual(entry["val_loss"], 2.5)
        self.assertEqual(entry["set"]["regret"], 0.03)


if __name__ == "__main__":
    unittest.main()
