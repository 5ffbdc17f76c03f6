// Tactical features of a position and of each legal move, as small integers that the house
// network embeds (src/DESIGN.md, "Feature groups"). Everything is seen from the side to move
// ("us") against the other side ("them"), so the features need no change when the network
// mirrors a Black-to-move position: only the squares move.
//
// The shard writer and the evaluator both call these functions: training and play cannot
// disagree. The group tables below are the single definition of names, order and sizes;
// tools/train/shards.py reads them from each shard's header.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet {

struct FeatureGroup {
  std::string_view name;
  int values;  // the feature takes values 0 .. values-1
};

// Per square, in this order:
//   attackers               us (0,1,2,3+) x 4 + them (0,1,2,3+)
//   least_valuable_attacker us x 6 + them, each none, P, N/B, R, Q, K
//   pinned                  0 none, 1 our piece pinned to our king, 2 theirs to theirs
//   en_prise                0 none, 1 our piece that they can win by SEE, 2 theirs we can win
inline constexpr std::array<FeatureGroup, 4> kSquareFeatureGroups = {
    {{"attackers", 16}, {"least_valuable_attacker", 36}, {"pinned", 3}, {"en_prise", 3}}};

// Per legal move, in this order:
//   pieces       moved type x 6 + captured (none, P, N, B, R, Q); promotions are the head's own
//   see          the move's SEE in pawns, clamped to [-9, 9], plus 9
//   check        gives check
//   threat       their best SEE gain over all their captures after the move, pawns, 0..9
//   mate         gives mate
//   allows_mate  they have a mate in one after the move
//   qsearch      the material the move wins once both sides have made every capture worth
//                making (chess/capture_sequence.h), pawns, clamped to [-9, 9], plus 9
//   targets      their pieces we could then win by SEE were it our move again: 0, 1, 2, 3+
//                (a fork is two; the en_prise square features say which were already hanging)
inline constexpr std::array<FeatureGroup, 8> kMoveFeatureGroups = {{{"pieces", 36},
                                                                    {"see", 19},
                                                                    {"check", 2},
                                                                    {"threat", 10},
                                                                    {"mate", 2},
                                                                    {"allows_mate", 2},
                                                                    {"qsearch", 19},
                                                                    {"targets", 4}}};

inline constexpr int kSquareFeatureCount = int(kSquareFeatureGroups.size());
inline constexpr int kMoveFeatureCount = int(kMoveFeatureGroups.size());

using SquareFeatures = std::array<uint8_t, kSquareFeatureCount>;
using MoveFeatures = std::array<uint8_t, kMoveFeatureCount>;

// Features of every square, indexed by Square (a1 = 0 ... h8 = 63).
std::array<SquareFeatures, 64> square_features(const Position& pos);

// A set of move feature groups: bit g stands for kMoveFeatureGroups[g]. A network computes only
// the groups it uses (the later ones cost a search per move); shards carry them all.
using MoveGroupSet = uint32_t;
inline constexpr MoveGroupSet kAllMoveGroups = (1u << kMoveFeatureCount) - 1;

// Features of one legal move. Every group in `groups` is exactly what the full set gives;
// groups outside it may be left 0 (the cheap ones, and those sharing work, are filled anyway).
MoveFeatures move_features(const Position& pos, Move m, MoveGroupSet groups = kAllMoveGroups);

// Features of each of `moves` (legal in `pos`) into `out` (same length).
void move_features(const Position& pos, std::span<const Move> moves, std::span<MoveFeatures> out,
                   MoveGroupSet groups = kAllMoveGroups);

}  // namespace avocet
