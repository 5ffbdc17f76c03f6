// Game: a position with the history that reached it, for the rules that need the past
// (repetitions) and for taking moves back. Also the end-of-game rules.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet {

// Why a game is over, or may be claimed over. Ordered as python-chess's outcome().
enum class Termination {
  None,
  Checkmate,
  Stalemate,
  InsufficientMaterial,
  SeventyFiveMoves,     // automatic draw: 150 plies without capture or pawn move
  FivefoldRepetition,   // automatic draw
  FiftyMoves,           // draw on claim: 100 plies without capture or pawn move
  ThreefoldRepetition,  // draw on claim
};

// Neither side can ever mate, by python-chess's rule: each side has only its king, or a
// lone knight against no pieces but queens, or bishops, with every bishop on the board on
// one square colour and no pawns or knights anywhere.
bool is_insufficient_material(const Position& pos);

class Game {
 public:
  explicit Game(const Position& start = Position::start());

  const Position& position() const { return positions_.back(); }
  const std::vector<Move>& moves() const { return moves_; }

  // Plays a legal move.
  void play(Move m);
  // Takes the last move back; returns false when there is none.
  bool undo();

  // Keys of the positions before the current one that it could still repeat (those since
  // the last capture or pawn move), oldest first.
  std::vector<uint64_t> recent_keys() const;

  // How many times the current position has occurred in the game, this time included.
  int repetition_count() const;

  bool is_checkmate() const;
  // The game is over by rule (mate, stalemate, dead position, 75 moves, fivefold).
  Termination forced_termination() const;
  // Forced ends first, then draws either side may claim (50 moves, threefold).
  Termination termination() const;

 private:
  std::vector<Position> positions_;
  std::vector<Move> moves_;
};

}  // namespace avocet
