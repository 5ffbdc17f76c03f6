// The two network families behind the Evaluator interface.
#pragma once

#include <vector>

#include "avocet/nn/evaluator.h"

namespace avocet::nn {

// Shared parts: the network, the trunk workspace and the per-move logits.
class NetworkEvaluator : public Evaluator {
 public:
  explicit NetworkEvaluator(std::shared_ptr<const Network> network)
      : network_(std::move(network)) {}

  void evaluate(const Position& pos, std::span<const Move> moves,
                std::span<float> win_probability) final;
  void evaluate_bins(const Position& pos, std::span<const Move> moves,
                     std::span<float> log_probabilities) final;
  int bins() const final { return network_->config().bins; }
  std::string description() const final { return network_->description(); }

 protected:
  // Fills logits_ (moves x bins) for the moves.
  virtual void compute_logits(const Position& pos, std::span<const Move> moves) = 0;

  std::shared_ptr<const Network> network_;
  TrunkWorkspace workspace_;
  Matrix logits_;
};

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

// Family `searchless` (ChessBench): one sequence [0, 77 FEN tokens, action] per move.
class SearchlessEvaluator final : public NetworkEvaluator {
 public:
  using NetworkEvaluator::NetworkEvaluator;

 private:
  void compute_logits(const Position& pos, std::span<const Move> moves) override;
  Matrix last_;
  std::vector<int> tokens_;
};

}  // namespace avocet::nn
