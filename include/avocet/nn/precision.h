// The arithmetic the trunk's matrix products run in, chosen once when a network is loaded
// (Network::load): the backend seam of nn/. Fp32 is the reference (Eigen); Bf16 rounds
// weights and activations to bfloat16 and accumulates in fp32 with AVX-512 BF16's
// vdpbf16ps (nn/kernels/bf16_gemm.h), about twice the products per cycle; Int8 quantizes weights
// per output channel and activations per token and sums exactly in int32 with AVX-512 VNNI's
// vpdpbusd or AVX2's vpmaddwd (nn/kernels/int8_gemm.h). Everything between the products (LayerNorm,
// attention softmax, residuals, the head) stays fp32 whatever the precision.
#pragma once

#include <optional>
#include <string_view>

namespace avocet::nn {

enum class Precision {
  Auto,  // resolve(): Int8 where the CPU has AVX-512 VNNI or AVX2, else Fp32
  Fp32,
  Bf16,
  Int8,
};

// Every precision, in the order the Precision option lists them.
inline constexpr Precision kPrecisions[] = {Precision::Auto, Precision::Fp32, Precision::Bf16,
                                            Precision::Int8};

// What each precision is, for the Precision option's help on the command line and in UCI: one
// text, so that neither falls behind what resolve() does.
inline constexpr std::string_view kPrecisionHelp =
    "the trunk's arithmetic: auto (int8 where the CPU has AVX-512 VNNI or AVX2, else fp32), "
    "fp32, bf16 (AVX-512 BF16), int8 (AVX-512 VNNI or AVX2)";

// Whether this CPU (and OS) can run `p`; Auto and Fp32 run everywhere.
bool precision_supported(Precision p);

// Why `p` cannot run here, in the words every refusal uses (empty where it can).
std::string_view unsupported_reason(Precision p);

// Auto resolved for this CPU; the others unchanged.
Precision resolve(Precision p);

// "auto", "fp32", "bf16", "int8".
std::string_view precision_name(Precision p);
std::optional<Precision> parse_precision(std::string_view text);

}  // namespace avocet::nn
