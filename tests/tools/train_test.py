"""tools/train/train.py's GPU-scale pieces without a GPU: the vectorised move gathering of
batches.Batches.make against the per-row loop it replaced, --keep-best's choice of weights,
held-out games (--held-out-shards) kept out of training, and validation logs holding numpy
floats (numpy 2 scalars, which json cannot write by itself).
Needs torch and numpy (python3-torch); exits 77, which CTest counts as skipped, without them."""

import json
import math
import os
import sys
import tempfile
import types
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import numpy as np
    import torch
except ImportError:
    print("skipped: needs numpy and torch (python3-torch)")
    sys.exit(77)

# After the check above: these import torch themselves.
from tools.train import shards as shard_io  # noqa: E402
from tools.train import metrics  # noqa: E402
from tools.train import train  # noqa: E402
from tools.train.batches import Batches  # noqa: E402


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
        np.testing.assert_array_equal(inputs[4].numpy(),
                                      np.repeat(np.arange(len(rows)), [counts[r] for r in rows]))


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


def write_v1_shard(path, count, seed, copy_of=None):
    """`count` positions of random tokens with two labelled moves each, in the featureless
    shard format (AVOSHRD1: tokens, then the move count and (action, win) records). With
    `copy_of` (a Positions), its first positions' tokens come first, move counters changed."""
    rng = np.random.default_rng(seed)
    record = np.dtype([("action", "<u2"), ("win", "<f4")])
    with open(path, "wb") as out:
        out.write(shard_io.MAGIC_V1)
        for i in range(count):
            tokens = rng.integers(0, 20, 77).astype(np.uint8)
            if copy_of is not None and i < len(copy_of):
                tokens[:71] = copy_of.tokens[i][:71]
            out.write(tokens.tobytes())
            moves = np.zeros(2, record)
            moves["action"], moves["win"] = rng.integers(0, 100, 2), rng.random(2)
            out.write(bytes([2]) + moves.tobytes())


class HeldOutGamesTest(unittest.TestCase):
    def data(self, shards, held_out, mirror=False, validation_positions=1000):
        args = types.SimpleNamespace(shards=shards, held_out_shards=held_out,
                                     square_groups=None, move_groups=None,
                                     validation_percent=30,
                                     validation_positions=validation_positions, mirror=mirror)
        return train.Data(args, torch.device("cpu"))

    def test_held_out_games_are_never_trained_on_and_choose_the_best_weights(self):
        with tempfile.TemporaryDirectory() as folder:
            games = os.path.join(folder, "games")
            os.mkdir(games)
            write_v1_shard(os.path.join(folder, "plain-000.shard"), 60, seed=1)
            write_v1_shard(os.path.join(games, "selfplay-000.shard"), 25, seed=2)
            data = self.data([os.path.join(folder, "plain-000.shard")], [games])
        p = data.positions
        held = np.flatnonzero(p.sources == p.source_names.index("selfplay"))
        self.assertEqual(len(held), 25)
        self.assertFalse(np.isin(held, data.train_rows).any())
        np.testing.assert_array_equal(data.validation_sets["selfplay (held-out games)"], held)
        self.assertNotIn("selfplay", data.validation_sets)
        # The hash split still holds out some plain positions, and only those are not trained.
        plain = data.validation_sets["plain"]
        self.assertGreater(len(plain), 0)
        self.assertEqual(len(plain) + len(data.train_rows), 60)
        self.assertEqual(data.selection_sets, ["selfplay (held-out games)"])

    def test_a_held_out_position_found_elsewhere_is_not_trained_on(self):
        with tempfile.TemporaryDirectory() as folder:
            held = os.path.join(folder, "selfplay-000.shard")
            write_v1_shard(held, 25, seed=2)
            # The first 25 plain positions are the held-out ones with other move counters.
            plain = os.path.join(folder, "plain-000.shard")
            write_v1_shard(plain, 60, seed=1, copy_of=shard_io.read_shard(held))
            data = self.data([plain], [held], mirror=True)
        p = data.positions
        copies = np.flatnonzero(p.sources == p.source_names.index("plain"))[:25]
        self.assertFalse(np.isin(copies, data.train_rows).any())
        # The rest of the plain positions are trained on or validate, as before.
        self.assertEqual(len(set(data.train_rows) | set(data.validation_sets["plain"])
                             | set(copies)), 60)

    def test_the_held_out_sample_spans_the_games(self):
        with tempfile.TemporaryDirectory() as folder:
            write_v1_shard(os.path.join(folder, "plain-000.shard"), 20, seed=1)
            write_v1_shard(os.path.join(folder, "selfplay-000.shard"), 200, seed=2)
            data = self.data([os.path.join(folder, "plain-000.shard")],
                             [os.path.join(folder, "selfplay-000.shard")],
                             validation_positions=20)
        rows = data.validation_sets["selfplay (held-out games)"]
        self.assertEqual(len(set(rows)), 20)
        self.assertGreater(rows.max() - rows.min(), 100)  # not the file's first 20

    def test_without_held_out_games_every_set_chooses(self):
        with tempfile.TemporaryDirectory() as folder:
            write_v1_shard(os.path.join(folder, "plain-000.shard"), 30, seed=1)
            data = self.data([folder], [])
        self.assertEqual(data.selection_sets, ["plain"])

    def test_a_file_on_both_sides_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            shard = os.path.join(folder, "plain-000.shard")
            write_v1_shard(shard, 10, seed=1)
            with self.assertRaisesRegex(ValueError, "plain-000.shard is in both --shards and"):
                self.data([folder], [shard])

    def test_a_data_set_on_both_sides_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            os.mkdir(os.path.join(folder, "games"))
            write_v1_shard(os.path.join(folder, "plain-000.shard"), 10, seed=1)
            write_v1_shard(os.path.join(folder, "games", "plain-001.shard"), 10, seed=2)
            with self.assertRaisesRegex(ValueError, "data set 'plain' has shards in both"):
                self.data([os.path.join(folder, "plain-000.shard")],
                          [os.path.join(folder, "games")])

    def test_a_held_out_folder_without_shards_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            write_v1_shard(os.path.join(folder, "plain-000.shard"), 10, seed=1)
            os.mkdir(os.path.join(folder, "empty"))
            with self.assertRaisesRegex(ValueError, "no shards"):
                self.data([os.path.join(folder, "plain-000.shard")],
                          [os.path.join(folder, "empty")])


class DataWeightTest(unittest.TestCase):
    def test_weights_by_data_set_name(self):
        names = ["noob-d11-pv", "sf15-d7-001", "tcec"]
        self.assertEqual(list(train.data_weights(["noob-d11-pv=4", "tcec=0.25"], names)),
                         [4.0, 1.0, 0.25])
        self.assertEqual(list(train.data_weights([], names)), [1.0, 1.0, 1.0])

    def test_a_bad_weight_is_one_clear_line(self):
        names = ["noob-d11-pv"]
        for spec, message in (("noob=2", "no data set 'noob'"),
                              ("noob-d11-pv=x", "'x' is not a number"),
                              ("noob-d11-pv=-1", "a weight is 0 or more")):
            with self.assertRaisesRegex(ValueError, message):
                train.data_weights([spec], names)


class PartialLabelTest(unittest.TestCase):
    """Partial labels (datagen --multipv 1): unscored moves (NaN) have no bin target, and the
    policy term asks that the scored best move be valued above them."""

    def test_unscored_moves_add_nothing_to_the_bin_loss(self):
        logits = torch.randn(5, 8)
        wins = torch.tensor([0.7, float("nan"), 0.2, float("nan"), 0.4])
        scored = torch.tensor([0, 2, 4])
        self.assertAlmostEqual(metrics.bin_loss(logits, wins, 8).item(),
                               metrics.bin_loss(logits[scored], wins[scored], 8).item(), 6)

    def test_the_policy_term_falls_as_the_best_move_is_valued_higher(self):
        nan = float("nan")
        wins = torch.tensor([0.6, nan, nan, 0.5, 0.4])  # position 0 partial, 1 fully scored
        board = torch.tensor([0, 0, 0, 1, 1])

        def loss(best_bin):
            logits = torch.full((5, 4), -9.0)
            logits[:, 1] = 0  # every move valued in bin 1 ...
            logits[0] = -9.0
            logits[0, best_bin] = 0  # ... but the scored best move of position 0
            return metrics.partial_policy_loss(logits, wins, board, 2, 0.05).item()
        self.assertLess(loss(3), loss(1))
        self.assertLess(loss(1), loss(0))
        self.assertAlmostEqual(loss(1), math.log(3), 4)  # an even guess among its 3 moves
        full = torch.tensor([0.6, 0.3, 0.5, 0.5, 0.4])  # no partial position: no term
        self.assertEqual(metrics.partial_policy_loss(torch.zeros(5, 4), full, board, 2, 0.05)
                         .item(), 0.0)

    def test_validation_scores_partial_positions_by_their_best_move(self):
        data = positions([3, 2, 4])
        data.wins[:] = [0.2, 0.9, 0.1, 0.5, 0.6, np.nan, 0.7, np.nan, np.nan]
        # A model that puts each move in a fixed bin, so its choice per position is known:
        # move 1 (0.9), move 1 (0.6), and in the partial position its scored move (0.7).
        bins = [0, 3, 0, 0, 1, 0, 3, 0, 0]

        class Model:
            training = False

            def __call__(self, tokens, from_token, to_token, promotion, board, squares, moves):
                logits = torch.full((len(board), 4), -9.0)
                logits[torch.arange(len(board)), torch.as_tensor(bins)] = 0
                return logits

            def eval(self):
                pass

            def train(self, mode):
                pass

        batches = Batches(data, mirror=False, device="cpu")
        regrets = []
        result = metrics.validate(Model(), batches, np.arange(3), 4, "cpu", regrets)
        self.assertAlmostEqual(result["action_accuracy"], 1.0)
        self.assertAlmostEqual(result["full_share"], 2 / 3)
        self.assertAlmostEqual(result["regret"], 0.0)
        self.assertEqual(regrets[:2], [0.0, 0.0])
        self.assertTrue(math.isnan(regrets[2]))
        bins[1], bins[0] = 0, 3  # position 0 now chooses its 0.2 move: regret 0.7
        regrets = []
        self.assertAlmostEqual(metrics.validate(Model(), batches, np.arange(3), 4, "cpu",
                                                regrets)["regret"], 0.35, 6)
        self.assertAlmostEqual(regrets[0], 0.7, 6)
        bins[1], bins[0] = 3, 0
        bins[6], bins[7] = 0, 3  # now it prefers an unscored move there
        self.assertAlmostEqual(metrics.validate(Model(), batches, np.arange(3), 4, "cpu")
                               ["action_accuracy"], 2 / 3)


class PairedDifferenceTest(unittest.TestCase):
    def test_mean_and_standard_error_over_the_positions_both_score(self):
        nan = float("nan")
        mean, error, n = metrics.paired_difference([0.1, 0.3, nan, 0.2, 0.0],
                                                   [0.0, 0.1, 0.5, 0.2, nan])
        self.assertEqual(n, 3)  # differences 0.1, 0.2, 0.0
        self.assertAlmostEqual(mean, 0.1)
        self.assertAlmostEqual(error, 0.1 / math.sqrt(3))

    def test_positions_must_pair(self):
        with self.assertRaises(ValueError):
            metrics.paired_difference([0.1, 0.2], [0.1])
        self.assertTrue(math.isnan(metrics.paired_difference([0.1], [0.0])[1]))


class LogLineTest(unittest.TestCase):
    def test_numpy_floats_are_written_as_json_numbers(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "log.jsonl")
            args = types.SimpleNamespace(log=path, out="net.safetensors")
            train.log_line(args, {"step": 3, "val_loss": np.float32(2.5),
                                  "set": {"regret": np.float64(0.03)}})
            with open(path) as log:
                entry = json.loads(log.read())
        self.assertEqual(entry["val_loss"], 2.5)
        self.assertEqual(entry["set"]["regret"], 0.03)


class GrowTest(unittest.TestCase):
    """--grow: a deeper net warm-started from a shallower one computes what the parent did."""

    def nets(self, parent_layers, layers):
        from tools.train import reference_model
        parent = reference_model.randomise(reference_model.build(
            "house", 16, parent_layers, 2, 32, 8, attention_position="bias"), seed=3)
        child = reference_model.build("house", 16, layers, 2, 32, 8, attention_position="bias")
        path = os.path.join(self.folder.name, "parent.safetensors")
        reference_model.export(parent, path)
        train.warm_start(child, path, grow=True)
        return parent.eval(), child.eval()

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)

    def test_the_grown_net_computes_the_parent_and_its_new_layers_copy_the_top(self):
        parent, child = self.nets(2, 5)
        tokens = torch.randint(0, 20, (3, 77))
        with torch.no_grad():
            torch.testing.assert_close(child.trunk(tokens), parent.trunk(tokens))
        # Layers 2, 3, 4 copy the parent's top layers in order (1, 0, 1: (j - 3) mod 2) with
        # their output projections at zero; the rest is a copy, not a fresh start.
        for j, source in [(2, 1), (3, 0), (4, 1)]:
            new, old = child.layers[j], parent.layers[source]
            self.assertEqual(new.attn.o.weight.abs().sum().item(), 0)
            self.assertEqual(new.mlp.w3.weight.abs().sum().item(), 0)
            torch.testing.assert_close(new.attn.q.weight, old.attn.q.weight)
            torch.testing.assert_close(new.attn.bias, old.attn.bias)
            torch.testing.assert_close(new.mlp.w1.weight, old.mlp.w1.weight)
        # A gradient reaches the new layers' output projections, so they leave zero.
        child.train()
        child.trunk(tokens).square().sum().backward()
        self.assertGreater(child.layers[4].mlp.w3.weight.grad.abs().sum().item(), 0)

    def test_growing_to_no_more_layers_is_refused(self):
        with self.assertRaises(SystemExit):
            self.nets(3, 3)


class ArchitectureFromInitTest(unittest.TestCase):
    """--init brings its net's shape: flags not given come from the net, given ones win."""

    def setUp(self):
        from tools.train import reference_model
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.net = os.path.join(self.folder.name, "parent.safetensors")
        reference_model.export(reference_model.build(
            "house", 16, 2, 2, 24, 8, square_groups=["pinned"], move_groups=["check", "see"],
            attention_position="bias", mirror=False), self.net)

    def parse(self, *flags):
        return train.parse_args(["--shards", "s", "--out", "o.safetensors", *flags])

    def test_an_init_net_gives_its_shape(self):
        args = self.parse("--init", self.net)
        self.assertEqual((args.d_model, args.layers, args.heads, args.ffn_dim, args.head_dim,
                          args.bins), (16, 2, 2, 24, 16, 8))
        self.assertEqual((args.mirror, args.attention_position), (False, "bias"))
        self.assertEqual((args.square_groups, args.move_groups), (["pinned"], ["check", "see"]))

    def test_a_flag_given_wins(self):
        args = self.parse("--init", self.net, "--layers", "3", "--mirror")
        self.assertEqual((args.layers, args.d_model, args.ffn_dim, args.mirror), (3, 16, 24, True))
        wider = self.parse("--init", self.net, "--d-model", "32")
        self.assertEqual((wider.d_model, wider.ffn_dim, wider.head_dim), (32, 128, 32))

    def test_without_init_the_defaults(self):
        args = self.parse()
        self.assertEqual((args.d_model, args.layers, args.ffn_dim, args.mirror,
                          args.attention_position, args.square_groups), (64, 4, 256, True,
                                                                         "absolute", []))

    def test_an_init_that_is_no_net_is_one_error(self):
        junk = os.path.join(self.folder.name, "junk.safetensors")
        with open(junk, "wb") as out:
            out.write(b"not a net")
        with self.assertRaises(SystemExit):
            self.parse("--init", junk)


if __name__ == "__main__":
    unittest.main()
