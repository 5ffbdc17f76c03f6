// The trunk (nn/transformer.h): run_blocks with read_rows, which finishes the last block on
// the rows the caller reads alone, gives those rows the values of a full run.
#include "avocet/nn/transformer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/nn/helper_thread.h"
#include "avocet/nn/network.h"
#include "cpu_level_testing.h"

namespace avocet::nn {
namespace {

// Token ids for one sequence, spread over the vocabulary.
std::vector<int> some_tokens(const TrunkWeights& w, int seed) {
  std::vector<int> tokens(size_t(w.sequence_length));
  for (size_t i = 0; i < tokens.size(); ++i)
    tokens[i] = int((i * 7 + size_t(seed) * 13) % size_t(w.embedding.rows()));
  return tokens;
}

// Whether the products that the read rows go through alone (the last block's out, gate_up and
// down) run in a bf16 or int8 kernel, which gives a row the same values whatever rows come with
// it (nn/kernels/int8_gemm.h). Eigen's product does not: a row that falls in another register block
// (or, alone, in its matrix-vector product) is summed in another order. Precision fp32 runs
// every product in Eigen, and int8 the ones a net names in int8_bf16 where the CPU has AVX-512
// VNNI but no BF16 (nn/transformer.h); the tiny nets name qkv, which runs on every row alike.
bool read_rows_products_in_kernels(const TrunkWeights& w) {
  const BlockWeights& last = w.blocks.back();
  for (const Linear* layer : {&last.out, &last.gate_up, &last.down})
    if (!layer->packed && !layer->quantized) return false;
  return true;
}

// ws.x's rows after a full run and after a run that reads only `read`, with and without a
// helper thread. Before the last block's second half both runs compute the same rows alike
// (the same split between threads), and after it LayerNorm and SwiGLU compute each row alone,
// so where the products do too the rows must match bit for bit. Where Eigen computes one they
// are held to its rounding: 1e-5 on values up to 4, 14 times the largest difference seen
// (7.2e-7, fp32, a few units in the last place).
void expect_read_rows_match(const std::string& model, Precision precision, CpuLevel level) {
  const auto network =
      Network::load_file(avocet::testing::data_path(model + ".safetensors"), precision);
  const TrunkWeights& w = network->trunk();
  const bool exact = read_rows_products_in_kernels(w);
  for (const std::vector<int>& read :
       {std::vector<int>{0}, std::vector<int>{5}, std::vector<int>{1, 2, 3, 40, 64},
        std::vector<int>{3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                         16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}}) {
    for (const bool two_threads : {false, true}) {
      const std::vector<int> tokens = some_tokens(w, int(read.size()));
      std::unique_ptr<HelperThread> helper;
      if (two_threads) helper = std::make_unique<HelperThread>();
      TrunkWorkspace full, partial;
      run_trunk(w, tokens.data(), 1, full, helper.get());
      embed_tokens(w, tokens.data(), 1, partial);
      run_blocks(w, 1, partial, helper.get(), read);
      for (const int row : read) {
        const std::string what = model + " " + std::string(precision_name(precision)) + " at " +
                                 testing::level_name(level) + ", row " + std::to_string(row) +
                                 (two_threads ? " two threads" : "") + " of " +
                                 std::to_string(read.size());
        if (exact) {
          EXPECT_EQ(Vector(partial.x.row(row)), Vector(full.x.row(row))) << what;
        } else {
          EXPECT_LE((partial.x.row(row) - full.x.row(row)).cwiseAbs().maxCoeff(), 1e-5f) << what;
        }
      }
    }
  }
}

// On every CPU level up to this one's (nn/cpu_level.h), in every precision it runs: the levels
// pick other kernels. (int8's VNNI kernel once rounded a row differently when fewer rows came
// with it, which the CPUs CI ran on never showed: gcc had fused its rescale's multiply-add in
// some block heights and not others.)
TEST(Trunk, ReadRowsGetTheValuesOfAFullRun) {
  for (const CpuLevel level : testing::levels_up_to_this_cpu()) {
    const testing::CpuLevelLimit limit(level);
    for (const Precision precision : {Precision::Fp32, Precision::Bf16, Precision::Int8}) {
      if (!precision_supported(precision)) continue;
      for (const std::string model : {"tiny_house", "tiny_house_relative"})
        expect_read_rows_match(model, precision, level);
    }
  }
}

}  // namespace
}  // namespace avocet::nn
