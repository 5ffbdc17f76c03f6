"""SPSA over Avocet's search parameters by games, with fishtest's rules: each step plays game
pairs (both colours of one book opening) between the current values pushed up and pushed down
along a random sign per parameter, and moves every parameter along its sign by the result.

    python3 -m tools.measure.spsa --engine /tmp/avocet-base --state /tmp/spsa/cpuct.json \\
        --param CPuct=1075,300,4000,150,0.002 --param MinimaxBlend=50,0,100,8,0.002 \\
        --pairs 2000 --each tc=10+0.1 --fastchess /work/fastchess/fastchess

A parameter is NAME=START,MIN,MAX,C_END,R_END, as fishtest writes it: NAME is one of the
engine's `search_parameter` UCI options (`avocet --help` lists them, in their integer units),
C_END the push at the last step (choose it so that THETA +- C_END differ by a few Elo) and
R_END the learning rate there. With N game pairs in all, A = --a-ratio x N, alpha 0.602 and
gamma 0.101 (fishtest's defaults), the step k (counted in game pairs, from 1) uses, for each
parameter,

    c_k = C_END x N^gamma / k^gamma
    R_k = R_END x C_END^2 x (A + N)^alpha / (A + k)^alpha / c_k^2

plays --batch pairs of THETA + c_k x flip against THETA - c_k x flip (rounded to the option's
integers, clamped to [MIN, MAX]), and adds R_k x c_k x (wins - losses of the first) x flip to
THETA, clamped. Fishtest's workers play the same steps concurrently; here one fastchess runs
a batch with --concurrency games at a time.

The run's state (every parameter's THETA, the pairs played, each step's result) is a JSON file,
written after every step: a stopped tuner, or one moved to another machine with its state file,
resumes where it stopped, and a state file committed to a results log is the record of the run.
The end prints the tuned values as `--set` words for `avocet bench` and `puzzles`, and as the
fastchess options to confirm them by SPRT against the start (tools/measure/sprt.py).

Standard library only.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from tools.measure.rating import last_summary  # fastchess logs' last result

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
ALPHA = 0.602
GAMMA = 0.101


@dataclass
class Parameter:
    """One tuned option: its range, fishtest's C_END and R_END, and its current value."""
    name: str
    start: float
    low: float
    high: float
    c_end: float
    r_end: float
    theta: float

    @classmethod
    def parse(cls, text: str) -> "Parameter":
        """NAME=START,MIN,MAX,C_END,R_END; a ValueError names what is wrong."""
        name, _, values = text.partition("=")
        fields = values.split(",")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or len(fields) != 5:
            raise ValueError(f"--param {text!r}: expected NAME=START,MIN,MAX,C_END,R_END")
        try:
            start, low, high, c_end, r_end = (float(f) for f in fields)
        except ValueError:
            raise ValueError(f"--param {text!r}: START, MIN, MAX, C_END and R_END are numbers")
        if not low <= start <= high:
            raise ValueError(f"--param {text!r}: START must lie in [MIN, MAX]")
        if c_end <= 0 or r_end <= 0:
            raise ValueError(f"--param {text!r}: C_END and R_END must be above 0")
        return cls(name, start, low, high, c_end, r_end, start)

    def clamp(self, value: float) -> float:
        return min(max(value, self.low), self.high)


@dataclass
class Schedule:
    """Fishtest's gains for a run of `pairs` game pairs."""
    pairs: int
    a_ratio: float = 0.1

    @property
    def big_a(self) -> float:
        return self.a_ratio * self.pairs

    def c_k(self, p: Parameter, k: int) -> float:
        """The push at step k (k >= 1, in game pairs): C_END at k = pairs."""
        return p.c_end * self.pairs ** GAMMA / k ** GAMMA

    def r_k(self, p: Parameter, k: int) -> float:
        """The learning rate at step k: R_END at k = pairs."""
        a = p.r_end * p.c_end ** 2 * (self.big_a + self.pairs) ** ALPHA
        return a / (self.big_a + k) ** ALPHA / self.c_k(p, k) ** 2


def probes(params: Sequence[Parameter], schedule: Schedule, k: int,
           flips: Sequence[int]) -> tuple[dict[str, int], dict[str, int]]:
    """The two engines' option values at step k: THETA + c_k x flip and THETA - c_k x flip,
    clamped and rounded to the options' integers."""
    plus, minus = {}, {}
    for p, flip in zip(params, flips):
        push = schedule.c_k(p, k) * flip
        plus[p.name] = round(p.clamp(p.theta + push))
        minus[p.name] = round(p.clamp(p.theta - push))
    return plus, minus


def update(params: Sequence[Parameter], schedule: Schedule, k: int, flips: Sequence[int],
           result: int) -> None:
    """Moves every THETA by R_k x c_k x result x flip (result: wins - losses of the plus side
    over the step's pairs), clamped to its range."""
    for p, flip in zip(params, flips):
        p.theta = p.clamp(p.theta + schedule.r_k(p, k) * schedule.c_k(p, k) * result * flip)


def read_result(log: str) -> tuple[int, int, int]:
    """Wins, draws and losses of the engine named `plus` in a fastchess log's last summary."""
    names, counts = last_summary(log)
    if not names or not counts or "plus" not in names:
        raise ValueError(f"{log}: no result of plus against minus in this log")
    _, wins, losses, draws = counts
    if names[0] != "plus":
        wins, losses = losses, wins
    return wins, draws, losses


def fastchess_command(args: argparse.Namespace, plus: dict[str, int], minus: dict[str, int],
                      seed: int, log: str) -> list[str]:
    """One step's match: --batch pairs, each opening with both colours."""
    def engine(name: str, values: dict[str, int]) -> list[str]:
        return ["-engine", f"cmd={os.path.abspath(args.engine)}", f"name={name}",
                *[f"option.{o}" for o in args.option],
                *[f"option.{n}={v}" for n, v in values.items()]]
    return [args.fastchess, *engine("plus", plus), *engine("minus", minus),
            "-each", *args.each, "option.Threads=1", "option.Hash=16",
            "-openings", f"file={args.book}", "format=epd", "order=random", "-repeat",
            "-rounds", str(args.batch), "-games", "2", "-srand", str(seed),
            "-concurrency", str(args.concurrency), "-recover",
            "-pgnout", f"file={log[:-len('.log')]}.pgn"]


def new_state(args: argparse.Namespace) -> dict:
    params = []
    for text in args.param:
        try:
            params.append(Parameter.parse(text))
        except ValueError as error:
            sys.exit(f"spsa: {error}")
    if len({p.name for p in params}) != len(params):
        sys.exit("spsa: a parameter is given twice")
    return {"pairs": args.pairs, "a_ratio": args.a_ratio, "seed": args.seed, "done": 0,
            "wins": 0, "draws": 0, "losses": 0, "each": args.each,
            "params": [asdict(p) for p in params], "steps": []}


def load_state(path: str) -> dict:
    try:
        with open(path) as file:
            state = json.load(file)
        state["params"] = [Parameter(**p) for p in state["params"]]
    except (OSError, ValueError, TypeError, KeyError) as error:
        sys.exit(f"spsa: {path}: not a state file this tool wrote ({error})")
    missing = [k for k in ("pairs", "done", "seed", "steps", "a_ratio") if k not in state]
    if missing:
        sys.exit(f"spsa: {path}: not a state file this tool wrote (no {', '.join(missing)})")
    return state


def save_state(path: str, state: dict) -> None:
    record = dict(state, params=[asdict(p) for p in state["params"]])
    temporary = path + ".new"
    with open(temporary, "w") as file:
        json.dump(record, file, indent=1)
        file.write("\n")
    os.replace(temporary, path)  # a stop mid-write leaves the previous step's state


def summary(state: dict) -> str:
    params = state["params"]
    values = " ".join(f"{p.name}={round(p.theta)}" for p in params)
    moves = ", ".join(f"{p.name} {p.start:g} -> {p.theta:.1f}" for p in params)
    return (f"{state['done']} of {state['pairs']} pairs ({state['wins']} / {state['draws']} / "
            f"{state['losses']} for the plus side): {moves}\n"
            f"--set words: {' '.join('--set ' + v for v in values.split())}\n"
            f"fastchess options: {' '.join('option.' + v for v in values.split())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default=os.path.join(REPO, "build", "avocet"))
    parser.add_argument("--state", required=True,
                        help="the run's JSON state: created, or resumed when it exists")
    parser.add_argument("--param", action="append", default=[],
                        metavar="NAME=START,MIN,MAX,C_END,R_END",
                        help="a tuned option (repeatable; only for a new state)")
    parser.add_argument("--pairs", type=int, default=1000, help="game pairs in all (N)")
    parser.add_argument("--batch", type=int, default=2, help="game pairs a step")
    parser.add_argument("--a-ratio", type=float, default=0.1, help="A as a share of N")
    parser.add_argument("--each", nargs="+", default=["tc=10+0.1"],
                        help="fastchess -each limits, e.g. tc=10+0.1 or nodes=200")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option both engines get (repeatable)")
    parser.add_argument("--book", default=os.path.join(
        REPO, "..", "shared", "data", "books", "noob_3moves.epd"))
    parser.add_argument("--fastchess", default="fastchess")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument("--steps", type=int, help="stop after this many steps (resume later)")
    args = parser.parse_args()

    if args.pairs < 1 or args.batch < 1 or args.concurrency < 1 or args.a_ratio < 0:
        sys.exit("spsa: --pairs, --batch and --concurrency must be >= 1, --a-ratio >= 0")
    if not os.path.isfile(args.book):
        sys.exit(f"spsa: no opening book at {args.book} (give --book)")
    if os.path.exists(args.state):
        if args.param:
            sys.exit(f"spsa: {args.state} exists; its parameters are kept (drop --param to "
                     "resume it, or name a new --state)")
        state = load_state(args.state)
    else:
        if not args.param:
            sys.exit("spsa: a new run needs at least one --param")
        state = new_state(args)
        state["params"] = [Parameter(**p) for p in state["params"]]
        os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
        save_state(args.state, state)
    args.each = state.get("each", args.each)
    params = state["params"]
    schedule = Schedule(state["pairs"], state["a_ratio"])
    logs = os.path.splitext(os.path.abspath(args.state))[0] + "-games"
    os.makedirs(logs, exist_ok=True)

    steps = 0
    while state["done"] < state["pairs"] and (args.steps is None or steps < args.steps):
        k = state["done"] + 1
        # The flips of step k depend on the run's seed and k alone, so a resumed run draws
        # the ones the stopped run would have drawn.
        draw = random.Random(state["seed"] * 1_000_003 + k)
        flips = [draw.choice((-1, 1)) for _ in params]
        plus, minus = probes(params, schedule, k, flips)
        log = os.path.join(logs, f"step-{k:06d}.log")
        with open(log, "w") as out:
            status = subprocess.run(fastchess_command(args, plus, minus, state["seed"] + k, log),
                                    stdout=out, stderr=subprocess.STDOUT).returncode
        if status != 0:
            sys.exit(f"spsa: fastchess exited with {status} at step {k}; see {log} (the state "
                     "holds every step before it)")
        try:
            wins, draws, losses = read_result(log)
        except ValueError as error:
            sys.exit(f"spsa: {error}")
        pairs = (wins + draws + losses) // 2
        if pairs < 1:
            sys.exit(f"spsa: {log}: no finished game pair")
        update(params, schedule, k, flips, wins - losses)
        state["done"] += pairs
        state["wins"] += wins
        state["draws"] += draws
        state["losses"] += losses
        state["steps"].append({"k": k, "plus": plus, "minus": minus, "wins": wins,
                               "draws": draws, "losses": losses,
                               "theta": {p.name: round(p.theta, 3) for p in params}})
        save_state(args.state, state)
        steps += 1
        print(f"step {k}: {wins}/{draws}/{losses} plus {plus} minus {minus}", file=sys.stderr)
    print(summary(state))


if __name__ == "__main__":
    main()
