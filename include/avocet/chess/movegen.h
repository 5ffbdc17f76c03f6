// Legal move generation.
//
// Moves are generated fully legal in one pass, without make/test/unmake: a check mask
// restricts non-king moves to capturing or blocking a single checker, pin rays restrict
// pinned pieces, king destinations are tested with the king lifted off the board, and the
// rare en passant capture is simulated. The generator hands bitboards of destinations to a
// sink, so that counting at the last perft ply costs one popcount per piece.
#pragma once

#include <cstdint>

#include "avocet/chess/attacks.h"
#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet {

namespace movegen {

// Appends every generated move to a MoveList.
struct Collector {
  MoveList& list;

  void add(Square from, Bitboard targets) {
    for (Square to : targets) list.push(Move(from, to));
  }
  void add(Move m) { list.push(m); }
  // Pawn moves whose origin is `to - offset`.
  template <int Offset>
  void add_pawn_moves(Bitboard targets) {
    for (Square to : targets) list.push(Move(to - Offset, to));
  }
  template <int Offset>
  void add_promotions(Bitboard targets) {
    for (Square to : targets)
      for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
        list.push(Move(to - Offset, to, MoveKind::Promotion, pt));
  }
};

// Counts moves without materialising them.
struct Counter {
  uint64_t count = 0;

  void add(Square, Bitboard targets) { count += targets.count(); }
  void add(Move) { ++count; }
  template <int Offset>
  void add_pawn_moves(Bitboard targets) {
    count += targets.count();
  }
  template <int Offset>
  void add_promotions(Bitboard targets) {
    count += 4 * targets.count();
  }
};

template <Color Us, class Sink>
inline void generate(const Position& pos, Sink& sink) {
  constexpr Color Them = ~Us;
  constexpr int Up = pawn_push(Us);
  constexpr Direction UpDir = Us == Color::White ? Direction::North : Direction::South;
  constexpr Direction UpLeft = Us == Color::White ? Direction::NorthWest : Direction::SouthEast;
  constexpr Direction UpRight = Us == Color::White ? Direction::NorthEast : Direction::SouthWest;
  constexpr int UpLeftOffset = Us == Color::White ? 7 : -7;
  constexpr int UpRightOffset = Us == Color::White ? 9 : -9;
  constexpr Bitboard PromotionRank = Us == Color::White ? kRank8 : kRank1;
  constexpr Bitboard DoublePushRank = Us == Color::White ? rank_bb(Rank::R3) : rank_bb(Rank::R6);

  const Bitboard ours = pos.pieces(Us), theirs = pos.pieces(Them);
  const Bitboard occupied = ours | theirs;
  const Square king = pos.king_square(Us);

  // Checkers and pins. Sliders are found by looking from the king through our own pieces
  // (only their pieces block): none of ours in between is a check, exactly one is a pin.
  Bitboard checkers = (knight_attacks(king) & pos.pieces(Them, PieceType::Knight)) |
                      (pawn_attacks(Us, king) & pos.pieces(Them, PieceType::Pawn));
  Bitboard pinned_straight_rays, pinned_diagonal_rays;
  for (Square s :
       rook_attacks(king, theirs) & pos.pieces(Them, PieceType::Rook, PieceType::Queen)) {
    const Bitboard blockers = between(king, s) & ours;
    if (!blockers)
      checkers |= s;
    else if (!blockers.more_than_one())
      pinned_straight_rays |= between(king, s) | s;
  }
  for (Square s :
       bishop_attacks(king, theirs) & pos.pieces(Them, PieceType::Bishop, PieceType::Queen)) {
    const Bitboard blockers = between(king, s) & ours;
    if (!blockers)
      checkers |= s;
    else if (!blockers.more_than_one())
      pinned_diagonal_rays |= between(king, s) | s;
  }

  // King moves: the destination must not be attacked once the king has left its square.
  const Bitboard without_king = occupied ^ king;
  Bitboard safe_king_targets;
  for (Square to : king_attacks(king) & ~ours)
    if (!(pos.attackers_to(to, without_king) & theirs)) safe_king_targets |= to;
  sink.add(king, safe_king_targets);

  if (checkers.more_than_one()) return;  // Double check: only the king may move.

  // Non-king moves must land on these squares: anywhere not ours, or, in check, on the
  // checker or between it and the king.
  const Bitboard allowed = checkers ? between(king, checkers.first()) | checkers : ~ours;

  const Bitboard pinned = ours & (pinned_straight_rays | pinned_diagonal_rays);

  for (Square s : pos.pieces(Us, PieceType::Knight) & ~pinned)
    sink.add(s, knight_attacks(s) & allowed);

  const Bitboard diagonal_movers = pos.pieces(Us, PieceType::Bishop, PieceType::Queen);
  for (Square s : diagonal_movers & ~pinned) sink.add(s, bishop_attacks(s, occupied) & allowed);
  for (Square s : diagonal_movers& pinned& pinned_diagonal_rays)
    sink.add(s, bishop_attacks(s, occupied) & allowed & pinned_diagonal_rays);

  const Bitboard straight_movers = pos.pieces(Us, PieceType::Rook, PieceType::Queen);
  for (Square s : straight_movers & ~pinned) sink.add(s, rook_attacks(s, occupied) & allowed);
  for (Square s : straight_movers& pinned& pinned_straight_rays)
    sink.add(s, rook_attacks(s, occupied) & allowed & pinned_straight_rays);

  // Pawns. A diagonally pinned pawn may only capture along its pin, a straight-pinned pawn
  // may only push along its (vertical) pin.
  const Bitboard pawns = pos.pieces(Us, PieceType::Pawn);
  const Bitboard empty = ~occupied;

  const Bitboard pushers = pawns & ~pinned_diagonal_rays;
  const Bitboard single_pushes =
      (shift<UpDir>(pushers & ~pinned_straight_rays) |
       (shift<UpDir>(pushers & pinned_straight_rays) & pinned_straight_rays)) &
      empty;
  const Bitboard double_pushes = shift<UpDir>(single_pushes & DoublePushRank) & empty & allowed;
  const Bitboard pushes = single_pushes & allowed;

  const Bitboard capturers = pawns & ~pinned_straight_rays;
  const Bitboard free_capturers = capturers & ~pinned_diagonal_rays;
  const Bitboard pinned_capturers = capturers & pinned_diagonal_rays;
  const Bitboard capture_targets = theirs & allowed;
  const Bitboard left_captures =
      (shift<UpLeft>(free_capturers) | (shift<UpLeft>(pinned_capturers) & pinned_diagonal_rays)) &
      capture_targets;
  const Bitboard right_captures =
      (shift<UpRight>(free_capturers) | (shift<UpRight>(pinned_capturers) & pinned_diagonal_rays)) &
      capture_targets;

  sink.template add_pawn_moves<Up>(pushes & ~PromotionRank);
  sink.template add_pawn_moves<2 * Up>(double_pushes);
  sink.template add_pawn_moves<UpLeftOffset>(left_captures & ~PromotionRank);
  sink.template add_pawn_moves<UpRightOffset>(right_captures & ~PromotionRank);
  if ((pushes | left_captures | right_captures) & PromotionRank) {
    sink.template add_promotions<Up>(pushes & PromotionRank);
    sink.template add_promotions<UpLeftOffset>(left_captures & PromotionRank);
    sink.template add_promotions<UpRightOffset>(right_captures & PromotionRank);
  }

  const Square ep = pos.en_passant_square();
  if (ep != Square::None) {
    for (Square from : pawn_attacks(Them, ep) & pawns)
      if (pos.en_passant_capture_is_legal(from, ep)) sink.add(Move(from, ep, MoveKind::EnPassant));
  }

  // Castling: rights, empty squares between king and rook, no check now or on the way.
  if (!checkers) {
    constexpr Square e = relative_square(Us, Square::E1);
    constexpr CastlingRight king_side = Us == Color::White ? kWhiteKingSide : kBlackKingSide;
    constexpr CastlingRight queen_side = Us == Color::White ? kWhiteQueenSide : kBlackQueenSide;
    auto attacked = [&](Square s) { return bool(pos.attackers_to(s, occupied) & theirs); };
    if (pos.can_castle(king_side) && !(occupied & (Bitboard(e + 1) | (e + 2))) &&
        !attacked(e + 1) && !attacked(e + 2))
      sink.add(Move(e, e + 2, MoveKind::Castling));
    if (pos.can_castle(queen_side) && !(occupied & (Bitboard(e - 1) | (e - 2) | (e - 3))) &&
        !attacked(e - 1) && !attacked(e - 2))
      sink.add(Move(e, e - 2, MoveKind::Castling));
  }
}

template <class Sink>
inline void generate(const Position& pos, Sink& sink) {
  if (pos.side_to_move() == Color::White)
    generate<Color::White>(pos, sink);
  else
    generate<Color::Black>(pos, sink);
}

}  // namespace movegen

inline MoveList legal_moves(const Position& pos) {
  MoveList list;
  movegen::Collector collector{list};
  movegen::generate(pos, collector);
  return list;
}

inline uint64_t count_legal_moves(const Position& pos) {
  movegen::Counter counter;
  movegen::generate(pos, counter);
  return counter.count;
}

inline bool has_legal_move(const Position& pos) { return count_legal_moves(pos) != 0; }

}  // namespace avocet
