// Exact mates for king and queen, or king and rook, against a lone king, without tables: the
// engine plays these endings perfectly whether or not SyzygyPath is set. The network rates
// every move of such a position close to a win, so PUCT alone wandered (king and queen against
// king showed +6.39 after 3 s, issue 71), and a search cannot prove a mate 20 or 30 plies deep
// in the time of a move.
//
// The distances to mate are computed once, on first use, by iterating over every placement of
// the three pieces (2 x 64^3 per ending): a weak-side position is mated in n plies when every
// move leads to a mate in n - 1 or less, a strong-side position mates in n when some move leads
// to a weak-side position mated in n - 1. The longest mates are the known ones: 10 moves with
// the queen, 16 with the rook (tests/search/lone_king_mates_test.cpp).
#pragma once

#include <optional>
#include <vector>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet::search {

// Plies to mate in `pos` for its side to move, if it is king and queen or king and rook
// against a lone king: positive when the side to move mates, negative when it is mated (0 for
// a position that is mate already, where the side to move is mated), nullopt for a draw (the
// piece is lost or stalemate follows) or any other material.
std::optional<int> lone_king_mate_plies(const Position& pos);

// The legal moves of such a position that keep the best result for the side to move: the
// shortest mates for the strong side, the longest defences for the lone king. Empty for any
// other material or when no mate is forced.
std::vector<Move> lone_king_best_moves(const Position& pos);

// The longest mate of the ending with `piece` (queen or rook), in plies, over every position
// with the strong side to move: 19 and 31 (mate in 10 and in 16 moves).
int longest_lone_king_mate(PieceType piece);

}  // namespace avocet::search
