// The AVX-512 and AVX2 attention kernels (nn/attention.h) against the Eigen reference by
// normalised error, on the trunk's shapes and awkward ones, with strides wider than the rows, with
// and without the bias and the relative position terms; the bf16 kernel also against the reference
// given the same bf16-rounded Q, K and V.
#include "avocet/nn/attention.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "avocet/nn/bf16_gemm.h"
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

using Kernel = void (*)(const float*, int, int, int, int, const AttentionTerms&, float*, int,
                        HeadRange);

// A kernel and what it may differ from the reference by.
struct KernelUnderTest {
  Kernel run = &attention_avx512;
  double bound = kKernelNmse;
  bool bf16_inputs = false;  // the reference gets Q, K and V rounded to bf16 as the kernel does
};

std::vector<float> rounded_to_bf16(std::vector<float> values) {
  for (float& v : values) v = bf16::from_bf16(bf16::to_bf16(v));
  return values;
}

// The house trunk at d = 128 and 256 (77 tokens), the searchless one (79), and awkward ones:
// one token, a partial last key block, heads of 8, 24 and 96 columns (not whole registers,
// or more than four).
const AttentionShape kShapes[] = {{77, 128, 4}, {77, 256, 8}, {79, 256, 8}, {1, 32, 1}, {16, 64, 2},
                                  {17, 16, 2},  {33, 48, 2},  {128, 96, 1}, {5, 192, 2}};

// Runs the kernel and the reference on random scores (a few units, as trained nets have, so
// the softmax is neither flat nor one-hot) with strides wider than the rows, checks their
// normalised error and that the padding between output rows is never written; returns the
// error. `terms` holds the relative tables, if any; the bias is added when `with_bias`.
double compare_kernel_with_reference(const AttentionShape& s, AttentionTerms terms, bool with_bias,
                                     uint64_t& seed, const KernelUnderTest& kernel = {}) {
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

// With and without a learned logit bias (AttentionPosition::Bias).
TEST(Attention, Avx512KernelMatchesTheReference) {
  uint64_t seed = 11;
  double worst = 0;
  for (const bool with_bias : {false, true})
    for (const AttentionShape& s : kShapes) {
      if (!attention_avx512_supported(s.tokens)) GTEST_SKIP() << "no AVX-512 on this CPU";
      worst = std::max(worst, compare_kernel_with_reference(s, {}, with_bias, seed));
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

// The comparison can fail: the reference against itself with two heads' keys swapped.
TEST(Attention, NmseCatchesSwappedHeads) {
  const AttentionShape s{20, 64, 2};
  std::vector<float> qkv = random_values(size_t(s.tokens * 3 * s.d), 3, 1.5f);
  std::vector<float> a(size_t(s.tokens * s.d)), b(a.size());
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads, {}, a.data(), s.d);
  for (int r = 0; r < s.tokens; ++r)
    for (int c = 0; c < 32; ++c)
      std::swap(qkv[size_t(r * 3 * s.d + s.d + c)], qkv[size_t(r * 3 * s.d + s.d + 32 + c)]);
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads, {}, b.data(), s.d);
  EXPECT_GT(nmse(b, a), 1e-3);
}

// The bias is per (query, key) and per head: a bias transposed, or given to the other head,
// changes the result.
TEST(Attention, BiasIsPerQueryKeyAndHead) {
  const AttentionShape s{20, 64, 2};
  const std::vector<float> qkv = random_values(size_t(s.tokens * 3 * s.d), 5, 1.5f);
  std::vector<float> bias = random_values(size_t(s.heads * s.tokens * s.tokens), 6, 2.0f);
  std::vector<float> a(size_t(s.tokens * s.d)), b(a.size());
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads, {bias.data()}, a.data(), s.d);
  std::vector<float> transposed = bias;
  for (int h = 0; h < s.heads; ++h)
    for (int i = 0; i < s.tokens; ++i)
      for (int j = 0; j < s.tokens; ++j)
        transposed[size_t((h * s.tokens + i) * s.tokens + j)] =
            bias[size_t((h * s.tokens + j) * s.tokens + i)];
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads, {transposed.data()}, b.data(),
                      s.d);
  EXPECT_GT(nmse(b, a), 1e-3);
  std::vector<float> swapped(bias.begin() + s.tokens * s.tokens, bias.end());
  swapped.insert(swapped.end(), bias.begin(), bias.begin() + s.tokens * s.tokens);
  attention_reference(qkv.data(), 3 * s.d, s.tokens, s.d, s.heads, {swapped.data()}, b.data(), s.d);
  EXPECT_GT(nmse(b, a), 1e-3);
}

// The relative index: (query minus key) in (rank, file), from the side to move's view.
TEST(Attention, RelativeIndexIsRankAndFileOfQueryMinusKey) {
  const auto index = [](int query, int key) {
    return int(kRelativeIndex[size_t(query * 64 + key)]);
  };
  EXPECT_EQ(index(0, 0), 7 * 15 + 7);    // a8 to itself: no offset
  EXPECT_EQ(index(0, 63), 14 * 15 + 0);  // a8 - h1: 7 ranks up, 7 files left
  EXPECT_EQ(index(63, 0), 0 * 15 + 14);  // h1 - a8
  EXPECT_EQ(index(0, 1), 7 * 15 + 6);    // a8 - b8
  EXPECT_EQ(index(8, 0), 6 * 15 + 7);    // a7 - a8
  // Each query's 64 keys land on 64 distinct offsets (an 8 x 8 window of the 15 x 15 table).
  for (int i = 0; i < 64; ++i) {
    std::vector<bool> seen(kRelativeOffsets, false);
    for (int j = 0; j < 64; ++j) {
      ASSERT_FALSE(seen[size_t(index(i, j))]);
      seen[size_t(index(i, j))] = true;
    }
  }
}

// The relative terms against a direct evaluation of their definition (nn/attention.h) in
// double precision, on a sequence of 70 tokens with the squares at 1..64: tables A and B move
// the logits of square pairs only, C adds to square queries only.
TEST(Attention, RelativeTermsFollowTheirDefinition) {
  const int tokens = 70, d = 16, heads = 2, head_size = d / heads;
  const std::vector<float> qkv = random_values(size_t(tokens * 3 * d), 21, 1.0f);
  const std::vector<float> bias = random_values(size_t(heads * tokens * tokens), 22, 1.0f);
  std::vector<std::vector<float>> tables;
  for (uint64_t seed : {23, 24, 25})
    tables.push_back(random_values(size_t(heads * kRelativeOffsets * head_size), seed, 0.5f));
  const AttentionTerms terms{bias.data(), tables[0].data(), tables[1].data(), tables[2].data()};
  std::vector<float> out(size_t(tokens * d));
  attention_reference(qkv.data(), 3 * d, tokens, d, heads, terms, out.data(), d);

  std::vector<double> expected(out.size());
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < tokens; ++i) {
      const float* q = &qkv[size_t(i * 3 * d + h * head_size)];
      const auto table = [&](int which, int r) {
        return &tables[size_t(which)][size_t((h * kRelativeOffsets + r) * head_size)];
      };
      const auto square = [](int token) { return token >= 1 && token <= 64; };
      std::vector<double> logit(static_cast<size_t>(tokens));
      double max = -1e300;
      for (int j = 0; j < tokens; ++j) {
        const float* k = &qkv[size_t(j * 3 * d + d + h * head_size)];
        double s = 0;
        for (int c = 0; c < head_size; ++c) s += double(q[c]) * k[c];
        if (square(i) && square(j)) {
          const int r = kRelativeIndex[size_t((i - 1) * 64 + (j - 1))];
          for (int c = 0; c < head_size; ++c)
            s += double(q[c]) * table(0, r)[c] + double(k[c]) * table(1, r)[c];
        }
        logit[size_t(j)] =
            s / std::sqrt(double(head_size)) + bias[size_t((h * tokens + i) * tokens + j)];
        max = std::max(max, logit[size_t(j)]);
      }
      double total = 0;
      for (double& l : logit) total += (l = std::exp(l - max));
      for (int j = 0; j < tokens; ++j) {
        const float* v = &qkv[size_t(j * 3 * d + 2 * d + h * head_size)];
        const double p = logit[size_t(j)] / total;
        for (int c = 0; c < head_size; ++c) {
          double value = v[c];
          if (square(i) && square(j))
            value += table(2, kRelativeIndex[size_t((i - 1) * 64 + (j - 1))])[c];
          expected[size_t(i * d + h * head_size + c)] += p * value;
        }
      }
    }
  double worst = 0;
  for (size_t n = 0; n < out.size(); ++n) worst = std::max(worst, std::abs(out[n] - expected[n]));
  EXPECT_LT(worst, 1e-5);
  // And the terms matter: without them the result moves.
  std::vector<float> plain(out.size());
  attention_reference(qkv.data(), 3 * d, tokens, d, heads, {bias.data()}, plain.data(), d);
  EXPECT_GT(nmse(plain, out), 1e-3);
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
      worst = std::max(worst, compare_kernel_with_reference(s, terms, with_bias, seed));
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

// A row of uniform scores gives the mean of V exactly; a dominant key gives its value.
void expect_uniform_and_one_hot_scores(Kernel kernel) {
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

TEST(Attention, Avx512KernelOnUniformAndOneHotScores) {
  if (!attention_avx512_supported(3)) GTEST_SKIP() << "no AVX-512 on this CPU";
  expect_uniform_and_one_hot_scores(&attention_avx512);
}

// The AVX2 kernel on the shapes above (every head a multiple of 8 columns) and more tokens than
// the AVX-512 kernel takes, with and without the bias.
TEST(Attention, Avx2KernelMatchesTheReference) {
  std::vector<AttentionShape> shapes(std::begin(kShapes), std::end(kShapes));
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
  expect_uniform_and_one_hot_scores(&attention_avx2);
}

}  // namespace
}  // namespace avocet::nn
