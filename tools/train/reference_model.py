"""PyTorch reference of Avocet's two network families, written from src/DESIGN.md.

Builds randomly initialised models of given sizes, exports them as safetensors, and writes
the expected per-move value-bin log-probabilities for given FENs (legal moves listed by
Stockfish, so the engine's move generator is checked too). The training pipeline imports
the same modules.

Example:
    /usr/bin/python3 -m tools.train.reference_model --family house --d-model 32 --layers 2 \\
        --heads 4 --ffn-dim 64 --bins 32 --out tests/data/tiny_house.safetensors \\
        --fens tests/data/parity_fens.txt --golden tests/data/tiny_house.golden.json
"""

import argparse
import json
import math
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import torch
from torch import nn
import torch.nn.functional as F

from tools.train import chess_tokens
from tools.train import safetensors_io

FORMAT_VERSION = 1
ACTIONS = chess_tokens.actions()
ACTION_INDEX = {move: i for i, move in enumerate(ACTIONS)}
PROMOTION_INDEX = {"": 0, "n": 1, "b": 2, "r": 3, "q": 4}


# How attention knows where tokens are (metadata "attention_position"; absent: "absolute").
ATTENTION_POSITIONS = ("absolute", "bias", "relative")

# The 64 square tokens (1 for a8 ... 64 for h1, chess_tokens.square_token) and, for each pair
# of them, the index of (query minus key) in (rank, file) into a 15 x 15 table:
# (delta_rank + 7) * 15 + delta_file + 7. A mirrored net sees the side to move as White, so
# the deltas are in the side to move's orientation.
FIRST_SQUARE_TOKEN = 1
RELATIVE_OFFSETS = 15 * 15


def relative_index() -> torch.Tensor:
    square = torch.arange(64)
    rank, file = 7 - square // 8, square % 8
    return (rank[:, None] - rank[None, :] + 7) * 15 + (file[:, None] - file[None, :] + 7)


class Block(nn.Module):
    """Pre-LayerNorm block: x += attn(ln1(x)); x += mlp(ln2(x)).

    attention_position "bias" adds a learned bias per head to every (query, key) logit after
    the 1/sqrt(d_head) scaling: attn.bias [heads, tokens, tokens].

    "relative" adds, on top of that bias, Shaw et al.'s relative position terms between the 64
    square tokens, as Chessformer uses them: per head, three tables A, B, C [225, d_head]
    (attn.rel_q, attn.rel_k, attn.rel_v) indexed by r_ij = relative_index()[i, j], and
        logit_ij = (q_i . k_j + q_i . A[r_ij] + k_j . B[r_ij]) / sqrt(d_head) + bias_ij,
        out_i = sum_j p_ij (v_j + C[r_ij])     (the C term for square queries and keys only).
    Every table starts at zero, so a net warm-started from one without them computes the
    same."""

    def __init__(self, d: int, heads: int, ffn: int, attention_position: str = "absolute",
                 tokens: int = 77) -> None:
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d, eps=1e-5)
        self.attn = nn.Module()
        for name in ("q", "k", "v", "o"):
            self.attn.add_module(name, nn.Linear(d, d, bias=False))
        if attention_position in ("bias", "relative"):
            self.attn.bias = nn.Parameter(torch.zeros(heads, tokens, tokens))
        if attention_position == "relative":
            for name in ("rel_q", "rel_k", "rel_v"):
                setattr(self.attn, name,
                        nn.Parameter(torch.zeros(heads, RELATIVE_OFFSETS, d // heads)))
            self.register_buffer("relative_index", relative_index(), persistent=False)
        self.ln2 = nn.LayerNorm(d, eps=1e-5)
        self.mlp = nn.Module()
        self.mlp.add_module("w1", nn.Linear(d, ffn, bias=False))
        self.mlp.add_module("w2", nn.Linear(d, ffn, bias=False))
        self.mlp.add_module("w3", nn.Linear(ffn, d, bias=False))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        h = self.ln1(x)
        split = lambda y: y.view(b, t, self.heads, d // self.heads).transpose(1, 2)
        q, k, v = split(self.attn.q(h)), split(self.attn.k(h)), split(self.attn.v(h))
        scores = q @ k.transpose(-1, -2)
        relative = hasattr(self.attn, "rel_q")
        squares = slice(FIRST_SQUARE_TOKEN, FIRST_SQUARE_TOKEN + 64)
        if relative:
            index = self.relative_index.expand(b, self.heads, 64, 64)
            # q_i . A[r_ij]: each query against all 225 rows, then picked by r_ij; likewise
            # k_j . B[r_ij], gathered along the key's rows (r_ij = index[i, j]).
            qa = (q[:, :, squares] @ self.attn.rel_q.transpose(-1, -2)).gather(-1, index)
            kb = (k[:, :, squares] @ self.attn.rel_k.transpose(-1, -2)).gather(
                -1, index.transpose(-1, -2)).transpose(-1, -2)
            scores = scores + F.pad(qa + kb, (squares.start, t - squares.stop,
                                              squares.start, t - squares.stop))
        scores = scores / math.sqrt(d // self.heads)
        if hasattr(self.attn, "bias"):
            scores = scores + self.attn.bias
        p = scores.softmax(-1)
        attended = p @ v
        if relative:
            # sum_j p_ij C[r_ij]: for a query, each key has its own r_ij, so p scattered into
            # the 225 offsets then times C.
            weights = torch.zeros(b, self.heads, 64, RELATIVE_OFFSETS, dtype=p.dtype,
                                  device=p.device).scatter_add(-1, index, p[:, :, squares, squares])
            attended = attended + F.pad(weights @ self.attn.rel_v,
                                        (0, 0, squares.start, t - squares.stop))
        attended = attended.transpose(1, 2).reshape(b, t, d)
        x = x + self.attn.o(attended)
        h = self.ln2(x)
        return x + self.mlp.w3(F.silu(self.mlp.w1(h)) * self.mlp.w2(h))


class Trunk(nn.Module):
    """Embedding x sqrt(d) + learned positions, L blocks, final LayerNorm."""

    def __init__(self, vocabulary: int, sequence_length: int, d: int, layers: int, heads: int,
                 ffn: int, attention_position: str = "absolute") -> None:
        super().__init__()
        if attention_position not in ATTENTION_POSITIONS:
            raise ValueError(f"unknown attention_position '{attention_position}' (known: "
                             f"{', '.join(ATTENTION_POSITIONS)})")
        self.d = d
        self.embed = nn.Embedding(vocabulary, d)
        self.pos_embed = nn.Embedding(sequence_length, d)
        self.layers = nn.ModuleList(Block(d, heads, ffn, attention_position, sequence_length)
                                    for _ in range(layers))
        self.ln_f = nn.LayerNorm(d, eps=1e-5)

    def trunk(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens) * math.sqrt(self.d) + self.pos_embed.weight[: tokens.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return self.ln_f(x)


# The tactical feature groups of include/avocet/chess/tactical_features.h (name, number of
# values), in the order shards store them. A house net uses any subset; the engine refuses
# other names.
SQUARE_GROUPS = [("attackers", 16), ("least_valuable_attacker", 36), ("pinned", 3),
                 ("en_prise", 3)]
MOVE_GROUPS = [("pieces", 36), ("see", 19), ("check", 2), ("threat", 10), ("mate", 2),
               ("allows_mate", 2), ("qsearch", 19), ("targets", 4)]


class HouseNet(Trunk):
    """One trunk pass over 77 FEN tokens scores every move from its from/to token outputs.

    Feature groups (house v2): each square group adds an embedding [values, d] to the 64 square
    tokens after the token and position embeddings; each move group adds an embedding
    [values, head_dim] to the head's hidden layer before its GELU."""

    family = "house"

    def __init__(self, d_model: int, layers: int, heads: int, ffn_dim: int, bins: int,
                 head_dim: int, mirror: bool, square_groups: Sequence[str] = (),
                 move_groups: Sequence[str] = (), attention_position: str = "absolute") -> None:
        super().__init__(len(chess_tokens.ALPHABET), 77, d_model, layers, heads, ffn_dim,
                         attention_position)
        self.config = dict(d_model=d_model, layers=layers, heads=heads, ffn_dim=ffn_dim,
                           bins=bins, head_dim=head_dim, mirror="true" if mirror else "false")
        if attention_position != "absolute":
            self.config["attention_position"] = attention_position
        if square_groups or move_groups:
            self.config["square_features"] = ",".join(square_groups)
            self.config["move_features"] = ",".join(move_groups)
        self.mirror = mirror
        sizes = dict(SQUARE_GROUPS + MOVE_GROUPS)
        # Column of each used group in the shards' feature arrays.
        self.square_columns = [[n for n, _ in SQUARE_GROUPS].index(g) for g in square_groups]
        self.move_columns = [[n for n, _ in MOVE_GROUPS].index(g) for g in move_groups]
        self.square_features = nn.ModuleDict(
            {g: nn.Embedding(sizes[g], d_model) for g in square_groups})
        self.head = nn.Module()
        self.head.from_square = nn.Linear(d_model, head_dim, bias=False)
        self.head.to_square = nn.Linear(d_model, head_dim, bias=False)
        self.head.add_module("promotion", nn.Embedding(5, head_dim))
        self.head.bias = nn.Parameter(torch.zeros(head_dim))
        self.head.add_module("out", nn.Linear(head_dim, bins))
        self.head.move_features = nn.ModuleDict(
            {g: nn.Embedding(sizes[g], head_dim) for g in move_groups})

    def forward(self, tokens: torch.Tensor, from_token: torch.Tensor, to_token: torch.Tensor,
                promotion: torch.Tensor, board_index: torch.Tensor,
                squares: torch.Tensor | None = None,
                moves: torch.Tensor | None = None) -> torch.Tensor:
        """tokens [B, 77]; per move: token positions, promotion index, and its board's row in
        the batch ([M] each); square features [B, 64, S] and move features [M, F] as stored
        in shards (every group; the model picks its own). Returns logits [M, bins]."""
        x = self.embed(tokens) * math.sqrt(self.d) + self.pos_embed.weight[: tokens.shape[1]]
        if len(self.square_features):
            extra = sum(self.square_features[g](squares[:, :, c].long())
                        for g, c in zip(self.square_features, self.square_columns))
            x = torch.cat([x[:, :1], x[:, 1:65] + extra, x[:, 65:]], 1)
        for layer in self.layers:
            x = layer(x)
        h = self.ln_f(x)
        head = self.head
        hidden = (head.from_square(h[board_index, from_token]) +
                  head.to_square(h[board_index, to_token]) + head.promotion(promotion) + head.bias)
        for g, c in zip(head.move_features, self.move_columns):
            hidden = hidden + head.move_features[g](moves[:, c].long())
        return head.out(F.gelu(hidden))

    def encode(
        self, fen: str, moves: Sequence[str], features: Mapping[str, Any] | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor,
               torch.Tensor | None, torch.Tensor | None]:
        """Tensors for one position: (tokens [1, 77], from, to, promotion, board index,
        square features [1, 64, S], move features [M, F]). `features` is what `avocet
        features` prints for the position (needed only by featured nets)."""
        flip = self.mirror and fen.split()[1] == "b"
        squares = move_rows = None
        if features is not None:
            squares = torch.tensor(features["squares"], dtype=torch.uint8)  # token order
            if flip:
                squares = squares.view(8, 8, -1).flip(0).reshape(64, -1)
            squares = squares[None]
            move_rows = torch.tensor([features["moves"][m] for m in moves], dtype=torch.uint8)
        if flip:
            fen, moves = chess_tokens.mirror(fen), [chess_tokens.mirror_move(m) for m in moves]
        tokens = torch.tensor([chess_tokens.tokenize(fen)])
        from_token = torch.tensor([chess_tokens.square_token(m[0:2]) for m in moves])
        to_token = torch.tensor([chess_tokens.square_token(m[2:4]) for m in moves])
        promotion = torch.tensor([PROMOTION_INDEX[m[4:]] for m in moves])
        return (tokens, from_token, to_token, promotion, torch.zeros(len(moves), dtype=torch.long),
                squares, move_rows)

    def move_logits(self, fen: str, moves: Sequence[str],
                    features: Mapping[str, Any] | None = None) -> torch.Tensor:
        return self(*self.encode(fen, moves, features))


class SearchlessNet(Trunk):
    """ChessBench's action-value model: [0, 77 FEN tokens, action] per move, last position."""

    family = "searchless"

    def __init__(self, d_model: int, layers: int, heads: int, ffn_dim: int, bins: int) -> None:
        super().__init__(len(ACTIONS), 79, d_model, layers, heads, ffn_dim)
        self.config = dict(d_model=d_model, layers=layers, heads=heads, ffn_dim=ffn_dim,
                           bins=bins)
        self.head = nn.Linear(d_model, bins)

    def forward(self, sequences: torch.Tensor) -> torch.Tensor:
        return self.head(self.trunk(sequences)[:, -1])

    def move_logits(self, fen: str, moves: Sequence[str]) -> torch.Tensor:
        state = chess_tokens.tokenize(fen)
        return self(torch.tensor([[0] + state + [ACTION_INDEX[m]] for m in moves]))


def build(family: str, d_model: int, layers: int, heads: int, ffn_dim: int, bins: int,
          head_dim: int | None = None, mirror: bool = False, square_groups: Sequence[str] = (),
          move_groups: Sequence[str] = (),
          attention_position: str = "absolute") -> HouseNet | SearchlessNet:
    if family == "house":
        return HouseNet(d_model, layers, heads, ffn_dim, bins, head_dim or d_model, mirror,
                        square_groups, move_groups, attention_position)
    return SearchlessNet(d_model, layers, heads, ffn_dim, bins)


def parse_groups(text: str, table: Sequence[tuple[str, int]]) -> list[str]:
    """'all', '' (none) or a comma-separated list of group names from `table`."""
    names = [n for n, _ in table]
    if text == "all":
        return names
    groups = [g for g in text.split(",") if g]
    for g in groups:
        if g not in names:
            raise ValueError(f"unknown feature group '{g}' (known: {', '.join(names)})")
    return groups


def randomise(model: HouseNet | SearchlessNet, seed: int) -> HouseNet | SearchlessNet:
    """Random weights with every parameter (LayerNorm scales and offsets too) away from its
    default, so that parity tests exercise all of them."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("ln1.weight") or name.endswith("ln2.weight") or name == "ln_f.weight":
                p.copy_(1 + 0.2 * torch.randn(p.shape, generator=generator))
            elif name.endswith("attn.bias") or ".attn.rel_" in name:
                # Biases of the size of the scores themselves, and asymmetric, so that a bias
                # read transposed or given to another head changes every output.
                p.copy_(torch.randn(p.shape, generator=generator))
            elif p.dim() == 1:
                p.copy_(0.1 * torch.randn(p.shape, generator=generator))
            else:
                p.copy_(torch.randn(p.shape, generator=generator) / math.sqrt(p.shape[-1]))
    return model


def export(model: HouseNet | SearchlessNet, path: str, dtype: torch.dtype = torch.float32,
           **provenance: object) -> None:
    metadata = {"format_version": FORMAT_VERSION, "family": model.family, **model.config,
                **provenance}
    safetensors_io.save(path, dict(model.state_dict()), metadata, dtype)


def load(path: str) -> HouseNet | SearchlessNet:
    """A model from an exported file (BF16 weights widened to float32)."""
    tensors, meta = safetensors_io.load(path)
    sizes = {k: int(meta[k]) for k in ("d_model", "layers", "heads", "ffn_dim", "bins")}
    if meta["family"] == "house":
        groups = lambda key: [g for g in meta.get(key, "").split(",") if g]
        model = HouseNet(**sizes, head_dim=int(meta["head_dim"]), mirror=meta["mirror"] == "true",
                         square_groups=groups("square_features"),
                         move_groups=groups("move_features"),
                         attention_position=meta.get("attention_position", "absolute"))
    else:
        model = SearchlessNet(**sizes)
    model.load_state_dict(tensors)
    return model.eval()


def legal_moves(fens: Iterable[str], stockfish: str) -> list[list[str]]:
    from tools.uci_engine import UciEngine
    engine = UciEngine(stockfish)
    result = [sorted(engine.perft(chess_tokens.normalise(fen), 1)[1]) for fen in fens]
    engine.close()
    return result


def engine_features(fen: str, avocet: str) -> dict[str, Any]:
    """The tactical features of a position as the engine computes them (`avocet features`)."""
    import subprocess
    out = subprocess.run([avocet, "features", "--fen", fen, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def golden(model: HouseNet | SearchlessNet, fens: Sequence[str], stockfish: str,
           avocet: str | None = None) -> list[dict[str, Any]]:
    """[{fen, moves: {uci: [log-probabilities]}}] for each FEN."""
    cases = []
    featured = getattr(model, "square_columns", None) or getattr(model, "move_columns", None)
    with torch.no_grad():
        for fen, moves in zip(fens, legal_moves(fens, stockfish)):
            if not moves:  # mate or stalemate: nothing to score
                cases.append({"fen": chess_tokens.normalise(fen), "moves": {}})
                continue
            fen = chess_tokens.normalise(fen)
            features = engine_features(fen, avocet) if featured else None
            args = (fen, moves, features) if features else (fen, moves)
            log_probs = model.move_logits(*args).log_softmax(-1)
            cases.append({"fen": chess_tokens.normalise(fen),
                          "moves": {m: [round(v, 7) for v in row.tolist()]
                                    for m, row in zip(moves, log_probs)}})
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", choices=["house", "searchless"], required=True)
    parser.add_argument("--d-model", type=int, default=32)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--ffn-dim", type=int, default=64)
    parser.add_argument("--bins", type=int, default=32)
    parser.add_argument("--head-dim", type=int)
    parser.add_argument("--mirror", action="store_true")
    parser.add_argument("--square-features", default="",
                        help="comma-separated square feature groups, or 'all'")
    parser.add_argument("--move-features", default="",
                        help="comma-separated move feature groups, or 'all'")
    parser.add_argument("--attention-position", choices=ATTENTION_POSITIONS, default="absolute",
                        help="house: learned biases on the attention logits ('bias'), and "
                        "Shaw relative position terms between squares ('relative')")
    parser.add_argument("--avocet", default="build/avocet",
                        help="engine binary that computes the features for --golden")
    parser.add_argument("--bf16", action="store_true", help="export BF16 weights")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="safetensors file to write")
    parser.add_argument("--name", default=None)
    parser.add_argument("--fens", help="file of FENs, one per line, for --golden")
    parser.add_argument("--golden", help="JSON file of expected per-move log-probabilities")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    model = randomise(build(args.family, args.d_model, args.layers, args.heads, args.ffn_dim,
                            args.bins, args.head_dim, args.mirror,
                            parse_groups(args.square_features, SQUARE_GROUPS),
                            parse_groups(args.move_features, MOVE_GROUPS),
                            args.attention_position), args.seed).eval()
    dtype = torch.bfloat16 if args.bf16 else torch.float32
    name = args.name or os.path.splitext(os.path.basename(args.out))[0]
    export(model, args.out, dtype, name=name, provenance=f"random init, seed {args.seed}")
    if args.golden:
        model = load(args.out)  # the weights exactly as exported (BF16 rounding included)
        fens = [line.strip() for line in open(args.fens) if line.strip()]
        with open(args.golden, "w") as f:
            json.dump(golden(model, fens, args.stockfish, args.avocet), f, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
