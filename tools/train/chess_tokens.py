"""ChessBench's FEN tokenizer and action table, written independently of the C++ engine.

The tokenizer follows searchless_chess/src/tokenizer.py, with the en passant square kept
only when a legal en passant capture exists (as python-chess's board.fen() writes it).

Run as a script it writes golden files for the engine's tests:
    python3 -m tools.train.chess_tokens tokens FEN_FILE > tests/data/tokens.golden  # FEN|77 tokens
    python3 -m tools.train.chess_tokens actions > tests/data/actions.golden  # index move a line

Example:
    >>> tokens = tokenize("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    >>> len(tokens), tokens[0], tokens[-3:]
    (77, 29, [1, 30, 30])
"""

ALPHABET = "0123456789abcdefghpnrkqPBNRQKw."
SEQUENCE_LENGTH = 77
FILES = "abcdefgh"


def parse_board(placement: str) -> dict[tuple[int, int], str]:
    """{(file, rank): piece letter} from the FEN placement field (rank 0 = rank 1)."""
    board = {}
    for row, text in enumerate(placement.split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
            else:
                board[(file, 7 - row)] = char
                file += 1
    return board


def is_attacked(board: dict[tuple[int, int], str], square: tuple[int, int],
                by_white: bool) -> bool:
    """Is `square` attacked by the pieces of the given colour?"""
    def piece(p):
        return p.upper() if by_white else p.lower()

    f, r = square
    for df, dr in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]:
        if board.get((f + df, r + dr)) == piece("n"):
            return True
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (df or dr) and board.get((f + df, r + dr)) == piece("k"):
                return True
    pawn_rank = r - 1 if by_white else r + 1
    if piece("p") in (board.get((f - 1, pawn_rank)), board.get((f + 1, pawn_rank))):
        return True
    for directions, sliders in [([(1, 0), (-1, 0), (0, 1), (0, -1)], "rq"),
                                ([(1, 1), (1, -1), (-1, 1), (-1, -1)], "bq")]:
        for df, dr in directions:
            x, y = f + df, r + dr
            while 0 <= x < 8 and 0 <= y < 8:
                occupant = board.get((x, y))
                if occupant:
                    if occupant in [piece(s) for s in sliders]:
                        return True
                    break
                x, y = x + df, y + dr
    return False


def legal_en_passant(fen: str) -> str:
    """The en passant field if some legal capture exists there, else '-'."""
    placement, side, _, ep = fen.split()[:4]
    if ep == "-":
        return "-"
    board = parse_board(placement)
    white = side == "w"
    target = (FILES.index(ep[0]), int(ep[1]) - 1)
    captured = (target[0], target[1] - 1 if white else target[1] + 1)
    pawn, king = ("P", "K") if white else ("p", "k")
    king_square = next(s for s, p in board.items() if p == king)
    for df in (-1, 1):
        origin = (target[0] + df, captured[1])
        if board.get(origin) != pawn:
            continue
        after = dict(board)
        del after[origin]
        after.pop(captured, None)
        after[target] = pawn
        if not is_attacked(after, king_square, not white):
            return ep
    return "-"


def normalise(fen: str) -> str:
    """The FEN as python-chess writes it: 6 fields, en passant only when capturable."""
    fields = fen.split()
    if len(fields) == 4:
        fields += ["0", "1"]
    fields[3] = legal_en_passant(" ".join(fields))
    return " ".join(fields)


def mirror(fen: str) -> str:
    """The colour-flipped position: ranks reversed, colours swapped, the other side to move."""
    placement, side, castling, ep, halfmove, fullmove = normalise(fen).split()
    ranks = placement.split("/")[::-1]
    placement = "/".join(rank.swapcase() for rank in ranks)
    side = "b" if side == "w" else "w"
    if castling != "-":
        castling = "".join(c for c in "KQkq" if c.swapcase() in castling)
    if ep != "-":
        ep = ep[0] + str(9 - int(ep[1]))
    return " ".join([placement, side, castling, ep, halfmove, fullmove])


def tokenize(fen: str) -> list[int]:
    placement, side, castling, ep, halfmove, fullmove = normalise(fen).split()
    index = {c: i for i, c in enumerate(ALPHABET)}
    tokens = [index[side]]
    for char in placement.replace("/", ""):
        if char.isdigit():
            tokens += [index["."]] * int(char)
        else:
            tokens.append(index[char])
    tokens += [index[c] for c in (castling if castling != "-" else "")]
    tokens += [index["."]] * (SEQUENCE_LENGTH - 6 - 2 - len(tokens))
    tokens += [index[c] for c in ep] if ep != "-" else [index["."]] * 2
    for clock in (halfmove, fullmove):
        text = str(min(int(clock), 999))
        tokens += [index[c] for c in text + "." * (3 - len(text))]
    assert len(tokens) == SEQUENCE_LENGTH, len(tokens)
    return tokens


def square_name(f: int, r: int) -> str:
    return FILES[f] + str(r + 1)


def actions() -> list[str]:
    """ChessBench's 1968 moves in action order."""
    moves = []
    for square in range(64):
        f, r = square % 8, square // 8
        queen = []
        for df, dr in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]:
            x, y = f + df, r + dr
            while 0 <= x < 8 and 0 <= y < 8:
                queen.append(y * 8 + x)
                x, y = x + df, y + dr
        knight = [(r + dr) * 8 + f + df
                  for df, dr in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1),
                                 (-1, 2)]
                  if 0 <= f + df < 8 and 0 <= r + dr < 8]
        for to in sorted(queen) + sorted(knight):
            moves.append(square_name(f, r) + square_name(to % 8, to // 8))
    for rank, next_rank in [("2", "1"), ("7", "8")]:
        for i, file in enumerate(FILES):
            for j in (i, i - 1, i + 1):
                if 0 <= j < 8:
                    moves += [f"{file}{rank}{FILES[j]}{next_rank}{p}" for p in "qrbn"]
    assert len(moves) == 1968
    return moves


def square_token(square_name_text: str) -> int:
    """Token position of a square's character (1 for a8 ... 64 for h1)."""
    f, r = FILES.index(square_name_text[0]), int(square_name_text[1]) - 1
    return 1 + (7 - r) * 8 + f


def mirror_move(uci: str) -> str:
    """A move with both squares' ranks flipped."""
    flip = lambda s: s[0] + str(9 - int(s[1]))
    return flip(uci[0:2]) + flip(uci[2:4]) + uci[4:]


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "tokens":
        for line in open(sys.argv[2]):
            if line.strip():
                print(line.strip() + "|" + " ".join(map(str, tokenize(line.strip()))))
    elif len(sys.argv) == 2 and sys.argv[1] == "actions":
        for i, move in enumerate(actions()):
            print(i, move)
    else:
        sys.exit(__doc__)
