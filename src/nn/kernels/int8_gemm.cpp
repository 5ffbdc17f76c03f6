#include "avocet/nn/kernels/int8_gemm.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define AVOCET_X86 1
#endif

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "avocet/nn/cpu_level.h"

namespace avocet::nn::int8 {

namespace {

// Round to nearest even (the default rounding mode, as the kernels' cvtps2dq), then clamp.
int16_t quantize(float value, float inverse_scale, int levels) {
  const float scaled = std::nearbyint(value * inverse_scale);
  // NaN comes only from activations that overflowed (an absurd net, as the fuzzer makes), whose
  // evaluation is NaN anyway; converting it to an integer would be undefined behaviour.
  if (std::isnan(scaled)) return 0;
  return int16_t(std::clamp(scaled, float(-levels), float(levels)));
}

float max_abs(const float* x, int n) {
  float m = 0.0f;
  for (int k = 0; k < n; ++k) m = std::max(m, std::abs(x[k]));
  return m;
}

// The multiplier that maps a row's largest magnitude to `levels` (0 for an all-zero row), and
// the row's scale, max / levels. Shared by the reference and the kernels so that they agree
// exactly.
float inverse_scale_for(float max, int levels) { return max > 0.0f ? float(levels) / max : 0.0f; }
float scale_for(float max, int levels) { return max / float(levels); }

}  // namespace

int levels_for(Kernel kernel, int in) {
  assert(in > 0);
  if (!is_wide(kernel)) return kLevels;
  // The largest L with in * L^2 <= 2^31 - 1, so that no int32 sum of `in` products can
  // overflow; vpmaddwd's own pair sums (2 L^2) fit for any 16-bit L.
  constexpr int64_t kInt32Max = 2147483647;
  int64_t levels = std::min<int64_t>(32767, int64_t(std::sqrt(double(kInt32Max / in))));
  while (int64_t(in) * levels * levels > kInt32Max) --levels;
  return int(levels);
}

float quantize_row(const float* x, int in, int levels, int16_t* quantized) {
  const float max = max_abs(x, in);
  const float inverse = inverse_scale_for(max, levels);
  for (int k = 0; k < in; ++k) quantized[k] = quantize(x[k], inverse, levels);
  return scale_for(max, levels);
}

namespace {

// The butterflies of the stages of Sylvester's recursion H_2h = [H_h H_h; H_h -H_h] whose
// partners are at least 8 floats apart: contiguous loops the compiler vectorises. Two stages
// per pass where they can (radix 4), which halves the passes over the row.
void butterfly(float* __restrict low, float* __restrict high, int h) {
  for (int k = 0; k < h; ++k) {
    const float a = low[k], b = high[k];
    low[k] = a + b;
    high[k] = a - b;
  }
}

void butterfly_pair(float* __restrict q0, float* __restrict q1, float* __restrict q2,
                    float* __restrict q3, int h) {
  for (int k = 0; k < h; ++k) {
    const float a = q0[k] + q1[k], b = q0[k] - q1[k], c = q2[k] + q3[k], d = q2[k] - q3[k];
    q0[k] = a + c;
    q1[k] = b + d;
    q2[k] = a - c;
    q3[k] = b - d;
  }
}

}  // namespace

void hadamard_transform(float* x, int n) {
  assert(is_power_of_two(n));
  int h = 1;  // the partner distance of the next stage
  if (n >= 8) {
    // The stages with partners 1, 2 and 4 apart stay inside each block of 8: one pass each,
    // written as fixed groups the compiler vectorises with in-register permutes (a loop over
    // k < h with h = 1, 2, 4 stays scalar, and took three quarters of the time).
    for (int b = 0; b < n; b += 2) {
      const float x0 = x[b], x1 = x[b + 1];
      x[b] = x0 + x1;
      x[b + 1] = x0 - x1;
    }
    for (int b = 0; b < n; b += 4) {
      const float x0 = x[b], x1 = x[b + 1], x2 = x[b + 2], x3 = x[b + 3];
      x[b] = x0 + x2;
      x[b + 1] = x1 + x3;
      x[b + 2] = x0 - x2;
      x[b + 3] = x1 - x3;
    }
    for (int b = 0; b < n; b += 8) {
      float t[8];
      for (int i = 0; i < 8; ++i) t[i] = x[b + i];
      for (int i = 0; i < 4; ++i) {
        x[b + i] = t[i] + t[i + 4];
        x[b + i + 4] = t[i] - t[i + 4];
      }
    }
    h = 8;
  }
  for (; 4 * h <= n; h *= 4)
    for (int block = 0; block < n; block += 4 * h)
      butterfly_pair(x + block, x + block + h, x + block + 2 * h, x + block + 3 * h, h);
  for (; h < n; h *= 2)
    for (int block = 0; block < n; block += 2 * h) butterfly(x + block, x + block + h, h);
  // The normalization comes last, after additions only: a multiply before an addition may be
  // contracted into a fused multiply-add (gcc's default for GNU C++), which rounds once where
  // the kernels' vector code rounds twice, and their rows would no longer equal these.
  const float normalization = 1.0f / std::sqrt(float(n));
  for (int k = 0; k < n; ++k) x[k] *= normalization;
}

PackedWeights pack(const float* weight, int out, int in, Kernel kernel, Rotation rotation) {
  PackedWeights w;
  w.out = out;
  w.in = in;
  w.kernel = kernel;
  w.rotation = rotation;
  w.levels = levels_for(kernel, in);
  // W H: row n of W H is (H w_n)^T because H is symmetric.
  std::vector<float> rotated;
  if (rotation == Rotation::Hadamard) {
    assert(is_power_of_two(in));
    rotated.assign(weight, weight + size_t(out) * size_t(in));
    for (int n = 0; n < out; ++n) hadamard_transform(rotated.data() + size_t(n) * size_t(in), in);
    weight = rotated.data();
  }
  w.quantized.resize(size_t(out) * size_t(in));
  w.scale.resize(size_t(out));
  for (int n = 0; n < out; ++n)
    w.scale[size_t(n)] = quantize_row(weight + size_t(n) * size_t(in), in, w.levels,
                                      w.quantized.data() + size_t(n) * size_t(in));
  if (kernel == Kernel::Reference) return w;

  const bool vnni = kernel == Kernel::Vnni;
  const int per_group = vnni ? 4 : 2;
  const int width = vnni ? kVnniPanelColumns : kAvx2PanelColumns;
  w.groups = (in + per_group - 1) / per_group;
  w.panels = (out + width - 1) / width;
  const size_t padded = size_t(w.panels) * size_t(width);
  w.panel_data.assign(padded * size_t(w.groups), 0);
  w.panel_scale.assign(padded, 0.0f);
  w.offset_correction.assign(vnni ? padded : 0, 0);
  for (int n = 0; n < out; ++n) {
    const int16_t* row = w.quantized.data() + size_t(n) * size_t(in);
    const int panel = n / width, column = n % width;
    int32_t sum = 0;
    for (int g = 0; g < w.groups; ++g) {
      uint32_t packed = 0;
      for (int j = 0; j < per_group; ++j) {
        const int k = g * per_group + j;
        if (k >= in) break;
        sum += row[k];
        packed |= vnni ? uint32_t(uint8_t(int8_t(row[k]))) << (8 * j)
                       : uint32_t(uint16_t(row[k])) << (16 * j);
      }
      w.panel_data[(size_t(panel) * size_t(w.groups) + size_t(g)) * size_t(width) +
                   size_t(column)] = int32_t(packed);
    }
    w.panel_scale[size_t(n)] = w.scale[size_t(n)];
    if (vnni) w.offset_correction[size_t(n)] = 128 * sum;
  }
  return w;
}

namespace {

// The rows a product quantizes: x itself, or with Rotation::Hadamard H x row by row in a
// per-thread buffer (contiguous, stride w.in; no allocation after the first call at a size).
// x itself is never rotated in place: the trunk adds the products back onto it (the residual
// stream) and passes the same normalised rows to several products.
struct Rows {
  const float* data;
  int stride;
};

// `kernel` picks the transform's code: the reference product keeps the plain one.
Rows rows_to_quantize(const PackedWeights& w, const float* x, int rows, int x_stride,
                      Kernel kernel) {
  if (w.rotation == Rotation::None) return {x, x_stride};
  thread_local AlignedVector<float> rotated;
  const size_t size = size_t(rows) * size_t(w.in);
  if (rotated.size() < size) rotated.resize(size);
  hadamard_rows(x, rows, x_stride, w.in, rotated.data(), kernel);
  return {rotated.data(), w.in};
}

// The plain loops on rows already in the weights' basis.
void gemm_reference_rows(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
                         int y_stride, bool accumulate) {
  std::vector<int16_t> a(size_t(w.in));
  for (int r = 0; r < rows; ++r) {
    const float row_scale =
        quantize_row(x + size_t(r) * size_t(x_stride), w.in, w.levels, a.data());
    for (int n = 0; n < w.out; ++n) {
      const int16_t* q = w.quantized.data() + size_t(n) * size_t(w.in);
      // In 64 bits, then narrowed: levels_for keeps every sum inside int32, as the kernels
      // need.
      int64_t sum = 0;
      for (int k = 0; k < w.in; ++k) sum += int64_t(a[size_t(k)]) * int64_t(q[k]);
      assert(sum == int64_t(int32_t(sum)) && "gemm_reference: a sum outside int32");
      const float value = float(sum) * row_scale * w.scale[size_t(n)];
      float& out = y[size_t(r) * size_t(y_stride) + size_t(n)];
      out = accumulate ? out + value : value;
    }
  }
}

}  // namespace

void gemm_reference(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
                    int y_stride, bool accumulate) {
  const Rows input = rows_to_quantize(w, x, rows, x_stride, Kernel::Reference);
  gemm_reference_rows(w, input.data, rows, input.stride, y, y_stride, accumulate);
}

// ---- x86 kernels ---------------------------------------------------------------------------
// Compiled for every x86 build with target attributes and called only after the run-time
// check (kernel_supported tests exactly the features named here), so a portable binary still
// runs on CPUs without them.

#ifdef AVOCET_X86

// gcc 12 warns that the `__Y` of _mm512_undefined_*() "may be used uninitialized" (undefined on
// purpose) wherever a masked load or a reduction is inlined; see nn/eigen.h.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define AVOCET_VNNI_TARGET __attribute__((target("avx512f,avx512vnni")))
#define AVOCET_AVX2_TARGET __attribute__((target("avx2,fma")))

namespace {

// Quantized rows, one buffer per thread, so the kernels allocate nothing after their first
// call at a given size.
template <typename T>
T* buffer(size_t size) {
  thread_local AlignedVector<T> data;
  if (data.size() < size) data.resize(size);
  return data.data();
}

// Four bytes (a quad of int8 or a pair of int16) as the int32 a broadcast takes.
int32_t load_group(const void* p) {
  int32_t value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// ---- Hadamard transforms ----
// The stages of hadamard_transform on whole registers: the same additions of the same values
// in the same order, so the rows come out equal bit for bit. Stages whose partners lie in one
// register pair its lanes by a permute, and each lane takes its sum (the lower partner) or its
// difference (the upper one: partner - self = lower - upper); the later stages add and subtract
// whole registers.

#define AVOCET_AVX512_TARGET __attribute__((target("avx512f")))

// One stage inside a register: lanes in `upper` hold the upper partner.
AVOCET_AVX512_TARGET __m512 stage_in_register(__m512 v, __m512 partner, __mmask16 upper) {
  return _mm512_mask_sub_ps(_mm512_add_ps(v, partner), upper, partner, v);
}

// H_16 (unnormalized) on 16 consecutive floats: partners 1, 2, 4 and 8 lanes apart.
AVOCET_AVX512_TARGET __m512 hadamard16(__m512 v) {
  v = stage_in_register(v, _mm512_permute_ps(v, 0xB1), 0xAAAA);           // lanes 1 apart
  v = stage_in_register(v, _mm512_permute_ps(v, 0x4E), 0xCCCC);           // 2 apart
  v = stage_in_register(v, _mm512_shuffle_f32x4(v, v, 0xB1), 0xF0F0);     // 4 apart
  return stage_in_register(v, _mm512_shuffle_f32x4(v, v, 0x4E), 0xFF00);  // 8 apart
}

// Whole-register stages on V registers held in an array (distances 1 .. V/2 registers, that
// is 16 .. 8V floats), then the normalization if `last`. Fully unrolled (the pragmas: gcc 12
// otherwise keeps the loops, and the array on the stack), the array stays in registers and a
// stage costs no loads or stores.
template <int V>
AVOCET_AVX512_TARGET inline void register_stages(__m512 (&v)[V], bool last, __m512 normalization) {
  constexpr int stages = std::countr_zero(unsigned(V));  // counted loops, so gcc unrolls them
#pragma GCC unroll 8
  for (int stage = 0; stage < stages; ++stage)
#pragma GCC unroll 8
    for (int j = 0; j < V / 2; ++j) {
      const int h = 1 << stage, i = j / h * 2 * h + j % h;  // the pair's low register
      const __m512 low = v[i], high = v[i + h];
      v[i] = _mm512_add_ps(low, high);
      v[i + h] = _mm512_sub_ps(low, high);
    }
  if (last)
#pragma GCC unroll 8
    for (int i = 0; i < V; ++i) v[i] = _mm512_mul_ps(v[i], normalization);
}

// Stages 1 .. 8V floats apart on each chunk of V registers (16V floats) of a row of n.
template <int V>
AVOCET_AVX512_TARGET void chunk_stages(const float* in, float* row, int n, __m512 normalization) {
  for (int c = 0; c < n; c += 16 * V) {
    __m512 v[V];
#pragma GCC unroll 8
    for (int i = 0; i < V; ++i) v[i] = hadamard16(_mm512_loadu_ps(in + c + 16 * i));
    register_stages(v, 16 * V == n, normalization);
#pragma GCC unroll 8
    for (int i = 0; i < V; ++i) _mm512_storeu_ps(row + c + 16 * i, v[i]);
  }
}

// The stages `distance`, 2 `distance` .. (R/2) `distance` floats apart, R registers at a time.
template <int R>
AVOCET_AVX512_TARGET void strided_stages(float* row, int n, int distance, bool last,
                                         __m512 normalization) {
  for (int block = 0; block < n; block += R * distance)
    for (int k = block; k < block + distance; k += 16) {
      __m512 v[R];
#pragma GCC unroll 8
      for (int i = 0; i < R; ++i) v[i] = _mm512_loadu_ps(row + k + i * distance);
      register_stages(v, last, normalization);
#pragma GCC unroll 8
      for (int i = 0; i < R; ++i) _mm512_storeu_ps(row + k + i * distance, v[i]);
    }
}

// Rows up to 128 floats stay in registers from load to store; longer rows take their first
// seven stages in 128-float chunks, then the rest up to three stages a pass (512 floats: one
// pass of two), so a row is stored at most once per three stages beyond the chunk.
AVOCET_AVX512_TARGET void hadamard_rows_avx512(const float* x, int rows, int x_stride, int n,
                                               float* out) {
  const __m512 normalization = _mm512_set1_ps(1.0f / std::sqrt(float(n)));
  for (int r = 0; r < rows; ++r) {
    const float* in = x + size_t(r) * size_t(x_stride);
    float* row = out + size_t(r) * size_t(n);
    switch (n) {
      case 16:
        chunk_stages<1>(in, row, n, normalization);
        continue;
      case 32:
        chunk_stages<2>(in, row, n, normalization);
        continue;
      case 64:
        chunk_stages<4>(in, row, n, normalization);
        continue;
      default:
        chunk_stages<8>(in, row, n, normalization);
    }
    for (int distance = 128; distance < n;) {
      const int remaining = n / distance;  // 2^(stages left)
      if (remaining >= 8) {
        strided_stages<8>(row, n, distance, remaining == 8, normalization);
        distance *= 8;
      } else if (remaining == 4) {
        strided_stages<4>(row, n, distance, true, normalization);
        distance *= 4;
      } else {
        strided_stages<2>(row, n, distance, true, normalization);
        distance *= 2;
      }
    }
  }
}

// The AVX2 form: lanes in the mask's set bits take the difference.
template <int UPPER>
AVOCET_AVX2_TARGET __m256 stage_in_register(__m256 v, __m256 partner) {
  return _mm256_blend_ps(_mm256_add_ps(v, partner), _mm256_sub_ps(partner, v), UPPER);
}

AVOCET_AVX2_TARGET __m256 hadamard8(__m256 v) {
  v = stage_in_register<0xAA>(v, _mm256_permute_ps(v, 0xB1));
  v = stage_in_register<0xCC>(v, _mm256_permute_ps(v, 0x4E));
  return stage_in_register<0xF0>(v, _mm256_permute2f128_ps(v, v, 0x01));
}

AVOCET_AVX2_TARGET void hadamard_rows_avx2(const float* x, int rows, int x_stride, int n,
                                           float* out) {
  const __m256 normalization = _mm256_set1_ps(1.0f / std::sqrt(float(n)));
  for (int r = 0; r < rows; ++r) {
    const float* in = x + size_t(r) * size_t(x_stride);
    float* row = out + size_t(r) * size_t(n);
    for (int k = 0; k < n; k += 8) _mm256_storeu_ps(row + k, hadamard8(_mm256_loadu_ps(in + k)));
    for (int h = 8; h < n; h *= 2)
      for (int block = 0; block < n; block += 2 * h)
        for (int k = block; k < block + h; k += 8) {
          const __m256 low = _mm256_loadu_ps(row + k), high = _mm256_loadu_ps(row + k + h);
          _mm256_storeu_ps(row + k, _mm256_add_ps(low, high));
          _mm256_storeu_ps(row + k + h, _mm256_sub_ps(low, high));
        }
    for (int k = 0; k < n; k += 8)
      _mm256_storeu_ps(row + k, _mm256_mul_ps(_mm256_loadu_ps(row + k), normalization));
  }
}

// ---- AVX-512 VNNI ----

// Rows per register block: kVnniRows x 4 accumulators (24 of the 32 zmm registers), 4 for the
// weight panel's quads, the rest for the broadcast row values.
constexpr int kVnniRows = 6;

// x rows to unsigned bytes a + 128, `groups` quads per row (padding inputs are 128, a = 0),
// and each row's scale.
AVOCET_VNNI_TARGET void quantize_rows_vnni(const float* x, int rows, int x_stride, int in,
                                           int groups, uint8_t* out, float* row_scale) {
  const int width = 4 * groups;
  for (int r = 0; r < rows; ++r) {
    const float* row = x + size_t(r) * size_t(x_stride);
    __m512 m = _mm512_setzero_ps();
    for (int k = 0; k < in; k += 16) {
      const __mmask16 mask = __mmask16((1u << std::min(16, in - k)) - 1u);
      m = _mm512_max_ps(m, _mm512_abs_ps(_mm512_maskz_loadu_ps(mask, row + k)));
    }
    const float max = _mm512_reduce_max_ps(m);
    row_scale[r] = scale_for(max, kLevels);
    const __m512 inverse = _mm512_set1_ps(inverse_scale_for(max, kLevels));
    uint8_t* bytes = out + size_t(r) * size_t(width);
    for (int k = 0; k < width; k += 16) {
      const __mmask16 load = __mmask16((1u << std::clamp(in - k, 0, 16)) - 1u);
      __m512i q = _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_maskz_loadu_ps(load, row + k), inverse));
      q = _mm512_min_epi32(_mm512_max_epi32(q, _mm512_set1_epi32(-kLevels)),
                           _mm512_set1_epi32(kLevels));
      q = _mm512_add_epi32(q, _mm512_set1_epi32(128));
      const __mmask16 store = __mmask16((1u << std::min(16, width - k)) - 1u);
      _mm512_mask_cvtepi32_storeu_epi8(bytes + k, store, q);
    }
  }
}

// A row's sums times its scale, times the columns' scales, added to `out`'s masked columns when
// accumulating. The fused multiply-add is written out: left to the compiler, whether it fuses
// the multiply into the addition (rounding once instead of twice) depends on the code around it,
// and gcc 12 did for some block heights and not others, so a row's values depended on the rows
// computed with it (Trunk.ReadRowsGetTheValuesOfAFullRun).
AVOCET_VNNI_TARGET __m512 rescale(__m512 scaled, __m512 scale, bool accumulate, __mmask16 mask,
                                  const float* out) {
  return accumulate ? _mm512_fmadd_ps(scaled, scale, _mm512_maskz_loadu_ps(mask, out))
                    : _mm512_mul_ps(scaled, scale);
}

// One register block: ROWS quantized rows against one 64-column panel; writes the first
// `columns` (1..64) outputs of each row.
template <int ROWS>
AVOCET_VNNI_TARGET void vnni_block(const uint8_t* a, int groups, const int32_t* panel,
                                   const int32_t* correction, const float* column_scale,
                                   const float* row_scale, float* y, int y_stride, int columns,
                                   bool accumulate) {
  // Int-typed sums: as __m512i (a vector of long long), gcc 12 spills a third of them to the
  // stack inside the loop; as __v16si it keeps all 24 in registers.
  __v16si sum[ROWS][4];
  for (int r = 0; r < ROWS; ++r)
    for (int j = 0; j < 4; ++j) sum[r][j] = __v16si{};
  for (int g = 0; g < groups; ++g) {
    const int32_t* weights = panel + size_t(g) * kVnniPanelColumns;
    __v16si w[4];
    for (int j = 0; j < 4; ++j) w[j] = (__v16si)_mm512_loadu_si512(weights + 16 * j);
    for (int r = 0; r < ROWS; ++r) {
      const __v16si value =
          (__v16si)_mm512_set1_epi32(load_group(a + (size_t(r) * size_t(groups) + size_t(g)) * 4));
      for (int j = 0; j < 4; ++j)
        sum[r][j] = (__v16si)_mm512_dpbusd_epi32((__m512i)sum[r][j], (__m512i)value, (__m512i)w[j]);
    }
  }
  for (int j = 0; j < 4; ++j) {
    const int valid = std::clamp(columns - 16 * j, 0, 16);
    if (valid == 0) break;
    const __mmask16 mask = __mmask16((1u << valid) - 1u);
    const __m512i offset = _mm512_loadu_si512(correction + 16 * j);
    const __m512 scale = _mm512_loadu_ps(column_scale + 16 * j);
    for (int r = 0; r < ROWS; ++r) {
      float* out = y + size_t(r) * size_t(y_stride) + size_t(16 * j);
      const __m512 scaled =
          _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_sub_epi32((__m512i)sum[r][j], offset)),
                        _mm512_set1_ps(row_scale[r]));
      _mm512_mask_storeu_ps(out, mask, rescale(scaled, scale, accumulate, mask, out));
    }
  }
}

using VnniBlock = void (*)(const uint8_t*, int, const int32_t*, const int32_t*, const float*,
                           const float*, float*, int, int, bool);
constexpr VnniBlock kVnniBlocks[kVnniRows + 1] = {nullptr,        &vnni_block<1>, &vnni_block<2>,
                                                  &vnni_block<3>, &vnni_block<4>, &vnni_block<5>,
                                                  &vnni_block<6>};

void gemm_vnni(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
               int y_stride, bool accumulate) {
  uint8_t* a = buffer<uint8_t>(size_t(rows) * size_t(w.groups) * 4);
  float* row_scale = buffer<float>(size_t(rows));
  quantize_rows_vnni(x, rows, x_stride, w.in, w.groups, a, row_scale);
  // Panel-outer: a panel (groups x 64 x 4 bytes, 8 KB at in = 128) stays in L1 while every
  // row block streams through it.
  for (int panel = 0; panel < w.panels; ++panel) {
    const size_t first_column = size_t(panel) * kVnniPanelColumns;
    const int32_t* weights = w.panel_data.data() + first_column * size_t(w.groups);
    const int columns = std::min(kVnniPanelColumns, w.out - panel * kVnniPanelColumns);
    for (int r = 0; r < rows; r += kVnniRows) {
      const int block_rows = std::min(kVnniRows, rows - r);
      kVnniBlocks[block_rows](a + size_t(r) * size_t(w.groups) * 4, w.groups, weights,
                              w.offset_correction.data() + first_column,
                              w.panel_scale.data() + first_column, row_scale + r,
                              y + size_t(r) * size_t(y_stride) + first_column, y_stride, columns,
                              accumulate);
    }
  }
}

// ---- AVX2 ----

// Rows per register block: kAvx2Rows x 4 accumulators (12 of the 16 ymm registers), one for
// the broadcast row value; the weights are read from L1 as memory operands.
constexpr int kAvx2Rows = 3;

// x rows to int16 a in [-levels, levels], `groups` pairs per row (a padding input is 0), and
// each row's scale.
AVOCET_AVX2_TARGET void quantize_rows_avx2(const float* x, int rows, int x_stride, int in,
                                           int levels, int groups, int16_t* out, float* row_scale) {
  const int width = 2 * groups;
  const __m256 sign = _mm256_set1_ps(-0.0f);
  for (int r = 0; r < rows; ++r) {
    const float* row = x + size_t(r) * size_t(x_stride);
    __m256 m8 = _mm256_setzero_ps();
    int k = 0;
    for (; k + 8 <= in; k += 8)
      m8 = _mm256_max_ps(m8, _mm256_andnot_ps(sign, _mm256_loadu_ps(row + k)));
    __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(m8), _mm256_extractf128_ps(m8, 1));
    m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    m4 = _mm_max_ss(m4, _mm_shuffle_ps(m4, m4, 1));
    float max = _mm_cvtss_f32(m4);
    for (; k < in; ++k) max = std::max(max, std::abs(row[k]));
    row_scale[r] = scale_for(max, levels);
    const float inverse = inverse_scale_for(max, levels);
    const __m256 inverse8 = _mm256_set1_ps(inverse);
    int16_t* values = out + size_t(r) * size_t(width);
    k = 0;
    for (; k + 8 <= in; k += 8) {
      __m256i q = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(row + k), inverse8));
      q = _mm256_min_epi32(_mm256_max_epi32(q, _mm256_set1_epi32(-levels)),
                           _mm256_set1_epi32(levels));
      // packs works per 128-bit lane: (q0..3, q0..3 | q4..7, q4..7); gather the two low halves.
      const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(q, q), 0x08);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(values + k), _mm256_castsi256_si128(packed));
    }
    for (; k < width; ++k) values[k] = k < in ? quantize(row[k], inverse, levels) : 0;
  }
}

template <int ROWS>
AVOCET_AVX2_TARGET void avx2_block(const int16_t* a, int groups, const int32_t* panel,
                                   const float* column_scale, const float* row_scale, float* y,
                                   int y_stride, int columns, bool accumulate) {
  __v8si sum[ROWS][4];  // int-typed, as in vnni_block
  for (int r = 0; r < ROWS; ++r)
    for (int j = 0; j < 4; ++j) sum[r][j] = __v8si{};
  for (int g = 0; g < groups; ++g) {
    const int32_t* weights = panel + size_t(g) * kAvx2PanelColumns;
    for (int r = 0; r < ROWS; ++r) {
      const __m256i value =
          _mm256_set1_epi32(load_group(a + (size_t(r) * size_t(groups) + size_t(g)) * 2));
      for (int j = 0; j < 4; ++j)
        sum[r][j] += (__v8si)_mm256_madd_epi16(
            value, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(weights + 8 * j)));
    }
  }
  for (int j = 0; j < 4; ++j) {
    const int valid = std::clamp(columns - 8 * j, 0, 8);
    if (valid == 0) break;
    const __m256 scale = _mm256_loadu_ps(column_scale + 8 * j);
    for (int r = 0; r < ROWS; ++r) {
      float* out = y + size_t(r) * size_t(y_stride) + size_t(8 * j);
      const __m256 scaled =
          _mm256_mul_ps(_mm256_cvtepi32_ps((__m256i)sum[r][j]), _mm256_set1_ps(row_scale[r]));
      // As rescale() in the VNNI kernel: the multiply-add fused in writing, whatever the
      // compiler would do; a partial panel goes through a copy of its columns.
      if (valid == 8) {
        _mm256_storeu_ps(out, accumulate ? _mm256_fmadd_ps(scaled, scale, _mm256_loadu_ps(out))
                                         : _mm256_mul_ps(scaled, scale));
      } else {
        float values[8] = {};
        if (accumulate) std::copy(out, out + valid, values);
        const __m256 result = accumulate ? _mm256_fmadd_ps(scaled, scale, _mm256_loadu_ps(values))
                                         : _mm256_mul_ps(scaled, scale);
        _mm256_storeu_ps(values, result);
        std::copy(values, values + valid, out);
      }
    }
  }
}

using Avx2Block = void (*)(const int16_t*, int, const int32_t*, const float*, const float*, float*,
                           int, int, bool);
constexpr Avx2Block kAvx2Blocks[kAvx2Rows + 1] = {nullptr, &avx2_block<1>, &avx2_block<2>,
                                                  &avx2_block<3>};

void gemm_avx2(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
               int y_stride, bool accumulate) {
  int16_t* a = buffer<int16_t>(size_t(rows) * size_t(w.groups) * 2);
  float* row_scale = buffer<float>(size_t(rows));
  quantize_rows_avx2(x, rows, x_stride, w.in, w.levels, w.groups, a, row_scale);
  for (int panel = 0; panel < w.panels; ++panel) {
    const size_t first_column = size_t(panel) * kAvx2PanelColumns;
    const int32_t* weights = w.panel_data.data() + first_column * size_t(w.groups);
    const int columns = std::min(kAvx2PanelColumns, w.out - panel * kAvx2PanelColumns);
    for (int r = 0; r < rows; r += kAvx2Rows) {
      const int block_rows = std::min(kAvx2Rows, rows - r);
      kAvx2Blocks[block_rows](a + size_t(r) * size_t(w.groups) * 2, w.groups, weights,
                              w.panel_scale.data() + first_column, row_scale + r,
                              y + size_t(r) * size_t(y_stride) + first_column, y_stride, columns,
                              accumulate);
    }
  }
}

}  // namespace

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // AVOCET_X86

void hadamard_rows(const float* x, int rows, int x_stride, int n, float* out, Kernel kernel) {
  assert(is_power_of_two(n) && kernel_supported(kernel));
#ifdef AVOCET_X86
  if (kernel == Kernel::Vnni && n >= 16) return hadamard_rows_avx512(x, rows, x_stride, n, out);
  if (kernel == Kernel::Avx2 && n >= 8) return hadamard_rows_avx2(x, rows, x_stride, n, out);
#endif
  for (int r = 0; r < rows; ++r) {
    float* row = out + size_t(r) * size_t(n);
    std::memcpy(row, x + size_t(r) * size_t(x_stride), size_t(n) * sizeof(float));
    hadamard_transform(row, n);
  }
}

void gemm(const PackedWeights& w, const float* x, int rows, int x_stride, float* y, int y_stride,
          bool accumulate) {
  assert(kernel_supported(w.kernel));
  const Rows input = rows_to_quantize(w, x, rows, x_stride, w.kernel);
  switch (w.kernel) {
#ifdef AVOCET_X86
    case Kernel::Vnni:
      return gemm_vnni(w, input.data, rows, input.stride, y, y_stride, accumulate);
    case Kernel::Avx2:
      return gemm_avx2(w, input.data, rows, input.stride, y, y_stride, accumulate);
#else
    case Kernel::Vnni:
    case Kernel::Avx2:
      std::abort();  // unreachable: kernel_supported is false off x86
#endif
    case Kernel::Reference:
      return gemm_reference_rows(w, input.data, rows, input.stride, y, y_stride, accumulate);
  }
}

bool kernel_supported(Kernel kernel) {
#ifdef AVOCET_X86
  // __builtin_cpu_supports also checks that the OS saves the registers (XCR0).
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  static const bool vnni =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni");
  switch (kernel) {
    case Kernel::Avx2:
      return avx2 && cpu_level_allowed(CpuLevel::Avx2);
    case Kernel::Vnni:
      return vnni && cpu_level_allowed(CpuLevel::Avx512Vnni);
    case Kernel::Reference:
      return true;
  }
  return false;
#else
  return kernel == Kernel::Reference;
#endif
}

std::optional<Kernel> best_kernel() {
  for (Kernel k : {Kernel::Vnni, Kernel::Avx2})
    if (kernel_supported(k)) return k;
  return std::nullopt;
}

namespace {
std::optional<Kernel> chosen_kernel;
}  // namespace

// A kernel chosen above a limit set since (nn/cpu_level.h) gives way to the best one under it.
std::optional<Kernel> selected_kernel() {
  return chosen_kernel && kernel_supported(*chosen_kernel) ? chosen_kernel : best_kernel();
}

void select_kernel(Kernel kernel) {
  assert(kernel_supported(kernel));
  chosen_kernel = kernel;
}

std::string_view kernel_name(Kernel kernel) {
  switch (kernel) {
    case Kernel::Reference:
      return "reference";
    case Kernel::Avx2:
      return "avx2";
    case Kernel::Vnni:
      return "vnni";
  }
  return "?";
}

}  // namespace avocet::nn::int8
