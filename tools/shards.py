"""Reads Avocet training shards (see include/avocet/datagen/shard.h) into numpy arrays.

Example:
    >>> data = load_shards(["shards/sf15-d7-001-000.shard"])
    >>> data.tokens.shape, data.offsets[-1] == len(data.actions)
    ((50000, 77), True)
"""

import glob
import os
import zlib
from dataclasses import dataclass

import numpy as np

import chess_tokens

MAGIC = b"AVOSHRD1"
ACTIONS = chess_tokens.actions()
ACTION_INDEX = {m: i for i, m in enumerate(ACTIONS)}
# Per action: token positions of its from and to squares, and its promotion index.
ACTION_FROM_TOKEN = np.array([chess_tokens.square_token(m[0:2]) for m in ACTIONS], np.int64)
ACTION_TO_TOKEN = np.array([chess_tokens.square_token(m[2:4]) for m in ACTIONS], np.int64)
ACTION_PROMOTION = np.array([" nbrq".index(m[4]) if len(m) == 5 else 0 for m in ACTIONS],
                            np.int64)
ACTION_MIRROR = np.array([ACTION_INDEX[chess_tokens.mirror_move(m)] for m in ACTIONS], np.int64)


@dataclass
class Positions:
    tokens: np.ndarray   # [N, 77] uint8
    offsets: np.ndarray  # [N + 1] int64: moves of position i are offsets[i]:offsets[i+1]
    actions: np.ndarray  # [M] int64 action indices
    wins: np.ndarray     # [M] float32 win probabilities

    def __len__(self):
        return len(self.tokens)

    def subset(self, rows):
        rows = np.asarray(rows)
        counts = self.offsets[rows + 1] - self.offsets[rows]
        starts = self.offsets[rows]
        index = np.repeat(starts - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        index += np.arange(counts.sum())
        return Positions(self.tokens[rows], np.concatenate([[0], np.cumsum(counts)]),
                         self.actions[index], self.wins[index])


def read_shard(path):
    data = open(path, "rb").read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not an Avocet shard")
    tokens, counts, actions, wins = [], [], [], []
    record = np.dtype([("action", "<u2"), ("win", "<f4")])
    pos = 8
    while pos < len(data):
        tokens.append(np.frombuffer(data, np.uint8, 77, pos))
        n = data[pos + 77]
        moves = np.frombuffer(data, record, n, pos + 78)
        actions.append(moves["action"])
        wins.append(moves["win"])
        counts.append(n)
        pos += 78 + 6 * n
    return Positions(np.stack(tokens), np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
                     np.concatenate(actions).astype(np.int64),
                     np.concatenate(wins).astype(np.float32))


def load_shards(paths):
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.shard"))) if os.path.isdir(p) else [p]
    parts = [read_shard(f) for f in files]
    offsets = [parts[0].offsets]
    for part in parts[1:]:
        offsets.append(part.offsets[1:] + offsets[-1][-1])
    return Positions(np.concatenate([p.tokens for p in parts]), np.concatenate(offsets),
                     np.concatenate([p.actions for p in parts]),
                     np.concatenate([p.wins for p in parts]))


def validation_mask(tokens, percent):
    """Split by a hash of the position (first four FEN fields: tokens 0..70), so a position
    is always on the same side whatever the shards' order."""
    return np.array([zlib.crc32(row[:71].tobytes()) % 100 < percent for row in tokens])


_SWAP_CASE = np.arange(len(chess_tokens.ALPHABET))
for _c in "pnbrqkPNBRQK":
    _SWAP_CASE[chess_tokens.ALPHABET.index(_c)] = chess_tokens.ALPHABET.index(_c.swapcase())
_T = {c: chess_tokens.ALPHABET.index(c) for c in chess_tokens.ALPHABET}


def mirror_tokens(tokens):
    """Tokens of the colour-flipped positions (rows with Black to move only), as
    chess_tokens.mirror() then tokenize() would give."""
    tokens = tokens.copy()
    black = tokens[:, 0] == _T["b"]
    t = tokens[black]
    t[:, 0] = _T["w"]
    board = t[:, 1:65].reshape(-1, 8, 8)[:, ::-1, :]
    t[:, 1:65] = _SWAP_CASE[board].reshape(-1, 64)
    castling = t[:, 65:69]
    present = {c: (castling == _T[c]).any(1) for c in "KQkq"}
    new = np.full_like(castling, _T["."])
    fill = np.zeros(len(t), np.int64)
    for letter, source in zip("KQkq", "kqKQ"):
        has = present[source]
        new[has, fill[has]] = _T[letter]
        fill += has
    t[:, 65:69] = new
    rank = t[:, 70]
    t[:, 70] = np.where(rank == _T["3"], _T["6"], np.where(rank == _T["6"], _T["3"], rank))
    tokens[black] = t
    return tokens, black
