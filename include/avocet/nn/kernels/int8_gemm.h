// Integer matrix products for the trunk (Precision int8): y[rows, out] (+)= x[rows, in] * W^T,
// with W [out, in] (PyTorch's Linear layout).
//
// Values are rounded to L levels either side of zero, L set by the kernel (levels_for):
// - 8-bit, L = 127: the reference's own packing and AVX-512 VNNI, whose vpdpbusd multiplies
//   bytes;
// - wide, L up to 32767: the AVX2 kernel. Its vpmaddwd multiplies 16-bit integers, as fast
//   whatever values they hold, so it takes the most levels whose int32 sums cannot overflow:
//   in * L^2 < 2^31, which is 4095 at in = 128 and 2047 at in = 512. Each value's rounding
//   error is then 16 to 32 times smaller than with 127 levels, at the same speed.
// Weights are quantized once, when the network is loaded, per output channel:
//   scale[n] = max_k |W[n][k]| / L,  q[n][k] = round(W[n][k] / scale[n]) in [-L, L].
// Activations are quantized per row (token) on entry, symmetrically:
//   s_r = max_k |x[r][k]| / L,  a[r][k] = round(x[r][k] * L / max_k |x[r][k]|).
// The sums are exact in int32 and rescaled once:
//   y[r][n] = float(sum_k a[r][k] q[n][k]) * s_r * scale[n].
// Rounding is to nearest even throughout. An all-zero row or weight row has scale 0.
//
// Three kernels compute exactly the same integer sums as a plain-loop reference given the same
// levels:
// - gemm_reference: plain loops, every CPU;
// - Kernel::Vnni (AVX-512 VNNI): vpdpbusd multiplies unsigned by signed bytes, so the
//   activations enter as a + 128 (1..255) and the kernel subtracts 128 * sum_k q[n][k], a
//   per-column constant computed at packing;
// - Kernel::Avx2 (AVX2 and FMA): vpmaddwd on 16-bit a and q, no offset (vpmaddubsw on bytes
//   would be no faster per multiply-add once its 16-bit pair sums, which saturate at
//   255 * 127 * 2, are widened).
// The kernels rescale with one written-out fused multiply-add when accumulating, so a row's
// values never depend on the rows computed with it (nn/transformer.h's read_rows and helper
// thread rely on it). Tests compare the fast kernels with the reference (same integers; the
// fp32 rescale may differ by that fused multiply-add) and the reference with the fp32 product.
//
// Hadamard rotation (QuaRot): with H the normalized n x n Sylvester-Hadamard matrix
// (orthonormal and symmetric, so H H = I), y = W x = (W H)(H x). Packed with
// Rotation::Hadamard, the weights are stored as W H (each row w becomes H w) and every input
// row x is replaced by H x (in a scratch buffer) before it is quantized. H spreads each row's
// energy evenly over its n entries, so the largest magnitude, which sets the quantization step,
// moves from the row's peak towards its root mean square: a single outlier no longer coarsens
// the step of all the other inputs. The weights' per-channel quantization sees the same
// effect. Only for inner sizes that are powers of two; the reference and the kernels rotate
// with the same function, so they still compute the same integers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "avocet/nn/aligned_vector.h"

namespace avocet::nn::int8 {

enum class Kernel { Reference, Avx2, Vnni };

// Whether the product runs in the Hadamard-rotated basis (see above).
enum class Rotation { None, Hadamard };

// The 8-bit kernels' levels: their quantized values lie in [-127, 127].
inline constexpr int kLevels = 127;

// The levels a product with `in` inputs is quantized to for `kernel` (see above): kLevels for
// the reference and Vnni; for Avx2 the most that keep in * L^2 below 2^31, at most 32767.
int levels_for(Kernel kernel, int in);

// Whether `kernel` rounds to more levels than kLevels (16-bit products: Avx2), so that its
// rounding error is small without a Hadamard rotation and beside bf16's.
inline bool is_wide(Kernel kernel) { return kernel == Kernel::Avx2; }

// Output columns per packed panel: four registers of int32 sums.
inline constexpr int kVnniPanelColumns = 64;  // 4 zmm x 16
inline constexpr int kAvx2PanelColumns = 32;  // 4 ymm x 8

struct PackedWeights {
  int out = 0, in = 0;
  Kernel kernel = Kernel::Reference;
  // Hadamard: q and scale quantize W H, and gemm rotates each input row before quantizing it.
  Rotation rotation = Rotation::None;
  int levels = kLevels;            // levels_for(kernel, in): q and a lie in [-levels, levels]
  std::vector<int16_t> quantized;  // q [out, in], row-major
  std::vector<float> scale;        // [out]
  // The kernel's layout (empty for the reference). Vnni: panels of 64 columns, one int32 per
  // column holding q[n][4g .. 4g + 3] (byte j = q[n][4g + j]), at (panel * groups + g) * 64 +
  // column. Avx2: panels of 32 columns, one int32 holding q[n][2g] (low 16 bits) and
  // q[n][2g + 1] (high), at (panel * groups + g) * 32 + column. Missing inputs and columns
  // past `out` are zero.
  int groups = 0, panels = 0;
  AlignedVector<int32_t> panel_data;
  AlignedVector<float> panel_scale;          // scale, padded with zeros to whole panels
  AlignedVector<int32_t> offset_correction;  // Vnni: 128 * sum_k q[n][k], padded likewise
};

// Quantizes row-major W [out, in] to levels_for(kernel, in) (rotated first with
// Rotation::Hadamard, which needs `in` to be a power of two) and lays it out for `kernel`.
PackedWeights pack(const float* weight, int out, int in, Kernel kernel,
                   Rotation rotation = Rotation::None);

constexpr bool is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

// x <- H x in place for one row of n floats (n a power of two): the fast Walsh-Hadamard
// transform, n log2 n additions, scaled by 1 / sqrt(n) so that H is orthonormal. Applying it
// twice gives x back (up to rounding). n = 1 is the identity.
void hadamard_transform(float* x, int n);

// out row r (stride n) = H (x row r) for `rows` rows, as gemm rotates its inputs: with
// `kernel`'s vector code where it has one (Vnni: AVX-512 for n >= 16; Avx2: n >= 8), else
// hadamard_transform on copies. The vector code performs the same additions in the same order,
// so every kernel's rows equal hadamard_transform's bit for bit. `kernel` must run here.
void hadamard_rows(const float* x, int rows, int x_stride, int n, float* out, Kernel kernel);

// One row's quantization to [-levels, levels]: writes a[k] for k < in and returns s_r (see
// above).
float quantize_row(const float* x, int in, int levels, int16_t* quantized);

// y (+)= x * W^T for `rows` rows; x and y are row-major with the given row strides (in
// floats). `accumulate` adds to y instead of overwriting it. gemm runs w.kernel, which must
// be supported here; gemm_reference runs the plain loops on any packing. Both rotate the
// input rows first when w.rotation is Hadamard, into a buffer of their own: x is never written.
void gemm_reference(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
                    int y_stride, bool accumulate);
void gemm(const PackedWeights& w, const float* x, int rows, int x_stride, float* y, int y_stride,
          bool accumulate);

// Whether `kernel` can run here (the CPU has the instructions and the OS saves their
// registers); the reference always can.
bool kernel_supported(Kernel kernel);
// The fastest kernel this CPU runs with a speed-up over fp32: Vnni, else Avx2; none on CPUs
// with neither (the int8 precision is then refused).
std::optional<Kernel> best_kernel();
// The kernel networks loaded in int8 from now on are packed for: best_kernel(), unless
// `avocet nnbench --int8-kernel` chose another one this CPU runs (to measure the AVX2 kernel
// on a CPU that also has VNNI). Process-wide; nets already loaded keep theirs.
std::optional<Kernel> selected_kernel();
void select_kernel(Kernel kernel);

// "reference", "avx2", "vnni".
std::string_view kernel_name(Kernel kernel);

}  // namespace avocet::nn::int8
