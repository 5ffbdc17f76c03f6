// libFuzzer target: one Lichess puzzle CSV row. It either throws std::invalid_argument or
// gives a puzzle whose whole line can be played from its start position.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "avocet/suites/puzzles.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avocet;
  const std::string_view row(reinterpret_cast<const char*>(data), size);
  suites::Puzzle puzzle;
  try {
    puzzle = suites::parse_puzzle_row(row);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  if (puzzle.moves.size() < 2) __builtin_trap();
  // A solver that plays the puzzle's own line solves it.
  size_t ply = 1;
  const suites::PuzzleResult result = suites::solve_puzzle(
      puzzle, [&](const Game&) { return puzzle.moves[std::exchange(ply, ply + 2)]; });
  if (!result.solved) __builtin_trap();
  return 0;
}
