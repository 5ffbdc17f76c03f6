"""Perft speed benchmark: Avocet against Stockfish 15.1 on the same positions, in one run.

Both engines are driven the same way, over UCI pipes with `go perft N` (single thread, both
count the last ply in bulk), and timed from sending the command to reading the total. Each
position runs --repeat times per engine and the fastest run counts.

Usage:
    python3 -m tools.measure.bench_perft [--avocet build/avocet] [--stockfish /usr/games/stockfish]
"""

import argparse
import os
import sys

from tools.uci_engine import STOCKFISH, UciEngine

POSITIONS = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("endgame (cpw 3)", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("promotions (cpw 4)", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("middlegame (cpw 5)", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
    ("symmetric (cpw 6)",
     "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5),
]


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--avocet", default=os.path.join(root, "build", "avocet"))
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    engines = {"avocet": UciEngine(args.avocet), "stockfish": UciEngine(args.stockfish)}
    print(f"{'position':<20} {'depth':>5} {'nodes':>12} {'avocet Mn/s':>12} "
          f"{'stockfish Mn/s':>15} {'ratio':>6}")
    totals = {"avocet": 0.0, "stockfish": 0.0}
    all_nodes = 0
    for name, fen, depth in POSITIONS:
        best = {}
        counts = {}
        for engine_name, engine in engines.items():
            runs = [engine.perft(fen, depth) for _ in range(args.repeat)]
            counts[engine_name] = runs[0][0]
            best[engine_name] = min(seconds for _, _, seconds in runs)
            totals[engine_name] += best[engine_name]
        if counts["avocet"] != counts["stockfish"]:
            print(f"MISMATCH on {name}: avocet {counts['avocet']}, "
                  f"stockfish {counts['stockfish']}")
            return 1
        nodes = counts["avocet"]
        all_nodes += nodes
        print(f"{name:<20} {depth:>5} {nodes:>12} {nodes / best['avocet'] / 1e6:>12.1f} "
              f"{nodes / best['stockfish'] / 1e6:>15.1f} "
              f"{best['stockfish'] / best['avocet']:>6.2f}")
    print(f"{'overall':<20} {'':>5} {all_nodes:>12} {all_nodes / totals['avocet'] / 1e6:>12.1f} "
          f"{all_nodes / totals['stockfish'] / 1e6:>15.1f} "
          f"{totals['stockfish'] / totals['avocet']:>6.2f}")
    print("ratio = Stockfish time / Avocet time (above 1.0: Avocet is faster)")
    for engine in engines.values():
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
