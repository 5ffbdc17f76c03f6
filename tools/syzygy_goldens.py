#!/usr/bin/env python3
"""WDL and DTZ goldens for the Syzygy reader, from an independent oracle: python-chess.

python-chess is not a dependency of the project and is never committed: point PYTHONPATH at
a checkout made outside the repository (it is pure Python), e.g.

    git -C <python-chess git dir> archive HEAD chess | tar -x -C /tmp/pychess
    PYTHONPATH=/tmp/pychess /usr/bin/python3 tools/syzygy_goldens.py \
        --tables ../shared/data/syzygy --out tests/data/syzygy/goldens.tsv

For every table in --tables (all 3-4 piece tables) it draws --per-table random legal
positions of that material (either colour may own either side, either side to move), plus
--ep positions with a legal en passant capture for tables with pawns on both sides, and
writes one line per position: FEN, WDL, DTZ, tab-separated. The seed makes it reproducible.
"""

import argparse
import os
import random
import sys

import chess
import chess.syzygy


def place(rng, white, black):
    """A random board with the given piece letters per colour; None if illegal."""
    board = chess.Board.empty()
    squares = list(range(64))
    rng.shuffle(squares)
    for color, letters in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in letters:
            piece_type = chess.PIECE_SYMBOLS.index(letter.lower())
            square = squares.pop()
            if piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, chess.Piece(piece_type, color))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def random_position(rng, name):
    first, second = name.split("v")
    if rng.random() < 0.5:
        first, second = second, first
    while True:
        board = place(rng, first, second)
        if board is not None:
            return board


def en_passant_position(rng, name):
    """A position of `name` just after a double pawn push that can be taken en passant."""
    first, second = name.split("v")
    while True:
        if rng.random() < 0.5:
            white, black = first, second
        else:
            white, black = second, first
        board = place(rng, white, black)
        if board is None:
            continue
        # Make the side that did not move push a pawn two squares next to an enemy pawn.
        mover = not board.turn
        pawns = list(board.pieces(chess.PAWN, mover))
        enemy = list(board.pieces(chess.PAWN, board.turn))
        if not pawns or not enemy:
            continue
        pawn = rng.choice(pawns)
        file = chess.square_file(pawn)
        rank4 = 3 if mover == chess.WHITE else 4
        target = chess.square(file, rank4)
        skipped = chess.square(file, 2 if mover == chess.WHITE else 5)
        origin = chess.square(file, 1 if mover == chess.WHITE else 6)
        if any(board.piece_at(s) for s in (target, skipped) if s != pawn):
            continue
        board.remove_piece_at(pawn)
        board.set_piece_at(target, chess.Piece(chess.PAWN, mover))
        if board.piece_at(origin):
            continue
        ep_side = [f for f in (file - 1, file + 1) if 0 <= f < 8]
        capturer = chess.square(rng.choice(ep_side), rank4)
        if board.piece_at(capturer):
            continue
        board.remove_piece_at(enemy[0])
        board.set_piece_at(capturer, chess.Piece(chess.PAWN, board.turn))
        board.ep_square = skipped
        if not board.is_valid() or not board.has_legal_en_passant():
            continue
        return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", required=True, help="directory with the 3-4 piece tables")
    parser.add_argument("--out", required=True)
    parser.add_argument("--per-table", type=int, default=60)
    parser.add_argument("--ep", type=int, default=100)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    names = sorted(f[:-5] for f in os.listdir(args.tables) if f.endswith(".rtbw"))
    rows = []
    with chess.syzygy.open_tablebase(args.tables) as tablebase:
        for name in names:
            boards = [random_position(rng, name) for _ in range(args.per_table)]
            if "P" in name.split("v")[0] and "P" in name.split("v")[1]:
                boards += [en_passant_position(rng, name) for _ in range(args.ep)]
            for board in boards:
                wdl = tablebase.probe_wdl(board)
                dtz = tablebase.probe_dtz(board)
                rows.append(f"{board.fen()}\t{wdl}\t{dtz}")
            print(f"{name}: {len(boards)} positions", file=sys.stderr)

    with open(args.out, "w") as out:
        out.write("# FEN\tWDL\tDTZ from python-chess's chess.syzygy (tools/syzygy_goldens.py"
                  f" --seed {args.seed} --per-table {args.per_table} --ep {args.ep})\n")
        for row in rows:
            out.write(row + "\n")
    print(f"{len(rows)} positions from {len(names)} tables -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
