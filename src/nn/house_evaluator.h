// Family `house` behind the Evaluator interface (DESIGN.md, "The two network families").
#pragma once

#include <vector>

#include "network_evaluator.h"

namespace avocet::nn {

// Family `house`: one trunk pass over the 77 FEN tokens; the head scores each move from
// the outputs at its from- and to-square tokens.
class HouseEvaluator final : public NetworkEvaluator {
 public:
  using NetworkEvaluator::NetworkEvaluator;

 private:
  void compute_logits(const Position& pos, std::span<const Move> moves) override;
  Matrix from_features_, to_features_, hidden_;
  std::vector<int> tokens_;
};

}  // namespace avocet::nn
