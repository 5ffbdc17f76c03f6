// What both network families share behind the Evaluator interface: the network, the trunk
// workspace, and turning per-move logits into win probabilities. Each family lives in its
// own file (house_evaluator.h, searchless_evaluator.h); make_evaluator picks one.
#pragma once

#include <memory>
#include <vector>

#include "avocet/nn/evaluator.h"
#include "avocet/nn/helper_thread.h"
#include "avocet/nn/network.h"

namespace avocet::nn {

// Shared parts: the network, the trunk workspace and the per-move logits.
class NetworkEvaluator : public Evaluator {
 public:
  explicit NetworkEvaluator(std::shared_ptr<const Network> network)
      : network_(std::move(network)) {}

  void evaluate(const Position& pos, std::span<const Move> moves,
                std::span<float> win_probability) final;
  void evaluate_batch(std::span<const BatchItem> items) final;
  void evaluate_bins(const Position& pos, std::span<const Move> moves,
                     std::span<float> log_probabilities) final;
  void set_threads(int threads) final;
  int bins() const final { return network_->config().bins; }
  std::string description() const final { return network_->description(); }

 protected:
  // Fills logits_ (moves x bins) for the items' moves, the first item's first, in one pass.
  virtual void compute_logits(std::span<const BatchItem> items) = 0;

  std::shared_ptr<const Network> network_;
  TrunkWorkspace workspace_;
  std::unique_ptr<HelperThread> helper_;  // with set_threads(2); the trunk's second thread
  Matrix logits_;
};

}  // namespace avocet::nn
