// Tablebases at the root and in the search, on the committed fixture tables.
#include "avocet/search/tablebase_root.h"

#include <gtest/gtest.h>

#include <memory>

#include "../test_data.h"
#include "avocet/chess/game.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/engine/engine.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/probability_search.h"
#include "avocet/search/value.h"

namespace avocet::search {
namespace {

engine::EngineCallbacks on_bestmove(std::function<void(Move, Move)> callback) {
  engine::EngineCallbacks callbacks;
  callbacks.on_bestmove = std::move(callback);
  return callbacks;
}

using syzygy::Wdl;

std::shared_ptr<const syzygy::Tablebases> fixture_tables() {
  static const auto tables =
      std::make_shared<const syzygy::Tablebases>(testing::data_path("syzygy"));
  return tables;
}

std::vector<TablebaseMove> rank(const char* fen, bool rule50 = true, int limit = 7) {
  const Position pos = Position::from_fen(fen);
  return rank_root_moves(pos, pos.halfmove_clock(), *fixture_tables(), rule50, limit);
}

// Every move's entry agrees with the tables' DTZ of the position after it, and the first is
// a win with the smallest DTZ, equal to the root's own DTZ.
void expect_dtz_minimal_win(const char* fen) {
  const Position pos = Position::from_fen(fen);
  const auto ranked = rank(fen);
  ASSERT_EQ(ranked.size(), legal_moves(pos).size()) << fen;
  ASSERT_EQ(ranked.front().wdl, Wdl::Win) << fen;
  ASSERT_TRUE(ranked.front().dtz);
  EXPECT_EQ(*ranked.front().dtz, *fixture_tables()->probe_dtz(pos)) << fen;
  for (const TablebaseMove& t : ranked) {
    ASSERT_TRUE(t.dtz);
    if (t.wdl == Wdl::Win) {
      EXPECT_GE(*t.dtz, *ranked.front().dtz) << to_uci(t.move);
    }
    Position child = pos;
    child.play(t.move);
    if (child.halfmove_clock() == 0 || !has_legal_move(child)) continue;
    const int child_dtz = *fixture_tables()->probe_dtz(child);
    EXPECT_EQ(*t.dtz, -child_dtz + (child_dtz < 0) - (child_dtz > 0)) << to_uci(t.move);
  }
  EXPECT_EQ(best_group(ranked).front().move, ranked.front().move);
}

TEST(TablebaseRoot, KRvKPicksAWinningDtzMinimalMove) {
  expect_dtz_minimal_win("8/8/8/8/8/2k5/8/KR6 w - - 0 1");
  expect_dtz_minimal_win("8/8/3k4/8/8/8/8/R3K3 w - - 0 1");
  const auto ranked = rank("8/8/8/8/8/2k5/8/KR6 w - - 0 1");
  EXPECT_EQ(to_uci(ranked.front().move), "b1d1");
  EXPECT_EQ(*ranked.front().dtz, 27);
  // Rb3+ and Rb4+ hang the rook: draws, ranked last.
  EXPECT_EQ(ranked.back().wdl, Wdl::Draw);
}

TEST(TablebaseRoot, KQvKPicksAWinningDtzMinimalMoveAndMateFirst) {
  expect_dtz_minimal_win("8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
  // Qh8 mates at once: DTZ 1.
  const auto ranked = rank("k7/8/1K6/8/8/8/7Q/8 w - - 0 1");
  EXPECT_EQ(ranked.front().wdl, Wdl::Win);
  EXPECT_EQ(*ranked.front().dtz, 1);
  Position pos = Position::from_fen("k7/8/1K6/8/8/8/7Q/8 w - - 0 1");
  pos.play(ranked.front().move);
  EXPECT_TRUE(pos.in_check() && !has_legal_move(pos));
}

TEST(TablebaseRoot, LosingSideResistsLongest) {
  const char* fen = "8/8/8/8/8/2k5/8/KQ6 b - - 0 1";
  const auto ranked = rank(fen);
  ASSERT_FALSE(ranked.empty());
  for (const TablebaseMove& t : ranked) EXPECT_EQ(t.wdl, Wdl::Loss);
  EXPECT_EQ(*ranked.front().dtz, *fixture_tables()->probe_dtz(Position::from_fen(fen)));
  for (const TablebaseMove& t : ranked) EXPECT_GE(*t.dtz, *ranked.front().dtz);
}

TEST(TablebaseRoot, HalfmoveClockMakesALateWinCursed) {
  // DTZ 27 from a halfmove clock of 80: mate comes too late, so the win is cursed with the
  // 50-move rule and a win without it; from 73 it is just in time.
  const auto with_rule = rank("8/8/8/8/8/2k5/8/KR6 w - - 80 41");
  EXPECT_EQ(with_rule.front().wdl, Wdl::CursedWin);
  EXPECT_EQ(*with_rule.front().dtz, 27);
  const auto without_rule = rank("8/8/8/8/8/2k5/8/KR6 w - - 80 41", false);
  EXPECT_EQ(without_rule.front().wdl, Wdl::Win);
  EXPECT_EQ(rank("8/8/8/8/8/2k5/8/KR6 w - - 73 41").front().wdl, Wdl::Win);
}

TEST(TablebaseRoot, NotApplicable) {
  EXPECT_TRUE(rank("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").empty());          // castling rights
  EXPECT_TRUE(rank("8/8/8/8/8/2k5/8/KR6 w - - 0 1", true, 2).empty());  // probe limit
  EXPECT_TRUE(rank("8/8/8/8/8/2k5/8/KRB5 w - - 0 1").empty());          // no KRBvK table
  EXPECT_TRUE(rank("8/8/8/8/8/8/8/kQK5 b - - 0 1").empty());            // mated: no move
}

TEST(TablebaseRoot, WithoutDtzTablesRanksByWdl) {
  // KBNvK has only its WDL table among the fixtures.
  const auto ranked = rank("8/8/8/4k3/8/8/8/KBN5 w - - 0 1");
  ASSERT_FALSE(ranked.empty());
  EXPECT_EQ(ranked.front().wdl, Wdl::Win);
  for (const TablebaseMove& t : ranked) EXPECT_FALSE(t.dtz);
  EXPECT_GT(best_group(ranked).size(), 1u);
}

// Plays a game engine against engine from `fen`, both with the tables, and returns it.
Game play_out(const char* fen, int plies, bool with_tables = true) {
  engine::Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  engine::Settings settings = engine.settings();
  settings.engine.hash_mb = 8;
  engine.configure(settings);
  if (with_tables) engine.set_tablebases(fixture_tables());
  Game game(Position::from_fen(fen));
  for (int ply = 0; ply < plies && game.termination() == Termination::None; ++ply) {
    engine.set_game(game);
    Move best;
    engine::GoRequest request;
    request.nodes = 200;
    engine.go(request, on_bestmove([&](Move m, Move) { best = m; }));
    engine.wait();
    if (best.is_none()) break;
    game.play(best);
  }
  return game;
}

TEST(TablebaseEngine, KRvKGameConvertsToMate) {
  for (const char* fen : {"8/8/8/8/8/2k5/8/KR6 w - - 0 1", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
                          "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"}) {
    const Game game = play_out(fen, 100);
    EXPECT_TRUE(game.is_checkmate()) << fen << " after " << game.moves().size() << " plies";
    EXPECT_LE(game.moves().size(),
              size_t(2 * *fixture_tables()->probe_dtz(Position::from_fen(fen))))
        << fen;
  }
}

TEST(TablebaseEngine, WonPositionPlaysTheTablesMoveAndReportsIt) {
  engine::Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  engine.set_tablebases(fixture_tables());
  engine.set_game(Game(Position::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1")));
  std::vector<engine::SearchInfo> infos;
  Move best;
  engine::GoRequest request;
  request.nodes = 500;
  engine::EngineCallbacks callbacks = on_bestmove([&](Move m, Move) { best = m; });
  callbacks.on_info = [&](const engine::SearchInfo& i) { infos.push_back(i); };
  engine.go(request, std::move(callbacks));
  engine.wait();
  EXPECT_EQ(to_uci(best), "b1d1");
  ASSERT_FALSE(infos.empty());
  const RootLine& line = infos.back().report.lines.front();
  EXPECT_EQ(line.tablebase_wdl, 2);
  EXPECT_TRUE(is_tablebase_value(line.value));
  EXPECT_EQ(tablebase_plies(line.value), 27);
  EXPECT_GT(infos.back().report.tbhits, 0u);
}

TEST(TablebaseEngine, DrawnRootKeepsOnlyDrawingMoves) {
  // KRvKR: the move played is one of the best-ranked group.
  const char* fen = "8/8/8/8/8/2k5/1r6/KR6 b - - 0 1";
  const auto ranked = rank(fen);
  ASSERT_FALSE(ranked.empty());
  engine::Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  engine.set_tablebases(fixture_tables());
  engine.set_game(Game(Position::from_fen(fen)));
  Move best;
  engine::GoRequest request;
  request.nodes = 300;
  engine.go(request, on_bestmove([&](Move m, Move) { best = m; }));
  engine.wait();
  const auto group = best_group(ranked);
  EXPECT_TRUE(std::any_of(group.begin(), group.end(), [&](const TablebaseMove& t) {
    return t.move == best;
  })) << to_uci(best);
}

// In the search: a capture that reaches a won tablebase position scores as a tablebase win
// (and counts a tbhit), where the material evaluator sees only a pawn. The capture must leave
// more than a king and a queen or rook against a lone king: those endings are mates the
// search knows without tables (lone_king_mates.h).
TEST(TablebaseSearch, ProbesAfterCapturesAndCountsTbhits) {
  // White, in check, takes the rook on c6 (KPvKR -> KPvK, won: the pawn queens).
  const char* fen = "8/8/2r1K3/3P4/8/8/8/7k w - - 0 1";
  nn::MaterialEvaluator evaluator;
  TranspositionTable table(8);
  SearchControl control;
  control.node_limit = 300;
  ProbabilitySearcher searcher(evaluator, table, SearchParameters{}, control, 1,
                               TablebaseSettings{fixture_tables().get(), 7, true});
  const IterationReport report = searcher.run(Game(Position::from_fen(fen)), Limits{}, nullptr);
  EXPECT_EQ(to_uci(report.lines.front().move), "d5c6");
  EXPECT_TRUE(is_tablebase_value(report.lines.front().value)) << report.lines.front().value;
  EXPECT_GT(tablebase_plies(report.lines.front().value), 0);
  EXPECT_GT(report.tbhits, 0u);

  // Without tables: no tbhits.
  SearchControl plain;
  plain.node_limit = 300;
  TranspositionTable table2(8);
  ProbabilitySearcher without(evaluator, table2, SearchParameters{}, plain);
  EXPECT_EQ(without.run(Game(Position::from_fen(fen)), Limits{}, nullptr).tbhits, 0u);
}

TEST(TablebaseSearch, TablebaseValuesSitBetweenTheNetAndMates) {
  EXPECT_TRUE(is_tablebase_value(tablebase_win_value(0)));
  EXPECT_TRUE(is_tablebase_value(1.0f - tablebase_win_value(kTablebasePlies)));
  EXPECT_TRUE(is_mate_value(tablebase_win_value(kTablebasePlies)));
  EXPECT_FALSE(is_tablebase_value(1.0f - 150 * kMateStep));  // a mate in 75
  EXPECT_FALSE(is_tablebase_value(0.99f));
  EXPECT_GT(1.0f - 150 * kMateStep, tablebase_win_value(0));
  EXPECT_EQ(tablebase_plies(tablebase_win_value(7)), 7);
  EXPECT_EQ(tablebase_plies(1.0f - tablebase_win_value(7)), -7);
}

}  // namespace
}  // namespace avocet::search
