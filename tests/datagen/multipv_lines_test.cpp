#include "avocet/datagen/multipv_lines.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace avocet::datagen {
namespace {

// Stockfish 15.1's last two iterations of `go depth 8` with MultiPV 3 on
// 2R3Q1/4k3/8/pK5p/P7/P5P1/4p3/5n2 b - - 0 49 (datagen line 346433 of recipe-d8-top3-d4): the
// final slot is flagged `upperbound` although the iteration is complete.
const std::vector<std::string> kFlaggedLastSlot = {
    "info depth 7 seldepth 8 multipv 1 score cp -701 nodes 10847 pv e2e1r c8e8 e7f6",
    "info depth 7 seldepth 9 multipv 2 score cp -720 nodes 10847 pv e7f6 c8c6 f6e7",
    "info depth 7 seldepth 8 multipv 3 score cp -1020 nodes 10847 pv e2e1q g8g7 e7e6",
    "info depth 8 seldepth 7 multipv 1 score cp -741 nodes 16926 pv e2e1r g8e8 e7d6",
    "info depth 8 seldepth 10 multipv 2 score cp -951 nodes 16926 pv e2e1q g8g7 e7e6",
    "info depth 8 seldepth 11 multipv 3 score mate -5 upperbound nodes 16926 pv e7f6",
    "bestmove e2e1r ponder g8e8",
};

TEST(MultiPvLines, TheLastIterationGivesEveryLineEvenAFlaggedOne) {
  const std::vector<MultiPvLine> lines = final_multipv_lines(kFlaggedLastSlot, 3);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].move, "e2e1r");
  EXPECT_EQ(lines[0].value, -741);
  EXPECT_FALSE(lines[0].mate);
  EXPECT_EQ(lines[1].move, "e2e1q");
  EXPECT_EQ(lines[1].value, -951);
  EXPECT_EQ(lines[2].move, "e7f6");  // not depth 7's e2e1q a second time
  EXPECT_TRUE(lines[2].mate);
  EXPECT_EQ(lines[2].value, -5);
}

TEST(MultiPvLines, OtherInfoLinesAndIndicesBeyondTheSearchAreIgnored) {
  const std::vector<std::string> output = {
      "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
      "info depth 9 seldepth 12 multipv 1 score cp 31 nodes 9000 pv e2e4 e7e5",
      "info depth 9 seldepth 12 multipv 2 score cp 20 nodes 9000 pv d2d4",
      "info depth 10 currmove e2e4 currmovenumber 1",
      "bestmove e2e4",
  };
  const std::vector<MultiPvLine> one = final_multipv_lines(output, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].move, "e2e4");
  EXPECT_EQ(one[0].value, 31);
  const std::vector<MultiPvLine> three = final_multipv_lines(output, 3);
  ASSERT_EQ(three.size(), 2u);  // index 3 never printed
  EXPECT_EQ(three[1].move, "d2d4");
  EXPECT_EQ(three[1].value, 20);
}

// A search stopped inside an iteration, its last slots not printed again: a move is given
// once, with its latest score.
TEST(MultiPvLines, AMoveInTwoSlotsKeepsItsLatestLine) {
  const std::vector<std::string> output = {
      "info depth 9 seldepth 12 multipv 1 score cp 31 nodes 9000 pv e2e4 e7e5",
      "info depth 9 seldepth 12 multipv 2 score cp 20 nodes 9000 pv d2d4",
      "info depth 10 seldepth 13 multipv 1 score cp 35 lowerbound nodes 9100 pv d2d4",
      "bestmove d2d4",
  };
  const std::vector<MultiPvLine> lines = final_multipv_lines(output, 2);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].move, "d2d4");
  EXPECT_EQ(lines[0].value, 35);
}

}  // namespace
}  // namespace avocet::datagen
