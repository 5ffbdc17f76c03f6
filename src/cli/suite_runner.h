// What `puzzles` and `epd` share: one reader for their files, the engine that plays set up
// from the command line, and one pool of workers.
//
// The benches search through engine::Engine, as `go nodes N` or `go movetime T` would in a
// game: the same transposition table size (--Hash, default the UCI Hash), the same Syzygy
// tables (--SyzygyPath), time handling (Move Overhead) and search parameters. Each worker owns an
// engine with one search thread; a new problem starts as after `ucinewgame`.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "avocet/chess/game.h"
#include "avocet/engine/engine.h"
#include "commands.h"

namespace avocet::cli {

// How a suite file's lines are named in its errors.
struct SuiteFormat {
  std::string_view file_kind;  // "puzzle file": "cannot read puzzle file '...'"
  std::string_view items;      // "puzzles": "no puzzles in '...'"
  std::string_view lines;      // "rows": "it holds no rows"
  std::string_view line_kind;  // "a Lichess puzzle row (PuzzleId,FEN,Moves,Rating,...)"
};

// Reads `path` line by line until `enough()` holds: blank lines, and those `skip(number,
// line)` accepts, are passed over; every other line goes to `parse`, which throws on a
// malformed one. The first 20 malformed lines are printed to io.err with their line numbers,
// then their count. Throws a one-line error when the file cannot be read, has no lines, or
// none of them parses.
void read_suite_lines(const std::string& path, const SuiteFormat& format,
                      const std::function<bool(long, const std::string&)>& skip,
                      const std::function<void(const std::string&)>& parse,
                      const std::function<bool()>& enough, const Streams& io);

// The engine the benches search with, as the command line sets it up.
struct BenchEngineSetup {
  engine::EvaluatorFactory evaluator;  // the net's, or the material baseline's
  std::string evaluator_name;
  engine::Settings settings;  // Hash, Mode and the search parameters; Threads is 1
  std::shared_ptr<const syzygy::Tablebases> tables;  // null: none
  SearchBudget budget;                               // ignored in argmax mode
};

// Adds --Hash and --SyzygyPath (add_engine_flags).
void add_bench_engine_options(cxxopts::Options& options);
// The setup for `evaluator` from the engine flags (engine_flags: Hash, SyzygyPath) and the
// search parameters (--set; their SearchMode argmax plays without search).
BenchEngineSetup bench_engine_setup(const engine::Settings& flags,
                                    engine::EvaluatorFactory evaluator, std::string name,
                                    const SearchBudget& budget,
                                    const search::SearchParameters& params);

// One worker's engine: answers a position as a `go` with the budget would.
class BenchEngine {
 public:
  explicit BenchEngine(const BenchEngineSetup& setup);
  // Forgets earlier searches (ucinewgame), for a new problem.
  void new_problem() { engine_.new_game(); }
  struct Answer {
    Move move;  // none without a legal move
    uint64_t nodes = 0;
  };
  Answer best_move(const Game& game);

 private:
  engine::Engine engine_;
  engine::GoRequest request_;
};

// Calls work(engine, i) for every i in [0, count), `threads` at a time, each thread with its
// own BenchEngine.
void run_on_workers(size_t count, int threads, const BenchEngineSetup& setup,
                    const std::function<void(BenchEngine&, size_t)>& work);

}  // namespace avocet::cli
