"""Fits the win/draw/loss model behind UCI_ShowWDL on Stockfish self-play games.

The net predicts an expected score s = W + D/2 only. To split it into W/D/L the engine uses
Stockfish's form of model, fitted here on game outcomes: with x the score in pawns from the
side to move and m the material on the board (pawn 1, knight and bishop 3, rook 5, queen 9,
both sides; 78 at the start),

    W = sigmoid((x - a(m)) / b(m)),   L = sigmoid((-x - a(m)) / b(m)),   D = 1 - W - L,

where a and b are polynomials in m / 58. a is the score at which a win becomes as likely as
not, b how quickly the win rate rises around it; a large a with few pieces is what makes an
even endgame a likely draw.

Two steps:
    # games: appends to the TSV, so a stopped run resumes where it was
    nice -n 10 python3 -m tools.measure.fit_wdl play --games 1500 --nodes 4000 --out games.tsv
    # fit by maximum likelihood, 10% of the games held out for the figures
    python3 -m tools.measure.fit_wdl fit games.tsv

The openings are noob_3moves.epd from the books folder: $AVOCET_BOOKS, by default
../shared/data/books beside the repository (as for tools/data/labeller.sh); --book FILE for
another.

Stockfish supplies the rules (its `d` command prints the FEN and the checkers; `bestmove
(none)` means mate or stalemate); repetitions, the 50-move rule, insufficient material and a
ply cap (a draw) are judged here.

TSV columns: game, ply, score kind (cp or mate), score from the side to move, material,
result for the side to move (1, 0.5, 0), FEN.
"""

import argparse
import collections
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tools.uci_engine import STOCKFISH, UciEngine

if TYPE_CHECKING:  # imported where they are used, so that `play` needs neither
    import numpy as np
    import torch

PIECE_VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOKS = os.environ.get("AVOCET_BOOKS", os.path.join(ROOT, "..", "shared", "data", "books"))
BOOK = os.path.join(BOOKS, "noob_3moves.epd")
MATERIAL_NORM = 58.0  # polynomials take m / 58, as Stockfish's model does
MATERIAL_MIN = 4  # below this a and b are evaluated at 4 (few rows; KPK has m = 1)


def material(fen: str) -> int:
    """Material of both sides. material('8/8/8/4k3/8/4P3/4K3/8 w - - 0 1') == 1."""
    return sum(PIECE_VALUES.get(c.lower(), 0) for c in fen.split()[0])


def insufficient_material(fen: str) -> bool:
    """No pawn, rook or queen, and at most one minor piece, or only same-coloured bishops."""
    placement = fen.split()[0]
    if any(c in "pPrRqQ" for c in placement):
        return False
    minors = [c for c in placement if c in "nNbB"]
    if len(minors) <= 1:
        return True
    if any(c in "nN" for c in minors):
        return False
    colours = set()
    for rank_index, rank in enumerate(placement.split("/")):
        file = 0
        for c in rank:
            if c.isdigit():
                file += int(c)
                continue
            if c in "bB":
                colours.add((file + rank_index) % 2)
            file += 1
    return len(colours) == 1


class Player(UciEngine):
    def board(self, start: str, moves: Sequence[str]) -> tuple[str, bool]:
        """(FEN, in check) after moves."""
        self.send(f"position fen {start}" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        fen = None
        for line in self.read_until("Checkers"):
            if line.startswith("Fen: "):
                fen = line[5:].strip()
            if line.startswith("Checkers"):
                return fen, bool(line.split(":", 1)[1].strip())

    def search(self, nodes: int) -> tuple[str | None, dict[int, tuple[str, int, str]]]:
        """(bestmove or None, {multipv: (kind, value, move)}) for the last position sent."""
        self.send(f"go nodes {nodes}")
        lines = self.read_until("bestmove")
        lines_by_pv = {}
        for line in lines:
            words = line.split()
            if not words or words[0] != "info" or "score" not in words or "pv" not in words:
                continue
            k = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
            at = words.index("score")
            lines_by_pv[k] = (words[at + 1], int(words[at + 2]), words[words.index("pv") + 1])
        best = lines[-1].split()[1]
        return (None if best == "(none)" else best), lines_by_pv


def play_game(sf: Player, start: str, rng: random.Random,
              args: argparse.Namespace) -> tuple[list[tuple[int, str, int, int, str]], float]:
    """Rows (ply, kind, score, material, fen, side) and the result for White (1, 0.5, 0)."""
    sf.send("ucinewgame")
    moves, rows, seen = [], [], collections.Counter()
    white_to_move_at_start = start.split()[1] == "w"
    multipv = 0
    result_for_mover = None  # from the view of the side to move at the end
    for ply in range(args.max_plies):
        fen, in_check = sf.board(start, moves)
        seen[" ".join(fen.split()[:4])] += 1
        if seen[" ".join(fen.split()[:4])] >= 3 or insufficient_material(fen):
            result_for_mover = 0.5
            break
        want = args.multipv if ply < args.random_plies else 1
        if want != multipv:
            sf.send(f"setoption name MultiPV value {want}")
            multipv = want
        best, lines = sf.search(args.nodes)
        if best is None:
            result_for_mover = 0.0 if in_check else 0.5
            break
        if int(fen.split()[4]) >= 100:
            result_for_mover = 0.5
            break
        kind, value, _ = lines[1]
        rows.append((ply, kind, value, material(fen), fen))
        if want > 1:
            choices = [(v, m) for k, (kd, v, m) in sorted(lines.items()) if kd == "cp"]
            if len(choices) == len(lines):
                top = max(v for v, _ in choices)
                weights = [math.exp((v - top) / args.temperature) for v, _ in choices]
                best = rng.choices([m for _, m in choices], weights)[0]
        moves.append(best)
    if result_for_mover is None:
        result_for_mover = 0.5  # ply cap
    plies = len(moves)
    white_moves_last = white_to_move_at_start == (plies % 2 == 0)
    white_result = result_for_mover if white_moves_last else 1 - result_for_mover
    return rows, white_result


def play(args: argparse.Namespace) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            for line in f:
                done.add(int(line.split("\t", 1)[0]))
    with open(BOOK if args.book is None else args.book) as f:
        book = [" ".join(line.split()[:4]) for line in f if line.strip()]
    sf = Player(STOCKFISH)
    sf.send("setoption name Hash value 16")
    sf.send("setoption name Threads value 1")
    started = time.time()
    played = 0
    with open(args.out, "a") as out:
        for game in range(args.games):
            if game in done:
                continue
            rng = random.Random(args.seed * 1_000_003 + game)
            start = rng.choice(book) + " 0 1"
            rows, white_result = play_game(sf, start, rng, args)
            for ply, kind, value, mat, fen in rows:
                white = fen.split()[1] == "w"
                result = white_result if white else 1 - white_result
                out.write(f"{game}\t{ply}\t{kind}\t{value}\t{mat}\t{result:g}\t{fen}\n")
            out.flush()
            played += 1
            if played % 10 == 0:
                rate = (time.time() - started) / played
                print(f"{game + 1}/{args.games} games, {rate:.1f} s/game", file=sys.stderr)
    sf.close()


# ---------------------------------------------------------------------------------------
# Fit


def load(path: str) -> "tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]":
    """Arrays (game, x pawns clamped, material, result) over the rows with a cp score."""
    import numpy as np

    games, xs, ms, rs = [], [], [], []
    with open(path) as f:
        for line in f:
            game, _, kind, value, mat, result, _ = line.rstrip("\n").split("\t")
            if kind != "cp":
                continue
            games.append(int(game))
            xs.append(int(value) / 100)
            ms.append(int(mat))
            rs.append(float(result))
    x = np.clip(np.array(xs), -20, 20)
    return np.array(games), x, np.array(ms, dtype=float), np.array(rs)


def polynomial(coefficients: "torch.Tensor", m: "torch.Tensor") -> "torch.Tensor":
    """coefficients[0] + coefficients[1] t + ... with t = clamp(m) / 58."""
    import torch

    t = torch.clamp(m, MATERIAL_MIN, 78) / MATERIAL_NORM
    value = torch.zeros_like(t)
    for c in reversed(coefficients):
        value = value * t + c
    return value


def model_probabilities(params: "torch.Tensor", x: "torch.Tensor",
                        m: "torch.Tensor") -> "torch.Tensor":
    import torch

    terms = len(params) // 2
    a = polynomial(params[:terms], m)
    b = polynomial(params[terms:], m)
    win = torch.sigmoid((x - a) / b)
    loss = torch.sigmoid((-x - a) / b)
    return torch.stack([win, 1 - win - loss, loss], dim=1)


def log_loss(p: "np.ndarray", outcome: "np.ndarray") -> float:
    """Mean negative log-likelihood of outcomes (0 win, 1 draw, 2 loss) in nats."""
    import numpy as np

    p = np.clip(p, 1e-9, 1)
    return float(-np.mean(np.log(p[np.arange(len(outcome)), outcome])))


def fit_polynomials(x: "np.ndarray", m: "np.ndarray", outcome: "np.ndarray",
                    terms: int) -> "torch.Tensor":
    import torch

    xt = torch.tensor(x, dtype=torch.float64)
    mt = torch.tensor(m, dtype=torch.float64)
    ot = torch.tensor(outcome)
    # Start from a flat model: a = 2 pawns, b = 1 pawn.
    params = torch.zeros(2 * terms, dtype=torch.float64)
    params[0], params[terms] = 2.0, 1.0
    params.requires_grad_(True)
    optimiser = torch.optim.LBFGS([params], max_iter=500, line_search_fn="strong_wolfe")

    def closure():
        optimiser.zero_grad()
        p = torch.clamp(model_probabilities(params, xt, mt), 1e-12, 1)
        nll = -torch.log(p[torch.arange(len(ot)), ot]).mean()
        nll.backward()
        return nll

    for _ in range(5):
        optimiser.step(closure)
    return params.detach()


def fit(args: argparse.Namespace) -> None:
    import numpy as np
    import torch

    torch.set_num_threads(1)
    games, x, m, result = load(args.tsv)
    outcome = np.where(result == 1, 0, np.where(result == 0.5, 1, 2))
    held_out = (games * 2654435761 % 2**32) % 10 == 0
    train = ~held_out
    n_games = len(set(games.tolist()))
    print(f"{len(x)} positions with a cp score from {n_games} games "
          f"({held_out.sum()} positions of {len(set(games[held_out].tolist()))} games held out)")
    counts = np.bincount(outcome[train], minlength=3) / train.sum()
    print(f"training outcomes W/D/L: {counts.round(3).tolist()}")

    s = 1 / (1 + np.exp(-0.00368208 * 100 * x))
    baseline = np.stack([s * s, 1 - s * s - (1 - s) ** 2, (1 - s) ** 2], axis=1)
    constant = np.tile(counts, (len(x), 1))
    figures = {"W = s^2, L = (1-s)^2": baseline, "constant W/D/L": constant}
    fitted = {}
    for terms in args.terms:
        params = fit_polynomials(x[train], m[train], outcome[train], terms)
        p = model_probabilities(params, torch.tensor(x), torch.tensor(m)).numpy()
        fitted[terms] = (params, p)
        figures[f"fitted, degree {terms - 1} polynomials"] = p
    print("\nlog-loss (nats per position)      train    held out")
    for name, p in figures.items():
        print(f"  {name:30s}  {log_loss(p[train], outcome[train]):.4f}   "
              f"{log_loss(p[held_out], outcome[held_out]):.4f}")

    terms = args.terms[-1]
    params, p = fitted[terms]
    print(f"\nchosen: degree {terms - 1}, t = clamp(m, {MATERIAL_MIN}, 78) / 58, in pawns; "
          "for src/search/wdl_model.cpp:")
    for name, coefficients in (("kA", params[:terms]), ("kB", params[terms:])):
        print(f"  constexpr std::array<double, {terms}> {name} = "
              "{" + ", ".join(f"{c:.6f}" for c in coefficients.tolist()) + "};")
    grid = torch.arange(0, 79, dtype=torch.float64)
    a_grid = polynomial(params[:terms], grid)
    b_grid = polynomial(params[terms:], grid)
    print(f"  over m = 0..78: a in [{a_grid.min():.3f}, {a_grid.max():.3f}], "
          f"b in [{b_grid.min():.3f}, {b_grid.max():.3f}]")
    assert a_grid.min() > 0 and b_grid.min() > 0, "a and b must stay positive"
    for mm in (1, 10, 20, 30, 40, 50, 60, 70, 78):
        print(f"    m = {mm:2d}: a = {a_grid[mm]:.3f} pawns, b = {b_grid[mm]:.3f}")

    print("\nheld out: draws predicted by the fit / by s^2 / observed (positions), by |x| and m")
    cp_edges = [0, 0.5, 1, 2, 4, 100]
    m_edges = [0, 10, 20, 35, 55, 79]
    header = "  |x| pawns  " + "".join(f"   m {lo:2d}-{hi - 1:2d}          " for lo, hi in
                                       zip(m_edges, m_edges[1:]))
    print(header)
    for lo, hi in zip(cp_edges, cp_edges[1:]):
        cells = []
        for mlo, mhi in zip(m_edges, m_edges[1:]):
            sel = held_out & (abs(x) >= lo) & (abs(x) < hi) & (m >= mlo) & (m < mhi)
            if sel.sum() < 20:
                cells.append(f"{'':22s}")
                continue
            cells.append(f"{p[sel, 1].mean():.2f}/{baseline[sel, 1].mean():.2f}/"
                         f"{(outcome[sel] == 1).mean():.2f} ({sel.sum():4d}) ")
        print(f"  {lo:4.1f}-{hi:<5.1f} " + "".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="append Stockfish self-play games to a TSV")
    p.add_argument("--games", type=int, default=1500, help="game ids 0..N-1 (done ids skip)")
    p.add_argument("--nodes", type=int, default=4000)
    p.add_argument("--out", default="games.tsv", help="the games TSV, appended to")
    p.add_argument("--book", default=None,
                   help="EPD of openings (default $AVOCET_BOOKS/noob_3moves.epd)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-plies", type=int, default=400, help="a draw beyond this")
    p.add_argument("--random-plies", type=int, default=6,
                   help="plies that sample among the MultiPV moves")
    p.add_argument("--multipv", type=int, default=3)
    p.add_argument("--temperature", type=float, default=25, help="softmax temperature, cp")
    f = sub.add_parser("fit", help="fit a(m), b(m) and print the figures")
    f.add_argument("tsv")
    f.add_argument("--terms", type=int, nargs="+", default=[2, 3, 4],
                   help="coefficients per polynomial (degree + 1) to compare; the last is "
                   "printed")
    args = parser.parse_args()
    play(args) if args.command == "play" else fit(args)


if __name__ == "__main__":
    main()
