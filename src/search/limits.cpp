#include "avocet/search/limits.h"

namespace avocet::search {

bool SearchControl::should_stop() const {
  if (stop.load(std::memory_order_relaxed)) return true;
  if (nodes.load(std::memory_order_relaxed) >= node_limit) return true;
  const int64_t deadline = deadline_ns.load(std::memory_order_relaxed);
  if (deadline == 0 || pondering.load(std::memory_order_relaxed)) return false;
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() >= deadline;
}

}  // namespace avocet::search
