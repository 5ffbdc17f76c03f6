// libFuzzer target: one EPD line (bm/am in SAN, c0/c8/c9 points). It either throws
// std::invalid_argument or gives moves that are legal in its position.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "avocet/chess/movegen.h"
#include "avocet/suites/epd.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avocet;
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  suites::EpdEntry entry;
  try {
    entry = suites::parse_epd_line(line);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const MoveList legal = legal_moves(entry.position);
  const auto is_legal = [&](Move m) {
    for (Move l : legal)
      if (l == m) return true;
    return false;
  };
  for (Move m : entry.best)
    if (!is_legal(m)) __builtin_trap();
  for (Move m : entry.avoid)
    if (!is_legal(m)) __builtin_trap();
  for (const auto& [m, points] : entry.points)
    if (!is_legal(m)) __builtin_trap();
  for (Move m : legal)
    if (suites::score_epd_move(entry, m) > suites::max_epd_score(entry)) __builtin_trap();
  return 0;
}
