#include "avocet/nn/transformer.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

#include "avocet/nn/attention.h"
#include "avocet/nn/helper_thread.h"
#include "avocet/nn/kernels/attention_avx2.h"
#include "avocet/nn/kernels/attention_avx512.h"
#include "avocet/nn/kernels/bf16_gemm.h"
#include "avocet/nn/kernels/int8_gemm.h"
#include "avocet/nn/kernels/swiglu.h"

namespace avocet::nn {

void apply(const Linear& layer, const Eigen::Ref<const Matrix>& x, Eigen::Ref<Matrix> y,
           bool accumulate) {
  if (layer.packed) {
    assert(x.cols() == layer.packed->in && y.cols() >= layer.packed->out && y.rows() == x.rows());
    bf16::gemm_avx512(*layer.packed, x.data(), int(x.rows()), int(x.outerStride()), y.data(),
                      int(y.outerStride()), accumulate);
  } else if (layer.quantized) {
    assert(x.cols() == layer.quantized->in && y.cols() >= layer.quantized->out &&
           y.rows() == x.rows());
    int8::gemm(*layer.quantized, x.data(), int(x.rows()), int(x.outerStride()), y.data(),
               int(y.outerStride()), accumulate);
  } else if (accumulate) {
    y.noalias() += x * layer.weight.transpose();
  } else {
    y.noalias() = x * layer.weight.transpose();
  }
}

void TrunkWeights::set_precision(Precision p) {
  p = resolve(p);
  if (!precision_supported(p)) throw std::runtime_error(std::string(unsupported_reason(p)));
  // With an 8-bit kernel (127 levels), int8 runs the products the net names (int8_bf16) wider:
  // in bf16 where the CPU has AVX-512 BF16, else in fp32. Which product's rounding moves the
  // values most depends on the net (v21 and v26: qkv; v24 and v45: out; src/nn/README.md#int8). The
  // AVX2 kernel's levels (2047 and more, nn/kernels/int8_gemm.h) are finer than bf16's 8-bit
  // mantissa, so there every product runs in it.
  const bool bf16_runs = precision_supported(Precision::Bf16);
  const auto kernel = int8::selected_kernel();
  for (BlockWeights& block : blocks)
    for (const TrunkProduct product : kTrunkProducts) {
      Linear* layer = &block.product(product);
      const float* w = layer->weight.data();
      const int out = int(layer->weight.rows()), in = int(layer->weight.cols());
      const bool wide = p == Precision::Int8 && int8::is_wide(*kernel);
      const bool wider = p == Precision::Int8 && int8_bf16[size_t(product)] && !wide;
      const bool bf16 = p == Precision::Bf16 || (bf16_runs && wider);
      layer->packed =
          bf16 ? std::make_shared<const bf16::PackedWeights>(bf16::pack(w, out, in)) : nullptr;
      // The 8-bit kernel runs every product whose inner size allows it in the Hadamard-rotated
      // basis: the rotation flattens each token's activations before they are rounded to 127
      // levels (nn/kernels/int8_gemm.h, src/nn/README.md). The AVX2 kernel's 2047 levels and more
      // leave the rounding error small without it, and the transform would cost a tenth of
      // an evaluation there.
      const auto rotation =
          int8::is_power_of_two(in) && !wide ? int8::Rotation::Hadamard : int8::Rotation::None;
      layer->quantized = p == Precision::Int8 && !wider
                             ? std::make_shared<const int8::PackedWeights>(
                                   int8::pack(w, out, in, *kernel, rotation))
                             : nullptr;
    }
  precision = p;
}

void TrunkWorkspace::reserve(const TrunkWeights& w, int rows) {
  if (rows <= capacity) return;
  const int d = w.d_model;
  x.resize(rows, d);
  normed.resize(rows, d);
  qkv.resize(rows, 3 * d);
  attention.resize(rows, d);
  hidden.resize(rows, 2 * w.ffn_dim);
  read_x.resize(rows, d);
  read_attention.resize(rows, d);
  capacity = rows;
}

void layer_norm(Eigen::Ref<Matrix> x, const LayerNormWeights& w, Eigen::Ref<Matrix> out) {
  const float inverse_d = 1.0f / float(x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const auto row = x.row(r).array();
    const float mean = row.sum() * inverse_d;
    const float variance = (row - mean).square().sum() * inverse_d;
    const float scale = 1.0f / std::sqrt(variance + kLayerNormEpsilon);
    out.row(r).array() = (row - mean) * scale * w.scale.array() + w.offset.array();
  }
}

void run_trunk(const TrunkWeights& w, const int* tokens, int batch, TrunkWorkspace& ws,
               HelperThread* helper) {
  embed_tokens(w, tokens, batch, ws);
  run_blocks(w, batch, ws, helper);
}

void embed_tokens(const TrunkWeights& w, const int* tokens, int batch, TrunkWorkspace& ws) {
  const int t = w.sequence_length, rows = batch * t;
  ws.reserve(w, rows);
  const float embedding_scale = std::sqrt(float(w.d_model));
  for (int r = 0; r < rows; ++r)
    ws.x.row(r) = w.embedding.row(tokens[r]) * embedding_scale + w.positions.row(r % t);
}

namespace {

// The rows [begin, end) of the whole-row steps that one thread takes.
struct RowRange {
  int begin, end;
  int count() const { return end - begin; }
};

// Whether Eigen multiplies one of the products: every one in fp32, and in int8 the ones the net
// names in int8_bf16 on a CPU with AVX-512 VNNI but no BF16 (TrunkWeights::set_precision).
bool eigen_multiplies(const TrunkWeights& w) {
  for (const BlockWeights& block : w.blocks)
    for (const TrunkProduct product : kTrunkProducts)
      if (!block.product(product).packed && !block.product(product).quantized) return true;
  return false;
}

// Where part 0 of 2 ends: on a multiple of the products' row block, so that every row is
// computed by the same code path as with one thread and the values stay the same bit for bit.
// The bf16 and VNNI kernels take 6 rows at a time (AVX2's int8 kernel 3); Eigen's fp32 product
// takes 3 packets of rows (a multiple of 6), and its last rows, fewer than a packet, sum in
// another order, so where Eigen multiplies any product the split follows its block. A part of
// one row would be multiplied by Eigen's matrix-vector product, which sums in yet another
// order, so that row stays with the first part.
int split_row(const TrunkWeights& w, int rows) {
  const int block = eigen_multiplies(w) ? 3 * int(Eigen::internal::packet_traits<float>::size) : 6;
  const int split = std::min(rows, block * int(std::lround(rows / (2.0 * block))));
  return rows - split == 1 ? rows : split;
}

RowRange rows_of(int part, int parts, int split, int rows) {
  if (parts == 1) return {0, rows};
  return part == 0 ? RowRange{0, split} : RowRange{split, rows};
}

using AttentionKernel = void (*)(const float*, int, int, int, int, const AttentionTerms&, float*,
                                 int, HeadRange);

// fp32 is the reference arithmetic and runs the reference attention (Eigen); the reduced
// precisions, which already trade exactness for speed, take the AVX-512 kernels where they run,
// else the AVX2 one.
// int8 takes the one with bf16 products where the CPU has them; bf16 keeps attention in fp32,
// because bf16 promises values within 0.01 of fp32 and v26 with bf16 attention is 0.0109 away
// (src/nn/README.md#attention-in-bf16). `auto` never picks bf16 on a CPU with AVX-512 BF16
// (every such CPU has VNNI, so int8), so this costs the default nothing.
AttentionKernel attention_kernel(Precision precision, int tokens, int head_size,
                                 const AttentionTerms& terms) {
  if (precision == Precision::Fp32) return &attention_reference;
  if (precision == Precision::Int8 && attention_avx512_bf16_supported(tokens, head_size, terms))
    return &attention_avx512_bf16;
  if (attention_avx512_supported(tokens)) return &attention_avx512;
  if (attention_avx2_supported(head_size, terms)) return &attention_avx2;
  return &attention_reference;
}

}  // namespace

namespace {

using Swiglu = void (*)(float*, const float*, int);

// fp32 keeps Eigen's SwiGLU (the reference arithmetic, as for attention); the reduced precisions
// take the AVX2 one where it runs.
Swiglu swiglu_kernel(Precision precision) {
  return precision != Precision::Fp32 && swiglu_avx2_supported() ? &swiglu_avx2 : &swiglu_reference;
}

// A block's second half on some rows: its attention output product added onto x, then its MLP
// (SwiGLU). normed and hidden are scratch rows.
void finish_block(const BlockWeights& block, int f, Swiglu swiglu,
                  const Eigen::Ref<const Matrix>& attention, Eigen::Ref<Matrix> x,
                  Eigen::Ref<Matrix> normed, Eigen::Ref<Matrix> hidden) {
  apply(block.out, attention, x, true);
  layer_norm(x, block.mlp_norm, normed);
  apply(block.gate_up, normed, hidden, false);
  for (Eigen::Index r = 0; r < hidden.rows(); ++r) {
    float* gate = hidden.row(r).data();
    swiglu(gate, gate + f, f);
  }
  apply(block.down, hidden.leftCols(f), x, true);
}

}  // namespace

void run_blocks(const TrunkWeights& w, int batch, TrunkWorkspace& ws, HelperThread* helper,
                std::span<const int> read_rows) {
  const int d = w.d_model, t = w.sequence_length, f = w.ffn_dim;
  const int rows = batch * t;
  const int parts = helper ? 2 : 1;
  const int split = split_row(w, rows);
  const Swiglu swiglu = swiglu_kernel(w.precision);
  // Each step below runs as `parts` parts on disjoint data: the whole-row steps (everything
  // but attention) on disjoint token rows, attention on disjoint heads. A block's MLP and the
  // next block's attention input are all whole-row work, so they run as one step, and the
  // threads meet twice a block.
  const auto in_parts = [&](auto&& step) {
    if (helper)
      helper->run(step);
    else
      step(0);
  };

  // The rows' second half of block `finished` (its attention output, then its MLP), then the
  // first half of block `next` up to its attention (LayerNorm and the qkv product); -1: none.
  const auto row_steps = [&](int part, int finished, int next) {
    const RowRange r = rows_of(part, parts, split, rows);
    if (r.count() == 0) return;
    auto x = ws.x.middleRows(r.begin, r.count());
    auto normed = ws.normed.middleRows(r.begin, r.count());
    if (finished >= 0)
      finish_block(w.blocks[size_t(finished)], f, swiglu,
                   ws.attention.middleRows(r.begin, r.count()), x, normed,
                   ws.hidden.middleRows(r.begin, r.count()));
    if (next >= 0) {
      const BlockWeights& block = w.blocks[size_t(next)];
      layer_norm(x, block.attention_norm, normed);
      apply(block.qkv, normed, ws.qkv.middleRows(r.begin, r.count()), false);
    } else {
      layer_norm(x, w.final_norm, x);
    }
  };

  // The last block's second half and the final LayerNorm on the rows the caller reads alone:
  // gathered, finished, and put back in place.
  const int read = int(read_rows.size());
  const int read_split = split_row(w, read);
  auto read_rows_step = [&](int part) {
    const RowRange r = rows_of(part, parts, read_split, read);
    if (r.count() == 0) return;
    auto x = ws.read_x.middleRows(r.begin, r.count());
    finish_block(w.blocks.back(), f, swiglu, ws.read_attention.middleRows(r.begin, r.count()), x,
                 ws.normed.middleRows(r.begin, r.count()),
                 ws.hidden.middleRows(r.begin, r.count()));
    layer_norm(x, w.final_norm, x);
  };

  const int blocks = int(w.blocks.size());
  for (int b = 0; b <= blocks; ++b) {
    if (b == blocks && read > 0) {
      for (int i = 0; i < read; ++i) {
        ws.read_x.row(i) = ws.x.row(read_rows[size_t(i)]);
        ws.read_attention.row(i) = ws.attention.row(read_rows[size_t(i)]);
      }
      in_parts(read_rows_step);
      for (int i = 0; i < read; ++i) ws.x.row(read_rows[size_t(i)]) = ws.read_x.row(i);
      break;
    }
    auto rows_step = [&](int part) { row_steps(part, b - 1, b < blocks ? b : -1); };
    in_parts(rows_step);
    if (b == blocks) break;
    const BlockWeights& block = w.blocks[size_t(b)];
    AttentionTerms terms;
    if (block.attention_bias.size()) terms.bias = block.attention_bias.data();
    if (block.relative_q.size()) {
      terms.relative_q = block.relative_q.data();
      terms.relative_k = block.relative_k.data();
      terms.relative_v = block.relative_v.data();
    }
    const AttentionKernel attend = attention_kernel(w.precision, t, d / w.heads, terms);
    auto attention_step = [&](int part) {
      const HeadRange heads =
          parts == 1 ? HeadRange{} : HeadRange{part * w.heads / 2, (part + 1) * w.heads / 2};
      for (int i = 0; i < batch; ++i)
        attend(ws.qkv.row(i * t).data(), int(ws.qkv.outerStride()), t, d, w.heads, terms,
               ws.attention.row(i * t).data(), int(ws.attention.outerStride()), heads);
    };
    in_parts(attention_step);
  }
}

}  // namespace avocet::nn
