#include "avocet/chess/types.h"

#include "avocet/chess/bitboard.h"

namespace avocet {

namespace {
constexpr std::string_view kPieceChars = "PNBRQKpnbrqk";
}

char piece_char(Piece p) { return p == Piece::None ? '.' : kPieceChars[index(p)]; }

std::optional<Piece> piece_from_char(char c) {
  const size_t i = kPieceChars.find(c);
  if (i == std::string_view::npos) return std::nullopt;
  return Piece(i);
}

std::string square_name(Square s) {
  if (!is_valid(s)) return "-";
  return {char('a' + index(file_of(s))), char('1' + index(rank_of(s)))};
}

std::optional<Square> parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
    return std::nullopt;
  return make_square(File(text[0] - 'a'), Rank(text[1] - '1'));
}

std::string to_diagram(Bitboard b) {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f) out += b.has(make_square(File(f), Rank(r))) ? 'x' : '.';
    out += '\n';
  }
  return out;
}

}  // namespace avocet
