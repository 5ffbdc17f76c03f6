// Multi-head self-attention of one sequence, without mask: for each head h,
//   out[:, h] = softmax(Q_h K_h^T / sqrt(head_size) + B_h) V_h,
// with Q, K and V read from the trunk's qkv rows [tokens, 3d] (Q in columns 0..d, K in
// d..2d, V in 2d..3d; head h owns head_size = d / heads consecutive columns of each) and the
// result written to out [tokens, d]. Both strides are in floats. The AttentionTerms a net
// may add (network.h's AttentionPosition) are described below.
//
// attention_reference below computes it with Eigen on every CPU, and the fp32 precision always
// runs it. Three kernels compute the same for the reduced precisions (nn/transformer.cpp picks
// one per call): attention_avx512 and its bf16 variant (nn/kernels/attention_avx512.h) where the
// CPU has AVX-512, attention_avx2 (nn/kernels/attention_avx2.h) where it has AVX2 but no
// AVX-512. Tests compare each kernel with the reference by normalised error.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace avocet::nn {

// Shaw et al.'s relative positions between the 64 square tokens (1 for a8 ... 64 for h1):
// (query minus key) in (rank, file), each -7..7, index (delta_rank + 7) * 15 + delta_file + 7
// into tables of 225 rows. A mirrored net sees the side to move as White, so the deltas are
// in the side to move's orientation.
inline constexpr int kFirstSquareToken = 1;
inline constexpr int kRelativeOffsets = 15 * 15;
inline constexpr std::array<uint8_t, 64 * 64> kRelativeIndex = [] {
  std::array<uint8_t, 64 * 64> index{};
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      const int rank_i = 7 - i / 8, file_i = i % 8, rank_j = 7 - j / 8, file_j = j % 8;
      index[std::size_t(i * 64 + j)] = uint8_t((rank_i - rank_j + 7) * 15 + (file_i - file_j + 7));
    }
  return index;
}();

// What a net adds to plain attention (null: absent).
//   bias [heads, tokens, tokens]: added to every logit after the 1/sqrt(head_size) scaling.
//   relative_q, relative_k, relative_v [heads, 225, head_size] (tables A, B, C): between square
//   tokens i and j, with r = kRelativeIndex[i][j],
//     logit_ij = (q_i . k_j + q_i . A[r] + k_j . B[r]) / sqrt(head_size) + bias_ij,
//     out_i = sum_j p_ij (v_j + C[r])    (the C term over square keys, for square queries).
//   All three are set or none; they need tokens >= kFirstSquareToken + 64.
struct AttentionTerms {
  const float* bias = nullptr;
  const float* relative_q = nullptr;
  const float* relative_k = nullptr;
  const float* relative_v = nullptr;
  bool relative() const { return relative_q != nullptr; }
};

// Which heads a call computes, [begin, end); end < 0: up to the last. Two threads split one
// evaluation's attention by heads (nn/helper_thread.h); each head writes only its own columns.
struct HeadRange {
  int begin = 0, end = -1;
};

void attention_reference(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                         const AttentionTerms& terms, float* out, int out_stride,
                         HeadRange range = {});

}  // namespace avocet::nn
