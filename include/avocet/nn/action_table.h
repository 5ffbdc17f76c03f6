// ChessBench's action table: the 1968 moves any position can have, in ChessBench's order.
//
// For each from-square a1..h8: the squares a queen on an empty board attacks, ascending,
// then the squares a knight attacks, ascending (1792 moves, castling included as the
// king's two-square move); then promotions, rank 2->1 first and then 7->8, per file a..h the
// push, the left capture and the right capture, each with q, r, b, n (176 moves).
#pragma once

#include <string>

#include "avocet/chess/move.h"

namespace avocet::nn {

inline constexpr int kActionCount = 1968;

// The action index of a move (its from, to and promotion), or -1 if the table lacks it.
int action_index(Move m);
// UCI text of an action, e.g. "e2e4" or "a7a8q".
std::string action_uci(int action);
// The action with the from and to squares rank-flipped (for mirrored positions).
Move mirror_move(Move m);

}  // namespace avocet::nn
