"""Packs sf-annotations files small enough to travel to a GPU machine, and unpacks them there.

An annotation line is 'FEN<TAB>move:cp move:cp ...' with every legal move. Packed, it is
'FEN<TAB>cp cp ...' with the cps in the order of the position's legal moves sorted by their
UCI text, so the move names (half the compressed bytes) need not travel: the three files go
from 70 MB to 23 MB. A line whose moves are not exactly the legal moves is kept whole behind
a '!'. Unpacking writes one contiguous block of the lines, so that N workers can unpack a file
in parallel and `avocet datagen --from-tsv` then makes shards in the original order (train.py's
validation rows are the first rows of the split, so the order matters).

Needs python-chess for the legal moves (Debian 12 has no package: `pip install chess`, or
python-chess's source folder on PYTHONPATH).

Usage:
    pack_annotations.py pack IN.tsv[.xz] OUT.pk.xz
    pack_annotations.py unpack IN.pk.xz OUT.tsv [--block K --blocks N]
"""

import argparse
import lzma
import sys

try:
    import chess
except ImportError:
    sys.exit("pack_annotations.py needs python-chess (pip install chess, or its source on "
             "PYTHONPATH)")


def sorted_legal_moves(fen: str) -> list[str]:
    return sorted(move.uci() for move in chess.Board(fen).legal_moves)


def pack(source: str, target: str) -> None:
    whole = number = 0
    # sf-annotations come xz-compressed, datagen's (split_games.py) as plain text.
    with (lzma.open(source, "rt") if source.endswith(".xz") else open(source)) as lines, \
            lzma.open(target, "wt", preset=9 | lzma.PRESET_EXTREME) as out:
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\n")
            fen, _, moves = line.partition("\t")
            try:
                scores = dict(item.split(":") for item in moves.split())
                legal = sorted_legal_moves(fen)
            except ValueError:
                legal = None
            if legal is None or sorted(scores) != legal:
                out.write("!" + line + "\n")
                whole += 1
            else:
                out.write(fen + "\t" + " ".join(scores[move] for move in legal) + "\n")
    print(f"{source}: packed {number} lines ({whole} kept whole) into {target}")


def unpack(source: str, target: str, block: int, blocks: int) -> None:
    lines = lzma.open(source, "rt").read().splitlines()
    size = (len(lines) + blocks - 1) // blocks
    with open(target, "w") as out:
        for line in lines[block * size:(block + 1) * size]:
            if line.startswith("!"):
                out.write(line[1:] + "\n")
                continue
            fen, _, cps = line.partition("\t")
            legal, cps = sorted_legal_moves(fen), cps.split()
            if len(cps) != len(legal):
                sys.exit(f"{source}: '{fen}' has {len(cps)} scores for {len(legal)} legal moves")
            out.write(fen + "\t" + " ".join(f"{m}:{c}" for m, c in zip(legal, cps)) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["pack", "unpack"])
    parser.add_argument("source")
    parser.add_argument("target")
    parser.add_argument("--block", type=int, default=0, help="unpack: which block (0-based)")
    parser.add_argument("--blocks", type=int, default=1, help="unpack: blocks in all")
    args = parser.parse_args()
    if not 0 <= args.block < args.blocks:
        sys.exit(f"--block {args.block} is not in 0..{args.blocks - 1}")
    try:
        if args.action == "pack":
            pack(args.source, args.target)
        else:
            unpack(args.source, args.target, args.block, args.blocks)
    except (OSError, lzma.LZMAError, EOFError) as error:
        sys.exit(f"pack_annotations.py: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
