#include "avocet/chess/flip.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace avocet {

namespace {

std::string swap_case(std::string text) {
  for (char& c : text) {
    const auto u = static_cast<unsigned char>(c);
    c = char(std::isupper(u) ? std::tolower(u) : std::toupper(u));
  }
  return text;
}

}  // namespace

std::string color_flipped_fen(std::string_view fen) {
  std::istringstream fields{std::string(fen)};
  std::string placement, side, castling, en_passant, halfmove, fullmove, extra;
  if (!(fields >> placement >> side >> castling >> en_passant >> halfmove >> fullmove) ||
      (fields >> extra))
    throw std::invalid_argument("flip: expected a FEN of six fields");

  // Ranks are written 8 to 1: reversed, and with colours swapped, they are the mirror board.
  std::vector<std::string> ranks;
  for (size_t begin = 0;;) {
    const size_t end = placement.find('/', begin);
    ranks.push_back(swap_case(placement.substr(begin, end - begin)));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  std::reverse(ranks.begin(), ranks.end());
  std::string board;
  for (const std::string& rank : ranks) {
    if (!board.empty()) board += '/';
    board += rank;
  }

  const char* other_side = side == "w" ? "b" : "w";
  if (castling != "-") {
    castling = swap_case(castling);
    // White's rights first, each side's in their original order, as FEN writes them.
    std::stable_partition(castling.begin(), castling.end(),
                          [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
  }
  if (en_passant.size() == 2) en_passant[1] = char('1' + '8' - en_passant[1]);
  // Appended piece by piece: gcc 12's -Wrestrict misfires on chains of std::string `+`.
  std::string flipped = board;
  for (const std::string& field :
       {std::string(other_side), castling, en_passant, halfmove, fullmove}) {
    flipped += ' ';
    flipped += field;
  }
  return flipped;
}

}  // namespace avocet
