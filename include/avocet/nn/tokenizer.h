// ChessBench's FEN tokenizer: 77 tokens over a 31-character alphabet.
//
//   token 0        side to move ('w' or 'b')
//   tokens 1-64    squares a8, b8, ..., h8, a7, ..., h1 (rank 8 first); '.' for empty
//   tokens 65-68   castling field padded with '.' to 4 ("KQkq", "Kq..", "....")
//   tokens 69-70   en passant square ("e3"), or ".." (only when a legal capture exists)
//   tokens 71-73   halfmove clock, right-padded with '.' ("0..", "12.", clamped to 999)
//   tokens 74-76   fullmove number, likewise
//
// Example: the start position tokenizes as "wrnbqkbnrpppppppp" + 32 '.' + "PPPPPPPPRNBQKBNR"
// + "KQkq" + ".." + "0.." + "1..", each character mapped to its index in kAlphabet.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "avocet/chess/position.h"

namespace avocet::nn {

inline constexpr std::string_view kAlphabet = "0123456789abcdefghpnrkqPBNRQKw.";
inline constexpr int kAlphabetSize = 31;
inline constexpr int kFenTokens = 77;

using Tokens = std::array<uint8_t, kFenTokens>;

// Token position of a square's character.
constexpr int square_token(Square s) { return 1 + (7 - index(rank_of(s))) * 8 + index(file_of(s)); }
// The square whose character is token t (1..64): the inverse of square_token.
constexpr Square token_square(int t) {
  return make_square(File((t - 1) % 8), Rank(7 - (t - 1) / 8));
}
static_assert(token_square(square_token(Square::E4)) == Square::E4);

// Tokens of pos.fen(). With `mirror`, a position with Black to move is tokenized as its
// colour-flipped twin (board flipped rank-wise, colours swapped, White to move), so the
// network always sees the side to move as White; moves must then be mirrored too.
Tokens tokenize(const Position& pos, bool mirror = false);

// Whether tokenize(pos, mirror) flipped the board.
inline bool is_mirrored(const Position& pos, bool mirror) {
  return mirror && pos.side_to_move() == Color::Black;
}

}  // namespace avocet::nn
