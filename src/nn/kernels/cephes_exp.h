// The constants of Cephes' expf, shared by the vectorised exps (avx2_exp.h; the AVX-512 one in
// attention_avx512.cpp): x = n ln 2 + r with n = round(x log2 e) and |r| <= ln 2 / 2, then
// e^x = 2^n (1 + r + r^2 P(r)), P of degree 5. Internal to src/nn/kernels.
#pragma once

#include <iterator>

namespace avocet::nn::cephes_exp {

inline constexpr float kLog2e = 1.44269504088896341f;
// ln 2 in two parts, the first with few enough bits that n * kLn2High is exact.
inline constexpr float kLn2High = 0.693359375f;
inline constexpr float kLn2Low = -2.12194440e-4f;
// P's coefficients, the highest power first (Horner's order).
inline constexpr float kPolynomial[] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                                        4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};
inline constexpr int kTerms = int(std::size(kPolynomial));

}  // namespace avocet::nn::cephes_exp
