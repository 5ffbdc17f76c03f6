// Engine's own duties, apart from the search it runs: when the table is sized, and how Threads is
// spent.
#include "avocet/engine/engine.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "avocet/nn/material_evaluator.h"

namespace avocet::engine {
namespace {

// Memory stays at Hash plus the net: no default-sized table is allocated before the GUI's
// Hash arrives, whatever order the options come in.
TEST(Engine, HashTableIsSizedOnceByTheOptionsOrTheFirstGo) {
  Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  EXPECT_EQ(engine.hash_megabytes(), 0u);
  Settings settings = engine.settings();
  settings.engine.threads = 2;
  engine.configure(settings);
  EXPECT_EQ(engine.hash_megabytes(), 0u);
  settings.engine.hash_mb = 8;
  engine.configure(settings);
  EXPECT_EQ(engine.hash_megabytes(), 8u);
  GoRequest request;
  request.nodes = 20;
  engine.go(request, {});
  engine.wait();
  EXPECT_EQ(engine.hash_megabytes(), 8u);

  Engine fresh([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  fresh.go(request, {});
  fresh.wait();
  EXPECT_EQ(fresh.hash_megabytes(), size_t(EngineOptions{}.hash_mb));
}

TEST(ThreadPlan, ThreadsPairUpOnEvaluationsAndAnOddOneSearchesAlone) {
  const auto plan = [](int threads) {
    const ThreadPlan p = thread_plan(threads);
    return std::pair{p.searching, p.split_evaluations};
  };
  EXPECT_EQ(plan(1), std::pair(1, 0));
  EXPECT_EQ(plan(2), std::pair(1, 1));
  EXPECT_EQ(plan(3), std::pair(2, 1));
  EXPECT_EQ(plan(4), std::pair(2, 2));
  EXPECT_EQ(plan(7), std::pair(4, 3));
  EXPECT_EQ(plan(256), std::pair(128, 128));
}

}  // namespace
}  // namespace avocet::engine
