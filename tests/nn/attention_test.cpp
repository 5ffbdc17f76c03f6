// attention_reference (nn/attention.h) against its definition: the bias per (query, key) and
// head, the relative index, and the relative terms evaluated directly in double precision. The
// kernels are compared with it in tests/nn/kernels/.
#include "avocet/nn/attention.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/attention_testing.h"
#include "kernels/gemm_testing.h"

namespace avocet::nn {
namespace {

using testing::AttentionShape;
using testing::nmse;
using testing::random_values;

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

}  // namespace
}  // namespace avocet::nn
