// Shared by the bf16 and int8 kernel tests: the trunk's shapes and awkward ones, random
// operands, the exact product in double, and normalised mean squared error (NMSE = sum (y -
// ref)^2 / sum ref^2, as ggml's test-backend-ops), and the shipped net against itself in fp32.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../../test_data.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/network.h"

namespace avocet::nn::testing {

struct Shape {
  int rows, out, in;
};

// The trunk's shapes at d = 128 and d = 64 (77 tokens), and awkward ones: odd inner sizes,
// outputs that are not a whole panel or a whole register, a single row.
inline const Shape kShapes[] = {{77, 384, 128}, {77, 128, 128}, {77, 1024, 128}, {77, 128, 512},
                                {77, 192, 64},  {79, 64, 256},  {1, 16, 2},      {7, 70, 33},
                                {13, 5, 3},     {6, 130, 129},  {12, 1, 1}};

inline std::vector<float> random_values(size_t n, uint64_t seed, float scale = 1.0f) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> values(n);
  for (float& v : values) v = normal(rng);
  return values;
}

// Random operands of one product: x and y0 with row strides wider than their rows (as the
// trunk's hidden.leftCols(f) and x.topRows(rows) are), and W scaled so that y stays of unit size.
struct Operands {
  int x_stride, y_stride;
  std::vector<float> x, w, y0;
};

inline Operands random_operands(const Shape& s, uint64_t& seed) {
  Operands o{s.in + 3, s.out + 5, {}, {}, {}};
  o.x = random_values(size_t(s.rows * o.x_stride), seed++);
  o.w = random_values(size_t(s.out * s.in), seed++, 1.0f / std::sqrt(float(s.in)));
  o.y0 = random_values(size_t(s.rows * o.y_stride), seed++);
  return o;
}

inline double nmse(const std::vector<float>& y, const std::vector<double>& reference) {
  double error = 0, norm = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    error += (double(y[i]) - reference[i]) * (double(y[i]) - reference[i]);
    norm += reference[i] * reference[i];
  }
  return error / norm;
}

inline double nmse(const std::vector<float>& y, const std::vector<float>& reference) {
  return nmse(y, std::vector<double>(reference.begin(), reference.end()));
}

// y (+)= x W^T in double from the unrounded fp32 values: the fp32 reference.
inline std::vector<double> exact_product(const Shape& s, const std::vector<float>& x, int x_stride,
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

// How far a precision's win probabilities are from fp32's with the shipped net, on the parity
// and random perft positions (523 with moves, 15,421 moves; a sample under sanitizers).
struct NetAgreement {
  size_t positions = 0, moves = 0, same_best = 0;
  double worst = 0, mean = 0;
  double worst_best_move_loss = 0;  // what the precision's choice costs by fp32's own values
};

// Empty when the build embeds no net.
inline std::optional<NetAgreement> shipped_net_agreement(Precision precision) {
  std::shared_ptr<const Network> fp32_net, other_net;
  try {
    fp32_net = default_network(Precision::Fp32);
    other_net = default_network(precision);
  } catch (const WeightsError&) {
    return std::nullopt;
  }
  const auto fp32 = make_evaluator(fp32_net);
  const auto other = make_evaluator(other_net);
  std::vector<std::string> fens;
  for (const char* name : {"parity_fens.txt", "perft_random.epd"}) {
    std::ifstream file(avocet::testing::data_path(name));
    for (std::string line; std::getline(file, line);)
      if (!line.empty()) fens.push_back(line.substr(0, line.find(';')));
  }
  EXPECT_GE(fens.size(), 500u);
#ifdef AVOCET_TEST_SANITIZED
  // Under sanitizers every 8th position (66 of 524): what they look for, a bad access or
  // undefined behaviour, every position's pass exercises alike, and the checked build measures
  // the agreement on all of them. All of them took 41 s (bf16) and 26 s (int8) of CI's ASan
  // build, two of its five slowest tests.
  std::vector<std::string> sample;
  for (size_t i = 0; i < fens.size(); i += 8) sample.push_back(fens[i]);
  fens = std::move(sample);
#endif
  NetAgreement result;
  double total = 0;
  for (const std::string& fen : fens) {
    const Position pos = Position::from_fen(fen);
    const MoveList moves = legal_moves(pos);
    if (moves.size() == 0) continue;
    std::vector<float> a(moves.size()), b(moves.size());
    fp32->evaluate(pos, {moves.begin(), moves.size()}, a);
    other->evaluate(pos, {moves.begin(), moves.size()}, b);
    for (size_t i = 0; i < moves.size(); ++i) {
      const double difference = std::abs(a[i] - b[i]);
      if (!(difference <= result.worst)) result.worst = difference;  // a NaN sticks and fails
      total += difference;
    }
    result.moves += moves.size();
    const size_t best_a = size_t(std::max_element(a.begin(), a.end()) - a.begin());
    const size_t best_b = size_t(std::max_element(b.begin(), b.end()) - b.begin());
    result.same_best += best_a == best_b;
    result.worst_best_move_loss =
        std::max(result.worst_best_move_loss, double(a[best_a] - a[best_b]));
    ++result.positions;
  }
  result.mean = total / double(result.moves);
  std::cout << result.positions << " positions, " << result.moves << " moves: max |win "
            << precision_name(precision) << " - fp32| " << result.worst << ", mean " << result.mean
            << ", same best move in " << result.same_best
            << ", worst loss of its best move by fp32's values " << result.worst_best_move_loss
            << "\n";
  return result;
}

}  // namespace avocet::nn::testing
