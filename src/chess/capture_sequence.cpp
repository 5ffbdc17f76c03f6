#include "avocet/chess/capture_sequence.h"

#include <algorithm>
#include <array>

#include "avocet/chess/exchange.h"
#include "avocet/chess/movegen.h"

namespace avocet {

namespace {

// Material the move takes off the board plus what a promotion adds; 0 for quiet moves and
// castling.
int immediate_gain(const Position& pos, Move m) {
  int gain = see_value(pos.captured_type(m));
  if (m.kind() == MoveKind::Promotion)
    gain += see_value(m.promotion()) - see_value(PieceType::Pawn);
  return gain;
}

// Collects the moves that may win material: captures (en passant included) and promotions.
// Castling also arrives through add(Move) and is dropped by its gain of 0. Quiet moves never
// enter the search below, so generating them was wasted work.
struct GainingMoves {
  MoveList& list;
  Bitboard enemies;

  void add(Square from, Bitboard targets) {
    for (Square to : targets& enemies) list.push(Move(from, to));
  }
  void add(Move m) { list.push(m); }
  template <int Offset>
  void add_pawn_moves(Bitboard targets) {
    for (Square to : targets& enemies) list.push(Move(to - Offset, to));
  }
  template <int Offset>
  void add_promotions(Bitboard targets) {
    movegen::Collector{list}.add_promotions<Offset>(targets);
  }
};

// SEE is at least the first capture's gain less the value of the piece that lands on the
// square (the opponent may recapture it and stop), so a capture that takes at least as much
// as it puts en prise needs no exchange evaluation to be known not to lose. Not on the first
// or last rank: there a pawn's recapture also promotes, which the bound leaves out.
bool loses_material(const Position& pos, Move m, int gain) {
  const PieceType lands =
      m.kind() == MoveKind::Promotion ? m.promotion() : type_of(pos.piece_on(m.from()));
  const bool promotion_rank = rank_of(m.to()) == Rank::R1 || rank_of(m.to()) == Rank::R8;
  if (gain >= see_value(lands) && !promotion_rank) return false;
  return see(pos, m) < 0;
}

class CaptureSearch {
 public:
  // The best material the side to move at `pos` wins from here by captures (0 when it is
  // better to stop), fail-hard within [alpha, beta].
  int search(const Position& pos, int alpha, int beta, int plies_left) {
    ++nodes_;
    alpha = std::max(alpha, 0);  // standing pat
    if (alpha >= beta || plies_left == 0 || nodes_ >= kCaptureSequenceNodes)
      return std::min(alpha, beta);
    struct Capture {
      Move move;
      int gain;
      int order;  // lower first among equal gains; the same for a position's colour-flipped twin
    };
    std::array<Capture, MoveList::kCapacity> captures;
    size_t count = 0;
    const auto relative = [&](Square s) { return index(relative_square(pos.side_to_move(), s)); };
    MoveList gaining;
    GainingMoves sink{gaining, pos.pieces(~pos.side_to_move())};
    movegen::generate(pos, sink);
    for (Move m : gaining) {
      const int gain = immediate_gain(pos, m);
      if (gain <= 0 || loses_material(pos, m, gain)) continue;
      // Least valuable attacker first, then squares seen from the mover's side, so that the
      // node limit cuts the same sequences in a position and in its colour-flipped twin.
      const int attacker = see_value(type_of(pos.piece_on(m.from())));
      captures[count++] = {m, gain,
                           (attacker * 64 + relative(m.from())) * 64 * 8 + relative(m.to()) * 8 +
                               index(m.promotion())};
    }
    // Most valuable victim (and promotion) first.
    std::sort(captures.begin(), captures.begin() + long(count),
              [](const Capture& a, const Capture& b) {
                return a.gain != b.gain ? a.gain > b.gain : a.order < b.order;
              });
    for (size_t i = 0; i < count && nodes_ < kCaptureSequenceNodes; ++i) {
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

 private:
  int nodes_ = 0;
};

}  // namespace

int capture_sequence_gain(const Position& pos, Move m) {
  constexpr int kUnbounded = 1 << 20;
  Position after = pos;
  after.play(m);
  const int gain = immediate_gain(pos, m);
  return gain - CaptureSearch().search(after, -kUnbounded, kUnbounded, kCaptureSequencePlies);
}

}  // namespace avocet
