// Tactical features (chess/tactical_features.h): hand-checked values, and the invariance the
// mirrored network relies on: a position and its colour-flipped twin have the same features,
// squares flipped rank-wise.
#include "avocet/chess/tactical_features.h"

#include <gtest/gtest.h>

#include <string>

#include "../test_data.h"
#include "avocet/chess/flip.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"

namespace avocet {
namespace {

enum SquareGroup { kAttackers, kLeastValuableAttacker, kPinned, kEnPrise };
enum MoveGroup { kPieces, kSee, kCheck, kThreat, kMate, kAllowsMate, kQsearch, kTargets };

SquareFeatures on(const std::string& fen, const char* square) {
  return square_features(Position::from_fen(fen))[size_t(index(*parse_square(square)))];
}

MoveFeatures of(const std::string& fen, const char* move) {
  const Position pos = Position::from_fen(fen);
  return move_features(pos, parse_uci(pos, move));
}

TEST(Features, GroupTablesMatchTheirEncodings) {
  EXPECT_EQ(kSquareFeatureGroups[kAttackers].values, 4 * 4);
  EXPECT_EQ(kSquareFeatureGroups[kLeastValuableAttacker].values, 6 * 6);
  EXPECT_EQ(kMoveFeatureGroups[kPieces].values, 6 * 6);
  EXPECT_EQ(kMoveFeatureGroups[kSee].values, 2 * 9 + 1);
}

TEST(Features, AttackersAndLeastValuableAttackerAreTheMoversView) {
  // f3 in the start position: White's e2 and g2 pawns and g1 knight; Black nothing.
  const std::string start(kStartFen);
  EXPECT_EQ(on(start, "f3")[kAttackers], 3 * 4 + 0);
  EXPECT_EQ(on(start, "f3")[kLeastValuableAttacker], 1 * 6 + 0);  // pawn, none
  // After 1.e4 Black is to move: the same square is now "theirs" (and the queen joins).
  const std::string e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  EXPECT_EQ(on(e4, "f3")[kAttackers], 0 * 4 + 3);
  EXPECT_EQ(on(e4, "f3")[kLeastValuableAttacker], 0 * 6 + 1);
  // Counts saturate at 3: d1 is defended by Rb1, Rd2, Re1 and the c3 knight, c1 by Rb1 and Qd1.
  const std::string rooks = "7k/8/8/8/8/2N5/3R4/1R1QR1K1 w - - 0 1";
  EXPECT_EQ(on(rooks, "d1")[kAttackers], 3 * 4 + 0);
  EXPECT_EQ(on(rooks, "d1")[kLeastValuableAttacker], 2 * 6 + 0);  // the knight
  EXPECT_EQ(on(rooks, "c1")[kAttackers], 2 * 4 + 0);
}

TEST(Features, PinnedAndEnPrise) {
  const std::string pin = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
  EXPECT_EQ(on(pin, "e2")[kPinned], 1);  // our knight, pinned to our king
  EXPECT_EQ(on(pin, "e7")[kPinned], 0);
  const std::string their_pin = "4k3/4n3/8/8/8/8/4R3/4K3 w - - 0 1";
  EXPECT_EQ(on(their_pin, "e7")[kPinned], 2);
  // The knight on d5 hangs to the queen: White to move can win it; Black to move sees its
  // own piece en prise.
  EXPECT_EQ(on("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", "d5")[kEnPrise], 2);
  EXPECT_EQ(on("4k3/8/8/3n4/8/8/8/3QK3 b - - 0 1", "d5")[kEnPrise], 1);
  // Defended by a pawn, a knight attacked only by the queen is not en prise.
  EXPECT_EQ(on("4k3/8/4p3/3n4/8/8/8/3QK3 w - - 0 1", "d5")[kEnPrise], 0);
  EXPECT_EQ(on("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", "d1")[kEnPrise], 0);
}

TEST(Features, MateCheckAndPieces) {
  const std::string back_rank = "6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1";
  const MoveFeatures mate = of(back_rank, "d1d8");
  EXPECT_EQ(mate[kCheck], 1);
  EXPECT_EQ(mate[kMate], 1);
  EXPECT_EQ(mate[kPieces], 3 * 6 + 0);  // rook, no capture
  EXPECT_EQ(mate[kSee], 9);             // d8 is safe: SEE 0
  const MoveFeatures check = of("6k1/6pp/8/8/8/8/8/K2R4 w - - 0 1", "d1d8");
  EXPECT_EQ(check[kCheck], 1);
  EXPECT_EQ(check[kMate], 0);  // the king escapes to f7
  EXPECT_EQ(of(back_rank, "d1d7")[kCheck], 0);
}

TEST(Features, AllowsMateInOne) {
  // Black threatens Rd1# once the white rook leaves the first rank.
  const std::string fen = "3r2k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
  EXPECT_EQ(of(fen, "a1a2")[kAllowsMate], 1);
  EXPECT_EQ(of(fen, "a1c1")[kAllowsMate], 0);  // Rd1+ Rxd1
  EXPECT_EQ(of(fen, "h2h3")[kAllowsMate], 0);  // luft: Rd1+ Kh2
}

TEST(Features, SeeAndThreat) {
  // The queen takes a knight that nothing defends (+3), or walks into it (-9 and a threat).
  const std::string fen = "4k3/8/8/8/8/2n5/8/Q3K3 w - - 0 1";
  const MoveFeatures take = of(fen, "a1c3");
  EXPECT_EQ(take[kPieces], 4 * 6 + 2);  // queen takes knight
  EXPECT_EQ(take[kSee], 9 + 3);
  EXPECT_EQ(take[kThreat], 0);
  const MoveFeatures blunder = of(fen, "a1a4");
  EXPECT_EQ(blunder[kSee], 0);     // -9 pawns, clamped at -9
  EXPECT_EQ(blunder[kThreat], 9);  // the knight wins the queen
  EXPECT_EQ(of(fen, "a1a3")[kThreat], 0);
  // En passant is a pawn capture.
  EXPECT_EQ(of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6")[kPieces], 0 * 6 + 1);
}

TEST(Features, QsearchAndTargets) {
  // Nc3 can be taken (threat 3 pawns), but Nxc3 opens the d-file to Rxd7: the capture sequence says
  // 0.
  const MoveFeatures unblock = of("6k1/3q4/8/3n4/8/8/8/1N1R2K1 w - - 0 1", "b1c3");
  EXPECT_EQ(unblock[kThreat], 3);
  EXPECT_EQ(unblock[kQsearch], 9 + 0);
  EXPECT_EQ(unblock[kTargets], 1);  // the knight on d5, attacked twice and defended once
  // The queen walks into the knight: -9 pawns.
  EXPECT_EQ(of("4k3/8/8/8/8/2n5/8/Q3K3 w - - 0 1", "a1a4")[kQsearch], 0);
  // A knight fork of rook and queen (each defended, each worth more than the knight).
  const std::string fork = "r3q2k/8/8/1N6/8/8/8/6K1 w - - 0 1";
  EXPECT_EQ(of(fork, "b5c7")[kTargets], 2);
  EXPECT_EQ(of(fork, "b5c7")[kCheck], 0);
  EXPECT_EQ(of(fork, "b5a3")[kTargets], 0);      // attacks nothing (and hangs to the rook)
  EXPECT_EQ(of(fork, "b5c7")[kQsearch], 9 + 0);  // nothing is taken yet, and c7 is safe
}

TEST(Features, OnlyTheGroupsAskedForAreComputed) {
  const std::string fen = "6k1/3q4/8/3n4/8/8/8/1N1R2K1 w - - 0 1";
  const Position pos = Position::from_fen(fen);
  const Move m = parse_uci(pos, "b1c3");
  const MoveFeatures all = move_features(pos, m);
  const MoveFeatures qsearch_only = move_features(pos, m, 1u << kQsearch);
  EXPECT_EQ(qsearch_only[kQsearch], all[kQsearch]);
  EXPECT_EQ(qsearch_only[kThreat], 0);
  EXPECT_EQ(qsearch_only[kTargets], 0);
  const MoveFeatures v2_groups = move_features(pos, m, (1u << kQsearch) - 1);
  for (int g = 0; g < kQsearch; ++g) EXPECT_EQ(v2_groups[size_t(g)], all[size_t(g)]) << g;
  EXPECT_EQ(v2_groups[kQsearch], 0);
}

TEST(Features, ColourFlippedTwinsHaveTheSameFeatures) {
  int moves_compared = 0;
  for (const std::string name : {"perft.epd", "perft_random.epd"}) {
    for (const PerftSuiteEntry& entry : testing::read_perft_file(name)) {
      const Position pos = Position::from_fen(entry.fen);
      const Position twin = Position::from_fen(color_flipped_fen(pos.fen()));
      const auto ours = square_features(pos), theirs = square_features(twin);
      for (int s = 0; s < 64; ++s)
        ASSERT_EQ(ours[size_t(s)], theirs[size_t(index(flip_rank(square_at(s))))])
            << pos.fen() << " square " << square_name(square_at(s));
      for (Move m : legal_moves(pos)) {
        std::string text = to_uci(m);
        text[1] = char('1' + '8' - text[1]);
        text[3] = char('1' + '8' - text[3]);
        ASSERT_EQ(move_features(pos, m), move_features(twin, parse_uci(twin, text)))
            << pos.fen() << " " << to_uci(m);
        ++moves_compared;
      }
    }
  }
  EXPECT_GT(moves_compared, 10000);
}

}  // namespace
}  // namespace avocet
