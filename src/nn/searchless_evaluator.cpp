#include "searchless_evaluator.h"

#include <fmt/format.h>

#include <stdexcept>

#include "avocet/nn/action_table.h"
#include "avocet/nn/tokenizer.h"

namespace avocet::nn {

void SearchlessEvaluator::compute_logits(std::span<const BatchItem> items) {
  // One sequence per move (the FEN then the move's action), every item's moves in one trunk pass.
  const NetworkConfig& c = network_->config();
  const int t = c.sequence_length();
  int n = 0;
  for (const BatchItem& item : items) n += int(item.moves.size());
  tokens_.resize(size_t(n) * t);
  int i = 0;
  for (const BatchItem& item : items) {
    const Tokens fen = tokenize(*item.position);
    for (const Move move : item.moves) {
      int* seq = tokens_.data() + size_t(i++) * t;
      seq[0] = 0;
      for (int j = 0; j < kFenTokens; ++j) seq[1 + j] = fen[j];
      const int action = action_index(move);
      if (action < 0)
        throw std::invalid_argument(fmt::format("move {} has no action index", move.bits()));
      seq[t - 1] = action;
    }
  }
  run_trunk(network_->trunk(), tokens_.data(), n, workspace_, helper_.get());
  if (last_.rows() < n) last_.resize(std::max(n, 64), c.d_model);
  for (int k = 0; k < n; ++k) last_.row(k) = workspace_.x.row(k * t + t - 1);
  if (logits_.rows() < n) logits_.resize(std::max(n, 64), c.bins);
  const SearchlessHead& head = network_->searchless_head();
  logits_.topRows(n).noalias() = last_.topRows(n) * head.weight.transpose();
  logits_.topRows(n).rowwise() += head.bias;
}

}  // namespace avocet::nn
