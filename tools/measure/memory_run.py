"""Resident memory of a long `go infinite` against the bound `Hash` promises, in one run.

    python3 -m tools.measure.memory_run build/avocet --hash 16 --seconds 600
    python3 -m tools.measure.memory_run build/avocet --hash 256 --seconds 600 --fen "FEN"

First the baseline, measured in the same run: the engine's resident memory at `Hash 1` after
a search of 100 nodes and `ucinewgame` (the net, the code, a search thread's stack and buffers,
a 1 MB table), then `Hash N` and `go infinite` from the position for --seconds, the process's
VmRSS read from /proc every --every seconds, and `stop`. The bound is the baseline plus N MB:
one budget for the table and the tree (src/engine/README.md), so what the search holds above
the idle process must stay within N. It prints the peak, the peak above the baseline as a
share of N and the nodes searched, and exits 1 when the peak is above the bound (plus --slack
MB for the allocator's rounding).

Linux only (/proc). Standard library only.
"""

import argparse
import re
import subprocess
import sys
import time

MIB = 1024 * 1024


def resident_mib(pid: int) -> float:
    """The process's resident set (VmRSS) in MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / MIB
    raise RuntimeError(f"process {pid} has no VmRSS")


class Engine:
    """Avocet over UCI, its output read line by line."""

    def __init__(self, binary: str) -> None:
        self.process = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.last_info = ""

    def send(self, command: str) -> None:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix: str) -> str:
        for line in self.process.stdout:
            if line.startswith("info ") and " nodes " in line:
                self.last_info = line
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"the engine ended before '{prefix}'")

    def ready(self) -> None:
        self.send("isready")
        self.wait_for("readyok")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--hash", type=int, default=16, help="Hash in MB")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--every", type=float, default=1.0, help="seconds between readings")
    parser.add_argument("--fen", help="the position (default: the start after 1. e4 e5)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--slack", type=float, default=4.0,
                        help="MB over the bound still passed (allocator rounding)")
    args = parser.parse_args()
    if args.hash < 1 or args.seconds <= 0 or args.every <= 0:
        sys.exit("memory_run: --hash must be >= 1, --seconds and --every above 0")

    engine = Engine(args.binary)
    pid = engine.process.pid
    engine.send("uci")
    engine.wait_for("uciok")
    for option in args.option:
        name, _, value = option.partition("=")
        engine.send(f"setoption name {name} value {value}")
    # The baseline has searched once, so it holds what any search holds whatever its length
    # (the search thread's stack, the evaluator's buffers); ucinewgame gives the tree back.
    engine.send("setoption name Hash value 1")
    engine.send("position startpos")
    engine.send("go nodes 100")
    engine.wait_for("bestmove")
    engine.send("ucinewgame")
    engine.ready()
    baseline = resident_mib(pid)

    engine.send(f"setoption name Hash value {args.hash}")
    engine.send("ucinewgame")
    engine.send(f"position fen {args.fen}" if args.fen else "position startpos moves e2e4 e7e5")
    engine.ready()
    engine.send("go infinite")
    start = time.monotonic()
    peak, readings = resident_mib(pid), []
    while time.monotonic() - start < args.seconds:
        time.sleep(min(args.every, max(args.seconds - (time.monotonic() - start), 0)))
        readings.append(resident_mib(pid))
        peak = max(peak, readings[-1])
    engine.send("stop")
    engine.wait_for("bestmove")
    engine.send("quit")
    engine.process.wait(timeout=30)

    nodes = re.search(r" nodes (\d+)", engine.last_info)
    bound = baseline + args.hash
    above = peak - baseline
    print(f"Hash {args.hash} MB, go infinite {args.seconds:g} s, {len(readings)} readings, "
          f"{nodes.group(1) if nodes else '?'} nodes")
    print(f"idle at Hash 1 after a search: {baseline:.1f} MiB; peak {peak:.1f} MiB; "
          f"above idle {above:.1f} MiB = {above / args.hash:.2f} x Hash; bound {bound:.1f} MiB")
    if peak > bound + args.slack:
        print(f"over the bound by {peak - bound:.1f} MiB")
        return 1
    print("within the bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
