// Index geometry of the Syzygy format: how a placement of pieces becomes a position index.
//
// Pawnless tables fold the board's eight symmetries away: the leading pieces (three unique
// pieces, or the two kings) are normalised into the a1-d1-d4 triangle, and the remaining
// groups of identical pieces are numbered as combinations of the squares left. Tables with
// pawns keep rank direction; the leading pawn is brought to files a-d and the table is
// split by its file. All tables here are computed once from these rules.
#pragma once

#include <array>
#include <cstdint>

namespace avocet::syzygy::encoding {

constexpr int file_of(int s) { return s & 7; }
constexpr int rank_of(int s) { return s >> 3; }
// > 0 above the a1-h8 diagonal, 0 on it, < 0 below it.
constexpr int off_diagonal(int s) { return rank_of(s) - file_of(s); }
// Reflection in the a1-h8 diagonal (b1 <-> a2).
constexpr int flip_diagonal(int s) { return ((s >> 3) | (s << 3)) & 63; }

struct Geometry {
  // Square -> 0..9: the a1-d1-d4 triangle numbered off-diagonal squares first (b1 c1 d1 c2
  // d2 d3 -> 0..5), then the diagonal (a1 b2 c3 d4 -> 6..9); other squares take the number
  // of their image in the triangle.
  std::array<int8_t, 64> triangle{};
  // Squares below the a1-h8 diagonal in ascending order -> 0..27; -1 elsewhere.
  std::array<int8_t, 64> below_diagonal{};
  // [triangle number of the first king][square of the second] -> 0..461, or -1 where the
  // kings touch or the placement is the mirror image of another.
  std::array<std::array<int16_t, 64>, 10> king_pair{};
  // Pawn squares (ranks 2-7) of files a-d -> 0..23, file-major; mirrored files alike.
  std::array<int8_t, 64> pawn_file_rank{};
  // Pawn squares -> 47..0 in the order a2 h2 a3 h3 ... a7 h7 b2 g2 ... d7 e7: the number of
  // squares still open to the other leading pawns when the first stands here.
  std::array<int8_t, 64> pawn_rank_twist{};
  // [lead pawn count][square] -> first index of the lead pawns' placements with the first
  // lead pawn on that square (files a-d); [count][file] -> placements per file.
  std::array<std::array<uint64_t, 64>, 6> lead_pawn_index{};
  std::array<std::array<uint64_t, 4>, 6> lead_pawn_count{};
  // binomial[k][n] = C(n, k) for n <= 64, k <= 7 (0 when k > n).
  std::array<std::array<uint64_t, 65>, 8> binomial{};
};

const Geometry& geometry();

// Placements of the leading group of a pawnless table: three unique pieces, or two kings.
inline constexpr uint64_t kThreeUniquePlacements = 31332;
inline constexpr uint64_t kTwoKingsPlacements = 462;

}  // namespace avocet::syzygy::encoding
