#include "encoding.h"

#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

namespace avocet::syzygy::encoding {

namespace {

bool kings_touch(int a, int b) {
  return std::abs(file_of(a) - file_of(b)) <= 1 && std::abs(rank_of(a) - rank_of(b)) <= 1;
}

Geometry build() {
  Geometry g;

  // Triangle numbers of the a1-d1-d4 triangle, then of every square by symmetry.
  std::array<int8_t, 64> in_triangle;
  in_triangle.fill(-1);
  int next = 0;
  for (int s = 0; s < 64; ++s)
    if (file_of(s) <= 3 && rank_of(s) < file_of(s)) in_triangle[s] = int8_t(next++);
  for (int r = 0; r < 4; ++r) in_triangle[r * 9] = int8_t(6 + r);
  for (int s = 0; s < 64; ++s) {
    int t = s;
    if (file_of(t) > 3) t ^= 7;
    if (rank_of(t) > 3) t ^= 56;
    if (off_diagonal(t) > 0) t = flip_diagonal(t);
    g.triangle[s] = in_triangle[t];
  }

  g.below_diagonal.fill(-1);
  next = 0;
  for (int s = 0; s < 64; ++s)
    if (off_diagonal(s) < 0) g.below_diagonal[s] = int8_t(next++);

  // Two kings: the first in the triangle; when it is on the diagonal the second is not
  // above it. Placements with both kings on the diagonal are numbered last.
  for (auto& row : g.king_pair) row.fill(-1);
  std::vector<std::pair<int, int>> both_on_diagonal;
  int code = 0;
  for (int t = 0; t < 10; ++t) {
    int first = -1;
    for (int s = 0; s < 64; ++s)
      if (in_triangle[s] == t) first = s;
    for (int s = 0; s < 64; ++s) {
      if (kings_touch(first, s)) continue;
      if (off_diagonal(first) == 0 && off_diagonal(s) > 0) continue;
      if (off_diagonal(first) == 0 && off_diagonal(s) == 0)
        both_on_diagonal.emplace_back(t, s);
      else
        g.king_pair[t][s] = int16_t(code++);
    }
  }
  for (auto [t, s] : both_on_diagonal) g.king_pair[t][s] = int16_t(code++);

  g.pawn_file_rank.fill(-1);
  g.pawn_rank_twist.fill(-1);
  for (int s = 8; s < 56; ++s) {
    const int f = std::min(file_of(s), 7 - file_of(s));
    g.pawn_file_rank[s] = int8_t(f * 6 + rank_of(s) - 1);
  }
  int open = 47;
  for (int f = 0; f < 4; ++f)
    for (int r = 1; r < 7; ++r) {
      g.pawn_rank_twist[r * 8 + f] = int8_t(open--);
      g.pawn_rank_twist[r * 8 + (7 - f)] = int8_t(open--);
    }

  for (int n = 0; n <= 64; ++n) {
    g.binomial[0][n] = 1;
    for (int k = 1; k < 8; ++k)
      g.binomial[k][n] = n == 0 ? 0 : g.binomial[k - 1][n - 1] + g.binomial[k][n - 1];
  }

  for (int count = 1; count <= 5; ++count)
    for (int f = 0; f < 4; ++f) {
      uint64_t index = 0;
      for (int r = 1; r < 7; ++r) {
        const int s = r * 8 + f;
        g.lead_pawn_index[count][s] = g.lead_pawn_index[count][s ^ 7] = index;
        index += g.binomial[count - 1][g.pawn_rank_twist[s]];
      }
      g.lead_pawn_count[count][f] = index;
    }
  return g;
}

}  // namespace

const Geometry& geometry() {
  static const Geometry g = build();
  return g;
}

}  // namespace avocet::syzygy::encoding
