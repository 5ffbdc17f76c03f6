// Search on the deterministic material evaluator (no network).
#include "avocet/search/search.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/engine.h"

namespace avocet::search {
namespace {

struct Result {
  Move best;
  float value;
  uint64_t nodes;
  std::vector<Move> pv;
};

Result search_game(const Game& game, uint64_t nodes, bool mop_up = false) {
  nn::MaterialEvaluator evaluator(mop_up);
  TranspositionTable table(16);
  SearchControl control;
  control.node_limit = nodes;
  Searcher searcher(evaluator, table, SearchParameters{}, control);
  const IterationReport report = searcher.run(game, Limits{}, nullptr);
  return {report.lines.front().move, report.lines.front().value, control.nodes.load(),
          report.lines.front().pv};
}

Game after(const char* fen, std::initializer_list<const char*> moves) {
  Game game(Position::from_fen(fen));
  for (const char* m : moves) game.play(parse_uci(game.position(), m));
  return game;
}

TEST(Search, FindsMateInTwo) {
  // Lichess 000hf after ...Kxf7: Qe6+ Kf8 Qf7#.
  const Game game =
      after("r1bqk2r/pp1nbNp1/2p1p2p/8/2BP4/1PN3P1/P3QP1P/3R1RK1 b kq - 0 19", {"e8f7"});
  const Result r = search_game(game, 20000);
  EXPECT_EQ(to_uci(r.best), "e2e6");
  ASSERT_TRUE(is_mate_value(r.value));
  EXPECT_EQ(mate_in_moves(r.value), 2);
}

TEST(Search, FindsMateInThreeBySacrifice) {
  // After Qxc7: ...Qxf2+ Rxf2 Re1+ Rf1 Rxf1#, starting with a queen sacrifice.
  const Game game = after("4rr1k/pQpn2pp/3p1q2/8/8/2P5/PP3PPP/RN3RK1 w - - 1 16", {"b7c7"});
  const Result r = search_game(game, 60000);
  EXPECT_EQ(to_uci(r.best), "f6f2");
  ASSERT_TRUE(is_mate_value(r.value));
  EXPECT_EQ(mate_in_moves(r.value), 3);
}

TEST(Search, MatedSideSeesNegativeMate) {
  // ...Kb8 (forced) Rh8#.
  const Game game = after("k7/8/1K6/8/8/8/8/7R b - - 0 1", {});
  const Result r = search_game(game, 5000);
  ASSERT_TRUE(is_mate_value(r.value));
  EXPECT_EQ(mate_in_moves(r.value), -1);
}

TEST(Search, SameNodeCountEveryRun) {
  const Game game(
      Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
  const Result a = search_game(game, 3000), b = search_game(game, 3000);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.nodes, b.nodes);
}

TEST(Search, ConvertsKingAndQueenAgainstKing) {
  Game game(Position::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"));
  for (int ply = 0; ply < 120 && game.termination() == Termination::None; ++ply)
    game.play(search_game(game, 4000, true).best);
  EXPECT_EQ(game.termination(), Termination::Checkmate) << game.position().fen();
  EXPECT_EQ(game.position().side_to_move(), Color::Black);
}

// Black, a queen down, steers into a repeated position (a draw); White, winning, avoids it.
TEST(Search, ClaimsRepetitionWhenLosingAndAvoidsItWhenWinning) {
  const Game losing = after("6k1/8/8/8/8/8/8/1Q4K1 b - - 0 1", {"g8h8", "b1c1", "h8g8", "c1b1"});
  const Result claim = search_game(losing, 3000);
  EXPECT_EQ(to_uci(claim.best), "g8h8");
  // The line stops at the repetition: GUIs reject a PV that goes on after a threefold.
  ASSERT_EQ(claim.pv.size(), 1u);

  const Game winning = after("6k1/8/8/8/8/8/8/1Q4K1 w - - 0 1", {"b1c1", "g8h8", "c1b1", "h8g8"});
  const Result r = search_game(winning, 3000);
  EXPECT_NE(to_uci(r.best), "b1c1");
  EXPECT_GT(r.value, 0.9f);
}

TEST(Search, SearchmovesRestrictTheRoot) {
  const Game game(Position::start());
  nn::MaterialEvaluator evaluator;
  TranspositionTable table(1);
  SearchControl control;
  control.node_limit = 500;
  Searcher searcher(evaluator, table, SearchParameters{}, control);
  Limits limits;
  limits.searchmoves = {parse_uci(game.position(), "a2a3"), parse_uci(game.position(), "h2h4")};
  const IterationReport report = searcher.run(game, limits, nullptr);
  ASSERT_EQ(report.lines.size(), 2u);
  EXPECT_TRUE(report.lines[0].move == limits.searchmoves[0] ||
              report.lines[0].move == limits.searchmoves[1]);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AVOCET_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define AVOCET_ASAN 1
#endif

TEST(TranspositionTable, FailedResizeLeavesAUsableTable) {
#ifdef AVOCET_ASAN
  GTEST_SKIP() << "AddressSanitizer's operator new aborts instead of throwing std::bad_alloc";
#endif
  TranspositionTable table(1);
  EXPECT_EQ(table.megabytes(), 1u);
  // A petabyte: no machine gives it, so the allocation fails cleanly.
  EXPECT_THROW(
      {
        try {
          table.resize(size_t(1) << 30);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "cannot allocate 1073741824 MB for the hash table");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(table.megabytes(), 0u);
  EXPECT_GT(table.capacity(), 0u);
  const std::array<Move, 1> moves{parse_uci(Position::start(), "e2e4")};
  const std::array<float, 1> stored{0.5f};
  table.store_values(42, moves, stored);
  std::array<float, 1> read{};
  EXPECT_TRUE(table.probe_values(42, moves, read));
  EXPECT_NEAR(read[0], 0.5f, 1e-4);
  table.resize(2);
  EXPECT_EQ(table.megabytes(), 2u);
}

// Memory stays at Hash plus the net: no default-sized table is allocated before the GUI's
// Hash arrives, whatever order the options come in.
TEST(Engine, HashTableIsSizedOnceByTheOptionsOrTheFirstGo) {
  Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  EXPECT_EQ(engine.hash_megabytes(), 0u);
  EngineOptions options = engine.options();
  options.threads = 2;
  engine.set_options(options);
  EXPECT_EQ(engine.hash_megabytes(), 0u);
  options.hash_mb = 8;
  engine.set_options(options);
  EXPECT_EQ(engine.hash_megabytes(), 8u);
  GoRequest request;
  request.nodes = 20;
  engine.go(request, {});
  engine.wait();
  EXPECT_EQ(engine.hash_megabytes(), 8u);

  Engine fresh([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  fresh.go(request, {});
  fresh.wait();
  EXPECT_EQ(fresh.hash_megabytes(), size_t(EngineOptions{}.hash_mb));
}

}  // namespace
}  // namespace avocet::search
