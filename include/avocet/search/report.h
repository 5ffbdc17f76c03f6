// What a search reports: its root lines, best first, with their values and principal
// variations, the figures GUIs show (depth, seldepth, nodes, tbhits), and where a long search
// is between reports.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "avocet/chess/move.h"

namespace avocet::search {

struct RootLine {
  Move move;
  float value = 0;  // for the side to move at the root
  std::vector<Move> pv;
  std::optional<int> tablebase_wdl;  // the root's tablebase result for this move (-2 .. 2)
  // What the network said before the search (VerboseMoveStats): its value of the move for
  // the side to move, and the move's probability pi(a|s) at the root.
  float net_value = 0, prior = 0;
  bool proven = false;  // `value` is the rules' (the MCTS solver's proof), not an estimate
};

// What an iteration found. `iterations` counts the completed iterations (0: none yet;
// `Limits::iterations` and `bench` count these): theta iterations of the probability-limited
// search, doublings of the playouts of PUCT (8, 16, 32, ...). GUIs read `depth` and `seldepth`
// as plies. In both searches `depth` is a fixed unit of effort for `go depth N` that never
// decreases within a search:
// - probability-limited: the nominal depth of the last complete iteration,
//   nominal_depth(theta): every line of probability 2^-depth or more has been searched, so a
//   line of moves the net rates at 1/2 each is searched `depth` plies deep (a quiet main line
//   less deep, forcing lines deeper), the analogue of an alpha-beta engine's nominal depth;
// - PUCT: the iterations done, so that each depth costs twice the one before (Lc0's depth
//   also grows about like log2 of the nodes).
// `seldepth` is the longest line looked at (the deepest node plus the move valued below it,
// or a longer printed variation); in a quiet position it can be below `depth`.
struct IterationReport {
  int iterations = 0;
  int depth = 0, seldepth = 0;
  uint64_t nodes = 0;
  uint64_t tbhits = 0;
  std::vector<RootLine> lines;  // best first, at least one
};

// Where a search is, for a GUI's progress lines between iterations (the searches' on_progress,
// called at every expanded node or playout: each costs a network pass, so the call is cheap
// beside it).
struct SearchProgress {
  Move currmove;           // the root move being searched
  int currmovenumber = 0;  // its place in this iteration's order, from 1
  uint64_t nodes = 0;
};

}  // namespace avocet::search
