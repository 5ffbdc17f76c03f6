// Playing below full strength (UCI_LimitStrength, UCI_Elo), the way a weaker player does: by
// calculating less, and at the bottom of the range by playing what looks good at first sight,
// sometimes what looks nearly as good, rather than by blundering at random. A level limits
// the nodes searched per move and values every root move to the same iteration; at one node
// (the net's argmax) it may also draw its move with probability proportional to
// exp((value - best value) / temperature) over the net's win probabilities.
//
// Both limits are independent of the clock and the CPU, so a level means the same on any
// machine and at any time control that leaves it its nodes. The levels are calibrated on
// Stockfish 15.1's own UCI_Elo scale (src/search/README.md#strength-levels).
#pragma once

#include <cstdint>
#include <random>
#include <span>

#include "avocet/search/search.h"

namespace avocet::search {

struct StrengthLevel {
  uint64_t nodes = 1;        // the most nodes a move may search
  double temperature = 0.0;  // of the softmax over the root moves' values (win probability)
};

// The UCI_Elo range; the anchors in strength.cpp say what each level does.
inline constexpr int kMinElo = 1000;
inline constexpr int kMaxElo = 1600;

// The level that plays at `elo` (clamped to [kMinElo, kMaxElo]): interpolated between the
// calibrated anchors, nodes geometrically and temperature linearly.
StrengthLevel strength_level(int elo);

// Which of `lines` (best first, values exact) to play: index i with probability proportional
// to exp((lines[i].value - lines[0].value) / temperature); 0 at temperature 0.
size_t sample_line(std::span<const RootLine> lines, double temperature, std::mt19937_64& random);

}  // namespace avocet::search
