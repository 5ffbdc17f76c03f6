// The bf16 kernels (nn/bf16_gemm.h) against plain references by normalised mean squared error
// (NMSE = sum (y - ref)^2 / sum ref^2, as ggml's test-backend-ops), and the shipped net in
// bf16 against itself in fp32 on win probabilities.
#include "avocet/nn/bf16_gemm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/network.h"

namespace avocet::nn::bf16 {
namespace {

// bf16 keeps 8 significant bits: each rounded factor is off by up to 2^-8 relative (half a
// unit in the last place), ~1.6e-3 rms, so a product of two is off by ~2.3e-3 rms; summed
// over many terms with random signs the NMSE against exact fp32 is ~5e-6. 5e-5 leaves room
// for unlucky draws and still fails for any real bug (a wrong pair or panel gives NMSE ~1).
constexpr double kBf16Nmse = 5e-5;
// The AVX-512 kernel against the reference with the same rounding: only the order of the
// fp32 sums differs (relative error ~1e-7, squared ~1e-14).
constexpr double kSameRoundingNmse = 1e-10;

struct Shape {
  int rows, out, in;
};

// The trunk's shapes at d = 128 and d = 64 (77 tokens), and awkward ones: odd inner sizes,
// outputs that are not a whole panel or a whole register, a single row.
const Shape kShapes[] = {{77, 384, 128}, {77, 128, 128}, {77, 1024, 128}, {77, 128, 512},
                         {77, 192, 64},  {79, 64, 256},  {1, 16, 2},      {7, 70, 33},
                         {13, 5, 3},     {6, 130, 129},  {12, 1, 1}};

std::vector<float> random_values(size_t n, uint64_t seed, float scale = 1.0f) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> values(n);
  for (float& v : values) v = normal(rng);
  return values;
}

double nmse(const std::vector<float>& y, const std::vector<double>& reference) {
  double error = 0, norm = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    error += (double(y[i]) - reference[i]) * (double(y[i]) - reference[i]);
    norm += reference[i] * reference[i];
  }
  return error / norm;
}

double nmse(const std::vector<float>& y, const std::vector<float>& reference) {
  return nmse(y, std::vector<double>(reference.begin(), reference.end()));
}

// y (+)= x W^T in double from the unrounded fp32 values: the fp32 reference.
std::vector<double> exact_product(const Shape& s, const std::vector<float>& x, int x_stride,
                                  const std::vector<float>& w, const std::vector<float>& y0,
                                  int y_stride, bool accumulate) {
  std::vector<double> y(y0.begin(), y0.end());
  for (int r = 0; r < s.rows; ++r)
    for (int n = 0; n < s.out; ++n) {
      double sum = 0;
      for (int k = 0; k < s.in; ++k)
        sum += double(x[size_t(r * x_stride + k)]) * double(w[size_t(n * s.in + k)]);
      double& out = y[size_t(r * y_stride + n)];
      out = accumulate ? out + sum : sum;
    }
  return y;
}

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
      const int x_stride = s.in + 3, y_stride = s.out + 5;
      const std::vector<float> x = random_values(size_t(s.rows * x_stride), seed++);
      const std::vector<float> w =
          random_values(size_t(s.out * s.in), seed++, 1.0f / std::sqrt(float(s.in)));
      const std::vector<float> y0 = random_values(size_t(s.rows * y_stride), seed++);
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
  std::shared_ptr<const Network> fp32_net, bf16_net;
  try {
    fp32_net = default_network(Precision::Fp32);
    bf16_net = default_network(Precision::Bf16);
  } catch (const WeightsError& e) {
    GTEST_SKIP() << e.what();  // a build without an embedded net
  }
  const auto fp32 = make_evaluator(fp32_net);
  const auto bf16 = make_evaluator(bf16_net);
  std::vector<std::string> fens;
  for (const char* name : {"parity_fens.txt", "perft_random.epd"}) {
    std::ifstream file(testing::data_path(name));
    for (std::string line; std::getline(file, line);)
      if (!line.empty()) fens.push_back(line.substr(0, line.find(';')));
  }
  ASSERT_GE(fens.size(), 500u);
  double worst = 0, total = 0, worst_best_move_loss = 0;
  size_t moves_checked = 0, same_best = 0, positions = 0;
  for (const std::string& fen : fens) {
    const Position pos = Position::from_fen(fen);
    const MoveList moves = legal_moves(pos);
    if (moves.size() == 0) continue;
    std::vector<float> a(moves.size()), b(moves.size());
    fp32->evaluate(pos, {moves.begin(), moves.size()}, a);
    bf16->evaluate(pos, {moves.begin(), moves.size()}, b);
    for (size_t i = 0; i < moves.size(); ++i) {
      const double difference = std::abs(a[i] - b[i]);
      if (!(difference <= worst)) worst = difference;  // a NaN sticks and fails below
      total += difference;
    }
    moves_checked += moves.size();
    const size_t best_a = size_t(std::max_element(a.begin(), a.end()) - a.begin());
    const size_t best_b = size_t(std::max_element(b.begin(), b.end()) - b.begin());
    same_best += best_a == best_b;
    // What bf16's choice costs by fp32's own values.
    worst_best_move_loss = std::max(worst_best_move_loss, double(a[best_a] - a[best_b]));
    ++positions;
  }
  const double mean = total / double(moves_checked);
  std::cout << positions << " positions, " << moves_checked << " moves: max |win bf16 - fp32| "
            << worst << ", mean " << mean << ", same best move in " << same_best
            << ", worst loss of bf16's best move by fp32's values " << worst_best_move_loss << "\n";
  EXPECT_LE(worst, 0.01);
  EXPECT_LE(mean, 0.001);
  EXPECT_LE(worst_best_move_loss, 0.01);
  EXPECT_GE(double(same_best), 0.95 * double(positions));
}

}  // namespace
}  // namespace avocet::nn::bf16
