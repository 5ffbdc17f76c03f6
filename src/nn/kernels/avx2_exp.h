// e^x in the 8 lanes of an AVX2 register, for the AVX2 kernels (attention's softmax, SwiGLU's
// sigmoid). Internal to src/nn/kernels: include it only in x86 builds, and call it only from
// functions compiled with the same target and run after the run-time AVX2 check.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "cephes_exp.h"

namespace avocet::nn::avx2 {

// Cephes' expf (cephes_exp.h), times 2^n built in the exponent bits. x is clamped to
// [-87, 88], where n stays in [-126, 127] and 2^n is a normal float; relative error ~2e-7 there.
// Below, e^-87 weighs nothing beside a softmax row's e^0; above, SwiGLU's x / (1 + e^-x) with
// x < -88 comes out as x times 6e-39 instead of zero.
__attribute__((target("avx2,fma"))) inline __m256 exp(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.0f)), _mm256_set1_ps(88.0f));
  using namespace cephes_exp;
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(kLog2e)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2High), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Low), r);
  __m256 p = _mm256_set1_ps(kPolynomial[0]);
  for (int i = 1; i < kTerms; ++i) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kPolynomial[i]));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i exponent =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(exponent));
}

}  // namespace avocet::nn::avx2

#endif
