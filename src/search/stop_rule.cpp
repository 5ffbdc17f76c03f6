#include "avocet/search/stop_rule.h"

#include "avocet/search/value.h"

namespace avocet::search {

StopRule::StopRule(const Limits& limits, const SearchControl& control,
                   Clock::time_point search_start)
    : limits_(limits),
      control_(control),
      search_start_(search_start),
      start_(limits.start.value_or(search_start)) {}

bool StopRule::done(const SearchState& state) const {
  if (hard_stop() || state.solved) return true;
  if (limits_.iterations && state.iterations >= *limits_.iterations) return true;
  if (limits_.depth && (state.depth >= *limits_.depth || state.exhausted)) return true;
  // A mate the tables report is not one the search found: `go mate` asks for the moves.
  if (limits_.mate && state.best_value > 0.5f && is_mate_value(state.best_value) &&
      !is_tablebase_value(state.best_value) && mate_in_moves(state.best_value) <= *limits_.mate)
    return true;
  const auto budget = soft_budget(state.time_factor);
  return budget && elapsed() >= *budget;
}

std::optional<std::chrono::duration<double>> StopRule::soft_budget(double factor) const {
  if (!limits_.soft_deadline || control_.pondering) return std::nullopt;
  return std::chrono::duration<double>(*limits_.soft_deadline - start_) * factor;
}

std::chrono::duration<double> StopRule::elapsed() const { return Clock::now() - start_; }

std::chrono::duration<double> StopRule::searched() const { return Clock::now() - search_start_; }

}  // namespace avocet::search
