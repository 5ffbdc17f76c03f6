// nn/attention.h's attention on CPUs with AVX-512, for the reduced precisions: four queries at a
// time, their scores against K^T held in registers, a vectorised exp, and the weighted sum of V
// normalised once at the end; relative terms only over each query's 8 x 8 window of offsets.
// bf16 and int8 run attention_avx512; int8 runs attention_avx512_bf16 instead where the CPU has
// AVX-512 BF16 and the net allows it (bf16 does not: it promises values within 0.01 of fp32,
// nn/transformer.cpp). Both are compared with attention_reference in tests.
#pragma once

#include "avocet/nn/attention.h"

namespace avocet::nn {

void attention_avx512(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                      const AttentionTerms& terms, float* out, int out_stride,
                      HeadRange range = {});

// Whether attention_avx512 runs here and handles `tokens` (at most kMaxAvx512Tokens, which keep
// a query's scores in registers).
inline constexpr int kMaxAvx512Tokens = 128;
bool attention_avx512_supported(int tokens);

// attention_avx512 with both products in bf16 (vdpbf16ps: twice the multiply-adds per
// instruction): Q, K, V and the softmax weights rounded to bf16, the softmax itself in fp32.
// No relative terms, and head_size a multiple of 32.
void attention_avx512_bf16(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                           const AttentionTerms& terms, float* out, int out_stride,
                           HeadRange range = {});
bool attention_avx512_bf16_supported(int tokens, int head_size, const AttentionTerms& terms);

}  // namespace avocet::nn
