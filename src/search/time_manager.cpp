#include "avocet/search/time_manager.h"

#include <algorithm>

namespace avocet::search {

TimeBudget allocate_time(const TimeControl& tc, Color us, int move_overhead) {
  using std::chrono::milliseconds;
  // A fixed time per move is spent in full (no soft budget to shorten it), as Stockfish does.
  if (tc.movetime) return {std::nullopt, milliseconds(std::max(1, *tc.movetime - move_overhead))};
  const std::optional<int> time = us == Color::White ? tc.wtime : tc.btime;
  if (!time) return {};
  const double increment = std::max(0, (us == Color::White ? tc.winc : tc.binc).value_or(0));
  const double available = std::max(1, *time - std::max(0, move_overhead));
  double optimum, hard;
  if (tc.movestogo) {
    // See the header: one share per move still to play before the refill, plus two in
    // reserve; the share is also the hard limit, since the search may stop only at `hard`.
    const int moves_to_go = std::clamp(*tc.movestogo, 1, 50);
    const double share = available / (moves_to_go + 2);
    hard = std::min(share + 0.75 * increment, 2 * share);
    optimum = hard;
  } else {
    optimum = available / 20 + 0.75 * increment;
    hard = std::min(4.0 * optimum, 0.4 * available);
  }
  // Whole milliseconds, rounded down, so the budget never exceeds the bound; 1 ms at least.
  const int hard_ms = std::max(1, int(hard));
  // With movestogo the plan is 0.7 of the share, which is also the hard limit, so that the
  // plan's stretch (kPlanStretch) stays inside it; in sudden death the hard limit is far above.
  const int soft_ms = std::clamp(int(tc.movestogo ? 0.7 * optimum : optimum), 1, hard_ms);
  return {milliseconds(soft_ms), milliseconds(hard_ms)};
}

double soft_time_factor(bool best_move_changed, float value_drop, int iterations_unchanged,
                        float margin) {
  if (best_move_changed) return 1.8;
  if (value_drop >= 0.04f) return 1.4;
  if (iterations_unchanged >= 3 && margin >= 0.1f) return 0.6;
  return 1.0;
}

double predicted_iteration_seconds(double last, std::optional<double> previous) {
  const double growth = previous && *previous > 0 ? std::clamp(last / *previous, 1.5, 3.0) : 2.0;
  return last * growth;
}

bool start_next_iteration(double elapsed, double predicted, double planned,
                          std::optional<double> hard) {
  const double end = elapsed + predicted;
  if (hard && end > *hard) return false;
  return end <= kPlanStretch * planned;
}

}  // namespace avocet::search
