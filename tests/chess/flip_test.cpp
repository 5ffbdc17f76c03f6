// The colour flip: board mirrored with colours swapped, side to move, castling and en passant
// mirrored; flipping twice gives the position back.
#include "avocet/chess/flip.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "avocet/chess/position.h"

namespace avocet {
namespace {

TEST(Flip, MirrorsBoardSideCastlingAndEnPassant) {
  EXPECT_EQ(color_flipped_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"),
            "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3");
  // One side's rights: White's become Black's, and White's still come first.
  EXPECT_EQ(color_flipped_fen("r3k2r/8/8/8/8/8/8/4K3 w kq - 5 20"),
            "4k3/8/8/8/8/8/8/R3K2R b KQ - 5 20");
  EXPECT_EQ(color_flipped_fen("4k3/8/8/8/8/8/8/R3K2R w Kq - 0 1"),
            "r3k2r/8/8/8/8/8/8/4K3 b Qk - 0 1");
}

TEST(Flip, TwiceIsTheSamePosition) {
  for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
    SCOPED_TRACE(fen);
    const std::string flipped = color_flipped_fen(fen);
    EXPECT_NE(flipped, fen);
    EXPECT_NO_THROW(Position::from_fen(flipped));
    EXPECT_EQ(color_flipped_fen(flipped), fen);
  }
}

TEST(Flip, RefusesTextThatIsNoFen) {
  EXPECT_THROW(color_flipped_fen("8/8/8 w"), std::invalid_argument);
  EXPECT_THROW(color_flipped_fen("8/8/8/8/8/8/8/8 w - - 0 1 extra"), std::invalid_argument);
}

}  // namespace
}  // namespace avocet
