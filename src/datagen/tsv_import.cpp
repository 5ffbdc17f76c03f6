#include "avocet/datagen/tsv_import.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <istream>
#include <limits>
#include <ostream>
#include <stdexcept>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"

namespace avocet::datagen {

std::pair<Position, std::vector<LabelledMove>> parse_annotation_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const size_t tab = line.find('\t');
  if (tab == std::string_view::npos) throw std::invalid_argument("no tab between FEN and moves");
  const Position pos = Position::from_fen(line.substr(0, tab));
  std::vector<LabelledMove> moves;
  bool every_other_move = false;
  std::string_view rest = line.substr(tab + 1);
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    const std::string_view entry = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    if (entry.empty()) continue;
    if (every_other_move)
      throw std::invalid_argument(fmt::format("entry '{}' after '{}:{}', which must come last",
                                              entry, kEveryOtherMove, kUnscored));
    const size_t colon = entry.find(':');
    if (colon == std::string_view::npos)
      throw std::invalid_argument(fmt::format("entry '{}' is not move:score", entry));
    if (entry.substr(0, colon) == kEveryOtherMove) {
      if (entry.substr(colon + 1) != kUnscored)
        throw std::invalid_argument(fmt::format("entry '{}': every other move can only be '{}:{}'",
                                                entry, kEveryOtherMove, kUnscored));
      every_other_move = true;
      continue;
    }
    const Move move = parse_uci(pos, entry.substr(0, colon));
    const std::string_view score = entry.substr(colon + 1);
    const std::optional<float> win =
        score == kUnscored ? std::numeric_limits<float>::quiet_NaN() : parse_score(score);
    if (!win) throw std::invalid_argument(fmt::format("bad score in '{}'", entry));
    for (const LabelledMove& m : moves)
      if (m.move == move) throw std::invalid_argument(fmt::format("move '{}' repeated", entry));
    moves.push_back({move, *win});
  }
  if (every_other_move)
    for (const Move move : legal_moves(pos))
      if (std::none_of(moves.begin(), moves.end(),
                       [&](const LabelledMove& m) { return m.move == move; }))
        moves.push_back({move, std::numeric_limits<float>::quiet_NaN()});
  if (std::all_of(moves.begin(), moves.end(),
                  [](const LabelledMove& m) { return std::isnan(m.win_probability); }))
    throw std::invalid_argument("no scored moves");
  return {pos, moves};
}

ImportStats import_annotations(
    std::istream& in,
    const std::function<void(const Position&, const std::vector<LabelledMove>&)>& write,
    std::ostream& report, int max_reports) {
  ImportStats stats;
  for (std::string line; std::getline(in, line);) {
    ++stats.lines;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const auto [pos, moves] = parse_annotation_line(line);
      write(pos, moves);
      ++stats.positions;
      const long unscored = std::count_if(moves.begin(), moves.end(), [](const LabelledMove& m) {
        return std::isnan(m.win_probability);
      });
      stats.moves += long(moves.size()) - unscored;
      stats.unscored += unscored;
    } catch (const std::exception& e) {
      if (++stats.malformed <= max_reports)
        fmt::print(report, "line {}: {}\n", stats.lines, e.what());
    }
  }
  return stats;
}

}  // namespace avocet::datagen
