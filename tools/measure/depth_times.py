"""How long `go depth N` takes, position by position, and whether `depth` ever decreases.

Runs BINARY over UCI (`ucinewgame` before each position) on the bench positions (read from
src/engine/bench.cpp, where they are defined) or the FENs of --fens, and prints for each the
wall time of `go depth N` from the command to `bestmove`, the first and last reported depth,
whether the depths of the info lines never decreased, the nodes and the final seldepth.

Usage: python3 -m tools.measure.depth_times build/avocet [--depth 12] [--fens FILE]

Only the standard library is needed.
"""

import argparse
import pathlib
import re
import subprocess
import sys
import time

BENCH_SOURCE = pathlib.Path(__file__).resolve().parents[2] / "src/engine/bench.cpp"


def bench_positions() -> list[str]:
    text = BENCH_SOURCE.read_text()
    block = text[text.index("kBenchPositions[] = {"):]
    block = block[:block.index("};")]
    return re.findall(r'"([^"]+)"', block)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--fens",
                        help="a file with one FEN per line (default: the bench positions)")
    args = parser.parse_args()
    fens = ([line.strip() for line in open(args.fens) if line.strip()] if args.fens
            else bench_positions())

    engine = subprocess.Popen([args.binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(command: str) -> None:
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    def wait_ready() -> None:
        send("isready")
        while engine.stdout.readline().strip() != "readyok":
            pass

    send("uci")
    wait_ready()
    worst, all_monotone = 0.0, True
    for fen in fens:
        send("ucinewgame")
        send("position fen " + fen)
        wait_ready()
        start = time.monotonic()
        send(f"go depth {args.depth}")
        depths, last = [], ""
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine exited during a search")
            if match := re.match(r"info depth (\d+) ", line):
                depths.append(int(match.group(1)))
                last = line
            if line.startswith("bestmove"):
                break
        seconds = time.monotonic() - start
        worst = max(worst, seconds)
        monotone = all(a <= b for a, b in zip(depths, depths[1:]))
        all_monotone &= monotone
        nodes = re.search(r" nodes (\d+)", last).group(1)
        seldepth = re.search(r" seldepth (\d+)", last).group(1)
        print(f"{seconds:6.2f} s  depth {depths[0]}..{depths[-1]}  never decreased: {monotone}  "
              f"nodes {nodes}  seldepth {seldepth}  {fen}")
    print(f"slowest {worst:.2f} s; depth never decreased: {all_monotone}")
    send("quit")
    return 0 if all_monotone else 1


if __name__ == "__main__":
    sys.exit(main())
