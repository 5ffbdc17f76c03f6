// Multi-head self-attention of one sequence, without mask: for each head h,
//   out[:, h] = softmax(Q_h K_h^T / sqrt(head_size) + B_h) V_h,
// with Q, K and V read from the trunk's qkv rows [tokens, 3d] (Q in columns 0..d, K in
// d..2d, V in 2d..3d; head h owns head_size = d / heads consecutive columns of each) and the
// result written to out [tokens, d]. Both strides are in floats. `bias` holds B [heads,
// tokens, tokens] contiguous (a net's learned attention bias), or is null for none.
//
// Two implementations compute it: attention_reference (Eigen, every CPU; the fp32 precision
// always runs it) and attention_avx512 (one query at a time: its scores against K^T held in
// registers, a vectorised exp, and the weighted sum of V normalised once at the end), which
// the reduced precisions run where the CPU has AVX-512. Tests compare the two by normalised
// error.
#pragma once

namespace avocet::nn {

void attention_reference(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                         const float* bias, float* out, int out_stride);
void attention_avx512(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                      const float* bias, float* out, int out_stride);

// Whether attention_avx512 runs here and handles `tokens` (at most kMaxAvx512Tokens, which keep
// a query's scores in registers).
inline constexpr int kMaxAvx512Tokens = 128;
bool attention_avx512_supported(int tokens);

}  // namespace avocet::nn
