#include "avocet/search/engine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "avocet/chess/movegen.h"
#include "avocet/search/argmax_policy.h"
#include "avocet/search/tablebase_root.h"

namespace avocet::search {

int centipawns_from_win_probability(float w) {
  const double p = std::clamp(double(w), 1e-6, 1 - 1e-6);
  return int(std::lround(std::log(p / (1 - p)) / 0.00368208));
}

Engine::Engine(EvaluatorFactory factory, std::string evaluator_name)
    : factory_(std::move(factory)),
      evaluator_name_(std::move(evaluator_name)),
      table_(0) {}  // sized by set_options or the first go, so a Hash option costs nothing

Engine::~Engine() {
  stop();
  wait();
}

void Engine::set_evaluator(EvaluatorFactory factory, std::string name) {
  wait();
  factory_ = std::move(factory);
  evaluator_name_ = std::move(name);
  table_.clear();  // cached network outputs belong to the old net
}

void Engine::set_options(const EngineOptions& options) {
  wait();
  // A new Hash is allocated here, so that a failure reaches the setoption that asked for it;
  // other options leave an unsized table to the first go (no default-sized table first).
  if (options.hash_mb != options_.hash_mb) table_.resize(size_t(options.hash_mb));
  options_ = options;
}

void Engine::new_game() {
  wait();
  table_.clear();
  game_ = Game();
}

bool Engine::searching() const {
  std::lock_guard lock(mutex_);
  return running_;
}

void Engine::go(const GoRequest& request, EngineCallbacks callbacks) {
  wait();
  if (table_.megabytes() != size_t(options_.hash_mb)) {
    try {
      table_.resize(size_t(options_.hash_mb));
    } catch (const std::runtime_error&) {
      // Plays on with the minimal table: every go must end in a bestmove.
    }
  }
  // Everything the search reads is set here, before its thread starts, so that a stop
  // arriving at once is never overwritten.
  start_ = std::chrono::steady_clock::now();
  const TimeBudget budget =
      allocate_time(request.clock, game_.position().side_to_move(), options_.move_overhead_ms);
  control_.stop = false;
  control_.nodes = 0;
  control_.node_limit = request.nodes.value_or(UINT64_MAX);
  control_.pondering = request.ponder;
  control_.deadline_ns = 0;
  control_.split_work = options_.threads > 1;
  if (budget.hard && !request.infinite) control_.set_deadline(start_ + *budget.hard);
  {
    std::lock_guard lock(mutex_);
    running_ = true;
    hold_ = request.infinite || request.ponder;
    pending_hard_ = budget.hard;
  }
  thread_ = std::thread(&Engine::run_search, this, request, budget, std::move(callbacks));
}

void Engine::stop() {
  control_.stop = true;
  release_hold();
}

void Engine::ponderhit() {
  // The opponent played the expected move: the clock now runs, from this moment.
  {
    std::lock_guard lock(mutex_);
    if (pending_hard_) control_.set_deadline(std::chrono::steady_clock::now() + *pending_hard_);
  }
  control_.pondering = false;
  release_hold();
}

void Engine::release_hold() {
  std::lock_guard lock(mutex_);
  hold_ = false;
  released_.notify_all();
}

void Engine::wait() {
  if (thread_.joinable()) thread_.join();
}

void Engine::run_search(GoRequest request, TimeBudget budget, EngineCallbacks callbacks) {
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  };
  IterationReport result;
  const MoveList legal = legal_moves(game_.position());

  // The tables decide the root: only the moves that keep the best result are searched, and a
  // won position plays the shortest win to the next zeroing move at once (the network cannot
  // be trusted to convert). The reported values of root moves are the tables'.
  std::vector<TablebaseMove> tb_root;
  control_.tbhits = 0;
  if (options_.tablebases && !legal.empty()) {
    const Position& pos = game_.position();
    tb_root = rank_root_moves(pos, pos.halfmove_clock(), *options_.tablebases,
                              options_.syzygy_50_move_rule, options_.syzygy_probe_limit);
    control_.tbhits = tb_root.size();
    if (!request.searchmoves.empty())
      std::erase_if(tb_root, [&](const TablebaseMove& t) {
        return std::find(request.searchmoves.begin(), request.searchmoves.end(), t.move) ==
               request.searchmoves.end();
      });
  }
  const std::vector<TablebaseMove> tb_best = best_group(tb_root);
  const auto tablebase_line = [&](RootLine& line) {
    const auto it = std::find_if(tb_root.begin(), tb_root.end(),
                                 [&](const TablebaseMove& t) { return t.move == line.move; });
    if (it == tb_root.end()) return;
    const int wdl = value(it->wdl);
    line.tablebase_wdl = wdl;
    const int plies = std::abs(it->dtz.value_or(1));
    if (wdl == 2)
      line.value = tablebase_win_value(plies);
    else if (wdl == -2)
      line.value = 1.0f - tablebase_win_value(plies);
    else
      line.value = 0.5f;
  };
  const auto report_info = [&](const IterationReport& report, int hashfull) {
    if (!callbacks.on_info) return;
    SearchInfo info{report, elapsed(), hashfull};
    if (!tb_root.empty()) {
      for (RootLine& line : info.report.lines) tablebase_line(line);
      std::stable_sort(info.report.lines.begin(), info.report.lines.end(),
                       [](const RootLine& a, const RootLine& b) { return a.value > b.value; });
    }
    callbacks.on_info(info);
  };
  const bool tablebase_win =
      !tb_best.empty() && tb_best.front().wdl == syzygy::Wdl::Win && tb_best.front().dtz;
  if (tablebase_win) {
    result.iterations = result.depth = result.seldepth = 1;
    result.nodes = 1;
    result.tbhits = control_.tbhits.load();
    result.lines.push_back({tb_best.front().move, 0.0f, {tb_best.front().move}, {}});
    report_info(result, 0);
  } else if (!tb_best.empty()) {
    request.searchmoves.clear();
    for (const TablebaseMove& t : tb_best) request.searchmoves.push_back(t.move);
  }

  if (!legal.empty() && !tablebase_win) {
    if (options_.mode == Mode::Argmax) {
      const auto evaluator = factory_();
      const std::vector<ScoredMove> scored = score_moves(game_, *evaluator);
      result.iterations = result.depth = result.seldepth = 1;
      result.nodes = 1;
      for (const ScoredMove& s : scored) {
        if (!request.searchmoves.empty() &&
            std::find(request.searchmoves.begin(), request.searchmoves.end(), s.move) ==
                request.searchmoves.end())
          continue;
        // The rules score a mating move 1; in the search's mate scale (1 minus kMateStep per
        // ply) that is a mate at ply 1, which reports as `mate 1` (1 itself would read as a
        // mate in 0 plies: the side to move mated).
        const float value = s.win_probability >= 1.0f ? 1.0f - kMateStep : s.win_probability;
        result.lines.push_back({s.move, value, {s.move}, {}});
      }
      if (result.lines.empty()) result.lines.push_back({scored.front().move, 0.5f, {}, {}});
      result.tbhits = control_.tbhits.load();
      report_info(result, 0);
    } else {
      Limits limits;
      limits.depth = request.depth;
      limits.mate = request.mate;
      limits.searchmoves = request.searchmoves;
      if (budget.soft && !request.infinite) limits.soft_deadline = start_ + *budget.soft;
      limits.start = start_;

      const TablebaseSettings tablebase_settings{
          options_.tablebases.get(), options_.syzygy_probe_limit, options_.syzygy_50_move_rule};
      // Helper threads search the same iterations through the shared table (lazy SMP), each
      // thread leaving the children another is expanding to the end (control_.split_work), so
      // that they split a node's moves instead of evaluating the same positions.
      std::vector<std::thread> helpers;
      for (int i = 1; i < options_.threads; ++i) {
        helpers.emplace_back([this, tablebase_settings] {
          const auto evaluator = factory_();
          Searcher helper(*evaluator, table_, options_.params, control_, 1, tablebase_settings);
          helper.run(game_, Limits{}, nullptr);
        });
      }
      const auto evaluator = factory_();
      Searcher searcher(*evaluator, table_, options_.params, control_, options_.multipv,
                        tablebase_settings);
      result = searcher.run(game_, limits, [&](const IterationReport& report) {
        report_info(report, table_.hashfull());
      });
      control_.stop = true;
      for (auto& h : helpers) h.join();
      if (result.iterations == 0) {
        result.tbhits = control_.tbhits.load();
        report_info(result, table_.hashfull());
      }
    }
  }

  // In infinite or ponder mode the best move waits for stop or ponderhit.
  {
    std::unique_lock lock(mutex_);
    released_.wait(lock, [&] { return !hold_; });
  }
  Move best, ponder;
  if (!result.lines.empty()) {
    best = result.lines.front().move;
    if (result.lines.front().pv.size() > 1) ponder = result.lines.front().pv[1];
  }
  {
    std::lock_guard lock(mutex_);
    running_ = false;
  }
  if (callbacks.on_bestmove) callbacks.on_bestmove(best, ponder);
}

}  // namespace avocet::search
