#include "avocet/search/lone_king_mates.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>

#include "avocet/chess/attacks.h"
#include "avocet/chess/movegen.h"

namespace avocet::search {

namespace {

constexpr int kPlacements = 64 * 64 * 64;
constexpr int8_t kNoMate = -1;

// A placement: the strong king s, its piece p and the lone king w.
constexpr int placement(int s, int p, int w) { return (s * 64 + p) * 64 + w; }

// Distances to mate, in plies, for one ending (the queen's or the rook's), by side to move;
// kNoMate where there is none (a draw, or a placement that cannot occur).
struct Distances {
  std::array<int8_t, kPlacements> strong_to_move, weak_to_move;
};

Bitboard piece_attacks(PieceType piece, Square from, Bitboard occupied) {
  return piece == PieceType::Queen ? queen_attacks(from, occupied) : rook_attacks(from, occupied);
}

Square sq(int i) { return square_at(i); }

// Whether the three pieces can stand so (distinct squares, kings apart).
bool possible(int s, int p, int w) {
  return s != p && s != w && p != w && !king_attacks(sq(s)).has(sq(w));
}

// The lone king's moves from placement (s, p, w): calls `to_strong(placement)` for each move
// that leaves a strong-to-move placement; returns false if it can take the undefended piece.
template <typename F>
bool weak_moves(PieceType piece, int s, int p, int w, F&& to_strong) {
  const Bitboard guarded_by_king = king_attacks(sq(s));
  // The piece's attacks with the lone king lifted off: it cannot hide behind itself.
  const Bitboard guarded = guarded_by_king | piece_attacks(piece, sq(p), Bitboard(sq(s)));
  for (Bitboard targets = king_attacks(sq(w)); targets;) {
    const int to = index(targets.pop_first());
    if (to == p) {
      if (!guarded_by_king.has(sq(p))) return false;
      continue;
    }
    if (!guarded.has(sq(to))) to_strong(placement(s, p, to));
  }
  return true;
}

// The strong side's moves from placement (s, p, w), each as the weak-to-move placement it leaves.
template <typename F>
void strong_moves(PieceType piece, int s, int p, int w, F&& to_weak) {
  const Bitboard lone_king_reach = king_attacks(sq(w));
  for (Bitboard targets = king_attacks(sq(s)); targets;) {
    const int to = index(targets.pop_first());
    if (to != p && !lone_king_reach.has(sq(to)) && to != w) to_weak(placement(to, p, w));
  }
  const Bitboard occupied = Bitboard(sq(s)) | Bitboard(sq(w));
  for (Bitboard targets = piece_attacks(piece, sq(p), occupied) & ~occupied; targets;)
    to_weak(placement(s, index(targets.pop_first()), w));
}

bool in_check(PieceType piece, int s, int p, int w) {
  return piece_attacks(piece, sq(p), Bitboard(sq(s))).has(sq(w));
}

void compute(PieceType piece, Distances& d) {
  d.strong_to_move.fill(kNoMate);
  d.weak_to_move.fill(kNoMate);
  // Ply 0: the lone king is mated.
  for (int s = 0; s < 64; ++s)
    for (int p = 0; p < 64; ++p)
      for (int w = 0; w < 64; ++w) {
        if (!possible(s, p, w) || !in_check(piece, s, p, w)) continue;
        bool escapes = false;
        if (!weak_moves(piece, s, p, w, [&](int) { escapes = true; })) escapes = true;
        if (!escapes) d.weak_to_move[size_t(placement(s, p, w))] = 0;
      }
  for (int ply = 1, quiet = 0; quiet < 2; ++ply) {
    bool changed = false;
    for (int s = 0; s < 64; ++s)
      for (int p = 0; p < 64; ++p)
        for (int w = 0; w < 64; ++w) {
          const size_t i = size_t(placement(s, p, w));
          if (!possible(s, p, w)) continue;
          if (ply % 2 == 1) {
            // The strong side mates in `ply` if some move leaves a mate in ply - 1.
            if (d.strong_to_move[i] != kNoMate || in_check(piece, s, p, w)) continue;
            bool mates = false;
            strong_moves(piece, s, p, w,
                         [&](int j) { mates = mates || d.weak_to_move[size_t(j)] == ply - 1; });
            if (mates) d.strong_to_move[i] = int8_t(ply), changed = true;
          } else {
            // The lone king is mated in `ply` if it has moves and every one is lost.
            if (d.weak_to_move[i] != kNoMate) continue;
            bool any = false, all_lost = true;
            const bool keeps_piece = weak_moves(piece, s, p, w, [&](int j) {
              any = true;
              all_lost = all_lost && d.strong_to_move[size_t(j)] != kNoMate;
            });
            if (keeps_piece && any && all_lost) d.weak_to_move[i] = int8_t(ply), changed = true;
          }
        }
    quiet = changed ? 0 : quiet + 1;
  }
}

const Distances& distances(PieceType piece) {
  static Distances queen, rook;
  static std::once_flag queen_once, rook_once;
  if (piece == PieceType::Queen) {
    std::call_once(queen_once, [] { compute(PieceType::Queen, queen); });
    return queen;
  }
  std::call_once(rook_once, [] { compute(PieceType::Rook, rook); });
  return rook;
}

// The ending's piece and the strong side, if `pos` is one of them.
struct Ending {
  PieceType piece;
  Color strong;
};
std::optional<Ending> ending_of(const Position& pos) {
  if (pos.occupied().count() != 3) return std::nullopt;
  for (const Color strong : {Color::White, Color::Black}) {
    if (pos.pieces(strong).count() != 2) continue;
    for (const PieceType piece : {PieceType::Queen, PieceType::Rook})
      if (pos.pieces(strong, piece)) return Ending{piece, strong};
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> lone_king_mate_plies(const Position& pos) {
  const std::optional<Ending> ending = ending_of(pos);
  if (!ending) return std::nullopt;
  const int s = index(pos.king_square(ending->strong));
  const int p = index(pos.pieces(ending->strong, ending->piece).first());
  const int w = index(pos.king_square(~ending->strong));
  const Distances& d = distances(ending->piece);
  const size_t i = size_t(placement(s, p, w));
  if (pos.side_to_move() == ending->strong) {
    const int8_t plies = d.strong_to_move[i];
    return plies == kNoMate ? std::nullopt : std::optional<int>(plies);
  }
  const int8_t plies = d.weak_to_move[i];
  return plies == kNoMate ? std::nullopt : std::optional<int>(-plies);
}

int longest_lone_king_mate(PieceType piece) {
  int longest = 0;
  for (const int8_t plies : distances(piece).strong_to_move)
    longest = std::max<int>(longest, plies);
  return longest;
}

std::vector<Move> lone_king_best_moves(const Position& pos) {
  const std::optional<int> root = lone_king_mate_plies(pos);
  if (!root) return {};
  // The best result for the side to move: the mate one ply shorter (strong side), or the
  // longest mate a move allows (the lone king, which is mated after every move).
  std::vector<Move> best;
  int best_plies = 0;
  for (const Move move : legal_moves(pos)) {
    Position child = pos;
    child.play(move);
    const std::optional<int> after = lone_king_mate_plies(child);
    if (!after) continue;       // the lone king takes the piece, or a draw
    const int plies = -*after;  // for the side to move at pos: >0 mates, <0 mated
    // The shortest mate, or the latest one: the least plies for the side to move either way.
    if (best.empty() || plies < best_plies) best.clear(), best_plies = plies;
    if (plies == best_plies) best.push_back(move);
  }
  return best;
}

}  // namespace avocet::search
