#include "avocet/search/strength.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <vector>

namespace avocet::search {

namespace {

struct StrengthAnchor {
  int elo;
  double nodes;  // PUCT's network evaluations a move; at the full-strength anchor, what a
                 // middlegame move gets at 10+0.1, for the levels just below it
  double temperature;
};

// Levels measured against Stockfish 15.1's UCI_Elo at 10+0.1 (src/search/README.md#strength-levels
// gives the games). Between anchors the node count is interpolated geometrically, the
// temperature linearly. The temperature is used only at one node, where every value is the
// net's own: after a search the root moves' values come from different depths (a searched
// move's from its replies, an unsearched one's from the net's optimistic first look), and a
// draw among them would favour the moves the search did not look at. The temperatures are
// small because the net's values of most legal moves lie within 0.1 of each other (a quiet
// opening position: 20 of 22 moves), so at 0.04 the draw was close to uniform among them and
// the level lost 60 games of 60 to Stockfish's 1350.
constexpr StrengthAnchor kStrengthAnchors[] = {
    {1000, 1, 0.018},     // the net's first look, drawn at temperature 0.018
    {1240, 1, 0.006},     // and at 0.006
    {1340, 1, 0.0},       // the net's argmax
    {1570, 8, 0.0},       // PUCT, 8 network evaluations a move
    {kMaxElo, 128, 0.0},  // full strength
};
static_assert(kStrengthAnchors[0].elo == kMinElo);
static_assert(std::size(kStrengthAnchors) >= 2 &&
              kStrengthAnchors[std::size(kStrengthAnchors) - 1].elo == kMaxElo);

}  // namespace

StrengthLevel strength_level(int elo) {
  elo = std::clamp(elo, kMinElo, kMaxElo);
  if (elo == kMaxElo) return {0.0, 0.0};
  const auto* upper = std::find_if(std::begin(kStrengthAnchors), std::end(kStrengthAnchors),
                                   [elo](const StrengthAnchor& a) { return a.elo >= elo; });
  if (upper == std::begin(kStrengthAnchors)) ++upper;
  const StrengthAnchor& lo = upper[-1];
  const StrengthAnchor& hi = *upper;
  const double t = double(elo - lo.elo) / double(hi.elo - lo.elo);
  return {lo.nodes * std::pow(hi.nodes / lo.nodes, t),
          lo.temperature + t * (hi.temperature - lo.temperature)};
}

uint64_t draw_nodes(double nodes, std::mt19937_64& random) {
  assert(nodes > 0 && "draw_nodes: a limited level");
  const double whole = std::floor(nodes);
  const bool up = std::uniform_real_distribution<double>(0.0, 1.0)(random) < nodes - whole;
  return std::max<uint64_t>(1, uint64_t(whole) + (up ? 1 : 0));
}

size_t sample_line(std::span<const RootLine> lines, double temperature, std::mt19937_64& random) {
  assert(!lines.empty() && "sample_line: at least one line");
  if (temperature <= 0.0 || lines.size() == 1) return 0;
  std::vector<double> weights;
  weights.reserve(lines.size());
  for (const RootLine& line : lines)
    weights.push_back(std::exp(double(line.value - lines.front().value) / temperature));
  return std::discrete_distribution<size_t>(weights.begin(), weights.end())(random);
}

int skill_level_elo(int skill) {
  if (skill >= 20) return kMaxElo;
  return int(std::lround(1346.6 + 143.4 * std::pow(std::max(0, skill), 0.806)));
}

}  // namespace avocet::search
