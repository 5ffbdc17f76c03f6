// The one interface through which search and benches see a network: a position and its
// legal moves in, a win probability per move out (the probability that the side to move
// wins after playing it, draws counting half, in [0, 1]).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "avocet/chess/move.h"
#include "avocet/chess/position.h"

namespace avocet::nn {

class Network;  // nn/network.h: the weights; kept out of this header (and Eigen with it)

// One position of a batch: some of its legal moves, and where their win probabilities go.
struct BatchItem {
  const Position* position = nullptr;
  std::span<const Move> moves;
  std::span<float> win_probability;
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;

  // win_probability[i] for moves[i]. Evaluators reuse their workspaces: after the first
  // call of a given size, evaluating allocates nothing.
  virtual void evaluate(const Position& pos, std::span<const Move> moves,
                        std::span<float> win_probability) = 0;

  // evaluate() for each item. A network evaluator runs them in one pass, every matrix product
  // over the rows of all of them, which runs nearer the CPU's peak than one position's 77 rows
  // (nnbench prints the speed by batch size). Each item's values are evaluate()'s for it up to
  // the order of additions within Eigen's fp32 products (a row that falls in another register
  // block), under 1e-5; the bf16 and int8 trunk kernels give every row the same values
  // whatever rows come with it. This default evaluates the items one by one.
  virtual void evaluate_batch(std::span<const BatchItem> items) {
    for (const BatchItem& item : items) evaluate(*item.position, item.moves, item.win_probability);
  }

  // The value-bin log-probabilities behind the win probabilities, row-major
  // [moves.size() x bins()]; for debugging and parity tests.
  virtual void evaluate_bins(const Position& pos, std::span<const Move> moves,
                             std::span<float> log_probabilities) = 0;

  // How many threads one evaluation may use, this one and helpers (1 or 2; a network
  // evaluator splits its trunk with a second, nn/helper_thread.h). The values do not change.
  virtual void set_threads(int threads) { (void)threads; }

  virtual int bins() const = 0;
  virtual std::string description() const = 0;
};

// An evaluator for `network`; each thread needs its own (they share the weights).
std::unique_ptr<Evaluator> make_evaluator(std::shared_ptr<const Network> network);

// Win probability behind K value-bin log-probabilities: sum_i p_i * (i + 0.5) / K.
float expected_win_probability(std::span<const float> log_probabilities);

}  // namespace avocet::nn
