#include "avocet/nn/tokenizer.h"

#include <algorithm>

namespace avocet::nn {

namespace {

constexpr uint8_t token_of(char c) { return uint8_t(kAlphabet.find(c)); }
static_assert(kAlphabet.size() == kAlphabetSize);
static_assert(token_of('.') == 30 && token_of('w') == 29 && token_of('b') == 11);

constexpr Piece swap_colour(Piece p) {
  return p == Piece::None ? p : make_piece(~color_of(p), type_of(p));
}

// Writes a clock as up to three digits, right-padded with '.'.
void put_clock(Tokens& tokens, int at, int value) {
  value = std::clamp(value, 0, 999);
  char digits[3] = {'.', '.', '.'};
  if (value >= 100) {
    digits[0] = char('0' + value / 100), digits[1] = char('0' + value / 10 % 10);
    digits[2] = char('0' + value % 10);
  } else if (value >= 10) {
    digits[0] = char('0' + value / 10), digits[1] = char('0' + value % 10);
  } else {
    digits[0] = char('0' + value);
  }
  for (int i = 0; i < 3; ++i) tokens[at + i] = token_of(digits[i]);
}

}  // namespace

Tokens tokenize(const Position& pos, bool mirror) {
  const bool flip = is_mirrored(pos, mirror);
  Tokens tokens;
  tokens[0] = token_of(pos.side_to_move() == Color::White || flip ? 'w' : 'b');

  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    const Piece p = flip ? swap_colour(pos.piece_on(flip_rank(s))) : pos.piece_on(s);
    tokens[square_token(s)] = p == Piece::None ? token_of('.') : token_of(piece_char(p));
  }

  // Castling letters in FEN order KQkq, then padding.
  uint8_t rights = pos.castling_rights();
  if (flip) rights = uint8_t((rights >> 2) | ((rights & 3) << 2));
  int at = 65;
  constexpr std::pair<CastlingRight, char> kLetters[] = {
      {kWhiteKingSide, 'K'}, {kWhiteQueenSide, 'Q'}, {kBlackKingSide, 'k'}, {kBlackQueenSide, 'q'}};
  for (const auto& [right, letter] : kLetters)
    if (rights & right) tokens[at++] = token_of(letter);
  while (at < 69) tokens[at++] = token_of('.');

  const Square ep = pos.en_passant_square();
  if (ep == Square::None) {
    tokens[69] = tokens[70] = token_of('.');
  } else {
    const Square shown = flip ? flip_rank(ep) : ep;
    tokens[69] = token_of(char('a' + index(file_of(shown))));
    tokens[70] = token_of(char('1' + index(rank_of(shown))));
  }
  put_clock(tokens, 71, pos.halfmove_clock());
  put_clock(tokens, 74, pos.fullmove_number());
  return tokens;
}

}  // namespace avocet::nn
