"""Reads Avocet training shards (see include/avocet/datagen/shard.h) into numpy arrays.

Version 2 shards carry the tactical features of chess/tactical_features.h: per square in token
order, and per labelled move; their groups (name, number of values) come from each file's
header. Version 1 shards have none.

Example:
    >>> data = load_shards(["shards/sf15-d7-001-000.shard"])
    >>> data.tokens.shape, data.squares.shape, data.offsets[-1] == len(data.actions)
    ((50000, 77), (50000, 64, 4), True)
"""

import glob
import json
import os
import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from tools.train import chess_tokens
from tools.train import split

MAGIC_V1 = b"AVOSHRD1"
MAGIC = b"AVOSHRD2"
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
    tokens: np.ndarray     # [N, 77] uint8
    offsets: np.ndarray    # [N + 1] int64: moves of position i are offsets[i]:offsets[i+1]
    actions: np.ndarray    # [M] int64 action indices
    wins: np.ndarray       # [M] float32 win probabilities
    squares: np.ndarray    # [N, 64, S] uint8 square features, token order (S = 0: none)
    moves: np.ndarray      # [M, F] uint8 move features (F = 0: none)
    square_groups: list    # [(name, values)] for the S square features
    move_groups: list      # [(name, values)] for the F move features
    sources: np.ndarray = None  # [N] index into source_names: the data set of each position
    source_names: list = None   # data set names: shard file names without "-NNN.shard"

    def __len__(self) -> int:
        return len(self.tokens)


def read_shard(path: str) -> Positions:
    with open(path, "rb") as file:
        data = file.read()
    if data[:8] == MAGIC:
        (length,) = struct.unpack_from("<I", data, 8)
        header = json.loads(data[12:12 + length])
        square_groups = [tuple(g) for g in header["square_features"]]
        move_groups = [tuple(g) for g in header["move_features"]]
        pos = 12 + length
    elif data[:8] == MAGIC_V1:
        square_groups, move_groups, pos = [], [], 8
    else:
        raise ValueError(f"{path}: not an Avocet shard")
    s, f = len(square_groups), len(move_groups)
    record = np.dtype([("action", "<u2"), ("win", "<f4"), ("features", "u1", (f,))])
    tokens, squares, counts, moves = [], [], [], []
    while pos < len(data):
        # A run killed while writing leaves a record cut short: name the file and the byte,
        # as the C++ reader (datagen/shard.cpp) does, rather than numpy's buffer error.
        start = pos
        if pos + 77 + 64 * s + 1 > len(data):
            raise ValueError(f"{path}: truncated record at byte {start}")
        tokens.append(np.frombuffer(data, np.uint8, 77, pos))
        squares.append(np.frombuffer(data, np.uint8, 64 * s, pos + 77))
        pos += 77 + 64 * s
        n = data[pos]
        if pos + 1 + record.itemsize * n > len(data):
            raise ValueError(f"{path}: truncated record at byte {start}")
        moves.append(np.frombuffer(data, record, n, pos + 1))
        counts.append(n)
        pos += 1 + record.itemsize * n
    moves = np.concatenate(moves)
    return Positions(np.stack(tokens), np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
                     moves["action"].astype(np.int64), moves["win"].astype(np.float32),
                     np.stack(squares).reshape(len(tokens), 64, s),
                     moves["features"].reshape(len(moves), f),
                     square_groups, move_groups)


def shard_files(paths: Iterable[str]) -> list[str]:
    """The shard files of `paths` (files, or folders of *.shard), in order."""
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.shard"))) if os.path.isdir(p) else [p]
    return files


def data_set_name(file: str) -> str:
    """A data set is a shard file's name without its "-NNN.shard" counter."""
    return re.sub(r"(-\d+)?\.shard$", "", os.path.basename(file))


def load_shards(paths: Iterable[str]) -> Positions:
    files = shard_files(paths)
    parts = [read_shard(f) for f in files]
    for f, part in zip(files, parts):
        if (part.square_groups, part.move_groups) != (parts[0].square_groups,
                                                      parts[0].move_groups):
            raise ValueError(f"{f}: its feature groups differ from {files[0]}'s")
    offsets = [parts[0].offsets]
    for part in parts[1:]:
        offsets.append(part.offsets[1:] + offsets[-1][-1])
    names = [data_set_name(f) for f in files]
    source_names = sorted(set(names))
    sources = np.concatenate([np.full(len(p), source_names.index(n), np.int16)
                              for p, n in zip(parts, names)])
    return Positions(np.concatenate([p.tokens for p in parts]), np.concatenate(offsets),
                     np.concatenate([p.actions for p in parts]),
                     np.concatenate([p.wins for p in parts]),
                     np.concatenate([p.squares for p in parts]),
                     np.concatenate([p.moves for p in parts]),
                     parts[0].square_groups, parts[0].move_groups, sources, source_names)


def validation_mask(tokens: np.ndarray, percent: int) -> np.ndarray:
    """Rows in the held-out split (split.py)."""
    return np.array([split.is_held_out(row, percent) for row in tokens])


_SWAP_CASE = np.arange(len(chess_tokens.ALPHABET))
for _c in "pnbrqkPNBRQK":
    _SWAP_CASE[chess_tokens.ALPHABET.index(_c)] = chess_tokens.ALPHABET.index(_c.swapcase())
_T = {c: chess_tokens.ALPHABET.index(c) for c in chess_tokens.ALPHABET}


def mirror_squares(squares: np.ndarray, flipped: np.ndarray) -> np.ndarray:
    """Square features of the colour-flipped positions (rows where `flipped`): the features
    are the side to move's view, so only the ranks reverse, as in the tokens."""
    squares = squares.copy()
    rows, s = squares[flipped], squares.shape[-1]
    # Sizes spelled out: with no square features (s = 0), -1 cannot be inferred.
    squares[flipped] = rows.reshape(len(rows), 8, 8, s)[:, ::-1].reshape(len(rows), 64, s)
    return squares


def mirror_tokens(tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
