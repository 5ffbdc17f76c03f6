// Strong types for the board: colours, piece types, pieces, files, ranks and squares.
//
// All are scoped enums over one byte so that a Square can never be passed where a Piece is
// expected; the helpers below are the only sanctioned conversions.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace avocet {

enum class Color : uint8_t { White, Black };

constexpr Color operator~(Color c) { return Color(uint8_t(c) ^ 1); }
constexpr int index(Color c) { return int(c); }

enum class PieceType : uint8_t { Pawn, Knight, Bishop, Rook, Queen, King, None };

constexpr int index(PieceType pt) { return int(pt); }
constexpr int kPieceTypeCount = 6;

// Piece index = color * 6 + type, so White pieces are 0..5 and Black pieces 6..11.
enum class Piece : uint8_t {
  WhitePawn,
  WhiteKnight,
  WhiteBishop,
  WhiteRook,
  WhiteQueen,
  WhiteKing,
  BlackPawn,
  BlackKnight,
  BlackBishop,
  BlackRook,
  BlackQueen,
  BlackKing,
  None
};

constexpr int kPieceCount = 12;
constexpr int index(Piece p) { return int(p); }
constexpr Piece make_piece(Color c, PieceType pt) {
  assert(int(c) < 2 && int(pt) < kPieceTypeCount && "make_piece: no such piece");
  return Piece(int(c) * 6 + int(pt));
}
constexpr PieceType type_of(Piece p) { return PieceType(int(p) % 6); }
constexpr Color color_of(Piece p) { return Color(int(p) / 6); }

// FEN letter of a piece ('P', 'n', ...) and back.
char piece_char(Piece p);
std::optional<Piece> piece_from_char(char c);

enum class File : uint8_t { A, B, C, D, E, F, G, H };
enum class Rank : uint8_t { R1, R2, R3, R4, R5, R6, R7, R8 };

constexpr int index(File f) { return int(f); }
constexpr int index(Rank r) { return int(r); }

// Little-endian rank-file mapping: a1 = 0, b1 = 1, ..., h8 = 63.
enum class Square : uint8_t {
  // clang-format off
  A1, B1, C1, D1, E1, F1, G1, H1,
  A2, B2, C2, D2, E2, F2, G2, H2,
  A3, B3, C3, D3, E3, F3, G3, H3,
  A4, B4, C4, D4, E4, F4, G4, H4,
  A5, B5, C5, D5, E5, F5, G5, H5,
  A6, B6, C6, D6, E6, F6, G6, H6,
  A7, B7, C7, D7, E7, F7, G7, H7,
  A8, B8, C8, D8, E8, F8, G8, H8,
  None
  // clang-format on
};

constexpr int kSquareCount = 64;
constexpr int index(Square s) { return int(s); }
constexpr Square square_at(int i) {
  assert(i >= 0 && i <= 64 && "square_at: index off the board (64 is Square::None)");
  return Square(uint8_t(i));
}
constexpr Square make_square(File f, Rank r) { return Square(uint8_t(int(r) * 8 + int(f))); }
constexpr File file_of(Square s) { return File(int(s) & 7); }
constexpr Rank rank_of(Square s) { return Rank(int(s) >> 3); }
constexpr bool is_valid(Square s) { return int(s) < 64; }
constexpr Square operator+(Square s, int delta) { return Square(uint8_t(int(s) + delta)); }
constexpr Square operator-(Square s, int delta) { return Square(uint8_t(int(s) - delta)); }

// The same square seen from the other side of the board (a1 <-> a8).
constexpr Square flip_rank(Square s) { return Square(uint8_t(int(s) ^ 56)); }

constexpr Square relative_square(Color c, Square s) { return c == Color::White ? s : flip_rank(s); }

// Pawn step towards the opponent.
constexpr int pawn_push(Color c) { return c == Color::White ? 8 : -8; }

// "e4" for Square::E4; "-" for Square::None.
std::string square_name(Square s);
std::optional<Square> parse_square(std::string_view text);

// Castling rights as a 4-bit set. King-side means the rook stands on the king's h-side (in
// Chess960 too, wherever king and rook start): the king ends on g1/g8, else on c1/c8.
enum CastlingRight : uint8_t {
  kNoCastling = 0,
  kWhiteKingSide = 1,
  kWhiteQueenSide = 2,
  kBlackKingSide = 4,
  kBlackQueenSide = 8,
  kAllCastling = 15,
};

// 0..3 for a single right (K, Q, k, q): its bit's position.
constexpr int index(CastlingRight r) { return std::countr_zero(unsigned(r)); }
constexpr CastlingRight castling_right(Color c, bool king_side) {
  return CastlingRight((king_side ? 1 : 2) << (2 * index(c)));
}
constexpr uint8_t castling_rights_of(Color c) { return uint8_t(3 << (2 * index(c))); }

}  // namespace avocet
