// The AVX2 attention kernel (nn/kernels/attention_avx2.h) against the Eigen reference by
// normalised error, on the trunk's shapes, awkward ones and more tokens than the AVX-512 kernel
// takes, with strides wider than the rows, with and without the bias.
#include "avocet/nn/kernels/attention_avx2.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <vector>

#include "attention_testing.h"

namespace avocet::nn {
namespace {

using testing::AttentionShape;
using testing::compare_kernel_with_reference;
using testing::kAttentionShapes;
using testing::kKernelNmse;

// The AVX2 kernel on the shapes above (every head a multiple of 8 columns) and more tokens than
// the AVX-512 kernel takes, with and without the bias.
TEST(Attention, Avx2KernelMatchesTheReference) {
  std::vector<AttentionShape> shapes(std::begin(kAttentionShapes), std::end(kAttentionShapes));
  shapes.push_back({130, 64, 2});
  shapes.push_back({9, 40, 5});
  uint64_t seed = 61;
  double worst = 0;
  for (const bool with_bias : {false, true})
    for (const AttentionShape& s : shapes) {
      if (!attention_avx2_supported(s.d / s.heads, {})) GTEST_SKIP() << "no AVX2 on this CPU";
      worst = std::max(worst, compare_kernel_with_reference(s, {}, with_bias, seed,
                                                            {&attention_avx2, kKernelNmse}));
    }
  std::cout << "worst NMSE of the AVX2 attention against the reference: " << worst << "\n";
}

// Where the AVX2 kernel does not run: relative terms, and heads not a multiple of 8 columns.
TEST(Attention, Avx2KernelTakesWholeRegistersAndNoRelativeTerms) {
  if (!attention_avx2_supported(32, {})) GTEST_SKIP() << "no AVX2 on this CPU";
  const float table = 0.0f;
  EXPECT_FALSE(attention_avx2_supported(32, {nullptr, &table, &table, &table}));
  EXPECT_FALSE(attention_avx2_supported(12, {}));
  EXPECT_TRUE(attention_avx2_supported(8, {}));
}

TEST(Attention, Avx2KernelOnUniformAndOneHotScores) {
  if (!attention_avx2_supported(16, {})) GTEST_SKIP() << "no AVX2 on this CPU";
  testing::expect_uniform_and_one_hot_scores(&attention_avx2);
}

}  // namespace
}  // namespace avocet::nn
