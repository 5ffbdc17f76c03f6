// Position: the board (bitboards plus a mailbox), side to move, castling rights with their
// rooks' squares (Chess960), en passant square, clocks and the incremental Zobrist key.
// Positions are small (under 160 bytes) and are copied to take a move back ("copy-make"); the
// game history lives in Game.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "avocet/chess/attacks.h"
#include "avocet/chess/bitboard.h"
#include "avocet/chess/move.h"
#include "avocet/chess/types.h"

namespace avocet {

// A FEN that cannot describe a legal chess position; what() says exactly what is wrong.
class FenError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline constexpr std::string_view kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class Position {
 public:
  // The standard starting position.
  static Position start();
  // Parses 6-field or 4-field FEN (clocks then default to "0 1"); throws FenError. The
  // castling field may be standard (KQkq), X-FEN (KQkq for the outermost rook on that side of
  // the king, a rook's file letter otherwise) or Shredder-FEN (file letters: HAha): Chess960
  // positions parse like any other.
  static Position from_fen(std::string_view fen);
  // FEN as python-chess's board.fen() writes it: the en passant square only when a legal
  // en passant capture exists; castling in X-FEN, which is plain KQkq in standard chess.
  std::string fen() const;

  Bitboard occupied() const { return by_color_[0] | by_color_[1]; }
  Bitboard pieces(Color c) const { return by_color_[index(c)]; }
  Bitboard pieces(PieceType pt) const { return by_type_[index(pt)]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[index(c)] & by_type_[index(pt)]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[index(c)] & (by_type_[index(a)] | by_type_[index(b)]);
  }
  Piece piece_on(Square s) const { return board_[index(s)]; }
  Square king_square(Color c) const { return pieces(c, PieceType::King).first(); }

  Color side_to_move() const { return side_; }
  uint8_t castling_rights() const { return castling_; }
  bool can_castle(CastlingRight r) const { return castling_ & r; }
  // The square of the rook that castles with `r`, while the right is held.
  Square castling_rook(CastlingRight r) const { return castling_rooks_[index(r)]; }
  // Is every castling right held one of standard chess (king on e1/e8, rook in the corner)?
  // Then the king's two-square UCI text (e1g1) names castling unambiguously.
  bool has_standard_castling() const;
  // Set only when the side to move has a legal en passant capture; else Square::None.
  Square en_passant_square() const { return en_passant_; }
  int halfmove_clock() const { return halfmove_clock_; }
  int fullmove_number() const { return fullmove_number_; }
  uint64_t key() const { return key_; }

  // Pieces of either colour attacking `s`, with `occupied` as the blockers.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  bool is_attacked(Square s, Color by) const {
    return (attackers_to(s, occupied()) & pieces(by)).bits() != 0;
  }
  Bitboard checkers() const {
    return attackers_to(king_square(side_), occupied()) & pieces(~side_);
  }
  bool in_check() const { return bool(checkers()); }

  // The type of the piece the move `m` takes off the board: a pawn for en passant, None for
  // quiet moves and for castling (stored as the king taking its own rook).
  PieceType captured_type(Move m) const {
    if (m.kind() == MoveKind::EnPassant) return PieceType::Pawn;
    if (m.kind() == MoveKind::Castling || piece_on(m.to()) == Piece::None) return PieceType::None;
    return type_of(piece_on(m.to()));
  }
  bool is_capture(Move m) const { return captured_type(m) != PieceType::None; }

  // Would the side to move's pawn on `from` capturing en passant leave its king safe?
  // Simulates the capture: the only move whose legality depends on two vacated squares.
  bool en_passant_capture_is_legal(Square from, Square target) const;

  // Plays a legal move (behaviour is undefined for any other).
  void play(Move m);

  // Key recomputed from scratch: equals key() when the incremental update is right.
  uint64_t compute_key() const;

 private:
  void put(Piece p, Square s);
  void remove(Square s);
  void move_piece(Square from, Square to);
  // After a double push by the other side: records `target` as the en passant square if the
  // side to move can legally capture there (runs only on double pushes next to a pawn).
  void set_en_passant_if_legal(Square target);

  std::array<Bitboard, 2> by_color_{};
  std::array<Bitboard, kPieceTypeCount> by_type_{};
  std::array<Piece, 64> board_{};
  uint64_t key_ = 0;
  Color side_ = Color::White;
  uint8_t castling_ = kNoCastling;
  std::array<Square, 4> castling_rooks_{Square::None, Square::None, Square::None, Square::None};
  // The home squares of the kings and rooks that had rights when the position was set up: a
  // move that touches none of them changes no right.
  Bitboard castling_squares_;
  Square en_passant_ = Square::None;
  uint16_t halfmove_clock_ = 0;
  uint16_t fullmove_number_ = 1;

  friend class FenParser;
};

}  // namespace avocet
