#include "avocet/chess/perft.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/chess/move_text.h"

namespace avocet {
namespace {

// Depths whose count is at most this many nodes run in the suite; every depth runs with
// `avocet perft --suite ../shared/data/perft/perft.epd`.
constexpr uint64_t kNodeBudget = 3'000'000;

TEST(Perft, StartPosition) {
  const Position start = Position::start();
  EXPECT_EQ(perft(start, 0), 1u);
  EXPECT_EQ(perft(start, 1), 20u);
  EXPECT_EQ(perft(start, 2), 400u);
  EXPECT_EQ(perft(start, 3), 8902u);
  EXPECT_EQ(perft(start, 4), 197281u);
  EXPECT_EQ(perft(start, 5), 4865609u);
}

TEST(Perft, Kiwipete) {
  const Position pos =
      Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(perft(pos, 1), 48u);
  EXPECT_EQ(perft(pos, 2), 2039u);
  EXPECT_EQ(perft(pos, 3), 97862u);
  EXPECT_EQ(perft(pos, 4), 4085603u);
}

TEST(Perft, DivideSumsToTotalInUciOrder) {
  const auto divisions = perft_divide(Position::start(), 3);
  ASSERT_EQ(divisions.size(), 20u);
  EXPECT_EQ(to_uci(divisions.front().move), "a2a3");
  uint64_t total = 0;
  for (const auto& d : divisions) total += d.nodes;
  EXPECT_EQ(total, 8902u);
}

void check_suite(const std::string& file, size_t expected_positions) {
  const auto cases = testing::read_perft_file(file);
  ASSERT_EQ(cases.size(), expected_positions);
  int checked = 0;
  for (const auto& c : cases) {
    const Position pos = Position::from_fen(c.fen);
    for (const auto& [depth, nodes] : c.counts) {
      if (nodes > kNodeBudget) continue;
      EXPECT_EQ(perft(pos, depth), nodes) << c.fen << " depth " << depth;
      ++checked;
    }
  }
  EXPECT_GE(checked, int(expected_positions));
}

// ../shared/data/perft/perft.epd, committed as a fixture.
TEST(Perft, SuiteWithinBudget) { check_suite("perft.epd", 174); }

// Positions from random play, counted by Stockfish 15.1 (tools/fixtures/make_perft_fixture.py).
TEST(Perft, RandomPositionsMatchStockfish) { check_suite("perft_random.epd", 500); }

// Chess960: 16 positions of the chessprogramming wiki's Chess960 perft list (python-chess's
// chess960.perft), 11 castling cases (a pinned castling rook, king or rook that stays put,
// king and rook swapping squares, an inner castling rook) and 5 start positions (Scharnagl
// numbers 0, 1, 400, 700, 959), depths 1 to 5; every count agrees with Stockfish 15.1 with
// UCI_Chess960 on.
TEST(Perft, Chess960) { check_suite("perft_chess960.epd", 32); }

// With king b1 and rook a1, castling (king to c1, rook to d1) and the king's step to c1 would
// both be b1c1 in standard text: in Chess960 text castling is b1a1.
TEST(Perft, Chess960DivideWritesCastlingAsKingTakesRook) {
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
  std::vector<std::string> texts;
  for (const auto& d : perft_divide(pos, 1, true)) texts.push_back(to_uci(d.move, true));
  EXPECT_TRUE(std::is_sorted(texts.begin(), texts.end()));
  EXPECT_EQ(texts, (std::vector<std::string>{"a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8",
                                             "b1a1", "b1a2", "b1b2", "b1c1", "b1c2"}));
}

}  // namespace
}  // namespace avocet

namespace avocet {
namespace {

TEST(PerftSuiteLine, Parses) {
  const PerftSuiteEntry e = parse_perft_suite_line("8/8/8/4k3/8/8/8/4K3 w - - 0 1; D1 5; D2 25 ");
  EXPECT_EQ(e.fen, "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
  ASSERT_EQ(e.counts.size(), 2u);
  EXPECT_EQ(e.counts[1], std::make_pair(2, uint64_t{25}));
}

TEST(PerftSuiteLine, RejectsMalformed) {
  for (const char* line : {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", "fen; X1 5", "fen; D1 five", "fen; D 5",
                           "fen; D0 1", "fen; D1"})
    EXPECT_THROW(parse_perft_suite_line(line), std::invalid_argument) << line;
}

}  // namespace
}  // namespace avocet
