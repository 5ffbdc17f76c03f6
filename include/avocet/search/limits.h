// When a search stops: the control its threads share (stop, ponder, nodes, the deadline) and
// the limits of `go` that each search judges between its iterations.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "avocet/chess/move.h"
#include "avocet/search/busy_positions.h"

namespace avocet::search {

// Shared between the threads of one search.
struct SearchControl {
  std::atomic<bool> stop{false};
  std::atomic<bool> pondering{false};  // while set, the time limit does not apply
  std::atomic<uint64_t> nodes{0};
  std::atomic<uint64_t> tbhits{0};  // tablebase probes that answered
  uint64_t node_limit = UINT64_MAX;
  // Steady-clock nanoseconds at which the search stops; 0 for none. Atomic because
  // ponderhit arms it while the search runs.
  std::atomic<int64_t> deadline_ns{0};
  // With several threads: a child that another thread is expanding is searched after its
  // siblings (see BusyPositions). One thread never defers, so its search is the same either way.
  bool split_work = false;
  BusyPositions busy;

  void set_deadline(std::chrono::steady_clock::time_point t) {
    deadline_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  }
  bool should_stop() const;
};

struct Limits {
  std::optional<int> depth;       // plies, as IterationReport::depth counts them (`go depth`)
  std::optional<int> iterations;  // theta iterations (`bench`)
  std::optional<int> mate;        // stop once a mate in <= N moves is found
  std::vector<Move> searchmoves;  // restrict the root to these
  // No new iteration after the soft deadline, itself stretched or shortened after each
  // iteration by soft_time_factor: the budget is soft_deadline - start (start: when the clock
  // began to run for this move; the search's own start if unset).
  std::optional<std::chrono::steady_clock::time_point> soft_deadline;
  std::optional<std::chrono::steady_clock::time_point> start;
};

}  // namespace avocet::search
