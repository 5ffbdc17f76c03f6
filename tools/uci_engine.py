"""Minimal UCI engine driver over pipes (standard library only): Stockfish or Avocet.

Example:
    >>> sf = UciEngine(STOCKFISH)
    >>> sf.perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2)
    (400, {...})
"""

import subprocess
import time
from collections.abc import Sequence

STOCKFISH = "/usr/games/stockfish"


class UciEngine:
    def __init__(self, path: str = STOCKFISH) -> None:
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.read_until("uciok")
        self.send("isready")
        self.read_until("readyok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def timed(self, fen: str, command: str, until: str,
              moves: Sequence[str] = ()) -> tuple[list[str], float]:
        """Sets the position, waits until the engine is ready, then sends `command` and reads up
        to the line starting with `until`. Returns (the lines, seconds from sending to it)."""
        position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send("isready")
        self.read_until("readyok")
        start = time.perf_counter()
        self.send(command)
        lines = self.read_until(until)
        return lines, time.perf_counter() - start

    def perft(self, fen: str, depth: int,
              moves: Sequence[str] = ()) -> tuple[int, dict[str, int], float]:
        """Returns (total nodes, {uci move: nodes}, seconds from `go perft` to the total)."""
        lines, seconds = self.timed(fen, f"go perft {depth}", "Nodes searched", moves)
        per_move = {}
        for line in lines[:-1]:
            if ": " in line:
                move, count = line.split(": ")
                per_move[move] = int(count)
        return int(lines[-1].split(":")[1]), per_move, seconds

    def fen(self, fen: str, moves: Sequence[str] = ()) -> str:
        position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send("d")
        for line in self.read_until("Checkers"):
            if line.startswith("Fen: "):
                return line[5:]
        raise RuntimeError("no Fen line in stockfish's 'd' output")

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)
