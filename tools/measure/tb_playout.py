"""Tablebase play-out check (issue 12): can Avocet convert won 3-4 piece endgames?

Generates N random legal 3-4 piece positions from the tables in --syzygy (one table picked at
random, its pieces placed at random, side to move at random), probes each with `avocet tb`,
keeps the --keep won positions with the longest DTZ, and plays each out: Avocet (the winning
side) against Stockfish, both with SyzygyPath set to the same tables, at --movetime ms a move.
Prints per position: FEN, DTZ, result (mate / draw by the 50-move rule / repetition /
stalemate / insufficient material / move limit), plies; then "converted X of K".

Standard library only (no python-chess): positions are checked and games are judged with
Avocet's own `position` / `d` / `go perft 1` over UCI.

Example:
    python3 -m tools.measure.tb_playout --positions 400 --keep 20          # the issue's check
    python3 -m tools.measure.tb_playout --positions 60 --keep 2            # a quick smoke run
"""

import argparse
import os
import random
import re
import sys
from collections.abc import Sequence

from tools.uci_engine import STOCKFISH, UciEngine

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def tables(directory: str) -> list[str]:
    """Material names with a WDL and a DTZ table and 3-4 pieces, e.g. 'KQvKR'."""
    names = set()
    for f in os.listdir(directory):
        stem, ext = os.path.splitext(f)
        if ext == ".rtbw" and os.path.exists(os.path.join(directory, stem + ".rtbz")):
            if 3 <= len(stem.replace("v", "")) <= 4:
                names.add(stem)
    return sorted(names)


def random_fen(name: str, rng: random.Random) -> str:
    """A random placement of the material `name` (white first), no castling, no en passant."""
    white, black = name.split("v")
    board = [None] * 64
    for colour, pieces in (("w", white), ("b", black)):
        for p in pieces:
            while True:
                sq = rng.randrange(64)
                rank = sq // 8
                if board[sq] is None and not (p == "P" and rank in (0, 7)):
                    break
            board[sq] = p.upper() if colour == "w" else p.lower()
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            piece = board[rank * 8 + f]
            if piece is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + piece
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + rng.choice("wb") + " - - 0 1"


class Avocet(UciEngine):
    def board(self, fen: str, moves: Sequence[str] = ()) -> tuple[str, int, bool]:
        """(FEN after the moves, number of legal moves, in check) from `d` and `go perft 1`."""
        position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send("d")
        lines = self.read_until("Checkers:")
        now = next(line[5:] for line in lines if line.startswith("Fen: "))
        check = lines[-1].strip() != "Checkers:"
        self.send("go perft 1")
        total = int(self.read_until("Nodes searched")[-1].split(":")[1])
        return now, total, check


def probe(avocet_bin: str, syzygy: str, fen: str) -> tuple[int, int] | None:
    """(wdl, dtz) of `fen` by `avocet tb`, or None when it is not a legal table position."""
    import subprocess

    r = subprocess.run(
        [avocet_bin, "tb", "--SyzygyPath", syzygy, fen], capture_output=True, text=True, check=False
    )
    if r.returncode != 0:
        return None
    wdl = re.search(r"^wdl: (-?\d)", r.stdout, re.M)
    dtz = re.search(r"^dtz: (-?\d+)", r.stdout, re.M)
    if not wdl or not dtz:
        return None
    return int(wdl.group(1)), int(dtz.group(1))


def bestmove(engine: UciEngine, fen: str, moves: Sequence[str], movetime: int) -> str:
    position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
    engine.send(position)
    engine.send(f"go movetime {movetime}")
    return engine.read_until("bestmove")[-1].split()[1]


def play(avocet: UciEngine, stockfish: UciEngine, judge: Avocet, fen: str, movetime: int,
         max_plies: int) -> tuple[str, int]:
    """Plays `fen` out with Avocet on the side to move; returns (result, plies)."""
    for engine in (avocet, stockfish):
        engine.send("ucinewgame")
    moves, seen = [], {}
    for ply in range(max_plies):
        now, legal, check = judge.board(fen, moves)
        fields = now.split()
        key = " ".join(fields[:4])
        seen[key] = seen.get(key, 0) + 1
        if legal == 0:
            return ("mate" if check else "stalemate"), ply
        if int(fields[4]) >= 100:
            return "draw by 50-move rule", ply
        if seen[key] >= 3:
            return "draw by repetition", ply
        placement = fields[0]
        if re.fullmatch(r"[kK/1-8]*[bBnN]?[kK/1-8]*", placement):
            return "draw by insufficient material", ply
        avocet_moves = (ply % 2 == 0)
        engine = avocet if avocet_moves else stockfish
        moves.append(bestmove(engine, fen, moves, movetime))
    return "move limit", max_plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--avocet", default=os.path.join(ROOT, "build", "avocet"))
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--syzygy", default=os.path.join(ROOT, "..", "shared", "data", "syzygy"))
    parser.add_argument("--positions", type=int, default=400, help="random positions to draw")
    parser.add_argument("--keep", type=int, default=20, help="won positions to play out")
    parser.add_argument("--movetime", type=int, default=100, help="ms a move, both engines")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    syzygy = os.path.abspath(args.syzygy)
    names = tables(syzygy)
    if not names:
        sys.exit(f"tb_playout: no 3-4 piece tables with WDL and DTZ in {syzygy}")

    rng = random.Random(args.seed)
    judge = Avocet(args.avocet)
    won = []
    drawn = 0
    while drawn < args.positions:
        fen = random_fen(rng.choice(names), rng)
        result = probe(args.avocet, syzygy, fen)
        if result is None:
            continue  # refused (e.g. the side not to move in check) or not in the tables
        now, legal, _ = judge.board(fen)
        if now.split()[:2] != fen.split()[:2]:
            continue  # the engine refused the FEN and kept its previous position
        drawn += 1
        if legal and result[0] == 2:
            won.append((result[1], fen))
    won.sort(key=lambda x: -x[0])
    chosen = won[: args.keep]
    print(f"{len(won)} won of {drawn} random positions; playing the {len(chosen)} with the "
          f"longest DTZ at {args.movetime} ms a move", flush=True)

    avocet = UciEngine(args.avocet)
    stockfish = UciEngine(args.stockfish)
    for engine in (avocet, stockfish):
        engine.send(f"setoption name SyzygyPath value {syzygy}")
        engine.send("isready")
        engine.read_until("readyok")
    converted = 0
    for dtz, fen in chosen:
        result, plies = play(avocet, stockfish, judge, fen, args.movetime, args.max_plies)
        # Mate on an odd ply count: the side that started (Avocet) mated.
        ok = result == "mate" and plies % 2 == 1
        converted += ok
        print(f"{fen}\tdtz {dtz}\t{result}{'' if ok or result != 'mate' else ' (Avocet mated)'}"
              f"\t{plies} plies", flush=True)
    print(f"converted {converted} of {len(chosen)}")
    for engine in (avocet, stockfish, judge):
        engine.close()


if __name__ == "__main__":
    main()
