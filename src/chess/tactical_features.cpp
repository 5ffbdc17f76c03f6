#include "avocet/chess/tactical_features.h"

#include <algorithm>

#include "avocet/chess/capture_sequence.h"
#include "avocet/chess/exchange.h"
#include "avocet/chess/movegen.h"

namespace avocet {

namespace {

// None, P, N/B, R, Q, K: knights and bishops share a code, as they share an exchange value.
int attacker_code(PieceType pt) {
  constexpr int kCode[kPieceTypeCount + 1] = {1, 2, 2, 3, 4, 5, 0};
  return kCode[index(pt)];
}

int pawns(int centipawns) { return centipawns / see_value(PieceType::Pawn); }

// Columns of MoveFeatures, in kMoveFeatureGroups' order.
enum MoveColumn { kPieces, kSee, kCheck, kThreat, kMate, kAllowsMate, kQsearch, kTargets };
static_assert(kMoveFeatureGroups[kTargets].name == "targets" && kTargets + 1 == kMoveFeatureCount);

constexpr MoveGroupSet bit(MoveColumn column) { return 1u << column; }

// Does the side to move have a move among its legal `moves` that mates?
bool has_mate_in_one(const Position& pos, const MoveList& moves) {
  for (Move reply : moves) {
    if (!gives_check(pos, reply)) continue;
    Position after = pos;
    after.play(reply);
    if (!has_legal_move(after)) return true;
  }
  return false;
}

}  // namespace

std::array<SquareFeatures, 64> square_features(const Position& pos) {
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard occupied = pos.occupied();
  const Bitboard pinned_ours = pinned_pieces(pos, us), pinned_theirs = pinned_pieces(pos, them);
  std::array<SquareFeatures, 64> features{};
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    const Bitboard attackers = pos.attackers_to(s, occupied);
    const Bitboard ours = attackers & pos.pieces(us), theirs = attackers & pos.pieces(them);
    SquareFeatures& f = features[size_t(i)];
    f[0] = uint8_t(std::min(ours.count(), 3) * 4 + std::min(theirs.count(), 3));
    f[1] = uint8_t(attacker_code(least_valuable_type(pos, ours)) * 6 +
                   attacker_code(least_valuable_type(pos, theirs)));
    f[2] = pinned_ours.has(s) ? 1 : pinned_theirs.has(s) ? 2 : 0;
    const Piece piece = pos.piece_on(s);
    if (piece != Piece::None && capture_gain(pos, s) > 0) f[3] = color_of(piece) == us ? 1 : 2;
  }
  return features;
}

MoveFeatures move_features(const Position& pos, Move m, MoveGroupSet groups) {
  const auto wanted = [&](MoveColumn column) { return (groups & bit(column)) != 0; };
  MoveFeatures f{};
  const PieceType moved = type_of(pos.piece_on(m.from()));
  const PieceType taken = pos.captured_type(m);
  const int captured = taken == PieceType::None ? 0 : index(taken) + 1;  // none, P, N, B, R, Q
  f[kPieces] = uint8_t(index(moved) * 6 + captured);
  if (wanted(kSee)) f[kSee] = uint8_t(std::clamp(pawns(see(pos, m)), -9, 9) + 9);
  const bool check = gives_check(pos, m);
  f[kCheck] = check;

  Position after = pos;
  after.play(m);
  // threat, mate and allows_mate look at the replies.
  if (groups & (bit(kThreat) | bit(kMate) | bit(kAllowsMate))) {
    const MoveList replies = legal_moves(after);
    f[kMate] = check && replies.empty();
    int threat = 0;
    for (Move reply : replies)
      if (after.is_capture(reply)) threat = std::max(threat, see(after, reply));
    f[kThreat] = uint8_t(std::clamp(pawns(threat), 0, 9));
    f[kAllowsMate] = wanted(kAllowsMate) && !replies.empty() && has_mate_in_one(after, replies);
  }
  if (wanted(kQsearch))
    f[kQsearch] = uint8_t(std::clamp(pawns(capture_sequence_gain(pos, m)), -9, 9) + 9);
  if (wanted(kTargets)) {
    int targets = 0;
    const Color them = after.side_to_move();
    for (Square s : after.pieces(them) & ~after.pieces(them, PieceType::King))
      targets += capture_gain(after, s) > 0;
    f[kTargets] = uint8_t(std::min(targets, 3));
  }
  return f;
}

void move_features(const Position& pos, std::span<const Move> moves, std::span<MoveFeatures> out,
                   MoveGroupSet groups) {
  for (size_t i = 0; i < moves.size(); ++i) out[i] = move_features(pos, moves[i], groups);
}

}  // namespace avocet
