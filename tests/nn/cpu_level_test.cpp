// The run-time dispatch (nn/cpu_level.h): on each CPU level up to this one's, the precisions and
// kernels that level's CPUs get, as nn/precision.h and the kernels' headers promise. The kernels
// themselves are checked against their references in their own tests, and whole evaluations on
// every level in helper_thread_test.cpp and transformer_test.cpp.
#include "avocet/nn/cpu_level.h"

#include <gtest/gtest.h>

#include "avocet/nn/kernels/attention_avx2.h"
#include "avocet/nn/kernels/attention_avx512.h"
#include "avocet/nn/kernels/bf16_gemm.h"
#include "avocet/nn/kernels/int8_gemm.h"
#include "avocet/nn/kernels/swiglu.h"
#include "avocet/nn/precision.h"
#include "cpu_level_testing.h"

namespace avocet::nn {
namespace {

TEST(CpuLevel, EachLevelGetsItsPrecisionsAndKernels) {
  const CpuLevel native = cpu_level();
  for (const CpuLevel level : testing::levels_up_to_this_cpu()) {
    const testing::CpuLevelLimit limit(level);
    SCOPED_TRACE(testing::level_name(level));
    ASSERT_EQ(cpu_level(), level);
    const bool avx2 = level >= CpuLevel::Avx2, avx512 = level >= CpuLevel::Avx512;
    const bool vnni = level >= CpuLevel::Avx512Vnni, bf16 = level >= CpuLevel::Avx512Bf16;
    EXPECT_TRUE(precision_supported(Precision::Fp32));
    EXPECT_EQ(precision_supported(Precision::Int8), avx2);
    EXPECT_EQ(precision_supported(Precision::Bf16), bf16);
    EXPECT_EQ(resolve(Precision::Auto), avx2 ? Precision::Int8 : Precision::Fp32);
    EXPECT_EQ(int8::best_kernel(), vnni   ? std::optional(int8::Kernel::Vnni)
                                   : avx2 ? std::optional(int8::Kernel::Avx2)
                                          : std::nullopt);
    EXPECT_EQ(bf16::avx512_bf16_supported(), bf16);
    EXPECT_EQ(attention_avx512_bf16_supported(77, 32, {}), bf16);
    EXPECT_EQ(attention_avx512_supported(77), avx512);
    EXPECT_EQ(attention_avx2_supported(32, {}), avx2);
    EXPECT_EQ(swiglu_avx2_supported(), avx2);
  }
  EXPECT_EQ(cpu_level(), native);  // the limit lifted
}

// A kernel chosen for measurement (avocet nnbench --int8-kernel) gives way to the best one
// under a limit, and comes back when it is lifted.
TEST(CpuLevel, ASelectedInt8KernelAboveTheLimitGivesWay) {
  if (cpu_level() < CpuLevel::Avx512Vnni) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  int8::select_kernel(int8::Kernel::Vnni);
  {
    const testing::CpuLevelLimit limit(CpuLevel::Avx512);
    EXPECT_EQ(int8::selected_kernel(), int8::Kernel::Avx2);
  }
  EXPECT_EQ(int8::selected_kernel(), int8::Kernel::Vnni);
}

}  // namespace
}  // namespace avocet::nn
