#include "avocet/suites/puzzles.h"

#include <gtest/gtest.h>

#include <fstream>

#include "../test_data.h"
#include "avocet/chess/move_text.h"

namespace avocet::suites {
namespace {

TEST(Puzzles, ParsesTheSampleRows) {
  std::ifstream file(testing::data_path("puzzles_sample.csv"));
  int rows = 0;
  for (std::string line; std::getline(file, line); ++rows) {
    const Puzzle p = parse_puzzle_row(line);
    EXPECT_GE(p.moves.size(), 2u);
    EXPECT_GT(p.rating, 0);
  }
  EXPECT_EQ(rows, 5);
  EXPECT_TRUE(is_puzzle_header("PuzzleId,FEN,Moves,Rating,RatingDeviation"));
}

TEST(Puzzles, MalformedRowsNameTheFault) {
  struct Case {
    const char* row;
    const char* message;
  };
  const Case cases[] = {
      {"", "expected at least 4 fields (PuzzleId,FEN,Moves,Rating), got 1"},
      {"a,b,c", "expected at least 4 fields (PuzzleId,FEN,Moves,Rating), got 3"},
      {",8/8/8/4k3/8/8/8/4K3 w - - 0 1,e1e2 e5e4,1500", "empty PuzzleId"},
      {"x1,8/8/8 w - - 0 1,e1e2 e5e4,1500",
       "puzzle x1: bad FEN: piece placement has 3 ranks; expected 8 separated by '/'"},
      {"x2,8/8/8/4k3/8/8/8/4K3 w - - 0 1,e1e3 e5e4,1500",
       "puzzle x2: bad move: illegal move 'e1e3' in position 8/8/8/4k3/8/8/8/4K3 w - - 0 1"},
      {"x3,8/8/8/4k3/8/8/8/4K3 w - - 0 1,e1e2,1500",
       "puzzle x3: Moves needs the opponent's move and at least one reply, got 1"},
      {"x4,8/8/8/4k3/8/8/8/4K3 w - - 0 1,e1e2 e5e4,high", "puzzle x4: bad Rating 'high'"},
  };
  for (const Case& c : cases) {
    try {
      parse_puzzle_row(c.row);
      ADD_FAILURE() << "accepted: " << c.row;
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(), c.message);
    }
  }
}

TEST(Puzzles, SolvingFollowsChessBenchRules) {
  // White plays Ra1-a2?? (the opponent's move); Black must find ...Rb1# (any mate counts).
  const Puzzle p = parse_puzzle_row("m1,1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1,a1a2 b8b1,1200");
  const auto pick = [](const char* uci) {
    return [uci](const Game& g) { return parse_uci(g.position(), uci); };
  };
  EXPECT_TRUE(solve_puzzle(p, pick("b8b1")).solved);
  const PuzzleResult wrong = solve_puzzle(p, pick("b8b2"));
  EXPECT_FALSE(wrong.solved);
  EXPECT_EQ(wrong.first_mistake, "b8b2");
  EXPECT_EQ(rating_bucket(999), 0);
  EXPECT_EQ(rating_bucket(1000), 1);
  EXPECT_EQ(rating_bucket(2499), 3);
  EXPECT_EQ(rating_bucket(2500), 4);
}

}  // namespace
}  // namespace avocet::suites
