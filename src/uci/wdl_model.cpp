#include "avocet/uci/wdl_model.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace avocet::uci {

namespace {

// Fitted on 2026-11-23 by `python3 -m tools.measure.fit_wdl fit games.tsv` on 1,500 Stockfish
// 15.1 self-play games (`python3 -m tools.measure.fit_wdl play --games 1500 --nodes 4000`,
// noob_3moves openings): 221,035 positions with a cp score, 147 games held out. Held-out log-loss
// 0.577 nats per position against 0.752 for W = s^2, L = (1-s)^2 and 1.008 for constant W/D/L.
// Cubics in t = clamp(m, 4, 78) / 58, constant term first, in pawns: a from 4.25 (m <= 4)
// down to 0.99 (m = 40), b from 0.51 to 1.13.
constexpr std::array<double, 4> kA = {5.247388, -15.754315, 18.592418, -6.821906};
constexpr std::array<double, 4> kB = {1.174853, -2.954968, 3.906798, -1.289949};
constexpr int kMaterialMin = 4, kMaterialMax = 78;
constexpr double kMaterialNorm = 58;
constexpr double kMaxPawns = 20;  // scores are clamped here, as in the fit

double polynomial(const std::array<double, 4>& c, double t) {
  double value = 0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) value = value * t + *it;
  return value;
}

double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

}  // namespace

int wdl_material(const Position& pos) {
  constexpr int kValues[] = {1, 3, 3, 5, 9};
  int total = 0;
  for (int pt = 0; pt < 5; ++pt) total += kValues[pt] * pos.pieces(PieceType(pt)).count();
  return total;
}

search::WdlPerMille wdl_from_value(float value, int material) {
  const double x =
      std::clamp(search::centipawns_from_win_probability(value) / 100.0, -kMaxPawns, kMaxPawns);
  const double t = std::clamp(material, kMaterialMin, kMaterialMax) / kMaterialNorm;
  const double a = polynomial(kA, t), b = polynomial(kB, t);
  const double win = sigmoid((x - a) / b), loss = sigmoid((-x - a) / b);
  // a > 0 keeps W + L below 1, but rounding can reach 1001 at a decided score: the smaller
  // side is rounded and the larger gets at most the rest, so that swapping the sides swaps
  // the numbers exactly.
  const int smaller = int(std::lround(1000 * std::min(win, loss)));
  const int larger = std::min(int(std::lround(1000 * std::max(win, loss))), 1000 - smaller);
  search::WdlPerMille wdl;
  wdl.win = win > loss ? larger : smaller;
  wdl.loss = win > loss ? smaller : larger;
  wdl.draw = 1000 - wdl.win - wdl.loss;
  return wdl;
}

}  // namespace avocet::uci
