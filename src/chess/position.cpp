#include "avocet/chess/position.h"

#include <cassert>

#include "avocet/chess/movegen.h"
#include "avocet/chess/zobrist.h"

namespace avocet {

namespace {

// Rights lost when a move starts or ends on a square: the king's and rooks' home squares.
constexpr std::array<uint8_t, 64> make_castling_masks() {
  std::array<uint8_t, 64> masks{};
  for (auto& m : masks) m = kAllCastling;
  masks[index(Square::E1)] = kAllCastling & ~(kWhiteKingSide | kWhiteQueenSide);
  masks[index(Square::H1)] = kAllCastling & ~kWhiteKingSide;
  masks[index(Square::A1)] = kAllCastling & ~kWhiteQueenSide;
  masks[index(Square::E8)] = kAllCastling & ~(kBlackKingSide | kBlackQueenSide);
  masks[index(Square::H8)] = kAllCastling & ~kBlackKingSide;
  masks[index(Square::A8)] = kAllCastling & ~kBlackQueenSide;
  return masks;
}
constexpr std::array<uint8_t, 64> kCastlingMasks = make_castling_masks();

}  // namespace

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
      const bool king_side = index(to) > index(from);
      const Square rook_from = king_side ? from + 3 : from - 4;
      const Square rook_to = king_side ? from + 1 : from - 1;
      move_piece(from, to);
      move_piece(rook_from, rook_to);
      break;
    }
  }

  const uint8_t kept = castling_ & kCastlingMasks[index(from)] & kCastlingMasks[index(to)];
  if (kept != castling_) {
    key_ ^= zobrist::castling(castling_) ^ zobrist::castling(kept);
    castling_ = kept;
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

uint64_t Position::compute_key() const {
  uint64_t key = 0;
  for (Square s : occupied()) key ^= zobrist::piece_square(board_[index(s)], s);
  key ^= zobrist::castling(castling_);
  if (en_passant_ != Square::None) key ^= zobrist::en_passant(en_passant_);
  if (side_ == Color::Black) key ^= zobrist::side();
  return key;
}

}  // namespace avocet
