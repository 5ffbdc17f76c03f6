// nn/attention.h's attention on CPUs with AVX2 and FMA but no AVX-512, for the reduced
// precisions: two queries' scores at a time through a scratch row in L1 (how and why:
// src/nn/kernels/attention_avx2.cpp). Any number of tokens, heads of a multiple of 8 columns, no
// relative terms (no shipped net has them; the reference computes them). Compared with
// attention_reference in tests.
#pragma once

#include "avocet/nn/attention.h"

namespace avocet::nn {

void attention_avx2(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                    const AttentionTerms& terms, float* out, int out_stride, HeadRange range = {});
bool attention_avx2_supported(int head_size, const AttentionTerms& terms);

}  // namespace avocet::nn
