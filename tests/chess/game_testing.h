// A game from a FEN and moves in UCI notation, for the tests of the searches.
#pragma once

#include <initializer_list>

#include "avocet/chess/game.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/position.h"

namespace avocet::testing {

inline Game after(const char* fen, std::initializer_list<const char*> moves) {
  Game game(Position::from_fen(fen));
  for (const char* m : moves) game.play(parse_uci(game.position(), m));
  return game;
}

}  // namespace avocet::testing
