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

// The move as the networks see it: castling as the king's move (e1g1), as ChessBench writes
// it, when the king moves two files or more. A Chess960 castling whose king moves one file or
// none is seen as the king taking its rook: as a king step it would share its squares with a
// plain king move (b1c1), or have none (g1g1). Other moves are unchanged.
constexpr Move network_move(Move m) {
  if (m.kind() != MoveKind::Castling) return m;
  const int files_moved = index(file_of(castling_king_to(m))) - index(file_of(m.from()));
  if (files_moved >= -1 && files_moved <= 1) return m;
  return Move(m.from(), castling_king_to(m), MoveKind::Castling);
}

// The action index of a move (network_move's from, to and promotion), or -1 if the table
// lacks it.
int action_index(Move m);
// UCI text of an action, e.g. "e2e4" or "a7a8q".
std::string action_uci(int action);
// The action with the from and to squares rank-flipped (for mirrored positions).
Move mirror_move(Move m);

}  // namespace avocet::nn
