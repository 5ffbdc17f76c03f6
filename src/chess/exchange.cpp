#include "avocet/chess/exchange.h"

#include <algorithm>
#include <array>

namespace avocet {

namespace {

constexpr std::array kTypesByValue = {PieceType::Pawn, PieceType::Knight, PieceType::Bishop,
                                      PieceType::Rook, PieceType::Queen,  PieceType::King};

// Would `side`'s piece on `from` capturing on `to` uncover an attack on its king by an enemy
// slider still on the board (one in `occupied`, other than the piece captured on `to`)? This
// is the pin rule of SEE, and it stays right as pinners are exchanged off during the
// sequence. Sliders that already attack the king count for no piece: like the rest of SEE,
// the rule ignores checks, so whether a piece may recapture never depends on whether it
// happens to share a line with a king in check.
bool exposes_king(const Position& pos, Color side, Square from, Square to, Bitboard occupied) {
  const Square king = pos.king_square(side);
  if (line_through(king, from).empty()) return false;  // not aligned with the king: no pin
  const Bitboard rooks = pos.pieces(~side, PieceType::Rook, PieceType::Queen) & occupied;
  const Bitboard bishops = pos.pieces(~side, PieceType::Bishop, PieceType::Queen) & occupied;
  const auto sliders_on_king = [&](Bitboard occ) {
    return (rook_attacks(king, occ) & rooks) | (bishop_attacks(king, occ) & bishops);
  };
  const Bitboard after = (occupied ^ from) | to;
  return bool(sliders_on_king(after) & ~sliders_on_king(occupied | to) & ~Bitboard(to));
}

// The square and type of `side`'s least valuable piece in `attackers` that may legally
// capture on `to`; Square::None when there is none.
std::pair<Square, PieceType> next_capturer(const Position& pos, Color side, Square to,
                                           Bitboard attackers, Bitboard occupied) {
  const Bitboard mine = attackers & pos.pieces(side);
  for (PieceType pt : kTypesByValue) {
    for (Square s : mine& pos.pieces(pt)) {
      if (pt == PieceType::King) {
        // Lifted off its square, the king must not stand attacked on `to`.
        const Bitboard after = occupied ^ s;
        const Bitboard enemies = pos.attackers_to(to, after) & pos.pieces(~side) & after;
        if (!(enemies & ~Bitboard(to))) return {s, pt};
      } else if (!exposes_king(pos, side, s, to, occupied)) {
        return {s, pt};
      }
    }
  }
  return {Square::None, PieceType::None};
}

// The exchange on `to` after a first capture that left `occupied` and put a piece of type
// `on_square` there, having won `first_gain`; `side` recaptures next.
int swap(const Position& pos, Square to, Color side, int first_gain, PieceType on_square,
         Bitboard occupied) {
  const bool promotion_square = rank_of(to) == Rank::R1 || rank_of(to) == Rank::R8;
  const Bitboard diagonal = pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen);
  const Bitboard straight = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
  Bitboard attackers = pos.attackers_to(to, occupied) & occupied;
  // gain[d]: what the side making capture d has won if the sequence stopped after it.
  std::array<int, 40> gain{};
  gain[0] = first_gain;
  int d = 0;
  while (d + 1 < int(gain.size())) {
    const auto [square, type] = next_capturer(pos, side, to, attackers, occupied);
    if (square == Square::None) break;
    ++d;
    gain[d] = see_value(on_square) - gain[d - 1];
    on_square = type;
    if (type == PieceType::Pawn && promotion_square) {
      gain[d] += see_value(PieceType::Queen) - see_value(PieceType::Pawn);
      on_square = PieceType::Queen;
    }
    occupied ^= square;
    // Sliders behind the capturer now see the square (x-rays).
    attackers |=
        (bishop_attacks(to, occupied) & diagonal) | (rook_attacks(to, occupied) & straight);
    attackers &= occupied;
    side = ~side;
  }
  // Each side stops recapturing where going on would lose: negamax from the deepest capture.
  for (; d > 0; --d) gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
  return gain[0];
}

}  // namespace

PieceType least_valuable_type(const Position& pos, Bitboard attackers) {
  for (PieceType pt : kTypesByValue)
    if (attackers & pos.pieces(pt)) return pt;
  return PieceType::None;
}

Bitboard pinned_pieces(const Position& pos, Color c) {
  const Square king = pos.king_square(c);
  const Bitboard snipers =
      (rook_attacks(king, kEmpty) & pos.pieces(~c, PieceType::Rook, PieceType::Queen)) |
      (bishop_attacks(king, kEmpty) & pos.pieces(~c, PieceType::Bishop, PieceType::Queen));
  Bitboard pinned;
  for (Square s : snipers) {
    const Bitboard blockers = between(king, s) & pos.occupied();
    if (blockers.count() == 1 && (blockers & pos.pieces(c))) pinned |= blockers;
  }
  return pinned;
}

bool gives_check(const Position& pos, Move m) {
  const Color us = pos.side_to_move();
  const Square king = pos.king_square(~us);
  const Square from = m.from(), to = m.to();
  PieceType moved = type_of(pos.piece_on(from));
  if (m.kind() == MoveKind::Promotion) moved = m.promotion();

  // The board after the move, as far as checks on the enemy king are concerned.
  Bitboard occupied = (pos.occupied() ^ from) | to;
  Bitboard ours = (pos.pieces(us) ^ from) | to;
  Square checker = to;  // the square whose piece may give a direct check
  Bitboard landed(to);  // where the moved pieces stand now
  if (m.kind() == MoveKind::EnPassant) occupied ^= to - pawn_push(us);
  if (m.kind() == MoveKind::Castling) {
    // King takes rook: both leave their squares (`to` is the rook's), then land.
    const Square king_to = castling_king_to(m), rook_to = castling_rook_to(m);
    occupied = (pos.occupied() ^ from ^ to) | king_to | rook_to;
    ours = (pos.pieces(us) ^ from ^ to) | king_to | rook_to;
    checker = rook_to;
    landed = Bitboard(king_to) | rook_to;
    moved = PieceType::Rook;
  }

  // Direct check by the moved piece (or the castling rook) from its new square.
  switch (moved) {
    case PieceType::Pawn:
      if (pawn_attacks(us, checker).has(king)) return true;
      break;
    case PieceType::Knight:
      if (knight_attacks(checker).has(king)) return true;
      break;
    case PieceType::Bishop:
      if (bishop_attacks(checker, occupied).has(king)) return true;
      break;
    case PieceType::Rook:
      if (rook_attacks(checker, occupied).has(king)) return true;
      break;
    case PieceType::Queen:
      if (queen_attacks(checker, occupied).has(king)) return true;
      break;
    default:
      break;
  }
  // Discovered check: one of our other sliders now sees the king. The moved piece was
  // covered above, so its old square (vacated) and new one are left out.
  const Bitboard others = ours & ~landed;
  const Bitboard rooks = pos.pieces(us, PieceType::Rook, PieceType::Queen) & others;
  const Bitboard bishops = pos.pieces(us, PieceType::Bishop, PieceType::Queen) & others;
  return bool((rook_attacks(king, occupied) & rooks) | (bishop_attacks(king, occupied) & bishops));
}

int see(const Position& pos, Move m) {
  if (m.kind() == MoveKind::Castling) return 0;
  const Square from = m.from(), to = m.to();
  const Color us = pos.side_to_move();
  Bitboard occupied = pos.occupied() ^ from;
  int gain = pos.piece_on(to) == Piece::None ? 0 : see_value(type_of(pos.piece_on(to)));
  if (m.kind() == MoveKind::EnPassant) {
    gain = see_value(PieceType::Pawn);
    occupied ^= to - pawn_push(us);
  }
  PieceType on_square = type_of(pos.piece_on(from));
  if (m.kind() == MoveKind::Promotion) {
    gain += see_value(m.promotion()) - see_value(PieceType::Pawn);
    on_square = m.promotion();
  }
  return swap(pos, to, ~us, gain, on_square, occupied | to);
}

int capture_gain(const Position& pos, Square s) {
  const Piece victim = pos.piece_on(s);
  if (victim == Piece::None || type_of(victim) == PieceType::King) return 0;
  const Color capturer = ~color_of(victim);
  const bool promotion_square = rank_of(s) == Rank::R1 || rank_of(s) == Rank::R8;
  int best = 0;
  for (Square from : attackers_by(pos, s, capturer)) {
    const PieceType type = type_of(pos.piece_on(from));
    if (type == PieceType::King) {
      const Bitboard after = pos.occupied() ^ from;
      if (pos.attackers_to(s, after) & pos.pieces(~capturer) & after) continue;
    } else if (exposes_king(pos, capturer, from, s, pos.occupied())) {
      continue;
    }
    int gain = see_value(type_of(victim));
    PieceType on_square = type;
    if (type == PieceType::Pawn && promotion_square) {
      gain += see_value(PieceType::Queen) - see_value(PieceType::Pawn);
      on_square = PieceType::Queen;
    }
    best = std::max(best, swap(pos, s, ~capturer, gain, on_square, pos.occupied() ^ from));
  }
  return best;
}

}  // namespace avocet
