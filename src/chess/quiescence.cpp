#include "avocet/chess/quiescence.h"

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

class Quiescence {
 public:
  // The best material the side to move at `pos` wins from here by captures (0 when it is
  // better to stop), fail-hard within [alpha, beta].
  int search(const Position& pos, int alpha, int beta, int plies_left) {
    ++nodes_;
    alpha = std::max(alpha, 0);  // standing pat
    if (alpha >= beta || plies_left == 0 || nodes_ >= kQuiescenceNodes)
      return std::min(alpha, beta);
    struct Capture {
      Move move;
      int gain;
      int order;  // lower first among equal gains; the same for a position's colour-flipped twin
    };
    std::array<Capture, MoveList::kCapacity> captures;
    size_t count = 0;
    const auto relative = [&](Square s) { return index(relative_square(pos.side_to_move(), s)); };
    for (Move m : legal_moves(pos)) {
      const int gain = immediate_gain(pos, m);
      if (gain <= 0 || see(pos, m) < 0) continue;
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
    for (size_t i = 0; i < count && nodes_ < kQuiescenceNodes; ++i) {
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

int quiescence_gain(const Position& pos, Move m) {
  constexpr int kUnbounded = 1 << 20;
  Position after = pos;
  after.play(m);
  const int gain = immediate_gain(pos, m);
  return gain - Quiescence().search(after, -kUnbounded, kUnbounded, kQuiescencePlies);
}

}  // namespace avocet
