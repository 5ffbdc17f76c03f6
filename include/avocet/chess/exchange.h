// What the bitboards know about exchanges and threats: attackers of a square by side, the
// least valuable attacker, pieces pinned to their king, whether a move gives check
// (discovered checks included) and static exchange evaluation (SEE).
//
// One implementation serves datagen (the features written into shards) and inference (the
// same features computed for the network at play time), so the two cannot disagree.
#pragma once

#include "avocet/chess/bitboard.h"
#include "avocet/chess/move.h"
#include "avocet/chess/position.h"
#include "avocet/chess/types.h"

namespace avocet {

// Exchange values in centipawns. The king's value only matters as "cannot be traded":
// SEE never lets a king capture onto a square the other side still attacks.
inline constexpr int kSeeValue[kPieceTypeCount + 1] = {100, 300, 300, 500, 900, 0, 0};

inline int see_value(PieceType pt) { return kSeeValue[index(pt)]; }

// Pieces of `by` attacking `s` with the current occupancy.
inline Bitboard attackers_by(const Position& pos, Square s, Color by) {
  return pos.attackers_to(s, pos.occupied()) & pos.pieces(by);
}

// The type of the least valuable piece in `attackers` (pawn < knight < bishop < rook < queen
// < king); PieceType::None when empty.
PieceType least_valuable_type(const Position& pos, Bitboard attackers);

// Pieces of colour `c` that are the only piece between c's king and an enemy slider on the
// same line: moving them off the line would expose the king.
Bitboard pinned_pieces(const Position& pos, Color c);

// Does the legal move `m` give check: directly, by discovery (including through the
// captured pawn of an en passant capture or the rook of a castling move), or by promotion?
bool gives_check(const Position& pos, Move m);

// Static exchange evaluation of the legal move `m` in centipawns: the material the side to
// move gains if both sides then keep recapturing on m.to() with their least valuable
// attacker, each side free to stop when going on would lose. Handles x-rays (sliders behind
// the capturers join in), en passant, promotions (by the move and by recapturing pawns),
// pinned attackers (they recapture only along their pin line while the pinner stands) and
// kings (which never capture onto an attacked square). Quiet moves score what the piece
// risks: 0 when the square is safe, minus its value when it simply hangs. Castling is 0.
int see(const Position& pos, Move m);

// What the owner's opponent wins by SEE with its best capture of the piece on `s` (0 when
// the square is empty, holds a king, or no capture wins material), whoever is to move.
int capture_gain(const Position& pos, Square s);

}  // namespace avocet
