#include "avocet/chess/movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "../test_data.h"
#include "avocet/chess/move_text.h"

namespace avocet {
namespace {

std::set<std::string> uci_moves(const std::string& fen, bool chess960 = false) {
  std::set<std::string> moves;
  for (Move m : legal_moves(Position::from_fen(fen))) moves.insert(to_uci(m, chess960));
  return moves;
}

// The FEN after playing `move` (Chess960 text) in `fen`.
std::string after(const std::string& fen, const std::string& move) {
  Position pos = Position::from_fen(fen);
  pos.play(parse_uci(pos, move, true));
  EXPECT_EQ(pos.key(), pos.compute_key()) << fen << " " << move;
  return pos.fen();
}

TEST(MoveGen, StartPosition) {
  EXPECT_EQ(legal_moves(Position::start()).size(), 20u);
  EXPECT_TRUE(uci_moves(std::string(kStartFen)).contains("g1f3"));
}

TEST(MoveGen, EnPassantThatWouldExposeTheKingIsIllegal) {
  // After d2d4 the black pawn on e4 may not take: the fourth rank would open to the queen.
  Position pos = Position::from_fen("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1");
  pos.play(parse_uci(pos, "d2d4"));
  EXPECT_EQ(pos.en_passant_square(), Square::None);
  // Exactly the king's five steps and the push: no e4d3, and no empty list passing for one.
  EXPECT_EQ(uci_moves(pos.fen()),
            (std::set<std::string>{"a4a3", "a4a5", "a4b3", "a4b4", "a4b5", "e4e3"}));
}

TEST(MoveGen, CapturedTypeCountsEnPassantButNotCastling) {
  // Castling is stored as the king taking its own rook, and en passant lands on an empty
  // square: the two moves a look at the destination square gets wrong.
  const Position pos = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
  const auto captured = [&](const char* uci) { return pos.captured_type(parse_uci(pos, uci)); };
  EXPECT_EQ(captured("e5d6"), PieceType::Pawn);
  EXPECT_EQ(captured("a1a8"), PieceType::Rook);
  EXPECT_EQ(captured("e1g1"), PieceType::None);
  EXPECT_EQ(captured("e1c1"), PieceType::None);
  EXPECT_EQ(captured("e5e6"), PieceType::None);
  EXPECT_TRUE(pos.is_capture(parse_uci(pos, "e5d6")));
  EXPECT_FALSE(pos.is_capture(parse_uci(pos, "e1g1")));
}

TEST(MoveGen, EnPassantCapturesTheCheckingPawn) {
  // d7d5+ gives check to the king on e4; exd6 removes the checker (and is the only capture).
  const auto moves = uci_moves("8/8/8/3pP3/4K3/8/8/7k w - d6 0 1");
  EXPECT_TRUE(moves.contains("e5d6"));
}

TEST(MoveGen, CastlingThroughOrOutOfCheckIsIllegal) {
  const auto through = uci_moves("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
  EXPECT_FALSE(through.contains("e1g1"));
  EXPECT_TRUE(through.contains("e1c1"));
  const auto out_of = uci_moves("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
  EXPECT_FALSE(out_of.contains("e1g1"));
  EXPECT_FALSE(out_of.contains("e1c1"));
  // b1 attacked does not stop O-O-O: the king never crosses it.
  const auto b_file = uci_moves("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_TRUE(b_file.contains("e1c1"));
  EXPECT_TRUE(b_file.contains("e1g1"));
  // A piece between king and rook blocks castling.
  EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1").contains("e1c1"));
}

// Chess960 castling: king and rook end on g1/f1 (c1/d1) wherever they start.
TEST(MoveGen, Chess960CastlingLandsOnTheStandardSquares) {
  // The king stays put; the rook stays put; king and rook swap squares.
  EXPECT_EQ(after("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  EXPECT_EQ(after("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  EXPECT_EQ(after("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  EXPECT_EQ(after("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1d1"), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
  // The king walks five files; the inner castling rook keeps the outer rook's right.
  EXPECT_EQ(after("4k3/8/8/8/8/8/8/1KR5 w C - 0 1", "b1c1"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  EXPECT_EQ(after("4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1", "e1b1"), "4k3/8/8/8/8/8/8/R1KR3R b - - 1 1");
  // Black castles too, and the other side keeps its rights.
  EXPECT_EQ(after("r1k3r1/8/8/8/8/8/8/R3K1R1 b GAga - 0 1", "c8a8"),
            "2kr2r1/8/8/8/8/8/8/R3K1R1 w KQ - 1 2");
}

TEST(MoveGen, Chess960CastlingNeedsEmptyPathsAndASafeKingPath) {
  // The rook b1 is pinned along the rank by the queen a1: once it has moved to d1, the king
  // on c1 would stand in check, though c1 is not attacked before castling.
  EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/qR1K4 w B - 0 1", true).contains("d1b1"));
  // The king's destination next to the rook it castles away from.
  EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/2K2R1q w F - 0 1", true).contains("c1f1"));
  // A piece on the king's path (f1), or only on the rook's path (d1), blocks.
  EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/1R3NK1 w B - 0 1", true).contains("g1b1"));
  EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1", true).contains("b1a1"));
  // A square only the rook crosses may be attacked.
  EXPECT_TRUE(uci_moves("1r2k3/8/8/8/8/8/8/R5K1 w A - 0 1", true).contains("g1a1"));
  // Every square the king crosses must be safe, however far it walks, the castling rook's
  // own square included.
  EXPECT_TRUE(uci_moves("4k3/8/8/8/8/8/8/1KR5 w C - 0 1", true).contains("b1c1"));
  EXPECT_FALSE(uci_moves("3rk3/8/8/8/8/8/8/1KR5 w C - 0 1", true).contains("b1c1"));
  EXPECT_FALSE(uci_moves("2r1k3/8/8/8/8/8/8/1KR5 w C - 0 1", true).contains("b1c1"));
  // No castling out of check, also when the king does not move.
  EXPECT_FALSE(uci_moves("4k1r1/8/8/8/8/8/8/6KR w H - 0 1", true).contains("g1h1"));
}

TEST(MoveGen, Chess960CastlingRightsFollowKingAndRooks) {
  const std::string fen = "rr2k2r/8/8/8/8/8/8/RR2K2R w HBhb - 0 1";
  // The castling rook moving loses its right only; the outer a1 rook never had one.
  EXPECT_EQ(after(fen, "b1b2"), "rr2k2r/8/8/8/8/8/1R6/R3K2R b Kkb - 1 1");
  // With a1 gone, b1 is the outermost rook: X-FEN writes its right as Q.
  EXPECT_EQ(after(fen, "a1a2"), "rr2k2r/8/8/8/8/8/R7/1R2K2R b KQkb - 1 1");
  // Capturing the castling rook on b8 takes black's right; the king's move takes both.
  EXPECT_EQ(after(fen, "b1b8"), "rR2k2r/8/8/8/8/8/8/R3K2R b Kk - 0 1");
  EXPECT_EQ(after(fen, "e1d1"), "rr2k2r/8/8/8/8/8/8/RR1K3R b kb - 1 1");
}

TEST(MoveGen, AllFourPromotions) {
  const auto moves = uci_moves("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
  for (const char* m : {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"})
    EXPECT_TRUE(moves.contains(m)) << m;
  EXPECT_FALSE(moves.contains("a7a8"));
}

TEST(MoveGen, DoubleCheckAllowsOnlyKingMoves) {
  // Rook e1 and bishop b5 both check the king on e8: it steps off the e-file and the
  // diagonal (d7 and e7 stay attacked); nothing may block or capture.
  EXPECT_EQ(uci_moves("4k3/8/8/1B6/8/8/8/4RK2 b - - 0 1"),
            (std::set<std::string>{"e8d8", "e8f7", "e8f8"}));
}

TEST(MoveGen, PinnedPiecesMoveOnlyAlongThePin) {
  // The e2 rook is pinned by the e8 rook: it may move on the e-file only, up to the capture.
  std::set<std::string> rook;
  for (const auto& m : uci_moves("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"))
    if (m.starts_with("e2")) rook.insert(m);
  EXPECT_EQ(rook, (std::set<std::string>{"e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"}));
  // The d2 bishop is pinned on the e1-a5 diagonal: only c3, b4 and a5 (capture).
  std::set<std::string> bishop;
  for (const auto& m : uci_moves("4k3/8/8/q7/8/8/3B4/4K3 w - - 0 1"))
    if (m.starts_with("d2")) bishop.insert(m);
  EXPECT_EQ(bishop, (std::set<std::string>{"d2c3", "d2b4", "d2a5"}));
}

TEST(MoveGen, KingCannotStepAlongTheCheckingRay) {
  // The king on e1 checked by the rook on e8 may not go to e2 (still on the ray).
  EXPECT_FALSE(uci_moves("4r1k1/8/8/8/8/8/8/4K3 w - - 0 1").contains("e1e2"));
}

// Properties on random walks from the fixture positions: the counter agrees with the list,
// no move leaves the king in check, and the incremental key equals a recomputed one.
TEST(MoveGen, RandomWalksKeepInvariants) {
  std::mt19937 rng(11);
  int positions = 0;
  auto fixtures = testing::read_perft_file("perft_random.epd");
  for (const auto& c : testing::read_perft_file("perft_chess960.epd")) fixtures.push_back(c);
  for (const auto& c : fixtures) {
    Position pos = Position::from_fen(c.fen);
    for (int ply = 0; ply < 12; ++ply, ++positions) {
      const MoveList moves = legal_moves(pos);
      ASSERT_EQ(moves.size(), count_legal_moves(pos)) << pos.fen();
      ASSERT_EQ(pos.key(), pos.compute_key()) << pos.fen();
      ASSERT_EQ(Position::from_fen(pos.fen()).fen(), pos.fen());
      for (Move m : moves) {
        Position next = pos;
        next.play(m);
        ASSERT_FALSE(next.is_attacked(next.king_square(~next.side_to_move()), next.side_to_move()))
            << pos.fen() << " " << to_uci(m);
      }
      if (moves.empty()) break;
      pos.play(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(positions, 4000);
}

}  // namespace
}  // namespace avocet
