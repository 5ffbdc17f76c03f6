// The WDL model behind UCI_ShowWDL: its invariants, and the draws it must give an even
// ending that W = s^2, L = (1-s)^2 could not (at most 500 per mille).
#include "avocet/uci/wdl_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace avocet::uci {
namespace {

constexpr int kStart = 78;  // material of the initial position
const float kValues[] = {0.0f,  0.001f, 0.05f, 0.2f,  0.4f,   0.45f, 0.5f,
                         0.55f, 0.6f,   0.8f,  0.95f, 0.999f, 1.0f};

TEST(WdlModel, MaterialCountsBothSides) {
  EXPECT_EQ(wdl_material(Position::start()), kStart);
  EXPECT_EQ(wdl_material(Position::from_fen("8/8/8/4k3/8/4P3/4K3/8 w - - 0 1")), 1);
  EXPECT_EQ(wdl_material(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), 0);
  EXPECT_EQ(wdl_material(Position::from_fen("r3k3/8/8/8/8/8/8/1NB1KQ2 b - - 0 1")), 20);
}

TEST(WdlModel, SumsToAThousandWithinRange) {
  for (int material = 0; material <= 80; ++material)
    for (float v : kValues) {
      const search::WdlPerMille wdl = wdl_from_value(v, material);
      EXPECT_EQ(wdl.win + wdl.draw + wdl.loss, 1000) << v << " " << material;
      EXPECT_GE(wdl.win, 0);
      EXPECT_GE(wdl.draw, 0);
      EXPECT_GE(wdl.loss, 0);
    }
}

TEST(WdlModel, OppositeValuesSwapWinAndLoss) {
  for (int material : {0, 1, 10, 30, 50, 78})
    for (float v : kValues) {
      const search::WdlPerMille us = wdl_from_value(v, material),
                                them = wdl_from_value(1 - v, material);
      EXPECT_EQ(us.win, them.loss) << v << " " << material;
      EXPECT_EQ(us.loss, them.win) << v << " " << material;
      EXPECT_EQ(us.draw, them.draw) << v << " " << material;
    }
}

TEST(WdlModel, MonotoneInTheValue) {
  for (int material : {1, 10, 30, 50, 78}) {
    search::WdlPerMille previous = wdl_from_value(0.0f, material);
    for (int i = 1; i <= 1000; ++i) {
      const search::WdlPerMille wdl = wdl_from_value(float(i) / 1000, material);
      EXPECT_GE(wdl.win, previous.win) << i << " " << material;
      EXPECT_LE(wdl.loss, previous.loss) << i << " " << material;
      previous = wdl;
    }
  }
}

TEST(WdlModel, DecidedScoresAreDecided) {
  EXPECT_GE(wdl_from_value(0.999f, kStart).win, 990);
  EXPECT_GE(wdl_from_value(0.001f, kStart).loss, 990);
}

TEST(WdlModel, EvenEndingsAreMostlyDrawn) {
  // King and pawn against king (m = 1), even: W = s^2 would say 250 / 500 / 250.
  const search::WdlPerMille kpk = wdl_from_value(0.5f, 1);
  EXPECT_GT(kpk.draw, 800);
  EXPECT_EQ(kpk.win, kpk.loss);
  // Even with every piece on the board draws are fewer than in a bare ending.
  EXPECT_LT(wdl_from_value(0.5f, kStart).draw, kpk.draw);
}

TEST(WdlModel, APawnUpWinsMoreOftenWithMorePieces) {
  // The same score: +1 pawn in centipawns.
  const float pawn_up = 1 / (1 + std::exp(-0.00368208f * 100));
  ASSERT_EQ(search::centipawns_from_win_probability(pawn_up), 100);
  EXPECT_GT(wdl_from_value(pawn_up, 60).win, wdl_from_value(pawn_up, 5).win);
}

}  // namespace
}  // namespace avocet::uci
