// Legal move generation.
//
// Moves are generated fully legal in one pass, without make/test/unmake: a check mask
// restricts non-king moves to capturing or blocking a single checker, pin rays restrict
// pinned pieces, king destinations are tested with the king lifted off the board, and the
// rare en passant capture is simulated. The generator hands bitboards of destinations to a
// sink, so that counting at the last perft ply costs one popcount per piece.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "avocet/chess/attacks.h"
#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet {

namespace movegen {

// The first-rank squares castling needs, by the files of king and castling rook (shifted to
// the eighth rank for Black): a 1 KB table instead of two lookups in the 32 KB between-table
// at every node with a castling right.
struct CastlingPath {
  Bitboard must_be_empty;  // crossed or reached by king or rook, less their own two squares
  Bitboard king_crosses;   // every square the king reaches after its own, its destination too
};

constexpr Bitboard first_rank_span(int a, int b) {
  Bitboard span;
  for (int f = std::min(a, b); f <= std::max(a, b); ++f) span |= make_square(File(f), Rank::R1);
  return span;
}

constexpr std::array<std::array<CastlingPath, 8>, 8> make_castling_paths() {
  std::array<std::array<CastlingPath, 8>, 8> paths{};
  for (int king = 0; king < 8; ++king) {
    for (int rook = 0; rook < 8; ++rook) {
      if (rook == king) continue;
      const bool king_side = rook > king;
      const int king_to = king_side ? 6 : 2, rook_to = king_side ? 5 : 3;
      const Bitboard movers = first_rank_span(king, king) | first_rank_span(rook, rook);
      const Bitboard king_span = first_rank_span(king, king_to);
      paths[size_t(king)][size_t(rook)] = {(king_span | first_rank_span(rook, rook_to)) & ~movers,
                                           king_span & ~first_rank_span(king, king)};
    }
  }
  return paths;
}

inline constexpr auto kCastlingPaths = make_castling_paths();

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

  // Castling, standard and Chess960 alike: king and rook end on g and f (c and d). Every square
  // either crosses or lands on must be empty but for the two of them, and no square the king
  // crosses or lands on may be attacked. Attacks are tested with king and rook lifted off the
  // board: a castling rook that shields the king's destination along the rank (pinned there in
  // Chess960, e.g. Rb1 Kd1 against a queen on a1) no longer shields it once it has moved.
  if (!checkers && (pos.castling_rights() & castling_rights_of(Us))) {
    constexpr int RankShift = Us == Color::White ? 0 : 56;
    for (CastlingRight right : {castling_right(Us, true), castling_right(Us, false)}) {
      if (!pos.can_castle(right)) continue;
      const Square rook = pos.castling_rook(right);
      const CastlingPath& path =
          kCastlingPaths[size_t(index(file_of(king)))][size_t(index(file_of(rook)))];
      if (occupied & (path.must_be_empty << RankShift)) continue;
      const Bitboard without_movers = occupied ^ king ^ rook;
      bool safe = true;
      for (Square s : path.king_crosses << RankShift)
        if (pos.attackers_to(s, without_movers) & theirs) {
          safe = false;
          break;
        }
      if (safe) sink.add(Move(king, rook, MoveKind::Castling));
    }
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
