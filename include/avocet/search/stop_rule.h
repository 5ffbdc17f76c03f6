// One stop rule for every search: each limit of `go` (time, nodes, depth, mate, movetime,
// infinite, ponder) is judged here, so that the searches cannot disagree about what a limit
// means. Two kinds of limit:
// - hard ones (`stop`, the node limit, the hard deadline of movetime or the clock), which
//   SearchControl holds and every thread checks within an iteration: hard_stop();
// - soft ones (depth, bench's iterations, a mate found, the soft time budget), judged between
//   iterations from what the search reports of itself: done().
// Pondering suspends the time limits only; `go infinite` has no soft deadline at all
// (Engine::search leaves it unset), so it ends by `stop` alone.
#pragma once

#include <chrono>
#include <optional>

#include "avocet/search/limits.h"

namespace avocet::search {

// What a search has reached when it asks whether to go on.
struct SearchState {
  int iterations = 0;       // complete iterations (bench's unit)
  int depth = 0;            // the depth the search reports, which `go depth` counts
  float best_value = 0.5f;  // the best root line's value, for its side to move
  bool solved = false;      // nothing left to find: the root's value is proven (PUCT)
  bool exhausted = false;   // no room left to search deeper (PUCT's tree is full)
  // The share of the soft time budget this search wants now (soft_time_factor for the
  // probability-limited search; 1.8 for PUCT while its best-valued and most-visited moves
  // differ).
  double time_factor = 1.0;
};

class StopRule {
 public:
  using Clock = std::chrono::steady_clock;

  // `search_start` stands in for Limits::start where the caller gave none.
  StopRule(const Limits& limits, const SearchControl& control, Clock::time_point search_start);

  // A hard limit came: checked by every thread, within iterations as well as between them.
  bool hard_stop() const { return control_.should_stop(); }

  // Whether the search ends here: a hard limit, a solved root, the depth or iterations asked
  // for (or, under `go depth`, no room to go deeper), a mate in at most `go mate`'s moves
  // (found by the search, not read from the tables), or the soft time budget at the state's
  // factor spent.
  bool done(const SearchState& state) const;

  // The soft budget at `factor`, counted from when the clock began to run for this move:
  // none without a clock (`go infinite`, depth, nodes, mate) or while pondering.
  std::optional<std::chrono::duration<double>> soft_budget(double factor) const;
  // Time since the clock began to run for this move.
  std::chrono::duration<double> elapsed() const;
  // Time since this search began (later than the clock when the engine had work before it).
  std::chrono::duration<double> searched() const;

 private:
  const Limits& limits_;
  const SearchControl& control_;
  Clock::time_point search_start_;
  Clock::time_point start_;
};

}  // namespace avocet::search
