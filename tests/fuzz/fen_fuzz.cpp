// libFuzzer target: the FEN parser. A FEN either throws FenError or gives a position whose
// FEN parses back to the same position, with move generation agreeing with itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "avocet/chess/movegen.h"
#include "avocet/chess/perft.h"
#include "avocet/chess/position.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avocet;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Position pos;
  try {
    pos = Position::from_fen(text);
  } catch (const FenError&) {
    return 0;
  }
  const std::string fen = pos.fen();
  const Position again = Position::from_fen(fen);
  if (again.fen() != fen || again.key() != pos.key()) __builtin_trap();
  const MoveList moves = legal_moves(pos);
  if (moves.size() != count_legal_moves(pos)) __builtin_trap();
  if (perft(pos, 2) == 0 && !moves.empty()) __builtin_trap();
  for (Move m : moves) {
    Position child = pos;
    child.play(m);
    if (Position::from_fen(child.fen()).key() != child.key()) __builtin_trap();
  }
  return 0;
}
