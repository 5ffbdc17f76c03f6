// Move: 16 bits.
//
//   bits  0-5   destination square
//   bits  6-11  origin square
//   bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen (promotions only)
//   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
//
// Castling is stored as the king capturing its own rook (e1h1), as Stockfish stores it: in
// Chess960 the king's destination alone can be its own square (g1g1) or look like a plain king
// step (b1c1), the rook's square never does. Standard UCI text (e1g1) and the networks' action
// table see castling as the king's move instead: castling_king_to() gives its destination.
// The all-zero value (a1a1) is never a legal move and serves as "no move".
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "avocet/chess/types.h"

namespace avocet {

enum class MoveKind : uint8_t { Normal, Promotion, EnPassant, Castling };

class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::Normal,
                 PieceType promotion = PieceType::Knight)
      : bits_(uint16_t(index(to) | index(from) << 6 | ((index(promotion) - 1) & 3) << 12 |
                       int(kind) << 14)) {}

  static constexpr Move none() { return Move(); }
  static constexpr Move from_bits(uint16_t bits) {
    Move m;
    m.bits_ = bits;
    return m;
  }

  constexpr Square from() const { return square_at((bits_ >> 6) & 63); }
  constexpr Square to() const { return square_at(bits_ & 63); }
  constexpr MoveKind kind() const { return MoveKind(bits_ >> 14); }
  constexpr PieceType promotion() const {
    return kind() == MoveKind::Promotion ? PieceType(((bits_ >> 12) & 3) + 1) : PieceType::None;
  }
  constexpr uint16_t bits() const { return bits_; }
  constexpr bool is_none() const { return bits_ == 0; }
  constexpr bool operator==(const Move&) const = default;

 private:
  uint16_t bits_ = 0;
};

static_assert(sizeof(Move) == 2, "Move must stay 16 bits");
static_assert(Move(Square::E2, Square::E4).bits() == (28 | 12 << 6));
static_assert(Move(Square::A7, Square::A8, MoveKind::Promotion, PieceType::Queen).promotion() ==
              PieceType::Queen);
static_assert(Move(Square::E1, Square::H1, MoveKind::Castling).kind() == MoveKind::Castling);

// Where king and rook stand after castling `m` (king-takes-rook): the g- and f-files when the
// rook is on the king's h-side, else the c- and d-files, on the king's rank, in Chess960 as in
// standard chess.
constexpr bool is_king_side_castling(Move m) { return index(m.to()) > index(m.from()); }
constexpr Square castling_king_to(Move m) {
  return make_square(is_king_side_castling(m) ? File::G : File::C, rank_of(m.from()));
}
constexpr Square castling_rook_to(Move m) {
  return make_square(is_king_side_castling(m) ? File::F : File::D, rank_of(m.from()));
}
static_assert(castling_king_to(Move(Square::E8, Square::A8, MoveKind::Castling)) == Square::C8);
static_assert(castling_rook_to(Move(Square::B1, Square::C1, MoveKind::Castling)) == Square::F1);

// Fixed-capacity list: no legal chess position has more than 218 moves.
class MoveList {
 public:
  static constexpr size_t kCapacity = 256;

  void push(Move m) {
    assert(size_ < kCapacity && "MoveList overflow");
    moves_[size_++] = m;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](size_t i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  std::array<Move, kCapacity> moves_;
  size_t size_ = 0;
};

}  // namespace avocet
