// The material a move wins once the captures run out: the `qsearch` move feature of the house
// nets (chess/tactical_features.h; the name stays, as shards and net files carry it). It is
// found by a small capture-only search on exchange values, the classical engine's quiescence
// search, but it is an input the net reads, not a part of Avocet's search, whose leaves the net
// evaluates.
//
// SEE (exchange.h) judges one square; the net's `threat` feature, the opponent's best single
// capture after the move. Neither sees a capture that opens a second one, a recapture that
// leaves another piece hanging, or an escape by counter-capture. The capture search plays
// those sequences out: after the move, each side in turn either stops ("stands pat") or makes a
// capture or promotion that SEE does not lose, and keeps the better. Checks are not searched
// (the `check`, `mate` and `allows_mate` features say what they do), so a side in check may
// still stand pat: the value is material, not a proof.
#pragma once

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet {

// How deep the capture sequences go, in plies after the move, and how many positions one call
// may visit. Both bound the cost of the feature at play time (one call per legal move); the
// sequences of real positions rarely need either.
inline constexpr int kCaptureSequencePlies = 6;
inline constexpr int kCaptureSequenceNodes = 128;

// The material, in centipawns of exchange value (kSeeValue), that the side to move gains by
// the legal move `m` once both sides have made every capture worth making: what `m` itself
// captures or promotes to, less the best the opponent then wins by captures, and so on. A
// quiet move that hangs a piece scores minus that piece; a capture that is recaptured, the
// difference (a piece that already hung before the move counts the same way). Deterministic:
// moves are tried in a fixed order within fixed bounds. At the bounds a side stands pat, so the
// last capture searched counts in full even where a recapture would follow; taking SEE there
// instead would be more exact, and is for the next feature version, since the shards and the
// nets trained on them must see the same values as play does.
int capture_sequence_gain(const Position& pos, Move m);

}  // namespace avocet
