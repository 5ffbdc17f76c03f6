// The AVX-512 attention kernels (nn/kernels/attention_avx512.h) against the Eigen reference by
// normalised error, on the trunk's shapes and awkward ones, with strides wider than the rows,
// with and without the bias and the relative position terms; the bf16 kernel also against the
// reference given the same bf16-rounded Q, K and V.
#include "avocet/nn/kernels/attention_avx512.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

#include "attention_testing.h"
#include "gemm_testing.h"

namespace avocet::nn {
namespace {

using testing::AttentionShape;
using testing::compare_kernel_with_reference;
using testing::kAttentionShapes;
using testing::KernelUnderTest;
using testing::kKernelNmse;
using testing::nmse;
using testing::random_values;

// With and without a learned logit bias (AttentionPosition::Bias).
TEST(Attention, Avx512KernelMatchesTheReference) {
  uint64_t seed = 11;
  double worst = 0;
  for (const bool with_bias : {false, true})
    for (const AttentionShape& s : kAttentionShapes) {
      if (!attention_avx512_supported(s.tokens)) GTEST_SKIP() << "no AVX-512 on this CPU";
      worst = std::max(worst, compare_kernel_with_reference(s, {}, with_bias, seed,
                                                            {&attention_avx512, kKernelNmse}));
    }
  std::cout << "worst NMSE of the AVX-512 attention against the reference: " << worst << "\n";
}

// The bf16 kernel (heads of a multiple of 32 columns, no relative terms) against the reference
// given the same bf16-rounded Q, K and V, where only the rounding of the softmax weights (8
// bits) and the order of the sums differ, and against the plain reference, where the rounding
// of the inputs adds to that. Both bounds hold with about 10x to spare.
TEST(Attention, Avx512Bf16KernelMatchesTheReference) {
  const AttentionShape shapes[] = {{77, 128, 4}, {77, 256, 8}, {79, 256, 8},
                                   {1, 32, 1},   {16, 64, 2},  {17, 32, 1},
                                   {33, 64, 1},  {128, 96, 3}, {5, 192, 2}};
  uint64_t seed = 51;
  double worst[2] = {0, 0};
  for (const bool bf16_inputs : {true, false})
    for (const bool with_bias : {false, true})
      for (const AttentionShape& s : shapes) {
        if (!attention_avx512_bf16_supported(s.tokens, s.d / s.heads, {}))
          GTEST_SKIP() << "no AVX-512 BF16 on this CPU";
        const KernelUnderTest kernel{&attention_avx512_bf16, bf16_inputs ? 1e-5 : 2e-4,
                                     bf16_inputs};
        worst[bf16_inputs] = std::max(
            worst[bf16_inputs], compare_kernel_with_reference(s, {}, with_bias, seed, kernel));
      }
  std::cout << "worst NMSE of the bf16 attention against the reference: " << worst[1]
            << " (inputs rounded alike), " << worst[0] << " (plain)\n";
}

// Where the bf16 kernel does not run: relative terms, and heads not a multiple of 32 columns.
TEST(Attention, Avx512Bf16KernelTakesOnlyWholeRegistersOfPairsAndNoRelativeTerms) {
  if (!attention_avx512_bf16_supported(77, 32, {})) GTEST_SKIP() << "no AVX-512 BF16 on this CPU";
  const float table = 0.0f;
  EXPECT_FALSE(attention_avx512_bf16_supported(77, 32, {nullptr, &table, &table, &table}));
  EXPECT_FALSE(attention_avx512_bf16_supported(77, 48, {}));
  EXPECT_FALSE(attention_avx512_bf16_supported(kMaxAvx512Tokens + 1, 32, {}));
  EXPECT_TRUE(attention_avx512_bf16_supported(kMaxAvx512Tokens, 64, {}));
}

// The relative terms in the AVX-512 kernel against the reference, with and without the bias, on
// random tables (no symmetry between offsets, so a mirrored rank or file, a transposed table or A
// and B swapped would show): the house trunk's 77 tokens (13 of them not squares, which take no
// relative terms), the fewest that hold the squares (65), a partial key block (70), 79 and 128
// tokens, and heads of 8, 16, 20, 24, 32 and 96 columns (not whole registers, or more than two).
TEST(Attention, Avx512KernelWithRelativeTermsMatchesTheReference) {
  const AttentionShape shapes[] = {{77, 128, 4}, {77, 256, 8}, {65, 32, 4}, {70, 48, 2},
                                   {79, 96, 1},  {128, 24, 1}, {77, 40, 2}, {66, 16, 1}};
  uint64_t seed = 31;
  double worst = 0;
  for (const bool with_bias : {false, true})
    for (const AttentionShape& s : shapes) {
      if (!attention_avx512_supported(s.tokens)) GTEST_SKIP() << "no AVX-512 on this CPU";
      const int head_size = s.d / s.heads;
      std::vector<std::vector<float>> tables;
      for (int table = 0; table < 3; ++table)
        tables.push_back(
            random_values(size_t(s.heads * kRelativeOffsets * head_size), seed++, 0.5f));
      const AttentionTerms terms{nullptr, tables[0].data(), tables[1].data(), tables[2].data()};
      worst = std::max(worst, compare_kernel_with_reference(s, terms, with_bias, seed,
                                                            {&attention_avx512, kKernelNmse}));
    }
  std::cout << "worst NMSE of the AVX-512 attention with relative terms against the reference: "
            << worst << "\n";
}

// The comparison above can fail on each table: the kernel with any one of A, B and C set to zero
// is far from the reference with all three.
TEST(Attention, Avx512KernelUsesEveryRelativeTable) {
  const AttentionShape s{77, 64, 2};
  if (!attention_avx512_supported(s.tokens)) GTEST_SKIP() << "no AVX-512 on this CPU";
  const int head_size = s.d / s.heads;
  const std::vector<float> qkv = random_values(size_t(s.tokens * 3 * s.d), 41, 1.5f);
  std::vector<std::vector<float>> tables;
  for (uint64_t table_seed : {42, 43, 44})
    tables.push_back(
        random_values(size_t(s.heads * kRelativeOffsets * head_size), table_seed, 0.5f));
  std::vector<float> reference(size_t(s.tokens * s.d)), fast(reference.size());
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads,
                      {nullptr, tables[0].data(), tables[1].data(), tables[2].data()},
                      reference.data(), s.d);
  const std::vector<float> zeros(tables[0].size(), 0.0f);
  for (int zeroed = 0; zeroed < 3; ++zeroed) {
    const auto table = [&](int which) {
      return which == zeroed ? zeros.data() : tables[size_t(which)].data();
    };
    attention_avx512(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads,
                     {nullptr, table(0), table(1), table(2)}, fast.data(), s.d);
    EXPECT_GT(nmse(fast, reference), 1e-4) << "table " << zeroed << " zeroed";
  }
}

TEST(Attention, Avx512KernelOnUniformAndOneHotScores) {
  if (!attention_avx512_supported(3)) GTEST_SKIP() << "no AVX-512 on this CPU";
  testing::expect_uniform_and_one_hot_scores(&attention_avx512);
}

}  // namespace
}  // namespace avocet::nn
