// PUCT: a Monte Carlo tree search in the style of AlphaZero and Leela Chess Zero, guided by the
// action-value network (SearchMode puct; probability_search.h's is the other).
//
// Each playout walks from the root to a leaf, choosing at every node the move with the highest
//
//     Q(s, a) + c(N) * P(s, a) * sqrt(N(s)) / (1 + N(s, a)),   c(N) = c + f * ln((N + b) / b)
//
// (Leela's logarithmic growth of the exploration constant c with the node's visits N(s)). The
// prior P(s, a) is the softmax of the network's values over a temperature, as pi(a|s) in the
// probability-limited search. Q(s, a) is the network's own value of the move until the move
// is visited, then the mean of the values backed up through it: an action-value network values
// every move of an expanded node, so an unvisited move needs no first-play urgency guess. The
// leaf, the position after the chosen move, costs one network pass; its value for its side to
// move is the best of its moves' values, and goes up the path as 1 - v per ply.
//
// Exact results are the rules' and the tables' (search/rules.h, shared with the other search):
// mates, stalemates, repetitions, the 50-move rule and dead positions end a playout with their
// exact value, and the tables do after a zeroing move. An MCTS solver proves nodes: a move to a
// lost position wins, a node all of whose moves are proven takes the best of them, and proven
// values keep their distance (a mate in 3 stays a mate in 3), so a mate found is played as one.
//
// Between moves the tree of the position reached is kept (PuctTree): the playouts through a
// node depend only on that node's subtree, so a kept subtree continues exactly as a fresh
// search from it would.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/limits.h"
#include "avocet/search/parameters.h"
#include "avocet/search/report.h"
#include "avocet/search/stop_rule.h"
#include "avocet/search/transposition_table.h"

namespace avocet::search {

// The search tree, kept between searches so that the subtree of the position reached is reused.
// Its memory is bounded (set_capacity, Hash's MB). Once it is full the tree stops growing but the
// search goes on to its limit: a playout that leaves the tree evaluates the new position as an
// expansion would and backs its value up, without keeping it, so the visits of the tree there
// is still follow the values (at 16 MB and ~600 playouts a second a tree fills in about 20 s).
class PuctTree {
 public:
  // Forgets every node (ucinewgame, Clear Hash, another net).
  void clear();
  // At most `bytes` for the nodes and moves; at least room for a root and its moves.
  void set_capacity(size_t bytes);
  size_t nodes() const { return nodes_.size(); }
  // The bytes its node and edge arrays hold allocated (their capacity, not their size): never
  // more than the capacity set, which is what the capacity bounds.
  size_t allocated_bytes() const {
    return nodes_.capacity() * sizeof(Node) + edges_.capacity() * sizeof(Edge);
  }
  // Playouts through the root, its own expansion included (0 for an empty tree).
  uint32_t root_visits() const { return nodes_.empty() ? 0 : nodes_.front().visits; }

 private:
  friend class PuctSearcher;

  // A move of an expanded node. Values are for the side to move at that node. 32 bytes (Lc0's
  // edge is 8 and its node 80; an expanded node here costs 20 + 32 per move, about 1,000 bytes
  // in a middlegame): every move keeps its own network value, which Lc0's edges do not have.
  struct Edge {
    Move move;
    // The network's value of the move without the 50-move damping (reported as the net's value,
    // VerboseMoveStats), in the table's 16 bits (TranspositionTable::as_stored): exact, since
    // every value the tree gets has been through as_stored.
    uint16_t raw_net_value = 0;
    uint32_t child = 0;   // index of the node after the move; 0: not expanded (0 is the root)
    float prior = 0;      // P(s, a)
    float net_value = 0;  // the network's value of the move, with the 50-move damping
    uint32_t visits = 0;
    float minimax = 0;     // 1 - the best value of the child's moves, recursively (visited)
    double value_sum = 0;  // of the values backed up through the move
  };
  struct Node {
    uint32_t first_edge = 0;
    uint32_t edge_count = 0;
    uint32_t visits = 0;
    // An exact value for the node's side to move, relative to the node (a mate in p plies from
    // here is mating_value(p)), or NaN: the rules' or the tables' result at a leaf, or the
    // solver's proof at an inner node.
    float exact = std::numeric_limits<float>::quiet_NaN();
    bool terminal = false;       // its value is the rules' or the tables' (it has no edges)
    bool by_repetition = false;  // a draw by repetition, which depends on the path to it
    bool pending = false;        // a thread is evaluating it; its fields are not set yet
  };
  // The sizes the Hash budget is reckoned in (engine/README.md).
  static_assert(sizeof(Edge) == 32, "an edge is 32 bytes");
  static_assert(sizeof(Node) == 20, "a node is 20 bytes");

  // Moves the subtree of `index` to the root; everything else is dropped. Draws by repetition
  // are dropped too (the path to them changed: a position repeated before the new root now
  // needs a third occurrence), and proofs are recomputed without them.
  void keep_subtree(uint32_t index);
  // Makes room for `nodes` more nodes and `edges` more edges without allocating beyond the
  // capacity (the arrays grow by at most doubling, as far as the capacity allows); false when
  // there is none.
  bool make_room(size_t edges, size_t nodes = 1);
  // The child's proven value seen from the parent (the other side, one ply further), or NaN.
  float proven_edge_value(const Edge& edge) const;
  // Recomputes a node's proof from its moves (the MCTS solver): a proven win among them, or
  // the best of them when all are proven.
  void update_proof(Node& node);

  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  size_t capacity_bytes_ = size_t(64) << 20;
  // The game at the root: its moves from the start position, and the root position's key.
  std::vector<Move> root_moves_;
  uint64_t root_key_ = 0;
  std::vector<Move> searchmoves_;  // the root's restriction (a tree for other ones is dropped)
};

class PuctSearcher {
 public:
  PuctSearcher(nn::Evaluator& evaluator, TranspositionTable& table, PuctTree& tree,
               const SearchParameters& params, SearchControl& control, int multipv = 1,
               TablebaseSettings tablebases = {});

  // A thread that plays out in the same tree with its own evaluator, from the next run() on:
  // each playout chooses its path with the tree locked, counting its visits at once (a virtual
  // loss: the other threads choose elsewhere), and evaluates its leaf with the lock released.
  void add_helper(nn::Evaluator& evaluator);

  // Playouts from the game's current position until a limit or a stop. The report's lines are
  // all root moves, most visited first (a proven win before everything, proven losses last);
  // Reports come at every "iteration", each a doubling of the playouts (8, 16, 32, ...),
  // which is what Limits::iterations counts (`bench`) and `depth` reports (report.h);
  // `seldepth` is the deepest playout. `Limits::depth` stops after that many iterations.
  IterationReport run(const Game& game, const Limits& limits,
                      const std::function<void(const IterationReport&)>& on_iteration,
                      std::function<void(const SearchProgress&)> on_progress = nullptr);

  // The playouts of iteration `iterations` end at this many playouts of the search.
  static uint64_t playouts_for_iterations(int iterations);
  // The whole iterations that `playouts` playouts complete (0 before the first ends).
  static int iterations_of(uint64_t playouts);

 private:
  using Edge = PuctTree::Edge;
  using Node = PuctTree::Node;

  struct Step {
    uint32_t node, edge;
  };
  // What each thread keeps of its playout.
  struct Worker {
    nn::Evaluator* evaluator;
    std::vector<Step> path;      // the playout's nodes and the moves chosen there
    std::vector<uint64_t> keys;  // the game's recent history, then the playout's path
  };
  // A leaf's legal moves and either its exact value or the network's values of its moves (as
  // the table stores them), found without the tree.
  struct Leaf {
    MoveList moves;
    std::optional<float> exact;
    bool by_repetition = false;
    std::array<float, MoveList::kCapacity> values;
  };
  // Where a playout's way down the tree ended: at a known value, at a new node to expand
  // (`index`, kept in the tree, or Outside it when the tree is full), or at a node another
  // thread is expanding.
  struct Descent {
    enum Kind { Exact, Expand, Outside, Collision } kind = Exact;
    Position pos;
    float value = 0;  // Exact: the value for the side to move at the last node
    uint32_t index = 0;
  };

  // Reuses the tree if the game continues the one it was built for, else starts a new one;
  // expands the root. False when the root has no move to search.
  bool prepare_root(const Game& game, const std::vector<Move>& searchmoves);
  // The root's unexpanded moves that end the game by rule (a threefold, fifty moves,
  // stalemate, mate) take the rule's value as their first estimate, as argmax scores them.
  void score_root_moves_by_rules(const Position& root);
  // Runs the playouts of a helper thread until the search is done or its limit is reached.
  void help(Worker& worker, const Position& root, const std::atomic<bool>& done);
  // Counts one more playout against the node limit and the playouts the iterations asked for
  // allow; false (and nothing counted) at either. release_playout takes one back.
  bool reserve_playout();
  void release_playout();
  // One turn of a searching thread, the same for the search's own thread and its helpers: the
  // search's playouts so far, this one included; 0 when it met a node another thread is
  // expanding (taken back after a yield, to be tried again); none when nothing is left to
  // play (the root proven, or a node or iteration limit reached).
  std::optional<uint64_t> next_playout(Worker& worker, const Position& root);
  // One playout: selection, expansion (or an exact result), backup. False on a collision
  // (nothing changed; the caller tries again).
  bool playout(Worker& worker, const Position& root);
  // With the tree locked: the way down from the root, counting each visit on the way.
  Descent descend(Worker& worker, const Position& root);
  // Without the tree: the leaf's moves, its exact value or its moves' network values.
  Leaf evaluate_leaf(Worker& worker, const Position& pos);
  // The network's values of `leaf.moves`, as the table stores them.
  void network_leaf(Worker& worker, const Position& pos, Leaf& leaf);
  // The leaf's value for its side to move: exact, or the best of its damped move values.
  static float leaf_value(const Position& pos, const Leaf& leaf);
  // With the tree locked: the new node `index` takes the leaf; its value for its side to move,
  // or nullopt when the tree has no room left for its moves.
  std::optional<float> commit_leaf(uint32_t index, const Position& pos, const Leaf& leaf);
  // With the tree locked: the leaf's value up the worker's path (the visits were counted on
  // the way down), and the proofs it makes.
  void back_up(const Worker& worker, float value);
  // With the tree locked: takes back the visits a descent counted (a collision).
  void take_back(const Worker& worker);
  // Appends the node's moves with their priors and network values; of the leaf's moves, those
  // in `only` (all if empty) become edges. Returns the best damped value.
  float add_edges(Node& node, const Position& pos, const Leaf& leaf, const std::vector<Move>& only);
  size_t select(const Node& node) const;
  // An edge's value for the node's side to move: its proof, the mean backed up, or the net's.
  float edge_value(const Edge& edge) const;
  // The best of a node's move values (edge_value), for its side to move.
  float best_edge_value(const Node& node) const;
  // The order in which root moves are reported and chosen.
  bool better_root_edge(const Edge& a, const Edge& b) const;
  Move best_root_move() const;
  IterationReport report(int iterations) const;
  std::vector<Move> principal_variation(uint32_t child, Move first) const;
  // Whether the search ends after `iterations` iterations: by the stop rule, or early when the
  // most-visited move can no longer be overtaken within the soft budget left.
  bool enough(const StopRule& rule, int iterations) const;

  TranspositionTable& table_;
  PuctTree& tree_;
  SearchParameters params_;
  SearchControl& control_;
  int multipv_;
  TablebaseSettings tablebases_;

  std::vector<Worker> workers_;  // the search's own thread first, then the helpers
  // Guards the tree, seldepth_, tree_full_ and progress_ while helpers run.
  mutable std::mutex tree_mutex_;
  size_t root_index_ = 0;              // where the root's key goes in each worker's keys
  std::atomic<uint64_t> playouts_{0};  // of this search, by every thread
  std::atomic<uint64_t> started_{0};   // playouts begun (reserve_playout)
  uint64_t playout_cap_ = UINT64_MAX;  // at most this many (`go depth`, bench's iterations)
  int seldepth_ = 0;
  bool tree_full_ = false;  // a playout of this search found no room to grow the tree
  std::function<void(const SearchProgress&)> on_progress_;
  SearchProgress progress_;
};

}  // namespace avocet::search
