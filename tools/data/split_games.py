"""Splits `avocet datagen` annotations into training games and held-out games, whole games
on each side.

train.py's usual validation split is by position hash (split.py), which puts the other
positions of a held-out position's game on the training side; after many epochs it stops
predicting games (weights/README.md, the third GPU run). Games that are never trained on are
the held-out set that does (train.py --held-out-shards).

datagen writes each game's positions in order, so a game starts where the full-move number
falls. A game is held out when a hash of its first position's FEN falls below the
percentage: the same games stay held out however far the file has grown since the last split.

Standard library only. Example:
    python3 -m tools.data.split_games datagen/sf-seed404-worker0.tsv --held-out-percent 10 \\
        selfplay-404.tsv selfplay-404-held-out.tsv
"""

import argparse
import sys
import zlib
from collections.abc import Iterable, Iterator


def games(lines: Iterable[str]) -> Iterator[list[str]]:
    """Yields each game's lines (a list), a game ending where the next line's full-move number
    is lower than its own."""
    game, last_move = [], None
    for number, line in enumerate(lines, 1):
        fields = line.split("\t", 1)[0].split()
        if len(fields) != 6 or not fields[5].isdigit():
            raise ValueError(f"line {number}: '{line.rstrip()[:80]}' does not start with a FEN")
        move = int(fields[5])
        if game and move < last_move:
            yield game
            game = []
        game.append(line)
        last_move = move
    if game:
        yield game


def is_held_out(game: list[str], percent: int) -> bool:
    return zlib.crc32(game[0].split("\t", 1)[0].encode()) % 100 < percent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="datagen annotations (FEN<TAB>move:cp ...)")
    parser.add_argument("train", help="where the training games' lines go")
    parser.add_argument("held_out", help="where the held-out games' lines go")
    parser.add_argument("--held-out-percent", type=int, default=10)
    args = parser.parse_args()
    if not 0 <= args.held_out_percent <= 100:
        sys.exit(f"--held-out-percent {args.held_out_percent} is not in 0..100")
    counts = {False: [0, 0], True: [0, 0]}  # held out: [games, positions]
    try:
        with open(args.source) as source, open(args.train, "w") as train, \
                open(args.held_out, "w") as held_out:
            for game in games(source):
                side = is_held_out(game, args.held_out_percent)
                (held_out if side else train).writelines(game)
                counts[side][0] += 1
                counts[side][1] += len(game)
    except (OSError, ValueError) as error:
        sys.exit(f"split_games.py: {args.source}: {error}")
    print(f"{args.source}: {counts[False][0]} games ({counts[False][1]} positions) to train, "
          f"{counts[True][0]} games ({counts[True][1]} positions) held out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
