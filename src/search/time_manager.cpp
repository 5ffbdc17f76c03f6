#include "avocet/search/time_manager.h"

#include <algorithm>

namespace avocet::search {

TimeBudget allocate_time(const TimeControl& tc, Color us, int move_overhead) {
  using std::chrono::milliseconds;
  if (tc.movetime) {
    const milliseconds t(std::max(1, *tc.movetime - move_overhead));
    return {t, t};
  }
  const std::optional<int> time = us == Color::White ? tc.wtime : tc.btime;
  if (!time) return {};
  const int increment = std::max(0, (us == Color::White ? tc.winc : tc.binc).value_or(0));
  const int available = std::max(1, *time - move_overhead);
  const int moves_to_go = std::clamp(tc.movestogo.value_or(30), 1, 50);
  const double optimum = double(available) / moves_to_go + 0.75 * increment;
  const double ceiling = moves_to_go == 1 ? 0.9 * available : 0.4 * available;
  const double hard = std::max(1.0, std::min(4.0 * optimum, ceiling));
  const double soft = std::min(0.6 * optimum, hard);
  return {milliseconds(std::max(1, int(soft))), milliseconds(int(hard))};
}

}  // namespace avocet::search
