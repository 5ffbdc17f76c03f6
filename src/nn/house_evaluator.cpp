#include "house_evaluator.h"

#include <algorithm>
#include <cmath>
#include <unsupported/Eigen/SpecialFunctions>
#include <utility>

#include "avocet/nn/action_table.h"
#include "avocet/nn/tokenizer.h"

namespace avocet::nn {

HouseEvaluator::HouseEvaluator(std::shared_ptr<const Network> network)
    : NetworkEvaluator(std::move(network)) {
  for (int g : network_->config().move_groups) move_groups_ |= 1u << g;
}

void HouseEvaluator::head_features(const std::vector<int>& row_of, int rows, int sequence_length,
                                   const Matrix& weight, Matrix& gathered, Matrix& features) {
  const Eigen::Index d = workspace_.x.cols();
  if (gathered.rows() < rows) gathered.resize(std::max(rows, 64), d);
  for (size_t key = 0; key < row_of.size(); ++key)
    if (row_of[key] >= 0)
      gathered.row(row_of[key]) =
          workspace_.x.row(Eigen::Index(key / 64) * sequence_length + 1 + Eigen::Index(key % 64));
  if (features.rows() < rows) features.resize(std::max(rows, 64), weight.rows());
  features.topRows(rows).noalias() = gathered.topRows(rows) * weight.transpose();
}

void HouseEvaluator::compute_logits(std::span<const BatchItem> items) {
  const NetworkConfig& c = network_->config();
  const HouseHead& head = network_->house_head();
  const TrunkWeights& trunk = network_->trunk();
  const int t = trunk.sequence_length;
  const int batch = int(items.size());
  tokens_.resize(size_t(batch) * t);
  flipped_.resize(size_t(batch));
  for (int b = 0; b < batch; ++b) {
    const Position& pos = *items[size_t(b)].position;
    flipped_[size_t(b)] = is_mirrored(pos, c.mirror);
    const Tokens tokens = tokenize(pos, c.mirror);
    std::copy(tokens.begin(), tokens.end(), tokens_.begin() + ptrdiff_t(b) * t);
  }
  embed_tokens(trunk, tokens_.data(), batch, workspace_);
  if (!c.square_groups.empty()) {
    // Square features in absolute squares; token row t shows the square the net sees there.
    for (int b = 0; b < batch; ++b) {
      const std::array<SquareFeatures, 64> features = square_features(*items[size_t(b)].position);
      for (int token = 1; token <= 64; ++token) {
        const Square seen = token_square(token);
        const SquareFeatures& f =
            features[size_t(index(flipped_[size_t(b)] ? flip_rank(seen) : seen))];
        for (size_t g = 0; g < c.square_groups.size(); ++g)
          workspace_.x.row(b * t + token) +=
              network_->square_features()[g].row(f[size_t(c.square_groups[g])]);
      }
    }
  }
  // The head reads only the square tokens (token rows 1..64) some move leaves or reaches (26
  // of the 77 rows on average over the positions of 60 games at 10+0.1): their head features
  // are computed from their rows gathered (all 64 took 4% of a search), and the trunk's last
  // block finishes only those rows, which saves about an eighth of the trunk's multiply-adds.
  // Rows are keyed item * 64 + square token - 1, so that every item's squares are their own.
  const auto network_move_of = [&](int b, Move move) {
    return network_move(flipped_[size_t(b)] ? mirror_move(move) : move);
  };
  from_row_.assign(size_t(batch) * 64, -1);
  to_row_.assign(size_t(batch) * 64, -1);
  move_item_.clear();
  int froms = 0, tos = 0;
  for (int b = 0; b < batch; ++b)
    for (const Move move : items[size_t(b)].moves) {
      const Move m = network_move_of(b, move);
      int& from = from_row_[size_t(b * 64 + square_token(m.from()) - 1)];
      if (from < 0) from = froms++;
      int& to = to_row_[size_t(b * 64 + square_token(m.to()) - 1)];
      if (to < 0) to = tos++;
      move_item_.push_back(b);
    }
  read_rows_.clear();
  for (int b = 0; b < batch; ++b)
    for (int token = 1; token <= 64; ++token) {
      const size_t key = size_t(b * 64 + token - 1);
      if (from_row_[key] >= 0 || to_row_[key] >= 0) read_rows_.push_back(b * t + token);
    }
  run_blocks(trunk, batch, workspace_, helper_.get(), read_rows_);

  head_features(from_row_, froms, t, head.from, from_squares_, from_features_);
  head_features(to_row_, tos, t, head.to, to_squares_, to_features_);

  const Eigen::Index n = Eigen::Index(move_item_.size());
  if (hidden_.rows() < n) hidden_.resize(std::max<Eigen::Index>(n, 64), c.head_dim);
  if (logits_.rows() < n) logits_.resize(std::max<Eigen::Index>(n, 64), c.bins);
  // The batch's moves in order: move i is move i - first_move[b] of item b.
  first_move_.assign(size_t(batch) + 1, 0);
  for (int b = 0; b < batch; ++b)
    first_move_[size_t(b) + 1] = first_move_[size_t(b)] + int(items[size_t(b)].moves.size());
  // Each move's row is its own: with a helper thread the moves are split in two halves (the
  // tactical move features, searches of their own, are most of this step's time). The GELU and
  // the product after it run on all rows at once, so that Eigen's vector and scalar paths fall
  // on the same rows as with one thread, and the values stay the same bit for bit.
  auto moves_step = [&](int part) {
    const int parts = helper_ ? 2 : 1;
    const Eigen::Index end = n * (part + 1) / parts;
    for (Eigen::Index i = n * part / parts; i < end; ++i) {
      const int b = move_item_[size_t(i)];
      const BatchItem& item = items[size_t(b)];
      const Move move = item.moves[size_t(i - first_move_[size_t(b)])];
      const Move m = network_move_of(b, move);
      const int promotion = m.promotion() == PieceType::None ? 0 : index(m.promotion());
      hidden_.row(i) = from_features_.row(from_row_[size_t(b * 64 + square_token(m.from()) - 1)]) +
                       to_features_.row(to_row_[size_t(b * 64 + square_token(m.to()) - 1)]) +
                       head.promotion.row(promotion) + head.bias;
      if (!c.move_groups.empty()) {
        const MoveFeatures f = move_features(*item.position, move, move_groups_);
        for (size_t g = 0; g < c.move_groups.size(); ++g)
          hidden_.row(i) += head.move_features[g].row(f[size_t(c.move_groups[g])]);
      }
    }
  };
  if (helper_)
    helper_->run(moves_step);
  else
    moves_step(0);
  // Exact GELU, as PyTorch's default: x * Phi(x). Eigen's erf is a rational approximation
  // within a couple of ulp, vectorised (std::erf, one call per value, took 2.4% of a search).
  auto h = hidden_.topRows(n).array();
  h = 0.5f * h * (1.0f + (h * float(M_SQRT1_2)).erf());
  logits_.topRows(n).noalias() = hidden_.topRows(n) * head.out.transpose();
  logits_.topRows(n).rowwise() += head.out_bias;
}

}  // namespace avocet::nn
