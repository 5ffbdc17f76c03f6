"""Turns the TCEC positions (../shared/data/tcec, CC BY-SA 3.0, TCEC) into annotation lines.

Each TCEC row is a position, the move an engine played there, that engine's score and depth,
and the game's result. Here it becomes a partial label, `FEN<TAB>move:score *:?`: the played
move scored, every other legal move unscored (`avocet datagen --from-tsv` adds them), which
train.py learns as a value and a best move (metrics.partial_policy_loss), as it does the
single-PV recipe's labels.

The scores come from many engines, each on its own scale, and the labels mean Stockfish 15.1
centipawns (datagen/shard.cpp turns them into win probabilities). So the scores are put on
Stockfish's scale first: `calibrate` has Stockfish search a sample of the positions (the
`--positions` rows whose hash falls lowest, scores within ±600 cp, the hash cleared before
each) and fits the one factor `scale` that best maps TCEC's score onto Stockfish's (least
squares through zero). It also prints, for comparison only, the factor the games' results
give (the logistic fit of the result on the scores within the same range, against the labels'
own curve): how often the side a deep search favoured went on to win, a different question
from what Stockfish would score. Mate scores are kept as they are.

    python3 -m tools.data.tcec calibrate ../shared/data/tcec/tcec-positions.tsv.xz --depth 10
    python3 -m tools.data.tcec convert ../shared/data/tcec/tcec-positions.tsv.xz --scale S \\
        -o DATA/external/tcec-sf15.tsv.xz

Then list the output with `manifest.py --external`, like the shared annotation files.
Standard library only (and Stockfish for `calibrate`).
"""

import argparse
import hashlib
import lzma
import math
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

from tools.uci_engine import STOCKFISH, UciEngine

# datagen/shard.cpp's win_probability_from_centipawns: W = 1 / (1 + exp(-K * cp)).
LABEL_SLOPE = 0.00368208
# Scores whose scales are compared: beyond this, a won position's score grows with whatever
# each engine adds for a won position, not with its chances.
CALIBRATION_RANGE = 600


class Row:
    __slots__ = ("fen", "move", "depth", "score", "result")

    def __init__(self, fen: str, move: str, depth: int, score: str, result: float) -> None:
        self.fen, self.move, self.depth, self.score, self.result = fen, move, depth, score, result

    def centipawns(self) -> int | None:
        """The score in centipawns, or None for a mate score."""
        return None if self.score.startswith("m") else int(self.score)


def parse_row(line: str) -> Row:
    """One TCEC row; raises ValueError saying what is wrong."""
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) != 5:
        raise ValueError(f"{len(fields)} tab-separated fields, not 5 (FEN move depth score result)")
    fen, move, depth, score, result = fields
    words = fen.split()
    if len(words) == 4:
        fen += " 0 1"
    elif len(words) != 6:
        raise ValueError(f"FEN '{fen}' has {len(words)} fields, not 4 or 6")
    if not (4 <= len(move) <= 5 and move[0] in "abcdefgh" and move[2] in "abcdefgh"):
        raise ValueError(f"move '{move}' is not UCI")
    if not depth.isdigit():
        raise ValueError(f"depth '{depth}' is not a whole number")
    mate = score[1:] if score.startswith("m") else None
    number = mate if mate is not None else score
    if not number.lstrip("-").isdigit() or mate in ("0", "-0"):
        raise ValueError(f"score '{score}' is neither centipawns nor mN / m-N")
    if result not in ("1", "0.5", "0"):
        raise ValueError(f"result '{result}' is not 1, 0.5 or 0")
    return Row(fen, move, int(depth), score, float(result))


class TcecFile:
    """The well-formed rows of a TCEC file (.xz or plain), in order, when iterated; each
    malformed row is reported as 'PATH line N: why' (the first `max_reports`) and counted."""

    def __init__(self, path: str, report: TextIO = sys.stderr, max_reports: int = 20) -> None:
        self.path, self.report, self.max_reports = path, report, max_reports
        self.malformed = 0

    def __iter__(self) -> Iterator[Row]:
        opener = lzma.open if self.path.endswith(".xz") else open
        self.malformed = 0
        with opener(self.path, "rt", encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                if not line.strip():
                    continue
                try:
                    yield parse_row(line)
                except ValueError as e:
                    self.malformed += 1
                    if self.malformed <= self.max_reports:
                        print(f"{self.path} line {number}: {e}", file=self.report)


def sample_key(fen: str) -> bytes:
    return hashlib.sha1(fen.encode()).digest()


def calibration_sample(rows: Iterable[Row], count: int) -> list[tuple[str, int]]:
    """The `count` rows with centipawn scores within CALIBRATION_RANGE whose FEN hashes lowest:
    a fixed sample, whatever the file's order."""
    chosen = sorted((sample_key(r.fen), r.fen, r.centipawns()) for r in rows
                    if r.centipawns() is not None and abs(r.centipawns()) <= CALIBRATION_RANGE)
    return [(fen, cp) for _, fen, cp in chosen[:count]]


def stockfish_score(engine: UciEngine, fen: str, depth: int) -> int | None:
    """Stockfish's last centipawn score at `depth`, side to move's view; None for a mate."""
    engine.send("ucinewgame")
    engine.send("isready")
    engine.read_until("readyok")
    engine.send(f"position fen {fen}")
    engine.send(f"go depth {depth}")
    score = None
    for line in engine.read_until("bestmove"):
        words = line.split()
        if "score" in words:
            kind, value = words[words.index("score") + 1:words.index("score") + 3]
            score = int(value) if kind == "cp" else None
    return score


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def fit_scale(pairs: Sequence[tuple[float, float]]) -> float:
    """The factor s minimising sum (stockfish - s * tcec)^2 over (tcec, stockfish) pairs."""
    den = sum(t * t for t, _ in pairs)
    if not den:
        raise ValueError("no pair with a non-zero TCEC score to fit the scale on")
    return sum(t * sf for t, sf in pairs) / den


def fit_result_slope(pairs: Sequence[tuple[float, float]]) -> float:
    """The k maximising the likelihood of the results (1, 0.5, 0 as a fraction won) under
    W = 1 / (1 + exp(-k * score)), over (score, result) pairs. The log-likelihood is concave in
    k, so its derivative, sum (result - W) * score, falls as k grows: bisection finds its zero
    (Newton's method overshoots where scores reach thousands of centipawns)."""
    def slope_of_likelihood(k):
        return sum((r - sigmoid(k * t)) * t for t, r in pairs)

    low, high = 0.0, LABEL_SLOPE
    while slope_of_likelihood(high) > 0:
        low, high = high, 2 * high
        if high > 1:
            raise ValueError("the results do not fall with the score: no slope fits them")
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if slope_of_likelihood(middle) > 0 else (low, middle)
    return (low + high) / 2


def annotation_line(row: Row, scale: float) -> str:
    cp = row.centipawns()
    score = row.score if cp is None else str(round(cp * scale))
    return f"{row.fen}\t{row.move}:{score} *:?\n"


def calibrate(args: argparse.Namespace) -> None:
    tcec = TcecFile(args.tcec)
    rows = list(tcec)
    sample = calibration_sample(rows, args.positions)
    engine = UciEngine(args.stockfish)
    pairs = []
    for i, (fen, cp) in enumerate(sample, 1):
        sf = stockfish_score(engine, fen, args.depth)
        if sf is not None and abs(sf) <= 2 * CALIBRATION_RANGE:
            pairs.append((cp, sf))
        if i % 250 == 0:
            print(f"{i}/{len(sample)} positions", file=sys.stderr)
    engine.close()
    scale = fit_scale(pairs)
    print(f"{len(rows)} rows ({tcec.malformed} malformed); Stockfish depth {args.depth} on "
          f"{len(pairs)} of {len(sample)} sampled positions")
    print(f"scale {scale:.4f}: Stockfish centipawns per TCEC centipawn (least squares)",
          flush=True)
    results = [(r.centipawns(), r.result) for r in rows
               if r.centipawns() is not None and abs(r.centipawns()) <= CALIBRATION_RANGE]
    slope = fit_result_slope(results)
    print(f"the games' results: W = 1/(1+exp(-{slope:.6f} * score)), a scale of "
          f"{slope / LABEL_SLOPE:.4f} against the labels' curve (for comparison)")


def convert(args: argparse.Namespace) -> None:
    counts = {"rows": 0, "mates": 0, "shallow": 0}
    temporary = args.output + ".part"
    opener = lzma.open if args.output.endswith(".xz") else open
    with opener(temporary, "wt", encoding="utf-8") as out:
        tcec = TcecFile(args.tcec)
        for row in tcec:
            if row.depth < args.min_depth:
                counts["shallow"] += 1
                continue
            counts["rows"] += 1
            counts["mates"] += row.centipawns() is None
            out.write(annotation_line(row, args.scale))
    os.replace(temporary, args.output)
    print(f"{args.output}: {counts['rows']} positions ({counts['mates']} mate scores), scale "
          f"{args.scale}; left out: {counts['shallow']} below depth {args.min_depth}, "
          f"{tcec.malformed} malformed")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    cal = commands.add_parser("calibrate", help="fit the scale onto Stockfish 15.1's")
    cal.add_argument("tcec", help="tcec-positions.tsv.xz")
    cal.add_argument("--positions", type=int, default=2000, help="sample size (default 2000)")
    cal.add_argument("--depth", type=int, default=10, help="Stockfish's depth (default 10)")
    cal.add_argument("--stockfish", default=STOCKFISH)
    conv = commands.add_parser("convert", help="write the annotation lines")
    conv.add_argument("tcec", help="tcec-positions.tsv.xz")
    conv.add_argument("--scale", type=float, required=True, help="from `calibrate`")
    conv.add_argument("--min-depth", type=int, default=0, help="leave out shallower searches")
    conv.add_argument("-o", "--output", required=True, help="annotation file (.tsv or .tsv.xz)")
    args = parser.parse_args(argv)
    if args.command == "calibrate" and args.positions < 2:
        parser.error(f"--positions must be >= 2, got {args.positions}")
    if args.command == "convert" and not (0 < args.scale < 10):
        parser.error(f"--scale must be between 0 and 10, got {args.scale}")
    try:
        calibrate(args) if args.command == "calibrate" else convert(args)
    except (OSError, ValueError, RuntimeError) as e:
        sys.exit(f"tcec.py: {e}")


if __name__ == "__main__":
    main()
