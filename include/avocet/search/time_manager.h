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

// How a search spends its clock. The two searches stop differently, so each has its own:
//
// - The probability-limited search (kIterativeTime) starts no iteration after `soft` and each
//   iteration costs about twice the one before, so its soft budget is a fraction of the
//   optimum (an iteration begun near it ends well past it) and its hard limit far above it.
// - PUCT (kPuctTime) can stop after any playout: it spends its soft budget unless the best move
//   is decided (the runner-up cannot catch up), and stretches it when the most-visited and the
//   best-valued moves disagree (puct.h). So its soft budget is the optimum itself, and the
//   optimum a larger share of the clock: with kIterativeTime it left 45% of the clock unused
//   at 60+0.6 (2026-12-01).
struct TimeStyle {
  double horizon;          // sudden death: the optimum is A / horizon + increment_share * inc
  double increment_share;  //
  double soft_share;       // sudden death: the soft budget is soft_share * the optimum
  double hard_factor;      // sudden death: the hard limit is at most hard_factor * the optimum
  double max_share;        // sudden death: ... and at most max_share * A
  double reserve_shares;   // movestogo m: a share is A / (m + reserve_shares)
};
inline constexpr TimeStyle kIterativeTime{30, 0.75, 0.6, 4.0, 0.4, 2.0};
inline constexpr TimeStyle kPuctTime{20, 1.0, 1.0, 2.5, 0.25, 0.5};

// `move_overhead` (ms) is always kept back for the GUI and the network, so the time the
// engine may use is A = time - move_overhead.
//
// `movetime` t: the search runs for t - move_overhead (a hard limit and no soft one: the time
// asked for is used, whatever the iterations find).
//
// Sudden death (no movestogo): an optimum of A / horizon + a share of the increment per move,
// a soft budget of soft_share of it, and a hard limit of at most hard_factor times it and never
// more than max_share of A; the clock is never refilled, so each move takes a share of what is
// left.
//
// Repeating controls (movestogo m: the clock is refilled after m more moves): a share is
// A / (m + r), r = reserve_shares, and the engine never plans more than one share per move
// plus the increment's share (at most r / 2 shares more), which is also the hard limit. So
// after this move at least m - 1 + r / 2 shares remain before the increment arrives, and
// m - 1 + r after it: the m - 1 moves still to play before the refill keep their share, and
// the reserve stays. With kIterativeTime (r = 2) a search that hits its hard limit on every
// move reaches the control with 2 / (m + 2) of A; with kPuctTime (r = 1/2) the last move before
// the refill may take two thirds of the clock, since the clock is refilled after it.
TimeBudget allocate_time(const TimeControl& tc, Color us, int move_overhead,
                         const TimeStyle& style = kIterativeTime);

}  // namespace avocet::search
