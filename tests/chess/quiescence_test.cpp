// Quiescence gain (chess/quiescence.h): hand-checked capture sequences, including the ones
// where it parts from SEE and from the opponent's best single capture.
#include "avocet/chess/quiescence.h"

#include <gtest/gtest.h>

#include <string>

#include "avocet/chess/exchange.h"
#include "avocet/chess/move_text.h"

namespace avocet {
namespace {

int gain(const std::string& fen, const char* move) {
  const Position pos = Position::from_fen(fen);
  return quiescence_gain(pos, parse_uci(pos, move));
}

TEST(Quiescence, QuietMovesAndSafeCaptures) {
  const std::string fen = "4k3/8/8/8/8/2n5/8/Q3K3 w - - 0 1";
  EXPECT_EQ(gain(fen, "a1c3"), 300);   // the knight was free
  EXPECT_EQ(gain(fen, "a1a4"), -900);  // a square the knight attacks
  EXPECT_EQ(gain(fen, "a1a3"), 0);     // a3 is safe (the knight covers a4, b1, b5, ...)
}

TEST(Quiescence, RecapturesAreAnswered) {
  // The queen takes a pawn that a pawn defends.
  EXPECT_EQ(gain("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
  // The rook takes a knight whose defending rook the bishop covers: Rxd5 Rxd5 Bxd5 trades
  // rooks, so the knight is won either way.
  EXPECT_EQ(gain("3r2k1/8/8/3n4/8/1B6/8/3R2K1 w - - 0 1", "d1d5"), 300);
}

TEST(Quiescence, ACaptureThatUnblocksALineIsNotMade) {
  // After Nc3 Black could take the knight (SEE +3, the `threat` feature's 3 pawns), but Nxc3
  // opens the d-file and Rxd7 wins the queen: Black does better to take nothing.
  const std::string fen = "6k1/3q4/8/3n4/8/8/8/1N1R2K1 w - - 0 1";
  const Position pos = Position::from_fen(fen);
  EXPECT_EQ(see(pos, parse_uci(pos, "b1c3")), -300);
  EXPECT_EQ(gain(fen, "b1c3"), 0);
}

TEST(Quiescence, ACaptureThatExposesAPieceLosesIt) {
  // Bxa6 wins a pawn by SEE, but it takes the bishop off the d-file and Rxd1 wins the queen.
  const std::string fen = "3r2k1/8/p7/8/8/3B4/8/3Q3K w - - 0 1";
  const Position pos = Position::from_fen(fen);
  EXPECT_EQ(see(pos, parse_uci(pos, "d3a6")), 100);
  EXPECT_EQ(gain(fen, "d3a6"), 100 - 900);
}

TEST(Quiescence, PromotionsCount) {
  // The pawn queens on an empty square (+8), or next to a rook that takes it (-1).
  EXPECT_EQ(gain("6k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7a8q"), 800);
  EXPECT_EQ(gain("1r4k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7a8q"), 800 - 900);
  EXPECT_EQ(gain("1r4k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7b8q"), 500 + 800);
}

}  // namespace
}  // namespace avocet
