// SwiGLU's gate (nn/kernels/swiglu.h): the reference against its definition, and the AVX2 kernel
// against the reference, elementwise.
#include "avocet/nn/kernels/swiglu.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gemm_testing.h"

namespace avocet::nn {
namespace {

TEST(Swiglu, ReferenceIsSiluOfTheGateTimesUp) {
  std::vector<float> gate{0.0f, 1.0f, -1.0f, 30.0f, -30.0f, -200.0f, 2.5f};
  const std::vector<float> up{3.0f, 2.0f, 2.0f, 0.5f, 4.0f, 1.0f, -1.0f};
  const std::vector<float> x = gate;
  swiglu_reference(gate.data(), up.data(), int(gate.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const double expected = double(x[i]) / (1.0 + std::exp(-double(x[i]))) * double(up[i]);
    EXPECT_NEAR(gate[i], expected, 1e-6 * std::abs(expected) + 1e-30) << x[i];
  }
}

// Every length up to 40 (whole registers and tails), and the trunk's 512, on gates from -120
// to 120 (past both ends of the exp's clamp): within 1e-6 relative of the reference, or 1e-30
// absolute where silu is all but zero.
TEST(Swiglu, Avx2KernelMatchesTheReference) {
  if (!swiglu_avx2_supported()) GTEST_SKIP() << "no AVX2 on this CPU";
  uint64_t seed = 81;
  double worst = 0;
  std::vector<int> lengths{512};
  for (int n = 1; n <= 40; ++n) lengths.push_back(n);
  for (const int n : lengths)
    for (const float scale : {3.0f, 120.0f}) {
      const std::vector<float> x = testing::random_values(size_t(n), seed++, scale);
      const std::vector<float> up = testing::random_values(size_t(n), seed++, 2.0f);
      std::vector<float> reference = x, fast = x;
      swiglu_reference(reference.data(), up.data(), n);
      swiglu_avx2(fast.data(), up.data(), n);
      for (int i = 0; i < n; ++i) {
        const double error = std::abs(double(fast[size_t(i)]) - double(reference[size_t(i)]));
        EXPECT_LE(error, 1e-6 * std::abs(double(reference[size_t(i)])) + 1e-30)
            << "n " << n << ", gate " << x[size_t(i)];
        if (std::abs(reference[size_t(i)]) > 1e-20f)
          worst = std::max(worst, error / std::abs(double(reference[size_t(i)])));
      }
    }
  std::cout << "worst relative error of the AVX2 SwiGLU against the reference: " << worst << "\n";
}

}  // namespace
}  // namespace avocet::nn
