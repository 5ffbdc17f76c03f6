#include "avocet/search/time_manager.h"

#include <algorithm>

namespace avocet::search {

TimeBudget allocate_time(const TimeControl& tc, Color us, int move_overhead,
                         const TimeStyle& style) {
  using std::chrono::milliseconds;
  // A fixed time per move is spent in full (no soft budget to shorten it), as Stockfish does.
  if (tc.movetime) return {std::nullopt, milliseconds(std::max(1, *tc.movetime - move_overhead))};
  const std::optional<int> time = us == Color::White ? tc.wtime : tc.btime;
  if (!time) return {};
  const double increment = std::max(0, (us == Color::White ? tc.winc : tc.binc).value_or(0));
  const double available = std::max(1, *time - std::max(0, move_overhead));
  double soft, hard;
  if (tc.movestogo) {
    // See the header: one share per move still to play before the refill, plus the reserve;
    // the share is also the hard limit, since the search may stop only at `hard`.
    const int moves_to_go = std::clamp(*tc.movestogo, 1, 50);
    const double share = available / (moves_to_go + style.reserve_shares);
    hard =
        std::min(share + style.increment_share * increment, share * (1 + style.reserve_shares / 2));
    soft = hard;
  } else {
    const double optimum = available / style.horizon + style.increment_share * increment;
    hard = std::min(style.hard_factor * optimum, style.max_share * available);
    soft = style.soft_share * optimum;
  }
  // Whole milliseconds, rounded down, so the budget never exceeds the bound; 1 ms at least.
  const int hard_ms = std::max(1, int(hard));
  const int soft_ms = std::clamp(int(soft), 1, hard_ms);
  return {milliseconds(soft_ms), milliseconds(hard_ms)};
}

}  // namespace avocet::search
