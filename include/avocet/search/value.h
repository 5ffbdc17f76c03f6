// Values: what a float means to the search, the tables and the UCI output.
//
// A value is the expected score of the side to move, in [0, 1]: the network's win probability
// W + D/2. The ends of the range are bands that carry exact results (shown for the winning end;
// the losing end mirrors it, v -> 1 - v):
//
//   1                     a mate at ply 0 (never reported: the side to move has been mated)
//   1 - p * kMateStep     mating at ply p (p < 200 is above every tablebase value)
//   0.998                 kTablebaseWin: a tablebase win at the root's tablebase position
//   0.998 - p * kMateStep a tablebase win reached p plies on (p <= kTablebasePlies)
//   1 - kMateBand = 0.996 the band's edge: below it, a value is the network's estimate
//
// Tablebase values sit inside the mate band so that the transposition table shifts them by
// ply like mates and keeps their distance, but below every mate the search can reach.
//
// Shown to a GUI, a value becomes centipawns (the inverse of Stockfish's win-rate curve), a
// mate distance in moves, or for tablebase results 20000 cp less one per ply.
#pragma once

#include <optional>

#include "avocet/syzygy/tablebase.h"

namespace avocet::search {

inline constexpr float kMateStep = 1e-5f;
inline constexpr float kMateBand = 0.004f;  // values this close to 0 or 1 are exact results
inline constexpr float kTablebaseWin = 0.998f;
inline constexpr int kTablebasePlies = 100;
inline constexpr float kDraw = 0.5f;

// Whether `value` is a value at all: the bands and the network's estimates all lie in [0, 1].
inline bool is_value(float value) { return value >= 0.0f && value <= 1.0f; }

// Mates, for the side to move: mating at ply p, and being mated at ply p.
float mating_value(int ply);
float mated_value(int ply);
// A mate or a tablebase result (inside the band at either end).
bool is_mate_value(float value);
// Moves to mate (positive: the side to move mates; negative: it is mated), for a mate value.
int mate_in_moves(float value);

// Exact values are kept in the transposition table relative to the node that stores them, so
// that a transposition at another ply keeps the right distance; estimates are kept as they are.
float value_to_table(float value, int ply);
float value_from_table(float value, int ply);

// Tablebase wins score kTablebaseWin minus kMateStep per ply (at most kTablebasePlies), losses
// the mirror.
float tablebase_win_value(int ply);
// A tablebase win or loss value (a mate-band value that is not a mate).
bool is_tablebase_value(float value);
// For a tablebase value: plies to the tablebase position (positive: won, negative: lost).
int tablebase_plies(float value);
// The value of a tablebase result `plies` plies on. Under the 50-move rule (`rule50`) cursed
// wins and blessed losses are draws; without it they are wins and losses.
float tablebase_value(syzygy::Wdl wdl, int plies, bool rule50);
// The expected score of a result, as a report of move values shows it: 1, 0.5 or 0 (cursed
// wins and blessed losses 0.5, as under the 50-move rule).
float result_score(syzygy::Wdl wdl);

// Centipawns for a win probability, inverting w = 1 / (1 + exp(-0.00368208 cp)).
int centipawns_from_win_probability(float w);

// A value as UCI's `score` shows it: `cp N` or `mate N`.
struct UciScore {
  bool mate = false;
  int amount = 0;  // centipawns, or moves to mate
};
// Tablebase results show as 20000 cp less one per ply to the tablebase position (losses the
// mirror), below every mate and above every estimate.
UciScore uci_score(float value);

// Win/draw/loss per mille for the side to move; win + draw + loss == 1000, each in [0, 1000].
struct WdlPerMille {
  int win = 0, draw = 0, loss = 0;
};
// The W/D/L of an exact value: a mate, a tablebase value, a root move's tablebase result
// `tablebase_wdl` (-2 .. 2; cursed wins and blessed losses are draws), or a value the search
// `proven` by the rules (a draw by insufficient material, stalemate or repetition: 0 1000 0).
// nullopt for an estimate, which wdl_model.h splits.
std::optional<WdlPerMille> exact_wdl(float value, std::optional<int> tablebase_wdl,
                                     bool proven = false);

}  // namespace avocet::search
