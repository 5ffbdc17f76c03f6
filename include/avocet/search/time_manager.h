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
  // `soft` is the time the search plans to spend: no iteration starts that is predicted to
  // end after it (see start_next_iteration). The search stops at `hard`. Unset: no limit.
  std::optional<std::chrono::milliseconds> soft, hard;
};

// `move_overhead` (ms) is always kept back for the GUI and the network, so the time the
// engine may use is A = time - move_overhead.
//
// `movetime` t: the search runs for t - move_overhead (a hard limit and no soft one: the time
// asked for is used, whatever the iterations find).
//
// Sudden death (no movestogo): a plan of A / 20 + 3/4 of the increment per move, at most 4
// times that on a hard move and never more than 40% of A; the clock is never refilled, so each
// move takes a share of what is left. (A / 30, with iterations stopped at 0.6 of it, left
// games at 10+0.1 thinking 0.15-0.5 s a move while the opponent spent about 1 s; issue 25.)
//
// Repeating controls (movestogo m: the clock is refilled after m more moves): the engine
// never plans more than A / (m + 2) per move (plus 3/4 of the increment, at most doubling
// it), and that is also the hard limit. So after this move at least m * A / (m + 2) remains
// before the increment arrives: the m - 1 moves still to play before the refill keep their
// share, and two shares stay in reserve. A search that hits its hard limit on every move
// still reaches the time control with 2 / (m + 2) of A on the clock.
TimeBudget allocate_time(const TimeControl& tc, Color us, int move_overhead);

// How far the plan stretches or shrinks after an iteration: more when the iteration changed
// the best move (1.8) or lowered its value by 0.04 or more (1.4), less when the same move has
// been best for the last three iterations by a margin of 0.1 or more (0.6), else 1. The hard
// deadline still bounds every search.
double soft_time_factor(bool best_move_changed, float value_drop, int iterations_unchanged,
                        float margin);

// Each iteration lowers the probability threshold by ThresholdFactor and costs about twice
// the one before it, so the time an iteration will take is predicted from the last two:
// the last one's duration times their ratio, held to [1.5, 3] (2 when there is only one).
double predicted_iteration_seconds(double last, std::optional<double> previous);

// After an iteration that ended `elapsed` seconds into the move: start another only if it is
// predicted to end within kPlanStretch times the plan (`planned`, the soft budget times
// soft_time_factor) and before the hard limit. A search whose iterations double in cost then
// ends, on average, at about the plan (final times spread evenly in log between 0.7 and 1.4
// times it), and an iteration that the hard limit would cut short is not begun.
inline constexpr double kPlanStretch = 1.4;
bool start_next_iteration(double elapsed, double predicted, double planned,
                          std::optional<double> hard);

}  // namespace avocet::search
