#include "avocet/chess/move_text.h"

#include <fmt/format.h>

#include "avocet/chess/movegen.h"

namespace avocet {

namespace {

constexpr std::string_view kPromotionLetters = "nbrq";   // indexed by PieceType - 1
constexpr std::string_view kSanPieceLetters = "PNBRQK";  // indexed by PieceType

std::optional<PieceType> promotion_from_char(char c) {
  const char lower = char(c | 0x20);
  const size_t i = kPromotionLetters.find(lower);
  if (i == std::string_view::npos) return std::nullopt;
  return PieceType(i + 1);
}

// Move text as an error message quotes it: a byte outside printable ASCII (a NUL above all,
// which would end the message where what() is read as a C string) as \xNN.
std::string quoted(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out += byte >= 0x20 && byte < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", byte);
  }
  return out;
}

}  // namespace

std::string to_uci(Move m, bool chess960) {
  if (m.is_none()) return "0000";
  const Square to = m.kind() == MoveKind::Castling && !chess960 ? castling_king_to(m) : m.to();
  std::string text = square_name(m.from()) + square_name(to);
  if (m.kind() == MoveKind::Promotion) text += kPromotionLetters[index(m.promotion()) - 1];
  return text;
}

Move parse_uci(const Position& pos, std::string_view text, bool chess960) {
  const bool well_formed = (text.size() == 4 || text.size() == 5) &&
                           parse_square(text.substr(0, 2)) && parse_square(text.substr(2, 2)) &&
                           (text.size() == 4 || promotion_from_char(text[4]));
  if (!well_formed)
    throw MoveError(
        fmt::format("'{}' is not a move in UCI notation (e.g. e2e4, e7e8q)", quoted(text)));
  const Square from = *parse_square(text.substr(0, 2));
  const Square to = *parse_square(text.substr(2, 2));
  const PieceType promotion = text.size() == 5 ? *promotion_from_char(text[4]) : PieceType::None;
  for (Move m : legal_moves(pos)) {
    const Square written_to =
        m.kind() == MoveKind::Castling && !chess960 ? castling_king_to(m) : m.to();
    if (m.from() == from && written_to == to && m.promotion() == promotion) return m;
  }
  throw MoveError(fmt::format("illegal move '{}' in position {}", quoted(text), pos.fen()));
}

std::string to_san(const Position& pos, Move m) {
  std::string san;
  const PieceType moving = type_of(pos.piece_on(m.from()));
  if (m.kind() == MoveKind::Castling) {
    san = is_king_side_castling(m) ? "O-O" : "O-O-O";
  } else if (moving == PieceType::Pawn) {
    if (file_of(m.from()) != file_of(m.to())) {
      san += char('a' + index(file_of(m.from())));
      san += 'x';
    }
    san += square_name(m.to());
    if (m.kind() == MoveKind::Promotion) {
      san += '=';
      san += kSanPieceLetters[index(m.promotion())];
    }
  } else {
    san += kSanPieceLetters[index(moving)];
    // Disambiguate against other pieces of the same type reaching the same square: by
    // file if that suffices, else by rank, else by both.
    bool ambiguous = false, same_file = false, same_rank = false;
    for (Move other : legal_moves(pos)) {
      if (other == m || other.to() != m.to() || other.from() == m.from() ||
          type_of(pos.piece_on(other.from())) != moving)
        continue;
      ambiguous = true;
      same_file |= file_of(other.from()) == file_of(m.from());
      same_rank |= rank_of(other.from()) == rank_of(m.from());
    }
    if (ambiguous) {
      const std::string from = square_name(m.from());
      if (!same_file)
        san += from[0];
      else if (!same_rank)
        san += from[1];
      else
        san += from;
    }
    if (pos.is_capture(m)) san += 'x';
    san += square_name(m.to());
  }
  Position after = pos;
  after.play(m);
  if (after.in_check()) san += has_legal_move(after) ? '+' : '#';
  return san;
}

Move parse_san(const Position& pos, std::string_view text) {
  const std::string original(text);
  while (!text.empty() && std::string_view("+#!?").find(text.back()) != std::string_view::npos)
    text.remove_suffix(1);
  auto fail = [&](std::string_view why) -> Move {
    throw MoveError(
        fmt::format("{} SAN move '{}' in position {}", why, quoted(original), pos.fen()));
  };
  if (text.empty()) return fail("empty");

  if (text == "O-O" || text == "0-0" || text == "O-O-O" || text == "0-0-0") {
    const bool king_side = text.size() == 3;
    for (Move m : legal_moves(pos))
      if (m.kind() == MoveKind::Castling && is_king_side_castling(m) == king_side) return m;
    return fail("illegal");
  }

  // [piece][from file][from rank][x]to-square[=promotion]
  PieceType piece = PieceType::Pawn;
  if (const size_t i = kSanPieceLetters.find(text.front()); i != std::string_view::npos) {
    piece = PieceType(i);
    text.remove_prefix(1);
  }
  // A SAN move ends with a rank digit, so a final letter is a promotion ("e8=Q", "e8q").
  PieceType promotion = PieceType::None;
  if (!text.empty() && promotion_from_char(text.back())) {
    promotion = *promotion_from_char(text.back());
    text.remove_suffix(1);
    if (!text.empty() && text.back() == '=') text.remove_suffix(1);
  }
  if (text.size() < 2) return fail("malformed");
  const std::optional<Square> to = parse_square(text.substr(text.size() - 2));
  if (!to) return fail("malformed");
  text.remove_suffix(2);
  if (!text.empty() && text.back() == 'x') text.remove_suffix(1);

  std::optional<File> from_file;
  std::optional<Rank> from_rank;
  for (char c : text) {
    if (c >= 'a' && c <= 'h' && !from_file && !from_rank)
      from_file = File(c - 'a');
    else if (c >= '1' && c <= '8' && !from_rank)
      from_rank = Rank(c - '1');
    else
      return fail("malformed");
  }

  Move found;
  int matches = 0;
  for (Move m : legal_moves(pos)) {
    if (m.to() != *to || m.kind() == MoveKind::Castling ||
        type_of(pos.piece_on(m.from())) != piece || m.promotion() != promotion ||
        (from_file && file_of(m.from()) != *from_file) ||
        (from_rank && rank_of(m.from()) != *from_rank))
      continue;
    found = m;
    ++matches;
  }
  if (matches == 0) return fail("illegal");
  if (matches > 1) return fail("ambiguous");
  return found;
}

}  // namespace avocet
