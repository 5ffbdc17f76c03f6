// Family `house` behind the Evaluator interface (src/DESIGN.md, "The two network families").
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "avocet/chess/tactical_features.h"
#include "network_evaluator.h"

namespace avocet::nn {

// Family `house`: one trunk pass over the 77 FEN tokens; the head scores each move from
// the outputs at its from- and to-square tokens.
class HouseEvaluator final : public NetworkEvaluator {
 public:
  explicit HouseEvaluator(std::shared_ptr<const Network> network);

 private:
  void compute_logits(std::span<const BatchItem> items) override;
  // The move groups the net reads: the search-based ones cost time, so only these are
  // computed.
  MoveGroupSet move_groups_ = 0;
  // features.topRows(rows) = the square rows that row_of maps (item * 64 + square token - 1 ->
  // row, -1 for none), gathered from the trunk's output into `gathered`, times weight^T.
  void head_features(const std::vector<int>& row_of, int rows, int sequence_length,
                     const Matrix& weight, Matrix& gathered, Matrix& features);
  std::vector<int> from_row_, to_row_;
  std::vector<int> read_rows_;    // the token rows the head reads, ascending
  std::vector<uint8_t> flipped_;  // per item: the net sees it mirrored
  std::vector<int> move_item_;    // per move of the batch: its item
  std::vector<int> first_move_;   // per item: the batch's index of its first move
  Matrix from_squares_, to_squares_, from_features_, to_features_, hidden_;
  std::vector<int> tokens_;
};

}  // namespace avocet::nn
