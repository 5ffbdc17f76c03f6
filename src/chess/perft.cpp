#include "avocet/chess/perft.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"

namespace avocet {

uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return count_legal_moves(pos);
  uint64_t nodes = 0;
  for (Move m : legal_moves(pos)) {
    Position next = pos;
    next.play(m);
    nodes += perft(next, depth - 1);
  }
  return nodes;
}

std::vector<PerftDivision> perft_divide(const Position& pos, int depth) {
  std::vector<PerftDivision> divisions;
  for (Move m : legal_moves(pos)) {
    Position next = pos;
    next.play(m);
    divisions.push_back({m, perft(next, depth - 1)});
  }
  std::sort(divisions.begin(), divisions.end(),
            [](const auto& a, const auto& b) { return to_uci(a.move) < to_uci(b.move); });
  return divisions;
}

void write_perft_report(std::ostream& out, const Position& pos, int depth) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<PerftDivision> divisions = perft_divide(pos, depth);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t total = 0;
  for (const PerftDivision& d : divisions) {
    fmt::print(out, "{}: {}\n", to_uci(d.move), d.nodes);
    total += d.nodes;
  }
  fmt::print(out, "\nNodes searched: {}\nTime: {:.3f} s\nSpeed: {:.1f} Mnodes/s\n", total, seconds,
             seconds > 0 ? total / seconds / 1e6 : 0.0);
  out.flush();
}

}  // namespace avocet
