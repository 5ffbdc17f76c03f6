// The colour-flipped position, as Stockfish's UCI command `flip` makes it: the board mirrored
// top to bottom with every piece changing colour, the other side to move, castling rights and
// the en passant square mirrored likewise. White's game becomes Black's: the flipped
// position's value for its side to move is the original's for its side to move, which makes
// it a symmetry test of an evaluation.
#pragma once

#include <string>
#include <string_view>

namespace avocet {

// Flips a FEN as written by Position::fen() (six fields). Example:
//   rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3
//   rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3
// Castling letters of either notation (KQkq, or Shredder's file letters) change case, White's
// first. Throws std::invalid_argument for text without the six fields.
std::string color_flipped_fen(std::string_view fen);

}  // namespace avocet
