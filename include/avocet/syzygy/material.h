// Material: how many pieces of each kind each colour has, as a Syzygy table name counts them.
//
// "KQvKR" is the table of a king and queen against a king and rook; the side written first is
// called White here. The key packs four bits per (colour, piece type):
//
//   bits  0-23   White: pawns, knights, bishops, rooks, queens, kings (4 bits each)
//   bits 32-55   Black: the same
//
// so that a position and a table name meet in one 64-bit integer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "avocet/chess/position.h"
#include "avocet/chess/types.h"

namespace avocet::syzygy {

class Material {
 public:
  constexpr Material() = default;

  // "KQvKR" -> Material; nullopt unless the name is K[QRBNP]*vK[QRBNP]* with 3..7 pieces.
  static std::optional<Material> from_name(std::string_view name);
  static Material of(const Position& pos);

  constexpr uint64_t key() const { return key_; }
  constexpr int count(Color c, PieceType pt) const { return int(key_ >> shift(c, pt)) & 15; }
  void add(Color c, PieceType pt) { key_ += uint64_t{1} << shift(c, pt); }

  // The same material with the colours swapped ("KRvKQ" for "KQvKR").
  Material mirrored() const;
  bool symmetric() const { return mirrored() == *this; }
  int piece_count() const;
  bool has_pawns() const {
    return count(Color::White, PieceType::Pawn) + count(Color::Black, PieceType::Pawn) > 0;
  }
  // "KQvKR", White first, pieces in the order KQRBNP.
  std::string name() const;

  constexpr bool operator==(const Material&) const = default;

 private:
  static constexpr int shift(Color c, PieceType pt) { return 32 * index(c) + 4 * index(pt); }
  uint64_t key_ = 0;
};

}  // namespace avocet::syzygy
