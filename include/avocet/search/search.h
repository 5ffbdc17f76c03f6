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

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/busy_positions.h"
#include "avocet/search/transposition_table.h"
#include "avocet/search/value.h"

namespace avocet::syzygy {
class Tablebases;
}  // namespace avocet::syzygy

namespace avocet::search {

// How the engine plays (UCI option SearchMode): PUCT (puct.h), the default since it beat
// this file's probability-limited search by SPRT at 10+0.1 (weights/results/
// 2026-11-28-puct-default.md); the probability-limited search; or argmax, no search at all
// (argmax_policy.h: the net's best value, as ChessBench plays).
enum class SearchMode { Probability, Puct, Argmax };

struct SearchParameters {
  SearchMode mode = SearchMode::Puct;
  double policy_temperature = 0.06;  // softmax temperature over Q for pi(a|s)
  double initial_threshold = 0.25;   // theta of the first iteration
  double threshold_factor = 0.5;     // theta multiplier per iteration
  // Forcing moves below theta (checks, and captures or promotions that SEE says win
  // material) are still expanded, at most forcing_extensions times along a line, when their
  // probability is at least theta / forcing_reach: a leaf's value then does not stand on a
  // check or a winning capture that the net judged from the parent alone.
  int forcing_extensions = 2;
  int forcing_reach = 16;

  // PUCT (puct.h). The exploration c(N) = cpuct + cpuct_factor * ln((N + cpuct_base) /
  // cpuct_base): Leela's defaults (2.15, 18368, 2.82 for its Q in [-1, 1]) halved for values in
  // [0, 1]; to be tuned by games.
  double cpuct = 1.075;
  double cpuct_base = 18368;
  double cpuct_factor = 1.41;
  // The temperature of the priors' softmax over the network's values.
  double prior_temperature = 0.06;
  // A visited move's value: (1 - blend) * the mean of the values backed up through it
  // + blend * its minimax value over the tree (the best line's leaf, as the probability-limited
  // search backs values up). The mean is robust to one bad leaf evaluation; the minimax value
  // follows the small differences between moves in a won position that the mean averages away
  // (king and queen against king). 0 is AlphaZero's mean alone.
  double minimax_blend = 0.5;
};

// Where and how the search probes the tables: after a zeroing move (capture or pawn move),
// at most probe_limit pieces and no castling rights. With rule50, cursed wins and blessed
// losses are draws.
struct TablebaseSettings {
  const syzygy::Tablebases* tables = nullptr;
  int probe_limit = 7;
  bool rule50 = true;
};

// Stockfish's rule-50 damping, applied to the network's values where the search uses them
// as values (leaves and move order; pi(a|s) and argmax mode see the net's own): a move that does
// not reset the 50-move counter has its advantage (value - 0.5) shrunk by halfmove_clock_after /
// 200. The net rates the quiet moves of a won endgame all close to 1; damped, captures and pawn
// moves (progress, and the way into the tables) come first, and shuffling towards a draw by the
// rule costs value.
float damp_by_rule50(float value, int halfmove_clock_after);

// The search's repetition rule, as Stockfish's: a position that repeats one reached after the
// root (inside the search) is a draw; one that repeats only positions from before the root,
// or the root itself, is a draw when this is its third occurrence. A single repetition of the
// game's history is not a draw: the opponent need not repeat. `earlier` holds the keys of
// the positions before this one, oldest first (the parent last); those from index
// `first_after_root` on were reached after the root. Only the last `halfmove_clock` plies can
// repeat, and only every other ply (same side to move).
bool is_repetition_draw(std::span<const uint64_t> earlier, size_t first_after_root, uint64_t key,
                        int halfmove_clock);

// Shared between the threads of one search.
struct SearchControl {
  std::atomic<bool> stop{false};
  std::atomic<bool> pondering{false};  // while set, the time limit does not apply
  std::atomic<uint64_t> nodes{0};
  std::atomic<uint64_t> tbhits{0};  // tablebase probes that answered
  uint64_t node_limit = UINT64_MAX;
  // Steady-clock nanoseconds at which the search stops; 0 for none. Atomic because
  // ponderhit arms it while the search runs.
  std::atomic<int64_t> deadline_ns{0};
  // With several threads: a child that another thread is expanding is searched after its
  // siblings (see BusyPositions). One thread never defers, so its search is the same either way.
  bool split_work = false;
  BusyPositions busy;

  void set_deadline(std::chrono::steady_clock::time_point t) {
    deadline_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  }
  bool should_stop() const;
};

struct Limits {
  std::optional<int> depth;       // plies, as IterationReport::depth counts them (`go depth`)
  std::optional<int> iterations;  // theta iterations (`bench`)
  std::optional<int> mate;        // stop once a mate in <= N moves is found
  std::vector<Move> searchmoves;  // restrict the root to these
  // No new iteration after the soft deadline, itself stretched or shortened after each
  // iteration by soft_time_factor: the budget is soft_deadline - start (start: when the clock
  // began to run for this move; the search's own start if unset).
  std::optional<std::chrono::steady_clock::time_point> soft_deadline;
  std::optional<std::chrono::steady_clock::time_point> start;
};

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

struct RootLine {
  Move move;
  float value = 0;  // for the side to move at the root
  std::vector<Move> pv;
  std::optional<int> tablebase_wdl;  // the root's tablebase result for this move (-2 .. 2)
  // What the network said before the search (VerboseMoveStats): its value of the move for
  // the side to move, and the move's probability pi(a|s) at the root.
  float net_value = 0, prior = 0;
  bool proven = false;  // `value` is the rules' (the MCTS solver's proof), not an estimate
};

// What an iteration found. `iterations` counts the completed theta iterations (0: none yet;
// `Limits::iterations` and `bench` count these). GUIs read `depth` and `seldepth` as plies,
// so they are plies:
// - `depth` is the nominal depth of the last complete iteration, nominal_depth(theta): every
//   line of probability 2^-depth or more has been searched, so a line of moves the net rates
//   at 1/2 each is searched `depth` plies deep (the main line of a quiet position, whose moves
//   the net rates lower, less deep; forcing lines deeper). It is the probability-limited
//   search's analogue of an alpha-beta engine's nominal depth, a fixed unit of effort for
//   `go depth N`, and never decreases within a search.
// - `seldepth` is the longest line looked at (the deepest expanded node plus the
//   network-valued move below it, or a longer printed variation). In a quiet position it can
//   be below `depth`: no line there is as likely as 1/2 a move.
struct IterationReport {
  int iterations = 0;
  int depth = 0, seldepth = 0;
  uint64_t nodes = 0;
  uint64_t tbhits = 0;
  std::vector<RootLine> lines;  // best first, at least one
};

// Where a search is, for a GUI's progress lines between iterations (Searcher::run's
// on_progress, called at every expanded node: a node costs a network pass, so the call is
// cheap beside it).
struct SearchProgress {
  Move currmove;           // the root move being searched
  int currmovenumber = 0;  // its place in this iteration's order, from 1
  uint64_t nodes = 0;
};

class Searcher {
 public:
  Searcher(nn::Evaluator& evaluator, TranspositionTable& table, const SearchParameters& params,
           SearchControl& control, int multipv = 1, TablebaseSettings tablebases = {});

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
  // Whether the search stops after `iterations` iterations: the depth or mate asked for is
  // reached, the soft time budget (stretched or shortened by soft_time_factor) is spent, or a
  // hard limit came.
  bool enough_iterations(const Limits& limits, int iterations, const std::vector<RootLine>& lines,
                         bool best_move_changed, float value_drop, int iterations_unchanged,
                         std::chrono::steady_clock::time_point search_start) const;

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
