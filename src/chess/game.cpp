#include "avocet/chess/game.h"

#include <algorithm>

#include "avocet/chess/movegen.h"

namespace avocet {

namespace {

bool has_insufficient_material(const Position& pos, Color c) {
  const Bitboard ours = pos.pieces(c), theirs = pos.pieces(~c);
  if (ours &
      (pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen)))
    return false;
  if (ours & pos.pieces(PieceType::Knight))
    return ours.count() <= 2 &&
           !(theirs & ~pos.pieces(PieceType::King) & ~pos.pieces(PieceType::Queen));
  // As python-chess: every bishop on the board (both sides') counts for the colour test.
  if (ours & pos.pieces(PieceType::Bishop)) {
    const Bitboard bishops = pos.pieces(PieceType::Bishop);
    const bool one_colour = !(bishops & kDarkSquares) || !(bishops & kLightSquares);
    return one_colour && !pos.pieces(PieceType::Pawn) && !pos.pieces(PieceType::Knight);
  }
  return true;
}

}  // namespace

bool is_insufficient_material(const Position& pos) {
  return has_insufficient_material(pos, Color::White) &&
         has_insufficient_material(pos, Color::Black);
}

Game::Game(const Position& start) : positions_{start} {}

void Game::play(Move m) {
  Position next = positions_.back();
  next.play(m);
  positions_.push_back(next);
  moves_.push_back(m);
}

bool Game::undo() {
  if (moves_.empty()) return false;
  positions_.pop_back();
  moves_.pop_back();
  return true;
}

std::vector<uint64_t> Game::recent_keys() const {
  const int last = int(positions_.size()) - 1;
  std::vector<uint64_t> keys;
  for (int i = std::max(0, last - position().halfmove_clock()); i < last; ++i)
    keys.push_back(positions_[i].key());
  return keys;
}

int Game::repetition_count() const {
  const Position& now = positions_.back();
  const int last = int(positions_.size()) - 1;
  // Only positions since the last capture or pawn move can repeat, and only every other ply.
  const int earliest = std::max(0, last - now.halfmove_clock());
  int count = 1;
  for (int i = last - 2; i >= earliest; i -= 2)
    if (positions_[i].key() == now.key()) ++count;
  return count;
}

bool Game::is_checkmate() const { return position().in_check() && !has_legal_move(position()); }

Termination Game::forced_termination() const {
  const Position& pos = position();
  const bool no_moves = !has_legal_move(pos);
  if (no_moves && pos.in_check()) return Termination::Checkmate;
  if (is_insufficient_material(pos)) return Termination::InsufficientMaterial;
  if (no_moves) return Termination::Stalemate;
  if (pos.halfmove_clock() >= 150) return Termination::SeventyFiveMoves;
  if (repetition_count() >= 5) return Termination::FivefoldRepetition;
  return Termination::None;
}

Termination Game::termination() const {
  const Termination forced = forced_termination();
  if (forced != Termination::None) return forced;
  if (position().halfmove_clock() >= 100) return Termination::FiftyMoves;
  if (repetition_count() >= 3) return Termination::ThreefoldRepetition;
  return Termination::None;
}

}  // namespace avocet
