#include "avocet/nn/material_evaluator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace avocet::nn {

int MaterialEvaluator::material_balance(const Position& pos, Color c) {
  constexpr int kValues[] = {1, 3, 3, 5, 9};
  int balance = 0;
  for (int pt = 0; pt < 5; ++pt)
    balance += kValues[pt] *
               (pos.pieces(c, PieceType(pt)).count() - pos.pieces(~c, PieceType(pt)).count());
  return balance;
}

float MaterialEvaluator::win_probability(int pawns) {
  return 1.0f / (1.0f + std::exp(-0.35f * float(pawns)));
}

namespace {

int distance(Square a, Square b) {
  return std::max(std::abs(index(file_of(a)) - index(file_of(b))),
                  std::abs(index(rank_of(a)) - index(rank_of(b))));
}

// Up to about a third of a pawn for a bare enemy king near the edge and our king close by.
float mop_up(const Position& pos, Color us) {
  if (pos.pieces(~us) != pos.pieces(~us, PieceType::King)) return 0.0f;
  const Square theirs = pos.king_square(~us), ours = pos.king_square(us);
  const int centre = std::max(std::abs(2 * index(file_of(theirs)) - 7),
                              std::abs(2 * index(rank_of(theirs)) - 7));  // 1 centre .. 7 edge
  return 0.03f * float(centre) + 0.02f * float(7 - distance(ours, theirs));
}

}  // namespace

void MaterialEvaluator::evaluate(const Position& pos, std::span<const Move> moves,
                                 std::span<float> win_probability_out) {
  const Color us = pos.side_to_move();
  for (size_t i = 0; i < moves.size(); ++i) {
    Position after = pos;
    after.play(moves[i]);
    const int balance = material_balance(after, us);
    win_probability_out[i] = win_probability(balance);
    if (mop_up_ && balance > 0) {
      const float pawns = float(balance) + mop_up(after, us);
      win_probability_out[i] = 1.0f / (1.0f + std::exp(-0.35f * pawns));
    }
  }
}

void MaterialEvaluator::evaluate_bins(const Position& pos, std::span<const Move> moves,
                                      std::span<float> log_probabilities) {
  std::vector<float> win(moves.size());
  evaluate(pos, moves, win);
  std::fill(log_probabilities.begin(), log_probabilities.end(),
            -std::numeric_limits<float>::infinity());
  for (size_t i = 0; i < moves.size(); ++i) {
    // Bin centres are (j + 0.5) / K: split the mass linearly between the two around w.
    const float position = std::clamp(win[i] * kBins - 0.5f, 0.0f, float(kBins - 1));
    const int low = std::min(int(position), kBins - 2);
    const float high_share = position - float(low);
    float* row = log_probabilities.data() + i * kBins;
    row[low] = std::log(1.0f - high_share);
    row[low + 1] = std::log(high_share);
  }
}

}  // namespace avocet::nn
