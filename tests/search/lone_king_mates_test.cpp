// Lone-king mates (search/lone_king_mates.h): the known longest mates, agreement with the Syzygy
// tables on sampled positions, and the engine playing the shortest mate without tables.
#include "avocet/search/lone_king_mates.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>

#include "../test_data.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/engine/engine.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/syzygy/tablebase.h"

namespace avocet::search {
namespace {

TEST(LoneKingMates, TheLongestMatesAreTheKnownOnes) {
  EXPECT_EQ(longest_lone_king_mate(PieceType::Queen), 19);  // mate in 10
  EXPECT_EQ(longest_lone_king_mate(PieceType::Rook), 31);   // mate in 16
}

// Random placements of each ending, either side to move: a mate exactly where the tables say
// the strong side wins, and its distance within a ply of the tables' DTZ (no zeroing move
// comes before the mate in these endings, so DTZ counts to the mate, rounded to moves where a
// table stores moves).
TEST(LoneKingMates, AgreeWithTheSyzygyTables) {
  const syzygy::Tablebases tables(testing::data_path("syzygy"));
  std::mt19937 random(7);
  int checked = 0;
  for (const char piece : {'Q', 'R'})
    for (int trial = 0; trial < 4000; ++trial) {
      std::string board(64, '1');
      const int squares[3] = {int(random() % 64), int(random() % 64), int(random() % 64)};
      if (squares[0] == squares[1] || squares[0] == squares[2] || squares[1] == squares[2])
        continue;
      board[size_t(squares[0])] = 'K';
      board[size_t(squares[1])] = piece;
      board[size_t(squares[2])] = 'k';
      std::string fen;
      for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
          const char c = board[size_t(rank * 8 + file)];
          if (c == '1') {
            ++empty;
            continue;
          }
          if (empty) fen += char('0' + empty), empty = 0;
          fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
      }
      fen += random() % 2 ? " w - - 0 1" : " b - - 0 1";
      Position pos;
      try {
        pos = Position::from_fen(fen);  // refused: kings touching, or the side not to move in check
      } catch (const std::exception&) {
        continue;
      }
      if (legal_moves(pos).empty()) continue;  // mate or stalemate: the rules' part
      const auto wdl = tables.probe_wdl(pos);
      const auto dtz = tables.probe_dtz(pos);
      ASSERT_TRUE(wdl && dtz) << fen;
      const std::optional<int> plies = lone_king_mate_plies(pos);
      if (*wdl == syzygy::Wdl::Draw) {
        EXPECT_FALSE(plies) << fen;
        continue;
      }
      ASSERT_TRUE(plies) << fen;
      EXPECT_EQ(*plies > 0, *wdl == syzygy::Wdl::Win) << fen;
      EXPECT_LE(std::abs(std::abs(*plies) - std::abs(*dtz)), 1) << fen << " dtz " << *dtz;
      ++checked;
    }
  EXPECT_GT(checked, 3000);
}

// The engine without tables, from several positions of each ending: every move keeps the mate
// one ply shorter, and the game ends in mate within the distance promised.
TEST(LoneKingMates, TheEnginePlaysTheShortestMateWithoutTables) {
  for (const char* fen : {"8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "8/8/8/3k4/8/8/8/K6R w - - 0 1",
                          "k7/8/8/8/8/8/8/6RK w - - 0 1", "8/8/8/8/3k4/8/8/Q3K3 b - - 0 1"}) {
    engine::Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
    Game game(Position::from_fen(fen));
    const std::optional<int> start = lone_king_mate_plies(game.position());
    ASSERT_TRUE(start) << fen;
    int plies = std::abs(*start);
    while (!legal_moves(game.position()).empty()) {
      ASSERT_GT(plies, 0) << fen;
      engine.set_game(game);
      Move best;
      engine::EngineCallbacks callbacks;
      callbacks.on_bestmove = [&best](Move m, Move) { best = m; };
      engine::GoRequest request;
      request.nodes = 200;
      engine.go(request, std::move(callbacks));
      engine.wait();
      game.play(best);
      const std::optional<int> now = lone_king_mate_plies(game.position());
      ASSERT_TRUE(now) << fen << " after " << to_uci(best);
      EXPECT_EQ(std::abs(*now), plies - 1) << fen << " after " << to_uci(best);
      plies = std::abs(*now);
    }
    EXPECT_FALSE(game.position().checkers().empty()) << fen << ": mate, not stalemate";
  }
}

}  // namespace
}  // namespace avocet::search
