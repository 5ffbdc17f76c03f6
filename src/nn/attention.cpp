#include "avocet/nn/attention.h"

#include <cassert>
#include <cmath>
#include <cstddef>

#include "avocet/nn/matrix.h"

namespace avocet::nn {

namespace {

// Softmax over each row of `s`, in place.
void softmax_rows(Eigen::Ref<Matrix> s) {
  for (Eigen::Index r = 0; r < s.rows(); ++r) {
    auto row = s.row(r).array();
    row = (row - row.maxCoeff()).exp();
    row /= row.sum();
  }
}

}  // namespace

void attention_reference(const float* qkv, int qkv_stride, int tokens, int d, int heads,
                         const AttentionTerms& terms, float* out, int out_stride, HeadRange range) {
  using ConstRows = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
  using Rows = Eigen::Map<Matrix, 0, Eigen::OuterStride<>>;
  const ConstRows all(qkv, tokens, 3 * d, Eigen::OuterStride<>(qkv_stride));
  Rows result(out, tokens, d, Eigen::OuterStride<>(out_stride));
  const int head_size = d / heads;
  const float score_scale = 1.0f / std::sqrt(float(head_size));
  thread_local Matrix scores, query_offsets, key_offsets, offset_weights;
  scores.resize(tokens, tokens);
  assert(!terms.relative() || tokens >= kFirstSquareToken + 64);
  const size_t table_size = size_t(kRelativeOffsets) * size_t(head_size);
  for (int h = range.begin; h < (range.end < 0 ? heads : range.end); ++h) {
    const auto q = all.block(0, h * head_size, tokens, head_size);
    const auto k = all.block(0, d + h * head_size, tokens, head_size);
    const auto v = all.block(0, 2 * d + h * head_size, tokens, head_size);
    scores.noalias() = q * k.transpose();
    if (terms.relative()) {
      using Table = Eigen::Map<const Matrix>;
      const Table a(terms.relative_q + h * table_size, kRelativeOffsets, head_size);
      const Table b(terms.relative_k + h * table_size, kRelativeOffsets, head_size);
      // q_i . A[r] and k_j . B[r] for every square and all 225 offsets, then picked by r_ij.
      query_offsets.noalias() = q.middleRows(kFirstSquareToken, 64) * a.transpose();
      key_offsets.noalias() = k.middleRows(kFirstSquareToken, 64) * b.transpose();
      for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 64; ++j) {
          const int r = kRelativeIndex[size_t(i * 64 + j)];
          scores(kFirstSquareToken + i, kFirstSquareToken + j) +=
              query_offsets(i, r) + key_offsets(j, r);
        }
    }
    scores *= score_scale;
    if (terms.bias)
      scores += Eigen::Map<const Matrix>(terms.bias + size_t(h) * tokens * tokens, tokens, tokens);
    softmax_rows(scores);
    auto head_out = result.block(0, h * head_size, tokens, head_size);
    head_out.noalias() = scores * v;
    if (terms.relative()) {
      // sum_j p_ij C[r_ij]: each key of a query has its own offset, so the weights are laid
      // out by offset and multiplied by C once.
      offset_weights.setZero(64, kRelativeOffsets);
      for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 64; ++j)
          offset_weights(i, kRelativeIndex[size_t(i * 64 + j)]) =
              scores(kFirstSquareToken + i, kFirstSquareToken + j);
      head_out.middleRows(kFirstSquareToken, 64).noalias() +=
          offset_weights *
          Eigen::Map<const Matrix>(terms.relative_v + h * table_size, kRelativeOffsets, head_size);
    }
  }
}

}  // namespace avocet::nn
