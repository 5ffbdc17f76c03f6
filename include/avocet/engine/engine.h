// Engine: owns the state of a playing engine: every option's value (Settings), the network
// with its loading and fallback, the Syzygy tables, the game, the transposition table and the
// search threads. It reports through callbacks; the UCI layer only turns text into calls and
// results into text. `go` returns at once; exactly one best move is reported per `go`, after a
// stop or ponderhit when the search is infinite or pondering.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/precision.h"
#include "avocet/search/limits.h"
#include "avocet/search/parameters.h"
#include "avocet/search/puct.h"
#include "avocet/search/report.h"
#include "avocet/search/searcher.h"
#include "avocet/search/strength.h"
#include "avocet/search/time_manager.h"
#include "avocet/syzygy/tablebase.h"

namespace avocet::engine {

// The defaults below are the UCI options' defaults: engine/options.cpp reads them from a
// default-constructed Settings (its EngineOptions and SearchParameters) and writes them nowhere
// else.
struct EngineOptions {
  int hash_mb = 64;
  int threads = 1;
  int multipv = 1;
  int move_overhead_ms = 50;
  search::SearchParameters params;
  int syzygy_probe_limit = search::TablebaseSettings{}.probe_limit;
  bool syzygy_50_move_rule = search::TablebaseSettings{}.rule50;
  // UCI_LimitStrength and UCI_Elo: play at the level strength_level(elo) gives (strength.h).
  // The default Elo is the lowest, as Stockfish's is.
  bool limit_strength = false;
  int elo = search::kMinElo;
  // Stockfish's Skill Level (0-20): below 20, without UCI_LimitStrength, the level of its Elo.
  int skill_level = 20;
  // The Elo the engine plays at, if it is held below full strength.
  std::optional<int> limited_elo() const {
    if (limit_strength) return elo;
    if (skill_level < 20) return search::skill_level_elo(skill_level);
    return std::nullopt;
  }
};

// Whether a search with these options is PUCT: SearchMode puct, or a strength level below full
// strength (calibrated on PUCT's node counts).
bool plays_puct(const EngineOptions& options);

// One Hash budget for the two stores a search fills: the transposition table (megabytes) and
// PUCT's tree (bytes). PUCT: the table an eighth of Hash (at least 1 MB), the tree the rest;
// the probability-limited search, which has no tree: the table all of it.
struct HashSplit {
  size_t table_mb = 0;
  size_t tree_bytes = 0;
};
HashSplit split_hash(const EngineOptions& options);

// String options need a non-empty default in UCI GUIs: these words stand for "none".
inline constexpr std::string_view kEmbeddedNet = "<embedded>";
inline constexpr std::string_view kNoTablebases = "<empty>";

// Options that change only what the UCI loop prints or accepts. The table holds them with the
// others so that `uci`, `setoption` and `--Name=value` treat every option alike, but neither
// Engine nor the search reads them: uci/uci_loop.cpp alone does.
struct ProtocolOptions {
  bool ponder = false;    // a hint to the GUI; `go ponder` works either way
  bool show_wdl = false;  // add `wdl W D L` to info lines (uci/wdl_model.h)
  // GUIs set UCI_AnalyseMode before an analysis; Avocet searches the same way for analysis
  // and play, so it is kept only to be read back (Stockfish 15.1 ignores it likewise).
  bool analyse_mode = false;
  bool chess960 = false;            // castling text as king takes rook; Chess960 castling in FENs
  bool verbose_move_stats = false;  // after each search, a line per root move (lc0's option)
};

// The tables under `path`, every one readable: throws std::invalid_argument naming the first
// problem found, or that `path` holds no table. The one check of a SyzygyPath that must work
// (the option's check, the subcommands' --SyzygyPath); the engine itself plays on without the
// tables it cannot read (Engine::open_tablebases).
std::shared_ptr<const syzygy::Tablebases> open_readable_tablebases(const std::string& path);

// The value of every option (engine/options.cpp defines the options over these fields).
struct Settings {
  EngineOptions engine;
  ProtocolOptions protocol;
  std::string eval_file{kEmbeddedNet};
  nn::Precision precision = nn::Precision::Auto;  // the net's arithmetic (nn/precision.h)
  std::string syzygy_path{kNoTablebases};
  // Debug Log File: every line the loop reads and writes, time-stamped (Stockfish's option);
  // the loop opens it (uci/debug_log.h). Empty: none.
  std::string debug_log_file{};
};

// An EvalFile or Precision that could not be loaded. The engine plays on with the net it had
// (the embedded one if it had none), which what() names; GUIs must not hide such a line.
class NetworkLoadError : public std::runtime_error {
 public:
  NetworkLoadError(std::string reason, std::string kept)
      : std::runtime_error("EvalFile: " + reason + "; keeping " + kept),
        reason_(std::move(reason)),
        kept_(std::move(kept)) {}
  // Why the file could not be loaded (its text comes from the file), and the net kept.
  const std::string& reason() const { return reason_; }
  const std::string& kept() const { return kept_; }

 private:
  std::string reason_, kept_;
};

// What the options set up and the user was not told yet (Engine::take_reports).
struct EngineReports {
  std::vector<std::string> lines;  // the playing net, the tables found
  std::optional<NetworkLoadError> net_failure;
};

struct GoRequest {
  search::TimeControl clock;
  std::optional<int> depth, mate;  // depth in plies (search::IterationReport::depth)
  std::optional<int> iterations;   // theta iterations: `bench`, and a go without a limit
  std::optional<uint64_t> nodes;
  std::vector<Move> searchmoves;
  bool infinite = false, ponder = false;
};

struct SearchInfo {
  search::IterationReport report;
  double seconds = 0;
  int hashfull = 0;
};

// A progress line while an iteration runs (EngineCallbacks::on_progress): at most one a
// second when no iteration has reported for a second, and, from kCurrmoveAfter on, one at
// new root move, at most one a second, with `show_currmove` (Stockfish prints `currmove` after
// 3 s likewise).
struct ProgressInfo {
  search::SearchProgress progress;
  bool show_currmove = false;
  double seconds = 0;
  int hashfull = 0;
};
inline constexpr std::chrono::milliseconds kCurrmoveAfter{3000};
inline constexpr std::chrono::milliseconds kProgressEvery{1000};

struct EngineCallbacks {
  std::function<void(const SearchInfo&)> on_info;
  std::function<void(Move best, Move ponder)> on_bestmove;
  // The final root moves, best first, just before on_bestmove (null: not wanted).
  std::function<void(const search::IterationReport&)> on_root_moves;
  std::function<void(const ProgressInfo&)> on_progress;
};

// Makes one evaluator per search thread.
using EvaluatorFactory = search::EvaluatorFactory;
// Receives a problem found away from any command (a table that turns out corrupt at its first
// probe, during a search) or one that must reach a log at once.
using ErrorSink = std::function<void(const std::string&)>;

class Engine {
 public:
  // Plays with the embedded network (loaded when first needed) and EvalFile's, or with the
  // evaluators `factory` makes (tests), named `evaluator_name`.
  explicit Engine(EvaluatorFactory factory = nullptr, std::string evaluator_name = "",
                  ErrorSink on_error = nullptr);
  ~Engine();

  // ---- options: each takes effect whole or not at all (engine/options.cpp says which applies)
  const Settings& settings() const { return settings_; }
  // The values without a resource behind them. A new Hash is allocated here; one that cannot
  // be throws std::runtime_error and the settings stay as they were.
  void configure(const Settings& next);
  // EvalFile and Precision: plays with the net `file` names (kEmbeddedNet: the embedded one)
  // in `precision` from the next go. Throws std::invalid_argument for a precision this CPU
  // lacks (nothing changes) and NetworkLoadError for a net that cannot be loaded.
  void load_network(const std::string& file, nn::Precision precision);
  // SyzygyPath: the tables under `path` (kNoTablebases: none). Problems found while scanning
  // go to the error sink; the count found is reported (take_reports).
  void open_tablebases(const std::string& path);
  // Tables opened elsewhere (tests, benches); null for none.
  void set_tablebases(std::shared_ptr<const syzygy::Tablebases> tables);
  const syzygy::Tablebases* tablebases() const { return tablebases_.get(); }
  // Clear Hash and ucinewgame: forget what earlier searches stored.
  void clear_hash();

  // ---- the network
  // Loads the embedded net if no net plays yet; throws std::runtime_error if it cannot.
  void ensure_network();
  bool has_network() const { return factory_ != nullptr; }
  const std::string& evaluator_name() const { return evaluator_name_; }
  const EvaluatorFactory& evaluator_factory() const { return factory_; }
  // Which net plays, for messages: "the embedded net N", "N (from FILE)", or "no network".
  std::string current_net() const;
  // What the options set up and the user was not told yet: the playing net (always with
  // `name_net`), the tables found, and an EvalFile failure, which is repeated before the next
  // search. A report that a later option superseded (a net that did load after all, another
  // SyzygyPath) is dropped.
  EngineReports take_reports(bool name_net);
  // Does what the first go would otherwise do (loads the net, allocates the table), so that
  // `isready` answers only when the engine is ready to search at once.
  void prepare();

  // ---- the game
  void new_game();
  // The game whose position `go` searches.
  void set_game(Game game);
  // A refused `position`: the game stays as it was, but a go has no position to search (it
  // would play a move of the position before, illegal in the GUI's game) until a valid one.
  void refuse_position() { has_position_ = false; }
  bool has_position() const { return has_position_; }
  const Game& game() const { return game_; }
  // The hash table's current size: 0 until a Hash option, isready or the first go sizes it.
  size_t hash_megabytes() const { return table_.megabytes(); }

  // ---- searching
  void go(const GoRequest& request, EngineCallbacks callbacks);
  void stop();
  void ponderhit();
  // Blocks until the current search (if any) has reported its best move.
  void wait();
  bool searching() const;
  // The bytes PUCT's tree holds allocated; 0 after ucinewgame, Clear Hash or a new Hash.
  size_t tree_bytes() const { return puct_tree_.allocated_bytes(); }
  // Every legal move's value as the engine plays it (rules, tables, network), as `eval`
  // prints it. Not during a search.
  std::string move_values_report();

 private:
  // The search thread: the tables' ranking of the root, then a tablebase win or the search
  // it chooses (make_searcher), then the best move.
  void run_search(GoRequest request, search::TimeBudget budget, EngineCallbacks callbacks);
  // The search of `mode` (search/searcher.h), with the limits of `request` and the clock.
  search::IterationReport search(search::SearchMode mode, const GoRequest& request,
                                 const search::TimeBudget& budget,
                                 const std::function<void(const search::IterationReport&)>& report,
                                 std::function<void(const search::SearchProgress&)> progress);
  // Waits out an infinite or ponder search's hold, then reports the best and ponder moves.
  void report_best_move(const search::IterationReport& result, const EngineCallbacks& callbacks);
  // The reply to ponder on after `best` when the principal variation stops there: the
  // table's best move in the position after it, else the net's. None when the game ends.
  Move expected_reply(Move best);
  void release_hold();
  void use_network(std::shared_ptr<const nn::Network> net, const std::string& file);

  EvaluatorFactory factory_;
  std::string evaluator_name_;
  std::string net_file_;  // where the playing net came from; empty for an evaluator passed in
  ErrorSink on_error_;
  Settings settings_;
  std::shared_ptr<const syzygy::Tablebases> tablebases_;
  Game game_;
  bool has_position_ = true;
  Game searched_game_;  // the search thread's copy: `position` may come during a search
  search::TranspositionTable table_;
  // SearchMode puct's tree, kept between moves; cleared with the table (a new game, Clear Hash,
  // another net), and bounded by Hash as the table is.
  search::PuctTree puct_tree_;
  search::SearchControl control_;
  std::thread thread_;

  // Reports owed (take_reports).
  bool net_reported_ = false;
  std::optional<std::string> tables_report_;
  std::optional<NetworkLoadError> net_failure_;

  mutable std::mutex mutex_;
  std::condition_variable released_;
  bool hold_ = false;  // infinite or ponder: bestmove waits for stop / ponderhit
  bool running_ = false;
  std::chrono::steady_clock::time_point start_;
  std::optional<std::chrono::milliseconds> pending_hard_;  // armed at ponderhit
  std::mt19937_64 random_{std::random_device{}()};         // a limited strength's choice of move
};

}  // namespace avocet::engine
