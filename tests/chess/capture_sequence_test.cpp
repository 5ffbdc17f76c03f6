// capture_sequence_gain (chess/capture_sequence.h): hand-checked capture sequences, including the
// ones where it parts from SEE and from the opponent's best single capture.
#include "avocet/chess/capture_sequence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../test_data.h"
#include "avocet/chess/exchange.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"

namespace avocet {
namespace {

int gain(const std::string& fen, const char* move) {
  const Position pos = Position::from_fen(fen);
  return capture_sequence_gain(pos, parse_uci(pos, move));
}

TEST(CaptureSequence, QuietMovesAndSafeCaptures) {
  const std::string fen = "4k3/8/8/8/8/2n5/8/Q3K3 w - - 0 1";
  EXPECT_EQ(gain(fen, "a1c3"), 300);   // the knight was free
  EXPECT_EQ(gain(fen, "a1a4"), -900);  // a square the knight attacks
  EXPECT_EQ(gain(fen, "a1a3"), 0);     // a3 is safe (the knight covers a4, b1, b5, ...)
}

TEST(CaptureSequence, RecapturesAreAnswered) {
  // The queen takes a pawn that a pawn defends.
  EXPECT_EQ(gain("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 900);
  // The rook takes a knight whose defending rook the bishop covers: Rxd5 Rxd5 Bxd5 trades
  // rooks, so the knight is won either way.
  EXPECT_EQ(gain("3r2k1/8/8/3n4/8/1B6/8/3R2K1 w - - 0 1", "d1d5"), 300);
}

TEST(CaptureSequence, ACaptureThatUnblocksALineIsNotMade) {
  // After Nc3 Black could take the knight (SEE +3, the `threat` feature's 3 pawns), but Nxc3
  // opens the d-file and Rxd7 wins the queen: Black does better to take nothing.
  const std::string fen = "6k1/3q4/8/3n4/8/8/8/1N1R2K1 w - - 0 1";
  const Position pos = Position::from_fen(fen);
  EXPECT_EQ(see(pos, parse_uci(pos, "b1c3")), -300);
  EXPECT_EQ(gain(fen, "b1c3"), 0);
}

TEST(CaptureSequence, ACaptureThatExposesAPieceLosesIt) {
  // Bxa6 wins a pawn by SEE, but it takes the bishop off the d-file and Rxd1 wins the queen.
  const std::string fen = "3r2k1/8/p7/8/8/3B4/8/3Q3K w - - 0 1";
  const Position pos = Position::from_fen(fen);
  EXPECT_EQ(see(pos, parse_uci(pos, "d3a6")), 100);
  EXPECT_EQ(gain(fen, "d3a6"), 100 - 900);
}

TEST(CaptureSequence, PromotionsCount) {
  // The pawn queens on an empty square (+8), or next to a rook that takes it (-1).
  EXPECT_EQ(gain("6k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7a8q"), 800);
  EXPECT_EQ(gain("1r4k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7a8q"), 800 - 900);
  EXPECT_EQ(gain("1r4k1/P7/8/8/8/8/8/6K1 w - - 0 1", "a7b8q"), 500 + 800);
}

// The plain reference of capture_sequence_gain: every legal move generated, every capture's SEE
// evaluated. The library generates only captures and promotions and skips SEE where its
// lower bound already says the capture cannot lose; both must give the same gains.
class ReferenceCaptureSearch {
 public:
  int search(const Position& pos, int alpha, int beta, int plies_left) {
    ++nodes_;
    alpha = std::max(alpha, 0);
    if (alpha >= beta || plies_left == 0 || nodes_ >= kCaptureSequenceNodes)
      return std::min(alpha, beta);
    struct Capture {
      Move move;
      int gain, order;
    };
    std::vector<Capture> captures;
    const auto relative = [&](Square s) { return index(relative_square(pos.side_to_move(), s)); };
    for (Move m : legal_moves(pos)) {
      const int gain = immediate_gain(pos, m);
      if (gain <= 0 || see(pos, m) < 0) continue;
      const int attacker = see_value(type_of(pos.piece_on(m.from())));
      captures.push_back({m, gain,
                          (attacker * 64 + relative(m.from())) * 64 * 8 + relative(m.to()) * 8 +
                              index(m.promotion())});
    }
    std::sort(captures.begin(), captures.end(), [](const Capture& a, const Capture& b) {
      return a.gain != b.gain ? a.gain > b.gain : a.order < b.order;
    });
    for (size_t i = 0; i < captures.size() && nodes_ < kCaptureSequenceNodes; ++i) {
      Position child = pos;
      child.play(captures[i].move);
      const int g = captures[i].gain;
      const int value = g - search(child, g - beta, g - alpha, plies_left - 1);
      if (value > alpha) {
        alpha = value;
        if (alpha >= beta) break;
      }
    }
    return std::min(alpha, beta);
  }

  static int immediate_gain(const Position& pos, Move m) {
    int gain = see_value(pos.captured_type(m));
    if (m.kind() == MoveKind::Promotion)
      gain += see_value(m.promotion()) - see_value(PieceType::Pawn);
    return gain;
  }

 private:
  int nodes_ = 0;
};

int reference_gain(const Position& pos, Move m) {
  Position after = pos;
  after.play(m);
  return ReferenceCaptureSearch::immediate_gain(pos, m) -
         ReferenceCaptureSearch().search(after, -(1 << 20), 1 << 20, kCaptureSequencePlies);
}

TEST(CaptureSequence, AgreesWithThePlainReference) {
  int moves = 0, nonzero = 0;
  for (const char* file : {"perft.epd", "perft_random.epd"}) {
    for (const auto& entry : testing::read_perft_file(file)) {
      const Position pos = Position::from_fen(entry.fen);
      for (Move m : legal_moves(pos)) {
        const int expected = reference_gain(pos, m);
        ASSERT_EQ(capture_sequence_gain(pos, m), expected) << pos.fen() << " " << to_uci(m);
        ++moves;
        nonzero += expected != 0;
      }
    }
  }
  EXPECT_GT(moves, 10000);
  EXPECT_GT(nonzero, 1000);  // the sweep must hold real exchanges, not only quiet moves
}

}  // namespace
}  // namespace avocet
