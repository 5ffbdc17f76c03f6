// The bench's signature on the material evaluator: reproducible, and moved by the search
// parameters it is given (`avocet bench --set`), so that a change behind an option has a
// count of its own.
#include "avocet/engine/bench.h"

#include <gtest/gtest.h>

#include <memory>

#include "avocet/nn/material_evaluator.h"
#include "avocet/search/puct.h"

namespace avocet::engine {
namespace {

uint64_t bench_nodes(const search::SearchParameters& params) {
  const EvaluatorFactory material = [] { return std::make_unique<nn::MaterialEvaluator>(); };
  return run_bench(material, "material", 6, nullptr, params).nodes;
}

// `bench --set SearchMode=probability`.
TEST(Bench, ProbabilityCountIsReproducibleAndFollowsTheParameters) {
  search::SearchParameters probability;
  probability.mode = search::SearchMode::Probability;
  const uint64_t count = bench_nodes(probability);
  EXPECT_GT(count, 10u);
  EXPECT_EQ(bench_nodes(probability), count);
  search::SearchParameters wider = probability;
  wider.policy_temperature = 0.09;
  EXPECT_NE(bench_nodes(wider), count);
  search::SearchParameters fewer_extensions = probability;
  fewer_extensions.forcing_extensions = 0;
  EXPECT_NE(bench_nodes(fewer_extensions), count);
}

// `bench` (PUCT, the default): a count of its own, the same every time. Each position gets the
// root's pass and the playouts of 6 iterations (8 << 5), fewer where the solver ends it early.
TEST(Bench, PuctHasItsOwnReproducibleCount) {
  search::SearchParameters puct;
  ASSERT_EQ(puct.mode, search::SearchMode::Puct);
  const uint64_t count = bench_nodes(puct);
  EXPECT_EQ(bench_nodes(puct), count);
  search::SearchParameters probability;
  probability.mode = search::SearchMode::Probability;
  EXPECT_NE(count, bench_nodes(probability));
  EXPECT_LE(count, 10 * (1 + search::PuctSearcher::playouts_for_iterations(6)));
  EXPECT_GT(count, 5 * (1 + search::PuctSearcher::playouts_for_iterations(6)));
}

}  // namespace
}  // namespace avocet::engine
