#include "avocet/chess/position.h"

#include <cassert>

#include "avocet/chess/movegen.h"
#include "avocet/chess/zobrist.h"

namespace avocet {

Position Position::start() { return from_fen(kStartFen); }

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(Color::Black, s) & pieces(Color::White, PieceType::Pawn)) |
         (pawn_attacks(Color::White, s) & pieces(Color::Black, PieceType::Pawn)) |
         (knight_attacks(s) & pieces(PieceType::Knight)) |
         (king_attacks(s) & pieces(PieceType::King)) |
         (rook_attacks(s, occupied) & (pieces(PieceType::Rook) | pieces(PieceType::Queen))) |
         (bishop_attacks(s, occupied) & (pieces(PieceType::Bishop) | pieces(PieceType::Queen)));
}

void Position::put(Piece p, Square s) {
  board_[index(s)] = p;
  by_color_[index(color_of(p))] |= s;
  by_type_[index(type_of(p))] |= s;
  key_ ^= zobrist::piece_square(p, s);
}

void Position::remove(Square s) {
  const Piece p = board_[index(s)];
  board_[index(s)] = Piece::None;
  by_color_[index(color_of(p))] ^= s;
  by_type_[index(type_of(p))] ^= s;
  key_ ^= zobrist::piece_square(p, s);
}

void Position::move_piece(Square from, Square to) {
  const Piece p = board_[index(from)];
  const Bitboard both = Bitboard(from) | to;
  board_[index(from)] = Piece::None;
  board_[index(to)] = p;
  by_color_[index(color_of(p))] ^= both;
  by_type_[index(type_of(p))] ^= both;
  key_ ^= zobrist::piece_square(p, from) ^ zobrist::piece_square(p, to);
}

void Position::play(Move m) {
  // Debug builds check the contract (Release trusts the caller: this is the hot path).
  assert(legal_moves(*this).contains(m) && "Position::play: the move is not legal here");
  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const Piece moving = board_[index(from)];

  if (en_passant_ != Square::None) {
    key_ ^= zobrist::en_passant(en_passant_);
    en_passant_ = Square::None;
  }
  ++halfmove_clock_;
  if (us == Color::Black) ++fullmove_number_;

  switch (m.kind()) {
    case MoveKind::Normal:
      if (board_[index(to)] != Piece::None) {
        remove(to);
        halfmove_clock_ = 0;
      }
      move_piece(from, to);
      if (type_of(moving) == PieceType::Pawn) {
        halfmove_clock_ = 0;
        // A double push gives the opponent an en passant square if a capture is legal.
        if ((index(to) ^ index(from)) == 16) {
          const Square target = square_at((index(from) + index(to)) / 2);
          if (pawn_attacks(us, target) & pieces(~us, PieceType::Pawn)) {
            side_ = ~us;
            set_en_passant_if_legal(target);
            side_ = us;
          }
        }
      }
      break;
    case MoveKind::Promotion:
      if (board_[index(to)] != Piece::None) remove(to);
      remove(from);
      put(make_piece(us, m.promotion()), to);
      halfmove_clock_ = 0;
      break;
    case MoveKind::EnPassant:
      remove(to - pawn_push(us));
      move_piece(from, to);
      halfmove_clock_ = 0;
      break;
    case MoveKind::Castling: {
      // Both pieces leave before either lands: in Chess960 the king may land on the rook's
      // square or the rook on the king's.
      const Piece rook = board_[index(to)];
      remove(from);
      remove(to);
      put(moving, castling_king_to(m));
      put(rook, castling_rook_to(m));
      break;
    }
  }

  if (castling_ && (castling_squares_ & (Bitboard(from) | to))) {
    // A king move loses both its rights; a move from or to a castling rook's square (the rook
    // moving, or being captured) loses that rook's right.
    uint8_t lost = type_of(moving) == PieceType::King ? castling_rights_of(us) : 0;
    for (int i = 0; i < 4; ++i)
      if (castling_rooks_[size_t(i)] == from || castling_rooks_[size_t(i)] == to) lost |= 1 << i;
    const uint8_t kept = castling_ & ~lost;
    if (kept != castling_) {
      key_ ^= zobrist::castling(castling_) ^ zobrist::castling(kept);
      castling_ = kept;
    }
  }
  side_ = ~us;
  key_ ^= zobrist::side();
}

bool Position::en_passant_capture_is_legal(Square from, Square target) const {
  const Color us = side_;
  const Square king = king_square(us);
  const Square captured = target - pawn_push(us);
  const Bitboard occupied = (this->occupied() ^ from ^ captured) | target;
  // After the capture no enemy piece other than the captured pawn may attack the king.
  const Bitboard attackers =
      (rook_attacks(king, occupied) & pieces(~us, PieceType::Rook, PieceType::Queen)) |
      (bishop_attacks(king, occupied) & pieces(~us, PieceType::Bishop, PieceType::Queen)) |
      (knight_attacks(king) & pieces(~us, PieceType::Knight)) |
      (pawn_attacks(us, king) & pieces(~us, PieceType::Pawn));
  return !(attackers & ~Bitboard(captured));
}

void Position::set_en_passant_if_legal(Square target) {
  for (Square from : pawn_attacks(~side_, target) & pieces(side_, PieceType::Pawn)) {
    if (en_passant_capture_is_legal(from, target)) {
      en_passant_ = target;
      key_ ^= zobrist::en_passant(target);
      return;
    }
  }
}

bool Position::has_standard_castling() const {
  for (Color c : {Color::White, Color::Black}) {
    if (!(castling_ & castling_rights_of(c))) continue;
    if (king_square(c) != relative_square(c, Square::E1)) return false;
    for (bool king_side : {true, false}) {
      const CastlingRight r = castling_right(c, king_side);
      if (can_castle(r) &&
          castling_rook(r) != relative_square(c, king_side ? Square::H1 : Square::A1))
        return false;
    }
  }
  return true;
}

uint64_t Position::compute_key() const {
  uint64_t key = 0;
  for (Square s : occupied()) key ^= zobrist::piece_square(board_[index(s)], s);
  key ^= zobrist::castling(castling_);
  if (en_passant_ != Square::None) key ^= zobrist::en_passant(en_passant_);
  if (side_ == Color::Black) key ^= zobrist::side();
  return key;
}

}  // namespace avocet
