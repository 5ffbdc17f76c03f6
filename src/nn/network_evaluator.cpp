#include "network_evaluator.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "house_evaluator.h"
#include "searchless_evaluator.h"

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
  const BatchItem item{&pos, moves, win_probability};
  evaluate_batch({&item, 1});
}

void NetworkEvaluator::evaluate_batch(std::span<const BatchItem> items) {
  size_t total = 0;
  for (const BatchItem& item : items) {
    check_sizes(item.moves.size(), item.win_probability.size(), 1);
    total += item.moves.size();
  }
  if (total == 0) return;
  compute_logits(items);
  auto logits = logits_.topRows(Eigen::Index(total));
  log_softmax_rows(logits);
  Eigen::Index row = 0;
  for (const BatchItem& item : items)
    for (float& value : item.win_probability) {
      value = expected_win_probability({logits.row(row).data(), size_t(logits.cols())});
      ++row;
    }
}

void NetworkEvaluator::evaluate_bins(const Position& pos, std::span<const Move> moves,
                                     std::span<float> log_probabilities) {
  check_sizes(moves.size(), log_probabilities.size(), size_t(bins()));
  if (moves.empty()) return;
  const BatchItem item{&pos, moves, {}};
  compute_logits({&item, 1});
  auto logits = logits_.topRows(Eigen::Index(moves.size()));
  log_softmax_rows(logits);
  Eigen::Map<Matrix>(log_probabilities.data(), logits.rows(), logits.cols()) = logits;
}

void NetworkEvaluator::set_threads(int threads) {
  if (threads < 1 || threads > 2)
    throw std::invalid_argument(fmt::format("evaluator: {} threads (1 or 2)", threads));
  if (threads == 1)
    helper_.reset();
  else if (!helper_)
    helper_ = std::make_unique<HelperThread>();
}

std::unique_ptr<Evaluator> make_evaluator(std::shared_ptr<const Network> network) {
  if (network->config().family == Family::House)
    return std::make_unique<HouseEvaluator>(std::move(network));
  return std::make_unique<SearchlessEvaluator>(std::move(network));
}

}  // namespace avocet::nn
