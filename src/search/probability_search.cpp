#include "avocet/search/probability_search.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

#include "avocet/chess/exchange.h"
#include "avocet/chess/movegen.h"
#include "avocet/search/rules.h"
#include "avocet/search/value.h"
#include "avocet/syzygy/tablebase.h"

namespace avocet::search {

double soft_time_factor(bool best_move_changed, float value_drop, int iterations_unchanged,
                        float margin) {
  if (best_move_changed) return 1.8;
  if (value_drop >= 0.04f) return 1.4;
  if (iterations_unchanged >= 3 && margin >= 0.1f) return 0.6;
  return 1.0;
}

ProbabilitySearcher::ProbabilitySearcher(nn::Evaluator& evaluator, TranspositionTable& table,
                                         const SearchParameters& params, SearchControl& control,
                                         int multipv, TablebaseSettings tablebases)
    : evaluator_(evaluator),
      table_(table),
      params_(params),
      control_(control),
      multipv_(std::max(1, multipv)),
      tablebases_(tablebases) {}

std::optional<float> ProbabilitySearcher::rule_value(const Position& pos, int ply,
                                                     const MoveList& moves) const {
  // keys_ ends with the parent.
  return search::rule_value(pos, ply, moves, keys_, root_index_ + 1);
}

std::optional<float> ProbabilitySearcher::tablebase_value(const Position& pos, int ply) const {
  return ending_value(pos, ply, tablebases_, control_.tbhits);
}

void ProbabilitySearcher::network_values(const Position& pos, const MoveList& moves,
                                         std::span<float> values) {
  search::network_values(evaluator_, table_, pos, moves, values);
}

float ProbabilitySearcher::leaf_value(const Position& pos, Move move, const Position& child,
                                      double probability, float q, float alpha, float beta, int ply,
                                      int extensions_left) {
  // Forcing: a check, or a capture or promotion that SEE says wins material. The expanded child
  // has probability theta, so an only move out of a check is searched in turn (theta * 1);
  // when there are several evasions, the checked side's own values judge them.
  if (extensions_left > 0 && probability * params_.forcing_reach >= theta_ &&
      (gives_check(pos, move) || see(pos, move) > 0))
    return 1.0f - search(child, theta_, 1.0f - beta, 1.0f - alpha, ply + 1, extensions_left - 1);
  const auto rule = rule_value(child, ply + 1, legal_moves(child));
  const auto known = rule ? rule : tablebase_value(child, ply + 1);
  return known ? 1.0f - *known : q;
}

std::optional<float> ProbabilitySearcher::table_cutoff(uint64_t key, float budget, float alpha,
                                                       float beta, int ply,
                                                       Move& table_move) const {
  const auto hit = table_.probe_result(key);
  if (!hit) return std::nullopt;
  table_move = hit->best;
  const float v = value_from_table(hit->value, ply);
  if (hit->budget >= budget &&
      (hit->bound == Bound::Exact || (hit->bound == Bound::Lower && v >= beta) ||
       (hit->bound == Bound::Upper && v <= alpha)))
    return v;
  return std::nullopt;
}

float ProbabilitySearcher::search(const Position& pos, double probability, float alpha, float beta,
                                  int ply, int extensions_left) {
  // The window may arrive empty (alpha == beta): 1 - x in float maps two values an ulp apart to
  // one, so a parent's window one ulp wide flips into none. That is a null-window search,
  // whose result is a bound the table stores as such: at least beta, or at most alpha.
  assert(0.0f <= alpha && alpha <= beta && beta <= 1.0f && "search: a window inside [0, 1]");
  assert(probability > 0.0 && probability <= 1.0 && "search: a node's probability in (0, 1]");
  // A node is counted once it is expanded, so that `go nodes N` never reports more than N.
  if (control_.should_stop()) {
    stopped_ = true;
    return 0.5f;
  }
  progress_.nodes = control_.nodes.fetch_add(1, std::memory_order_relaxed) + 1;
  seldepth_ = std::max(seldepth_, ply);
  if (on_progress_) on_progress_(progress_);
  const MoveList moves = legal_moves(pos);
  if (const auto rule = rule_value(pos, ply, moves)) return *rule;
  if (const auto tablebase = tablebase_value(pos, ply)) return *tablebase;

  const uint64_t key = pos.key();
  const float budget = float(probability / theta_);
  Move table_move;
  if (const auto v = table_cutoff(key, budget, alpha, beta, ply, table_move)) return *v;

  // Only the other threads read the mark, so one thread takes none.
  const BusyPositions::Mark busy_mark =
      control_.split_work ? control_.busy.mark(key) : BusyPositions::Mark();
  std::array<float, MoveList::kCapacity> q, pi;
  network_values(pos, moves, {q.data(), moves.size()});
  // pi comes from the net's own values; the damping only changes what a move is worth.
  move_probabilities({q.data(), moves.size()}, params_.policy_temperature,
                     {pi.data(), moves.size()});
  for (size_t i = 0; i < moves.size(); ++i) q[i] = damped_value(pos, moves[i], q[i]);
  std::array<int, MoveList::kCapacity> order;
  std::iota(order.begin(), order.begin() + moves.size(), 0);
  std::stable_sort(order.begin(), order.begin() + moves.size(), [&](int a, int b) {
    if ((moves[a] == table_move) != (moves[b] == table_move)) return moves[a] == table_move;
    return q[a] > q[b];
  });

  const float original_alpha = alpha;
  float best = -1.0f;
  Move best_move;
  // Children that another thread is expanding are searched last, when the table has most of
  // their subtree (see BusyPositions).
  std::array<int, MoveList::kCapacity> deferred;
  size_t deferred_count = 0;
  keys_.push_back(key);
  for (size_t k = 0; k < moves.size() + deferred_count; ++k) {
    const bool second_pass = k >= moves.size();
    const int i = second_pass ? deferred[k - moves.size()] : order[k];
    Position child = pos;
    child.play(moves[i]);
    const double child_probability = probability * pi[i];
    const bool expand = child_probability >= theta_;
    if (expand && !second_pass && control_.split_work && control_.busy.busy(child.key())) {
      deferred[deferred_count++] = i;
      continue;
    }
    const float value = expand ? 1.0f - search(child, child_probability, 1.0f - beta, 1.0f - alpha,
                                               ply + 1, extensions_left)
                               : leaf_value(pos, moves[i], child, child_probability, q[i], alpha,
                                            beta, ply, extensions_left);
    if (stopped_) break;
    if (value > best) {
      best = value;
      best_move = moves[i];
      alpha = std::max(alpha, value);
      // Not alpha >= beta: in a window of width zero (alpha == beta) that holds from the
      // first move on, and every move below beta must still be searched.
      if (value >= beta) break;
    }
  }
  keys_.pop_back();
  if (!stopped_) {
    const Bound bound = best >= beta             ? Bound::Lower
                        : best <= original_alpha ? Bound::Upper
                                                 : Bound::Exact;
    table_.store_result(key, {value_to_table(best, ply), budget, bound, best_move});
  }
  return best;
}

size_t ProbabilitySearcher::search_root(const Position& pos, std::vector<RootLine>& lines) {
  // The root is expanded every iteration: it counts as a node, as every expansion does.
  control_.nodes.fetch_add(1, std::memory_order_relaxed);
  const MoveList all = legal_moves(pos);
  std::array<float, MoveList::kCapacity> q_all;
  network_values(pos, all, {q_all.data(), all.size()});
  // Root moves keep the previous iteration's order (best first).
  std::vector<float> q(lines.size()), pi(lines.size());
  for (size_t i = 0; i < lines.size(); ++i)
    q[i] = q_all[std::find(all.begin(), all.end(), lines[i].move) - all.begin()];
  move_probabilities(q, params_.policy_temperature, pi);
  for (size_t i = 0; i < lines.size(); ++i) q[i] = damped_value(pos, lines[i].move, q[i]);

  std::vector<float> values;
  keys_.push_back(pos.key());
  for (size_t i = 0; i < lines.size(); ++i) {
    Position child = pos;
    child.play(lines[i].move);
    progress_.currmove = lines[i].move;
    progress_.currmovenumber = int(i) + 1;
    float alpha = 0.0f;
    if (values.size() >= size_t(multipv_)) {
      std::vector<float> sorted = values;
      std::nth_element(sorted.begin(), sorted.begin() + multipv_ - 1, sorted.end(),
                       std::greater<>());
      alpha = sorted[multipv_ - 1];
    }
    const int extensions = params_.forcing_extensions;
    const float value =
        pi[i] >= theta_
            ? 1.0f - search(child, pi[i], 0.0f, 1.0f - alpha, 1, extensions)
            : leaf_value(pos, lines[i].move, child, pi[i], q[i], alpha, 1.0f, 0, extensions);
    if (stopped_) break;
    lines[i].value = value;
    values.push_back(value);
  }
  keys_.pop_back();
  std::stable_sort(lines.begin(), lines.begin() + long(values.size()),
                   [](const RootLine& a, const RootLine& b) { return a.value > b.value; });
  return values.size();
}

std::vector<Move> ProbabilitySearcher::principal_variation(const Position& root, Move first) const {
  // The line ends with the move after which the search's rule scores a repetition as a draw
  // (see is_repetition_draw): GUIs reject moves after a threefold repetition, and the line
  // would only go round again.
  std::vector<uint64_t> seen = keys_;
  seen.push_back(root.key());
  std::vector<Move> pv;
  Position pos = root;
  for (Move next = first; pv.size() < 32;) {
    pos.play(next);
    pv.push_back(next);
    if (is_repetition_draw(seen, root_index_ + 1, pos.key(), pos.halfmove_clock()) ||
        pos.halfmove_clock() >= 100)
      break;
    seen.push_back(pos.key());
    const auto hit = table_.probe_result(pos.key());
    if (!hit || hit->best.is_none() || !legal_moves(pos).contains(hit->best)) break;
    next = hit->best;
  }
  return pv;
}

std::vector<RootLine> ProbabilitySearcher::root_lines(const Position& root,
                                                      const std::vector<Move>& searchmoves) {
  std::vector<RootLine> lines;
  const MoveList all = legal_moves(root);
  for (Move m : all)
    if (searchmoves.empty() ||
        std::find(searchmoves.begin(), searchmoves.end(), m) != searchmoves.end())
      lines.push_back({m, 0.0f, {m}, {}});
  if (lines.empty()) return lines;
  std::array<float, MoveList::kCapacity> q;
  network_values(root, all, {q.data(), all.size()});
  std::vector<float> values(lines.size()), priors(lines.size());
  for (size_t i = 0; i < lines.size(); ++i)
    values[i] = q[size_t(std::find(all.begin(), all.end(), lines[i].move) - all.begin())];
  move_probabilities(values, params_.policy_temperature, priors);
  for (size_t i = 0; i < lines.size(); ++i) {
    lines[i].value = lines[i].net_value = values[i];
    lines[i].prior = priors[i];
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const RootLine& a, const RootLine& b) { return a.value > b.value; });
  return lines;
}

IterationReport ProbabilitySearcher::report_of(const Position& root,
                                               const std::vector<RootLine>& lines,
                                               int iterations) const {
  IterationReport report;
  report.iterations = iterations;
  report.nodes = control_.nodes.load();
  report.tbhits = control_.tbhits.load();
  report.lines = lines;
  for (RootLine& line : report.lines) line.pv = principal_variation(root, line.move);
  report.depth = std::max(1, depth_);
  // seldepth_ is the ply of the deepest expanded node; the move below it was valued by the
  // network, one ply further.
  report.seldepth = seldepth_ + 1;
  for (const RootLine& line : report.lines)
    report.seldepth = std::max(report.seldepth, int(line.pv.size()));
  return report;
}

int nominal_depth(double theta) {
  assert(theta > 0.0 && "nominal_depth: theta in (0, 1]");
  // The epsilon keeps an exact power of two on its own side of the floor.
  return std::max(1, int(std::floor(-std::log2(theta) + 1e-9)));
}

bool ProbabilitySearcher::enough_iterations(const StopRule& rule, int iterations,
                                            const std::vector<RootLine>& lines,
                                            bool best_move_changed, float value_drop,
                                            int iterations_unchanged) const {
  SearchState state;
  state.iterations = iterations;
  state.depth = depth_;
  state.best_value = lines.front().value;
  const float margin = lines.size() > 1 ? lines[0].value - lines[1].value : 1.0f;
  state.time_factor =
      soft_time_factor(iterations > 1 && best_move_changed, iterations > 1 ? value_drop : 0.0f,
                       iterations_unchanged, margin);
  return rule.done(state);
}

IterationReport ProbabilitySearcher::run(
    const Game& game, const Limits& limits,
    const std::function<void(const IterationReport&)>& on_iteration,
    std::function<void(const SearchProgress&)> on_progress) {
  on_progress_ = std::move(on_progress);
  const Position& root = game.position();
  keys_ = game.recent_keys();
  root_index_ = keys_.size();
  std::vector<RootLine> lines = root_lines(root, limits.searchmoves);
  depth_ = 0;
  IterationReport report;
  if (lines.empty()) return report;
  report.lines = lines;

  // The first iteration expands at least the most likely root move.
  {
    std::vector<float> q(lines.size()), pi(lines.size());
    for (size_t i = 0; i < lines.size(); ++i) q[i] = lines[i].value;
    move_probabilities(q, params_.policy_temperature, pi);
    theta_ = std::min(params_.initial_threshold, double(*std::max_element(pi.begin(), pi.end())));
  }
  const StopRule rule(limits, control_, std::chrono::steady_clock::now());
  int iterations_unchanged = 0;
  // Iterations go on until a limit says stop; below kSmallestThreshold no line of a real
  // search is cut any more, so a position the search has solved stops there (after about
  // 64 iterations at the default factor) instead of repeating the same tree.
  for (int depth = 1; theta_ >= kSmallestThreshold; ++depth, theta_ *= params_.threshold_factor) {
    seldepth_ = 0;
    std::vector<RootLine> current = lines;
    const size_t completed = search_root(root, current);
    if (stopped_) {
      // Keep the last complete iteration, unless this one already showed its best move to be
      // worse than another fully searched move: the previous best is searched first, so when
      // two lines completed and the best of them is another move, that move beat it.
      if (completed >= 2 && current.front().move != lines.front().move) {
        report = report_of(root, current, report.iterations);
        if (on_iteration && report.iterations > 0) on_iteration(report);  // 0: the caller's
      }
      // The nodes of the cut iteration were searched too (`go nodes 1` reports 1, not 0).
      report.nodes = control_.nodes.load();
      report.tbhits = control_.tbhits.load();
      break;
    }
    const bool best_move_changed = current.front().move != lines.front().move;
    const float value_drop = lines.front().value - current.front().value;
    iterations_unchanged = best_move_changed ? 0 : iterations_unchanged + 1;
    depth_ = std::max(depth_, nominal_depth(theta_));
    lines = std::move(current);
    report = report_of(root, lines, depth);
    if (on_iteration) on_iteration(report);
    if (enough_iterations(rule, depth, lines, best_move_changed, value_drop, iterations_unchanged))
      break;
  }
  return report;
}

}  // namespace avocet::search
