#include "network_evaluator.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "avocet/chess/features.h"
#include "avocet/nn/action_table.h"
#include "avocet/nn/tokenizer.h"

namespace avocet::nn {

namespace {

// Log-softmax of each row of `logits`, in place.
void log_softmax_rows(Eigen::Ref<Matrix> logits) {
  for (Eigen::Index r = 0; r < logits.rows(); ++r) {
    auto row = logits.row(r).array();
    const float max = row.maxCoeff();
    row -= max + std::log((row - max).exp().sum());
  }
}

void check_sizes(size_t moves, size_t outputs, size_t per_move) {
  if (outputs != moves * per_move)
    throw std::invalid_argument(
        fmt::format("evaluator: output has {} values for {} moves", outputs, moves));
}

}  // namespace

float expected_win_probability(std::span<const float> log_probabilities) {
  const float k = float(log_probabilities.size());
  float sum = 0.0f;
  for (size_t i = 0; i < log_probabilities.size(); ++i)
    sum += std::exp(log_probabilities[i]) * (float(i) + 0.5f) / k;
  return sum;
}

void NetworkEvaluator::evaluate(const Position& pos, std::span<const Move> moves,
                                std::span<float> win_probability) {
  check_sizes(moves.size(), win_probability.size(), 1);
  if (moves.empty()) return;
  compute_logits(pos, moves);
  auto logits = logits_.topRows(Eigen::Index(moves.size()));
  log_softmax_rows(logits);
  for (size_t i = 0; i < moves.size(); ++i)
    win_probability[i] =
        expected_win_probability({logits.row(Eigen::Index(i)).data(), size_t(logits.cols())});
}

void NetworkEvaluator::evaluate_bins(const Position& pos, std::span<const Move> moves,
                                     std::span<float> log_probabilities) {
  check_sizes(moves.size(), log_probabilities.size(), size_t(bins()));
  if (moves.empty()) return;
  compute_logits(pos, moves);
  auto logits = logits_.topRows(Eigen::Index(moves.size()));
  log_softmax_rows(logits);
  Eigen::Map<Matrix>(log_probabilities.data(), logits.rows(), logits.cols()) = logits;
}

void HouseEvaluator::compute_logits(const Position& pos, std::span<const Move> moves) {
  const NetworkConfig& c = network_->config();
  const HouseHead& head = network_->house_head();
  const bool flip = is_mirrored(pos, c.mirror);
  const Tokens tokens = tokenize(pos, c.mirror);
  tokens_.assign(tokens.begin(), tokens.end());
  embed_tokens(network_->trunk(), tokens_.data(), 1, workspace_);
  if (!c.square_groups.empty()) {
    // Square features in absolute squares; token row t shows the square the net sees there.
    const std::array<SquareFeatures, 64> features = square_features(pos);
    for (int t = 1; t <= 64; ++t) {
      const Square seen = make_square(File((t - 1) % 8), Rank(7 - (t - 1) / 8));
      const SquareFeatures& f = features[size_t(index(flip ? flip_rank(seen) : seen))];
      for (size_t g = 0; g < c.square_groups.size(); ++g)
        workspace_.x.row(t) += network_->square_features()[g].row(f[size_t(c.square_groups[g])]);
    }
  }
  run_blocks(network_->trunk(), 1, workspace_);

  // Head features for the 64 square tokens (token rows 1..64).
  const auto squares = workspace_.x.middleRows(1, 64);
  from_features_.noalias() = squares * head.from.transpose();
  to_features_.noalias() = squares * head.to.transpose();

  const Eigen::Index n = Eigen::Index(moves.size());
  if (hidden_.rows() < n) hidden_.resize(std::max<Eigen::Index>(n, 64), c.head_dim);
  if (logits_.rows() < n) logits_.resize(std::max<Eigen::Index>(n, 64), c.bins);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Move m = flip ? mirror_move(moves[i]) : moves[i];
    const int promotion = m.promotion() == PieceType::None ? 0 : index(m.promotion());
    hidden_.row(i) = from_features_.row(square_token(m.from()) - 1) +
                     to_features_.row(square_token(m.to()) - 1) + head.promotion.row(promotion) +
                     head.bias;
    if (!c.move_groups.empty()) {
      const MoveFeatures f = move_features(pos, moves[i]);
      for (size_t g = 0; g < c.move_groups.size(); ++g)
        hidden_.row(i) += head.move_features[g].row(f[size_t(c.move_groups[g])]);
    }
  }
  // Exact GELU, as PyTorch's default: x * Phi(x).
  auto h = hidden_.topRows(n).array();
  h = 0.5f * h * (1.0f + (h * float(M_SQRT1_2)).unaryExpr([](float v) { return std::erf(v); }));
  logits_.topRows(n).noalias() = hidden_.topRows(n) * head.out.transpose();
  logits_.topRows(n).rowwise() += head.out_bias;
}

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
  run_trunk(network_->trunk(), tokens_.data(), n, workspace_);
  if (last_.rows() < n) last_.resize(std::max(n, 64), c.d_model);
  for (int i = 0; i < n; ++i) last_.row(i) = workspace_.x.row(i * t + t - 1);
  if (logits_.rows() < n) logits_.resize(std::max(n, 64), c.bins);
  const SearchlessHead& head = network_->searchless_head();
  logits_.topRows(n).noalias() = last_.topRows(n) * head.weight.transpose();
  logits_.topRows(n).rowwise() += head.bias;
}

std::unique_ptr<Evaluator> make_evaluator(std::shared_ptr<const Network> network) {
  if (network->config().family == Family::House)
    return std::make_unique<HouseEvaluator>(std::move(network));
  return std::make_unique<SearchlessEvaluator>(std::move(network));
}

}  // namespace avocet::nn
