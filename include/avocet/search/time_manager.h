// Time management: how long to think from the UCI clock parameters.
#pragma once

#include <chrono>
#include <optional>

#include "avocet/chess/types.h"

namespace avocet::search {

struct TimeControl {
  std::optional<int> wtime, btime, winc, binc, movestogo, movetime;  // milliseconds
};

struct TimeBudget {
  // No new iteration starts after `soft`; the search stops at `hard`. Unset: no limit.
  std::optional<std::chrono::milliseconds> soft, hard;
};

// Spends about time / moves-to-go + 3/4 of the increment per move, at most 4 times that on
// a hard move and never more than 40% of what is left; `move_overhead` (ms) is kept back for
// the GUI and the network, so that the engine never loses on time.
TimeBudget allocate_time(const TimeControl& tc, Color us, int move_overhead);

}  // namespace avocet::search
