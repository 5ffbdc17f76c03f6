"""Ratings on Stockfish's UCI_Elo scale from games against its levels: the strength levels'
calibration table and the front page's headline rating.

    # play: each Avocet level against the Stockfish stair nearest its label, 60 games each
    python3 -m tools.measure.rating levels --engine build/avocet --levels 1150 1450 1750 full \\
        --games 60 --tc 10+0.1 --out /tmp/levels
    # read: matches already played (fastchess PGNs or logs), against one or several rungs
    python3 -m tools.measure.rating fit sf1800.pgn sf2100.log

Stockfish 15.1's UCI_Elo is a staircase: it plays at skill level ((Elo - 1346.6) / 143.4)^(1 /
0.806) and picks its move at depth 1 + floor(level), so every UCI_Elo of one stair is one
opponent (1800 and 1850 both search to depth 5). Each stair is rated at its integer level's
UCI_Elo (skill 4: 1785, 5: 1871, 6: 1954, 7: 2035, 8: 2113), in every fit and table here.

`levels` plays, for each level, `UCI_LimitStrength true` and `UCI_Elo L` (or full strength for
`full`) against Stockfish 15.1 with `UCI_LimitStrength` on the stair whose label is nearest L
(or --opponent), set a hair above the stair's first UCI_Elo, with fastchess, the book in random
order with -repeat, Threads 1 and Hash 16 on both sides. A level whose logs in --out already
hold its games is read, not played again, and one that holds some plays the rest into a log of
its own, so a stopped calibration resumes and loses nothing. The games are counted from the PGN
beside each log, which fastchess writes game by game: a log gets its summary only every ten
games and at the end, so a run stopped early would otherwise lose the games it finished. `fit`
reads fastchess PGNs or logs whose engines are named `avocet...` and `sf<ELO>` (as `levels`
names them; --opponent-elo says it otherwise); a PGN of a gauntlet over several rungs gives one
row a rung.

Each row gives the games, the score, the Elo difference with its 95% interval (the trinomial
model: a game scores 1, 1/2 or 0, and the interval of the mean score is mapped through the
logistic curve), the measured Elo (opponent + difference) and how far that is off the label.
With several rungs, the fitted rating is the maximum-likelihood Elo R for which the expected
scores 1 / (1 + 10^((opponent - R) / 400)) best explain all the games (a draw counts as half a
win and half a loss), with its 95% interval from the curvature of the log-likelihood.

Standard library only.
"""

import argparse
import math
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence

from tools.measure.pgn_clock import parse_games  # fastchess PGNs: tags and moves, game by game

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
STOCKFISH = "/usr/games/stockfish"
STOCKFISH_ELO_RANGE = (1350, 2850)  # what Stockfish 15.1 declares for UCI_Elo
Z95 = 1.959964

RESULTS_LINE = re.compile(r"Results of (\S+) vs (\S+) \(")
GAMES_LINE = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")


def stockfish_skill(uci_elo: int) -> float:
    """The skill level Stockfish 15.1 plays at UCI_Elo (search.cpp): ((Elo - 1346.6) /
    143.4)^(1 / 0.806), within 0-19. It picks its move at depth 1 + floor(level)."""
    e = (uci_elo - 1346.6) / 143.4
    return min(19.0, max(0.0, e) ** (1 / 0.806))


def stair(uci_elo: int) -> int:
    """The integer skill level of a UCI_Elo: its stair. All the UCI_Elo of one stair search to
    the same depth, so 1800 and 1850 are one opponent, and the stair is rated as its integer
    level's UCI_Elo (4: 1785, 5: 1871, 6: 1954, 7: 2035, 8: 2113), not as the number set."""
    return math.floor(stockfish_skill(uci_elo))


def stair_label(uci_elo: int) -> float:
    """The Elo a stair is rated at: the UCI_Elo of its integer level."""
    return 1346.6 + 143.4 * stair(uci_elo) ** 0.806


def stair_rung(level: int) -> int:
    """The UCI_Elo to set for skill level `level`: the smallest whose level is at least a
    thousandth above the integer (so that rounding cannot drop it to the stair below)."""
    low, high = STOCKFISH_ELO_RANGE
    uci_elo = max(low, math.ceil(1346.6 + 143.4 * level ** 0.806))
    while level > 0 and uci_elo < high and stockfish_skill(uci_elo) < min(level + 0.001, 19):
        uci_elo += 1
    return uci_elo


def elo_difference(score: float) -> float:
    """The logistic Elo difference of a mean score in (0, 1)."""
    return -400.0 * math.log10(1.0 / score - 1.0)


def expected_score(difference: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


class Result:
    """Games of one engine against one opponent: wins, draws and losses from its side."""

    def __init__(self, opponent_elo: int, wins: int, draws: int, losses: int,
                 label: str | None = None) -> None:
        self.opponent_elo = opponent_elo  # the UCI_Elo Stockfish was set to
        self.wins, self.draws, self.losses = wins, draws, losses
        self.label = label

    @property
    def opponent_rating(self) -> float:
        """What the opponent is rated at: its stair's label, not the UCI_Elo set."""
        return stair_label(self.opponent_elo)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games

    def interval(self) -> tuple[float, float, float]:
        """(low, difference, high) in Elo; an end is +-inf where the score reaches 0 or 1."""
        n, s = self.games, self.score
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2
                    + self.losses * s ** 2) / n
        half = Z95 * math.sqrt(variance / n)

        def elo(x):
            if x <= 0:
                return -math.inf
            if x >= 1:
                return math.inf
            return elo_difference(x)

        return elo(s - half), elo(s), elo(s + half)


def fit(results: Sequence[Result]) -> tuple[float, float]:
    """(rating, half width of its 95% interval) by maximum likelihood over all the games."""
    points = sum(r.wins + 0.5 * r.draws for r in results)
    games = sum(r.games for r in results)
    if points <= 0 or points >= games:
        return (-math.inf if points <= 0 else math.inf), math.inf
    rating = sum(r.opponent_rating * r.games for r in results) / games
    scale = math.log(10.0) / 400.0
    for _ in range(100):  # Newton's method on the log-likelihood's derivative
        gradient = sum(r.wins + 0.5 * r.draws
                       - r.games * expected_score(rating - r.opponent_rating)
                       for r in results) * scale
        curvature = sum(r.games * expected_score(rating - r.opponent_rating)
                        * (1 - expected_score(rating - r.opponent_rating))
                        for r in results) * scale**2
        step = gradient / curvature
        rating += max(-200.0, min(200.0, step))
        if abs(step) < 1e-6:
            break
    curvature = sum(r.games * expected_score(rating - r.opponent_rating)
                    * (1 - expected_score(rating - r.opponent_rating))
                    for r in results) * scale**2
    return rating, Z95 / math.sqrt(curvature)


def last_summary(path: str) -> tuple[tuple[str, str] | None, list[int] | None]:
    """The engines' names on the last `Results of A vs B (` heading of a fastchess log, and the
    last `Games: N, Wins: W, Losses: L, Draws: D` counts (of A), each None if missing."""
    names, counts = None, None
    with open(path, errors="replace") as file:
        for line in file:
            heading = RESULTS_LINE.search(line)
            if heading:
                names = heading.groups()
            found = GAMES_LINE.search(line)
            if found:
                counts = [int(x) for x in found.groups()]
    return names, counts


def read_log(path: str, opponent_elo: int | None = None) -> Result | None:
    """The last result fastchess printed in a log, from the side of the engine that is not
    Stockfish (named sf<ELO>), as a Result; None if the log holds no finished game."""
    names, counts = last_summary(path)
    if not names or not counts or counts[0] == 0:
        return None
    _, wins, losses, draws = counts
    ours_first = not names[0].startswith("sf")
    if not ours_first:
        wins, losses = losses, wins
    theirs = names[1] if ours_first else names[0]
    return Result(opponent_elo_of(path, theirs, opponent_elo), wins, draws, losses)


def opponent_elo_of(path: str, name: str, given: int | None) -> int:
    """Stockfish's UCI_Elo: the one given, or the digits of its name sf<ELO>."""
    if given is not None:
        return given
    digits = re.fullmatch(r"sf(\d+)", name)
    if not digits:
        sys.exit(f"{path}: cannot tell the opponent's UCI_Elo from the name {name!r}; "
                 "give --opponent-elo")
    return int(digits.group(1))


def read_pgn(path: str, opponent_elo: int | None = None) -> list[Result]:
    """The finished games of a fastchess PGN, from the side of the engine that is not Stockfish
    (named sf<ELO>): one Result per Stockfish opponent, in the order of their first games, so a
    gauntlet over several rungs is rated rung by rung; empty if it holds none. A game without
    a result ("*") is skipped."""
    with open(path, errors="replace") as file:
        games = [game["tags"] for game in parse_games(file.read())]
    by_opponent: dict[str, Result] = {}
    for tags in games:
        score = tags.get("Result")
        if score not in ("1-0", "0-1", "1/2-1/2"):
            continue
        ours_white = not tags.get("White", "").startswith("sf")
        theirs = tags.get("Black", "") if ours_white else tags.get("White", "")
        if theirs not in by_opponent:
            by_opponent[theirs] = Result(opponent_elo_of(path, theirs, opponent_elo), 0, 0, 0)
        result = by_opponent[theirs]
        if score == "1/2-1/2":
            result.draws += 1
        elif (score == "1-0") == ours_white:
            result.wins += 1
        else:
            result.losses += 1
    return list(by_opponent.values())


def read_games(path: str, opponent_elo: int | None = None) -> list[Result]:
    """A PGN's or a log's games, by the file's extension: one Result per opponent."""
    if path.endswith(".pgn"):
        return read_pgn(path, opponent_elo)
    result = read_log(path, opponent_elo)
    return [result] if result else []


def format_elo(x: float) -> str:
    return "∞" if x == math.inf else ("−∞" if x == -math.inf else f"{x:+.0f}".replace("-", "−"))


def table(results: Iterable[Result]) -> str:
    rows = ["| level | opponent | games | W / D / L | score | Elo difference (95%) | measured "
            "| off its label |",
            "|---|---:|---:|---|---:|---|---:|---:|"]
    for r in results:
        low, difference, high = r.interval()
        measured = r.opponent_rating + difference
        label = r.label if r.label is not None else "–"
        off = "–"
        if str(label).isdigit() and math.isfinite(measured):
            off = format_elo(measured - int(label))
        shown = f"{measured:.0f}" if math.isfinite(measured) else "–"
        opponent = (f"{r.opponent_elo} (depth {stair(r.opponent_elo) + 1}, "
                    f"{r.opponent_rating:.0f})")
        rows.append(f"| {label} | {opponent} | {r.games} | {r.wins} / {r.draws} / {r.losses} "
                    f"| {100 * r.score:.1f}% | {format_elo(difference)} ({format_elo(low)} to "
                    f"{format_elo(high)}) | {shown} | {off} |")
    return "\n".join(rows)


def nearest_opponent(level: int, explicit: int | None) -> int:
    """The UCI_Elo to play a level labelled `level` against: the rung of the stair whose
    label is nearest, within Stockfish's range (or the one given)."""
    if explicit is not None:
        return explicit
    stairs = [k for k in range(20) if stair_rung(k) <= STOCKFISH_ELO_RANGE[1]]
    best = min(stairs, key=lambda k: abs(stair_label(stair_rung(k)) - level))
    return stair_rung(best)


def play_level(args: argparse.Namespace, label: str) -> Result:
    """Plays the games of one level that its logs in --out do not hold yet; returns the Result
    of all of them. A stopped run leaves its log: the next run adds a log of the missing games
    (fastchess cannot resume one) and never writes over one."""
    full = label == "full"
    level = None if full else int(label)
    opponent = args.full_opponent if full else nearest_opponent(level, args.opponent)
    name = f"avocet-{label}-vs-sf{opponent}"
    done = rating_of_logs(args.out, name, opponent)
    if done.games >= args.games:
        print(f"{label}: read {done.games} games from {args.out}/{name}-*", file=sys.stderr)
        done.label = label
        return done
    run = 1
    while os.path.exists(os.path.join(args.out, f"{name}-{run}.log")):
        run += 1
    log = os.path.join(args.out, f"{name}-{run}.log")
    games = args.games - done.games
    ours = [f"cmd={os.path.abspath(args.engine)}", f"name=avocet-{label}"]
    ours += [f"option.{o}" for o in args.option]
    if not full:
        ours += ["option.UCI_LimitStrength=true", f"option.UCI_Elo={level}"]
    theirs = [f"cmd={args.stockfish}", f"name=sf{opponent}", "option.UCI_LimitStrength=true",
              f"option.UCI_Elo={opponent}"]
    command = [args.fastchess, "-engine", *ours, "-engine", *theirs,
               "-each", f"tc={args.tc}", "option.Threads=1", "option.Hash=16",
               "-openings", f"file={args.book}", "format=epd", "order=random", "-repeat",
               "-rounds", str((games + 1) // 2), "-games", "2",
               "-concurrency", str(args.concurrency), "-recover",
               "-pgnout", f"file={log[:-len('.log')]}.pgn"]
    print(f"{label}: {games} games against UCI_Elo {opponent} -> {log}", file=sys.stderr)
    with open(log, "w") as out:
        status = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
    if status != 0:
        sys.exit(f"{label}: fastchess exited with {status}; see {log}")
    result = rating_of_logs(args.out, name, opponent)
    result.label = label
    return result


def rating_of_logs(folder: str, name: str, opponent: int) -> Result:
    """All the games of the runs NAME-<run>.log in folder, added up: each run's PGN where it
    has one (every finished game), else its log's last summary."""
    total = Result(opponent, 0, 0, 0)
    run = 1
    while os.path.exists(os.path.join(folder, f"{name}-{run}.log")):
        pgn = os.path.join(folder, f"{name}-{run}.pgn")
        for result in read_games(pgn if os.path.exists(pgn) else pgn[:-len(".pgn")] + ".log",
                                 opponent):
            total.wins += result.wins
            total.draws += result.draws
            total.losses += result.losses
        run += 1
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    levels = commands.add_parser("levels", help="play each level against Stockfish's nearest")
    levels.add_argument("--engine", default=os.path.join(REPO, "build", "avocet"))
    levels.add_argument("--levels", nargs="+", required=True,
                        help="UCI_Elo values, or 'full' for full strength")
    levels.add_argument("--games", type=int, default=60)
    levels.add_argument("--tc", default="10+0.1")
    levels.add_argument("--book", default=os.path.join(
        REPO, "..", "shared", "data", "books", "noob_3moves.epd"))
    levels.add_argument("--out", required=True, help="folder for the logs and PGNs")
    levels.add_argument("--fastchess", default="fastchess")
    levels.add_argument("--stockfish", default=STOCKFISH)
    levels.add_argument("--opponent", type=int, help="one Stockfish UCI_Elo for every level")
    levels.add_argument("--full-opponent", type=int, default=stair_rung(4),
                        help="Stockfish's UCI_Elo against full strength (default "
                        f"{stair_rung(4)}, skill 4 at depth 5: the stair nearest v45's "
                        "full strength at 10+0.1)")
    levels.add_argument("--concurrency", type=int, default=1)
    levels.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an Avocet option for every level (repeatable)")
    readback = commands.add_parser("fit", help="rate matches already played (fastchess PGNs "
                                   "or logs)")
    readback.add_argument("logs", nargs="+", metavar="PGN_OR_LOG")
    readback.add_argument("--opponent-elo", type=int,
                          help="Stockfish's UCI_Elo, where the logs' names do not say it")
    args = parser.parse_args()

    if args.command == "levels":
        if not os.path.isfile(args.book):
            sys.exit(f"no opening book at {args.book} (give --book)")
        os.makedirs(args.out, exist_ok=True)
        for label in args.levels:
            if label != "full" and not label.isdigit():
                sys.exit(f"a level is a UCI_Elo or 'full', not {label!r}")
        results = [play_level(args, label) for label in args.levels]
        print(table(results))
        return
    results = []
    for path in args.logs:
        if not os.path.isfile(path):
            sys.exit(f"{path}: no such file")
        found = read_games(path, args.opponent_elo)
        if not found:
            sys.exit(f"{path}: no finished game in this file")
        for result in found:
            result.label = os.path.basename(path) + (
                f" (sf{result.opponent_elo})" if len(found) > 1 else "")
        results += found
    print(table(results))
    rating, half = fit(results)
    games = sum(r.games for r in results)
    print(f"\nFitted rating over {games} games against UCI_Elo "
          f"{', '.join(str(r.opponent_elo) for r in results)}: {rating:.0f} ± {half:.0f} (95%)")


if __name__ == "__main__":
    main()
