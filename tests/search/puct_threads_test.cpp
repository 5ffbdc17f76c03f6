// PUCT with helper threads in one tree (PuctSearcher::add_helper), on the material evaluator:
// it is fast, so the threads meet often at the same nodes, which is what these tests want.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "../chess/game_testing.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/puct.h"
#include "avocet/search/value.h"

namespace avocet::search {
namespace {

using avocet::testing::after;

// A PUCT search of `threads` threads, each with its own evaluator, and a table and a tree.
struct ThreadedPuct {
  explicit ThreadedPuct(int threads) {
    for (int i = 0; i < threads; ++i)
      evaluators.push_back(std::make_unique<nn::MaterialEvaluator>());
  }

  IterationReport run(const Game& game, uint64_t nodes, Limits limits = {}) {
    SearchControl control;
    control.node_limit = nodes;
    PuctSearcher searcher(*evaluators.front(), table, tree, SearchParameters{}, control);
    for (size_t i = 1; i < evaluators.size(); ++i) searcher.add_helper(*evaluators[i]);
    IterationReport report =
        searcher.run(game, limits, [this](const IterationReport& r) { reports.push_back(r); });
    nodes_used = control.nodes.load();
    return report;
  }

  std::vector<std::unique_ptr<nn::MaterialEvaluator>> evaluators;
  TranspositionTable table{16};
  PuctTree tree;
  std::vector<IterationReport> reports;
  uint64_t nodes_used = 0;
};

// Every playout is counted once, in the nodes and in the root's visits, whatever the threads
// met on the way (a collision takes its visits back), and the node limit is never passed.
TEST(PuctThreads, EveryPlayoutIsCountedOnce) {
  for (const int threads : {1, 2, 4}) {
    SCOPED_TRACE(threads);
    ThreadedPuct puct(threads);
    const IterationReport r = puct.run(Game(), 3000);
    EXPECT_EQ(puct.nodes_used, 3000u);
    EXPECT_EQ(r.nodes, 3000u);
    EXPECT_EQ(puct.tree.root_visits(), 3000u);
    ASSERT_FALSE(r.lines.empty());
    EXPECT_TRUE(legal_moves(Position::start()).contains(r.lines.front().move));
    // Reports come in order of the playouts, one per doubling at least. With helpers on a busy
    // machine the helpers may run every playout before the search's own thread reports one
    // (the engine then sends the final figures itself), so only one thread must report.
    if (threads == 1) {
      ASSERT_FALSE(puct.reports.empty());
    }
    for (size_t i = 1; i < puct.reports.size(); ++i)
      EXPECT_LE(puct.reports[i - 1].nodes, puct.reports[i].nodes);
  }
}

TEST(PuctThreads, FindMateInTwoAndProveIt) {
  // Lichess 000hf after ...Kxf7: Qe6+ Kf8 Qf7#.
  const Game game =
      after("r1bqk2r/pp1nbNp1/2p1p2p/8/2BP4/1PN3P1/P3QP1P/3R1RK1 b kq - 0 19", {"e8f7"});
  for (const int threads : {2, 4}) {
    SCOPED_TRACE(threads);
    ThreadedPuct puct(threads);
    const IterationReport r = puct.run(game, 40000);
    EXPECT_EQ(to_uci(r.lines.front().move), "e2e6");
    ASSERT_TRUE(is_mate_value(r.lines.front().value));
    EXPECT_EQ(mate_in_moves(r.lines.front().value), 2);
    EXPECT_LT(puct.nodes_used, 40000u);  // proven: the threads stop
  }
}

// The tree's bound holds with several threads growing it, the subtree kept between moves; a
// full tree searches on to the node limit without growing.
TEST(PuctThreads, TheTreeStaysWithinItsCapacity) {
  for (const size_t capacity : {size_t(64) << 10, size_t(300) << 10}) {
    ThreadedPuct puct(3);
    puct.tree.set_capacity(capacity);
    Game game;
    for (const char* move : {"e2e4", "e7e5", "g1f3"}) {
      const IterationReport r = puct.run(game, 4000);
      EXPECT_LE(puct.tree.allocated_bytes(), capacity) << capacity << " " << move;
      EXPECT_EQ(puct.nodes_used, 4000u);
      ASSERT_FALSE(r.lines.empty());
      EXPECT_TRUE(legal_moves(game.position()).contains(r.lines.front().move));
      game.play(parse_uci(game.position(), move));
    }
  }
}

// Helpers stop with the search: a depth limit ends a search of three threads as it ends one,
// with at most the playouts under way when it ended beyond the limit (far fewer than the next
// iteration's).
TEST(PuctThreads, TheHelpersStopWithTheSearch) {
  ThreadedPuct puct(3);
  Limits limits;
  limits.depth = 6;  // 8 x 2^5 = 256 playouts
  const IterationReport r = puct.run(Game(), UINT64_MAX, limits);
  EXPECT_EQ(r.depth, 6);
  EXPECT_GE(puct.nodes_used, 256u);
  EXPECT_LT(puct.nodes_used, 512u);
}

}  // namespace
}  // namespace avocet::search
