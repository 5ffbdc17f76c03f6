// The AVX-512 attention kernel (nn/attention.h) against the Eigen reference by normalised
// error, on the trunk's shapes and awkward ones, with strides wider than the rows.
#include "avocet/nn/attention.h"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "gemm_testing.h"

namespace avocet::nn {
namespace {

using testing::nmse;
using testing::random_values;

// Only the order of the fp32 sums, the exp polynomial (relative error ~2e-7) and where the
// softmax is normalised differ: squared relative error ~1e-13.
constexpr double kKernelNmse = 1e-10;

struct AttentionShape {
  int tokens, d, heads;
};

// The house trunk at d = 128 and 256 (77 tokens), the searchless one (79), and awkward ones:
// one token, a partial last key block, heads of 8, 24 and 96 columns (not whole registers,
// or more than four).
const AttentionShape kShapes[] = {{77, 128, 4}, {77, 256, 8}, {79, 256, 8}, {1, 32, 1}, {16, 64, 2},
                                  {17, 16, 2},  {33, 48, 2},  {128, 96, 1}, {5, 192, 2}};

TEST(Attention, Avx512KernelMatchesTheReference) {
  uint64_t seed = 11;
  double worst = 0;
  for (const AttentionShape& s : kShapes) {
    if (!attention_avx512_supported(s.tokens)) GTEST_SKIP() << "no AVX-512 on this CPU";
    const int qkv_stride = 3 * s.d + 5, out_stride = s.d + 3;
    // Scores of a few units, as trained nets have, so the softmax is neither flat nor one-hot.
    const std::vector<float> qkv = random_values(size_t(s.tokens * qkv_stride), seed++, 1.5f);
    const std::vector<float> before = random_values(size_t(s.tokens * out_stride), seed++);
    std::vector<float> reference = before, fast = before;
    attention_reference(qkv.data(), qkv_stride, s.tokens, s.d, s.heads, reference.data(),
                        out_stride);
    attention_avx512(qkv.data(), qkv_stride, s.tokens, s.d, s.heads, fast.data(), out_stride);
    const std::string what = ::testing::PrintToString(std::vector<int>{s.tokens, s.d, s.heads});
    EXPECT_LE(nmse(fast, reference), kKernelNmse) << what;
    worst = std::max(worst, nmse(fast, reference));
    // The padding between rows is never written.
    for (int r = 0; r < s.tokens; ++r)
      for (int c = s.d; c < out_stride; ++c)
        ASSERT_EQ(fast[size_t(r * out_stride + c)], before[size_t(r * out_stride + c)]) << what;
  }
  std::cout << "worst NMSE of the AVX-512 attention against the reference: " << worst << "\n";
}

// The comparison can fail: the reference against itself with two heads' keys swapped.
TEST(Attention, NmseCatchesSwappedHeads) {
  const AttentionShape s{20, 64, 2};
  std::vector<float> qkv = random_values(size_t(s.tokens * 3 * s.d), 3, 1.5f);
  std::vector<float> a(size_t(s.tokens * s.d)), b(a.size());
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads, a.data(), s.d);
  for (int r = 0; r < s.tokens; ++r)
    for (int c = 0; c < 32; ++c)
      std::swap(qkv[size_t(r * 3 * s.d + s.d + c)], qkv[size_t(r * 3 * s.d + s.d + 32 + c)]);
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads, b.data(), s.d);
  EXPECT_GT(nmse(b, a), 1e-3);
}

// A row of uniform scores gives the mean of V exactly; a dominant key gives its value.
TEST(Attention, Avx512KernelOnUniformAndOneHotScores) {
  if (!attention_avx512_supported(3)) GTEST_SKIP() << "no AVX-512 on this CPU";
  const int tokens = 3, d = 16;
  std::vector<float> qkv(size_t(tokens * 3 * d), 0.0f);
  for (int j = 0; j < tokens; ++j)
    for (int c = 0; c < d; ++c) qkv[size_t(j * 3 * d + 2 * d + c)] = float(j + 1);  // V
  std::vector<float> out(size_t(tokens * d));
  attention_avx512(qkv.data(), 3 * d, tokens, d, 1, out.data(), d);  // Q = K = 0: uniform
  for (float v : out) EXPECT_NEAR(v, 2.0f, 1e-6f);
  for (int c = 0; c < d; ++c) {
    qkv[size_t(c)] = 10.0f;                  // query 0
    qkv[size_t(2 * 3 * d + d + c)] = 10.0f;  // key 2: score 400 / 4, the others 0
  }
  attention_avx512(qkv.data(), 3 * d, tokens, d, 1, out.data(), d);
  EXPECT_NEAR(out[0], 3.0f, 1e-6f);
}

}  // namespace
}  // namespace avocet::nn
