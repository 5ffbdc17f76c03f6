#include "avocet/search/value.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace avocet::search {

float mating_value(int ply) { return 1.0f - float(ply) * kMateStep; }

float mated_value(int ply) { return float(ply) * kMateStep; }

bool is_mate_value(float value) { return value <= kMateBand || value >= 1.0f - kMateBand; }

int mate_in_moves(float value) {
  assert(is_mate_value(value));
  const int plies = int(std::lround((value < 0.5f ? value : 1.0f - value) / kMateStep));
  return value > 0.5f ? (plies + 1) / 2 : -(plies / 2);
}

float value_to_table(float value, int ply) {
  assert(is_value(value) && ply >= 0);
  if (!is_mate_value(value)) return value;
  return value > 0.5f ? value + float(ply) * kMateStep : value - float(ply) * kMateStep;
}

float value_from_table(float value, int ply) {
  if (!is_mate_value(value)) return value;
  return value > 0.5f ? value - float(ply) * kMateStep : value + float(ply) * kMateStep;
}

float tablebase_win_value(int ply) {
  return kTablebaseWin - float(std::clamp(ply, 0, kTablebasePlies)) * kMateStep;
}

bool is_tablebase_value(float value) {
  const float v = std::max(value, 1.0f - value);
  return v >= 1.0f - kMateBand && v <= kTablebaseWin + 0.5f * kMateStep;
}

int tablebase_plies(float value) {
  assert(is_tablebase_value(value));
  const int plies = int(std::lround((kTablebaseWin - std::max(value, 1.0f - value)) / kMateStep));
  return value > 0.5f ? plies : -plies;
}

float tablebase_value(syzygy::Wdl wdl, int plies, bool rule50) {
  switch (wdl) {
    case syzygy::Wdl::Win:
      return tablebase_win_value(plies);
    case syzygy::Wdl::Loss:
      return 1.0f - tablebase_win_value(plies);
    case syzygy::Wdl::CursedWin:
      return rule50 ? kDraw : tablebase_win_value(plies);
    case syzygy::Wdl::BlessedLoss:
      return rule50 ? kDraw : 1.0f - tablebase_win_value(plies);
    case syzygy::Wdl::Draw:
      break;
  }
  return kDraw;
}

float result_score(syzygy::Wdl wdl) {
  if (wdl == syzygy::Wdl::Win) return 1.0f;
  if (wdl == syzygy::Wdl::Loss) return 0.0f;
  return kDraw;
}

int centipawns_from_win_probability(float w) {
  const double p = std::clamp(double(w), 1e-6, 1 - 1e-6);
  return int(std::lround(std::log(p / (1 - p)) / 0.00368208));
}

UciScore uci_score(float value) {
  assert(is_value(value));
  if (is_tablebase_value(value)) {
    const int plies = tablebase_plies(value);
    return {false, plies > 0 ? 20000 - plies : -20000 - plies};
  }
  if (is_mate_value(value)) return {true, mate_in_moves(value)};
  return {false, centipawns_from_win_probability(value)};
}

std::optional<WdlPerMille> exact_wdl(float value, std::optional<int> tablebase_wdl, bool proven) {
  int result = 0;  // 1 won, -1 lost, 0 drawn
  if (tablebase_wdl) {
    assert(*tablebase_wdl >= -2 && *tablebase_wdl <= 2);
    result = *tablebase_wdl == 2 ? 1 : *tablebase_wdl == -2 ? -1 : 0;
  } else if (is_mate_value(value)) {
    result = value > 0.5f ? 1 : -1;
  } else if (proven) {
    result = value > 0.5f ? 1 : value < 0.5f ? -1 : 0;
  } else {
    return std::nullopt;
  }
  WdlPerMille wdl;
  wdl.win = result == 1 ? 1000 : 0;
  wdl.loss = result == -1 ? 1000 : 0;
  wdl.draw = 1000 - wdl.win - wdl.loss;
  return wdl;
}

}  // namespace avocet::search
