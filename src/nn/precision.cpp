#include "avocet/nn/precision.h"

#include "avocet/nn/bf16_gemm.h"

namespace avocet::nn {

bool precision_supported(Precision p) {
  return p != Precision::Bf16 || bf16::avx512_bf16_supported();
}

Precision resolve(Precision p) {
  if (p != Precision::Auto) return p;
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
  }
  return "?";
}

std::optional<Precision> parse_precision(std::string_view text) {
  for (Precision p : kPrecisions)
    if (text == precision_name(p)) return p;
  return std::nullopt;
}

}  // namespace avocet::nn
