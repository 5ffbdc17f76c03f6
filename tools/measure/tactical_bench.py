"""The tactical regression bench of issue 54: does a search keep positions it once lost?

Each position of the file (tools/measure/tactical_positions.tsv) is one where Avocet blundered
in a game. The engine searches it afresh for each think time (`go movetime T` after
`ucinewgame`); Stockfish then judges the move found: its value against the best move's, both
at a fixed depth, as win probabilities (w = 1 / (1 + exp(-0.00368208 cp)), mate 1 or 0). A
position is kept when the move found loses at most --margin (0.10) of the best. Options are
passed as Name=Value (for example SearchMode=puct).

Standard library only. Example:
    python3 -m tools.measure.tactical_bench --engine build/avocet --times 250 1000 \\
        --option SearchMode=puct
"""

import argparse
import math
import os
import sys

from tools.uci_engine import STOCKFISH, UciEngine

HERE = os.path.dirname(os.path.abspath(__file__))


def read_positions(path: str) -> list[tuple[str, str, str]]:
    """(fen, played, best) per line of the TSV file; '#' lines are comments."""
    positions = []
    with open(path) as file:
        for number, line in enumerate(file, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3 or len(fields[0].split()) != 6:
                sys.exit(f"{path}:{number}: expected 'FEN<TAB>played<TAB>best...', got {line!r}")
            positions.append(tuple(fields[:3]))
    return positions


def win_probability(line: str) -> float:
    """The win probability of the side to move behind an `info ... score ...` line."""
    words = line.split()
    kind, amount = words[words.index("score") + 1], int(words[words.index("score") + 2])
    if kind == "mate":
        return 1.0 if amount > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-0.00368208 * amount))


class Judge:
    """Stockfish's value of a move at a fixed depth, cached by (fen, move)."""

    def __init__(self, path: str, depth: int) -> None:
        self.engine = UciEngine(path)
        self.depth = depth
        self.cache = {}

    def value(self, fen: str, move: str | None = None) -> float:
        key = (fen, move)
        if key not in self.cache:
            self.engine.send("ucinewgame")
            command = f"go depth {self.depth}" + (f" searchmoves {move}" if move else "")
            lines, _ = self.engine.timed(fen, command, "bestmove")
            # The last exact score (a bound, `lowerbound`/`upperbound`, is not a value).
            scored = [line for line in lines if line.startswith("info") and " score " in line
                      and "bound" not in line]
            if not scored:
                raise RuntimeError(f"stockfish gave no score for {fen} {move or ''}")
            self.cache[key] = win_probability(scored[-1])
        return self.cache[key]


def search(engine: UciEngine, fen: str, milliseconds: int) -> str:
    engine.send("ucinewgame")
    lines, _ = engine.timed(fen, f"go movetime {milliseconds}", "bestmove")
    return lines[-1].split()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the engine to test (UCI)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option for the engine (repeatable)")
    parser.add_argument("--times", type=int, nargs="+", default=[250, 1000],
                        help="think times in milliseconds (default: 250 1000)")
    parser.add_argument("--positions", default=os.path.join(HERE, "tactical_positions.tsv"))
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--judge-depth", type=int, default=16)
    parser.add_argument("--margin", type=float, default=0.10,
                        help="the most win probability a kept move may lose (default 0.10)")
    args = parser.parse_args()

    positions = read_positions(args.positions)
    engine = UciEngine(args.engine)
    for option in args.option:
        name, sep, value = option.partition("=")
        if not sep:
            sys.exit(f"--option {option}: expected NAME=VALUE")
        engine.send(f"setoption name {name} value {value}")
    engine.send("isready")
    engine.read_until("readyok")
    judge = Judge(args.stockfish, args.judge_depth)

    kept_at = {}
    for milliseconds in args.times:
        kept = 0
        print(f"== {milliseconds} ms a move")
        for number, (fen, played, best) in enumerate(positions, 1):
            found = search(engine, fen, milliseconds)
            loss = judge.value(fen) - judge.value(fen, found)
            keeps = loss <= args.margin
            kept += keeps
            print(f"{number:2d}  {found:6s} loses {max(loss, 0):.2f}  "
                  f"{'kept' if keeps else 'LOST'}  (game: {played}, best: {best})", flush=True)
        kept_at[milliseconds] = kept
    engine.close()
    judge.engine.close()
    print("kept: " + ", ".join(f"{kept_at[t]} of {len(positions)} at {t} ms" for t in args.times))


if __name__ == "__main__":
    main()
