// A deterministic evaluator without a network: the win probability of a move is a logistic
// of the material balance after it (pawn 1, knight and bishop 3, rook 5, queen 9), from the
// mover's view. It is the puzzle bench's baseline and the fake network of search tests.
#pragma once

#include "avocet/nn/evaluator.h"

namespace avocet::nn {

class MaterialEvaluator final : public Evaluator {
 public:
  static constexpr int kBins = 32;

  // With `mop_up`, a side facing a bare king also gains for driving it to the edge and
  // bringing its own king close, so that search tests can convert won endings.
  explicit MaterialEvaluator(bool mop_up = false) : mop_up_(mop_up) {}

  void evaluate(const Position& pos, std::span<const Move> moves,
                std::span<float> win_probability) override;
  // A distribution over kBins bins whose expectation is the win probability: the mass is
  // split between the two bin centres around it (other bins get log 0 = -inf).
  void evaluate_bins(const Position& pos, std::span<const Move> moves,
                     std::span<float> log_probabilities) override;
  int bins() const override { return kBins; }
  std::string description() const override {
    return mop_up_ ? "material with mop-up" : "material (1-ply material balance)";
  }

  // Material of `c` minus material of the other side, in pawns.
  static int material_balance(const Position& pos, Color c);
  // Win probability for a balance of `pawns` (0.5 at 0, about 0.86 a rook up).
  static float win_probability(int pawns);

 private:
  bool mop_up_;
};

}  // namespace avocet::nn
