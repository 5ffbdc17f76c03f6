#!/usr/bin/env python3
"""Writes the random-position perft fixture: positions reached by random play from the start
position, each with Stockfish 15.1's `go perft` counts at depths 3 and 4.

Output lines: `FEN; D3 n; D4 n` (the format of the perft suite).

With --complete FILE it instead copies a perft suite, adding Stockfish's counts for the
depths below the first one listed, so that every position has a depth cheap enough for CI.

Usage:
    tools/make_perft_fixture.py --count 500 --seed 1 > tests/data/perft_random.epd
    tools/make_perft_fixture.py --complete ../shared/data/perft/perft.epd > tests/data/perft.epd
"""

import argparse
import random
import sys

from uci_engine import STOCKFISH, UciEngine

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def complete_suite(path, stockfish_path):
    sf = UciEngine(stockfish_path)
    for line in open(path):
        fen, *entries = [part.strip() for part in line.strip().split(";")]
        counts = {int(e.split()[0][1:]): int(e.split()[1]) for e in entries}
        for depth in range(1, min(counts)):
            counts[depth], _, _ = sf.perft(fen, depth)
        print(fen + "".join(f"; D{d} {n}" for d, n in sorted(counts.items())))
    sf.close()
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=160)
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--complete", metavar="FILE")
    args = parser.parse_args()
    if args.complete:
        return complete_suite(args.complete, args.stockfish)

    rng = random.Random(args.seed)
    sf = UciEngine(args.stockfish)
    seen = set()
    while len(seen) < args.count:
        # Random games, cut at a random ply; a game that ends early is simply dropped.
        target = rng.randint(1, args.max_plies)
        moves = []
        for _ in range(target):
            _, legal, _ = sf.perft(START, 1, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        fen = sf.fen(START, moves)
        if fen in seen:
            continue
        d3, _, _ = sf.perft(fen, 3)
        d4, _, _ = sf.perft(fen, 4)
        if d3 == 0:
            continue
        seen.add(fen)
        print(f"{fen}; D3 {d3}; D4 {d4}", flush=True)
    sf.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
