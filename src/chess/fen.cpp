// FEN in and out. Parsing validates everything a legal position needs and throws FenError
// with a message naming the field and the fault.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

#include "avocet/chess/position.h"
#include "avocet/chess/zobrist.h"

namespace avocet {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator_or_space) {
  std::vector<std::string_view> parts;
  if (separator_or_space == ' ') {
    size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      size_t j = i;
      while (j < text.size() && text[j] != ' ' && text[j] != '\t') ++j;
      if (j > i) parts.push_back(text.substr(i, j - i));
      i = j;
    }
  } else {
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
      if (i == text.size() || text[i] == separator_or_space) {
        parts.push_back(text.substr(start, i - start));
        start = i + 1;
      }
    }
  }
  return parts;
}

const char* color_name(Color c) { return c == Color::White ? "white" : "black"; }

int parse_clock(std::string_view text, const char* what, int minimum) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range ||
      (error == std::errc() && end == text.data() + text.size() && value > 65535))
    throw FenError(fmt::format("{} '{}' is out of range (at most 65535)", what, text));
  if (error != std::errc() || end != text.data() + text.size() || value < minimum)
    throw FenError(fmt::format("{} must be {} integer, got '{}'", what,
                               minimum > 0 ? "a positive" : "a non-negative", text));
  return value;
}

const char* rank_name(Color c) { return c == Color::White ? "first" : "eighth"; }

// A castling field letter: KQkq (X-FEN: the outermost rook on that side of the king) or a
// rook's file, A-H for white and a-h for black (Shredder-FEN, and X-FEN for an inner rook).
bool is_castling_letter(char c) {
  const char upper = char(c & ~0x20);
  return upper == 'K' || upper == 'Q' || (upper >= 'A' && upper <= 'H');
}

// The file letter of a castling rook on `rook`, in the colour's case.
char file_letter(Color c, Square rook) {
  return char((c == Color::White ? 'A' : 'a') + index(file_of(rook)));
}

}  // namespace

// Builds a Position field by field; a friend of Position so it can fill the private state.
class FenParser {
 public:
  static Position parse(std::string_view fen) {
    const std::vector<std::string_view> fields = split(fen, ' ');
    if (fields.empty()) throw FenError("FEN is empty");
    if (fields.size() != 6 && fields.size() != 4)
      throw FenError(
          fmt::format("FEN has {} fields; expected 6 (or 4 without the clocks)", fields.size()));
    Position pos;
    pos.board_.fill(Piece::None);
    parse_placement(pos, fields[0]);
    parse_side(pos, fields[1]);
    check_castling_syntax(fields[2]);
    const Square en_passant = parse_en_passant(pos, fields[3]);
    if (fields.size() == 6) {
      pos.halfmove_clock_ = uint16_t(parse_clock(fields[4], "halfmove clock", 0));
      // 0 is read as 1, as Stockfish and python-chess read it: some tools write it.
      pos.fullmove_number_ = uint16_t(std::max(1, parse_clock(fields[5], "fullmove number", 0)));
    }
    check_material(pos);
    parse_castling(pos, fields[2]);
    check_checks(pos);
    pos.key_ = pos.compute_key();
    if (en_passant != Square::None) pos.set_en_passant_if_legal(en_passant);
    return pos;
  }

 private:
  static void parse_placement(Position& pos, std::string_view field) {
    const std::vector<std::string_view> ranks = split(field, '/');
    if (ranks.size() != 8)
      throw FenError(
          fmt::format("piece placement has {} ranks; expected 8 separated by '/'", ranks.size()));
    for (int r = 0; r < 8; ++r) {
      const int rank_number = 8 - r;
      int file = 0;
      bool last_was_digit = false;
      for (char c : ranks[r]) {
        if (c >= '1' && c <= '8') {
          if (last_was_digit)
            throw FenError(fmt::format("rank {} has two digits in a row", rank_number));
          file += c - '0';
          last_was_digit = true;
          continue;
        }
        const std::optional<Piece> piece = piece_from_char(c);
        if (!piece)
          throw FenError(fmt::format("invalid character '{}' in rank {} of the piece placement", c,
                                     rank_number));
        last_was_digit = false;
        if (file < 8) pos.put(*piece, make_square(File(file), Rank(rank_number - 1)));
        ++file;
      }
      if (file != 8)
        throw FenError(fmt::format("rank {} describes {} squares; expected 8", rank_number, file));
    }
  }

  static void parse_side(Position& pos, std::string_view field) {
    if (field == "w")
      pos.side_ = Color::White;
    else if (field == "b")
      pos.side_ = Color::Black;
    else
      throw FenError(fmt::format("side to move must be 'w' or 'b', got '{}'", field));
  }

  static void check_castling_syntax(std::string_view field) {
    if (field == "-") return;
    for (size_t i = 0; i < field.size(); ++i) {
      if (!is_castling_letter(field[i]))
        throw FenError(fmt::format(
            "invalid castling field '{}': expected '-', letters from 'KQkq' or rook files "
            "('A'-'H' for white, 'a'-'h' for black)",
            field));
      if (field.find(field[i]) != i)
        throw FenError(fmt::format("castling field '{}' repeats '{}'", field, field[i]));
    }
  }

  // Runs once the kings are known to be there: each letter names a rook beside its king.
  static void parse_castling(Position& pos, std::string_view field) {
    pos.castling_ = kNoCastling;
    if (field == "-") return;
    std::array<char, 4> letter_of_right{};  // for the message when a right comes twice
    for (char letter : field) {
      const Color c = letter >= 'a' ? Color::Black : Color::White;
      const char upper = char(letter & ~0x20);
      const Square king = pos.king_square(c);
      const Rank back_rank = c == Color::White ? Rank::R1 : Rank::R8;
      if (rank_of(king) != back_rank)
        throw FenError(
            fmt::format("castling right '{}' needs the {} king on the {} rank, not on {}", letter,
                        color_name(c), rank_name(c), square_name(king)));
      const Bitboard rooks = pos.pieces(c, PieceType::Rook) & rank_bb(back_rank);
      Square rook = Square::None;
      if (upper == 'K' || upper == 'Q') {
        const bool king_side = upper == 'K';
        // The outermost rook on that side: scan from the corner towards the king.
        for (int f = king_side ? 7 : 0; f != index(file_of(king)); f += king_side ? -1 : 1) {
          if (rooks.has(make_square(File(f), back_rank))) {
            rook = make_square(File(f), back_rank);
            break;
          }
        }
        if (rook == Square::None)
          throw FenError(fmt::format(
              "castling right '{}' needs a {} rook on the {} rank on the {}-side of the king on {}",
              letter, color_name(c), rank_name(c), king_side ? 'h' : 'a', square_name(king)));
      } else {
        rook = make_square(File(upper - 'A'), back_rank);
        if (!rooks.has(rook))
          throw FenError(fmt::format("castling right '{}' needs a {} rook on {}", letter,
                                     color_name(c), square_name(rook)));
      }
      const bool king_side = index(rook) > index(king);
      const CastlingRight right = castling_right(c, king_side);
      if (pos.castling_ & right)
        throw FenError(
            fmt::format("castling field '{}' gives {} two {}-side castling rights ('{}' "
                        "and '{}')",
                        field, color_name(c), king_side ? 'h' : 'a',
                        letter_of_right[size_t(index(right))], letter));
      letter_of_right[size_t(index(right))] = letter;
      pos.castling_ |= right;
      pos.castling_rooks_[size_t(index(right))] = rook;
      pos.castling_squares_ |= Bitboard(king) | rook;
    }
  }

  static Square parse_en_passant(const Position& pos, std::string_view field) {
    if (field == "-") return Square::None;
    const std::optional<Square> square = parse_square(field);
    if (!square)
      throw FenError(fmt::format("invalid en passant field '{}': expected '-' or a square", field));
    const Color us = pos.side_;
    const Rank expected = us == Color::White ? Rank::R6 : Rank::R3;
    if (rank_of(*square) != expected)
      throw FenError(
          fmt::format("en passant square {} is impossible with {} to move (must be on rank {})",
                      field, color_name(us), index(expected) + 1));
    const Square pushed = *square - pawn_push(us);
    const Square origin = *square + pawn_push(us);
    if (pos.piece_on(pushed) != make_piece(~us, PieceType::Pawn))
      throw FenError(fmt::format("en passant square {} is impossible: no {} pawn on {}", field,
                                 color_name(~us), square_name(pushed)));
    if (pos.piece_on(*square) != Piece::None || pos.piece_on(origin) != Piece::None)
      throw FenError(fmt::format("en passant square {} is impossible: {} and {} must be empty",
                                 field, field, square_name(origin)));
    return *square;
  }

  static void check_material(const Position& pos) {
    for (Color c : {Color::White, Color::Black}) {
      const int kings = pos.pieces(c, PieceType::King).count();
      if (kings != 1)
        throw FenError(fmt::format("{} has {} kings; expected exactly one", color_name(c), kings));
      const int pawns = pos.pieces(c, PieceType::Pawn).count();
      if (pawns > 8)
        throw FenError(
            fmt::format("{} has {} pawns; at most 8 are possible", color_name(c), pawns));
      const int pieces = pos.pieces(c).count();
      if (pieces > 16)
        throw FenError(
            fmt::format("{} has {} pieces; at most 16 are possible", color_name(c), pieces));
    }
    const Bitboard misplaced = pos.pieces(PieceType::Pawn) & (kRank1 | kRank8);
    if (misplaced)
      throw FenError(fmt::format("pawn on {}: pawns cannot stand on the first or last rank",
                                 square_name(misplaced.first())));
  }

  static void check_checks(const Position& pos) {
    const Color them = ~pos.side_;
    if (pos.attackers_to(pos.king_square(them), pos.occupied()) & pos.pieces(pos.side_))
      throw FenError(fmt::format("the side not to move ({}) is in check", color_name(them)));
    const int checkers = pos.checkers().count();
    if (checkers > 2)
      throw FenError(fmt::format(
          "the side to move is in check from {} pieces; at most 2 are possible", checkers));
  }
};

Position Position::from_fen(std::string_view fen) { return FenParser::parse(fen); }

std::string Position::fen() const {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      const Piece p = piece_on(make_square(File(f), Rank(r)));
      if (p == Piece::None) {
        ++empty;
        continue;
      }
      if (empty) out += char('0' + empty), empty = 0;
      out += piece_char(p);
    }
    if (empty) out += char('0' + empty);
    if (r) out += '/';
  }
  out += side_ == Color::White ? " w " : " b ";
  if (castling_ == kNoCastling) out += '-';
  for (Color c : {Color::White, Color::Black}) {
    for (bool king_side : {true, false}) {
      const CastlingRight right = castling_right(c, king_side);
      if (!can_castle(right)) continue;
      // X-FEN: K or Q when the castling rook is the outermost rook on its side of the king,
      // else its file; standard positions always get KQkq.
      const Square rook = castling_rook(right);
      const Bitboard beyond =
          king_side
              ? between(rook, relative_square(c, Square::H1)) | relative_square(c, Square::H1)
              : between(rook, relative_square(c, Square::A1)) | relative_square(c, Square::A1);
      const bool outermost = !(pieces(c, PieceType::Rook) & beyond & ~Bitboard(rook));
      if (outermost)
        out += c == Color::White ? (king_side ? 'K' : 'Q') : (king_side ? 'k' : 'q');
      else
        out += file_letter(c, rook);
    }
  }
  out += ' ';
  out += square_name(en_passant_);
  out += fmt::format(" {} {}", halfmove_clock_, fullmove_number_);
  return out;
}

}  // namespace avocet
