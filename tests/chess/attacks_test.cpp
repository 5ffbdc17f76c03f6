#include "avocet/chess/attacks.h"

#include <gtest/gtest.h>

#include <random>

namespace avocet {
namespace {

TEST(Attacks, SlidersMatchRayWalkingOnRandomOccupancies) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    const Bitboard occupied(rng() & rng());
    const Square s = square_at(trial % 64);
    ASSERT_EQ(rook_attacks(s, occupied), sliding_attacks_reference(PieceType::Rook, s, occupied))
        << square_name(s) << "\n"
        << to_diagram(occupied);
    ASSERT_EQ(bishop_attacks(s, occupied),
              sliding_attacks_reference(PieceType::Bishop, s, occupied))
        << square_name(s) << "\n"
        << to_diagram(occupied);
  }
}

TEST(Attacks, Leapers) {
  EXPECT_EQ(knight_attacks(Square::A1), Bitboard(Square::B3) | Square::C2);
  EXPECT_EQ(knight_attacks(Square::E4).count(), 8);
  EXPECT_EQ(king_attacks(Square::H8), Bitboard(Square::G8) | Square::G7 | Square::H7);
  EXPECT_EQ(pawn_attacks(Color::White, Square::A2), Bitboard(Square::B3));
  EXPECT_EQ(pawn_attacks(Color::Black, Square::E5), Bitboard(Square::D4) | Square::F4);
}

TEST(Attacks, BetweenAndLine) {
  EXPECT_EQ(between(Square::A1, Square::D4), Bitboard(Square::B2) | Square::C3);
  EXPECT_EQ(between(Square::E1, Square::E8).count(), 6);
  EXPECT_EQ(between(Square::A1, Square::B3), kEmpty);
  EXPECT_EQ(between(Square::E4, Square::E5), kEmpty);
  EXPECT_EQ(line_through(Square::B2, Square::C3).count(), 8);
  EXPECT_EQ(line_through(Square::A1, Square::B3), kEmpty);
}

}  // namespace
}  // namespace avocet
