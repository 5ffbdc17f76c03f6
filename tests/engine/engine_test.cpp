// Engine's own duties, apart from the search it runs: when the table is sized, and how Threads is
// spent.
#include "avocet/engine/engine.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "avocet/chess/movegen.h"
#include "avocet/nn/material_evaluator.h"

namespace avocet::engine {
namespace {

// Memory stays at Hash plus the net: no default-sized table is allocated before the GUI's
// Hash arrives, whatever order the options come in.
TEST(Engine, HashTableIsSizedOnceByTheOptionsOrTheFirstGo) {
  Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  EXPECT_EQ(engine.hash_megabytes(), 0u);
  Settings settings = engine.settings();
  settings.engine.threads = 2;
  settings.engine.params.mode = search::SearchMode::Probability;
  engine.configure(settings);
  EXPECT_EQ(engine.hash_megabytes(), 0u);
  settings.engine.hash_mb = 8;
  engine.configure(settings);
  EXPECT_EQ(engine.hash_megabytes(), 8u);
  GoRequest request;
  request.nodes = 20;
  engine.go(request, {});
  engine.wait();
  EXPECT_EQ(engine.hash_megabytes(), 8u);

  Engine fresh([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  fresh.go(request, {});
  fresh.wait();
  EXPECT_EQ(fresh.hash_megabytes(), split_hash(EngineOptions{}).table_mb);
}

// One Hash for the table and the tree together: under PUCT the table takes an eighth (1 MB at
// least) and the tree the rest, so both fit in Hash from 2 MB up; the probability-limited
// search has no tree and its table takes all. A search changing modes re-sizes the table.
TEST(Engine, HashIsOneBudgetForTheTableAndTheTree) {
  EngineOptions options;
  for (const int hash : {2, 16, 64, 256, 4096}) {
    options.hash_mb = hash;
    options.params.mode = search::SearchMode::Puct;
    const HashSplit puct = split_hash(options);
    EXPECT_EQ(puct.table_mb, size_t(std::max(1, hash / 8))) << hash;
    EXPECT_EQ((puct.table_mb << 20) + puct.tree_bytes, size_t(hash) << 20) << hash;
    options.params.mode = search::SearchMode::Probability;
    EXPECT_EQ(split_hash(options).table_mb, size_t(hash));
    EXPECT_EQ(split_hash(options).tree_bytes, 0u);
  }
  // A strength level below full strength plays PUCT whatever SearchMode says.
  options.limit_strength = true;
  EXPECT_GT(split_hash(options).tree_bytes, 0u);

  Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  Settings settings = engine.settings();
  settings.engine.hash_mb = 16;
  engine.configure(settings);
  EXPECT_EQ(engine.hash_megabytes(), 2u);
  GoRequest request;
  request.nodes = 3000;
  engine.go(request, {});
  engine.wait();
  EXPECT_LE((engine.hash_megabytes() << 20) + engine.tree_bytes(), size_t(16) << 20);
  settings.engine.params.mode = search::SearchMode::Probability;
  engine.configure(settings);
  EXPECT_EQ(engine.hash_megabytes(), 16u);
  EXPECT_EQ(engine.tree_bytes(), 0u);
}

// SearchMode puct through the engine: every best move is legal in the position searched, as the
// game goes on (its tree kept), after a position that does not continue the tree's game, and
// after a new game; Threads 3 plays out in one tree on three threads.
TEST(Engine, PuctPlaysOnlyLegalMovesAsTheGameGoesOn) {
  Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  Settings settings = engine.settings();
  settings.engine.params.mode = search::SearchMode::Puct;
  settings.engine.threads = 3;
  settings.engine.hash_mb = 8;
  engine.configure(settings);
  const auto play = [&engine](const Game& game) {
    engine.set_game(game);
    Move best;
    EngineCallbacks callbacks;
    callbacks.on_bestmove = [&best](Move m, Move) { best = m; };
    GoRequest request;
    request.nodes = 150;
    engine.go(request, std::move(callbacks));
    engine.wait();
    return best;
  };
  Game game;
  for (int ply = 0; ply < 40 && game.termination() == Termination::None; ++ply) {
    const Move best = play(game);
    ASSERT_TRUE(legal_moves(game.position()).contains(best)) << ply;
    game.play(best);
  }
  // Another game than the tree's, then a new game.
  const Game other(Position::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"));
  EXPECT_TRUE(legal_moves(other.position()).contains(play(other)));
  engine.new_game();
  EXPECT_TRUE(legal_moves(Position::start()).contains(play(Game())));
}

// N5: the tree a long search grew is given back by ucinewgame, Clear Hash and a smaller Hash
// (2b8a4ef emptied it and kept its memory: about 3.5 x Hash after a long analysis).
TEST(Engine, TheTreesMemoryIsReleasedByNewGameClearHashAndANewHash) {
  Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  Settings settings = engine.settings();
  settings.engine.params.mode = search::SearchMode::Puct;
  settings.engine.hash_mb = 8;
  engine.configure(settings);
  const auto search = [&engine] {
    GoRequest request;
    request.nodes = 2000;
    engine.go(request, {});
    engine.wait();
    return engine.tree_bytes();
  };
  EXPECT_GT(search(), 100000u);
  engine.new_game();
  EXPECT_EQ(engine.tree_bytes(), 0u);
  EXPECT_GT(search(), 100000u);
  engine.clear_hash();
  EXPECT_EQ(engine.tree_bytes(), 0u);
  EXPECT_GT(search(), 100000u);
  settings.engine.hash_mb = 4;
  engine.configure(settings);
  EXPECT_EQ(engine.tree_bytes(), 0u);
}

TEST(ThreadPlan, ThreadsPairUpOnEvaluationsAndAnOddOneSearchesAlone) {
  const auto plan = [](int threads) {
    const search::ThreadPlan p = search::thread_plan(threads);
    return std::pair{p.searching, p.split_evaluations};
  };
  EXPECT_EQ(plan(1), std::pair(1, 0));
  EXPECT_EQ(plan(2), std::pair(1, 1));
  EXPECT_EQ(plan(3), std::pair(2, 1));
  EXPECT_EQ(plan(4), std::pair(2, 2));
  EXPECT_EQ(plan(7), std::pair(4, 3));
  EXPECT_EQ(plan(256), std::pair(128, 128));
}

}  // namespace
}  // namespace avocet::engine
