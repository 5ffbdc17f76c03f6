// Time use between iterations: how much of the soft budget the search spends.
#include <gtest/gtest.h>

#include "avocet/search/probability_search.h"

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

}  // namespace
}  // namespace avocet::search
