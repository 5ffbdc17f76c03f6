// e^x in the 8 lanes of an AVX2 register, for the AVX2 kernels (attention's softmax, SwiGLU's
// sigmoid). Internal to src/nn: include it only in x86 builds, and call it only from functions
// compiled with the same target and run after the run-time AVX2 check.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

namespace avocet::nn::avx2 {

// As Cephes' expf (and attention_avx512's): x = n ln 2 + r with |r| <= ln 2 / 2, e^r by a
// degree-6 polynomial, times 2^n built in the exponent bits. x is clamped to [-87, 88], where
// n stays in [-126, 127] and 2^n a normal float: relative error ~2e-7 inside, e^-87 (weightless
// beside e^0 in a softmax, and 1 + e^-87 = 1 in a sigmoid) below, e^88 (3e-39 of x in x / (1 +
// e^-x): zero) above.
__attribute__((target("avx2,fma"))) inline __m256 exp(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.0f)), _mm256_set1_ps(88.0f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  // r = x - n ln 2, with ln 2 split in two so that n * ln2_high is exact.
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i exponent =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(exponent));
}

}  // namespace avocet::nn::avx2

#endif
