"""Model inputs from shard data: random batches of positions with all their labelled moves.

Example:
    >>> batches = Batches(shards.load_shards(["shards"]), mirror=True, device="cpu")
    >>> *inputs, wins, counts = batches.make(np.array([0, 1]))
    >>> len(wins) == counts.sum()
    True
"""

import numpy as np
import torch

from tools.train import shards as shard_io


class Batches:
    """Inputs of HouseNet.forward for given rows: tokens, per-move token positions, promotion
    and board index, square and move features (mirrored like the tokens when the net
    mirrors), then the targets: win probabilities and moves per position."""

    def __init__(self, data: shard_io.Positions, mirror: bool,
                 device: torch.device | str) -> None:
        self.data = data
        self.device = device
        if mirror:
            self.tokens, self.flipped = shard_io.mirror_tokens(data.tokens)
        else:
            self.tokens, self.flipped = data.tokens, np.zeros(len(data), bool)
        self.squares = shard_io.mirror_squares(data.squares, self.flipped)

    def make(self, rows: np.ndarray) -> tuple[torch.Tensor, ...]:
        d = self.data
        counts = d.offsets[rows + 1] - d.offsets[rows]
        # Each row's moves offsets[r] .. offsets[r+1]-1, in one vectorised step rather than a
        # Python loop over rows (which was most of a GPU step at batch 1024).
        first_in_batch = np.cumsum(counts) - counts
        move_index = (np.arange(counts.sum()) + np.repeat(d.offsets[rows] - first_in_batch,
                                                          counts))
        actions = d.actions[move_index]
        flip = np.repeat(self.flipped[rows], counts)
        actions = np.where(flip, shard_io.ACTION_MIRROR[actions], actions)
        to = lambda a, dtype=torch.long: torch.as_tensor(a, dtype=dtype, device=self.device)
        return (to(self.tokens[rows].astype(np.int64)), to(shard_io.ACTION_FROM_TOKEN[actions]),
                to(shard_io.ACTION_TO_TOKEN[actions]), to(shard_io.ACTION_PROMOTION[actions]),
                to(np.repeat(np.arange(len(rows)), counts)),
                torch.as_tensor(self.squares[rows], device=self.device),
                torch.as_tensor(d.moves[move_index], device=self.device),
                to(d.wins[move_index], torch.float32), to(counts))
