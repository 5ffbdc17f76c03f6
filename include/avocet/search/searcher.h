// Every search behind one small interface, and the one place that builds them, as Lc0's search
// factory: the net's first look (argmax), PUCT and the probability-limited search. The engine
// chooses a SearchMode and gives what the searches share from one move to the next (the
// table, PUCT's tree, the control its threads stop by); each search then runs on its own
// threads and reports as report.h says.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <random>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/limits.h"
#include "avocet/search/parameters.h"
#include "avocet/search/puct.h"
#include "avocet/search/report.h"
#include "avocet/search/transposition_table.h"

namespace avocet::search {

// Makes one evaluator per searching thread.
using EvaluatorFactory = std::function<std::unique_ptr<nn::Evaluator>()>;
using IterationSink = std::function<void(const IterationReport&)>;
using ProgressSink = std::function<void(const SearchProgress&)>;

// How the probability-limited search spends Threads N: on `searching` search threads, the first
// `split_evaluations` of which run each network evaluation on two threads
// (nn/helper_thread.h). Two threads on one evaluation make it about 1.7x as fast, with no
// search overhead, where two search threads splitting the tree reached a depth 1.37x as fast;
// so threads go in pairs, and an odd one searches alone. Threads 2: one search thread, split
// evaluations. (PUCT gives every thread its own playouts in one tree.)
struct ThreadPlan {
  int searching = 1;
  int split_evaluations = 0;
};
ThreadPlan thread_plan(int threads);

// What a search is built with. The pointers are the engine's, kept from one search to the
// next, and must outlive the searcher.
struct SearchSetup {
  EvaluatorFactory evaluators;
  TranspositionTable* table = nullptr;
  PuctTree* tree = nullptr;  // PUCT's, reused while the game goes on
  SearchControl* control = nullptr;
  SearchParameters params;
  int multipv = 1;
  int threads = 1;
  TablebaseSettings tablebases;
  // A strength level's draw among the first look's moves (strength.h's sample_line): its
  // temperature, and the random numbers it draws with. Argmax only.
  std::optional<double> level_temperature;
  std::mt19937_64* random = nullptr;
};

class Searcher {
 public:
  virtual ~Searcher() = default;
  // From the game's current position until a limit of `limits` or a stop. Reports every
  // iteration it completes, and the partial result once when none completed; returns the
  // last result.
  virtual IterationReport run(const Game& game, const Limits& limits,
                              const IterationSink& on_iteration, ProgressSink on_progress) = 0;
};

std::unique_ptr<Searcher> make_searcher(SearchMode mode, const SearchSetup& setup);

}  // namespace avocet::search
