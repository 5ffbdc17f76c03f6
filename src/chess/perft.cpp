#include "avocet/chess/perft.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <stdexcept>

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

std::vector<PerftDivision> perft_divide(const Position& pos, int depth, bool chess960) {
  std::vector<PerftDivision> divisions;
  for (Move m : legal_moves(pos)) {
    Position next = pos;
    next.play(m);
    divisions.push_back({m, perft(next, depth - 1)});
  }
  std::sort(divisions.begin(), divisions.end(), [chess960](const auto& a, const auto& b) {
    return to_uci(a.move, chess960) < to_uci(b.move, chess960);
  });
  return divisions;
}

PerftSuiteEntry parse_perft_suite_line(std::string_view line) {
  PerftSuiteEntry entry;
  size_t semicolon = line.find(';');
  entry.fen = std::string(line.substr(0, semicolon));
  while (semicolon != std::string_view::npos) {
    const size_t next = line.find(';', semicolon + 1);
    std::string_view field = line.substr(semicolon + 1, next - semicolon - 1);
    semicolon = next;
    while (!field.empty() && field.front() == ' ') field.remove_prefix(1);
    while (!field.empty() && (field.back() == ' ' || field.back() == '\r')) field.remove_suffix(1);
    if (field.empty()) continue;
    int depth = 0;
    uint64_t nodes = 0;
    const size_t space = field.find(' ');
    const bool ok =
        field[0] == 'D' && space != std::string_view::npos &&
        std::from_chars(field.data() + 1, field.data() + space, depth).ptr ==
            field.data() + space &&
        std::from_chars(field.data() + space + 1, field.data() + field.size(), nodes).ptr ==
            field.data() + field.size() &&
        depth >= 1 && depth <= 20;
    if (!ok)
      throw std::invalid_argument(
          fmt::format("perft suite: expected 'D<depth> <nodes>', got '{}'", field));
    entry.counts.emplace_back(depth, nodes);
  }
  if (entry.counts.empty())
    throw std::invalid_argument(fmt::format("perft suite: no counts on line '{}'", line));
  return entry;
}

void write_perft_report(std::ostream& out, const Position& pos, int depth, bool chess960) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<PerftDivision> divisions = perft_divide(pos, depth, chess960);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t total = 0;
  for (const PerftDivision& d : divisions) {
    fmt::print(out, "{}: {}\n", to_uci(d.move, chess960), d.nodes);
    total += d.nodes;
  }
  fmt::print(out, "\nNodes searched: {}\nTime: {:.3f} s\nSpeed: {:.1f} Mnodes/s\n", total, seconds,
             seconds > 0 ? total / seconds / 1e6 : 0.0);
  out.flush();
}

}  // namespace avocet
