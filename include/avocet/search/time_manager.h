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

// `move_overhead` (ms) is always kept back for the GUI and the network, so the time the
// engine may use is A = time - move_overhead.
//
// `movetime` t: the search runs for t - move_overhead (a hard limit and no soft one: the time
// asked for is used, whatever the iterations find).
//
// Sudden death (no movestogo): about A / 30 + 3/4 of the increment per move, at most 4 times
// that on a hard move and never more than 40% of A; the clock is never refilled, so each move
// takes a share of what is left.
//
// Repeating controls (movestogo m: the clock is refilled after m more moves): the engine
// never plans more than A / (m + 2) per move (plus 3/4 of the increment, at most doubling
// it), and that is also the hard limit. So after this move at least m * A / (m + 2) remains
// before the increment arrives: the m - 1 moves still to play before the refill keep their
// share, and two shares stay in reserve. A search that hits its hard limit on every move
// still reaches the time control with 2 / (m + 2) of A on the clock.
TimeBudget allocate_time(const TimeControl& tc, Color us, int move_overhead);

}  // namespace avocet::search
