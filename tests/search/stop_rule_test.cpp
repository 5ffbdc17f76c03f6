// The stop rule: every limit of `go`, judged in one place for every search.
#include "avocet/search/stop_rule.h"

#include <gtest/gtest.h>

#include <chrono>

#include "avocet/search/value.h"

namespace avocet::search {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

TEST(StopRule, WithoutLimitsOnlyAHardStopEndsTheSearch) {  // `go infinite`
  const Limits limits;
  SearchControl control;
  const StopRule rule(limits, control, Clock::now());
  SearchState state;
  state.iterations = 1000;
  state.depth = 1000;
  state.best_value = mating_value(1);
  EXPECT_FALSE(rule.done(state));
  EXPECT_FALSE(rule.soft_budget(1.0));
  control.stop = true;
  EXPECT_TRUE(rule.hard_stop());
  EXPECT_TRUE(rule.done(state));
}

TEST(StopRule, ASolvedRootEndsEverySearch) {
  const Limits limits;
  SearchControl control;
  const StopRule rule(limits, control, Clock::now());
  SearchState state;
  state.solved = true;
  EXPECT_TRUE(rule.done(state));
}

TEST(StopRule, DepthAndIterations) {
  Limits limits;
  limits.depth = 5;
  SearchControl control;
  const StopRule rule(limits, control, Clock::now());
  SearchState state;
  state.depth = 4;
  EXPECT_FALSE(rule.done(state));
  state.exhausted = true;  // no room to go deeper: `go depth` ends rather than waits
  EXPECT_TRUE(rule.done(state));
  state.exhausted = false;
  state.depth = 5;
  EXPECT_TRUE(rule.done(state));

  Limits bench;
  bench.iterations = 3;
  const StopRule by_iterations(bench, control, Clock::now());
  state = {};
  state.iterations = 2;
  EXPECT_FALSE(by_iterations.done(state));
  state.iterations = 3;
  EXPECT_TRUE(by_iterations.done(state));
}

TEST(StopRule, GoMateStopsAtAMateInAtMostItsMovesFoundByTheSearch) {
  Limits limits;
  limits.mate = 3;
  SearchControl control;
  const StopRule rule(limits, control, Clock::now());
  SearchState state;
  state.best_value = mating_value(7);  // mate in 4
  EXPECT_FALSE(rule.done(state));
  state.best_value = mating_value(5);  // mate in 3
  EXPECT_TRUE(rule.done(state));
  state.best_value = mated_value(2);  // being mated is not what `go mate` looks for
  EXPECT_FALSE(rule.done(state));
  state.best_value = tablebase_win_value(3);  // a table's win names no mate
  EXPECT_FALSE(rule.done(state));
}

TEST(StopRule, TheSoftBudgetScalesWithTheFactorAndWaitsWhilePondering) {
  const auto start = Clock::now() - milliseconds(100);
  Limits limits;
  limits.start = start;
  limits.soft_deadline = start + milliseconds(50);
  SearchControl control;
  const StopRule rule(limits, control, Clock::now());
  SearchState state;
  EXPECT_TRUE(rule.done(state));  // 100 ms spent of 50
  ASSERT_TRUE(rule.soft_budget(4.0));
  EXPECT_NEAR(rule.soft_budget(4.0)->count(), 0.2, 1e-9);
  state.time_factor = 4.0;  // 200 ms wanted: not yet
  EXPECT_FALSE(rule.done(state));
  // The budget runs from when the clock began, not from the search's own start.
  EXPECT_GE(rule.elapsed().count(), 0.1);
  EXPECT_LT(rule.searched().count(), rule.elapsed().count());

  control.pondering = true;
  state.time_factor = 1.0;
  EXPECT_FALSE(rule.soft_budget(1.0));
  EXPECT_FALSE(rule.done(state));
}

}  // namespace
}  // namespace avocet::search
