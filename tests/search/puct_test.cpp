// PUCT on the deterministic material evaluator (no network).
#include "avocet/search/puct.h"

#include <gtest/gtest.h>

#include <vector>

#include "../chess/game_testing.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/value.h"

namespace avocet::search {
namespace {

using avocet::testing::after;

// A PUCT search with a table and a tree of its own.
struct Puct {
  explicit Puct(bool mop_up = false) : evaluator(mop_up) {}

  IterationReport run(const Game& game, uint64_t nodes, Limits limits = {}) {
    SearchControl control;
    control.node_limit = nodes;
    PuctSearcher searcher(evaluator, table, tree, SearchParameters{}, control);
    IterationReport report =
        searcher.run(game, limits, [this](const IterationReport& r) { reports.push_back(r); });
    nodes_used = control.nodes.load();
    return report;
  }

  nn::MaterialEvaluator evaluator;
  TranspositionTable table{16};
  PuctTree tree;
  std::vector<IterationReport> reports;
  uint64_t nodes_used = 0;
};

TEST(Puct, FindsMateInTwoAndProvesIt) {
  // Lichess 000hf after ...Kxf7: Qe6+ Kf8 Qf7#.
  const Game game =
      after("r1bqk2r/pp1nbNp1/2p1p2p/8/2BP4/1PN3P1/P3QP1P/3R1RK1 b kq - 0 19", {"e8f7"});
  Puct puct;
  const IterationReport r = puct.run(game, 20000);
  EXPECT_EQ(to_uci(r.lines.front().move), "e2e6");
  ASSERT_TRUE(is_mate_value(r.lines.front().value));
  EXPECT_EQ(mate_in_moves(r.lines.front().value), 2);
  // Proven, the search ends without spending its nodes, and the PV is the mate.
  EXPECT_LT(puct.nodes_used, 20000u);
  EXPECT_EQ(r.lines.front().pv.size(), 3u);
}

TEST(Puct, FindsMateInThreeBySacrifice) {
  // After Qxc7: ...Qxf2+ Rxf2 Re1+ Rf1 Rxf1#, starting with a queen sacrifice.
  const Game game = after("4rr1k/pQpn2pp/3p1q2/8/8/2P5/PP3PPP/RN3RK1 w - - 1 16", {"b7c7"});
  Puct puct;
  const IterationReport r = puct.run(game, 60000);
  EXPECT_EQ(to_uci(r.lines.front().move), "f6f2");
  ASSERT_TRUE(is_mate_value(r.lines.front().value));
  EXPECT_EQ(mate_in_moves(r.lines.front().value), 3);
}

// `go mate 3` with no other limit: the search ends once the mate in 3 is proven (Stockfish's
// rule: stop when a mate in N or less is found), not at a node limit.
TEST(Puct, GoMateStopsWhenTheMateIsProven) {
  const Game game = after("4rr1k/pQpn2pp/3p1q2/8/8/2P5/PP3PPP/RN3RK1 w - - 1 16", {"b7c7"});
  Puct puct;
  Limits limits;
  limits.mate = 3;
  const IterationReport r = puct.run(game, UINT64_MAX, limits);
  ASSERT_TRUE(is_mate_value(r.lines.front().value));
  EXPECT_EQ(mate_in_moves(r.lines.front().value), 3);
  EXPECT_TRUE(r.lines.front().proven);
  EXPECT_LT(puct.nodes_used, 200000u);
}

TEST(Puct, MateInOneIsPlayedAsOne) {
  // Rh8# mates at once; every other move wins slower.
  const Game game = after("k7/8/1K6/8/8/8/8/7R w - - 0 1", {});
  Puct puct;
  const IterationReport r = puct.run(game, 5000);
  EXPECT_EQ(to_uci(r.lines.front().move), "h1h8");
  EXPECT_EQ(r.lines.front().value, mating_value(1));
  EXPECT_LT(puct.nodes_used, 200u);
}

TEST(Puct, MatedSideSeesNegativeMate) {
  // ...Kb8 (forced) Rh8#.
  const Game game = after("k7/8/1K6/8/8/8/8/7R b - - 0 1", {});
  Puct puct;
  const IterationReport r = puct.run(game, 5000);
  ASSERT_TRUE(is_mate_value(r.lines.front().value));
  EXPECT_EQ(mate_in_moves(r.lines.front().value), -1);
}

TEST(Puct, ConvertsKingAndQueenAgainstKing) {
  Game game(Position::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"));
  Puct puct(true);
  for (int ply = 0; ply < 120 && game.termination() == Termination::None; ++ply)
    game.play(puct.run(game, 3000).lines.front().move);
  EXPECT_EQ(game.termination(), Termination::Checkmate) << game.position().fen();
  EXPECT_EQ(game.position().side_to_move(), Color::Black);
}

// KQK after the king and the queen went back and forth twice: Black (to move) can claim a
// threefold with g8h8, White (to move) would allow one with b1c1.
Game queen_down_can_repeat() {
  return after("6k1/8/8/8/8/8/8/1Q4K1 b - - 0 1",
               {"g8h8", "b1c1", "h8g8", "c1b1", "g8h8", "b1c1", "h8g8", "c1b1"});
}
Game queen_up_can_repeat() {
  return after("6k1/8/8/8/8/8/8/1Q4K1 w - - 0 1",
               {"b1c1", "g8h8", "c1b1", "h8g8", "b1c1", "g8h8", "c1b1", "h8g8"});
}

// Black, a queen down, steers into a threefold repetition (a draw); White, winning, avoids it.
TEST(Puct, ClaimsRepetitionWhenLosingAndAvoidsItWhenWinning) {
  const Game losing = queen_down_can_repeat();
  Puct claim;
  const IterationReport c = claim.run(losing, 3000);
  EXPECT_EQ(to_uci(c.lines.front().move), "g8h8");
  EXPECT_EQ(c.lines.front().value, 0.5f);

  const Game winning = queen_up_can_repeat();
  Puct win;
  const IterationReport w = win.run(winning, 3000);
  EXPECT_NE(to_uci(w.lines.front().move), "b1c1");
  EXPECT_GT(w.lines.front().value, 0.9f);
}

// At one node no playout reaches a root move, so the rules must score those that end the game:
// the losing side claims the threefold, the winning side avoids it, and a mate in one is seen.
TEST(Puct, OneNodeScoresTheRootMovesThatEndTheGameByRule) {
  const Game losing = queen_down_can_repeat();
  Puct claim;
  const IterationReport c = claim.run(losing, 1);
  EXPECT_EQ(claim.nodes_used, 1u);
  EXPECT_EQ(to_uci(c.lines.front().move), "g8h8");
  EXPECT_EQ(c.lines.front().value, 0.5f);

  const Game winning = queen_up_can_repeat();
  Puct win;
  const IterationReport w = win.run(winning, 1);
  EXPECT_NE(to_uci(w.lines.front().move), "b1c1");
  EXPECT_GT(w.lines.front().value, 0.5f);

  Puct mate;
  const IterationReport m = mate.run(after("k7/8/1K6/8/8/8/8/7R w - - 0 1", {}), 1);
  EXPECT_EQ(to_uci(m.lines.front().move), "h1h8");
  EXPECT_EQ(m.lines.front().value, mating_value(1));
}

// The playouts through a node depend only on its subtree, so the tree kept after two moves
// continues exactly as a fresh search of that position with as many playouts would.
TEST(Puct, TreeReuseMatchesAFreshSearchAtEqualNodes) {
  const Game start =
      after("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {});
  Puct reused;
  const IterationReport first = reused.run(start, 3000);
  // The game goes on by the search's move and the reply it expected most.
  Game next = start;
  ASSERT_GE(first.lines.front().pv.size(), 2u);
  next.play(first.lines.front().pv[0]);
  next.play(first.lines.front().pv[1]);
  const IterationReport continued = reused.run(next, 500);
  const uint32_t visits = reused.tree.root_visits();
  EXPECT_GT(visits, 500u);  // the kept subtree's visits, and 500 more

  Puct fresh;
  const IterationReport again = fresh.run(next, visits);  // the root's pass, visits - 1 playouts
  ASSERT_EQ(fresh.tree.root_visits(), visits);
  ASSERT_EQ(continued.lines.size(), again.lines.size());
  for (size_t i = 0; i < again.lines.size(); ++i) {
    EXPECT_EQ(continued.lines[i].move, again.lines[i].move) << i;
    EXPECT_FLOAT_EQ(continued.lines[i].value, again.lines[i].value) << i;
    EXPECT_EQ(continued.lines[i].pv, again.lines[i].pv) << i;
  }
}

// A game that does not continue the tree's (another opening) starts a new tree.
TEST(Puct, AnotherGameStartsANewTree) {
  Puct puct;
  puct.run(Game(), 400);
  EXPECT_EQ(puct.tree.root_visits(), 400u);  // the root's pass and 399 playouts
  const Game other = after("8/8/8/4k2p/8/8/8/KQ6 w - - 0 1", {});
  puct.run(other, 100);
  EXPECT_EQ(puct.tree.root_visits(), 100u);
}

TEST(Puct, ReportsIterationsAtEachDoublingOfPlayouts) {
  Puct puct;
  Limits limits;
  limits.iterations = 5;
  const IterationReport r = puct.run(Game(), 100000, limits);
  EXPECT_EQ(r.iterations, 5);
  EXPECT_EQ(puct.nodes_used, 1 + PuctSearcher::playouts_for_iterations(5));
  ASSERT_EQ(puct.reports.size(), 5u);
  for (size_t i = 0; i < puct.reports.size(); ++i) {
    EXPECT_EQ(puct.reports[i].iterations, int(i) + 1);
    EXPECT_EQ(puct.reports[i].nodes, 1 + PuctSearcher::playouts_for_iterations(int(i) + 1));
    // N3, N4: the depth is the iterations done, so it never decreases and `go depth N` costs
    // 8 x 2^(N-1) playouts.
    EXPECT_EQ(puct.reports[i].depth, int(i) + 1);
  }
  EXPECT_EQ(r.lines.size(), legal_moves(Game().position()).size());
}

TEST(Puct, SearchmovesRestrictTheRoot) {
  Puct puct;
  Limits limits;
  limits.searchmoves = {parse_uci(Position::start(), "a2a3"), parse_uci(Position::start(), "h2h3")};
  const IterationReport r = puct.run(Game(), 300, limits);
  EXPECT_EQ(puct.nodes_used, 300u) << "the restricted root is searched to the limit";
  ASSERT_EQ(r.lines.size(), 2u);
  for (const RootLine& line : r.lines)
    EXPECT_TRUE(to_uci(line.move) == "a2a3" || to_uci(line.move) == "h2h3");
}

// A full tree stops growing, not searching: the playouts go on to the limit, evaluating what
// they reach beyond the tree without keeping it, and the move played is still legal.
// Hash bounds the tree by what it allocates: searches of every length at several capacities,
// with the subtree kept between moves, never hold more (2b8a4ef counted the arrays' sizes,
// and their doubling took the tree to twice its bound).
TEST(Puct, TheTreeNeverAllocatesBeyondItsCapacity) {
  for (const size_t capacity : {size_t(100) << 10, size_t(300) << 10, size_t(1) << 20}) {
    Puct puct;
    puct.tree.set_capacity(capacity);
    Game game;
    for (const char* move : {"e2e4", "e7e5", "g1f3", "b8c6"}) {
      for (const uint64_t nodes : {100u, 3000u}) {
        puct.run(game, nodes);
        EXPECT_LE(puct.tree.allocated_bytes(), capacity) << capacity << " " << move;
      }
      game.play(parse_uci(game.position(), move));
    }
  }
}

TEST(Puct, AFullTreeSearchesOnToItsLimitWithoutGrowing) {
  Puct puct;
  puct.tree.set_capacity(64 << 10);  // room for a few dozen nodes
  const IterationReport r = puct.run(Game(), 5000);
  EXPECT_EQ(puct.nodes_used, 5000u);
  EXPECT_LT(puct.tree.nodes(), 200u);
  EXPECT_EQ(puct.tree.root_visits(), 5000u);
  // What the arrays hold allocated, not only what they use, stays within the bound.
  EXPECT_LE(puct.tree.allocated_bytes(), size_t(64) << 10);
  ASSERT_FALSE(r.lines.empty());
  EXPECT_TRUE(legal_moves(Position::start()).contains(r.lines.front().move));
  // A depth the full tree cannot hold ends the search instead of running on forever.
  Puct deep;
  deep.tree.set_capacity(64 << 10);
  Limits limits;
  limits.depth = 40;
  deep.run(Game(), UINT64_MAX, limits);
  EXPECT_LT(deep.tree.nodes(), 200u);
}

}  // namespace
}  // namespace avocet::search
