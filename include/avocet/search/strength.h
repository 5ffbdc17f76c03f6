// Playing below full strength (UCI_LimitStrength, UCI_Elo), the way a weaker player does: by
// calculating less, and at the bottom of the range by playing what looks good at first sight,
// sometimes what looks nearly as good, rather than by blundering at random. A level limits
// the network evaluations of each move's PUCT search; at one evaluation (the net's first look
// at every move, ChessBench's argmax) it may also draw its move with probability proportional
// to exp((value - best value) / temperature) over the net's win probabilities. The top of the
// range is full strength: the search the options choose, limited by the clock alone.
//
// A node limit is independent of the clock and the CPU, so a level means the same on any
// machine and at any time control that leaves it its nodes. The levels are calibrated on
// Stockfish 15.1's own UCI_Elo scale by tools/measure/rating.py
// (src/search/README.md#strength-levels).
#pragma once

#include <cstdint>
#include <random>
#include <span>

#include "avocet/search/report.h"

namespace avocet::search {

struct StrengthLevel {
  // The most network evaluations a move may use, 0 for no limit (full strength). A count
  // between two whole numbers is drawn as one or the other for each move (draw_nodes), so
  // that every level plays differently from its neighbours.
  double nodes = 1;
  double temperature = 0.0;  // at one node: of the softmax over the root moves' net values
  bool full_strength() const { return nodes == 0; }
};

// The UCI_Elo range: kMaxElo is full strength, measured at 10+0.1 (strength.cpp's anchors).
inline constexpr int kMinElo = 1000;
inline constexpr int kMaxElo = 1870;

// Stockfish's `Skill Level` S (0-20, 20 full strength) as an Elo of its UCI_Elo scale:
// Stockfish 15.1 maps UCI_Elo onto skill levels by L = ((Elo - 1346.6) / 143.4)^(1/0.806), so a
// level S plays as 1346.6 + 143.4 S^0.806 (0: 1347, 4: 1785, 5: 1871); a GUI or lichess-bot
// that sets Skill Level gets the UCI_Elo level of that Elo. 20 is kMaxElo.
int skill_level_elo(int skill);

// The level that plays at `elo` (clamped to [kMinElo, kMaxElo]): interpolated between the
// calibrated anchors, nodes geometrically and temperature linearly.
StrengthLevel strength_level(int elo);

// A move's node limit at a level of `nodes` (> 0): floor(nodes) or floor(nodes) + 1, the
// latter with probability nodes - floor(nodes), so that the mean is `nodes`.
uint64_t draw_nodes(double nodes, std::mt19937_64& random);

// Which of `lines` (best first, values exact) to play: index i with probability proportional
// to exp((lines[i].value - lines[0].value) / temperature); 0 at temperature 0.
size_t sample_line(std::span<const RootLine> lines, double temperature, std::mt19937_64& random);

}  // namespace avocet::search
