#include "avocet/chess/perft.h"

#include <gtest/gtest.h>

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

// Positions from random play, counted by Stockfish 15.1 (tools/make_perft_fixture.py).
TEST(Perft, RandomPositionsMatchStockfish) { check_suite("perft_random.epd", 500); }

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
