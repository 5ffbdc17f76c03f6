#include "avocet/search/argmax_policy.h"

#include <algorithm>

#include "avocet/chess/movegen.h"

namespace avocet::search {

float rule_value_after(const Game& game_after_move) {
  switch (game_after_move.termination()) {
    case Termination::Checkmate:
      return 1.0f;  // the mover gave mate
    case Termination::None:
      return -1.0f;
    default:
      return 0.5f;  // stalemate, dead position, 50/75 moves, repetition (claimable or forced)
  }
}

std::vector<ScoredMove> score_moves(const Game& game, nn::Evaluator& evaluator) {
  const MoveList moves = legal_moves(game.position());
  std::vector<ScoredMove> scored(moves.size());
  if (moves.empty()) return scored;
  std::vector<float> network(moves.size());
  evaluator.evaluate(game.position(), {moves.begin(), moves.size()}, network);
  Game after = game;
  for (size_t i = 0; i < moves.size(); ++i) {
    after.play(moves[i]);
    const float rule = rule_value_after(after);
    after.undo();
    scored[i] = {moves[i], rule >= 0.0f ? rule : network[i]};
  }
  std::stable_sort(scored.begin(), scored.end(), [](const ScoredMove& a, const ScoredMove& b) {
    return a.win_probability > b.win_probability;
  });
  return scored;
}

Move argmax_move(const Game& game, nn::Evaluator& evaluator) {
  const std::vector<ScoredMove> scored = score_moves(game, evaluator);
  return scored.empty() ? Move::none() : scored.front().move;
}

}  // namespace avocet::search
