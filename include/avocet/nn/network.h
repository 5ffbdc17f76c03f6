// A network loaded from a weights file: its configuration (from the safetensors metadata),
// the trunk and the family's head. Immutable once loaded and shared by every evaluator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "avocet/nn/safetensors.h"
#include "avocet/nn/transformer.h"

namespace avocet::nn {

enum class Family { Searchless, House };

// How the house family's attention knows where tokens are (metadata "attention_position").
// Absolute: learned position embeddings only (v1-v12; the key is absent). Bias: plus one
// learned bias per layer and head on every (query, key) logit, added after the 1/sqrt(d_head)
// scaling (tensors layers.{i}.attn.bias [heads, 77, 77]). Relative: that bias plus Shaw
// relative position terms between the 64 squares (layers.{i}.attn.rel_q, rel_k and rel_v
// [heads, 225, d_head]; nn/attention.h gives the arithmetic), as Chessformer uses them.
enum class AttentionPosition { Absolute, Bias, Relative };

struct NetworkConfig {
  Family family = Family::House;
  int d_model = 0, layers = 0, heads = 0, ffn_dim = 0, bins = 0;
  int head_dim = 0;     // house: width of the move head's hidden layer
  bool mirror = false;  // house: Black to move is seen as White (board flipped)
  // house: the feature groups used (indices into kSquareFeatureGroups / kMoveFeatureGroups
  // of chess/tactical_features.h), from the metadata keys "square_features" and "move_features".
  std::vector<int> square_groups, move_groups;
  AttentionPosition attention_position = AttentionPosition::Absolute;
  Int8Bf16Products int8_bf16 = kDefaultInt8Bf16;  // metadata "int8_bf16" (nn/transformer.h)
  std::string name;

  int vocabulary() const;
  int sequence_length() const;
};

// House head: logits = W_out gelu(W_from h[from] + W_to h[to] + promotion[p]
//                                 + sum_g move_features[g][f_g(move)] + b) + b_out.
struct HouseHead {
  Matrix from, to;                    // [head_dim, d]
  Matrix promotion;                   // [5, head_dim]: none, knight, bishop, rook, queen
  Vector bias;                        // [head_dim]
  Matrix out;                         // [bins, head_dim]
  Vector out_bias;                    // [bins]
  std::vector<Matrix> move_features;  // per config.move_groups: [values, head_dim]
};

// Searchless head: logits = W h[last] + b.
struct SearchlessHead {
  Matrix weight;  // [bins, d]
  Vector bias;    // [bins]
};

class Network {
 public:
  // Reads and validates everything; throws WeightsError naming the file and the tensor, or
  // for Precision::Bf16 on a CPU without AVX-512 BF16. The precision is fixed from then on.
  static std::shared_ptr<const Network> load(const SafetensorsFile& file,
                                             Precision precision = Precision::Auto);
  static std::shared_ptr<const Network> load_file(const std::string& path,
                                                  Precision precision = Precision::Auto);
  // Random weights (scaled normal), for benchmarks.
  static std::shared_ptr<const Network> random(const NetworkConfig& config, uint64_t seed,
                                               Precision precision = Precision::Auto);

  const NetworkConfig& config() const { return config_; }
  const TrunkWeights& trunk() const { return trunk_; }
  // Fp32 or Bf16: what the trunk's products run in.
  Precision precision() const { return trunk_.precision; }
  const HouseHead& house_head() const { return house_; }
  // House: per config.square_groups, [values, d] embeddings added to the 64 square tokens.
  const std::vector<Matrix>& square_features() const { return square_features_; }
  const SearchlessHead& searchless_head() const { return searchless_; }
  // FNV-1a over the file's bytes, for telling nets apart in logs.
  uint64_t hash() const { return hash_; }
  std::string description() const;
  // Multiply-adds x 2 of one evaluation of a position with `moves` legal moves.
  double flops(int moves) const;

 private:
  NetworkConfig config_;
  TrunkWeights trunk_;
  HouseHead house_;
  std::vector<Matrix> square_features_;
  SearchlessHead searchless_;
  uint64_t hash_ = 0;
};

}  // namespace avocet::nn
