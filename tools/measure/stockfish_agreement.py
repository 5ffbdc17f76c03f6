"""How often Stockfish itself picks a move the labels rank best: the reference line for the
net's held-out action accuracy.

The labels in `sf-annotations` are per-move values from one MultiPV search at depth 7 for
every legal move. train.py and evaluate.py count a hit when the net's move has the best
labelled win probability (mates for the mover all tie at 1). This scores Stockfish's own
`bestmove`, searched to each depth with a cleared hash, the same way on the same held-out
positions (the first N of the hash split, in file order). It tells what an accuracy means:
a single-PV search ranks moves differently from the MultiPV search that made the labels,
so even Stockfish at the labels' depth does not reach 100%.

Example:
    /usr/bin/python3 -m tools.measure.stockfish_agreement \\
        ../shared/data/sf-annotations/sf15-d7-001.tsv.xz --positions 2000 --depths 1 3 5 7
"""

import argparse
import lzma
import math
import sys
from collections.abc import Sequence

from tools.train import chess_tokens
from tools.train import split
from tools.uci_engine import STOCKFISH, UciEngine


def win_probability(score: str) -> float | None:
    """The shards' conversion (datagen/shard.cpp): centipawns through the logistic fit,
    mate for the mover 1, mated 0. None for a malformed score."""
    try:
        if score.startswith("m"):
            moves = int(score[1:])
            return None if moves == 0 else float(moves > 0)
        return 1.0 / (1.0 + math.exp(-0.00368208 * int(score)))
    except ValueError:
        return None


def held_out_positions(path: str, count: int,
                       percent: int) -> list[tuple[str, dict[str, float]]]:
    """(FEN, {move: win probability}) for the first `count` held-out positions of a file."""
    opener = lzma.open if path.endswith(".xz") else open
    chosen = []
    with opener(path, "rt") as lines:
        for number, line in enumerate(lines, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 2:
                print(f"{path}:{number}: expected FEN<TAB>moves, skipped", file=sys.stderr)
                continue
            fen, moves = fields
            values = {}
            for item in moves.split():
                move, _, score = item.partition(":")
                values[move] = win_probability(score)
            if not values or None in values.values():
                print(f"{path}:{number}: malformed move value, skipped", file=sys.stderr)
                continue
            if split.is_held_out(chess_tokens.tokenize(fen), percent):
                chosen.append((fen, values))
                if len(chosen) == count:
                    break
    return chosen


def agreement(engine: UciEngine, positions: Sequence[tuple[str, dict[str, float]]],
              depth: int) -> float:
    """Share of positions where Stockfish's bestmove at `depth` has the best labelled value."""
    hits = 0
    for fen, values in positions:
        engine.send("ucinewgame")
        engine.send("isready")
        engine.read_until("readyok")
        engine.send(f"position fen {fen}")
        engine.send(f"go depth {depth}")
        move = engine.read_until("bestmove")[-1].split()[1]
        hits += values.get(move, -1.0) >= max(values.values()) - 1e-6
    return hits / len(positions)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("annotations", help="an sf-annotations file (.tsv or .tsv.xz)")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 3, 5, 7])
    parser.add_argument("--validation-percent", type=int, default=3)
    parser.add_argument("--stockfish", default=STOCKFISH)
    args = parser.parse_args()

    positions = held_out_positions(args.annotations, args.positions, args.validation_percent)
    if not positions:
        sys.exit(f"{args.annotations}: no held-out positions")
    engine = UciEngine(args.stockfish)
    engine.send("setoption name Threads value 1")
    engine.send("setoption name Hash value 16")
    for depth in args.depths:
        share = agreement(engine, positions, depth)
        print(f"{args.annotations}: Stockfish depth {depth}: {share:.2%} of {len(positions)} "
              "held-out positions pick a best-labelled move", flush=True)
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
