// Tablebase use at the root: when the root position is in the Syzygy tables, every legal move
// is ranked by the result it keeps (WDL) and by DTZ, so that a win is converted within the
// 50-move rule and a loss resists as long as possible.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"
#include "avocet/syzygy/tablebase.h"

namespace avocet::search {

struct TablebaseMove {
  Move move;
  // The result after the move, for the side to move at the root. With the 50-move rule a win
  // whose zeroing move comes too late for the halfmove clock is a cursed win (a blessed loss
  // likewise); without it, cursed wins are wins and blessed losses losses.
  syzygy::Wdl wdl = syzygy::Wdl::Draw;
  // Plies from the root to the next zeroing move (capture or pawn move) on the tablebase line,
  // signed like the WDL: 1 for a mate or a winning zeroing move, 0 for a draw, -1 for a
  // zeroing move that loses. nullopt when a DTZ table is missing (the ranking is by WDL only).
  std::optional<int> dtz;
};

// Every legal move of `pos`, best first: by WDL, then (when every DTZ is known) by DTZ, the
// shortest win and the longest loss first. `halfmove_clock` is the root's 50-move counter.
// Empty when the tables do not apply, the position has no legal move, or a WDL table is
// missing.
std::vector<TablebaseMove> rank_root_moves(const Position& pos, int halfmove_clock,
                                           const syzygy::Tablebases& tables, bool rule50,
                                           int probe_limit = 7);

// The moves ranked equal to the first (same WDL, same DTZ); empty for an empty ranking.
std::vector<TablebaseMove> best_group(std::span<const TablebaseMove> ranked);

}  // namespace avocet::search
