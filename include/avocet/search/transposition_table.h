// Transposition table keyed by Zobrist key. Each entry caches a position's network output
// (its legal moves' win probabilities, the expensive part) and the latest search result
// (value, bound, the budget it was searched with, best move). Fixed size from the Hash
// option; buckets are guarded by striped locks so search threads can share it.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "avocet/chess/move.h"

namespace avocet::search {

enum class Bound : uint8_t { None, Exact, Lower, Upper };

struct SearchResult {
  float value = 0;   // for the side to move
  float budget = 0;  // P / theta the node was searched with: larger means deeper
  Bound bound = Bound::None;
  Move best;
};

class TranspositionTable {
 public:
  // Positions with more legal moves than this keep no cached network output.
  static constexpr int kMaxCachedMoves = 64;

  explicit TranspositionTable(size_t megabytes = 16) { resize(megabytes); }
  // Reallocates (and clears) the table. When the memory cannot be had it throws
  // std::runtime_error and leaves a minimal table, with megabytes() 0.
  void resize(size_t megabytes);
  size_t megabytes() const { return megabytes_; }
  void clear();

  // A win probability as the table keeps it (16 bits): what probe_values gives for a value
  // store_values was given.
  static float as_stored(float value) {
    return float(std::lround(std::clamp(value, 0.0f, 1.0f) * 65535.0f)) / 65535.0f;
  }

  // Cached win probabilities of `moves` (in that order) if present for `key`.
  bool probe_values(uint64_t key, std::span<const Move> moves, std::span<float> values) const;
  void store_values(uint64_t key, std::span<const Move> moves, std::span<const float> values);

  std::optional<SearchResult> probe_result(uint64_t key) const;
  void store_result(uint64_t key, const SearchResult& result);

  // Permille of entries in use (UCI `hashfull`).
  int hashfull() const;
  size_t capacity() const { return entries_.size(); }

 private:
  struct Entry {
    uint64_t key = 0;
    SearchResult result;
    uint8_t move_count = 0;  // 0: no cached network output
    std::array<uint16_t, kMaxCachedMoves> moves;
    std::array<uint16_t, kMaxCachedMoves> values;  // win probability x 65535
  };

  size_t megabytes_ = 0;

  size_t index(uint64_t key) const { return key % entries_.size(); }
  Entry& slot(uint64_t key) const { return entries_[index(key)]; }
  // By the slot, not the key: two keys that share a slot must share its lock (the table's size
  // is no multiple of the stripes, so keys equal modulo it can differ modulo 256).
  std::mutex& lock(uint64_t key) const { return locks_[index(key) % locks_.size()]; }

  mutable std::vector<Entry> entries_;
  mutable std::array<std::mutex, 256> locks_;
  std::atomic<size_t> used_{0};
};

}  // namespace avocet::search
