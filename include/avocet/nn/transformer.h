// The transformer trunk shared by both network families, in Eigen (row-major, fp32):
// token embedding x sqrt(d) + learned positions, L pre-LayerNorm blocks (multi-head
// self-attention without biases or mask, then a SwiGLU MLP W3(silu(W1 x) * W2 x) without
// biases), and a final LayerNorm. The four matrix products of each block run in the
// network's precision (nn/precision.h): Eigen in fp32, the bf16 kernels of kernels/bf16_gemm.h, or
// the int8 kernels of kernels/int8_gemm.h.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "avocet/nn/matrix.h"
#include "avocet/nn/precision.h"

namespace avocet::nn {

inline constexpr float kLayerNormEpsilon = 1e-5f;

class HelperThread;  // nn/helper_thread.h
namespace bf16 {
struct PackedWeights;  // nn/kernels/bf16_gemm.h
}
namespace int8 {
struct PackedWeights;  // nn/kernels/int8_gemm.h
}

// A weight W [out, in] applied as y (+)= x W^T (PyTorch's Linear without bias). `weight` is
// the fp32 reference, multiplied with Eigen; `packed` is its bf16 copy and `quantized` its
// int8 one, made by TrunkWeights::set_precision, and used instead whenever set (at most one
// is).
struct Linear {
  Matrix weight;
  std::shared_ptr<const bf16::PackedWeights> packed;
  std::shared_ptr<const int8::PackedWeights> quantized;
};

// y (+)= x * layer^T, in the layer's precision; y must not alias x.
void apply(const Linear& layer, const Eigen::Ref<const Matrix>& x, Eigen::Ref<Matrix> y,
           bool accumulate);

struct LayerNormWeights {
  Vector scale, offset;  // [d]
};

// A block's four products, in the order they run; kTrunkProductNames are their metadata names.
enum class TrunkProduct { Qkv, Out, GateUp, Down };
inline constexpr std::array<TrunkProduct, 4> kTrunkProducts = {
    TrunkProduct::Qkv, TrunkProduct::Out, TrunkProduct::GateUp, TrunkProduct::Down};
inline constexpr std::array<std::string_view, 4> kTrunkProductNames = {"qkv", "out", "gate_up",
                                                                       "down"};
// Which products (by TrunkProduct) Precision int8 runs in bf16 where its kernel is the 8-bit
// one (AVX-512 VNNI) and the CPU has AVX-512 BF16, in fp32 on VNNI CPUs without it; the AVX2
// kernel, whose levels are finer than bf16's, runs all four (nn/kernels/int8_gemm.h). A net names
// them in its metadata "int8_bf16", chosen when it was adopted by its agreement with fp32
// (src/nn/README.md#int8); a net without that key runs qkv in bf16, the choice the nets shipped
// before the key were checked with (v21 needs it; v26 names it).
using Int8Bf16Products = std::array<bool, 4>;
inline constexpr Int8Bf16Products kDefaultInt8Bf16 = {true, false, false, false};

struct BlockWeights {
  LayerNormWeights attention_norm;
  Linear qkv;  // [3d, d]: W_q, W_k, W_v stacked, each [d_out = d, d_in = d]
  Linear out;  // [d, d]
  LayerNormWeights mlp_norm;
  Linear gate_up;  // [2f, d]: W1 then W2
  Linear down;     // [d, f]: W3
  // AttentionPosition::Bias and Relative: [heads * t, t], head h's (query, key) logit biases
  // in rows h * t .. h * t + t - 1; empty otherwise.
  Matrix attention_bias;
  // AttentionPosition::Relative: tables A, B, C of nn/attention.h, [heads * 225, d / heads]
  // each (head h in rows h * 225 ..); empty otherwise.
  Matrix relative_q, relative_k, relative_v;

  Linear& product(TrunkProduct p) { return this->*kProducts[size_t(p)]; }
  const Linear& product(TrunkProduct p) const { return this->*kProducts[size_t(p)]; }

 private:
  // The members in TrunkProduct's order.
  static constexpr Linear BlockWeights::*kProducts[] = {
      &BlockWeights::qkv, &BlockWeights::out, &BlockWeights::gate_up, &BlockWeights::down};
};

struct TrunkWeights {
  int d_model = 0, heads = 0, ffn_dim = 0, sequence_length = 0;
  Matrix embedding;  // [vocabulary, d]
  Matrix positions;  // [sequence_length, d]
  std::vector<BlockWeights> blocks;
  LayerNormWeights final_norm;
  Precision precision = Precision::Fp32;  // resolved: Fp32, Bf16 or Int8
  Int8Bf16Products int8_bf16 = kDefaultInt8Bf16;

  // Packs the blocks' weights for `p` (bf16 or int8 copies; none for Fp32) and drops the
  // others; Auto is resolved for this CPU. Throws std::runtime_error for a precision this CPU
  // cannot run.
  void set_precision(Precision p);
};

// Scratch matrices reused across evaluations, sized for up to `rows` token rows.
struct TrunkWorkspace {
  Matrix x, normed, qkv, attention, hidden;
  Matrix read_x, read_attention;  // run_blocks' read_rows, gathered for the last block
  int capacity = 0;
  void reserve(const TrunkWeights& w, int rows);
};

// Runs the trunk over `batch` sequences of `sequence_length` tokens each. `tokens` holds
// batch * sequence_length token ids; the output is ws.x.topRows(batch * sequence_length)
// after the final LayerNorm ([rows, d]). Same as embed_tokens then run_blocks.
void run_trunk(const TrunkWeights& w, const int* tokens, int batch, TrunkWorkspace& ws,
               HelperThread* helper = nullptr);

// The trunk in two steps, so that a family can add its own inputs (house feature groups) to
// the embedded tokens in ws.x before the blocks run.
void embed_tokens(const TrunkWeights& w, const int* tokens, int batch, TrunkWorkspace& ws);
// With a helper, the helper thread takes about half of every step (nn/helper_thread.h); the
// result is the same bit for bit.
// `read_rows` (distinct, ascending; empty: all): the only rows of ws.x the caller will read.
// The last block's second half (its attention output product and MLP, four fifths of its
// multiply-adds) and the final LayerNorm then run on those rows alone; the other rows of ws.x
// are left unfinished. Each row's values are those of a full run, up to the order in which
// Eigen's product sums a row that falls in another register block: in fp32, and in int8 for
// the products a net names in int8_bf16 on a CPU with AVX-512 VNNI but no BF16. The bf16 and
// int8 kernels give every row the same values whatever rows come with it.
void run_blocks(const TrunkWeights& w, int batch, TrunkWorkspace& ws,
                HelperThread* helper = nullptr, std::span<const int> read_rows = {});

// Row-wise LayerNorm, in place.
void layer_norm(Eigen::Ref<Matrix> x, const LayerNormWeights& w, Eigen::Ref<Matrix> out);

}  // namespace avocet::nn
