// Family `house` behind the Evaluator interface (DESIGN.md, "The two network families").
#pragma once

#include <memory>
#include <vector>

#include "avocet/chess/features.h"
#include "network_evaluator.h"

namespace avocet::nn {

// Family `house`: one trunk pass over the 77 FEN tokens; the head scores each move from
// the outputs at its from- and to-square tokens.
class HouseEvaluator final : public NetworkEvaluator {
 public:
  explicit HouseEvaluator(std::shared_ptr<const Network> network);

 private:
  void compute_logits(const Position& pos, std::span<const Move> moves) override;
  // The move groups the net reads: the search-based ones cost time, so only these are
  // computed.
  MoveGroupSet move_groups_ = 0;
  Matrix from_features_, to_features_, hidden_;
  std::vector<int> tokens_;
};

}  // namespace avocet::nn
