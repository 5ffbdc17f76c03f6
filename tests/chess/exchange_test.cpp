#include "avocet/chess/exchange.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/chess/flip.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"

namespace avocet {
namespace {

// One SEE case: the side to move plays `move` (UCI) in `fen`; `expected` in centipawns with
// P=100, N=B=300, R=500, Q=900. Every value below was worked out by hand with those values.
struct SeeCase {
  const char* fen;
  const char* move;
  int expected;
  const char* what;  // the exchange, as the sum of what changes hands
  // Two equal attackers where the one that goes first decides the value (the lower square
  // goes first); the colour-mirrored position reverses that order, so it is not compared.
  bool order_dependent = false;
};

// Published SEE positions, kept as data (FEN, move, value). Sources:
//   [L] Leorik's Leorik.Test/see.epd (github.com/lithander/Leorik), whose values already
//       use P=100, N=B=300, R=500, Q=900 and carry the exchange as an expression;
//   [L2] the symbolic list at the end of that same file (values given as expressions such
//       as "-P + Q - Q + B", evaluated here with our piece values);
//   [Z] three positions that circulate with the same set (Leorik 3.2's see.epd and the
//       copies in other engines' tests): Rfxf4 (-100) and Bxf4 (0) as published; the third
//       is commented out in Leorik's file with -200 and is -100 here (worked out below).
// Where our pin- and king-aware SEE must differ from the published value, the comment says
// why; those values were re-derived by hand.
const std::vector<SeeCase> kPublishedSeeCases = {
    // [L] Equal pawn trades; in the second, two pawn pairs and then Re4 trade on g4.
    {"4R3/2r3p1/5bk1/1p1r3p/p2PR1P1/P1BK1P2/1P6/8 b - - 0 1", "h5g4", 0, "P - P"},
    {"4R3/2r3p1/5bk1/1p1r1p1p/p2PR1P1/P1BK1P2/1P6/8 b - - 0 1", "h5g4", 0, "P - P + P - P"},
    // [L] Bishop for knight; the queen behind the bishop joins but loses to Qe2.
    {"4r1k1/5pp1/nbp4p/1p2p2q/1P2P1b1/1BP2N1P/1B2QPPK/3R4 b - - 0 1", "g4f3", 0, "N - B"},
    {"2r1r1k1/pp1bppbp/3p1np1/q3P3/2P2P2/1P2B3/P1N1B1PP/2RQ1RK1 b - - 0 1", "d6e5", 100,
     "P - P + P"},
    // [L] Quiet rook moves onto e8: rook, queen and bishop batteries on both sides.
    {"7r/5qpk/p1Qp1b1p/3r3n/BB3p2/5p2/P1P2P2/4RK1R w - - 0 1", "e1e8", 0, "-R + R - Q + Q"},
    {"6rr/6pk/p1Qp1b1p/2n5/1B3p2/5p2/P1P2P2/4RK1R w - - 0 1", "e1e8", -500, "-R (R + R battery)"},
    {"7r/5qpk/2Qp1b1p/1N1r3n/BB3p2/5p2/P1P2P2/4RK1R w - - 0 1", "e1e8", -500,
     "-R (Ba4 blocked by Nb5)"},
    // [L] Promotions by the move; rooks x-ray through each other and the f-file opens.
    {"6RR/4bP2/8/8/5r2/3K4/5p2/4k3 w - - 0 1", "f7f8q", 200, "B - P"},
    {"6RR/4bP2/8/8/5r2/3K4/5p2/4k3 w - - 0 1", "f7f8n", 200, "N - P"},
    {"7R/5P2/8/8/6r1/3K4/5p2/4k3 w - - 0 1", "f7f8q", 800, "Q - P"},
    {"7R/5P2/8/8/6r1/3K4/5p2/4k3 w - - 0 1", "f7f8b", 200, "B - P"},
    {"7R/4bP2/8/8/1q6/3K4/5p2/4k3 w - - 0 1", "f7f8r", -100, "-P (queen x-rays through e7)"},
    // [L] The king may not recapture on f1 while the queen on h3 covers it.
    {"8/4kp2/2npp3/1Nn5/1p2PQP1/7q/1PP1B3/4KR1r b - - 0 1", "h1f1", 0, "R - R"},
    {"8/4kp2/2npp3/1Nn5/1p2P1P1/7q/1PP1B3/4KR1r b - - 0 1", "h1f1", 0, "R - R"},
    {"2r2r1k/6bp/p7/2q2p1Q/3PpP2/1B6/P5PP/2RR3K b - - 0 1", "c5c1", 100, "2R - Q"},
    {"r2qk1nr/pp2ppbp/2b3p1/2p1p3/8/2N2N2/PPPP1PPP/R1BQR1K1 w kq - 0 1", "f3e5", 100, "P - N + B"},
    // [L] The published value is 0, counting ...fxe5 as a recapture; but f6 is pinned to the
    // king on e7 by the queen on h4, so after Bxe5 dxe5 Rxe5 black has nothing left:
    // B - B + P = 100.
    {"6r1/4kq2/b2p1p2/p1pPb3/p1P2B1Q/2P4P/2B1R1P1/6K1 w - - 0 1", "f4e5", 100,
     "B - B + P (f6 pinned)"},
    // [L] En passant; in the second the bishop on e3 x-rays through g5, which the capture
    // vacated.
    {"3q2nk/pb1r1p2/np6/3P2Pp/2p1P3/2R4B/PQ3P1P/3R2K1 w - h6 0 1", "g5h6", 0, "P - P"},
    {"3q2nk/pb1r1p2/np6/3P2Pp/2p1P3/2R1B2B/PQ3P1P/3R2K1 w - h6 0 1", "g5h6", 100, "P"},
    // [L] A pawn recapturing on the last rank promotes: black cannot afford to take back.
    {"2r4r/1P4pk/p2p1b1p/7n/BB3p2/2R2p2/P1P2P2/4RK2 w - - 0 1", "c3c8", 500, "R"},
    {"2r5/1P4pk/p2p1b1p/5b1n/BB3p2/2R2p2/P1P2P2/4RK2 w - - 0 1", "c3c8", 500, "R"},
    // [L] Three-deep rook batteries on the c-file, queen behind.
    {"2r4k/2r4p/p7/2b2p1b/4pP2/1BR5/P1R3PP/2Q4K w - - 0 1", "c3c5", 300, "B"},
    {"8/pp6/2pkp3/4bp2/2R3b1/2P5/PP4B1/1K6 w - - 0 1", "g2c6", -200, "P - B"},
    {"4q3/1p1pr1k1/1B2rp2/6p1/p3PP2/P3R1P1/1P2R1K1/4Q3 b - - 0 1", "e6e4", -400, "P - R"},
    {"4q3/1p1pr1kb/1B2rp2/6p1/p3PP2/P3R1P1/1P2R1K1/4Q3 b - - 0 1", "h7e4", 100, "P"},
    {"1k1r4/1ppn3p/p4b2/4n3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 100, "N - N + B - R + N"},
    {"1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -200, "P - N"},
    // [L] Kf7 may not take back on f6: the rook on f3 x-rays through e5-f6.
    {"rnb2b1r/ppp2kpp/5n2/4P3/q2P3B/5R2/PPP2PPP/RN1QKB2 w Q - 0 1", "h4f6", 100, "N - B + P"},
    {"r2q1rk1/2p1bppp/p2p1n2/1p2P3/4P1b1/1nP1BN2/PP3PPP/RN1QR1K1 b - - 0 1", "g4f3", 0, "N - B"},
    {"r1bqkb1r/2pp1ppp/p1n5/1p2p3/3Pn3/1B3N2/PPP2PPP/RNBQ1RK1 b kq - 0 1", "c6d4", 0,
     "P - N + N - P"},
    // [L] The king takes back on g7 only when nothing guards it.
    {"r1bq1r2/pp1ppkbp/4N1p1/n3P1B1/8/2N5/PPP2PPP/R2QK2R w KQ - 0 1", "e6g7", 0, "B - N"},
    {"r1bq1r2/pp1ppkbp/4N1pB/n3P3/8/2N5/PPP2PPP/R2QK2R w KQ - 0 1", "e6g7", 300, "B"},
    {"rnq1k2r/1b3ppp/p2bpn2/1p1p4/3N4/1BN1P3/PPP2PPP/R1BQR1K1 b kq - 0 1", "d6h2", -200, "P - B"},
    // [L] ...and Kxh2 is impossible once the queen on c7 x-rays through the bishop.
    {"rn2k2r/1bq2ppp/p2bpn2/1p1p4/3N4/1BN1P3/PPP2PPP/R1BQR1K1 b kq - 0 1", "d6h2", 100, "P"},
    {"r2qkbn1/ppp1pp1p/3p1rp1/3Pn3/4P1b1/2N2N2/PPP2PPP/R1BQKB1R b KQq - 0 1", "g4f3", 100,
     "N - B + P"},
    {"rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/P1N5/1PQ1PPPP/R1B1KBNR b KQ - 0 1", "b4c3", 0, "N - B"},
    {"r4rk1/3nppbp/bq1p1np1/2pP4/8/2N2NPP/PP2PPB1/R1BQR1K1 b - - 0 1", "b6b2", -800, "P - Q"},
    {"r4rk1/1q1nppbp/b2p1np1/2pP4/8/2N2NPP/PP2PPB1/R1BQR1K1 b - - 0 1", "f6d5", -200, "P - N"},
    {"1r3r2/5p2/4p2p/2k1n1P1/2PN1nP1/1P3P2/8/2KR1B1R b - - 0 1", "b8b3", -400, "P - R"},
    {"1r3r2/5p2/4p2p/4n1P1/kPPN1nP1/5P2/8/2KR1B1R b - - 0 1", "b8b4", 100, "P"},
    {"2r2rk1/5pp1/pp5p/q2p4/P3n3/1Q3NP1/1P2PP1P/2RR2K1 b - - 0 1", "c8c1", 0, "R - R"},
    // [L] Of the two white rooks the one on a2 (lower square) recaptures first, so Rc4 stays
    // in front of Rc6 until it takes; had Rc4 gone first the value would be +100.
    {"5rk1/5pp1/2r4p/5b2/2R5/6Q1/R1P1qPP1/5NK1 b - - 0 1", "f5c2", -100, "P - B + R - Q + R", true},
    // [L] The king takes the queen on a2 unless the rook on f2 guards it.
    {"1r3r1k/p4pp1/2p1p2p/qpQP3P/2P5/3R4/PP3PP1/1K1R4 b - - 0 1", "a5a2", -800, "P - Q"},
    {"1r5k/p4pp1/2p1p2p/qpQP3P/2P2P2/1P1R4/P4rP1/1K1R4 b - - 0 1", "a5a2", 100, "P"},
    {"r2q1rk1/1b2bppp/p2p1n2/1ppNp3/3nP3/P2P1N1P/BPP2PP1/R1BQR1K1 w - - 0 1", "d5e7", 0, "B - N"},
    {"rnbqrbn1/pp3ppp/3p4/2p2k2/4p3/3B1K2/PPP2PPP/RNB1Q1NR w - - 0 1", "d3e4", 100, "P"},
    // [L] Quiet moves onto attacked squares.
    {"rnb1k2r/p3p1pp/1p3p1b/7n/1N2N3/3P1PB1/PPP1P1PP/R2QKB1R w KQkq - 0 1", "e4d6", -200, "-N + P"},
    {"r1b1k2r/p4npp/1pp2p1b/7n/1N2N3/3P1PB1/PPP1P1PP/R2QKB1R w KQkq - 0 1", "e4d6", 0, "-N + N"},
    {"2r1k2r/pb4pp/5p1b/2KB3n/4N3/2NP1PB1/PPP1P1PP/R2Q3R w k - 0 1", "d5c6", -300, "-B"},
    {"2r1k2r/pb4pp/5p1b/2KB3n/1N2N3/3P1PB1/PPP1P1PP/R2Q3R w k - 0 1", "d5c6", 0, "-B + B"},
    {"2r1k3/pbr3pp/5p1b/2KB3n/1N2N3/3P1PB1/PPP1P1PP/R2Q3R w - - 0 1", "d5c6", -300, "-B + B - N"},

    // [Z] The queen on g5 is pinned by Rg4 along the g-file and never recaptures; the value
    // is the published one either way.
    {"6k1/1pp4p/p1pb4/6q1/3P1pRr/2P4P/PP1Br1P1/5RKN w - - 0 1", "f1f4", -100, "P - R + B"},
    {"5rk1/1pp2q1p/p1pb4/8/3P1NP1/2P5/1P1BQ1P1/5RK1 b - - 0 1", "d6f4", 0, "-N + B"},
    // [Z] Both knights, then rooks and the queen against bishop, queen and rook batteries.
    // Leorik lists -200 (commented out); played through, every capture is forced and the
    // sequence ends Rd1xd4 at -100.
    {"3r3k/3r4/2n1n3/8/3p4/2PR4/1B1Q4/3R3K w - - 0 1", "d3d4", -100,
     "P - R + N - P + N - B + R - Q + R"},

    // [L2] Promotions by the move, recaptured or not.
    {"5k2/p2P2pp/8/1pb5/1Nn1P1n1/6Q1/PPP4P/R3K1NR w KQ - 0 1", "d7d8q", 800, "-P + Q"},
    {"r4k2/p2P2pp/8/1pb5/1Nn1P1n1/6Q1/PPP4P/R3K1NR w KQ - 0 1", "d7d8q", -100, "-P + Q - Q"},
    {"5k2/p2P2pp/1b6/1p6/1Nn1P1n1/8/PPP4P/R2QK1NR w KQ - 0 1", "d7d8q", 200, "-P + Q - Q + B"},
    {"4kbnr/p1P1pppp/b7/4q3/7n/8/PP1PPPPP/RNBQKBNR w KQk - 0 1", "c7c8q", -100, "-P + Q - Q"},
    {"4kbnr/p1P1pppp/b7/4q3/7n/8/PPQPPPPP/RNB1KBNR w KQk - 0 1", "c7c8q", 200, "-P + Q - Q + B"},
    {"4kbnr/p1P1pppp/b7/4q3/7n/8/PPQPPPPP/RNB1KBNR w KQk - 0 1", "c7c8n", 200, "-P + N"},
    {"4kbnr/p1P1pppp/1b6/4q3/7n/8/PPQPPPPP/RNB1KBNR w KQk - 0 1", "c7c8n", 200, "-P + N"},
    // [L2] En passant: the queen behind the captured pawn (f3) or behind the capturing one
    // (h4) joins once the capture clears the line.
    {"4kbnr/p1P4p/b1q5/5pP1/4n3/5Q2/PP1PPP1P/RNB1KBNR w KQk f6 0 2", "g5f6", 0, "P - P"},
    {"4kbnr/p1P4p/b1q5/5pP1/4n2Q/8/PP1PPP1P/RNB1KBNR w KQk f6 0 2", "g5f6", 0, "P - P"},
    {"1n2kb1r/p1P4p/2qb4/5pP1/4n2Q/8/PP1PPP1P/RNB1KBNR w KQk - 0 1", "c7b8q", 200,
     "N + (-P + Q) - Q"},
    // [L2] A king capture on an unguarded square.
    {"rnbqk2r/pp3ppp/2p1pn2/3p4/3P4/N1P1BN2/PPB1PPPb/R2Q1RK1 w kq - 0 1", "g1h2", 300, "B"},
    // [L2] The published position has the knight on e6, which would check the white king on
    // c7 with black to move (our FEN parser rejects that); the knight on f7 guards d8 the
    // same way without the check.
    {"3N4/2K2n2/2n5/1k6/8/8/8/8 b - - 0 1", "c6d8", 300, "N"},
    {"3N4/2K5/2n5/1k6/8/8/8/8 b - - 0 1", "c6d8", 0, "N - N"},
    // [L2] Pawns recapturing on the last rank promote.
    {"3N4/2P5/2n5/1k6/8/8/8/4K3 b - - 0 1", "c6d8", -800, "N - N - Q + P"},
    {"3N4/2P5/2n5/1k6/8/8/8/4K3 b - - 0 1", "c6b8", -1100, "-N - Q + P"},
    {"3n3r/2P5/8/1k6/8/8/3Q4/4K3 w - - 0 1", "d2d8", 300, "N"},
    {"3n3r/2P5/8/1k6/8/8/3Q4/4K3 w - - 0 1", "c7d8q", 700, "(N - P + Q) - Q + R"},
    {"r2n3r/2P1P3/4N3/1k6/8/8/8/4K3 w - - 0 1", "e6d8", 300, "N"},
    // [L2] The published value is 0 (as if the bishop on g4 took back), but the pawn on c2
    // recaptures first and promotes, and white has nothing left: N - N - Q + P = -800.
    {"8/8/8/1k6/6b1/4N3/2p3K1/3n4 w - - 0 1", "e3d1", -800, "N - N - Q + P"},
    {"8/8/1k6/8/8/2N1N3/2p1p1K1/3n4 w - - 0 1", "c3d1", -800, "N - N - Q + P"},
    {"8/8/1k6/8/8/2N1N3/4p1K1/3n4 w - - 0 1", "c3d1", 100, "N - (N - P + Q) + Q"},
    // [L2] Castling exchanges nothing.
    {"r1bqk1nr/pppp1ppp/2n5/1B2p3/1b2P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "e1g1", 0, "0"},
};

// Cases written for this module, each isolating one rule.
const std::vector<SeeCase> kOwnSeeCases = {
    // A queen taking a pawn the c6 pawn guards.
    {"4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800, "P - Q"},
    // With the bishop on d5 the knight on c6 takes the rook back; with it on b5 the knight is
    // pinned to the king on e8 and cannot.
    {"4k3/8/2n5/3B4/3p4/8/8/3RK3 w - - 0 1", "d1d4", -400, "P - R"},
    {"4k3/8/2n5/1B6/3p4/8/8/3RK3 w - - 0 1", "d1d4", 100, "P (Nc6 pinned)"},
    // The f7 pawn is pinned along g8-a2 but takes on e6, which lies on that line.
    {"6k1/5p2/8/8/2BN4/8/8/K7 w - - 0 1", "d4e6", -200, "-N + P"},
    // Nc6 is pinned by the queen on b5 until the queen itself recaptures on b4; then the
    // knight is free and takes it.
    {"4k3/8/2n5/pQ6/1p6/P7/8/7K w - - 0 1", "a3b4", 0, "P - P (not Qxb4 Nxb4)"},
    // Nxc5 uncovers Re1 against the king on e8. That check does not stop a piece from taking
    // back, whether or not it shares a line with the king (Rc6 does, the b6 pawn does not):
    // only pins do.
    {"4k3/8/2r5/2p5/4N3/8/8/4R1K1 w - - 0 1", "e4c5", -200, "P - N"},
    {"4k3/8/1p6/2p5/4N3/8/8/4R1K1 w - - 0 1", "e4c5", -200, "P - N"},
    // Quiet moves: onto a square a pawn attacks, and onto a safe one.
    {"4k3/8/8/3p4/8/8/8/2Q1K3 w - - 0 1", "c1c4", -900, "-Q"},
    {"4k3/8/8/3p4/8/8/8/2Q1K3 w - - 0 1", "c1c2", 0, "0"},
};

std::string mirror_uci(std::string move) {
  move[1] = char('1' + '8' - move[1]);
  move[3] = char('1' + '8' - move[3]);
  return move;
}

void check_see_cases(const std::vector<SeeCase>& cases) {
  for (const SeeCase& c : cases) {
    const Position pos = Position::from_fen(c.fen);
    const Move m = parse_uci(pos, c.move);
    EXPECT_EQ(see(pos, m), c.expected) << c.fen << " " << c.move << " (" << c.what << ")";
    // The colour-mirrored position must give the same value.
    if (c.order_dependent) continue;
    const std::string mirrored = color_flipped_fen(c.fen);
    const Position flipped = Position::from_fen(mirrored);
    EXPECT_EQ(see(flipped, parse_uci(flipped, mirror_uci(c.move))), c.expected)
        << mirrored << " " << mirror_uci(c.move) << " (mirrored)";
  }
}

TEST(ExchangeSee, MirrorUciHelper) { EXPECT_EQ(mirror_uci("e7e8q"), "e2e1q"); }

TEST(ExchangeSee, PublishedPositions) {
  ASSERT_GE(kPublishedSeeCases.size(), 30u);
  check_see_cases(kPublishedSeeCases);
}

TEST(ExchangeSee, OwnPositions) { check_see_cases(kOwnSeeCases); }

// Positions from both perft fixtures and every position one move after them.
std::vector<Position> sweep_positions() {
  std::vector<Position> positions;
  for (const char* file : {"perft.epd", "perft_random.epd"}) {
    for (const auto& entry : testing::read_perft_file(file)) {
      const Position pos = Position::from_fen(entry.fen);
      positions.push_back(pos);
      for (Move m : legal_moves(pos)) {
        Position child = pos;
        child.play(m);
        positions.push_back(child);
      }
    }
  }
  return positions;
}

// SEE never wins more than the move takes, and never loses more than the moved piece (plus
// a promotion for a pawn that takes it back on the last rank): stopping is always allowed.
TEST(ExchangeSee, StaysWithinWhatTheMoveTakesAndRisks) {
  int captures = 0;
  for (const Position& pos : sweep_positions()) {
    for (Move m : legal_moves(pos)) {
      if (m.kind() == MoveKind::Castling) {
        ASSERT_EQ(see(pos, m), 0) << pos.fen() << " " << to_uci(m);
        continue;
      }
      const Piece victim = pos.piece_on(m.to());
      int taken = victim == Piece::None ? 0 : see_value(type_of(victim));
      if (m.kind() == MoveKind::EnPassant) taken = see_value(PieceType::Pawn);
      PieceType placed = type_of(pos.piece_on(m.from()));
      if (m.kind() == MoveKind::Promotion) {
        taken += see_value(m.promotion()) - see_value(PieceType::Pawn);
        placed = m.promotion();
      }
      const bool last_rank = rank_of(m.to()) == Rank::R1 || rank_of(m.to()) == Rank::R8;
      const int risked = see_value(placed) + (last_rank ? 800 : 0);
      const int value = see(pos, m);
      ASSERT_LE(value, taken) << pos.fen() << " " << to_uci(m);
      ASSERT_GE(value, taken - risked) << pos.fen() << " " << to_uci(m);
      captures += taken > 0;
    }
  }
  EXPECT_GT(captures, 10000);
}

TEST(ExchangeSee, ValuesMatchTheDocumentedScale) {
  EXPECT_EQ(see_value(PieceType::Pawn), 100);
  EXPECT_EQ(see_value(PieceType::Knight), 300);
  EXPECT_EQ(see_value(PieceType::Bishop), 300);
  EXPECT_EQ(see_value(PieceType::Rook), 500);
  EXPECT_EQ(see_value(PieceType::Queen), 900);
  EXPECT_EQ(see_value(PieceType::King), 0);
}

// gives_check must agree with playing the move and asking the position.
TEST(ExchangeGivesCheck, MatchesPlayOnPerftSuite) {
  const auto entries = testing::read_perft_file("perft.epd");
  ASSERT_EQ(entries.size(), 174u);
  int moves = 0, checks = 0;
  auto check_all = [&](const Position& pos, const std::string& label) {
    for (Move m : legal_moves(pos)) {
      Position after = pos;
      after.play(m);
      ASSERT_EQ(gives_check(pos, m), after.in_check()) << label << " " << to_uci(m);
      ++moves;
      checks += after.in_check();
    }
  };
  auto all_entries = entries;
  for (const auto& entry : testing::read_perft_file("perft_chess960.epd"))
    all_entries.push_back(entry);
  for (const auto& entry : all_entries) {
    const Position pos = Position::from_fen(entry.fen);
    check_all(pos, entry.fen);
    // One ply deeper as well: many more discovered checks and en passant captures.
    for (Move m : legal_moves(pos)) {
      Position child = pos;
      child.play(m);
      check_all(child, entry.fen + " after " + to_uci(m));
    }
  }
  EXPECT_GT(moves, 10000);
  EXPECT_GT(checks, 100);
}

bool checks(const char* fen, const char* move) {
  const Position pos = Position::from_fen(fen);
  const Move m = parse_uci(pos, move);
  Position after = pos;
  after.play(m);
  EXPECT_EQ(gives_check(pos, m), after.in_check()) << fen << " " << move;
  return gives_check(pos, m);
}

TEST(ExchangeGivesCheck, DiscoveredCheck) {
  // The knight leaves the e-file and uncovers the rook on e1; Nc3 attacks nothing near e8.
  EXPECT_TRUE(checks("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4c3"));
  // A rook stepping off the long diagonal uncovers the queen on a1.
  EXPECT_TRUE(checks("7k/8/8/8/3R4/8/8/Q3K3 w - - 0 1", "d4d2"));
  // A pawn capturing off the file uncovers the rook; pushing it keeps the file closed.
  EXPECT_TRUE(checks("4k3/8/8/3p4/4P3/8/8/4RK2 w - - 0 1", "e4d5"));
  EXPECT_FALSE(checks("4k3/8/8/3p4/4P3/8/8/4RK2 w - - 0 1", "e4e5"));
  // The king itself uncovering its rook.
  EXPECT_TRUE(checks("8/8/8/8/8/8/8/R3K2k w - - 0 1", "e1e2"));
}

TEST(ExchangeGivesCheck, CastlingChecksWithTheRook) {
  EXPECT_TRUE(checks("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));
  EXPECT_TRUE(checks("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"));
  EXPECT_FALSE(checks("6k1/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));
}

bool checks960(const char* fen, const char* move) {
  const Position pos = Position::from_fen(fen);
  const Move m = parse_uci(pos, move, true);
  Position after = pos;
  after.play(m);
  EXPECT_EQ(gives_check(pos, m), after.in_check()) << fen << " " << move;
  return gives_check(pos, m);
}

TEST(ExchangeGivesCheck, Chess960Castling) {
  // King and rook swap squares: the rook lands on f1, the king's old square.
  EXPECT_TRUE(checks960("5k2/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1"));
  // The king lands on the rook's square and the rook on f1 faces a blocked f-file.
  EXPECT_FALSE(checks960("5k2/8/8/8/8/8/5P2/5KR1 w G - 0 1", "f1g1"));
  // The king stays on g1, or steps from b1 to c1: the rook's new file gives the check.
  EXPECT_TRUE(checks960("5k2/8/8/8/8/8/8/6KR w H - 0 1", "g1h1"));
  EXPECT_TRUE(checks960("3k4/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1"));
  EXPECT_FALSE(checks960("2k5/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1"));
}

TEST(ExchangeGivesCheck, EnPassantDiscoversCheck) {
  // exd6 removes both pawns from the fifth rank: the rook on a5 then sees the king on h5.
  EXPECT_TRUE(checks("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e5d6"));
  // Through the capturing pawn's own square on a diagonal: Bb2 sees h8 once e5 is empty.
  EXPECT_TRUE(checks("7k/8/8/3pP3/8/8/1B6/4K3 w - d6 0 1", "e5d6"));
}

TEST(ExchangeGivesCheck, PromotionToKnightChecks) {
  EXPECT_TRUE(checks("8/4P3/3k4/8/8/8/8/4K3 w - - 0 1", "e7e8n"));
  EXPECT_FALSE(checks("8/4P3/3k4/8/8/8/8/4K3 w - - 0 1", "e7e8q"));
  // Promotion with capture into a direct queen check along the rank.
  EXPECT_TRUE(checks("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"));
}

Bitboard squares(std::initializer_list<Square> list) {
  Bitboard b;
  for (Square s : list) b |= s;
  return b;
}

TEST(ExchangePinnedPieces, RookAndBishopPins) {
  // Re7 pins Ne2 to the king on e1.
  const Position rook = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
  EXPECT_EQ(pinned_pieces(rook, Color::White), squares({Square::E2}));
  EXPECT_EQ(pinned_pieces(rook, Color::Black), kEmpty);
  // Bb4 pins the d2 pawn.
  const Position bishop = Position::from_fen("4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1");
  EXPECT_EQ(pinned_pieces(bishop, Color::White), squares({Square::D2}));
  // A bishop and a queen pin two black pieces at once.
  const Position both = Position::from_fen("4k3/3n4/2B5/8/4r3/8/8/4QK2 w - - 0 1");
  EXPECT_EQ(pinned_pieces(both, Color::Black), squares({Square::D7, Square::E4}));
  EXPECT_EQ(pinned_pieces(both, Color::White), kEmpty);
}

TEST(ExchangePinnedPieces, NoPinWithTwoBlockersOrAnEnemyBlocker) {
  // Two white pieces between the rook and the king: neither is pinned.
  const Position two = Position::from_fen("4k3/4r3/8/8/4P3/8/4N3/4K3 w - - 0 1");
  EXPECT_EQ(pinned_pieces(two, Color::White), kEmpty);
  // The only piece between is black's own knight: nothing of white's is pinned (and the
  // knight is not pinned to black's king either).
  const Position enemy = Position::from_fen("4k3/4r3/8/8/8/8/4n3/4K3 w - - 0 1");
  EXPECT_EQ(pinned_pieces(enemy, Color::White), kEmpty);
  EXPECT_EQ(pinned_pieces(enemy, Color::Black), kEmpty);
  // A white piece and a black piece between: no pin.
  const Position mixed = Position::from_fen("4k3/4r3/8/4p3/8/8/4N3/4K3 w - - 0 1");
  EXPECT_EQ(pinned_pieces(mixed, Color::White), kEmpty);
}

TEST(ExchangeCaptureGain, HangingPiece) {
  const Position pos = Position::from_fen("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1");
  EXPECT_EQ(capture_gain(pos, Square::D5), 300);
  // Whoever is to move.
  const Position black = Position::from_fen("4k3/8/8/3n4/8/8/8/3RK3 b - - 0 1");
  EXPECT_EQ(capture_gain(black, Square::D5), 300);
  EXPECT_EQ(capture_gain(pos, Square::D1), 0);  // nothing of black's attacks the rook
}

TEST(ExchangeCaptureGain, DefendedPieceAttackedByALesserPiece) {
  // Nc3xd5 exd5: R - N.
  const Position pos = Position::from_fen("4k3/8/4p3/3r4/8/2N5/8/4K3 w - - 0 1");
  EXPECT_GT(capture_gain(pos, Square::D5), 0);
  EXPECT_EQ(capture_gain(pos, Square::D5), 200);
}

TEST(ExchangeCaptureGain, DefendedPieceAttackedOnlyByGreaterPieces) {
  // Rxd5 exd5 loses the exchange: no gain.
  const Position pos = Position::from_fen("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1");
  EXPECT_EQ(capture_gain(pos, Square::D5), 0);
}

TEST(ExchangeCaptureGain, KingAndEmptySquaresAndPinnedAttackers) {
  const Position pos = Position::from_fen("4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1");
  EXPECT_EQ(capture_gain(pos, Square::E8), 0);
  EXPECT_EQ(capture_gain(pos, Square::E1), 0);
  EXPECT_EQ(capture_gain(pos, Square::A4), 0);
  // The knight on e2 is pinned by Re7 and may not take the hanging bishop on d4.
  const Position pinned = Position::from_fen("4k3/4r3/8/8/3b4/8/4N3/4K3 w - - 0 1");
  EXPECT_EQ(capture_gain(pinned, Square::D4), 0);
  const Position free = Position::from_fen("4k3/7r/8/8/3b4/8/4N3/4K3 w - - 0 1");
  EXPECT_EQ(capture_gain(free, Square::D4), 300);
}

// For the side to move (not in check, so that every capture capture_gain considers is
// legal), capture_gain is the best SEE among its legal captures of the piece, or 0.
TEST(ExchangeCaptureGain, AgreesWithTheBestLegalCapture) {
  int compared = 0, winning = 0;
  for (const Position& pos : sweep_positions()) {
    if (pos.in_check()) continue;
    const MoveList moves = legal_moves(pos);
    for (Square s : pos.pieces(~pos.side_to_move())) {
      if (type_of(pos.piece_on(s)) == PieceType::King) continue;
      int best = 0;
      for (Move m : moves)
        if (m.to() == s && (m.kind() != MoveKind::Promotion || m.promotion() == PieceType::Queen))
          best = std::max(best, see(pos, m));
      ASSERT_EQ(capture_gain(pos, s), best) << pos.fen() << " " << square_name(s);
      ++compared;
      winning += best > 0;
    }
  }
  EXPECT_GT(compared, 10000);
  EXPECT_GT(winning, 1000);
}

TEST(ExchangeAttackers, AttackersByAndLeastValuableType) {
  const Position pos = Position::from_fen("4k2q/8/8/4p3/3P4/5N2/8/4RK2 w - - 0 1");
  const Bitboard white_on_e5 = attackers_by(pos, Square::E5, Color::White);
  EXPECT_EQ(white_on_e5, squares({Square::D4, Square::F3, Square::E1}));
  EXPECT_EQ(least_valuable_type(pos, white_on_e5), PieceType::Pawn);
  EXPECT_EQ(least_valuable_type(pos, squares({Square::F3, Square::E1})), PieceType::Knight);
  EXPECT_EQ(least_valuable_type(pos, squares({Square::E1})), PieceType::Rook);
  EXPECT_EQ(least_valuable_type(pos, kEmpty), PieceType::None);

  const Bitboard black_on_e5 = attackers_by(pos, Square::E5, Color::Black);
  EXPECT_EQ(black_on_e5, squares({Square::H8}));
  EXPECT_EQ(least_valuable_type(pos, black_on_e5), PieceType::Queen);

  EXPECT_EQ(attackers_by(pos, Square::E2, Color::White), squares({Square::E1, Square::F1}));
  EXPECT_EQ(least_valuable_type(pos, attackers_by(pos, Square::G1, Color::White)),
            PieceType::Knight);
  EXPECT_EQ(attackers_by(pos, Square::G2, Color::White), squares({Square::F1}));
  EXPECT_EQ(least_valuable_type(pos, squares({Square::F1})), PieceType::King);
  // Nothing of black's reaches g2 (the h8 queen's diagonal stops at e5).
  EXPECT_EQ(attackers_by(pos, Square::G2, Color::Black), kEmpty);
}

}  // namespace
}  // namespace avocet
