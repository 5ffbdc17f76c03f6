#include "avocet/nn/action_table.h"

#include <array>
#include <cstdint>
#include <stdexcept>

#include "avocet/chess/attacks.h"

namespace avocet::nn {

namespace {

struct Action {
  Square from, to;
  PieceType promotion;  // None for non-promotions
};

// Index into the lookup: from * 64 * 5 + to * 5 + promotion slot (0 none, 1..4 N B R Q).
constexpr int slot(Square from, Square to, PieceType promotion) {
  return (index(from) * 64 + index(to)) * 5 + (promotion == PieceType::None ? 0 : index(promotion));
}

struct Table {
  std::array<Action, kActionCount> actions;
  std::array<int16_t, 64 * 64 * 5> index;

  Table() {
    index.fill(-1);
    int n = 0;
    auto add = [&](Square from, Square to, PieceType promotion) {
      actions[n] = {from, to, promotion};
      index[slot(from, to, promotion)] = int16_t(n++);
    };
    for (int s = 0; s < 64; ++s) {
      const Square from = square_at(s);
      for (Square to : queen_attacks(from, kEmpty)) add(from, to, PieceType::None);
      for (Square to : knight_attacks(from)) add(from, to, PieceType::None);
    }
    constexpr PieceType kOrder[] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                                    PieceType::Knight};
    for (const auto& [rank, next_rank] : {std::pair{Rank::R2, Rank::R1}, {Rank::R7, Rank::R8}}) {
      for (int f = 0; f < 8; ++f) {
        const Square from = make_square(File(f), rank);
        for (int df : {0, -1, 1}) {
          if (f + df < 0 || f + df > 7) continue;
          for (PieceType pt : kOrder) add(from, make_square(File(f + df), next_rank), pt);
        }
      }
    }
    if (n != kActionCount) throw std::logic_error("action table size");
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

int action_index(Move m) {
  const Move seen = network_move(m);
  return table().index[slot(seen.from(), seen.to(), seen.promotion())];
}

std::string action_uci(int action) {
  const Action& a = table().actions.at(action);
  std::string text = square_name(a.from) + square_name(a.to);
  if (a.promotion != PieceType::None) text += "nbrq"[index(a.promotion) - 1];
  return text;
}

Move mirror_move(Move m) { return Move::from_bits(uint16_t(m.bits() ^ (56 | 56 << 6))); }

}  // namespace avocet::nn
