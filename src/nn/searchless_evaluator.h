// Family `searchless` (ChessBench's action-value model) behind the Evaluator interface.
#pragma once

#include <vector>

#include "network_evaluator.h"

namespace avocet::nn {

// Family `searchless` (ChessBench): one sequence [0, 77 FEN tokens, action] per move.
class SearchlessEvaluator final : public NetworkEvaluator {
 public:
  using NetworkEvaluator::NetworkEvaluator;

 private:
  void compute_logits(std::span<const BatchItem> items) override;
  Matrix last_;
  std::vector<int> tokens_;
};

}  // namespace avocet::nn
