#include "avocet/suites/puzzles.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

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
  EXPECT_EQ(wrong.played, "b8b2");
  EXPECT_EQ(wrong.expected, "b8b1");
  EXPECT_EQ(wrong.mistake_fen, "1r4k1/5ppp/8/8/8/8/R4PPP/6K1 b - - 1 1");
  EXPECT_EQ(solve_puzzle(p, [](const Game&) { return Move::none(); }).played, "0000");
  EXPECT_EQ(solver_moves(p), 1);
  EXPECT_EQ(rating_bucket(999), 0);
  EXPECT_EQ(rating_bucket(1000), 1);
  EXPECT_EQ(rating_bucket(2499), 3);
  EXPECT_EQ(rating_bucket(2500), 4);
}

// The Themes column is the 8th; rows that stop before it have none.
TEST(Puzzles, ParsesTheThemesColumn) {
  std::ifstream file(testing::data_path("puzzles_sample.csv"));
  std::string line;
  std::getline(file, line);
  EXPECT_EQ(parse_puzzle_row(line).themes,
            (std::vector<std::string>{"crushing", "hangingPiece", "long", "middlegame"}));
  EXPECT_TRUE(
      parse_puzzle_row("m1,1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1,a1a2 b8b1,1200").themes.empty());
  EXPECT_TRUE(
      parse_puzzle_row("m1,1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1,a1a2 b8b1,1200,1,2,3,,url")
          .themes.empty());
}

std::vector<Puzzle> numbered_puzzles(int count) {
  std::vector<Puzzle> puzzles;
  for (int i = 0; i < count; ++i) {
    Puzzle p;
    p.id = fmt::format("p{:03d}", i);
    p.rating = 1000 + i;
    puzzles.push_back(p);
  }
  return puzzles;
}

std::vector<std::string> ids(const std::vector<Puzzle>& puzzles) {
  std::vector<std::string> result;
  for (const Puzzle& p : puzzles) result.push_back(p.id);
  return result;
}

TEST(Puzzles, OffsetAndLimitTakeTheFirstInFileOrder) {
  PuzzleSelection selection;
  selection.offset = 2;
  selection.limit = 3;
  EXPECT_EQ(ids(select_puzzles(numbered_puzzles(10), selection)),
            (std::vector<std::string>{"p002", "p003", "p004"}));
  selection.offset = 8;
  EXPECT_EQ(ids(select_puzzles(numbered_puzzles(10), selection)),
            (std::vector<std::string>{"p008", "p009"}));
  selection.offset = 10;
  EXPECT_TRUE(select_puzzles(numbered_puzzles(10), selection).empty());
  EXPECT_TRUE(selection.in_rating_range(0) && selection.in_rating_range(kMaxPuzzleRating));
  selection.min_rating = 1500;
  EXPECT_FALSE(selection.in_rating_range(1499));
}

// A sample is reproducible, of the size asked, in file order, depends on the seed, and does
// not depend on where the puzzles are in the file.
TEST(Puzzles, SeededSampleIsUniformAndReproducible) {
  PuzzleSelection selection;
  selection.sample = 50;
  selection.seed = 1;
  const std::vector<std::string> sample = ids(select_puzzles(numbered_puzzles(500), selection));
  ASSERT_EQ(sample.size(), 50u);
  EXPECT_TRUE(std::is_sorted(sample.begin(), sample.end()));
  EXPECT_EQ(ids(select_puzzles(numbered_puzzles(500), selection)), sample);
  std::vector<Puzzle> reversed = numbered_puzzles(500);
  std::reverse(reversed.begin(), reversed.end());
  std::vector<std::string> from_reversed = ids(select_puzzles(reversed, selection));
  std::sort(from_reversed.begin(), from_reversed.end());
  EXPECT_EQ(from_reversed, sample);
  selection.seed = 2;
  EXPECT_NE(ids(select_puzzles(numbered_puzzles(500), selection)), sample);
  // Not the first 50: a sample spreads over the whole file (here, over every fifth of it).
  std::set<int> fifths;
  for (const std::string& id : sample) fifths.insert(std::stoi(id.substr(1)) / 100);
  EXPECT_EQ(fifths.size(), 5u);
  // A sample larger than the file takes the whole file.
  selection.sample = 900;
  EXPECT_EQ(select_puzzles(numbered_puzzles(500), selection).size(), 500u);
  selection.limit = 3;
  EXPECT_THROW(select_puzzles(numbered_puzzles(5), selection), std::invalid_argument);
}

TEST(Puzzles, SummaryCountsEachThemeByRating) {
  PuzzleSummary summary;
  Puzzle fork;
  fork.rating = 900;
  fork.themes = {"fork", "short"};
  Puzzle mate;
  mate.rating = 2600;
  mate.themes = {"mateIn1", "short"};
  summary.add(fork, true);
  summary.add(mate, false);
  summary.add(fork, false);
  EXPECT_EQ(summary.all.overall.total, 3);
  EXPECT_EQ(summary.all.overall.solved, 1);
  EXPECT_EQ(summary.all.by_rating[0].total, 2);
  EXPECT_EQ(summary.all.by_rating[4].total, 1);
  EXPECT_EQ(summary.by_theme.size(), 3u);
  EXPECT_EQ(summary.by_theme["short"].overall.total, 3);
  EXPECT_EQ(summary.by_theme["fork"].overall.solved, 1);
  EXPECT_EQ(summary.by_theme["fork"].by_rating[0].total, 2);
  EXPECT_EQ(summary.by_theme["mateIn1"].by_rating[4].solved, 0);
  EXPECT_EQ(summary.by_theme["mateIn1"].by_rating[4].total, 1);
  EXPECT_EQ(summary.by_theme["mateIn1"].by_rating[0].total, 0);
}

}  // namespace
}  // namespace avocet::suites
