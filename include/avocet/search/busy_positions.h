// The positions that the threads of one search are expanding right now, so that a thread
// reaching a child another thread is inside can search its other moves first and come back
// to it later, when the table holds its result (the "exclusive" part of ABDADA, Weill 1996).
// Lazy SMP alone lets two threads walk the same best-first path and evaluate the same
// positions; with this they split a node's moves between them. A mark is a hint, not a lock:
// a slot already taken by another position leaves the new one unmarked.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace avocet::search {

class BusyPositions {
 public:
  // Marks a position busy for its lifetime (when it won its slot).
  class Mark {
   public:
    Mark() = default;
    explicit Mark(std::atomic<uint64_t>* slot) : slot_(slot) {}
    Mark(Mark&& other) noexcept : slot_(other.slot_) { other.slot_ = nullptr; }
    Mark& operator=(Mark&&) = delete;
    Mark(const Mark&) = delete;
    Mark& operator=(const Mark&) = delete;
    ~Mark() {
      if (slot_) slot_->store(0, std::memory_order_release);
    }
    bool held() const { return slot_ != nullptr; }

   private:
    std::atomic<uint64_t>* slot_ = nullptr;
  };

  // Key 0 is never marked (it stands for a free slot).
  Mark mark(uint64_t key) {
    std::atomic<uint64_t>& slot = slots_[key % kSlots];
    uint64_t expected = 0;
    if (key == 0 || !slot.compare_exchange_strong(expected, key, std::memory_order_acq_rel))
      return Mark();
    return Mark(&slot);
  }

  bool busy(uint64_t key) const {
    return key != 0 && slots_[key % kSlots].load(std::memory_order_acquire) == key;
  }

 private:
  // A search path is at most a few dozen positions per thread.
  static constexpr size_t kSlots = 4096;
  std::array<std::atomic<uint64_t>, kSlots> slots_{};
};

}  // namespace avocet::search
