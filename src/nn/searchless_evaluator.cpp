#include "searchless_evaluator.h"

#include <fmt/format.h>

#include <stdexcept>

#include "avocet/nn/action_table.h"
#include "avocet/nn/tokenizer.h"

namespace avocet::nn {

void SearchlessEvaluator::compute_logits(const Position& pos, std::span<const Move> moves) {
  const NetworkConfig& c = network_->config();
  const int t = c.sequence_length();
  const int n = int(moves.size());
  const Tokens fen = tokenize(pos);
  tokens_.resize(size_t(n) * t);
  for (int i = 0; i < n; ++i) {
    int* seq = tokens_.data() + size_t(i) * t;
    seq[0] = 0;
    for (int j = 0; j < kFenTokens; ++j) seq[1 + j] = fen[j];
    const int action = action_index(moves[i]);
    if (action < 0)
      throw std::invalid_argument(fmt::format("move {} has no action index", moves[i].bits()));
    seq[t - 1] = action;
  }
  run_trunk(network_->trunk(), tokens_.data(), n, workspace_, helper_.get());
  if (last_.rows() < n) last_.resize(std::max(n, 64), c.d_model);
  for (int i = 0; i < n; ++i) last_.row(i) = workspace_.x.row(i * t + t - 1);
  if (logits_.rows() < n) logits_.resize(std::max(n, 64), c.bins);
  const SearchlessHead& head = network_->searchless_head();
  logits_.topRows(n).noalias() = last_.topRows(n) * head.weight.transpose();
  logits_.topRows(n).rowwise() += head.bias;
}

}  // namespace avocet::nn
