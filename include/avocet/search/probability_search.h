// Probability-limited search (Giraffe, Lai 2015) guided by the action-value network.
//
// The root has probability 1. Expanding a node costs one network pass (cached in the
// transposition table) giving Q(s, a) for every legal move; the move probabilities are
// pi(a|s) = softmax(Q(s, .) / temperature). A child is searched only if
// P(node) * pi(a|s) >= theta; otherwise it is valued by the parent's Q(s, a). Values are
// win probabilities for the side to move, backed up by negamax (v -> 1 - v) with alpha-beta.
// Iterative deepening multiplies theta by a constant factor per iteration. Terminal
// positions are exact: mate is 1 (0 for the mated side) minus a tiny amount per ply so that
// shorter mates are preferred, and stalemate, dead positions, the 50-move rule and
// repetitions (by is_repetition_draw) are 0.5. Forcing moves below theta are expanded one ply
// at a time, a few per line (see SearchParameters). With Syzygy tables, a position reached by a
// zeroing move (capture or pawn move) that the tables cover takes their WDL as its value.
#pragma once

#include <chrono>
#include <functional>
#include <span>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/limits.h"
#include "avocet/search/parameters.h"
#include "avocet/search/report.h"
#include "avocet/search/stop_rule.h"
#include "avocet/search/transposition_table.h"

namespace avocet::search {

// The share of the soft time budget to spend, judged after each iteration: more when the
// iteration changed the best move (1.8) or lowered its value by 0.04 or more (1.4), less when
// the same move has been best for the last three iterations by a margin of 0.1 or more (0.6),
// else 1. The hard deadline still bounds every search.
double soft_time_factor(bool best_move_changed, float value_drop, int iterations_unchanged,
                        float margin);

// The nominal depth in plies at theta (IterationReport::depth): floor(log2(1 / theta)), at
// least 1.
int nominal_depth(double theta);

// Theta below which iterations stop: no line of a real search is cut there any more, so a
// solved position (every line a mate or a draw) ends its search instead of repeating it.
// Reached after about 64 iterations at the default ThresholdFactor, and never within a real
// time limit at larger factors (at 0.99, after some 4,500 iterations).
inline constexpr double kSmallestThreshold = 1e-20;

class ProbabilitySearcher {
 public:
  ProbabilitySearcher(nn::Evaluator& evaluator, TranspositionTable& table,
                      const SearchParameters& params, SearchControl& control, int multipv = 1,
                      TablebaseSettings tablebases = {});

  // Iterative deepening from the game's current position until a limit or a stop. Reports
  // every completed iteration; returns the last complete (or better partial) result.
  IterationReport run(const Game& game, const Limits& limits,
                      const std::function<void(const IterationReport&)>& on_iteration,
                      std::function<void(const SearchProgress&)> on_progress = nullptr);

 private:
  float search(const Position& pos, double probability, float alpha, float beta, int ply,
               int extensions_left);
  // The table's value of the position if it was searched at least as deep (budget) and its
  // bound settles the window; sets `table_move` to its best move either way.
  std::optional<float> table_cutoff(uint64_t key, float budget, float alpha, float beta, int ply,
                                    Move& table_move) const;
  // The value of the child reached by `move` (for the side to move at `pos`) when the move's
  // probability is below theta: searched one ply if the move forces and the line has
  // extensions left, else the rules', the tables' or the network's value.
  float leaf_value(const Position& pos, Move move, const Position& child, double probability,
                   float q, float alpha, float beta, int ply, int extensions_left);
  // Searches the root moves in the order given; on return the completed lines are sorted
  // best first. Returns how many lines completed (all of them unless the search stopped).
  size_t search_root(const Position& pos, std::vector<RootLine>& lines);
  // Exact value of a position from the rules alone, if any (for its side to move).
  std::optional<float> rule_value(const Position& pos, int ply, const MoveList& moves) const;
  // The tables' value of a position reached by a zeroing move, if they cover it.
  std::optional<float> tablebase_value(const Position& pos, int ply) const;
  // Q(s, a) for every move, as the network gives it (through the table's cache).
  void network_values(const Position& pos, const MoveList& moves, std::span<float> values);
  std::vector<Move> principal_variation(const Position& root, Move first) const;
  // The root moves (all legal ones, or those of `searchmoves`), best first by the network's
  // value, each its own one-move line.
  std::vector<RootLine> root_lines(const Position& root, const std::vector<Move>& searchmoves);
  // What an iteration that ended with `lines` reports.
  IterationReport report_of(const Position& root, const std::vector<RootLine>& lines,
                            int iterations) const;
  // Whether the search stops after `iterations` iterations, by the stop rule, with the soft
  // budget stretched or shortened by soft_time_factor.
  bool enough_iterations(const StopRule& rule, int iterations, const std::vector<RootLine>& lines,
                         bool best_move_changed, float value_drop, int iterations_unchanged) const;

  nn::Evaluator& evaluator_;
  TranspositionTable& table_;
  SearchParameters params_;
  SearchControl& control_;
  int multipv_;
  TablebaseSettings tablebases_;

  double theta_ = 1.0;
  int depth_ = 0;  // IterationReport::depth after the last complete iteration
  int seldepth_ = 0;
  bool stopped_ = false;
  std::vector<uint64_t> keys_;  // history (since the last irreversible move) and search path
  size_t root_index_ = 0;       // where the root is in keys_ (the history comes before it)
  std::vector<Move> root_moves_;
  std::function<void(const SearchProgress&)> on_progress_;
  SearchProgress progress_;
};

}  // namespace avocet::search
