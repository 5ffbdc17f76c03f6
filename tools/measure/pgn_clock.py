"""How engines spent their clock, from fastchess PGNs.

fastchess writes each move's comment as `{score/depth 0.493s, tl=9.507s}` when the PGN is
written with `-pgnout file=games.pgn timeleft=true`: the think time, then the clock left after
the move. For each engine this prints:
  - games, and losses on time (Termination "time forfeit");
  - the clock left after its last move of each game, as seconds and as a share of the base
    time (minimum, 10th percentile, median, 90th percentile);
  - the mean and the spread of think time per move, by move number.

Usage: python3 -m tools.measure.pgn_clock games.pgn [more.pgn ...] [--engine NAME]

Only the standard library is needed.
"""

import argparse
import re
import statistics
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
# A move with its comment: "12. Nc3 {+3.09/2 0.137s, tl=0.460s}" or "Ne5 {...}".
MOVE = re.compile(r'(?:(\d+)\.(?:\.\.)?\s*)?([^\s{}]+)\s*\{([^}]*)\}')
THINK = re.compile(r'(?:^|\s)(\d+(?:\.\d+)?)s(?:,|\s|$)')
LEFT = re.compile(r'tl=(-?\d+(?:\.\d+)?)s')
# Move-number bands for the time-per-move table.
BANDS = [(1, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, 10**6)]


def parse_games(text: str) -> Iterator[dict[str, Any]]:
    """Yields dicts: tags, and moves as (side, move_number, think_seconds, left_seconds)."""
    for block in re.split(r'\n(?=\[Event )', text):
        tags, body = {}, []
        for line in block.splitlines():
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                body.append(line)
        if not tags:
            continue
        fen = tags.get("FEN", "")
        side = fen.split()[1] if len(fen.split()) > 1 else "w"
        fullmove = int(fen.split()[5]) if len(fen.split()) > 5 else 1
        moves = []
        for m in MOVE.finditer(" ".join(body)):
            comment = m.group(3)
            if m.group(1):
                fullmove = int(m.group(1))
            if comment.strip() == "book":
                pass
            else:
                think = THINK.search(comment)
                left = LEFT.search(comment)
                moves.append((side, fullmove, float(think.group(1)) if think else None,
                              float(left.group(1)) if left else None))
            if side == "b":
                fullmove += 1
            side = "b" if side == "w" else "w"
        yield {"tags": tags, "moves": moves}


def base_seconds(time_control: str | None) -> float | None:
    """10+0.1 -> 10.0; 40/10+0 -> 10.0; None if not a clock control."""
    m = re.match(r'^(?:\d+/)?(\d+(?:\.\d+)?)(?:\+[\d.]+)?$', time_control or "")
    return float(m.group(1)) if m else None


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summarise(games: Iterable[dict[str, Any]],
              only: str | None = None) -> dict[str, dict[str, Any]]:
    """Per engine name: games, time losses, clock left at the end, think time by band."""
    engines = {}
    for game in games:
        tags = game["tags"]
        base = base_seconds(tags.get("TimeControl"))
        forfeit = tags.get("Termination", "") == "time forfeit"
        for colour, name in (("w", tags.get("White", "?")), ("b", tags.get("Black", "?"))):
            if only and name != only:
                continue
            e = engines.setdefault(name, {"games": 0, "time_losses": 0, "left": [],
                                          "left_share": [], "think": {b: [] for b in BANDS}})
            e["games"] += 1
            own = [m for m in game["moves"] if m[0] == colour]
            result = tags.get("Result", "*")
            lost = (result == "0-1" and colour == "w") or (result == "1-0" and colour == "b")
            if forfeit and lost:
                e["time_losses"] += 1
            lefts = [m[3] for m in own if m[3] is not None]
            if lefts:
                e["left"].append(lefts[-1])
                if base:
                    e["left_share"].append(lefts[-1] / base)
            for _, number, think, _ in own:
                if think is None:
                    continue
                for band in BANDS:
                    if band[0] <= number <= band[1]:
                        e["think"][band].append(think)
    return engines


def report(engines: dict[str, dict[str, Any]], out: TextIO | None = None) -> None:
    out = out or sys.stdout
    for name, e in engines.items():
        print(f"{name}: {e['games']} games, {e['time_losses']} lost on time", file=out)
        if e["left"]:
            left = e["left"]
            print("  clock left after its last move: min {:.2f} s, p10 {:.2f}, median {:.2f}, "
                  "p90 {:.2f}".format(min(left), percentile(left, 0.1), percentile(left, 0.5),
                                      percentile(left, 0.9)), file=out)
        if e["left_share"]:
            share = e["left_share"]
            print("  as a share of the base time: min {:.0%}, p10 {:.0%}, median {:.0%}, "
                  "p90 {:.0%}".format(min(share), percentile(share, 0.1),
                                      percentile(share, 0.5), percentile(share, 0.9)), file=out)
        print("  think time per move (s): moves   count   mean    p10  median    p90", file=out)
        for band, times in e["think"].items():
            if not times:
                continue
            label = f"{band[0]}-{band[1]}" if band[1] < 10**6 else f"{band[0]}+"
            print("  {:>37} {:>7} {:6.3f} {:6.3f} {:7.3f} {:6.3f}".format(
                label, len(times), statistics.fmean(times), percentile(times, 0.1),
                percentile(times, 0.5), percentile(times, 0.9)), file=out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", help="report this engine name only")
    args = parser.parse_args()
    games = []
    for path in args.pgn:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                games.extend(parse_games(f.read()))
        except OSError as error:
            print(f"pgn_clock.py: cannot read {path}: {error.strerror}", file=sys.stderr)
            return 2
    if not games:
        print("pgn_clock.py: no games found", file=sys.stderr)
        return 1
    report(summarise(games, args.engine))
    return 0


if __name__ == "__main__":
    sys.exit(main())
