"""Reads and packs labelled games, the labeller's format (include/avocet/datagen/game_record.h
and weights/labels/README.md): a game is its start position, then per ply Stockfish's best
move, its score and, where it differs, the move played.

This is the Python reader, beside the C++ one: it checks every game's checksum, replays its
moves on a small board of its own (no move generation: the moves were legal when Stockfish
gave them, and the C++ reader proves it) and yields each position with its label, as the
annotation line train.py learns from (`FEN<TAB>best:score *:?`, a partial label).

A damaged or cut-short file raises LabelError naming the file and the game; every game before
it has been yielded.

Standard library only. Examples:
    python3 -m tools.data.labels lines weights/labels/noob-d11-pv-20261202-0700.games.xz | head
    python3 -m tools.data.labels stats DATA/labels/noob-d11-pv/sf-seed1-worker0.games
"""

import argparse
import io
import json
import lzma
import struct
import sys
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

MAGIC = b"AVOGAME1"
GAME_MARKER = b"G"
MATE_SCORE = 32000
MAX_CENTIPAWNS = 30000
PLAYED_DIFFERS = 0x8000
PROMOTIONS = " nbrq"
RESULTS = ("*", "0-1", "1-0", "1/2-1/2")  # 0 not over, 1 White mated, 2 Black mated, 3 drawn


class LabelError(ValueError):
    """A file that is not, or no longer, a whole labelled-games file."""


def decode_score(score: int) -> str:
    """The file's score as the annotation files write it: "35", "m3", "m-2"."""
    if abs(score) <= MAX_CENTIPAWNS:
        return str(score)
    return f"m{MATE_SCORE - score}" if score > 0 else f"m-{MATE_SCORE + score}"


def decode_scores(codes: Iterable[int]) -> list[int]:
    """The scores of a game's score column: each code is the zigzag code of the score's sum
    with the previous ply's, in 16-bit wrapping arithmetic."""
    scores, previous = [], 0
    for code in codes:
        total = (code >> 1) ^ -(code & 1)
        previous = ((total - previous + 32768) & 0xFFFF) - 32768
        scores.append(previous)
    return scores


def move_text(bits: int) -> str:
    """UCI text of a move's 16 bits (the flag bit ignored)."""
    text = "".join("abcdefgh"[s % 8] + "12345678"[s // 8] for s in (bits & 63, (bits >> 6) & 63))
    promotion = (bits >> 12) & 7
    if promotion >= len(PROMOTIONS):
        raise ValueError(f"move {bits:#06x} has no promotion piece {promotion}")
    return text + PROMOTIONS[promotion].strip()


class Game:
    """One labelled game: its start FEN, per ply (best, score, played) as UCI text and the
    file's score, the result code, and its bytes as stored (for packing them unchanged)."""

    def __init__(self, start_fen: str, plies: list[tuple[str, int, str]], result: int,
                 raw: bytes) -> None:
        self.start_fen, self.plies, self.result, self.raw = start_fen, plies, result, raw

    @property
    def checksum(self) -> int:
        return struct.unpack_from("<I", self.raw, len(self.raw) - 4)[0]

    def positions(self) -> Iterator[tuple[str, str, str, str]]:
        """Yields (FEN, best move, score text, played move) for every ply, in order."""
        board = Board(self.start_fen)
        for number, (best, score, played) in enumerate(self.plies, 1):
            fen = board.fen()
            try:
                board.play(played)
            except ValueError as error:
                raise ValueError(f"ply {number}: {error}") from None
            yield fen, best, decode_score(score), played


def open_bytes(path: str) -> io.BufferedIOBase:
    """A binary stream of the file, decompressed when it ends in .xz."""
    return lzma.open(path, "rb") if path.endswith(".xz") else open(path, "rb")


def read_header(stream: io.BufferedIOBase, name: str) -> tuple[dict[str, Any], int]:
    head = stream.read(len(MAGIC) + 4)
    if len(head) < len(MAGIC) + 4 or head[:len(MAGIC)] != MAGIC:
        raise LabelError(f"{name}: not a labelled-games file (no '{MAGIC.decode()}' header)")
    length = struct.unpack_from("<I", head, len(MAGIC))[0]
    text = stream.read(length)
    if length > 1 << 20 or len(text) != length:
        raise LabelError(f"{name}: its header is cut short or damaged")
    try:
        return json.loads(text), len(head) + length
    except ValueError as error:
        raise LabelError(f"{name}: its header is not JSON: {error}") from None


def read_games(stream: io.BufferedIOBase, name: str, start: int | None = None,
               allow_cut_short: bool = False) -> Iterator[tuple[Game, int | None]]:
    """Yields (Game, offset after it) from a stream positioned just past the header; `start`
    (an offset past the header) skips to where an earlier reader stopped. With
    `allow_cut_short`, a game the stream ends inside (one still being written) ends the games
    quietly instead of raising."""
    offset = start
    if start is not None:
        stream.seek(start)
    number = 0
    while True:
        number += 1
        marker = stream.read(1)
        if not marker:
            return

        def fail(why):
            at = f" (byte {offset})" if offset is not None else ""
            return LabelError(f"{name}: game {number}{at}: {why}")

        def take(n, raw):
            chunk = stream.read(n)
            if len(chunk) != n:
                raise fail("the file ends inside this game (cut short)")
            raw += chunk
            return raw

        try:
            if marker != GAME_MARKER:
                raise fail("no game starts here: the file is damaged")
            raw = take(1, bytearray(marker))
            fen_length = raw[1]
            raw = take(fen_length + 3, raw)
            plies, result = struct.unpack_from("<HB", raw, 2 + fen_length)
            columns = 5 + fen_length
            raw = take(4 * plies, raw)
            best = struct.unpack_from(f"<{plies}H", raw, columns)
            scores = decode_scores(struct.unpack_from(f"<{plies}H", raw, columns + 2 * plies))
            flagged = sum(1 for b in best if b & PLAYED_DIFFERS)
            raw = take(2 * flagged, raw)
            played = iter(struct.unpack_from(f"<{flagged}H", raw, columns + 4 * plies))
            stored = take(4, bytearray())
        except LabelError as error:
            if allow_cut_short and "cut short" in str(error):
                return
            raise
        if struct.unpack("<I", stored)[0] != zlib.crc32(raw):
            raise fail("its checksum does not match")
        if result >= len(RESULTS):
            raise fail(f"result {result} is unknown")
        try:
            fen = raw[2:2 + fen_length].decode("ascii")
            labelled = []
            for b, score in zip(best, scores):
                if abs(score) > MATE_SCORE:
                    raise ValueError(f"score {score}")
                best_text = move_text(b & ~PLAYED_DIFFERS)
                labelled.append((best_text, score,
                                 move_text(next(played)) if b & PLAYED_DIFFERS else best_text))
        except ValueError as error:
            raise fail(str(error)) from None
        raw += stored
        if offset is not None:
            offset += len(raw)
        yield Game(fen, labelled, result, bytes(raw)), offset


def games_of_file(path: str,
                  allow_cut_short: bool = False) -> tuple[dict[str, Any], Iterator[Game]]:
    """(header, iterator of Game) for a file; offsets are tracked for plain files."""
    stream = open_bytes(path)
    try:
        header, header_bytes = read_header(stream, path)
    except BaseException:
        stream.close()
        raise
    start = None if path.endswith(".xz") else header_bytes

    def games():
        with stream:
            for game, _ in read_games(stream, path, start, allow_cut_short):
                yield game
    return header, games()


def annotation_lines(game: Game) -> Iterator[str]:
    """The training lines of a game's positions: `FEN<TAB>best:score *:?`."""
    for fen, best, score, _ in game.positions():
        yield f"{fen}\t{best}:{score} *:?\n"


def position_key(fen: str) -> str:
    """Positions are the same for training when their first four FEN fields are."""
    return " ".join(fen.split(" ", 4)[:4])


def write_file(path: str, header: dict[str, Any], raw_games: Iterable[bytes]) -> int:
    """A labelled-games file, xz-compressed when `path` ends in .xz; returns its bytes."""
    text = json.dumps(header, sort_keys=True).encode()
    body = io.BytesIO()
    body.write(MAGIC + struct.pack("<I", len(text)) + text)
    for raw in raw_games:
        body.write(raw)
    data = body.getvalue()
    if path.endswith(".xz"):
        # Two-byte columns: lp=1/pb=1 lets LZMA's literal and position models see them.
        filters = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME,
                    "lc": 0, "lp": 1, "pb": 1}]
        data = lzma.compress(data, format=lzma.FORMAT_XZ, filters=filters)
    with open(path, "wb") as out:
        out.write(data)
    return len(data)


class Board:
    """Enough of chess to replay legal moves and write FENs: pieces on squares (a1 = 0),
    side to move, castling rights, the en passant square and the two clocks."""

    CASTLING_SQUARES = {0: "Q", 4: "KQ", 7: "K", 56: "q", 60: "kq", 63: "k"}

    def __init__(self, fen: str) -> None:
        fields = fen.split()
        if len(fields) != 6:
            raise ValueError(f"'{fen}' is not a six-field FEN")
        placement, side, castling, self.en_passant, half, full = fields
        self.squares = [None] * 64
        rank, file = 7, 0
        for c in placement:
            if c == "/":
                rank, file = rank - 1, 0
            elif c.isdigit():
                file += int(c)
            else:
                self.squares[rank * 8 + file] = c
                file += 1
        self.white = side == "w"
        self.castling = "" if castling == "-" else castling
        self.halfmove, self.fullmove = int(half), int(full)

    def fen(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                piece = self.squares[rank * 8 + file]
                if piece is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + piece
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        return (f"{'/'.join(rows)} {'w' if self.white else 'b'} {self.castling or '-'} "
                f"{self.en_passant} {self.halfmove} {self.fullmove}")

    def play(self, uci: str) -> None:
        def square(text):
            return "abcdefgh".index(text[0]) + 8 * "12345678".index(text[1])
        start, end = square(uci[0:2]), square(uci[2:4])
        piece, captured = self.squares[start], self.squares[end]
        if piece is None or piece.isupper() != self.white:
            raise ValueError(f"{uci}: no piece of the side to move on {uci[0:2]}")
        kind = piece.lower()
        if kind == "p" and start % 8 != end % 8 and captured is None:  # en passant
            self.squares[end - 8 if self.white else end + 8] = None
            captured = "p"
        if kind == "k" and abs(end - start) == 2:  # castling as the king's move
            rook_from, rook_to = (start + 3, start + 1) if end > start else (start - 4, start - 1)
            self.squares[rook_to], self.squares[rook_from] = self.squares[rook_from], None
        promotion = uci[4:5]
        self.squares[end] = (promotion.upper() if self.white else promotion) if promotion else piece
        self.squares[start] = None
        for s in (start, end):
            for right in self.CASTLING_SQUARES.get(s, ""):
                self.castling = self.castling.replace(right, "")
        # The en passant square only where a pawn of the other side could take (the C++
        # position keeps it only where the capture is legal, and parses FENs the same way).
        self.en_passant = "-"
        if kind == "p" and abs(end - start) == 16:
            enemy = "p" if self.white else "P"
            beside = [s for s in (end - 1, end + 1) if 0 <= s < 64 and s // 8 == end // 8]
            if any(self.squares[s] == enemy for s in beside):
                between = (start + end) // 2
                self.en_passant = "abcdefgh"[between % 8] + "12345678"[between // 8]
        self.halfmove = 0 if kind == "p" or captured is not None else self.halfmove + 1
        if not self.white:
            self.fullmove += 1
        self.white = not self.white


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    lines = commands.add_parser("lines", help="print every position's annotation line")
    lines.add_argument("files", nargs="+")
    stats = commands.add_parser("stats", help="games, positions and results of each file")
    stats.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    try:
        for path in args.files:
            header, games = games_of_file(path)
            if args.command == "lines":
                for game in games:
                    sys.stdout.writelines(annotation_lines(game))
                continue
            count, positions, results = 0, 0, [0] * len(RESULTS)
            for game in games:
                count += 1
                positions += len(game.plies)
                results[game.result] += 1
            print(f"{path}: {count} games, {positions} positions; results "
                  + ", ".join(f"{r} {n}" for r, n in zip(RESULTS, results))
                  + f"; recipe {json.dumps(header.get('recipe', {}), sort_keys=True)}")
    except (OSError, LabelError, ValueError) as error:
        sys.exit(f"labels.py: {error}")
    except BrokenPipeError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
