// Move text: UCI long algebraic (e2e4, e7e8q, castling as e1g1, or as king-takes-rook e1h1
// in Chess960 mode) and SAN (Nf3, exd6, O-O, e8=Q+), in and out. Parsing checks legality in the
// given position and throws MoveError naming the text and what is wrong with it.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet {

class MoveError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// With `chess960`, castling is written as the king taking its own rook (e1h1), as UCI_Chess960
// GUIs expect; else as the king's move (e1g1). Promotions are lower case.
std::string to_uci(Move m, bool chess960 = false);
// The legal move `text` names in `pos`, castling written as to_uci writes it in that mode; an
// upper-case promotion letter (a7a8Q) is accepted, as Stockfish accepts it.
Move parse_uci(const Position& pos, std::string_view text, bool chess960 = false);

// SAN with check (+) and mate (#) suffixes, as python-chess writes it.
std::string to_san(const Position& pos, Move m);
// Accepts SAN with or without +, #, !, ? suffixes, "0-0" for "O-O" and "e8Q" for "e8=Q".
Move parse_san(const Position& pos, std::string_view text);

}  // namespace avocet
