#include "avocet/engine/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "avocet/chess/movegen.h"
#include "avocet/engine/move_values.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/network.h"
#include "avocet/search/argmax_policy.h"
#include "avocet/search/searcher.h"
#include "avocet/search/tablebase_root.h"
#include "avocet/search/value.h"

namespace avocet::engine {

using search::allocate_time;
using search::best_group;
using search::draw_nodes;
using search::IterationReport;
using search::kDraw;
using search::Limits;
using search::mating_value;
using search::rank_root_moves;
using search::RootLine;
using search::sample_line;
using search::score_moves;
using search::ScoredMove;
using search::SearchMode;
using search::SearchProgress;
using search::strength_level;
using search::tablebase_value;
using search::TablebaseMove;
using search::TablebaseSettings;
using search::TimeBudget;

namespace {

// The problems a scan of the tables found, in one line.
std::string joined(const std::vector<std::string>& problems) {
  std::string line;
  for (const std::string& p : problems) line += (line.empty() ? "" : "; ") + p;
  return line;
}

}  // namespace

std::shared_ptr<const syzygy::Tablebases> open_readable_tablebases(const std::string& path) {
  auto tables = std::make_shared<const syzygy::Tablebases>(path);
  if (!tables->errors().empty()) throw std::invalid_argument(joined(tables->errors()));
  if (tables->table_count() == 0)
    throw std::invalid_argument(fmt::format("no Syzygy tables in '{}'", path));
  return tables;
}

Engine::Engine(EvaluatorFactory factory, std::string evaluator_name, ErrorSink on_error)
    : factory_(std::move(factory)),
      evaluator_name_(std::move(evaluator_name)),
      on_error_(std::move(on_error)),
      table_(0) {}  // sized by a Hash option, prepare() or the first go

Engine::~Engine() {
  stop();
  wait();
}

// ---- options ---------------------------------------------------------------------------

bool plays_puct(const EngineOptions& options) {
  // The strength levels below full strength are calibrated on PUCT's node counts, so they play
  // it whatever SearchMode says.
  const bool below_full_strength =
      options.limited_elo() && !search::strength_level(*options.limited_elo()).full_strength();
  return options.params.mode == SearchMode::Puct || below_full_strength;
}

HashSplit split_hash(const EngineOptions& options) {
  const size_t hash = size_t(std::max(1, options.hash_mb));
  if (!plays_puct(options)) return {hash, 0};
  // PUCT keeps every value it uses in its tree; the table only saves the network passes of
  // transpositions (and of nodes the tree had no room for), so an eighth of Hash is enough.
  const size_t table = std::max<size_t>(1, hash / 8);
  return {table, (hash - std::min(hash - 1, table)) << 20};
}

void Engine::configure(const Settings& next) {
  wait();
  // A new Hash is allocated here, so that a failure reaches the option that asked for it;
  // other values leave an unsized table to prepare() or the first go.
  // A new search mode re-splits a table already sized (HashSplit).
  const HashSplit split = split_hash(next.engine);
  if (next.engine.hash_mb != settings_.engine.hash_mb ||
      (table_.megabytes() != 0 && table_.megabytes() != split.table_mb)) {
    table_.resize(split.table_mb);
    puct_tree_.clear();  // a tree grown under the old Hash is released, not kept over it
  }
  puct_tree_.set_capacity(split.tree_bytes);
  // The values with a resource behind them change only through their own calls.
  Settings kept = next;
  kept.eval_file = settings_.eval_file;
  kept.precision = settings_.precision;
  kept.syzygy_path = settings_.syzygy_path;
  settings_ = std::move(kept);
}

void Engine::load_network(const std::string& file, nn::Precision precision) {
  if (!nn::precision_supported(precision))
    throw std::invalid_argument(std::string(nn::unsupported_reason(precision)));
  wait();
  std::shared_ptr<const nn::Network> net;
  try {
    net = file == kEmbeddedNet ? nn::default_network(precision)
                               : nn::Network::load_file(file, precision);
  } catch (const std::exception& e) {
    // The engine plays on with the net it has, or else the embedded one (what the next go
    // would load): the message names it. It is repeated before the next search, since GUIs
    // send their options right after uciok, where a line is easily lost.
    if (!has_network()) {
      try {
        use_network(nn::default_network(settings_.precision), std::string(kEmbeddedNet));
      } catch (const std::exception&) {
      }
    }
    net_failure_ = NetworkLoadError(e.what(), current_net());
    throw *net_failure_;
  }
  use_network(std::move(net), file);
  settings_.eval_file = file;
  settings_.precision = precision;
  net_failure_.reset();  // superseded: the net the user asked for plays
}

void Engine::open_tablebases(const std::string& path) {
  wait();
  if (path == kNoTablebases) {
    tablebases_.reset();
    tables_report_.reset();
    settings_.syzygy_path = path;
    return;
  }
  // Problems found while scanning are reported at once; those found later (a table that turns
  // out corrupt at its first probe) as they come, from the search thread.
  auto live = std::make_shared<std::atomic<bool>>(false);
  auto tables = std::make_shared<const syzygy::Tablebases>(
      path, [sink = on_error_, live](const std::string& message) {
        if (*live && sink) sink(message);
      });
  // A folder with no tables is refused, as on the command line, in one line (the scan's
  // problems, missing folders say, else the count): the tables in use are kept.
  if (tables->table_count() == 0)
    throw std::invalid_argument(tables->errors().empty() ? fmt::format("found 0 tables in {}", path)
                                                         : joined(tables->errors()));
  if (on_error_)
    for (const std::string& message : tables->errors()) on_error_(message);
  tables_report_ = fmt::format("found {} tables ({} WDL, {} DTZ) in {}", tables->table_count(),
                               tables->wdl_count(), tables->dtz_count(), path);
  *live = true;
  tablebases_ = std::move(tables);
  settings_.syzygy_path = path;
}

void Engine::set_tablebases(std::shared_ptr<const syzygy::Tablebases> tables) {
  wait();
  tablebases_ = std::move(tables);
}

void Engine::clear_hash() {
  wait();
  table_.clear();
  puct_tree_.clear();
}

// ---- the network -----------------------------------------------------------------------

void Engine::use_network(std::shared_ptr<const nn::Network> net, const std::string& file) {
  evaluator_name_ = net->description();
  factory_ = [net] { return nn::make_evaluator(net); };
  net_file_ = file;
  net_reported_ = false;
  table_.clear();  // cached network outputs belong to the old net
  puct_tree_.clear();
}

void Engine::ensure_network() {
  if (has_network()) return;
  try {
    use_network(nn::default_network(settings_.precision), std::string(kEmbeddedNet));
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("no network: {} (set EvalFile)", e.what()));
  }
}

std::string Engine::current_net() const {
  if (!has_network()) return "no network";
  if (net_file_ == kEmbeddedNet) return "the embedded net " + evaluator_name_;
  if (net_file_.empty()) return evaluator_name_;
  return fmt::format("{} (from {})", evaluator_name_, net_file_);
}

EngineReports Engine::take_reports(bool name_net) {
  EngineReports reports;
  if (has_network() && (name_net || !net_reported_))
    reports.lines.push_back("net " + evaluator_name_);
  net_reported_ = net_reported_ || has_network();
  if (tables_report_) reports.lines.push_back(*std::exchange(tables_report_, std::nullopt));
  reports.net_failure = std::exchange(net_failure_, std::nullopt);
  return reports;
}

void Engine::prepare() {
  if (searching()) return;  // isready during a search: the search has what it needs
  ensure_network();
  const size_t table_mb = split_hash(settings_.engine).table_mb;
  if (table_.megabytes() != table_mb) {
    try {
      table_.resize(table_mb);
    } catch (const std::runtime_error&) {
      // go plays on with the minimal table: every go must end in a bestmove.
    }
  }
}

// ---- threads -------------------------------------------------------------------------

// ---- the game --------------------------------------------------------------------------

void Engine::new_game() {
  wait();
  table_.clear();
  puct_tree_.clear();
  set_game(Game());
}

void Engine::set_game(Game game) {
  game_ = std::move(game);
  has_position_ = true;
}

std::string Engine::move_values_report() {
  // The network runs on this thread: not beside a search, which owns the evaluators.
  if (searching()) throw std::runtime_error("a search is running (send stop first)");
  ensure_network();
  const TablebaseSettings tables{tablebases_.get(), settings_.engine.syzygy_probe_limit,
                                 settings_.engine.syzygy_50_move_rule};
  const std::unique_ptr<nn::Evaluator> evaluator = factory_();
  return engine::move_values_report(evaluator_name_, game_, *evaluator, tables);
}

// ---- searching -------------------------------------------------------------------------

bool Engine::searching() const {
  std::lock_guard lock(mutex_);
  return running_;
}

void Engine::go(const GoRequest& request, EngineCallbacks callbacks) {
  wait();
  assert(has_position() && has_network() && "go: the caller checks the position and the net");
  prepare();
  // Everything the search reads is set here, before its thread starts, so that a stop
  // arriving at once is never overwritten.
  searched_game_ = game_;
  start_ = std::chrono::steady_clock::now();
  const EngineOptions& options = settings_.engine;
  // PUCT can stop after any playout and the other search only between iterations, so each
  // spends its clock in its own way (time_manager.h).
  const TimeBudget budget = allocate_time(
      request.clock, searched_game_.position().side_to_move(), options.move_overhead_ms,
      plays_puct(options) ? search::kPuctTime : search::kIterativeTime);
  control_.stop = false;
  control_.nodes = 0;
  control_.tbhits = 0;
  control_.node_limit = request.nodes.value_or(UINT64_MAX);
  if (const std::optional<int> elo = options.limited_elo()) {
    const search::StrengthLevel level = strength_level(*elo);
    if (!level.full_strength())
      control_.node_limit = std::min(control_.node_limit, draw_nodes(level.nodes, random_));
  }
  control_.pondering = request.ponder;
  control_.deadline_ns = 0;
  control_.split_work = search::thread_plan(options.threads).searching > 1;
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

namespace {

// The tables' view of the root: every legal move ranked (empty when they do not cover it),
// restricted to `searchmoves` when given.
std::vector<TablebaseMove> tablebase_root(const Position& pos, const syzygy::Tablebases* tables,
                                          const EngineOptions& options,
                                          const std::vector<Move>& searchmoves) {
  if (!tables || !has_legal_move(pos)) return {};
  std::vector<TablebaseMove> ranked = rank_root_moves(
      pos, pos.halfmove_clock(), *tables, options.syzygy_50_move_rule, options.syzygy_probe_limit);
  if (!searchmoves.empty())
    std::erase_if(ranked, [&](const TablebaseMove& t) {
      return std::find(searchmoves.begin(), searchmoves.end(), t.move) == searchmoves.end();
    });
  return ranked;
}

// Reported lines show the tables' values for the root moves they rank, best first.
void rescore_by_tables(IterationReport& report, const std::vector<TablebaseMove>& ranked) {
  if (ranked.empty()) return;
  for (RootLine& line : report.lines) {
    const auto it = std::find_if(ranked.begin(), ranked.end(),
                                 [&](const TablebaseMove& t) { return t.move == line.move; });
    if (it == ranked.end()) continue;
    line.tablebase_wdl = value(it->wdl);
    // rank_root_moves has applied the 50-move rule to the result already.
    line.value = tablebase_value(it->wdl, std::abs(it->dtz.value_or(1)), true);
  }
  std::stable_sort(report.lines.begin(), report.lines.end(),
                   [](const RootLine& a, const RootLine& b) { return a.value > b.value; });
}

// A won tablebase position plays the shortest win to the next zeroing move at once: the
// network cannot be trusted to convert.
IterationReport tablebase_win(const TablebaseMove& best, uint64_t tbhits) {
  IterationReport result;
  result.iterations = result.depth = result.seldepth = 1;
  result.nodes = 1;
  result.tbhits = tbhits;
  result.lines.push_back({best.move, 0.0f, {best.move}, {}});
  return result;
}

}  // namespace

IterationReport Engine::search(SearchMode mode, const GoRequest& request, const TimeBudget& budget,
                               const std::function<void(const IterationReport&)>& report,
                               std::function<void(const SearchProgress&)> progress) {
  Limits limits;
  limits.depth = request.depth;
  limits.iterations = request.iterations;
  limits.mate = request.mate;
  limits.searchmoves = request.searchmoves;
  if (budget.soft && !request.infinite) limits.soft_deadline = start_ + *budget.soft;
  limits.start = start_;

  const EngineOptions& options = settings_.engine;
  search::SearchSetup setup;
  setup.evaluators = factory_;
  setup.table = &table_;
  setup.tree = &puct_tree_;
  setup.control = &control_;
  setup.params = options.params;
  setup.multipv = options.multipv;
  setup.threads = options.threads;
  setup.tablebases = {tablebases_.get(), options.syzygy_probe_limit, options.syzygy_50_move_rule};
  if (const std::optional<int> elo = options.limited_elo()) {
    setup.level_temperature = strength_level(*elo).temperature;
    setup.random = &random_;
  }
  return search::make_searcher(mode, setup)
      ->run(searched_game_, limits, report, std::move(progress));
}

void Engine::run_search(GoRequest request, TimeBudget budget, EngineCallbacks callbacks) {
  const std::vector<TablebaseMove> ranked = tablebase_root(
      searched_game_.position(), tablebases_.get(), settings_.engine, request.searchmoves);
  control_.tbhits = ranked.size();
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_line = start_;  // of an iteration's report or a progress line
  // What the last report said: the best move comes after a report of the final figures.
  std::optional<std::pair<uint64_t, Move>> reported;  // its nodes and first move
  const auto report = [&](const IterationReport& iteration) {
    if (!callbacks.on_info) return;
    reported = {iteration.nodes, iteration.lines.empty() ? Move() : iteration.lines.front().move};
    last_line = Clock::now();
    const double seconds = std::chrono::duration<double>(last_line - start_).count();
    SearchInfo info{iteration, seconds, table_.hashfull()};
    rescore_by_tables(info.report, ranked);
    callbacks.on_info(info);
  };
  Move shown_currmove;
  Clock::time_point last_currmove = start_;
  const auto progress = [&](const SearchProgress& now_at) {
    const Clock::time_point now = Clock::now();
    // At most one currmove line a second: PUCT changes its root move nearly every playout.
    const bool currmove = now - start_ >= kCurrmoveAfter && now_at.currmove != shown_currmove &&
                          now - last_currmove >= kProgressEvery;
    if (!currmove && now - last_line < kProgressEvery) return;
    last_line = now;
    if (currmove) {
      shown_currmove = now_at.currmove;
      last_currmove = now;
    }
    callbacks.on_progress(
        {now_at, currmove, std::chrono::duration<double>(now - start_).count(), table_.hashfull()});
  };

  // The tables decide the root: only the moves that keep the best result are searched.
  const std::vector<TablebaseMove> best = best_group(ranked);
  IterationReport result;
  if (!best.empty() && best.front().wdl == syzygy::Wdl::Win && best.front().dtz) {
    result = tablebase_win(best.front(), control_.tbhits.load());
    report(result);
  } else if (has_legal_move(searched_game_.position())) {
    if (!best.empty()) {
      request.searchmoves.clear();
      for (const TablebaseMove& t : best) request.searchmoves.push_back(t.move);
    }
    // The one place a search is chosen. A level of one node plays the net's first look, as
    // argmax mode does; the other levels below full strength play PUCT (plays_puct).
    const EngineOptions& options = settings_.engine;
    const bool first_look = options.limited_elo() && control_.node_limit <= 1;
    const SearchMode mode = options.params.mode == SearchMode::Argmax || first_look
                                ? SearchMode::Argmax
                            : plays_puct(options) ? SearchMode::Puct
                                                  : SearchMode::Probability;
    result =
        search(mode, request, budget, report,
               callbacks.on_progress ? progress : std::function<void(const SearchProgress&)>());
    // The best move follows a report of the search's final figures: the nodes of an iteration
    // that a limit cut short (and the time it stopped). A report that says it all already is
    // not repeated.
    if (!result.lines.empty() && reported != std::pair{result.nodes, result.lines.front().move})
      report(result);
  }
  report_best_move(result, callbacks);
}

Move Engine::expected_reply(Move best) {
  if (best.is_none() || !factory_) return Move();
  Game after = searched_game_;
  after.play(best);
  const MoveList replies = legal_moves(after.position());
  if (replies.size() == 0) return Move();
  const auto hit = table_.probe_result(after.position().key());
  if (hit && !hit->best.is_none() && replies.contains(hit->best)) return hit->best;
  // One network pass, as in argmax mode: a GUI that ponders needs some move to think on.
  const auto evaluator = factory_();
  return score_moves(after, *evaluator).front().move;
}

void Engine::report_best_move(const IterationReport& result, const EngineCallbacks& callbacks) {
  // In infinite or ponder mode the best move waits for stop or ponderhit.
  {
    std::unique_lock lock(mutex_);
    released_.wait(lock, [&] { return !hold_; });
  }
  Move best, ponder;
  if (!result.lines.empty()) {
    best = result.lines.front().move;
    const std::vector<Move>& pv = result.lines.front().pv;
    if (pv.size() > 1)
      ponder = pv[1];
    else if (callbacks.on_bestmove)
      ponder = expected_reply(best);
  }
  {
    std::lock_guard lock(mutex_);
    running_ = false;
  }
  if (callbacks.on_root_moves) callbacks.on_root_moves(result);
  if (callbacks.on_bestmove) callbacks.on_bestmove(best, ponder);
}

}  // namespace avocet::engine
