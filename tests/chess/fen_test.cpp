#include <gtest/gtest.h>

#include <random>

#include "avocet/chess/movegen.h"
#include "avocet/chess/position.h"

namespace avocet {
namespace {

TEST(Fen, RoundTrips) {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 42",
           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
       }) {
    EXPECT_EQ(Position::from_fen(fen).fen(), fen);
  }
}

// Chess960 castling fields: Shredder-FEN file letters and X-FEN are read; X-FEN is written,
// with KQkq for the outermost rook on its side of the king and the file letter for an inner
// one, so a position keeps its castling rooks through a round trip.
TEST(Fen, Chess960CastlingFieldsReadAndWrittenAsXFen) {
  struct Case {
    const char* fen;
    const char* written;
  };
  for (const Case& c : {
           // Shredder-FEN of a start position (SP 0): both rooks are outermost.
           Case{"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
                "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"},
           Case{"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
                "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"},
           // Standard chess in Shredder-FEN is plain KQkq.
           Case{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
           // The inner rook b1 castles (the a1 rook is outermost): its file is written.
           Case{"rr2k3/8/8/8/8/8/8/RR2K2R w HBb - 0 1", "rr2k3/8/8/8/8/8/8/RR2K2R w KBb - 0 1"},
           Case{"rr2k3/8/8/8/8/8/8/RR2K2R w KBb - 0 1", "rr2k3/8/8/8/8/8/8/RR2K2R w KBb - 0 1"},
           // An inner king-side rook beside the king, and only one right per side.
           Case{"4k3/8/8/8/8/8/8/4KRR1 b F - 3 20", "4k3/8/8/8/8/8/8/4KRR1 b F - 3 20"},
           Case{"4k3/8/8/8/8/8/8/4KRR1 w G - 0 1", "4k3/8/8/8/8/8/8/4KRR1 w K - 0 1"},
           // King on b1 with the a1 rook; black king beside its rook on g8.
           Case{"5rk1/8/8/8/8/8/8/RK6 w Af - 0 1", "5rk1/8/8/8/8/8/8/RK6 w Qq - 0 1"},
       }) {
    const Position pos = Position::from_fen(c.fen);
    EXPECT_EQ(pos.fen(), c.written) << c.fen;
    const Position again = Position::from_fen(pos.fen());
    EXPECT_EQ(again.fen(), c.written);
    EXPECT_EQ(again.key(), pos.key()) << c.fen;
    EXPECT_EQ(again.castling_rights(), pos.castling_rights()) << c.fen;
    for (CastlingRight r : {kWhiteKingSide, kWhiteQueenSide, kBlackKingSide, kBlackQueenSide})
      if (pos.can_castle(r)) {
        EXPECT_EQ(again.castling_rook(r), pos.castling_rook(r)) << c.fen;
      }
  }
  const Position inner = Position::from_fen("rr2k3/8/8/8/8/8/8/RR2K2R w HBb - 0 1");
  EXPECT_EQ(inner.castling_rook(kWhiteQueenSide), Square::B1);
  EXPECT_EQ(inner.castling_rook(kWhiteKingSide), Square::H1);
  EXPECT_EQ(inner.castling_rook(kBlackQueenSide), Square::B8);
  EXPECT_FALSE(inner.has_standard_castling());
  EXPECT_TRUE(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
                  .has_standard_castling());
  EXPECT_FALSE(Position::from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1")
                   .has_standard_castling());
  // Without rights any placement is standard-compatible.
  EXPECT_TRUE(Position::from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1")
                  .has_standard_castling());
}

TEST(Fen, FourFieldsDefaultClocks) {
  EXPECT_EQ(Position::from_fen("8/8/8/4k3/8/8/8/4K3 b - -").fen(), "8/8/8/4k3/8/8/8/4K3 b - - 0 1");
}

// N6: a fullmove number of 0 is read as 1, as Stockfish and python-chess read it.
TEST(Fen, FullmoveZeroIsReadAsOne) {
  EXPECT_EQ(Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 0").fen(),
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
}

TEST(Fen, ExtraBlanksAreAccepted) {
  EXPECT_EQ(Position::from_fen("  8/8/8/4k3/8/8/8/4K3   w - -  3  9 ").fen(),
            "8/8/8/4k3/8/8/8/4K3 w - - 3 9");
}

// Like python-chess's board.fen(): the en passant square is written only when a legal
// en passant capture exists.
TEST(Fen, EnPassantWrittenOnlyWhenCaptureIsLegal) {
  // No black pawn can capture on e3.
  EXPECT_EQ(Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").fen(),
            "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
  // The d4 pawn can capture on e3.
  EXPECT_EQ(Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").fen(),
            "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  // The capture would expose the black king on the fourth rank to the rook.
  EXPECT_EQ(Position::from_fen("8/8/8/8/R2pP2k/8/8/4K3 b - e3 0 1").fen(),
            "8/8/8/8/R2pP2k/8/8/4K3 b - - 0 1");
  // Capturing would empty the fourth rank between the black king and the white queen.
  EXPECT_EQ(Position::from_fen("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1").fen(),
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
  // The capturing pawn is pinned diagonally to its king.
  EXPECT_EQ(Position::from_fen("8/6k1/8/8/3pP3/8/8/B3K3 b - e3 0 1").fen(),
            "8/6k1/8/8/3pP3/8/8/B3K3 b - - 0 1");
}

TEST(Fen, KeyIsComputedAndIncremental) {
  Position pos = Position::start();
  EXPECT_EQ(pos.key(), pos.compute_key());
  EXPECT_NE(Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").key(),
            Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").key());
}

struct MalformedFen {
  const char* fen;
  const char* message;
};

void PrintTo(const MalformedFen& c, std::ostream* os) { *os << '"' << c.fen << '"'; }

class FenErrors : public ::testing::TestWithParam<MalformedFen> {};

TEST_P(FenErrors, RejectedWithSpecificMessage) {
  try {
    Position::from_fen(GetParam().fen);
    FAIL() << "accepted: " << GetParam().fen;
  } catch (const FenError& e) {
    EXPECT_STREQ(e.what(), GetParam().message) << GetParam().fen;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, FenErrors,
    ::testing::Values(
        MalformedFen{"", "FEN is empty"}, MalformedFen{"   ", "FEN is empty"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                     "FEN has 1 fields; expected 6 (or 4 without the clocks)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",
                     "FEN has 3 fields; expected 6 (or 4 without the clocks)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
                     "FEN has 5 fields; expected 6 (or 4 without the clocks)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
                     "FEN has 7 fields; expected 6 (or 4 without the clocks)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "piece placement has 7 ranks; expected 8 separated by '/'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "piece placement has 9 ranks; expected 8 separated by '/'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
                     "piece placement has 9 ranks; expected 8 separated by '/'"},
        MalformedFen{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "invalid character 'x' in rank 7 of the piece placement"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/0/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "invalid character '0' in rank 3 of the piece placement"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/9/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "invalid character '9' in rank 3 of the piece placement"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "rank 4 has two digits in a row"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "rank 4 describes 7 squares; expected 8"},
        MalformedFen{"rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "rank 8 describes 9 squares; expected 8"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1p w KQkq - 0 1",
                     "rank 1 describes 9 squares; expected 8"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                     "side to move must be 'w' or 'b', got 'x'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
                     "side to move must be 'w' or 'b', got 'W'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
                     "invalid castling field 'KQxq': expected '-', letters from 'KQkq' or rook "
                     "files ('A'-'H' for white, 'a'-'h' for black)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1",
                     "castling field 'KKq' repeats 'K'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -- - 0 1",
                     "invalid castling field '--': expected '-', letters from 'KQkq' or rook "
                     "files ('A'-'H' for white, 'a'-'h' for black)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                     "invalid en passant field 'e9': expected '-' or a square"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq x3 0 1",
                     "invalid en passant field 'x3': expected '-' or a square"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
                     "en passant square e4 is impossible with black to move (must be on rank 3)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
                     "en passant square e3 is impossible: no white pawn on e4"},
        MalformedFen{"rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                     "en passant square e6 is impossible: e6 and e7 must be empty"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                     "halfmove clock must be a non-negative integer, got 'x'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
                     "halfmove clock must be a non-negative integer, got '-1'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5",
                     "fullmove number must be a non-negative integer, got '1.5'"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1",
                     "halfmove clock '99999999999' is out of range (at most 65535)"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 70000",
                     "fullmove number '70000' is out of range (at most 65535)"},
        MalformedFen{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
                     "black has 0 kings; expected exactly one"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
                     "white has 2 kings; expected exactly one"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "white has 9 pawns; at most 8 are possible"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                     "white has 17 pieces; at most 16 are possible"},
        MalformedFen{"rnbqkbnP/ppppppp1/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1",
                     "pawn on h8: pawns cannot stand on the first or last rank"},
        MalformedFen{"4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
                     "pawn on a1: pawns cannot stand on the first or last rank"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
                     "castling right 'K' needs a white rook on the first rank on the h-side of "
                     "the king on e1"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Qkq - 0 1",
                     "castling right 'Q' needs a white rook on the first rank on the a-side of "
                     "the king on e1"},
        MalformedFen{"1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1",
                     "castling right 'q' needs a black rook on the eighth rank on the a-side of "
                     "the king on e8"},
        MalformedFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqk - 0 1",
                     "castling field 'KQkqk' repeats 'k'"},
        // Chess960 castling fields (X-FEN and Shredder-FEN).
        MalformedFen{"4k3/8/8/8/8/8/4K3/7R w K - 0 1",
                     "castling right 'K' needs the white king on the first rank, not on e2"},
        MalformedFen{"4k3/8/8/8/8/8/8/4K2R w G - 0 1",
                     "castling right 'G' needs a white rook on g1"},
        MalformedFen{"4k3/8/8/8/8/8/8/4K2R w E - 0 1",
                     "castling right 'E' needs a white rook on e1"},
        MalformedFen{"1r2k3/8/8/8/8/8/8/4K3 w a - 0 1",
                     "castling right 'a' needs a black rook on a8"},
        MalformedFen{"4k3/8/8/8/8/8/8/R3K2R w AQ - 0 1",
                     "castling field 'AQ' gives white two a-side castling rights ('A' and 'Q')"},
        MalformedFen{"4k3/8/8/8/8/8/8/4KRR1 w GF - 0 1",
                     "castling field 'GF' gives white two h-side castling rights ('G' and 'F')"},
        MalformedFen{
            "7k/8/8/8/8/8/8/4K2R w Kk - 0 1",
            "castling right 'k' needs a black rook on the eighth rank on the h-side of the "
            "king on h8"},
        MalformedFen{"4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "the side not to move (black) is in check"},
        MalformedFen{"8/8/8/8/8/8/3k4/3K4 b - - 0 1", "the side not to move (white) is in check"},
        MalformedFen{"4k3/8/5N2/1B6/8/8/8/4RK2 b - - 0 1",
                     "the side to move is in check from 3 pieces; at most 2 are possible"}));

// Random mutations of valid FENs either parse into a position that round-trips and has
// consistent move generation, or are rejected with FenError; nothing else may happen.
TEST(Fen, MutatedFensParseOrFailCleanly) {
  const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0123456789x";
  const std::vector<std::string> seeds = {
      std::string(kStartFen),
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
      "rr2k3/8/8/8/8/8/8/RR2K2R w HBb - 0 1"};
  std::mt19937 rng(3);
  int accepted = 0, rejected = 0;
  for (int trial = 0; trial < 50000; ++trial) {
    std::string fen = seeds[rng() % seeds.size()];
    for (int edits = 1 + rng() % 3; edits > 0; --edits) {
      const size_t at = rng() % (fen.size() + 1);
      switch (rng() % 3) {
        case 0:
          if (at < fen.size()) fen[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          fen.insert(fen.begin() + at, alphabet[rng() % alphabet.size()]);
          break;
        default:
          if (at < fen.size()) fen.erase(at, 1);
      }
    }
    try {
      const Position pos = Position::from_fen(fen);
      ++accepted;
      ASSERT_EQ(Position::from_fen(pos.fen()).fen(), pos.fen()) << fen;
      ASSERT_EQ(Position::from_fen(pos.fen()).key(), pos.key()) << fen;
      ASSERT_EQ(legal_moves(pos).size(), count_legal_moves(pos)) << fen;
    } catch (const FenError&) {
      ++rejected;
    }
  }
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(rejected, 1000);
}

}  // namespace
}  // namespace avocet
