// bf16 matrix products for the trunk: y[rows, out] (+)= x[rows, in] * W^T, with W [out, in]
// (PyTorch's Linear layout) rounded to bfloat16 once, when the network is loaded, and x
// rounded to bfloat16 on entry; products are summed in fp32. Two kernels compute the same
// thing: gemm_avx512 (vdpbf16ps, chosen only where the CPU has AVX-512 BF16) and
// gemm_reference (plain loops, every CPU), which tests compare by normalised error.
#pragma once

#include <cstdint>
#include <vector>

#include "avocet/nn/aligned_vector.h"

namespace avocet::nn::bf16 {

// Output columns per packed panel: four zmm registers of 16 fp32 accumulators.
inline constexpr int kPanelColumns = 64;

// W rounded to bf16 and laid out for vdpbf16ps, which multiplies pairs of bf16 along the
// inner dimension: data[(panel * pairs + p) * 64 + c] holds W[n][2p] in its low 16 bits and
// W[n][2p + 1] in its high 16 bits, n = panel * 64 + c. Columns past `out` and the odd
// input's missing partner are zero, so every panel is a full 64 columns wide.
struct PackedWeights {
  int out = 0, in = 0;
  int pairs = 0;   // (in + 1) / 2
  int panels = 0;  // (out + 63) / 64
  AlignedVector<uint32_t> data;
};

// Round to nearest even, with denormals flushed to zero (as the hardware's _mm512_cvtneps_pbh
// does), and back (exact).
uint16_t to_bf16(float value);
float from_bf16(uint16_t value);

// Packs row-major W [out, in].
PackedWeights pack(const float* weight, int out, int in);

// y (+)= x * W^T for `rows` rows; x and y are row-major with the given row strides (in
// floats). `accumulate` adds to y instead of overwriting it.
void gemm_reference(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
                    int y_stride, bool accumulate);
void gemm_avx512(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
                 int y_stride, bool accumulate);

// Whether gemm_avx512 may run here (AVX-512 F and BF16, with the OS saving zmm state); always
// false off x86.
bool avx512_bf16_supported();

}  // namespace avocet::nn::bf16
