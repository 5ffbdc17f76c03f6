#include "avocet/search/transposition_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <stdexcept>

namespace avocet::search {

void TranspositionTable::resize(size_t megabytes) {
  const size_t count = std::max<size_t>(1024, megabytes * 1024 * 1024 / sizeof(Entry));
  try {
    // Release the old table first so that growing does not need both at once.
    entries_ = {};
    entries_.assign(count, Entry{});
  } catch (const std::bad_alloc&) {
    entries_.assign(1024, Entry{});
    megabytes_ = 0;
    used_ = 0;
    throw std::runtime_error(fmt::format("cannot allocate {} MB for the hash table", megabytes));
  }
  megabytes_ = megabytes;
  used_ = 0;
}

void TranspositionTable::clear() {
  std::fill(entries_.begin(), entries_.end(), Entry{});
  used_ = 0;
}

bool TranspositionTable::probe_values(uint64_t key, std::span<const Move> moves,
                                      std::span<float> values) const {
  std::lock_guard guard(lock(key));
  const Entry& e = slot(key);
  if (e.key != key || e.move_count == 0 || e.move_count != moves.size()) return false;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (e.moves[i] != moves[i].bits()) return false;  // a key collision
    values[i] = float(e.values[i]) / 65535.0f;
  }
  return true;
}

void TranspositionTable::store_values(uint64_t key, std::span<const Move> moves,
                                      std::span<const float> values) {
  if (moves.empty() || moves.size() > kMaxCachedMoves) return;
  std::lock_guard guard(lock(key));
  Entry& e = slot(key);
  if (e.key == 0) ++used_;
  if (e.key != key) e.result = SearchResult{};
  e.key = key;
  e.move_count = uint8_t(moves.size());
  for (size_t i = 0; i < moves.size(); ++i) {
    e.moves[i] = moves[i].bits();
    e.values[i] = uint16_t(std::lround(std::clamp(values[i], 0.0f, 1.0f) * 65535.0f));
  }
}

std::optional<SearchResult> TranspositionTable::probe_result(uint64_t key) const {
  std::lock_guard guard(lock(key));
  const Entry& e = slot(key);
  if (e.key != key || e.result.bound == Bound::None) return std::nullopt;
  return e.result;
}

void TranspositionTable::store_result(uint64_t key, const SearchResult& result) {
  std::lock_guard guard(lock(key));
  Entry& e = slot(key);
  if (e.key == 0) ++used_;
  if (e.key != key) {
    e.key = key;
    e.move_count = 0;
  } else if (e.result.bound != Bound::None && e.result.budget > result.budget * 4) {
    return;  // keep a much deeper result
  }
  e.result = result;
}

int TranspositionTable::hashfull() const {
  return int(std::min<size_t>(1000, used_ * 1000 / entries_.size()));
}

}  // namespace avocet::search
