// Perft: the number of leaf nodes of the legal move tree to a fixed depth, the standard test
// of a move generator. The last ply is counted in bulk (moves are counted, not played).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet {

uint64_t perft(const Position& pos, int depth);

struct PerftDivision {
  Move move;
  uint64_t nodes;
};

// Perft below each legal move, in the order of UCI text (as Stockfish's `go perft` lists),
// castling written as to_uci writes it with `chess960`.
std::vector<PerftDivision> perft_divide(const Position& pos, int depth, bool chess960 = false);

// One line of a perft suite: `FEN; D1 20; D2 400; ...`.
struct PerftSuiteEntry {
  std::string fen;
  std::vector<std::pair<int, uint64_t>> counts;  // (depth, nodes), as listed
};

// Parses one suite line; throws std::invalid_argument naming what is malformed.
PerftSuiteEntry parse_perft_suite_line(std::string_view line);

// Writes `move: nodes` per legal move, then `Nodes searched: N`, the time and the speed,
// as `avocet perft` and the UCI command `go perft` print it.
void write_perft_report(std::ostream& out, const Position& pos, int depth, bool chess960 = false);

}  // namespace avocet
