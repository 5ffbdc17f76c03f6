// Engine: owns the game, the options, the network, the transposition table and the search
// threads, and reports through callbacks (the UCI layer turns them into text). `go` returns
// at once; exactly one best move is reported per `go`, after a stop or ponderhit when the
// search is infinite or pondering.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/search.h"
#include "avocet/search/time_manager.h"
#include "avocet/syzygy/tablebase.h"

namespace avocet::search {

enum class Mode { Argmax, Search };

// The defaults below are the UCI options' defaults: uci/options.cpp reads them from a
// default-constructed EngineOptions (and its SearchParameters) and writes them nowhere else.
struct EngineOptions {
  int hash_mb = 64;
  int threads = 1;
  int multipv = 1;
  int move_overhead_ms = 50;
  Mode mode = Mode::Search;
  SearchParameters params;
  // Syzygy tables (none: null); probed within syzygy_probe_limit pieces.
  std::shared_ptr<const syzygy::Tablebases> tablebases;
  int syzygy_probe_limit = TablebaseSettings{}.probe_limit;
  bool syzygy_50_move_rule = TablebaseSettings{}.rule50;
};

struct GoRequest {
  TimeControl clock;
  std::optional<int> depth, mate;
  std::optional<uint64_t> nodes;
  std::vector<Move> searchmoves;
  bool infinite = false, ponder = false;
};

struct SearchInfo {
  IterationReport report;
  double seconds = 0;
  int hashfull = 0;
};

struct EngineCallbacks {
  std::function<void(const SearchInfo&)> on_info;
  std::function<void(Move best, Move ponder)> on_bestmove;
};

// Makes one evaluator per search thread.
using EvaluatorFactory = std::function<std::unique_ptr<nn::Evaluator>()>;

class Engine {
 public:
  explicit Engine(EvaluatorFactory factory, std::string evaluator_name);
  ~Engine();

  void set_evaluator(EvaluatorFactory factory, std::string name);
  const std::string& evaluator_name() const { return evaluator_name_; }

  // Options take effect at the next `go` (Hash clears the table).
  void set_options(const EngineOptions& options);
  const EngineOptions& options() const { return options_; }
  // The hash table's current size: 0 until a Hash option or the first go sizes it.
  size_t hash_megabytes() const { return table_.megabytes(); }

  void new_game();
  void set_game(const Game& game) { game_ = game; }
  const Game& game() const { return game_; }

  void go(const GoRequest& request, EngineCallbacks callbacks);
  void stop();
  void ponderhit();
  // Blocks until the current search (if any) has reported its best move.
  void wait();
  bool searching() const;

 private:
  void run_search(GoRequest request, TimeBudget budget, EngineCallbacks callbacks);
  void release_hold();

  EvaluatorFactory factory_;
  std::string evaluator_name_;
  EngineOptions options_;
  Game game_;
  TranspositionTable table_;
  SearchControl control_;
  std::thread thread_;

  mutable std::mutex mutex_;
  std::condition_variable released_;
  bool hold_ = false;  // infinite or ponder: bestmove waits for stop / ponderhit
  bool running_ = false;
  std::chrono::steady_clock::time_point start_;
  std::optional<std::chrono::milliseconds> pending_hard_;  // armed at ponderhit
};

// Centipawns for a win probability, inverting w = 1 / (1 + exp(-0.00368208 cp)).
int centipawns_from_win_probability(float w);

}  // namespace avocet::search
