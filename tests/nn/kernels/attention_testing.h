// Shared by the attention kernels' tests: the shapes they run on, and each kernel against
// attention_reference (nn/attention.h) by normalised error on random inputs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "avocet/nn/attention.h"
#include "avocet/nn/kernels/bf16_gemm.h"
#include "gemm_testing.h"

namespace avocet::nn::testing {

// Only the order of the fp32 sums, the exp polynomial (relative error ~2e-7) and where the
// softmax is normalised differ: squared relative error ~1e-13.
inline constexpr double kKernelNmse = 1e-10;

struct AttentionShape {
  int tokens, d, heads;
};

using Kernel = void (*)(const float*, int, int, int, int, const AttentionTerms&, float*, int,
                        HeadRange);

// A kernel and what it may differ from the reference by.
struct KernelUnderTest {
  Kernel run;
  double bound = kKernelNmse;
  bool bf16_inputs = false;  // the reference gets Q, K and V rounded to bf16 as the kernel does
};

inline std::vector<float> rounded_to_bf16(std::vector<float> values) {
  for (float& v : values) v = bf16::from_bf16(bf16::to_bf16(v));
  return values;
}

// The house trunk at d = 128 and 256 (77 tokens), the searchless one (79), and awkward ones:
// one token, a partial last key block, heads of 8, 24 and 96 columns (not whole registers,
// or more than four).
inline const AttentionShape kAttentionShapes[] = {{77, 128, 4}, {77, 256, 8}, {79, 256, 8},
                                                  {1, 32, 1},   {16, 64, 2},  {17, 16, 2},
                                                  {33, 48, 2},  {128, 96, 1}, {5, 192, 2}};

// Runs the kernel and the reference on random scores (a few units, as trained nets have, so
// the softmax is neither flat nor one-hot) with strides wider than the rows, checks their
// normalised error and that the padding between output rows is never written; returns the
// error. `terms` holds the relative tables, if any; the bias is added when `with_bias`.
inline double compare_kernel_with_reference(const AttentionShape& s, AttentionTerms terms,
                                            bool with_bias, uint64_t& seed,
                                            const KernelUnderTest& kernel) {
  const int qkv_stride = 3 * s.d + 5, out_stride = s.d + 3;
  const std::vector<float> qkv = random_values(size_t(s.tokens * qkv_stride), seed++, 1.5f);
  const std::vector<float> before = random_values(size_t(s.tokens * out_stride), seed++);
  const std::vector<float> biases =
      random_values(size_t(s.heads * s.tokens * s.tokens), seed++, 2.0f);
  terms.bias = with_bias ? biases.data() : nullptr;
  std::vector<float> reference = before, fast = before;
  attention_reference((kernel.bf16_inputs ? rounded_to_bf16(qkv) : qkv).data(), qkv_stride,
                      s.tokens, s.d, s.heads, terms, reference.data(), out_stride);
  kernel.run(qkv.data(), qkv_stride, s.tokens, s.d, s.heads, terms, fast.data(), out_stride, {});
  const std::string what =
      ::testing::PrintToString(std::vector<int>{s.tokens, s.d, s.heads, int(with_bias)});
  EXPECT_LE(nmse(fast, reference), kernel.bound) << what;
  for (int r = 0; r < s.tokens; ++r)
    for (int c = s.d; c < out_stride; ++c)
      EXPECT_EQ(fast[size_t(r * out_stride + c)], before[size_t(r * out_stride + c)]) << what;
  return nmse(fast, reference);
}

// A row of uniform scores gives the mean of V exactly; a dominant key gives its value.
inline void expect_uniform_and_one_hot_scores(Kernel kernel) {
  const int tokens = 3, d = 16;
  std::vector<float> qkv(size_t(tokens * 3 * d), 0.0f);
  for (int j = 0; j < tokens; ++j)
    for (int c = 0; c < d; ++c) qkv[size_t(j * 3 * d + 2 * d + c)] = float(j + 1);  // V
  std::vector<float> out(size_t(tokens * d));
  kernel(qkv.data(), 3 * d, tokens, d, 1, {}, out.data(), d, {});  // Q = K = 0: uniform
  for (float v : out) EXPECT_NEAR(v, 2.0f, 1e-6f);
  for (int c = 0; c < d; ++c) {
    qkv[size_t(c)] = 10.0f;                  // query 0
    qkv[size_t(2 * 3 * d + d + c)] = 10.0f;  // key 2: score 400 / 4, the others 0
  }
  kernel(qkv.data(), 3 * d, tokens, d, 1, {}, out.data(), d, {});
  EXPECT_NEAR(out[0], 3.0f, 1e-6f);
  // With Q = K = 0, a bias of 100 on key 0 for query 1 alone makes query 1 read V_0.
  std::fill(qkv.begin(), qkv.end(), 0.0f);
  for (int j = 0; j < tokens; ++j)
    for (int c = 0; c < d; ++c) qkv[size_t(j * 3 * d + 2 * d + c)] = float(j + 1);
  std::vector<float> bias(size_t(tokens * tokens), 0.0f);
  bias[size_t(1 * tokens + 0)] = 100.0f;
  kernel(qkv.data(), 3 * d, tokens, d, 1, {bias.data()}, out.data(), d, {});
  EXPECT_NEAR(out[0], 2.0f, 1e-6f);          // query 0: uniform
  EXPECT_NEAR(out[size_t(d)], 1.0f, 1e-6f);  // query 1: V_0
}

}  // namespace avocet::nn::testing
