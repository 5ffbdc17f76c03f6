"""Search threads benchmark: time to depth for each Threads value, in one run.

For every position of `avocet nnbench --positions`, a fresh game (`ucinewgame`) is searched
with `go depth D` (D theta iterations, the same tree shape whatever the thread count) once per
Threads value, timed from `go` to `bestmove`. Prints each search, then per thread count the
total time, the nodes per second and the speed-up against the first count: the time-to-depth
ratio is the standard measure of what extra threads buy (a ratio of nodes per second alone
counts work that the threads may duplicate). Games decide; this is the quick signal.

Usage:
    python3 -m tools.measure.bench_threads [--avocet build/avocet] [--threads 1,2] [--depth 10] \\
        [--repeat 1]
"""

import argparse
import os
import subprocess
import sys

from tools.uci_engine import UciEngine


def search(engine: UciEngine, fen: str, threads: int, depth: int) -> tuple[float, int, str]:
    """Returns (seconds from go to bestmove, nodes, best move)."""
    engine.send(f"setoption name Threads value {threads}")
    engine.send("ucinewgame")
    lines, seconds = engine.timed(fen, f"go depth {depth}", "bestmove")
    nodes = 0
    for line in lines:
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
    return seconds, nodes, lines[-1].split()[1]


def main() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--avocet", default=os.path.join(root, "build", "avocet"))
    parser.add_argument("--threads", default="1,2", help="comma-separated Threads values")
    parser.add_argument("--depth", type=int, default=10, help="theta iterations per search")
    parser.add_argument("--repeat", type=int, default=1, help="searches per position and count")
    parser.add_argument("--option", action="append", default=[],
                        help="extra UCI option as NAME=VALUE (repeatable)")
    args = parser.parse_args()
    try:
        counts = [int(t) for t in args.threads.split(",")]
    except ValueError:
        sys.exit(f"bench_threads: --threads must be comma-separated integers, got {args.threads!r}")
    if not counts or min(counts) < 1 or args.depth < 1 or args.repeat < 1:
        sys.exit("bench_threads: thread counts, --depth and --repeat must be >= 1")

    fens = subprocess.run([args.avocet, "nnbench", "--positions"], check=True,
                          capture_output=True, text=True).stdout.split("\n")
    fens = [f for f in fens if f.strip()]
    engine = UciEngine(args.avocet)
    for option in args.option:
        name, _, value = option.partition("=")
        engine.send(f"setoption name {name} value {value}")

    totals = {t: [0.0, 0] for t in counts}
    print(f"{'position':>8} {'threads':>7} {'seconds':>8} {'nodes':>7} {'nodes/s':>8} best")
    for index, fen in enumerate(fens, 1):
        for threads in counts:
            for _ in range(args.repeat):
                seconds, nodes, best = search(engine, fen, threads, args.depth)
                totals[threads][0] += seconds
                totals[threads][1] += nodes
                print(f"{index:>8} {threads:>7} {seconds:>8.2f} {nodes:>7} "
                      f"{nodes / seconds:>8.0f} {best}", flush=True)
    engine.close()

    base_seconds, base_nodes = totals[counts[0]]
    print(f"\n{'threads':>7} {'seconds':>8} {'nodes':>8} {'nodes/s':>8} "
          f"{'time-to-depth speed-up':>23} {'nodes/s ratio':>14}")
    for threads in counts:
        seconds, nodes = totals[threads]
        print(f"{threads:>7} {seconds:>8.1f} {nodes:>8} {nodes / seconds:>8.0f} "
              f"{base_seconds / seconds:>22.2f}x "
              f"{(nodes / seconds) / (base_nodes / base_seconds):>13.2f}x")


if __name__ == "__main__":
    main()
