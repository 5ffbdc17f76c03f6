#include "avocet/chess/attacks.h"

#include <vector>

namespace avocet {

namespace detail {

std::array<SliderEntry, 64> rook_entries;
std::array<SliderEntry, 64> bishop_entries;
std::array<std::array<Bitboard, 64>, 2> pawn_attack_table;
std::array<Bitboard, 64> knight_attack_table;
std::array<Bitboard, 64> king_attack_table;
std::array<std::array<Bitboard, 64>, 64> between_table;
std::array<std::array<Bitboard, 64>, 64> line_table;

}  // namespace detail

namespace {

// Sum over squares of 2^(relevant bits): the sizes of the "fancy" slider tables.
constexpr int kRookTableSize = 102400;
constexpr int kBishopTableSize = 5248;

Bitboard rook_table[kRookTableSize];
Bitboard bishop_table[kBishopTableSize];

constexpr int kRookSteps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopSteps[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

Bitboard leaper_attacks(Square s, const int (*steps)[2], int count) {
  Bitboard result;
  for (int i = 0; i < count; ++i) {
    const int f = index(file_of(s)) + steps[i][0], r = index(rank_of(s)) + steps[i][1];
    if (on_board(f, r)) result |= make_square(File(f), Rank(r));
  }
  return result;
}

// xorshift64*: deterministic, so magic search gives the same tables on every run.
struct Prng {
  uint64_t state;
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
  }
  uint64_t sparse() { return next() & next() & next(); }
};

// Fills each square's slice of `table` with attacks for every subset of its mask: slot by
// PEXT, or by a magic factor found here by trial (Stockfish-style "fancy" magics).
void init_slider(PieceType pt, std::array<detail::SliderEntry, 64>& entries, Bitboard* table) {
  Prng prng{0x9E3779B97F4A7C15ULL};
  std::vector<Bitboard> occupancies, references;
  std::vector<int> epoch(4096, 0);
  std::vector<Bitboard> seen(4096);
  Bitboard* next_slice = table;
  int attempt = 0;

  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    const Bitboard edges =
        ((kRank1 | kRank8) & ~rank_bb(rank_of(s))) | ((kFileA | kFileH) & ~file_bb(file_of(s)));
    detail::SliderEntry& e = entries[i];
    e.mask = (sliding_attacks_reference(pt, s, kEmpty) & ~edges).bits();
    e.shift = 64 - std::popcount(e.mask);
    e.attacks = next_slice;

    // Enumerate all subsets of the mask (Carry-Rippler trick).
    occupancies.clear();
    references.clear();
    uint64_t subset = 0;
    do {
      occupancies.push_back(Bitboard(subset));
      references.push_back(sliding_attacks_reference(pt, s, Bitboard(subset)));
      subset = (subset - e.mask) & e.mask;
    } while (subset);
    const size_t size = occupancies.size();

#if AVOCET_USE_PEXT
    for (size_t k = 0; k < size; ++k) next_slice[e.slot(occupancies[k])] = references[k];
#else
    for (bool found = false; !found;) {
      do {
        e.magic = prng.sparse();
      } while (std::popcount((e.mask * e.magic) >> 56) < 6);
      ++attempt;
      found = true;
      for (size_t k = 0; k < size; ++k) {
        const unsigned slot = e.slot(occupancies[k]);
        if (epoch[slot] < attempt) {
          epoch[slot] = attempt;
          seen[slot] = references[k];
        } else if (seen[slot] != references[k]) {
          found = false;
          break;
        }
      }
    }
    for (size_t k = 0; k < size; ++k) next_slice[e.slot(occupancies[k])] = references[k];
#endif
    next_slice += size;
  }
  (void)prng;
  (void)attempt;
}

void init_tables() {
  constexpr int knight_steps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                      {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int king_steps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                    {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  constexpr int white_pawn_steps[2][2] = {{-1, 1}, {1, 1}};
  constexpr int black_pawn_steps[2][2] = {{-1, -1}, {1, -1}};

  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    detail::knight_attack_table[i] = leaper_attacks(s, knight_steps, 8);
    detail::king_attack_table[i] = leaper_attacks(s, king_steps, 8);
    detail::pawn_attack_table[0][i] = leaper_attacks(s, white_pawn_steps, 2);
    detail::pawn_attack_table[1][i] = leaper_attacks(s, black_pawn_steps, 2);
  }

  init_slider(PieceType::Rook, detail::rook_entries, rook_table);
  init_slider(PieceType::Bishop, detail::bishop_entries, bishop_table);

  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      const Square sa = square_at(a), sb = square_at(b);
      for (PieceType pt : {PieceType::Rook, PieceType::Bishop}) {
        if (a != b && sliding_attacks_reference(pt, sa, kEmpty).has(sb)) {
          detail::line_table[a][b] = (sliding_attacks_reference(pt, sa, kEmpty) &
                                      sliding_attacks_reference(pt, sb, kEmpty)) |
                                     sa | sb;
          detail::between_table[a][b] = sliding_attacks_reference(pt, sa, Bitboard(sb)) &
                                        sliding_attacks_reference(pt, sb, Bitboard(sa));
        }
      }
    }
  }
}

// Tables are ready before main(): nothing in this library reads them during static init.
const bool tables_ready = (init_tables(), true);

}  // namespace

Bitboard sliding_attacks_reference(PieceType pt, Square s, Bitboard occupied) {
  const int(*steps)[2] = pt == PieceType::Rook ? kRookSteps : kBishopSteps;
  Bitboard result;
  for (int d = 0; d < 4; ++d) {
    int f = index(file_of(s)) + steps[d][0], r = index(rank_of(s)) + steps[d][1];
    for (; on_board(f, r); f += steps[d][0], r += steps[d][1]) {
      const Square to = make_square(File(f), Rank(r));
      result |= to;
      if (occupied.has(to)) break;
    }
  }
  return result;
}

}  // namespace avocet
