#include "avocet/chess/game.h"

#include <gtest/gtest.h>

#include "avocet/chess/move_text.h"

namespace avocet {
namespace {

void play(Game& game, std::initializer_list<const char*> moves) {
  for (const char* m : moves) game.play(parse_uci(game.position(), m));
}

TEST(Game, Checkmate) {
  Game game;
  play(game, {"f2f3", "e7e5", "g2g4", "d8h4"});
  EXPECT_TRUE(game.is_checkmate());
  EXPECT_EQ(game.termination(), Termination::Checkmate);
}

TEST(Game, Stalemate) {
  Game game(Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
  EXPECT_EQ(game.termination(), Termination::Stalemate);
}

TEST(Game, InsufficientMaterial) {
  for (const char* fen : {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", "8/8/8/4k3/8/8/8/4KN2 w - - 0 1",
                          "8/8/8/4k3/8/8/8/4KB2 w - - 0 1", "8/8/4b3/4k3/8/8/8/3BK3 w - - 0 1",
                          "8/8/8/4k3/8/8/8/3BKB2 w - - 0 1"})
    EXPECT_TRUE(is_insufficient_material(Position::from_fen(fen))) << fen;
  for (const char* fen : {"8/8/8/4k3/8/8/5P2/4K3 w - - 0 1", "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1",
                          "8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", "8/8/3b4/4k3/8/8/8/3BK3 w - - 0 1",
                          "8/8/8/4k3/8/8/8/2N1K1r1 w - - 0 1", "8/8/8/4k3/8/8/8/4KR2 w - - 0 1"})
    EXPECT_FALSE(is_insufficient_material(Position::from_fen(fen))) << fen;
  EXPECT_EQ(Game(Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1")).termination(),
            Termination::InsufficientMaterial);
}

TEST(Game, FiftyAndSeventyFiveMoveRules) {
  EXPECT_EQ(Game(Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 99 80")).termination(),
            Termination::None);
  EXPECT_EQ(Game(Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 100 80")).termination(),
            Termination::FiftyMoves);
  EXPECT_EQ(Game(Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 150 80")).forced_termination(),
            Termination::SeventyFiveMoves);
  // Checkmate on the 100th ply is still checkmate.
  EXPECT_EQ(Game(Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80")).termination(),
            Termination::Checkmate);
}

TEST(Game, ThreefoldAndFivefoldRepetition) {
  Game game;
  EXPECT_EQ(game.repetition_count(), 1);
  const auto shuffle = {"g1f3", "g8f6", "f3g1", "f6g8"};
  play(game, shuffle);
  EXPECT_EQ(game.repetition_count(), 2);
  EXPECT_EQ(game.termination(), Termination::None);
  play(game, shuffle);
  EXPECT_EQ(game.repetition_count(), 3);
  EXPECT_EQ(game.termination(), Termination::ThreefoldRepetition);
  EXPECT_EQ(game.forced_termination(), Termination::None);
  play(game, shuffle);
  play(game, shuffle);
  EXPECT_EQ(game.repetition_count(), 5);
  EXPECT_EQ(game.forced_termination(), Termination::FivefoldRepetition);
  ASSERT_TRUE(game.undo());
  EXPECT_EQ(game.repetition_count(), 4);
}

TEST(Game, LostCastlingRightsMakeADifferentPosition) {
  Game game;
  // The king walks out and back: same squares, but castling rights are gone.
  play(game, {"e2e4", "e7e5", "e1e2", "e8e7", "e2e1", "e7e8"});
  EXPECT_EQ(game.repetition_count(), 1);
  play(game, {"e1e2", "e8e7", "e2e1", "e7e8"});
  EXPECT_EQ(game.repetition_count(), 2);
}

TEST(Game, PawnMoveResetsTheRepetitionWindow) {
  Game game;
  play(game, {"g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5"});
  EXPECT_EQ(game.repetition_count(), 1);
  EXPECT_FALSE(Game().undo());
}

}  // namespace
}  // namespace avocet
