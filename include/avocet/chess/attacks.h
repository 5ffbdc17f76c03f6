// Attack tables: precomputed leaper attacks, sliding attacks through PEXT (BMI2) or magic
// multiplication, and the lines between aligned squares used for pins and checks.
#pragma once

#include <array>
#include <cstdint>

#include "avocet/chess/bitboard.h"

#if defined(__BMI2__) && !defined(AVOCET_NO_PEXT)
#include <immintrin.h>
#define AVOCET_USE_PEXT 1
#else
#define AVOCET_USE_PEXT 0
#endif

namespace avocet {

namespace detail {

// One slider table entry per square: the relevant occupancy mask (board edges excluded),
// the magic factor and shift (unused with PEXT) and where the square's slice of the shared
// attack table starts.
struct SliderEntry {
  uint64_t mask;
  uint64_t magic;
  const Bitboard* attacks;
  unsigned shift;

  unsigned slot(Bitboard occupied) const {
#if AVOCET_USE_PEXT
    return unsigned(_pext_u64(occupied.bits(), mask));
#else
    return unsigned(((occupied.bits() & mask) * magic) >> shift);
#endif
  }
};

extern std::array<SliderEntry, 64> rook_entries;
extern std::array<SliderEntry, 64> bishop_entries;
extern std::array<std::array<Bitboard, 64>, 2> pawn_attack_table;
extern std::array<Bitboard, 64> knight_attack_table;
extern std::array<Bitboard, 64> king_attack_table;
extern std::array<std::array<Bitboard, 64>, 64> between_table;
extern std::array<std::array<Bitboard, 64>, 64> line_table;

}  // namespace detail

// Squares a pawn of colour `c` on `s` attacks.
inline Bitboard pawn_attacks(Color c, Square s) {
  return detail::pawn_attack_table[index(c)][index(s)];
}
inline Bitboard knight_attacks(Square s) { return detail::knight_attack_table[index(s)]; }
inline Bitboard king_attacks(Square s) { return detail::king_attack_table[index(s)]; }

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const detail::SliderEntry& e = detail::rook_entries[index(s)];
  return e.attacks[e.slot(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const detail::SliderEntry& e = detail::bishop_entries[index(s)];
  return e.attacks[e.slot(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}

// Squares strictly between a and b when they share a rank, file or diagonal; else empty.
inline Bitboard between(Square a, Square b) { return detail::between_table[index(a)][index(b)]; }
// The whole board line through a and b (both included) when aligned; else empty.
inline Bitboard line_through(Square a, Square b) { return detail::line_table[index(a)][index(b)]; }

// Slow ray-walking reference for slider attacks, for tests and table construction.
Bitboard sliding_attacks_reference(PieceType pt, Square s, Bitboard occupied);

}  // namespace avocet
