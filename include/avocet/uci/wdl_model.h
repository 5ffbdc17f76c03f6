// Win/draw/loss from an expected score. The net predicts only s = W + D/2 for the side to
// move; how s splits into wins and draws depends on what is left on the board: a pawn up with
// queens and rooks usually wins, a pawn up in a bare king ending often draws. The split is
// Stockfish's form of model, fitted on the outcomes of Stockfish self-play games by
// tools/measure/fit_wdl.py: with x the score in pawns and m the material (pawn 1, knight and bishop
// 3, rook 5, queen 9, both sides; 78 at the start),
//
//   W = sigmoid((x - a(m)) / b(m)),   L = sigmoid((-x - a(m)) / b(m)),   D = 1 - W - L,
//
// where a(m) (the score at which a win is as likely as not) and b(m) (the spread) are
// polynomials in m. Example: an even king and pawn ending (m = 1) is 13 / 974 / 13 per mille
// where W = s^2, L = (1-s)^2 said 250 / 500 / 250; an even initial position is
// 275 / 450 / 275. The form is smooth in x: in light endings (m 10-19) it overstates the
// draws at 0.5-4 pawns (0.75 against 0.39 observed at 1-2 pawns) and understates them a
// little near 0.
#pragma once

#include "avocet/chess/position.h"
#include "avocet/search/value.h"

namespace avocet::uci {

// The model's material: pawns 1, knights and bishops 3, rooks 5, queens 9, both sides.
int wdl_material(const Position& pos);

// W/D/L for an expected score `value` in [0, 1] (the net's win probability, read through
// centipawns_from_win_probability) with `material` on the board. Symmetric: 1 - value swaps
// win and loss.
search::WdlPerMille wdl_from_value(float value, int material);

}  // namespace avocet::uci
