#include "house_evaluator.h"

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

void HouseEvaluator::head_features(const std::array<int, 64>& row_of, int rows,
                                   const Matrix& weight, Matrix& gathered, Matrix& features) {
  const auto squares = workspace_.x.middleRows(1, 64);
  if (gathered.rows() < rows) gathered.resize(64, squares.cols());
  for (int square = 0; square < 64; ++square)
    if (row_of[size_t(square)] >= 0) gathered.row(row_of[size_t(square)]) = squares.row(square);
  if (features.rows() < rows) features.resize(64, weight.rows());
  features.topRows(rows).noalias() = gathered.topRows(rows) * weight.transpose();
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
      const Square seen = token_square(t);
      const SquareFeatures& f = features[size_t(index(flip ? flip_rank(seen) : seen))];
      for (size_t g = 0; g < c.square_groups.size(); ++g)
        workspace_.x.row(t) += network_->square_features()[g].row(f[size_t(c.square_groups[g])]);
    }
  }
  // The head reads only the square tokens (token rows 1..64) some move leaves or reaches (26
  // of the 77 rows on average over the positions of 60 games at 10+0.1): their head features
  // are computed from their rows gathered (all 64 took 4% of a search), and the trunk's last
  // block finishes only those rows, which saves about an eighth of the trunk's multiply-adds.
  const Eigen::Index n = Eigen::Index(moves.size());
  from_row_.fill(-1);
  to_row_.fill(-1);
  int froms = 0, tos = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Move m = network_move(flip ? mirror_move(moves[i]) : moves[i]);
    if (from_row_[size_t(square_token(m.from()) - 1)] < 0)
      from_row_[size_t(square_token(m.from()) - 1)] = froms++;
    if (to_row_[size_t(square_token(m.to()) - 1)] < 0)
      to_row_[size_t(square_token(m.to()) - 1)] = tos++;
  }
  int read = 0;
  for (int token = 1; token <= 64; ++token)
    if (from_row_[size_t(token - 1)] >= 0 || to_row_[size_t(token - 1)] >= 0)
      read_rows_[size_t(read++)] = token;
  run_blocks(network_->trunk(), 1, workspace_, helper_.get(), {read_rows_.data(), size_t(read)});

  head_features(from_row_, froms, head.from, from_squares_, from_features_);
  head_features(to_row_, tos, head.to, to_squares_, to_features_);

  if (hidden_.rows() < n) hidden_.resize(std::max<Eigen::Index>(n, 64), c.head_dim);
  if (logits_.rows() < n) logits_.resize(std::max<Eigen::Index>(n, 64), c.bins);
  // Each move's row is its own: with a helper thread the moves are split in two halves (the
  // tactical move features, searches of their own, are most of this step's time). The GELU and
  // the product after it run on all rows at once, so that Eigen's vector and scalar paths fall
  // on the same rows as with one thread, and the values stay the same bit for bit.
  auto moves_step = [&](int part) {
    const int parts = helper_ ? 2 : 1;
    const Eigen::Index end = n * (part + 1) / parts;
    for (Eigen::Index i = n * part / parts; i < end; ++i) {
      const Move m = network_move(flip ? mirror_move(moves[size_t(i)]) : moves[size_t(i)]);
      const int promotion = m.promotion() == PieceType::None ? 0 : index(m.promotion());
      hidden_.row(i) = from_features_.row(from_row_[size_t(square_token(m.from()) - 1)]) +
                       to_features_.row(to_row_[size_t(square_token(m.to()) - 1)]) +
                       head.promotion.row(promotion) + head.bias;
      if (!c.move_groups.empty()) {
        const MoveFeatures f = move_features(pos, moves[size_t(i)], move_groups_);
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
