// Evaluator::evaluate_batch against evaluate, position by position: a batch gives each position
// the values it gets alone (up to the order of additions in Eigen's fp32 products), whatever
// positions come with it, with one thread or two, on every network family and precision.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/nn/network.h"
#include "cpu_level_testing.h"

namespace avocet::nn {
namespace {

struct BatchSample {
  Position position;
  MoveList moves;
};

std::vector<BatchSample> batch_positions() {
  std::vector<BatchSample> samples;
  std::ifstream fens(avocet::testing::data_path("parity_fens.txt"));
  for (std::string fen; std::getline(fens, fen);) {
    if (fen.empty()) continue;
    BatchSample sample{Position::from_fen(fen), {}};
    sample.moves = legal_moves(sample.position);
    samples.push_back(sample);  // positions without moves too: a batch must skip them
  }
  return samples;
}

// Batches of 1, 2, 3, 5 and 8 over the positions in turn (so each position meets others in
// several batches), against each position evaluated alone.
void expect_batches_match(Evaluator& evaluator, const std::string& name) {
  const std::vector<BatchSample> samples = batch_positions();
  ASSERT_GE(samples.size(), 20u);
  std::vector<std::vector<float>> alone;
  for (const BatchSample& s : samples) {
    alone.emplace_back(s.moves.size());
    evaluator.evaluate(s.position, {s.moves.begin(), s.moves.size()}, alone.back());
  }
  for (const size_t size : {1, 2, 3, 5, 8}) {
    for (size_t first = 0; first < samples.size(); first += size) {
      const size_t end = std::min(samples.size(), first + size);
      std::vector<std::vector<float>> values;
      for (size_t i = first; i < end; ++i) values.emplace_back(samples[i].moves.size(), -1.0f);
      std::vector<BatchItem> items;
      for (size_t i = first; i < end; ++i)
        items.push_back({&samples[i].position,
                         {samples[i].moves.begin(), samples[i].moves.size()},
                         values[i - first]});
      evaluator.evaluate_batch(items);
      for (size_t i = first; i < end; ++i)
        for (size_t m = 0; m < samples[i].moves.size(); ++m)
          ASSERT_NEAR(values[i - first][m], alone[i][m], 1e-5f)
              << name << ", batch of " << size << " from " << first << ", position " << i
              << ", move " << m;
    }
  }
}

std::vector<Precision> precisions_to_batch() {
  std::vector<Precision> supported;
  for (Precision p : {Precision::Fp32, Precision::Bf16, Precision::Int8})
    if (precision_supported(p)) supported.push_back(p);
  return supported;
}

TEST(BatchEvaluation, EachPositionGetsItsValuesAlone) {
  for (const CpuLevel level : testing::levels_up_to_this_cpu()) {
    const testing::CpuLevelLimit limit(level);
    for (const char* model : {"tiny_house", "tiny_house_mirror_bf16", "tiny_house_features",
                              "tiny_house_bias", "tiny_house_relative", "tiny_searchless"})
      for (const Precision p : precisions_to_batch())
        for (const int threads : {1, 2}) {
          const auto evaluator = make_evaluator(Network::load_file(
              avocet::testing::data_path(std::string(model) + ".safetensors"), p));
          evaluator->set_threads(threads);
          expect_batches_match(*evaluator, std::string(testing::level_name(level)) + " " + model +
                                               " " + std::string(precision_name(p)) + " x" +
                                               std::to_string(threads));
        }
  }
}

TEST(BatchEvaluation, TheDefaultNetGivesEachPositionItsValuesAlone) {
  for (const Precision p : precisions_to_batch()) {
    const auto evaluator = make_evaluator(default_network(p));
    expect_batches_match(*evaluator, std::string("default ") + std::string(precision_name(p)));
  }
}

TEST(BatchEvaluation, TheDefaultLoopServesOtherEvaluators) {
  MaterialEvaluator evaluator;
  expect_batches_match(evaluator, "material");
}

}  // namespace
}  // namespace avocet::nn
