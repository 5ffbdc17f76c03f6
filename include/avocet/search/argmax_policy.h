// ChessBench's searchless policy with exact rules: every legal move gets the network's win
// probability, except that a move that mates scores 1 and a move after which the game is
// drawn or a draw can be claimed (stalemate, insufficient material, 50-move rule, threefold
// repetition from the game's history) scores exactly 0.5. Play the highest.
#pragma once

#include <vector>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"

namespace avocet::search {

struct ScoredMove {
  Move move;
  float win_probability;  // for the side to move, after the move
};

// What the rules alone say of the position after a move, if anything: 1 for mate given,
// 0.5 for a draw, negative when the network must judge.
float rule_value_after(const Game& game_after_move);

// Every legal move with its value (rules first, then the evaluator), best first.
std::vector<ScoredMove> score_moves(const Game& game, nn::Evaluator& evaluator);

// The argmax move; Move::none() when there is no legal move.
Move argmax_move(const Game& game, nn::Evaluator& evaluator);

}  // namespace avocet::search
