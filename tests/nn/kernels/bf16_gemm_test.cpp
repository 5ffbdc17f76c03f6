// The bf16 kernels (nn/kernels/bf16_gemm.h) against plain references by normalised mean squared
// error (NMSE = sum (y - ref)^2 / sum ref^2, as ggml's test-backend-ops), and the shipped net in
// bf16 against itself in fp32 on win probabilities.
#include "avocet/nn/kernels/bf16_gemm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "gemm_testing.h"

namespace avocet::nn::bf16 {
namespace {

using testing::exact_product;
using testing::kShapes;
using testing::nmse;
using testing::random_operands;
using testing::random_values;
using testing::Shape;

// bf16 keeps 8 significant bits: each rounded factor is off by up to 2^-8 relative (half a
// unit in the last place), ~1.6e-3 rms, so a product of two is off by ~2.3e-3 rms; summed
// over many terms with random signs the NMSE against exact fp32 is ~5e-6. 5e-5 leaves room
// for unlucky draws and still fails for any real bug (a wrong pair or panel gives NMSE ~1).
constexpr double kBf16Nmse = 5e-5;
// The AVX-512 kernel against the reference with the same rounding: only the order of the
// fp32 sums differs (relative error ~1e-7, squared ~1e-14).
constexpr double kSameRoundingNmse = 1e-10;

TEST(Bf16Rounding, RoundsToNearestEven) {
  EXPECT_EQ(to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(to_bf16(-2.0f), 0xc000);
  EXPECT_EQ(from_bf16(0x3f80), 1.0f);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: to even (1). 1 + 3 * 2^-8: up to 1 + 2^-6.
  EXPECT_EQ(to_bf16(1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  EXPECT_EQ(to_bf16(1.0f + 0x1p-8f + 0x1p-16f), 0x3f81);  // just above halfway: up
  EXPECT_EQ(to_bf16(0x1p-130f), 0x0000);                  // denormal: zero, as the hardware
  EXPECT_EQ(to_bf16(-0x1p-130f), 0x8000);
  EXPECT_TRUE(std::isnan(from_bf16(to_bf16(std::nanf("")))));
  EXPECT_TRUE(std::isinf(from_bf16(to_bf16(INFINITY))));
  for (float v : random_values(1000, 7))
    EXPECT_LE(std::abs(from_bf16(to_bf16(v)) - v), std::abs(v) * 0x1p-8f) << v;
}

TEST(Bf16Pack, PairsAlongTheInputAndPanelsOf64Outputs) {
  const int out = 70, in = 3;  // two panels, the second 6 columns wide; an odd input
  std::vector<float> w(size_t(out * in));
  for (int n = 0; n < out; ++n)
    for (int k = 0; k < in; ++k) w[size_t(n * in + k)] = float((n + 1) << k);  // exact in bf16
  const PackedWeights packed = pack(w.data(), out, in);
  EXPECT_EQ(packed.pairs, 2);
  EXPECT_EQ(packed.panels, 2);
  ASSERT_EQ(packed.data.size(), size_t(2 * 2 * kPanelColumns));
  auto at = [&](int panel, int pair, int column) {
    return packed.data[size_t((panel * packed.pairs + pair) * kPanelColumns + column)];
  };
  // Column 65 (panel 1, column 1): pair 0 is (W[65][0], W[65][1]), pair 1 (W[65][2], 0).
  EXPECT_EQ(from_bf16(uint16_t(at(1, 0, 1))), 66.0f);
  EXPECT_EQ(from_bf16(uint16_t(at(1, 0, 1) >> 16)), 132.0f);
  EXPECT_EQ(from_bf16(uint16_t(at(1, 1, 1))), 264.0f);
  EXPECT_EQ(at(1, 1, 1) >> 16, 0u);
  EXPECT_EQ(at(1, 0, 6), 0u);  // past the last output
  EXPECT_EQ(from_bf16(uint16_t(at(0, 1, 63))), 256.0f);
}

// Both kernels on every shape, overwriting and accumulating, with row strides wider than the
// rows (as the trunk's hidden.leftCols(f) and x.topRows(rows) are).
void check_kernels(bool with_avx512) {
  uint64_t seed = 1;
  double worst_bf16 = 0, worst_same_rounding = 0;
  for (const Shape& s : kShapes) {
    for (const bool accumulate : {false, true}) {
      const auto [x_stride, y_stride, x, w, y0] = random_operands(s, seed);
      const PackedWeights packed = pack(w.data(), s.out, s.in);
      const std::vector<double> exact = exact_product(s, x, x_stride, w, y0, y_stride, accumulate);
      std::vector<float> reference = y0;
      gemm_reference(packed, x.data(), s.rows, x_stride, reference.data(), y_stride, accumulate);
      const std::string what = ::testing::PrintToString(std::vector<int>{s.rows, s.out, s.in}) +
                               (accumulate ? " accumulating" : "");
      EXPECT_LE(nmse(reference, exact), kBf16Nmse) << what;
      worst_bf16 = std::max(worst_bf16, nmse(reference, exact));
      if (!with_avx512) continue;
      std::vector<float> fast = y0;
      gemm_avx512(packed, x.data(), s.rows, x_stride, fast.data(), y_stride, accumulate);
      EXPECT_LE(nmse(fast, reference), kSameRoundingNmse) << what;
      EXPECT_LE(nmse(fast, exact), kBf16Nmse) << what;
      worst_same_rounding = std::max(worst_same_rounding, nmse(fast, reference));
      // Padding between rows is never written.
      for (int r = 0; r < s.rows; ++r)
        for (int c = s.out; c < y_stride; ++c)
          ASSERT_EQ(fast[size_t(r * y_stride + c)], y0[size_t(r * y_stride + c)]) << what;
    }
  }
  std::cout << "worst NMSE: bf16 against the exact product " << worst_bf16;
  if (with_avx512) std::cout << ", AVX-512 against the reference " << worst_same_rounding;
  std::cout << "\n";
}

TEST(Bf16Gemm, ReferenceMatchesTheFp32ProductWithinBf16Error) { check_kernels(false); }

TEST(Bf16Gemm, Avx512KernelMatchesTheReference) {
  if (!avx512_bf16_supported()) GTEST_SKIP() << "no AVX-512 BF16 on this CPU";
  check_kernels(true);
}

// A wrong kernel must fail the NMSE check: swapping a pair's halves is caught.
TEST(Bf16Gemm, NmseCatchesASwappedPair) {
  const Shape s{8, 64, 32};
  const std::vector<float> x = random_values(size_t(s.rows * s.in), 3);
  const std::vector<float> w = random_values(size_t(s.out * s.in), 4);
  PackedWeights packed = pack(w.data(), s.out, s.in);
  const std::vector<double> exact =
      exact_product(s, x, s.in, w, std::vector<float>(size_t(s.rows * s.out)), s.out, false);
  for (uint32_t& pair : packed.data) pair = pair >> 16 | pair << 16;
  std::vector<float> y(size_t(s.rows * s.out));
  gemm_reference(packed, x.data(), s.rows, s.in, y.data(), s.out, false);
  EXPECT_GT(nmse(y, exact), 0.5);
}

// The shipped net: bf16 against fp32 on the parity and random perft positions (523 with
// moves, 15,421 moves). Tolerance: 0.01 in win probability for any move and 0.001 on
// average (measured: 0.0045 and 0.0004 with v2). A win probability of 0.5 +- 0.01 is about
// +-4 centipawns in Stockfish's win-rate model, far below the net's own error against
// Stockfish's labels; the best move may change only between moves that close, which the
// last checks bound (measured: the same best move in all 523).
TEST(Bf16Network, ShippedNetAgreesWithFp32) {
  if (!avx512_bf16_supported()) GTEST_SKIP() << "no AVX-512 BF16 on this CPU";
  const auto agreement = testing::shipped_net_agreement(Precision::Bf16);
  if (!agreement) GTEST_SKIP() << "a build without an embedded net";
  EXPECT_LE(agreement->worst, 0.01);
  EXPECT_LE(agreement->mean, 0.001);
  EXPECT_LE(agreement->worst_best_move_loss, 0.01);
  EXPECT_GE(double(agreement->same_best), 0.95 * double(agreement->positions));
}

}  // namespace
}  // namespace avocet::nn::bf16
