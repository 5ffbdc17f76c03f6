// attention_avx2 (nn/kernels/attention_avx2.h): the attention of the reduced precisions on CPUs
// with AVX2 and FMA but no AVX-512, where it replaces Eigen's reference (19% of an int8 search on
// such a CPU before it: two small matrix products per head, each packed by Eigen first, and a
// softmax of whole rows in three passes).
//
// AVX2 has 16 registers of 8 floats, too few to hold a query block's scores against every key as
// attention_avx512 does, so each step goes through a small scratch row in L1 instead:
//   1. K^T [head_size, padded] (keys past `tokens` zero), so that one load gives 8 keys' column;
//   2. the scores of two queries against 32 keys at a time (8 sums in registers, each key
//      vector loaded once for both queries);
//   3. the softmax of each score row: scaled, biased, e^(s - max) by avx2::exp, kept
//      unnormalised, with 1 / sum applied once to the output;
//   4. out = weights V for six queries at a time, 16 columns per pass (12 sums in registers,
//      each value row loaded once for all six).
#include "avocet/nn/kernels/attention_avx2.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "avocet/nn/aligned_vector.h"
#include "avocet/nn/cpu_level.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "avx2_exp.h"
#define AVOCET_X86 1
#endif

namespace avocet::nn {

#ifdef AVOCET_X86

// Compiled for every x86 build with a target attribute and called only after the run-time
// check, so a portable binary still runs on CPUs without AVX2.
#define AVOCET_AVX2_TARGET __attribute__((target("avx2,fma")))

namespace {

// Queries whose scores one pass computes (two rows of 4 key vectors: 8 sums, 4 keys and 2
// broadcasts, 14 of the 16 registers), and whose outputs one pass of the weighted sum computes
// (6 rows of 2 value vectors: 12 sums, 2 values and a broadcast, 15 registers).
constexpr int kScoreQueries = 2;
constexpr int kOutputQueries = 6;
static_assert(kOutputQueries % kScoreQueries == 0);
constexpr int kKeysPerPass = 32;

// Keeps a vector loaded once in a register: without it gcc folds the key load of the score pass
// into both FMAs that use it, which doubles that loop's loads and makes it load-bound. (The
// value loads of the weighted sum are better left to gcc: pinned, they spilled.)
AVOCET_AVX2_TARGET inline void in_register(__m256& v) { asm("" : "+x"(v)); }

AVOCET_AVX2_TARGET inline float horizontal_max(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_movehdup_ps(m));
  return _mm_cvtss_f32(m);
}

AVOCET_AVX2_TARGET inline float horizontal_sum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Transposes an 8 x 8 block in registers: rows[u][c] becomes rows[c][u] (unpacks and shuffles
// make 4 x 4 transposes within each 128-bit half, then the halves are exchanged).
AVOCET_AVX2_TARGET inline void transpose8(__m256 rows[8]) {
  __m256 t[8];
  for (int g = 0; g < 8; g += 4) {
    const __m256 a = _mm256_unpacklo_ps(rows[g], rows[g + 1]);
    const __m256 b = _mm256_unpackhi_ps(rows[g], rows[g + 1]);
    const __m256 c = _mm256_unpacklo_ps(rows[g + 2], rows[g + 3]);
    const __m256 d = _mm256_unpackhi_ps(rows[g + 2], rows[g + 3]);
    t[g] = _mm256_shuffle_ps(a, c, _MM_SHUFFLE(1, 0, 1, 0));
    t[g + 1] = _mm256_shuffle_ps(a, c, _MM_SHUFFLE(3, 2, 3, 2));
    t[g + 2] = _mm256_shuffle_ps(b, d, _MM_SHUFFLE(1, 0, 1, 0));
    t[g + 3] = _mm256_shuffle_ps(b, d, _MM_SHUFFLE(3, 2, 3, 2));
  }
  // t[m] holds columns m and 4 + m of rows 0-3 (low half: m), t[4 + m] those of rows 4-7.
  for (int m = 0; m < 4; ++m) {
    rows[m] = _mm256_permute2f128_ps(t[m], t[4 + m], 0x20);
    rows[4 + m] = _mm256_permute2f128_ps(t[m], t[4 + m], 0x31);
  }
}

// K^T [head_size, padded] from K's rows (`stride` apart), 8 x 8 blocks at a time; the keys from
// `tokens` to `padded` zero.
AVOCET_AVX2_TARGET void transpose_keys(const float* k, size_t stride, int tokens, int padded,
                                       int head_size, float* keys) {
  for (int j0 = 0; j0 < padded; j0 += 8)
    for (int c0 = 0; c0 < head_size; c0 += 8) {
      __m256 rows[8];
      for (int u = 0; u < 8; ++u)
        rows[u] = j0 + u < tokens ? _mm256_loadu_ps(k + size_t(j0 + u) * stride + size_t(c0))
                                  : _mm256_setzero_ps();
      transpose8(rows);
      for (int u = 0; u < 8; ++u) _mm256_store_ps(keys + (c0 + u) * padded + j0, rows[u]);
    }
}

// The scores of two query rows (`first`, `second`: head_size floats each) against KEYS vectors
// of 8 keys from `keys` (a column of K^T every `padded` floats), into scores[0] and scores[1].
template <int KEYS>
AVOCET_AVX2_TARGET inline void score_pass(const float* first, const float* second,
                                          const float* keys, int padded, int head_size,
                                          float* scores0, float* scores1) {
  __m256 sum[kScoreQueries][KEYS];
  for (auto& row : sum)
    for (__m256& s : row) s = _mm256_setzero_ps();
  for (int c = 0; c < head_size; ++c) {
    const __m256 q0 = _mm256_broadcast_ss(first + c);
    const __m256 q1 = _mm256_broadcast_ss(second + c);
    for (int b = 0; b < KEYS; ++b) {
      __m256 key = _mm256_load_ps(keys + c * padded + 8 * b);
      in_register(key);
      sum[0][b] = _mm256_fmadd_ps(q0, key, sum[0][b]);
      sum[1][b] = _mm256_fmadd_ps(q1, key, sum[1][b]);
    }
  }
  for (int b = 0; b < KEYS; ++b) {
    _mm256_store_ps(scores0 + 8 * b, sum[0][b]);
    _mm256_store_ps(scores1 + 8 * b, sum[1][b]);
  }
}

// A score row [padded] into its unnormalised softmax weights, in place: times `scale`, plus
// `bias_row` (null: none), the padding keys from `tokens` on weighted zero. Returns 1 / the
// weights' sum.
AVOCET_AVX2_TARGET float softmax_row(float* row, int tokens, int padded, float scale,
                                     const float* bias_row) {
  const __m256 minus_infinity = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
  const __m256 scale_vector = _mm256_set1_ps(scale);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  __m256 max = minus_infinity;
  for (int j = 0; j < padded; j += 8) {
    __m256 s = _mm256_mul_ps(_mm256_load_ps(row + j), scale_vector);
    // Lanes j + lane < tokens: the keys that exist (the bias has only those).
    const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(tokens - j), lane);
    if (bias_row) s = _mm256_add_ps(s, _mm256_maskload_ps(bias_row + j, valid));
    s = _mm256_blendv_ps(minus_infinity, s, _mm256_castsi256_ps(valid));
    _mm256_store_ps(row + j, s);
    max = _mm256_max_ps(max, s);
  }
  const __m256 row_max = _mm256_set1_ps(horizontal_max(max));
  __m256 total = _mm256_setzero_ps();
  for (int j = 0; j < padded; j += 8) {
    const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(tokens - j), lane);
    const __m256 e = _mm256_and_ps(avx2::exp(_mm256_sub_ps(_mm256_load_ps(row + j), row_max)),
                                   _mm256_castsi256_ps(valid));
    _mm256_store_ps(row + j, e);
    total = _mm256_add_ps(total, e);
  }
  return 1.0f / horizontal_sum(total);
}

// out rows i0 .. i0 + 5 (those below `tokens`), columns c0 .. c0 + 8 VECTORS, of one head:
// the weights of the six queries (rows of `weights`, `padded` apart) times V's rows, scaled by
// each query's normaliser.
template <int VECTORS>
AVOCET_AVX2_TARGET inline void output_pass(const float* v, size_t qkv_stride, int tokens,
                                           const float* weights, int padded,
                                           const float* normaliser, int i0, float* out,
                                           size_t out_stride) {
  __m256 sum[kOutputQueries][VECTORS];
  for (auto& row : sum)
    for (__m256& s : row) s = _mm256_setzero_ps();
  for (int j = 0; j < tokens; ++j) {
    __m256 value[VECTORS];
    for (int u = 0; u < VECTORS; ++u)
      value[u] = _mm256_loadu_ps(v + size_t(j) * qkv_stride + 8 * u);
    for (int r = 0; r < kOutputQueries; ++r) {
      const __m256 w = _mm256_broadcast_ss(weights + r * padded + j);
      for (int u = 0; u < VECTORS; ++u) sum[r][u] = _mm256_fmadd_ps(w, value[u], sum[r][u]);
    }
  }
  for (int r = 0; r < kOutputQueries && i0 + r < tokens; ++r) {
    const __m256 scale = _mm256_set1_ps(normaliser[r]);
    for (int u = 0; u < VECTORS; ++u)
      _mm256_storeu_ps(out + size_t(i0 + r) * out_stride + 8 * u, _mm256_mul_ps(sum[r][u], scale));
  }
}

// Scratch of one head, each buffer 32-byte aligned.
struct HeadScratch {
  float* keys;    // K^T [head_size, padded]
  float* scores;  // [kOutputQueries, padded]: scores, then unnormalised weights
  float* zeros;   // [head_size] zeros: the query row past the last token
};

AVOCET_AVX2_TARGET void attend_head(const float* qkv, int qkv_stride, int tokens, int d,
                                    int head_size, int h, const float* bias, float* out,
                                    int out_stride, const HeadScratch& scratch) {
  const int padded = (tokens + 7) / 8 * 8;
  const size_t stride = size_t(qkv_stride);
  const float* q = qkv + h * head_size;
  const float* k = q + d;
  const float* v = q + 2 * d;
  transpose_keys(k, stride, tokens, padded, head_size, scratch.keys);
  const float scale = 1.0f / std::sqrt(float(head_size));
  for (int i0 = 0; i0 < tokens; i0 += kOutputQueries) {
    float normaliser[kOutputQueries] = {};
    for (int r = 0; r < kOutputQueries; r += kScoreQueries) {
      const auto query = [&](int i) { return i < tokens ? q + size_t(i) * stride : scratch.zeros; };
      const float* first = query(i0 + r);
      const float* second = query(i0 + r + 1);
      float* scores0 = scratch.scores + r * padded;
      float* scores1 = scores0 + padded;
      for (int j0 = 0; j0 < padded; j0 += kKeysPerPass) {
        const float* keys = scratch.keys + j0;
        switch (std::min(kKeysPerPass, padded - j0) / 8) {
          case 4:
            score_pass<4>(first, second, keys, padded, head_size, scores0 + j0, scores1 + j0);
            break;
          case 3:
            score_pass<3>(first, second, keys, padded, head_size, scores0 + j0, scores1 + j0);
            break;
          case 2:
            score_pass<2>(first, second, keys, padded, head_size, scores0 + j0, scores1 + j0);
            break;
          default:
            score_pass<1>(first, second, keys, padded, head_size, scores0 + j0, scores1 + j0);
        }
      }
    }
    for (int r = 0; r < kOutputQueries; ++r) {
      float* row = scratch.scores + r * padded;
      if (i0 + r < tokens)
        normaliser[r] = softmax_row(row, tokens, padded, scale,
                                    bias ? bias + size_t(i0 + r) * size_t(tokens) : nullptr);
      else
        std::fill(row, row + padded, 0.0f);
    }
    float* head_out = out + h * head_size;
    int c0 = 0;
    for (; c0 + 16 <= head_size; c0 += 16)
      output_pass<2>(v + c0, stride, tokens, scratch.scores, padded, normaliser, i0, head_out + c0,
                     size_t(out_stride));
    if (c0 < head_size)
      output_pass<1>(v + c0, stride, tokens, scratch.scores, padded, normaliser, i0, head_out + c0,
                     size_t(out_stride));
  }
}

}  // namespace

#endif  // AVOCET_X86

void attention_avx2(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                    const AttentionTerms& terms, float* out, int out_stride, HeadRange range) {
  const int head_size = d / heads;
  assert(attention_avx2_supported(head_size, terms));
#ifdef AVOCET_X86
  const int padded = (tokens + 7) / 8 * 8;
  thread_local AlignedVector<float> keys, scores, zeros;
  keys.resize(size_t(head_size) * size_t(padded));
  scores.resize(size_t(kOutputQueries) * size_t(padded));
  zeros.assign(size_t(head_size), 0.0f);
  const HeadScratch scratch{keys.data(), scores.data(), zeros.data()};
  for (int h = range.begin; h < (range.end < 0 ? heads : range.end); ++h)
    attend_head(qkv, qkv_stride, tokens, d, head_size, h,
                terms.bias ? terms.bias + size_t(h) * size_t(tokens) * size_t(tokens) : nullptr,
                out, out_stride, scratch);
#else
  (void)qkv, (void)qkv_stride, (void)tokens, (void)out, (void)out_stride, (void)range;
  std::abort();  // unreachable: attention_avx2_supported is false off x86
#endif
}

bool attention_avx2_supported(int head_size, const AttentionTerms& terms) {
#ifdef AVOCET_X86
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return avx2 && cpu_level_allowed(CpuLevel::Avx2) && head_size % 8 == 0 && !terms.relative();
#else
  (void)head_size, (void)terms;
  return false;
#endif
}

}  // namespace avocet::nn
