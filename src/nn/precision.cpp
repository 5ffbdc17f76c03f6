#include "avocet/nn/precision.h"

#include "avocet/nn/kernels/bf16_gemm.h"
#include "avocet/nn/kernels/int8_gemm.h"

namespace avocet::nn {

bool precision_supported(Precision p) {
  switch (p) {
    case Precision::Bf16:
      return bf16::avx512_bf16_supported();
    case Precision::Int8:
      return int8::best_kernel().has_value();
    case Precision::Auto:
    case Precision::Fp32:
      return true;
  }
  return false;
}

std::string_view unsupported_reason(Precision p) {
  if (precision_supported(p)) return {};
  if (p == Precision::Int8)
    return "int8 needs a CPU with AVX2 or AVX-512 VNNI, and this one has neither";
  return "bf16 needs a CPU with AVX-512 BF16, and this one has none";
}

Precision resolve(Precision p) {
  if (p != Precision::Auto) return p;
  // int8 where games showed it stronger than the next best precision: on AVX-512 VNNI it won
  // an SPRT against bf16, and on AVX2 its wide kernel (nn/kernels/int8_gemm.h) one against fp32
  // (weights/results/2026-11-28-nn-measurements.md). Every CPU with AVX-512 BF16 has VNNI too,
  // so bf16 is left for CPUs with neither kernel, which have no bf16 either.
  if (int8::best_kernel()) return Precision::Int8;
  return bf16::avx512_bf16_supported() ? Precision::Bf16 : Precision::Fp32;
}

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::Auto:
      return "auto";
    case Precision::Fp32:
      return "fp32";
    case Precision::Bf16:
      return "bf16";
    case Precision::Int8:
      return "int8";
  }
  return "?";
}

std::optional<Precision> parse_precision(std::string_view text) {
  for (Precision p : kPrecisions)
    if (text == precision_name(p)) return p;
  return std::nullopt;
}

}  // namespace avocet::nn
