#include "avocet/nn/material_evaluator.h"

#include <gtest/gtest.h>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"

namespace avocet::nn {
namespace {

TEST(MaterialEvaluator, CapturesScoreByMaterialAndBinsMatch) {
  // White can take the queen on d5 with the pawn or leave it.
  const Position pos = Position::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");
  const MoveList moves = legal_moves(pos);
  MaterialEvaluator evaluator;
  std::vector<float> win(moves.size());
  evaluator.evaluate(pos, {moves.begin(), moves.size()}, win);
  std::vector<float> bins(moves.size() * MaterialEvaluator::kBins);
  evaluator.evaluate_bins(pos, {moves.begin(), moves.size()}, bins);
  for (size_t i = 0; i < moves.size(); ++i) {
    const float expected = to_uci(moves[i]) == "e4d5" ? MaterialEvaluator::win_probability(1)
                                                      : MaterialEvaluator::win_probability(-8);
    EXPECT_FLOAT_EQ(win[i], expected) << to_uci(moves[i]);
    EXPECT_NEAR(expected_win_probability(
                    {bins.data() + i * MaterialEvaluator::kBins, MaterialEvaluator::kBins}),
                win[i], 1e-5);
  }
  EXPECT_FLOAT_EQ(MaterialEvaluator::win_probability(0), 0.5f);
}

}  // namespace
}  // namespace avocet::nn
