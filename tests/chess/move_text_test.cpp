#include "avocet/chess/move_text.h"

#include <gtest/gtest.h>

#include "avocet/chess/movegen.h"

namespace avocet {
namespace {

const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

TEST(MoveText, UciRoundTripsEveryLegalMove) {
  for (const char* fen : {kKiwipete, "1n5k/P7/8/8/8/8/8/K7 w - - 0 1",
                          "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"}) {
    const Position pos = Position::from_fen(fen);
    for (Move m : legal_moves(pos)) EXPECT_EQ(parse_uci(pos, to_uci(m)), m) << to_uci(m);
  }
}

TEST(MoveText, UciKinds) {
  const Position pos = Position::from_fen(kKiwipete);
  EXPECT_EQ(parse_uci(pos, "e1g1").kind(), MoveKind::Castling);
  EXPECT_EQ(parse_uci(pos, "e1c1").kind(), MoveKind::Castling);
  const Position ep =
      Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  EXPECT_EQ(parse_uci(ep, "e5f6").kind(), MoveKind::EnPassant);
  EXPECT_EQ(parse_uci(Position::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1"), "a7b8n").promotion(),
            PieceType::Knight);
}

// Castling is the king's move in standard text and the king taking its rook in Chess960
// text; each mode reads only its own form (in Chess960, b1c1 can also be a king step).
TEST(MoveText, CastlingInBothModes) {
  const Position kiwi = Position::from_fen(kKiwipete);
  const Move short_castle = parse_uci(kiwi, "e1g1");
  const Move long_castle = parse_uci(kiwi, "e1c1");
  EXPECT_EQ(short_castle.kind(), MoveKind::Castling);
  EXPECT_EQ(to_uci(short_castle), "e1g1");
  EXPECT_EQ(to_uci(long_castle), "e1c1");
  EXPECT_EQ(to_uci(short_castle, true), "e1h1");
  EXPECT_EQ(to_uci(long_castle, true), "e1a1");
  EXPECT_EQ(parse_uci(kiwi, "e1h1", true), short_castle);
  EXPECT_EQ(parse_uci(kiwi, "e1a1", true), long_castle);
  EXPECT_THROW(parse_uci(kiwi, "e1h1"), MoveError);
  EXPECT_THROW(parse_uci(kiwi, "e1g1", true), MoveError);

  // King b1, rook a1: castling (king to c1, rook to d1) is b1a1, the king's step is b1c1.
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
  const Move castle = parse_uci(pos, "b1a1", true);
  EXPECT_EQ(castle.kind(), MoveKind::Castling);
  EXPECT_EQ(parse_uci(pos, "b1c1", true).kind(), MoveKind::Normal);
  for (Move m : legal_moves(pos)) EXPECT_EQ(parse_uci(pos, to_uci(m, true), true), m);
  EXPECT_EQ(to_san(pos, castle), "O-O-O");
  EXPECT_EQ(parse_san(pos, "O-O-O"), castle);
  // The king that stays on g1 while its rook moves to f1: O-O, g1h1.
  const Position stays = Position::from_fen("4k3/8/8/8/8/8/8/6KR w H - 0 1");
  EXPECT_EQ(to_uci(parse_san(stays, "O-O"), true), "g1h1");
}

// As Stockfish, an upper-case promotion letter is read; moves are written in lower case.
TEST(MoveText, UpperCasePromotionLetter) {
  const Position pos = Position::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
  for (const char* text : {"a7a8Q", "a7a8R", "a7a8B", "a7a8N", "a7b8Q"}) {
    const Move m = parse_uci(pos, text);
    EXPECT_EQ(m, parse_uci(pos, std::string(text).substr(0, 4) + char(text[4] | 0x20))) << text;
    EXPECT_EQ(to_uci(m), std::string(text).substr(0, 4) + char(text[4] | 0x20));
  }
  EXPECT_THROW(parse_uci(pos, "a7a8K"), MoveError);
  EXPECT_THROW(parse_uci(pos, "a7a8P"), MoveError);
}

TEST(MoveText, UciErrors) {
  const Position pos = Position::start();
  EXPECT_THROW(parse_uci(pos, "e2e5"), MoveError);
  EXPECT_THROW(parse_uci(pos, "e2"), MoveError);
  EXPECT_THROW(parse_uci(pos, "e2e4x"), MoveError);
  EXPECT_THROW(parse_uci(pos, "e2e4Q"), MoveError);
  EXPECT_THROW(parse_uci(pos, "i2i4"), MoveError);
  EXPECT_THROW(parse_uci(pos, "0000"), MoveError);
  try {
    parse_uci(pos, "e2e5");
  } catch (const MoveError& e) {
    EXPECT_STREQ(e.what(),
                 "illegal move 'e2e5' in position "
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  }
  try {
    parse_uci(pos, "hello");
  } catch (const MoveError& e) {
    EXPECT_STREQ(e.what(), "'hello' is not a move in UCI notation (e.g. e2e4, e7e8q)");
  }
}

TEST(MoveText, SanOut) {
  const Position kiwi = Position::from_fen(kKiwipete);
  EXPECT_EQ(to_san(kiwi, parse_uci(kiwi, "e1g1")), "O-O");
  EXPECT_EQ(to_san(kiwi, parse_uci(kiwi, "e1c1")), "O-O-O");
  EXPECT_EQ(to_san(kiwi, parse_uci(kiwi, "e5f7")), "Nxf7");
  EXPECT_EQ(to_san(kiwi, parse_uci(kiwi, "d5e6")), "dxe6");
  EXPECT_EQ(to_san(kiwi, parse_uci(kiwi, "g2h3")), "gxh3");
  EXPECT_EQ(to_san(kiwi, parse_uci(kiwi, "c3b1")), "Nb1");
  EXPECT_EQ(to_san(kiwi, parse_uci(kiwi, "h1f1")), "Rf1");
  // File disambiguation: rooks a1 and h1 both reach d1.
  const Position rooks = Position::from_fen("3k4/8/8/8/8/8/4K3/R6R w - - 0 1");
  EXPECT_EQ(to_san(rooks, parse_uci(rooks, "a1d1")), "Rad1+");
  // Rank disambiguation: rooks a1 and a5 both reach a3.
  const Position file = Position::from_fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(to_san(file, parse_uci(file, "a1a3")), "R1a3");
  // Both: queens a1, c1 and a3 all reach b2.
  const Position queens = Position::from_fen("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
  EXPECT_EQ(to_san(queens, parse_uci(queens, "a1b2")), "Qa1b2");
  // Promotion with check and mate.
  const Position promo = Position::from_fen("7k/P7/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(to_san(promo, parse_uci(promo, "a7a8q")), "a8=Q+");
  const Position mate = Position::from_fen("6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1");
  EXPECT_EQ(to_san(mate, parse_uci(mate, "d1d8")), "Rd8#");
  const Position ep =
      Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  EXPECT_EQ(to_san(ep, parse_uci(ep, "e5f6")), "exf6");
}

TEST(MoveText, SanRoundTripsEveryLegalMove) {
  for (const char* fen :
       {kKiwipete, "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "1n5k/P7/8/8/8/8/8/K7 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}) {
    const Position pos = Position::from_fen(fen);
    for (Move m : legal_moves(pos)) EXPECT_EQ(parse_san(pos, to_san(pos, m)), m) << to_san(pos, m);
  }
}

TEST(MoveText, SanInVariants) {
  const Position kiwi = Position::from_fen(kKiwipete);
  EXPECT_EQ(to_uci(parse_san(kiwi, "0-0")), "e1g1");
  EXPECT_EQ(to_uci(parse_san(kiwi, "O-O-O!")), "e1c1");
  EXPECT_EQ(to_uci(parse_san(kiwi, "Nf7+?")), "e5f7");
  EXPECT_EQ(to_uci(parse_san(kiwi, "Nxf7")), "e5f7");
  const Position promo = Position::from_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(to_uci(parse_san(promo, "axb8=N")), "a7b8n");
  EXPECT_EQ(to_uci(parse_san(promo, "a8Q")), "a7a8q");
  EXPECT_EQ(to_uci(parse_san(promo, "a8=b")), "a7a8b");
}

TEST(MoveText, SanErrors) {
  const Position pos = Position::from_fen("3k4/8/8/8/8/8/4K3/R6R w - - 0 1");
  EXPECT_THROW(parse_san(pos, "Rd1"), MoveError);  // ambiguous
  EXPECT_THROW(parse_san(pos, "Nf3"), MoveError);  // illegal
  EXPECT_THROW(parse_san(pos, "O-O"), MoveError);  // no rights
  EXPECT_THROW(parse_san(pos, "xx"), MoveError);
  EXPECT_THROW(parse_san(pos, ""), MoveError);
  EXPECT_THROW(parse_san(pos, "Rz9"), MoveError);
  try {
    parse_san(pos, "Rd1");
  } catch (const MoveError& e) {
    EXPECT_STREQ(e.what(), "ambiguous SAN move 'Rd1' in position 3k4/8/8/8/8/8/4K3/R6R w - - 0 1");
  }
}

}  // namespace
}  // namespace avocet
