#include "avocet/search/rules.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>

#include "avocet/chess/game.h"
#include "avocet/search/lone_king_mates.h"
#include "avocet/search/value.h"
#include "avocet/syzygy/tablebase.h"

namespace avocet::search {

std::optional<float> rule_value(const Position& pos, int ply, const MoveList& moves,
                                std::span<const uint64_t> earlier, size_t first_after_root) {
  if (moves.empty()) return pos.in_check() ? mated_value(ply) : kDraw;
  if (pos.halfmove_clock() >= 100 || is_insufficient_material(pos) ||
      is_repetition_draw(earlier, first_after_root, pos.key(), pos.halfmove_clock()))
    return kDraw;
  return std::nullopt;
}

std::optional<float> tablebase_value_after_zeroing(const Position& pos, int ply,
                                                   const TablebaseSettings& tablebases,
                                                   std::atomic<uint64_t>& tbhits) {
  const syzygy::Tablebases* tables = tablebases.tables;
  if (!tables || pos.halfmove_clock() != 0 || !tables->covers(pos, tablebases.probe_limit))
    return std::nullopt;
  const auto wdl = tables->probe_wdl(pos);
  if (!wdl) return std::nullopt;
  tbhits.fetch_add(1, std::memory_order_relaxed);
  return tablebase_value(*wdl, ply, tablebases.rule50);
}

std::optional<float> ending_value(const Position& pos, int ply, const TablebaseSettings& tablebases,
                                  std::atomic<uint64_t>& tbhits) {
  if (const std::optional<int> plies = lone_king_mate_plies(pos);
      plies && pos.halfmove_clock() + std::abs(*plies) <= 100)
    return *plies > 0 ? mating_value(ply + *plies) : mated_value(ply - *plies);
  return tablebase_value_after_zeroing(pos, ply, tablebases, tbhits);
}

void network_values(nn::Evaluator& evaluator, TranspositionTable& table, const Position& pos,
                    const MoveList& moves, std::span<float> values) {
  const std::span<const Move> list(moves.begin(), moves.size());
  if (table.probe_values(pos.key(), list, values)) return;
  evaluator.evaluate(pos, list, values);
  assert(std::all_of(values.begin(), values.end(), is_value) && "network: Q outside [0, 1]");
  table.store_values(pos.key(), list, values);
}

void move_probabilities(std::span<const float> values, double temperature, std::span<float> out) {
  const float best = *std::max_element(values.begin(), values.end());
  float sum = 0;
  for (size_t i = 0; i < values.size(); ++i)
    sum += out[i] = std::exp(float((values[i] - best) / temperature));
  assert(sum >= 1.0f && "move_probabilities: the best move's term alone is 1");
  for (float& p : out) p /= sum;
}

float damped_value(const Position& pos, Move m, float value) {
  const bool resets = type_of(pos.piece_on(m.from())) == PieceType::Pawn || pos.is_capture(m);
  return damp_by_rule50(value, resets ? 0 : pos.halfmove_clock() + 1);
}

bool is_repetition_draw(std::span<const uint64_t> earlier, size_t first_after_root, uint64_t key,
                        int halfmove_clock) {
  const long n = long(earlier.size());
  int occurrences = 1;
  for (long i = n - 2; i >= 0 && i >= n - halfmove_clock; i -= 2) {
    if (earlier[size_t(i)] != key) continue;
    if (size_t(i) >= first_after_root || ++occurrences >= 3) return true;
  }
  return false;
}

float damp_by_rule50(float value, int halfmove_clock_after) {
  return 0.5f + (value - 0.5f) * float(200 - std::clamp(halfmove_clock_after, 0, 100)) / 200.0f;
}

}  // namespace avocet::search
