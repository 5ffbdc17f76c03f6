// PUCT: a Monte Carlo tree search in the style of AlphaZero and Leela Chess Zero, guided by the
// action-value network (SearchMode puct; search.h's probability-limited search is the other).
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

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/limits.h"
#include "avocet/search/parameters.h"
#include "avocet/search/report.h"
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
  };
  // The sizes the Hash budget is reckoned in (engine/README.md).
  static_assert(sizeof(Edge) == 32, "an edge is 32 bytes");
  static_assert(sizeof(Node) == 20, "a node is 20 bytes");

  // Moves the subtree of `index` to the root; everything else is dropped. Draws by repetition
  // are dropped too (the path to them changed: a position repeated before the new root now
  // needs a third occurrence), and proofs are recomputed without them.
  void keep_subtree(uint32_t index);
  // Makes room for one more node and `edges` more edges without allocating beyond the
  // capacity (the arrays grow by at most doubling, as far as the capacity allows); false when
  // there is none.
  bool make_room(size_t edges);
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

 private:
  using Edge = PuctTree::Edge;
  using Node = PuctTree::Node;

  // Reuses the tree if the game continues the one it was built for, else starts a new one;
  // expands the root. False when the root has no move to search.
  bool prepare_root(const Game& game, const std::vector<Move>& searchmoves);
  // One playout: selection, expansion (or an exact result), backup.
  void playout(const Position& root);
  // `pos`'s value as expand() gives it, for a tree with no room left: nothing is kept.
  float evaluate_without_keeping(const Position& pos);
  // The value, for its side to move, of the new node `index` for `pos`, which the call expands: the
  // rules', the tables' or the best of its moves' network values.
  float expand(uint32_t index, const Position& pos);
  // Appends the node's moves with their priors and network values; `moves` are all legal ones,
  // of which those in `only` (all if empty) become edges. Returns the best damped value.
  float add_edges(Node& node, const Position& pos, const MoveList& moves,
                  const std::vector<Move>& only);
  size_t select(const Node& node) const;
  // An edge's value for the node's side to move: its proof, the mean backed up, or the net's.
  float edge_value(const Edge& edge) const;
  // The best of a node's move values (edge_value), for its side to move.
  float best_edge_value(const Node& node) const;
  // The order in which root moves are reported and chosen.
  bool better_root_edge(const Edge& a, const Edge& b) const;
  IterationReport report(int iterations) const;
  std::vector<Move> principal_variation(uint32_t child, Move first) const;
  bool enough(const Limits& limits, int iterations,
              std::chrono::steady_clock::time_point search_start) const;

  nn::Evaluator& evaluator_;
  TranspositionTable& table_;
  PuctTree& tree_;
  SearchParameters params_;
  SearchControl& control_;
  int multipv_;
  TablebaseSettings tablebases_;

  struct Step {
    uint32_t node, edge;
  };
  std::vector<Step> path_;      // the playout's nodes and the moves chosen there
  std::vector<uint64_t> keys_;  // the game's recent history, then the playout's path
  size_t root_index_ = 0;       // where the root's key goes in keys_
  uint64_t playouts_ = 0;       // of this search
  int seldepth_ = 0;
  bool tree_full_ = false;  // a playout of this search found no room to grow the tree
  std::function<void(const SearchProgress&)> on_progress_;
  SearchProgress progress_;
};

}  // namespace avocet::search
