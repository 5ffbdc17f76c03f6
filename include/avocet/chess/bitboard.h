// Bitboard: a set of squares as 64 bits, bit i set <=> square i (a1 = bit 0, h8 = bit 63).
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "avocet/chess/types.h"

namespace avocet {

class Bitboard {
 public:
  constexpr Bitboard() = default;
  constexpr explicit Bitboard(uint64_t bits) : bits_(bits) {}
  constexpr explicit Bitboard(Square s) : bits_(uint64_t{1} << index(s)) {}

  constexpr uint64_t bits() const { return bits_; }
  constexpr explicit operator bool() const { return bits_ != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool has(Square s) const { return (bits_ >> index(s)) & 1; }
  constexpr int count() const { return std::popcount(bits_); }
  constexpr bool more_than_one() const { return (bits_ & (bits_ - 1)) != 0; }

  // Lowest square; undefined on an empty set.
  constexpr Square first() const { return square_at(std::countr_zero(bits_)); }
  constexpr Square pop_first() {
    const Square s = first();
    bits_ &= bits_ - 1;
    return s;
  }

  constexpr Bitboard operator&(Bitboard o) const { return Bitboard(bits_ & o.bits_); }
  constexpr Bitboard operator|(Bitboard o) const { return Bitboard(bits_ | o.bits_); }
  constexpr Bitboard operator^(Bitboard o) const { return Bitboard(bits_ ^ o.bits_); }
  constexpr Bitboard operator~() const { return Bitboard(~bits_); }
  constexpr Bitboard operator<<(int n) const { return Bitboard(bits_ << n); }
  constexpr Bitboard operator>>(int n) const { return Bitboard(bits_ >> n); }
  constexpr Bitboard& operator&=(Bitboard o) { return bits_ &= o.bits_, *this; }
  constexpr Bitboard& operator|=(Bitboard o) { return bits_ |= o.bits_, *this; }
  constexpr Bitboard& operator^=(Bitboard o) { return bits_ ^= o.bits_, *this; }
  constexpr Bitboard operator&(Square s) const { return *this & Bitboard(s); }
  constexpr Bitboard operator|(Square s) const { return *this | Bitboard(s); }
  constexpr Bitboard operator^(Square s) const { return *this ^ Bitboard(s); }
  constexpr Bitboard& operator|=(Square s) { return *this |= Bitboard(s); }
  constexpr Bitboard& operator^=(Square s) { return *this ^= Bitboard(s); }
  constexpr bool operator==(const Bitboard&) const = default;

  // Iterates the squares in ascending order: `for (Square s : attacks) ...`.
  class Iterator {
   public:
    constexpr explicit Iterator(uint64_t bits) : bits_(bits) {}
    constexpr Square operator*() const { return square_at(std::countr_zero(bits_)); }
    constexpr Iterator& operator++() { return bits_ &= bits_ - 1, *this; }
    constexpr bool operator!=(const Iterator& o) const { return bits_ != o.bits_; }

   private:
    uint64_t bits_;
  };
  constexpr Iterator begin() const { return Iterator(bits_); }
  constexpr Iterator end() const { return Iterator(0); }

 private:
  uint64_t bits_ = 0;
};

constexpr Bitboard kEmpty{};
constexpr Bitboard kFileA{0x0101010101010101ULL};
constexpr Bitboard kFileH{0x8080808080808080ULL};
constexpr Bitboard kRank1{0xFFULL};
constexpr Bitboard kRank8{0xFF00000000000000ULL};
constexpr Bitboard kLightSquares{0x55AA55AA55AA55AAULL};
constexpr Bitboard kDarkSquares{0xAA55AA55AA55AA55ULL};

constexpr Bitboard file_bb(File f) { return kFileA << index(f); }
constexpr Bitboard rank_bb(Rank r) { return kRank1 << (8 * index(r)); }

// Shifts every square one step; squares that would wrap around the board edge fall off.
enum class Direction { North, South, NorthEast, NorthWest, SouthEast, SouthWest };

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == Direction::North) return b << 8;
  if constexpr (D == Direction::South) return b >> 8;
  if constexpr (D == Direction::NorthEast) return (b & ~kFileH) << 9;
  if constexpr (D == Direction::NorthWest) return (b & ~kFileA) << 7;
  if constexpr (D == Direction::SouthEast) return (b & ~kFileH) >> 7;
  if constexpr (D == Direction::SouthWest) return (b & ~kFileA) >> 9;
}

// Eight lines of '.' and 'x', rank 8 first; for debugging and test failure messages.
std::string to_diagram(Bitboard b);

}  // namespace avocet
