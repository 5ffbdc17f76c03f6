// Time use between iterations: how much of the soft budget the search spends.
#include <gtest/gtest.h>

#include <cmath>

#include "avocet/search/time_manager.h"

namespace avocet::search {
namespace {

TEST(SoftTimeFactor, AChangedBestMoveGetsTheMostTime) {
  EXPECT_DOUBLE_EQ(soft_time_factor(true, 0.0f, 0, 0.5f), 1.8);
  EXPECT_DOUBLE_EQ(soft_time_factor(true, 0.2f, 5, 0.5f), 1.8);
}

TEST(SoftTimeFactor, AFallingValueGetsMoreTime) {
  EXPECT_DOUBLE_EQ(soft_time_factor(false, 0.04f, 5, 0.5f), 1.4);
  EXPECT_DOUBLE_EQ(soft_time_factor(false, 0.03f, 0, 0.0f), 1.0);
}

TEST(SoftTimeFactor, AStableClearBestMoveGetsLess) {
  EXPECT_DOUBLE_EQ(soft_time_factor(false, 0.0f, 3, 0.1f), 0.6);
  EXPECT_DOUBLE_EQ(soft_time_factor(false, 0.0f, 2, 0.5f), 1.0);   // not stable long enough
  EXPECT_DOUBLE_EQ(soft_time_factor(false, 0.0f, 9, 0.05f), 1.0);  // margin too small
  EXPECT_DOUBLE_EQ(soft_time_factor(false, -0.1f, 3, 0.2f), 0.6);  // a rising value is no alarm
}

TEST(PredictedIteration, FollowsTheGrowthOfTheLastTwoWithinBounds) {
  EXPECT_DOUBLE_EQ(predicted_iteration_seconds(0.1, std::nullopt), 0.2);  // doubling assumed
  EXPECT_DOUBLE_EQ(predicted_iteration_seconds(0.1, 0.04), 0.25);         // grew 2.5x
  EXPECT_DOUBLE_EQ(predicted_iteration_seconds(0.1, 0.001), 0.3);         // at most 3x
  EXPECT_DOUBLE_EQ(predicted_iteration_seconds(0.1, 0.1), 0.15);          // at least 1.5x
  EXPECT_DOUBLE_EQ(predicted_iteration_seconds(0.1, 0.0), 0.2);           // no ratio from 0
}

TEST(StartNextIteration, OnlyWhenPredictedToEndNearThePlanAndBeforeTheHardLimit) {
  EXPECT_TRUE(start_next_iteration(0.2, 0.2, 0.5, 2.0));    // ends at 0.4 < 0.5
  EXPECT_TRUE(start_next_iteration(0.3, 0.4, 0.5, 2.0));    // 0.7 <= 1.4 x 0.5
  EXPECT_FALSE(start_next_iteration(0.3, 0.45, 0.5, 2.0));  // 0.75 > 0.7
  EXPECT_FALSE(start_next_iteration(0.1, 0.5, 1.0, 0.5));   // the hard limit would cut it
  EXPECT_TRUE(start_next_iteration(0.1, 0.5, 1.0, std::nullopt));
}

// Iterations that double in cost, started at a random phase: the time a move takes averages
// about the plan and never leaves [plan x stretch / 2, plan x stretch].
TEST(StartNextIteration, DoublingIterationsSpendThePlanOnAverage) {
  const double plan = 1.0;
  double total = 0;
  constexpr int kPhases = 1000;
  for (int i = 0; i < kPhases; ++i) {
    double iteration = 0.001 * std::pow(2.0, double(i) / kPhases);
    double elapsed = iteration;
    std::optional<double> previous;
    while (start_next_iteration(elapsed, predicted_iteration_seconds(iteration, previous), plan,
                                10.0)) {
      previous = iteration;
      iteration *= 2;
      elapsed += iteration;
    }
    EXPECT_LE(elapsed, kPlanStretch * plan + 1e-9);
    EXPECT_GT(elapsed, kPlanStretch * plan / 2 - 0.01);
    total += elapsed;
  }
  EXPECT_NEAR(total / kPhases, plan, 0.05);
}

}  // namespace
}  // namespace avocet::search
