#include "avocet/search/puct.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <thread>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "avocet/chess/movegen.h"
#include "avocet/search/lone_king_mates.h"
#include "avocet/search/rules.h"
#include "avocet/search/value.h"

namespace avocet::search {

namespace {

constexpr float kUnknown = std::numeric_limits<float>::quiet_NaN();

// A value for the side to move at a node, seen from its parent: the other side's, and an exact
// result one ply further away (a mate in p plies from the child is a mate in p + 1 from the
// parent). Draws and estimates only change sides.
float seen_from_parent(float value) {
  return is_mate_value(value) ? value_from_table(1.0f - value, 1) : 1.0f - value;
}

bool is_proven_win(float value) { return value > 0.5f && is_mate_value(value); }
bool is_proven_loss(float value) { return value < 0.5f && is_mate_value(value); }

// The iteration whose reports come first: 8 playouts.
constexpr uint64_t kFirstIterationPlayouts = 8;

}  // namespace

// ---- the tree

namespace {

// Gives the pages of the tree's freed arrays back to the system. glibc keeps a freed block
// under its mmap threshold (which rises to 32 MB once a larger block is freed) resident in
// its heap: the arrays' old copies, left behind each time they double, held 4 MiB over Hash at
// Hash 256 through a 10-minute `go infinite` (tools/measure/memory_run.py).
void return_freed_memory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace

void PuctTree::clear() {
  // Released, not only emptied: after a long analysis the tree can hold all of Hash, and
  // ucinewgame, Clear Hash and a smaller Hash give that memory back.
  std::vector<Node>().swap(nodes_);
  std::vector<Edge>().swap(edges_);
  return_freed_memory();
  root_moves_.clear();
  root_key_ = 0;
  searchmoves_.clear();
}

void PuctTree::set_capacity(size_t bytes) {
  capacity_bytes_ = std::max(bytes, sizeof(Node) + MoveList::kCapacity * sizeof(Edge));
}

namespace {

// Grows `v` (by doubling, as far as `bytes` allows) to hold `extra` more elements; false
// if `bytes` cannot hold them.
template <typename T>
bool grow_within(std::vector<T>& v, size_t extra, size_t bytes) {
  const size_t needed = v.size() + extra;
  if (needed <= v.capacity()) return true;
  if (needed * sizeof(T) > bytes) return false;
  v.reserve(std::min(std::max(needed, 2 * v.capacity()), bytes / sizeof(T)));
  return_freed_memory();  // the old copy, just freed
  return true;
}

}  // namespace

bool PuctTree::make_room(size_t edges, size_t nodes) {
  const size_t node_bytes = nodes_.capacity() * sizeof(Node);
  const size_t edge_bytes = edges_.capacity() * sizeof(Edge);
  if (node_bytes + edge_bytes > capacity_bytes_) return false;
  // Each array may grow into what the other leaves free.
  return grow_within(nodes_, nodes, capacity_bytes_ - edge_bytes) &&
         grow_within(edges_, edges, capacity_bytes_ - nodes_.capacity() * sizeof(Node));
}

float PuctTree::proven_edge_value(const Edge& edge) const {
  if (edge.child == 0) return kUnknown;
  const float exact = nodes_[edge.child].exact;
  return std::isnan(exact) ? kUnknown : seen_from_parent(exact);
}

void PuctTree::update_proof(Node& node) {
  if (node.terminal) return;
  float best = -1.0f;
  bool all_proven = true;
  for (uint32_t i = 0; i < node.edge_count; ++i) {
    const float value = proven_edge_value(edges_[node.first_edge + i]);
    if (std::isnan(value)) {
      all_proven = false;
      continue;
    }
    best = std::max(best, value);
  }
  // A win needs one winning move; anything else needs every move proven.
  node.exact = is_proven_win(best) || (all_proven && node.edge_count > 0) ? best : kUnknown;
}

void PuctTree::keep_subtree(uint32_t index) {
  // Counted first, so that the new arrays are allocated once at the size they need (and never
  // beyond the capacity the old ones kept to).
  size_t kept_edges = 0, kept_nodes = 0;
  for (std::vector<uint32_t> todo{index}; !todo.empty();) {
    const Node& node = nodes_[todo.back()];
    todo.pop_back();
    ++kept_nodes;
    kept_edges += node.edge_count;
    for (uint32_t i = 0; i < node.edge_count; ++i) {
      const uint32_t child = edges_[node.first_edge + i].child;
      if (child != 0) todo.push_back(child);
    }
  }
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  nodes.reserve(kept_nodes);
  edges.reserve(kept_edges);
  // Breadth first: a node comes before its children, so the proofs can be recomputed
  // children first by walking the new nodes backwards.
  std::vector<uint32_t> order{index};
  for (size_t next = 0; next < order.size(); ++next) {
    Node node = nodes_[order[next]];
    const uint32_t first = node.first_edge;
    node.first_edge = uint32_t(edges.size());
    for (uint32_t i = 0; i < node.edge_count; ++i) {
      Edge edge = edges_[first + i];
      if (edge.child != 0) {
        const Node& child = nodes_[edge.child];
        if (child.terminal && child.by_repetition) {
          edge.child = 0;  // expanded again when next chosen, under the new path's rule
        } else {
          order.push_back(edge.child);
          edge.child = uint32_t(order.size() - 1);
        }
      }
      edges.push_back(edge);
    }
    nodes.push_back(node);
  }
  nodes_ = std::move(nodes);
  edges_ = std::move(edges);
  return_freed_memory();  // the old arrays, freed by the moves
  for (size_t i = nodes_.size(); i-- > 0;) update_proof(nodes_[i]);
}

// ---- the search

PuctSearcher::PuctSearcher(nn::Evaluator& evaluator, TranspositionTable& table, PuctTree& tree,
                           const SearchParameters& params, SearchControl& control, int multipv,
                           TablebaseSettings tablebases)
    : table_(table),
      tree_(tree),
      params_(params),
      control_(control),
      multipv_(std::max(1, multipv)),
      tablebases_(tablebases) {
  workers_.push_back({&evaluator, {}, {}});
}

void PuctSearcher::add_helper(nn::Evaluator& evaluator) {
  workers_.push_back({&evaluator, {}, {}});
}

uint64_t PuctSearcher::playouts_for_iterations(int iterations) {
  assert(iterations >= 1 && iterations < 58);
  return kFirstIterationPlayouts << (iterations - 1);
}

int PuctSearcher::iterations_of(uint64_t playouts) {
  int iterations = 0;
  while (iterations < 57 && playouts >= playouts_for_iterations(iterations + 1)) ++iterations;
  return iterations;
}

PuctSearcher::Leaf PuctSearcher::evaluate_leaf(Worker& worker, const Position& pos) {
  Leaf leaf;
  leaf.moves = legal_moves(pos);
  // keys ends with the parent. Values are relative to the node (ply 0).
  leaf.exact = rule_value(pos, 0, leaf.moves, worker.keys, root_index_ + 1);
  leaf.by_repetition = leaf.exact && !leaf.moves.empty() && pos.halfmove_clock() < 100 &&
                       !is_insufficient_material(pos);
  if (!leaf.exact) leaf.exact = ending_value(pos, 0, tablebases_, control_.tbhits);
  if (!leaf.exact) network_leaf(worker, pos, leaf);
  return leaf;
}

void PuctSearcher::network_leaf(Worker& worker, const Position& pos, Leaf& leaf) {
  network_values(*worker.evaluator, table_, pos, leaf.moves,
                 {leaf.values.data(), leaf.moves.size()});
  // As the table keeps them, whether they came from it or from the net: a node expanded from
  // the cache then gets the values a fresh one gets, and a kept tree matches a fresh search.
  for (size_t i = 0; i < leaf.moves.size(); ++i)
    leaf.values[i] = TranspositionTable::as_stored(leaf.values[i]);
}

float PuctSearcher::leaf_value(const Position& pos, const Leaf& leaf) {
  if (leaf.exact) return *leaf.exact;
  float best = 0.0f;
  for (size_t i = 0; i < leaf.moves.size(); ++i)
    best = std::max(best, damped_value(pos, leaf.moves[i], leaf.values[i]));
  return best;
}

float PuctSearcher::add_edges(Node& node, const Position& pos, const Leaf& leaf,
                              const std::vector<Move>& only) {
  std::array<float, MoveList::kCapacity> kept_values;
  std::array<Move, MoveList::kCapacity> kept;
  size_t count = 0;
  for (size_t i = 0; i < leaf.moves.size(); ++i) {
    if (!only.empty() && std::find(only.begin(), only.end(), leaf.moves[i]) == only.end()) continue;
    kept[count] = leaf.moves[i];
    kept_values[count++] = leaf.values[i];
  }
  std::array<float, MoveList::kCapacity> priors;
  move_probabilities({kept_values.data(), count}, params_.prior_temperature,
                     {priors.data(), count});
  node.first_edge = uint32_t(tree_.edges_.size());
  node.edge_count = uint32_t(count);
  float best = 0.0f;
  for (size_t i = 0; i < count; ++i) {
    Edge edge;
    edge.move = kept[i];
    edge.prior = priors[i];
    edge.raw_net_value = uint16_t(std::lround(kept_values[i] * 65535.0f));
    edge.net_value = damped_value(pos, kept[i], kept_values[i]);
    best = std::max(best, edge.net_value);
    tree_.edges_.push_back(edge);
  }
  return best;
}

std::optional<float> PuctSearcher::commit_leaf(uint32_t index, const Position& pos,
                                               const Leaf& leaf) {
  Node node;
  node.visits = 1;
  if (leaf.exact) {
    node.exact = *leaf.exact;
    node.terminal = true;
    node.by_repetition = leaf.by_repetition;
    tree_.nodes_[index] = node;
    return *leaf.exact;
  }
  // Another thread's expansion may have taken the room this one's descent made.
  if (!tree_.make_room(leaf.moves.size(), 0)) return std::nullopt;
  const float value = add_edges(node, pos, leaf, {});
  tree_.nodes_[index] = node;
  return value;
}

float PuctSearcher::edge_value(const Edge& edge) const {
  const float proven = tree_.proven_edge_value(edge);
  if (!std::isnan(proven)) return proven;
  if (edge.visits == 0) return edge.net_value;
  const double mean = edge.value_sum / edge.visits;
  return float((1.0 - params_.minimax_blend) * mean + params_.minimax_blend * edge.minimax);
}

float PuctSearcher::best_edge_value(const Node& node) const {
  if (!std::isnan(node.exact)) return node.exact;
  float best = 0.0f;
  for (uint32_t i = 0; i < node.edge_count; ++i)
    best = std::max(best, edge_value(tree_.edges_[node.first_edge + i]));
  return best;
}

size_t PuctSearcher::select(const Node& node) const {
  const double visits = node.visits;
  const double c = params_.cpuct + params_.cpuct_factor *
                                       std::log((visits + params_.cpuct_base) / params_.cpuct_base);
  const double scale = c * std::sqrt(visits);
  size_t best = 0;
  double best_score = -1e300;
  for (uint32_t i = 0; i < node.edge_count; ++i) {
    const Edge& edge = tree_.edges_[node.first_edge + i];
    const double score = edge_value(edge) + scale * edge.prior / (1.0 + edge.visits);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

PuctSearcher::Descent PuctSearcher::descend(Worker& worker, const Position& root) {
  Descent descent;
  descent.pos = root;
  worker.keys.resize(root_index_);
  worker.keys.push_back(root.key());
  worker.path.clear();
  uint32_t index = 0;
  for (;;) {
    Node& node = tree_.nodes_[index];
    if (!std::isnan(node.exact)) {  // the rules', the tables' or a proof: nothing to expand
      descent.kind = Descent::Exact;
      descent.value = node.exact;
      ++node.visits;
      return descent;
    }
    const uint32_t e = node.first_edge + uint32_t(select(node));
    // The visit counts now, its value at the backup: until then the move counts as a visit
    // worth 0 for the side choosing it (a virtual loss), so that other threads choose
    // elsewhere. A node's counts are read only when choosing at it, so one thread alone
    // chooses exactly as if each visit were counted at its backup.
    ++node.visits;
    Edge& edge = tree_.edges_[e];
    ++edge.visits;
    if (&worker == &workers_.front() && worker.path.empty()) {
      progress_.currmove = edge.move;
      progress_.currmovenumber = int(e - node.first_edge) + 1;
    }
    worker.path.push_back({index, e});
    descent.pos.play(edge.move);
    const uint32_t child = edge.child;
    if (child == 0) {
      if (!tree_.make_room(MoveList::kCapacity)) {
        descent.kind = Descent::Outside;
        tree_full_ = true;
        return descent;
      }
      descent.kind = Descent::Expand;
      descent.index = uint32_t(tree_.nodes_.size());
      tree_.nodes_.emplace_back().pending = true;  // `node` and `edge` are not used beyond here
      tree_.edges_[e].child = descent.index;
      return descent;
    }
    if (tree_.nodes_[child].pending) {  // another thread is expanding it
      descent.kind = Descent::Collision;
      return descent;
    }
    index = child;
    worker.keys.push_back(descent.pos.key());
  }
}

void PuctSearcher::back_up(const Worker& worker, float value) {
  // The leaf's value for its side to move, and the best of its moves' (the same for a new
  // node; for a known result, its exact value).
  seldepth_ = std::max(seldepth_, int(worker.path.size()));
  float minimax = value;
  for (size_t i = worker.path.size(); i-- > 0;) {
    value = 1.0f - value;  // now for the side to move at path[i].node
    Edge& edge = tree_.edges_[worker.path[i].edge];
    edge.value_sum += value;
    edge.minimax = 1.0f - minimax;
    Node& node = tree_.nodes_[worker.path[i].node];
    tree_.update_proof(node);
    minimax = best_edge_value(node);
  }
}

void PuctSearcher::take_back(const Worker& worker) {
  for (const Step& step : worker.path) {
    --tree_.edges_[step.edge].visits;
    --tree_.nodes_[step.node].visits;
  }
}

bool PuctSearcher::playout(Worker& worker, const Position& root) {
  std::unique_lock lock(tree_mutex_);
  const Descent descent = descend(worker, root);
  if (descent.kind == Descent::Exact) {
    back_up(worker, descent.value);
    return true;
  }
  if (descent.kind == Descent::Collision) {
    take_back(worker);
    return false;
  }
  // The network's pass, the rules and the tables, outside the lock: the other threads descend
  // meanwhile. (Indices into the tree stay valid while its arrays grow; references do not.)
  lock.unlock();
  const Leaf leaf = evaluate_leaf(worker, descent.pos);
  lock.lock();
  std::optional<float> value;
  if (descent.kind == Descent::Expand) {
    value = commit_leaf(descent.index, descent.pos, leaf);
    if (!value) {  // no room after all: the placeholder stays unreachable, the value is used
      tree_.edges_[worker.path.back().edge].child = 0;
      tree_full_ = true;
    }
  }
  back_up(worker, value ? *value : leaf_value(descent.pos, leaf));
  return true;
}

bool PuctSearcher::prepare_root(const Game& game, const std::vector<Move>& given_searchmoves) {
  const Position& root = game.position();
  // A lone king's mate is known (lone_king_mates.h): the mating side's root keeps its shortest
  // mates alone, since the solver proves a root by its first winning move, which need not be
  // the shortest. (The lone king's root is searched whole: a repetition may draw.)
  const std::optional<int> mate = lone_king_mate_plies(root);
  const std::vector<Move> best_mates = given_searchmoves.empty() && mate && *mate > 0
                                           ? lone_king_best_moves(root)
                                           : std::vector<Move>{};
  const std::vector<Move>& searchmoves = best_mates.empty() ? given_searchmoves : best_mates;
  const std::vector<Move>& moves = game.moves();
  const std::vector<Move>& old = tree_.root_moves_;
  bool reused = false;
  if (!tree_.nodes_.empty() && searchmoves.empty() && tree_.searchmoves_.empty() &&
      moves.size() >= old.size() && std::equal(old.begin(), old.end(), moves.begin())) {
    Game back = game;
    for (size_t i = old.size(); i < moves.size(); ++i) back.undo();
    uint32_t index = 0;
    bool found = back.position().key() == tree_.root_key_;
    for (size_t i = old.size(); found && i < moves.size(); ++i) {
      const Node& node = tree_.nodes_[index];
      found = false;
      for (uint32_t k = 0; k < node.edge_count; ++k) {
        const Edge& edge = tree_.edges_[node.first_edge + k];
        if (edge.move == moves[i] && edge.child != 0) {
          index = edge.child;
          found = true;
          break;
        }
      }
    }
    if (found && !tree_.nodes_[index].terminal && tree_.nodes_[index].edge_count > 0) {
      tree_.keep_subtree(index);
      reused = true;
    }
  }
  tree_.root_moves_ = moves;
  tree_.root_key_ = root.key();
  tree_.searchmoves_ = searchmoves;
  if (reused) {
    score_root_moves_by_rules(root);
    return true;
  }

  tree_.nodes_.clear();
  tree_.edges_.clear();
  // The root is expanded whatever the rules say of it (the game goes on from it), with its
  // moves restricted to `searchmoves`. Its pass counts as a node, as every expansion does.
  Node node;
  node.visits = 1;
  Leaf leaf;
  leaf.moves = legal_moves(root);
  network_leaf(workers_.front(), root, leaf);
  control_.nodes.fetch_add(1, std::memory_order_relaxed);
  tree_.make_room(leaf.moves.size());  // set_capacity leaves room for a root at least
  add_edges(node, root, leaf, searchmoves);
  tree_.nodes_.push_back(node);
  score_root_moves_by_rules(root);
  return node.edge_count > 0;
}

void PuctSearcher::score_root_moves_by_rules(const Position& root) {
  // Until a playout reaches such a move its value is the net's, which knows no history: at
  // one node (`go nodes 1`, fastchess's net comparisons) the search chose by it, and in 400
  // one-node games 74 of 235 threefolds were made by a side reporting at least +1.5, while
  // a side a queen down missed the draw it could claim.
  std::vector<uint64_t>& keys = workers_.front().keys;
  keys.resize(root_index_);
  keys.push_back(root.key());  // as in a descent: the keys end with the child's parent
  const Node& node = tree_.nodes_[0];
  for (uint32_t i = 0; i < node.edge_count; ++i) {
    Edge& edge = tree_.edges_[node.first_edge + i];
    if (edge.child != 0) continue;  // expanded: its value is the playouts'
    Position child = root;
    child.play(edge.move);
    if (const std::optional<float> exact =
            rule_value(child, 0, legal_moves(child), keys, root_index_ + 1))
      edge.net_value = seen_from_parent(*exact);
  }
}

bool PuctSearcher::better_root_edge(const Edge& a, const Edge& b) const {
  const float pa = tree_.proven_edge_value(a), pb = tree_.proven_edge_value(b);
  const bool win_a = is_proven_win(pa), win_b = is_proven_win(pb);
  if (win_a || win_b) return win_a && win_b ? pa > pb : win_a;
  const bool loss_a = is_proven_loss(pa), loss_b = is_proven_loss(pb);
  if (loss_a || loss_b) return loss_a && loss_b ? pa > pb : loss_b;
  if (a.visits != b.visits) return a.visits > b.visits;
  return edge_value(a) > edge_value(b);
}

std::vector<Move> PuctSearcher::principal_variation(uint32_t child, Move first) const {
  std::vector<Move> pv{first};
  for (uint32_t index = child; index != 0 && pv.size() < 32;) {
    const Node& node = tree_.nodes_[index];
    if (node.edge_count == 0) break;
    const Edge* best = &tree_.edges_[node.first_edge];
    for (uint32_t i = 1; i < node.edge_count; ++i) {
      const Edge& edge = tree_.edges_[node.first_edge + i];
      if (better_root_edge(edge, *best)) best = &edge;
    }
    if (best->visits == 0 && std::isnan(tree_.proven_edge_value(*best))) break;
    pv.push_back(best->move);
    index = best->child;
  }
  return pv;
}

IterationReport PuctSearcher::report(int iterations) const {
  IterationReport report;
  report.iterations = iterations;
  report.nodes = control_.nodes.load();
  report.tbhits = control_.tbhits.load();
  const Node& node = tree_.nodes_[0];
  std::vector<const Edge*> edges;
  for (uint32_t i = 0; i < node.edge_count; ++i)
    edges.push_back(&tree_.edges_[node.first_edge + i]);
  std::stable_sort(edges.begin(), edges.end(),
                   [this](const Edge* a, const Edge* b) { return better_root_edge(*a, *b); });
  // The move played: among the moves with at least half the most visits, the best valued.
  // Visits are the robust choice where the search has settled; where it has not (moves of
  // nearly equal value, as in a won ending), the value decides, as in the other search.
  if (!edges.empty() && std::isnan(tree_.proven_edge_value(*edges.front()))) {
    auto chosen = edges.begin();
    for (auto it = edges.begin() + 1; it != edges.end(); ++it)
      if (2 * uint64_t((*it)->visits) >= edges.front()->visits &&
          std::isnan(tree_.proven_edge_value(**it)) && edge_value(**it) > edge_value(**chosen))
        chosen = it;
    std::rotate(edges.begin(), chosen, chosen + 1);
  }
  for (const Edge* edge : edges) {
    RootLine line;
    line.move = edge->move;
    line.value = edge_value(*edge);
    line.proven = !std::isnan(tree_.proven_edge_value(*edge));
    line.pv = principal_variation(edge->child, edge->move);
    line.net_value = float(edge->raw_net_value) / 65535.0f;
    line.prior = edge->prior;
    report.lines.push_back(std::move(line));
  }
  // The depth is the iterations done: iteration d ends at 8 x 2^(d-1) playouts, so each depth
  // costs twice the one before, `go depth N` costs what it says, and the depth never
  // decreases (the playouts' mean depth, reported before, went 2, 2, 1, 2 and grew so slowly
  // that `go depth 6` ran for minutes).
  report.depth = std::max(1, iterations);
  report.seldepth = seldepth_;
  for (const RootLine& line : report.lines)
    report.seldepth = std::max(report.seldepth, int(line.pv.size()));
  return report;
}

bool PuctSearcher::enough(const StopRule& rule, int iterations) const {
  const Node& root = tree_.nodes_[0];
  SearchState state;
  state.iterations = iterations;
  state.depth = iterations;  // what report() gives as the depth (at least 1 once reported)
  // Solved: nothing left to find. A mate the search finds proves the root, so this is also
  // `go mate N`'s rule (state.best_value is not needed), and since a proven root ends every
  // playout at once, a longer mate found first ends the search too.
  state.solved = !std::isnan(root.exact);
  state.exhausted = tree_full_;
  // Without a soft budget (`go infinite`, depth, nodes, bench) the root's moves are not read.
  if (!rule.soft_budget(1.0)) return rule.done(state);

  const Edge* most = nullptr;
  const Edge* second = nullptr;
  const Edge* valued = nullptr;  // the best value among the visited moves
  for (uint32_t i = 0; i < root.edge_count; ++i) {
    const Edge& edge = tree_.edges_[root.first_edge + i];
    if (!most || edge.visits > most->visits) {
      second = most;
      most = &edge;
    } else if (!second || edge.visits > second->visits) {
      second = &edge;
    }
    if (edge.visits > 0 && (!valued || edge_value(edge) > edge_value(*valued))) valued = &edge;
  }
  // Contested: the move with the most visits is not the one valued best; more time may settle
  // it (the soft_time_factor of a changed best move).
  const bool contested = valued && valued != most;
  state.time_factor = contested ? 1.8 : 1.0;
  if (rule.done(state)) return true;

  // The best move can no longer change: the runner-up cannot catch up with the playouts the
  // budget has left at this search's rate.
  const std::optional<std::chrono::duration<double>> budget = rule.soft_budget(state.time_factor);
  if (contested || !second) return false;
  const double searched = rule.searched().count();
  const uint64_t playouts = playouts_.load(std::memory_order_relaxed);
  if (searched <= 0 || playouts < 64) return false;
  const double left = double(playouts) / searched * (*budget - rule.elapsed()).count();
  return double(most->visits - second->visits) > left;
}

Move PuctSearcher::best_root_move() const {
  const Node& node = tree_.nodes_[0];
  const Edge* best = nullptr;
  for (uint32_t i = 0; i < node.edge_count; ++i) {
    const Edge& edge = tree_.edges_[node.first_edge + i];
    if (!best || better_root_edge(edge, *best)) best = &edge;
  }
  return best ? best->move : Move();
}

bool PuctSearcher::reserve_playout() {
  // Counted before it runs, so that `go nodes N` never reports more than N, and the helpers
  // never play beyond the iterations asked for.
  if (started_.fetch_add(1, std::memory_order_relaxed) < playout_cap_) {
    if (control_.nodes.fetch_add(1, std::memory_order_relaxed) < control_.node_limit) return true;
    control_.nodes.fetch_sub(1, std::memory_order_relaxed);
  }
  started_.fetch_sub(1, std::memory_order_relaxed);
  return false;
}

void PuctSearcher::release_playout() {
  started_.fetch_sub(1, std::memory_order_relaxed);
  control_.nodes.fetch_sub(1, std::memory_order_relaxed);
}

std::optional<uint64_t> PuctSearcher::next_playout(Worker& worker, const Position& root) {
  {
    const std::lock_guard lock(tree_mutex_);
    if (!std::isnan(tree_.nodes_[0].exact)) return std::nullopt;  // proven: nothing to find
  }
  if (!reserve_playout()) return std::nullopt;
  if (playout(worker, root)) return playouts_.fetch_add(1, std::memory_order_relaxed) + 1;
  release_playout();
  std::this_thread::yield();  // the node it met is being expanded
  return 0;
}

void PuctSearcher::help(Worker& worker, const Position& root, const std::atomic<bool>& done) {
  while (!done.load(std::memory_order_relaxed) && !control_.should_stop())
    if (!next_playout(worker, root)) return;
}

IterationReport PuctSearcher::run(const Game& game, const Limits& limits,
                                  const std::function<void(const IterationReport&)>& on_iteration,
                                  std::function<void(const SearchProgress&)> on_progress) {
  on_progress_ = std::move(on_progress);
  playouts_ = 0;
  started_ = 0;
  // `go depth` and `bench`'s iterations end at a known number of playouts.
  const std::optional<int> iteration_limit = limits.depth && limits.iterations
                                                 ? std::min(*limits.depth, *limits.iterations)
                                             : limits.depth ? limits.depth
                                                            : limits.iterations;
  playout_cap_ = iteration_limit && *iteration_limit >= 1 && *iteration_limit < 58
                     ? playouts_for_iterations(*iteration_limit)
                     : UINT64_MAX;
  seldepth_ = 0;
  tree_full_ = false;
  for (Worker& worker : workers_) worker.keys = game.recent_keys();
  root_index_ = game.recent_keys().size();
  const Position& root = game.position();
  if (!prepare_root(game, limits.searchmoves)) return IterationReport{};
  const auto search_start = std::chrono::steady_clock::now();
  const StopRule rule(limits, control_, search_start);
  std::atomic<bool> done{false};
  std::vector<std::thread> helpers;
  for (size_t i = 1; i < workers_.size(); ++i)
    helpers.emplace_back([this, i, &root, &done] { help(workers_[i], root, done); });
  Worker& own = workers_.front();
  int iterations = 0;
  // Between iterations (doublings, so rare in a long analysis) the lines are also sent once a
  // second and when the best move changes, at most every 100 ms, as Lc0 sends them.
  auto last_report = search_start;
  Move reported_best;
  std::unique_lock lock(tree_mutex_, std::defer_lock);
  for (;;) {
    if (control_.should_stop()) break;
    const std::optional<uint64_t> playouts = next_playout(own, root);
    if (!playouts) break;
    if (*playouts == 0) continue;  // a collision
    // This thread's own count only grows, so the iterations it sees never go down.
    const int done_now = iterations_of(*playouts);
    const bool iteration_ends = done_now > iterations;
    iterations = std::max(iterations, done_now);
    // What is sent is taken with the tree locked and sent with it released, so that a slow
    // reader holds up no helper.
    lock.lock();
    const SearchProgress progress = progress_;
    std::optional<IterationReport> lines;
    if (on_iteration && iterations > 0) {
      const auto now = std::chrono::steady_clock::now();
      const Move best = best_root_move();
      const bool best_changed = !reported_best.is_none() && best != reported_best &&
                                now - last_report >= std::chrono::milliseconds(100);
      if (iteration_ends || best_changed || now - last_report >= std::chrono::seconds(1)) {
        lines = report(iterations);
        last_report = now;
        reported_best = best;
      }
    }
    const bool stop = enough(rule, iterations);
    lock.unlock();
    if (on_progress_) {
      SearchProgress sent = progress;
      sent.nodes = control_.nodes.load(std::memory_order_relaxed);
      on_progress_(sent);
    }
    if (lines) on_iteration(*lines);
    if (stop) break;
  }
  done = true;
  for (std::thread& helper : helpers) helper.join();
  // The helpers may have finished iterations after the search's own thread stopped counting.
  return report(std::max(iterations, iterations_of(playouts_.load())));
}

}  // namespace avocet::search
