#include "avocet/nn/kernels/bf16_gemm.h"

#include "avocet/nn/cpu_level.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define AVOCET_X86 1
#endif

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>

namespace avocet::nn::bf16 {

uint16_t to_bf16(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7f800000u) == 0) return uint16_t((bits >> 16) & 0x8000u);         // zero, denormal
  if ((bits & 0x7fffffffu) > 0x7f800000u) return uint16_t((bits >> 16) | 0x40u);  // quiet NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);  // round half to even
  return uint16_t(bits >> 16);
}

float from_bf16(uint16_t value) { return std::bit_cast<float>(uint32_t(value) << 16); }

namespace {

uint32_t pair_of(float even, float odd) {
  return uint32_t(to_bf16(even)) | uint32_t(to_bf16(odd)) << 16;
}

// x rows as bf16 pairs, `pairs` per row (an odd `in` gets a zero partner). One buffer per
// thread, so the kernels allocate nothing after their first call at a given size.
AlignedVector<uint32_t>& pair_buffer(size_t size) {
  thread_local AlignedVector<uint32_t> buffer;
  if (buffer.size() < size) buffer.resize(size);
  return buffer;
}

}  // namespace

PackedWeights pack(const float* weight, int out, int in) {
  PackedWeights w;
  w.out = out;
  w.in = in;
  w.pairs = (in + 1) / 2;
  w.panels = (out + kPanelColumns - 1) / kPanelColumns;
  w.data.assign(size_t(w.panels) * size_t(w.pairs) * kPanelColumns, 0u);
  for (int n = 0; n < out; ++n) {
    const float* row = weight + size_t(n) * size_t(in);
    const int panel = n / kPanelColumns, column = n % kPanelColumns;
    for (int p = 0; p < w.pairs; ++p) {
      const float odd = 2 * p + 1 < in ? row[2 * p + 1] : 0.0f;
      w.data[(size_t(panel) * size_t(w.pairs) + size_t(p)) * kPanelColumns + size_t(column)] =
          pair_of(row[2 * p], odd);
    }
  }
  return w;
}

void gemm_reference(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
                    int y_stride, bool accumulate) {
  for (int r = 0; r < rows; ++r) {
    const float* in = x + size_t(r) * size_t(x_stride);
    for (int n = 0; n < w.out; ++n) {
      const uint32_t* column = w.data.data() +
                               size_t(n / kPanelColumns) * size_t(w.pairs) * kPanelColumns +
                               size_t(n % kPanelColumns);
      float sum = 0.0f;
      for (int p = 0; p < w.pairs; ++p) {
        const uint32_t weights = column[size_t(p) * kPanelColumns];
        const float odd = 2 * p + 1 < w.in ? in[2 * p + 1] : 0.0f;
        sum += from_bf16(to_bf16(in[2 * p])) * from_bf16(uint16_t(weights)) +
               from_bf16(to_bf16(odd)) * from_bf16(uint16_t(weights >> 16));
      }
      float& out = y[size_t(r) * size_t(y_stride) + size_t(n)];
      out = accumulate ? out + sum : sum;
    }
  }
}

// ---- AVX-512 BF16 -------------------------------------------------------------------------
// Compiled for every x86 build with a target attribute, and called only after the run-time
// check (avx512_bf16_supported tests exactly the features named here), so a portable binary
// still runs, in fp32, on CPUs without these instructions.

#ifdef AVOCET_X86

#define AVOCET_BF16_TARGET __attribute__((target("avx512f,avx512bf16")))

namespace {

// Rows per register block: kRows x 4 accumulators (24 of the 32 zmm registers), 4 for the
// weight panel's pairs, the rest for the broadcast row values.
constexpr int kRows = 6;

// x rows [rows, in] to bf16 pairs [rows, pairs]: 16 values (8 pairs) per conversion, then
// whole pairs, the odd input's partner zero.
AVOCET_BF16_TARGET void convert_rows(const float* x, int rows, int x_stride, int in, int pairs,
                                     uint32_t* out) {
  for (int r = 0; r < rows; ++r) {
    const float* row = x + size_t(r) * size_t(x_stride);
    uint32_t* row_pairs = out + size_t(r) * size_t(pairs);
    int i = 0;
    for (; i + 16 <= in; i += 16)  // an intrinsic store may alias anything
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(row_pairs + i / 2),
                          reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(_mm512_loadu_ps(row + i))));
    for (; i < in; i += 2) row_pairs[i / 2] = pair_of(row[i], i + 1 < in ? row[i + 1] : 0.0f);
  }
}

// One register block: `ROWS` rows of x (bf16 pairs) against one 64-column weight panel;
// writes the first `columns` (1..64) of the rows' outputs.
template <int ROWS>
AVOCET_BF16_TARGET void block(const uint32_t* x_pairs, int pairs, const uint32_t* panel, float* y,
                              int y_stride, int columns, bool accumulate) {
  __m512 sum[ROWS][4];
  for (int r = 0; r < ROWS; ++r)
    for (int j = 0; j < 4; ++j) sum[r][j] = _mm512_setzero_ps();
  for (int p = 0; p < pairs; ++p) {
    const uint32_t* weights = panel + size_t(p) * kPanelColumns;
    __m512bh w[4];
    for (int j = 0; j < 4; ++j)
      w[j] = reinterpret_cast<__m512bh>(_mm512_loadu_si512(weights + 16 * j));
    for (int r = 0; r < ROWS; ++r) {
      const __m512bh value = reinterpret_cast<__m512bh>(
          _mm512_set1_epi32(int(x_pairs[size_t(r) * size_t(pairs) + size_t(p)])));
      for (int j = 0; j < 4; ++j) sum[r][j] = _mm512_dpbf16_ps(sum[r][j], value, w[j]);
    }
  }
  for (int j = 0; j < 4; ++j) {
    const int valid = std::clamp(columns - 16 * j, 0, 16);
    if (valid == 0) break;
    const __mmask16 mask = __mmask16((1u << valid) - 1u);
    for (int r = 0; r < ROWS; ++r) {
      float* out = y + size_t(r) * size_t(y_stride) + size_t(16 * j);
      __m512 result = sum[r][j];
      if (accumulate) result = _mm512_add_ps(result, _mm512_maskz_loadu_ps(mask, out));
      _mm512_mask_storeu_ps(out, mask, result);
    }
  }
}

using BlockKernel = void (*)(const uint32_t*, int, const uint32_t*, float*, int, int, bool);
constexpr BlockKernel kBlocks[kRows + 1] = {nullptr,   &block<1>, &block<2>, &block<3>,
                                            &block<4>, &block<5>, &block<6>};

}  // namespace

#endif  // AVOCET_X86

void gemm_avx512(const PackedWeights& w, const float* x, int rows, int x_stride, float* y,
                 int y_stride, bool accumulate) {
#ifdef AVOCET_X86
  assert(avx512_bf16_supported());
  AlignedVector<uint32_t>& x_pairs = pair_buffer(size_t(rows) * size_t(w.pairs));
  convert_rows(x, rows, x_stride, w.in, w.pairs, x_pairs.data());
  // Panel-outer: a panel (pairs x 64 x 4 bytes, 16 KB at in = 128) stays in L1/L2 while every
  // row block streams through it.
  for (int panel = 0; panel < w.panels; ++panel) {
    const uint32_t* weights = w.data.data() + size_t(panel) * size_t(w.pairs) * kPanelColumns;
    const int columns = std::min(kPanelColumns, w.out - panel * kPanelColumns);
    float* y_panel = y + size_t(panel) * kPanelColumns;
    for (int r = 0; r < rows; r += kRows) {
      const int block_rows = std::min(kRows, rows - r);
      kBlocks[block_rows](x_pairs.data() + size_t(r) * size_t(w.pairs), w.pairs, weights,
                          y_panel + size_t(r) * size_t(y_stride), y_stride, columns, accumulate);
    }
  }
#else
  (void)w, (void)x, (void)rows, (void)x_stride, (void)y, (void)y_stride, (void)accumulate;
  std::abort();  // unreachable: avx512_bf16_supported() is false off x86
#endif
}

bool avx512_bf16_supported() {
#ifdef AVOCET_X86
  // __builtin_cpu_supports also checks that the OS saves the zmm registers (XCR0).
  static const bool supported =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
  return supported && cpu_level_allowed(CpuLevel::Avx512Bf16);
#else
  return false;
#endif
}

}  // namespace avocet::nn::bf16
