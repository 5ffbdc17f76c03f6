// attention_avx512 and attention_avx512_bf16 (nn/kernels/attention_avx512.h): four queries at a
// time, their scores against K^T held in registers, a vectorised exp, and the weighted sum of V
// normalised once at the end; relative terms only over each query's 8 x 8 window of offsets.
// Compiled for every x86 build with a target attribute and called only after the run-time
// check, so a portable binary still runs on CPUs without AVX-512.
#include "avocet/nn/kernels/attention_avx512.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define AVOCET_X86 1
#endif

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>

#include "avocet/nn/aligned_vector.h"
#include "avocet/nn/cpu_level.h"
#include "cephes_exp.h"

namespace avocet::nn {

#ifdef AVOCET_X86

// gcc 12 warns that the `__Y` of _mm512_undefined_*() "is" or "may be used uninitialized"
// (undefined on purpose) wherever a masked load, a shuffle or a reduction is inlined; see
// nn/eigen.h.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

// fma for the 8-lane products of the relative terms (every AVX-512 CPU has it).
#define AVOCET_ATTENTION_TARGET __attribute__((target("avx512f,fma")))

namespace {

// e^x for x <= 0 (scores minus their maximum), as Cephes' expf (kernels/cephes_exp.h), times 2^n by
// vscalefps. Relative error ~2e-7 down
// to x = -87, below which the result is a denormal or zero and weighs nothing in a softmax.
AVOCET_ATTENTION_TARGET __m512 exp_nonpositive(__m512 x) {
  x = _mm512_max_ps(x, _mm512_set1_ps(-87.0f));
  using namespace cephes_exp;
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(kLog2e)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2High), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Low), r);
  __m512 p = _mm512_set1_ps(kPolynomial[0]);
  for (int i = 1; i < kTerms; ++i) p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kPolynomial[i]));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);
}

// Transposes a 16 x 16 block in registers: rows[u][c] becomes rows[c][u]. Unpacks and
// in-lane shuffles make 4 x 4 transposes within each 128-bit lane (rows[4g + m] then holds
// column 4l + m of rows 4g .. 4g + 3 in lane l), and two rounds of lane shuffles gather lane l
// of rows[m], rows[4 + m], rows[8 + m] and rows[12 + m] into column 4l + m.
AVOCET_ATTENTION_TARGET void transpose16(__m512 rows[16]) {
  __m512 t[16];
  for (int g = 0; g < 16; g += 4) {
    const __m512 a = _mm512_unpacklo_ps(rows[g], rows[g + 1]);
    const __m512 b = _mm512_unpackhi_ps(rows[g], rows[g + 1]);
    const __m512 c = _mm512_unpacklo_ps(rows[g + 2], rows[g + 3]);
    const __m512 d = _mm512_unpackhi_ps(rows[g + 2], rows[g + 3]);
    t[g] = _mm512_shuffle_ps(a, c, _MM_SHUFFLE(1, 0, 1, 0));
    t[g + 1] = _mm512_shuffle_ps(a, c, _MM_SHUFFLE(3, 2, 3, 2));
    t[g + 2] = _mm512_shuffle_ps(b, d, _MM_SHUFFLE(1, 0, 1, 0));
    t[g + 3] = _mm512_shuffle_ps(b, d, _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int m = 0; m < 4; ++m) {
    // Lanes (0, 2) and (1, 3) of rows m and 4 + m, then of 8 + m and 12 + m.
    const __m512 even_low = _mm512_shuffle_f32x4(t[m], t[4 + m], 0x88);
    const __m512 odd_low = _mm512_shuffle_f32x4(t[m], t[4 + m], 0xdd);
    const __m512 even_high = _mm512_shuffle_f32x4(t[8 + m], t[12 + m], 0x88);
    const __m512 odd_high = _mm512_shuffle_f32x4(t[8 + m], t[12 + m], 0xdd);
    rows[m] = _mm512_shuffle_f32x4(even_low, even_high, 0x88);      // lane 0: column m
    rows[8 + m] = _mm512_shuffle_f32x4(even_low, even_high, 0xdd);  // lane 2
    rows[4 + m] = _mm512_shuffle_f32x4(odd_low, odd_high, 0x88);    // lane 1
    rows[12 + m] = _mm512_shuffle_f32x4(odd_low, odd_high, 0xdd);   // lane 3
  }
}

// ---- Relative position terms (AttentionTerms::relative) ----
// A query's 64 square keys read an 8 x 8 window of the 15 x 15 offsets: for the 8 keys on one rank
// the offsets are 8 consecutive table rows, in descending order as the key's file rises. So
// q_i . A[r] and k_j . B[r] are computed for exactly those 64 keys (not against all 225 rows, 3.5
// times the work), with A and B transposed to columns and reversed so that one 8-float load gives
// a rank's 8 keys in token order; C is read by rows, one key at a time.

// A or B by column: [head_size, kTableStride], offset r at position kTableStride - 1 - r; the first
// kTableStride - kRelativeOffsets positions of each column are padding.
constexpr int kTableStride = 16 * ((kRelativeOffsets + 15) / 16);

// Where the by-column layout holds the offset between the query on (rank, file) and the key on
// file a of rank 8; the key on board row `key_row` (0 for rank 8) and file f is at
// first - 15 * key_row + f, as its offset is r = (rank + key_row) * 15 + file + 7 - f.
constexpr int first_window_position(int rank, int file) {
  return kTableStride - 1 - (15 * rank + file + 7);
}
static_assert(first_window_position(7, 7) - 15 * 7 >= kTableStride - kRelativeOffsets);
static_assert(first_window_position(0, 0) + 7 == kTableStride - 1);

// One head's tables: A and B by column (above), C as stored ([225, head_size]).
struct RelativeHead {
  const float* query_table;
  const float* key_table;
  const float* value_table;
};

// A 16 x 16 block of a row-major matrix (row stride `stride`), transposed: rows[u] = column
// c0 + u of rows r0 .. r0 + 15. Rows from `valid_rows` on and columns from c0 + `columns` on
// read as zero.
AVOCET_ATTENTION_TARGET inline void load_transposed(const float* matrix, size_t stride, int r0,
                                                    int valid_rows, int c0, int columns,
                                                    __m512 rows[16]) {
  const __mmask16 mask = __mmask16((1u << columns) - 1u);
  for (int u = 0; u < 16; ++u)
    rows[u] = r0 + u < valid_rows
                  ? _mm512_maskz_loadu_ps(mask, matrix + size_t(r0 + u) * stride + size_t(c0))
                  : _mm512_setzero_ps();
  transpose16(rows);
}

// `table` [225, head_size] into `by_column` [head_size, kTableStride] by 16 x 16 transposes, each
// transposed row reversed on its way out.
AVOCET_ATTENTION_TARGET void transpose_reversed(const float* table, int head_size,
                                                float* by_column) {
  const __m512i reverse = _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (int r0 = 0; r0 < kRelativeOffsets; r0 += 16)
    for (int c0 = 0; c0 < head_size; c0 += 16) {
      const int columns = std::min(16, head_size - c0);
      __m512 rows[16];
      load_transposed(table, size_t(head_size), r0, kRelativeOffsets, c0, columns, rows);
      // Offsets r0 .. r0 + 15 land at positions kTableStride - 1 - r0 down to kTableStride - 16 -
      // r0 (the last block's rows past 225, zero, in the padding).
      for (int u = 0; u < columns; ++u)
        _mm512_storeu_ps(by_column + (c0 + u) * kTableStride + kTableStride - 16 - r0,
                         _mm512_permutexvar_ps(reverse, rows[u]));
    }
}

// logits[kFirstSquareToken + key] = q . A[r] + k_key . B[r] for the 64 square keys of the query on
// `square` (0 for a8 ... 63 for h1), from its query row and the head's K^T `keys` [head_size,
// padded] (tokens as columns): eight 8-lane sums of each kind, one per board row of keys. Loads,
// not multiplications, bound it (three per two products).
AVOCET_ATTENTION_TARGET void relative_logits(const float* query, const float* keys, int padded,
                                             int head_size, const RelativeHead& relative,
                                             int square, float* logits) {
  const int first = first_window_position(7 - square / 8, square % 8);
  __m256 from_query[8], from_key[8];
  for (int row = 0; row < 8; ++row) from_query[row] = from_key[row] = _mm256_setzero_ps();
  for (int c = 0; c < head_size; ++c) {
    const __m256 qc = _mm256_set1_ps(query[c]);
    const float* a = relative.query_table + c * kTableStride + first;
    const float* b = relative.key_table + c * kTableStride + first;
    const float* k = keys + c * padded + kFirstSquareToken;
    for (int row = 0; row < 8; ++row) {
      from_query[row] = _mm256_fmadd_ps(qc, _mm256_loadu_ps(a - 15 * row), from_query[row]);
      from_key[row] = _mm256_fmadd_ps(_mm256_loadu_ps(k + 8 * row), _mm256_loadu_ps(b - 15 * row),
                                      from_key[row]);
    }
  }
  for (int row = 0; row < 8; ++row)
    _mm256_storeu_ps(logits + kFirstSquareToken + 8 * row,
                     _mm256_add_ps(from_query[row], from_key[row]));
}

bool is_square_token(int token) {
  return token >= kFirstSquareToken && token < kFirstSquareToken + 64;
}

// The weights a query that is not a square gives C's rows: none.
constexpr float kNoWeights[kFirstSquareToken + 64] = {};

// Queries per register block: their scores are kQueries x BLOCKS registers (20 of the 32 at 77
// tokens), and each key vector loaded serves all of them; likewise each value row.
constexpr int kQueries = 4;

// The unnormalised softmax weights of one query: its scores (BLOCKS registers of 16 keys, any
// relative logits already added) times `score_scale`, plus its `bias_row` (null: none), with the
// keys from the final block's `last_keys` mask on weighted zero; e^(score - max) is written to
// `weights` [16 * BLOCKS]. Returns 1 / the weights' sum.
template <int BLOCKS>
AVOCET_ATTENTION_TARGET float softmax_row(__m512 (&scores)[BLOCKS], __m512 score_scale,
                                          const float* bias_row, __mmask16 last_keys,
                                          float* weights) {
  const __m512 minus_infinity = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  __m512 max = minus_infinity;
  for (int b = 0; b < BLOCKS; ++b) {
    scores[b] = _mm512_mul_ps(scores[b], score_scale);
    if (bias_row)
      scores[b] = _mm512_add_ps(scores[b], b == BLOCKS - 1
                                               ? _mm512_maskz_loadu_ps(last_keys, bias_row + 16 * b)
                                               : _mm512_loadu_ps(bias_row + 16 * b));
    if (b == BLOCKS - 1) scores[b] = _mm512_mask_mov_ps(minus_infinity, last_keys, scores[b]);
    max = _mm512_max_ps(max, scores[b]);
  }
  const __m512 row_max = _mm512_set1_ps(_mm512_reduce_max_ps(max));
  __m512 total = _mm512_setzero_ps();
  for (int b = 0; b < BLOCKS; ++b) {
    __m512 e = exp_nonpositive(_mm512_sub_ps(scores[b], row_max));
    if (b == BLOCKS - 1) e = _mm512_maskz_mov_ps(last_keys, e);
    total = _mm512_add_ps(total, e);
    _mm512_storeu_ps(weights + 16 * b, e);
  }
  return 1.0f / _mm512_reduce_add_ps(total);
}

// One head, BLOCKS blocks of 16 keys (tokens <= 16 * BLOCKS), with the head's logit biases
// `bias` [tokens, tokens] or null and its relative terms or null. Scratch: `keys` for K^T
// [head_size, 16 * BLOCKS], `queries` for Q [tokens rounded up to kQueries, head_size] (the
// rows past `tokens` zero), `weights` for a query block's unnormalised softmax
// [kQueries, 16 * BLOCKS] and, with relative terms, `offset_logits` for its relative logits
// [kQueries, 16 * BLOCKS] (zero at keys that are not squares).
template <int BLOCKS>
AVOCET_ATTENTION_TARGET void attend_head(const float* qkv, int qkv_stride, int tokens, int d,
                                         int head_size, int h, const float* bias,
                                         const RelativeHead* relative, float* out, int out_stride,
                                         float* keys, float* queries, float* weights,
                                         float* offset_logits) {
  constexpr int padded = 16 * BLOCKS;
  const int query_rows = (tokens + kQueries - 1) / kQueries * kQueries;
  const float* q = qkv + h * head_size;
  const float* k = q + d;
  const float* v = q + 2 * d;
  // K^T by 16 x 16 transposes (keys past `tokens` zero); Q rows copied (rows past it zero).
  for (int j0 = 0; j0 < padded; j0 += 16)
    for (int c0 = 0; c0 < head_size; c0 += 16) {
      const int columns = std::min(16, head_size - c0);
      __m512 rows[16];
      load_transposed(k, size_t(qkv_stride), j0, tokens, c0, columns, rows);
      for (int u = 0; u < columns; ++u) _mm512_storeu_ps(keys + (c0 + u) * padded + j0, rows[u]);
    }
  for (int i = 0; i < query_rows; ++i)
    for (int c0 = 0; c0 < head_size; c0 += 16) {
      const __mmask16 mask = __mmask16((1u << std::min(16, head_size - c0)) - 1u);
      const __m512 row =
          i < tokens ? _mm512_maskz_loadu_ps(mask, q + size_t(i) * size_t(qkv_stride) + size_t(c0))
                     : _mm512_setzero_ps();
      _mm512_mask_storeu_ps(queries + i * head_size + c0, mask, row);
    }
  const __m512 score_scale = _mm512_set1_ps(1.0f / std::sqrt(float(head_size)));
  const __mmask16 last_keys = __mmask16((1u << (tokens - 16 * (BLOCKS - 1))) - 1u);

  for (int i0 = 0; i0 < tokens; i0 += kQueries) {
    bool square_query[kQueries];
    bool any_square_query = false;
    for (int r = 0; r < kQueries; ++r) {
      square_query[r] = relative && i0 + r < tokens && is_square_token(i0 + r);
      any_square_query |= square_query[r];
      if (square_query[r])
        relative_logits(queries + (i0 + r) * head_size, keys, padded, head_size, *relative,
                        i0 + r - kFirstSquareToken, offset_logits + r * padded);
    }
    // Scores of kQueries queries against every key.
    __m512 scores[kQueries][BLOCKS];
    for (auto& row : scores)
      for (__m512& s : row) s = _mm512_setzero_ps();
    for (int c = 0; c < head_size; ++c) {
      __m512 key[BLOCKS];
      for (int b = 0; b < BLOCKS; ++b) key[b] = _mm512_loadu_ps(keys + c * padded + 16 * b);
      for (int r = 0; r < kQueries; ++r) {
        const __m512 qc = _mm512_set1_ps(queries[(i0 + r) * head_size + c]);
        for (int b = 0; b < BLOCKS; ++b) scores[r][b] = _mm512_fmadd_ps(qc, key[b], scores[r][b]);
      }
    }
    // Unnormalised softmax weights, and each query's normaliser.
    float normaliser[kQueries];
    for (int r = 0; r < kQueries; ++r) {
      if (square_query[r])
        for (int b = 0; b < BLOCKS; ++b)
          scores[r][b] =
              _mm512_add_ps(scores[r][b], _mm512_loadu_ps(offset_logits + r * padded + 16 * b));
      normaliser[r] = softmax_row<BLOCKS>(
          scores[r], score_scale,
          bias && i0 + r < tokens ? bias + size_t(i0 + r) * size_t(tokens) : nullptr, last_keys,
          weights + r * padded);
    }
    // out_i = sum_j w_ij v_j / sum_j w_ij, 32 columns at a time (the second 16 masked, or
    // absent, at the head's end): kQueries x 2 independent sums.
    for (int c0 = 0; c0 < head_size; c0 += 32) {
      const __mmask16 low = __mmask16((1u << std::min(16, head_size - c0)) - 1u);
      const __mmask16 high = __mmask16((1u << std::clamp(head_size - c0 - 16, 0, 16)) - 1u);
      __m512 sum[kQueries][2];
      for (auto& row : sum) row[0] = row[1] = _mm512_setzero_ps();
      for (int j = 0; j < tokens; ++j) {
        const float* row = v + size_t(j) * size_t(qkv_stride) + size_t(c0);
        const __m512 value_low = _mm512_maskz_loadu_ps(low, row);
        const __m512 value_high = _mm512_maskz_loadu_ps(high, row + 16);
        for (int r = 0; r < kQueries; ++r) {
          const __m512 w = _mm512_set1_ps(weights[r * padded + j]);
          sum[r][0] = _mm512_fmadd_ps(w, value_low, sum[r][0]);
          sum[r][1] = _mm512_fmadd_ps(w, value_high, sum[r][1]);
        }
      }
      if (any_square_query) {
        // sum_j w_ij C[r_ij] over the square keys, in the same sums: the key on board row
        // `key_row`, file f of the query on (rank, file) reads C's row (rank + key_row) * 15 +
        // file + 7 - f. A query that is not a square reads valid rows with zero weights, which
        // keeps the kQueries sums independent.
        const float* value_row[kQueries];
        const float* weight_row[kQueries];
        for (int r = 0; r < kQueries; ++r) {
          const int square = square_query[r] ? i0 + r - kFirstSquareToken : 0;
          const int rank = 7 - square / 8, file = square % 8;
          value_row[r] =
              relative->value_table + size_t(15 * rank + file + 7) * size_t(head_size) + c0;
          weight_row[r] = (square_query[r] ? weights + r * padded : kNoWeights) + kFirstSquareToken;
        }
        for (int key_row = 0; key_row < 8; ++key_row)
          for (int f = 0; f < 8; ++f) {
            const int offset = (15 * key_row - f) * head_size, key = 8 * key_row + f;
            for (int r = 0; r < kQueries; ++r) {
              const __m512 w = _mm512_set1_ps(weight_row[r][key]);
              const float* row = value_row[r] + offset;
              sum[r][0] = _mm512_fmadd_ps(w, _mm512_maskz_loadu_ps(low, row), sum[r][0]);
              sum[r][1] = _mm512_fmadd_ps(w, _mm512_maskz_loadu_ps(high, row + 16), sum[r][1]);
            }
          }
      }
      for (int r = 0; r < kQueries && i0 + r < tokens; ++r) {
        float* result = out + size_t(i0 + r) * size_t(out_stride) + size_t(h * head_size + c0);
        const __m512 scale = _mm512_set1_ps(normaliser[r]);
        _mm512_mask_storeu_ps(result, low, _mm512_mul_ps(sum[r][0], scale));
        _mm512_mask_storeu_ps(result + 16, high, _mm512_mul_ps(sum[r][1], scale));
      }
    }
  }
}

using HeadKernel = void (*)(const float*, int, int, int, int, int, const float*,
                            const RelativeHead*, float*, int, float*, float*, float*, float*);
constexpr HeadKernel kHeadKernels[] = {&attend_head<1>, &attend_head<2>, &attend_head<3>,
                                       &attend_head<4>, &attend_head<5>, &attend_head<6>,
                                       &attend_head<7>, &attend_head<8>};
static_assert(std::size(kHeadKernels) * 16 == kMaxAvx512Tokens);

// ---- bf16 products (attention_avx512_bf16) ----
// vdpbf16ps multiplies pairs of bf16 and adds both products to an fp32 lane: twice the
// multiply-adds of an fp32 FMA per instruction. Its operands are "pairs": two bf16 in one
// 32-bit lane, the lower one first. Q . K^T pairs up consecutive columns of a head (a query's
// pair is broadcast against the pairs of 16 keys); P V pairs up consecutive keys (a query's
// two weights are broadcast against two value rows' interleaved columns). The softmax between
// them stays in fp32, as in attend_head, and only its weights are rounded for P V.

#define AVOCET_ATTENTION_BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512bf16,fma")))

// 32 floats rounded to bf16 in order: lane p holds columns 2p and 2p + 1 as one pair.
AVOCET_ATTENTION_BF16_TARGET inline __m512 column_pairs(const float* row) {
  return (__m512)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(row + 16), _mm512_loadu_ps(row));
}

// 16 floats rounded to bf16, each in the low half of a 32-bit lane. (A function, not a lambda
// in the kernel: a lambda does not take its enclosing function's target attribute, and a
// build without -march=native then cannot inline the intrinsics into it.)
AVOCET_ATTENTION_BF16_TARGET inline __m512i widened_bf16(const float* row) {
  return _mm512_cvtepu16_epi32((__m256i)_mm512_cvtneps_pbh(_mm512_loadu_ps(row)));
}

// Scratch of attend_head_bf16, as 32-bit pairs unless said otherwise.
struct Bf16HeadScratch {
  uint32_t* keys;     // [head_size / 2, padded]: K^T by column pairs (keys past `tokens` zero)
  uint32_t* queries;  // [query rows, head_size / 2]: Q by column pairs (rows past `tokens` zero)
  uint32_t* values;   // [ceil(tokens / 2), head_size]: V by key pairs (a missing key zero)
  uint16_t* weights;  // [kQueries, padded] bf16: a query block's unnormalised softmax
};

// One head as attend_head computes it without relative terms, with both products in bf16;
// head_size a multiple of 32.
template <int BLOCKS>
AVOCET_ATTENTION_BF16_TARGET void attend_head_bf16(const float* qkv, int qkv_stride, int tokens,
                                                   int d, int head_size, int h, const float* bias,
                                                   float* out, int out_stride,
                                                   const Bf16HeadScratch& scratch) {
  constexpr int padded = 16 * BLOCKS;
  const int pairs = head_size / 2, query_rows = (tokens + kQueries - 1) / kQueries * kQueries;
  const int key_pairs = (tokens + 1) / 2;
  const size_t stride = size_t(qkv_stride);
  const float* q = qkv + h * head_size;
  const float* k = q + d;
  const float* v = q + 2 * d;
  // K^T: each key's pairs, 16 keys at a time, transposed so that a register holds one pair
  // of columns for 16 keys (transpose16 moves 32-bit lanes, whatever they hold).
  for (int j0 = 0; j0 < padded; j0 += 16)
    for (int p0 = 0; p0 < pairs; p0 += 16) {
      __m512 rows[16];
      for (int u = 0; u < 16; ++u)
        rows[u] = j0 + u < tokens ? column_pairs(k + size_t(j0 + u) * stride + size_t(2 * p0))
                                  : _mm512_setzero_ps();
      transpose16(rows);
      for (int u = 0; u < 16; ++u) _mm512_storeu_ps(scratch.keys + (p0 + u) * padded + j0, rows[u]);
    }
  for (int i = 0; i < query_rows; ++i)
    for (int p0 = 0; p0 < pairs; p0 += 16)
      _mm512_storeu_ps(
          scratch.queries + i * pairs + p0,
          i < tokens ? column_pairs(q + size_t(i) * stride + size_t(2 * p0)) : _mm512_setzero_ps());
  // V: keys 2m and 2m + 1 interleaved column by column (a missing last key zero).
  for (int m = 0; m < key_pairs; ++m)
    for (int c0 = 0; c0 < head_size; c0 += 16) {
      const float* first = v + size_t(2 * m) * stride + size_t(c0);
      const __m512i low = widened_bf16(first);
      const __m512i high =
          2 * m + 1 < tokens ? widened_bf16(first + stride) : _mm512_setzero_si512();
      _mm512_storeu_si512(scratch.values + m * head_size + c0,
                          _mm512_or_si512(low, _mm512_slli_epi32(high, 16)));
    }
  const __m512 score_scale = _mm512_set1_ps(1.0f / std::sqrt(float(head_size)));
  const __mmask16 last_keys = __mmask16((1u << (tokens - 16 * (BLOCKS - 1))) - 1u);

  for (int i0 = 0; i0 < tokens; i0 += kQueries) {
    __m512 scores[kQueries][BLOCKS];
    for (auto& row : scores)
      for (__m512& s : row) s = _mm512_setzero_ps();
    for (int p = 0; p < pairs; ++p) {
      __m512 key[BLOCKS];
      for (int b = 0; b < BLOCKS; ++b) key[b] = _mm512_loadu_ps(scratch.keys + p * padded + 16 * b);
      for (int r = 0; r < kQueries; ++r) {
        const __m512bh query =
            (__m512bh)_mm512_set1_epi32(int(scratch.queries[(i0 + r) * pairs + p]));
        for (int b = 0; b < BLOCKS; ++b)
          scores[r][b] = _mm512_dpbf16_ps(scores[r][b], query, (__m512bh)key[b]);
      }
    }
    float normaliser[kQueries];
    for (int r = 0; r < kQueries; ++r) {
      alignas(64) float row[padded];
      normaliser[r] = softmax_row<BLOCKS>(
          scores[r], score_scale,
          bias && i0 + r < tokens ? bias + size_t(i0 + r) * size_t(tokens) : nullptr, last_keys,
          row);
      for (int b = 0; b < BLOCKS; ++b)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(scratch.weights + r * padded + 16 * b),
                            (__m256i)_mm512_cvtneps_pbh(_mm512_load_ps(row + 16 * b)));
    }
    for (int c0 = 0; c0 < head_size; c0 += 32) {
      __m512 sum[kQueries][2];
      for (auto& row : sum) row[0] = row[1] = _mm512_setzero_ps();
      for (int m = 0; m < key_pairs; ++m) {
        const uint32_t* values = scratch.values + m * head_size + c0;
        const __m512bh low = (__m512bh)_mm512_loadu_si512(values);
        const __m512bh high = (__m512bh)_mm512_loadu_si512(values + 16);
        for (int r = 0; r < kQueries; ++r) {
          uint32_t pair;
          std::memcpy(&pair, scratch.weights + r * padded + 2 * m, sizeof pair);
          const __m512bh w = (__m512bh)_mm512_set1_epi32(int(pair));
          sum[r][0] = _mm512_dpbf16_ps(sum[r][0], w, low);
          sum[r][1] = _mm512_dpbf16_ps(sum[r][1], w, high);
        }
      }
      for (int r = 0; r < kQueries && i0 + r < tokens; ++r) {
        float* result = out + size_t(i0 + r) * size_t(out_stride) + size_t(h * head_size + c0);
        const __m512 scale = _mm512_set1_ps(normaliser[r]);
        _mm512_storeu_ps(result, _mm512_mul_ps(sum[r][0], scale));
        _mm512_storeu_ps(result + 16, _mm512_mul_ps(sum[r][1], scale));
      }
    }
  }
}

using Bf16HeadKernel = void (*)(const float*, int, int, int, int, int, const float*, float*, int,
                                const Bf16HeadScratch&);
constexpr Bf16HeadKernel kBf16HeadKernels[] = {
    &attend_head_bf16<1>, &attend_head_bf16<2>, &attend_head_bf16<3>, &attend_head_bf16<4>,
    &attend_head_bf16<5>, &attend_head_bf16<6>, &attend_head_bf16<7>, &attend_head_bf16<8>};
static_assert(std::size(kBf16HeadKernels) * 16 == kMaxAvx512Tokens);

}  // namespace

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // AVOCET_X86

void attention_avx512(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                      const AttentionTerms& terms, float* out, int out_stride, HeadRange range) {
  const int head_size = d / heads;
  assert(attention_avx512_supported(tokens));
  assert(!terms.relative() || tokens >= kFirstSquareToken + 64);
  const float* bias = terms.bias;
#ifdef AVOCET_X86
  const int blocks = (tokens + 15) / 16, padded = 16 * blocks;
  thread_local AlignedVector<float> keys, queries, weights, offset_logits, tables;
  keys.resize(size_t(head_size) * size_t(padded));
  queries.resize(size_t(head_size) * size_t((tokens + kQueries - 1) / kQueries * kQueries));
  weights.resize(size_t(kQueries) * size_t(padded));
  const size_t table_size = size_t(kRelativeOffsets) * size_t(head_size);
  const size_t by_column_size = size_t(head_size) * size_t(kTableStride);
  if (terms.relative()) {
    offset_logits.assign(size_t(kQueries) * size_t(padded), 0.0f);
    tables.resize(2 * by_column_size);
  }
  for (int h = range.begin; h < (range.end < 0 ? heads : range.end); ++h) {
    RelativeHead relative{};
    if (terms.relative()) {
      // Transposed per call (about 3% of the relative terms' time) rather than kept beside the
      // weights, so the kernel reads the tables exactly as the reference does.
      relative = {tables.data(), tables.data() + by_column_size, terms.relative_v + h * table_size};
      transpose_reversed(terms.relative_q + h * table_size, head_size, tables.data());
      transpose_reversed(terms.relative_k + h * table_size, head_size,
                         tables.data() + by_column_size);
    }
    kHeadKernels[blocks - 1](qkv, qkv_stride, tokens, d, head_size, h,
                             bias ? bias + size_t(h) * size_t(tokens) * size_t(tokens) : nullptr,
                             terms.relative() ? &relative : nullptr, out, out_stride, keys.data(),
                             queries.data(), weights.data(), offset_logits.data());
  }
#else
  (void)qkv, (void)qkv_stride, (void)d, (void)bias, (void)out, (void)out_stride, (void)head_size,
      (void)range;
  std::abort();  // unreachable: attention_avx512_supported is false off x86
#endif
}

void attention_avx512_bf16(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                           const AttentionTerms& terms, float* out, int out_stride,
                           HeadRange range) {
  const int head_size = d / heads;
  assert(attention_avx512_bf16_supported(tokens, head_size, terms));
#ifdef AVOCET_X86
  const int blocks = (tokens + 15) / 16, padded = 16 * blocks;
  const int query_rows = (tokens + kQueries - 1) / kQueries * kQueries;
  thread_local AlignedVector<uint32_t> keys, queries, values;
  thread_local AlignedVector<uint16_t> weights;
  keys.resize(size_t(head_size / 2) * size_t(padded));
  queries.resize(size_t(query_rows) * size_t(head_size / 2));
  values.resize(size_t((tokens + 1) / 2) * size_t(head_size));
  weights.resize(size_t(kQueries) * size_t(padded));
  const Bf16HeadScratch scratch{keys.data(), queries.data(), values.data(), weights.data()};
  for (int h = range.begin; h < (range.end < 0 ? heads : range.end); ++h)
    kBf16HeadKernels[blocks - 1](
        qkv, qkv_stride, tokens, d, head_size, h,
        terms.bias ? terms.bias + size_t(h) * size_t(tokens) * size_t(tokens) : nullptr, out,
        out_stride, scratch);
#else
  (void)qkv, (void)qkv_stride, (void)tokens, (void)d, (void)terms, (void)out, (void)out_stride,
      (void)head_size, (void)range;
  std::abort();  // unreachable: attention_avx512_bf16_supported is false off x86
#endif
}

bool attention_avx512_bf16_supported(int tokens, int head_size, const AttentionTerms& terms) {
#ifdef AVOCET_X86
  // __builtin_cpu_supports also checks that the OS saves the zmm registers (XCR0).
  static const bool bf16 = __builtin_cpu_supports("avx512f") &&
                           __builtin_cpu_supports("avx512bw") &&
                           __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("fma");
  return bf16 && cpu_level_allowed(CpuLevel::Avx512Bf16) && tokens >= 1 &&
         tokens <= kMaxAvx512Tokens && head_size % 32 == 0 && !terms.relative();
#else
  (void)tokens, (void)head_size, (void)terms;
  return false;
#endif
}

bool attention_avx512_supported(int tokens) {
#ifdef AVOCET_X86
  // __builtin_cpu_supports also checks that the OS saves the zmm registers (XCR0).
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  return avx512 && cpu_level_allowed(CpuLevel::Avx512) && tokens >= 1 && tokens <= kMaxAvx512Tokens;
#else
  (void)tokens;
  return false;
#endif
}

}  // namespace avocet::nn
