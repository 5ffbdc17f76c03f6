#include "avocet/search/tablebase_root.h"

#include <algorithm>

#include "avocet/chess/movegen.h"

namespace avocet::search {

namespace {

using syzygy::Wdl;

Wdl negate(Wdl w) { return Wdl(-value(w)); }

// Without the 50-move rule, a cursed win is a win and a blessed loss a loss.
Wdl apply_rule(Wdl w, bool rule50) {
  if (rule50) return w;
  if (w == Wdl::CursedWin) return Wdl::Win;
  if (w == Wdl::BlessedLoss) return Wdl::Loss;
  return w;
}

// DTZ of a zeroing move by the result it leads to.
int zeroing_dtz(Wdl w) {
  switch (w) {
    case Wdl::Win:
      return 1;
    case Wdl::CursedWin:
      return 101;
    case Wdl::Draw:
      return 0;
    case Wdl::BlessedLoss:
      return -101;
    case Wdl::Loss:
      return -1;
  }
  return 0;
}

// The result of a line whose next zeroing move comes `dtz` plies from a root whose halfmove
// clock is `clock`: the zeroing move must come before the counter reaches 100.
Wdl wdl_of_dtz(int dtz, int clock, bool rule50) {
  if (dtz == 0) return Wdl::Draw;
  if (dtz > 0) return dtz + clock <= 100 ? Wdl::Win : apply_rule(Wdl::CursedWin, rule50);
  return -dtz + clock <= 100 ? Wdl::Loss : apply_rule(Wdl::BlessedLoss, rule50);
}

bool is_mate(const Position& pos) { return pos.in_check() && !has_legal_move(pos); }

// One move's entry; nullopt when a table is missing (a DTZ table only matters when
// `use_dtz`).
std::optional<TablebaseMove> rank_move(const Position& pos, Move m, int halfmove_clock,
                                       const syzygy::Tablebases& tables, bool rule50,
                                       bool use_dtz) {
  Position child = pos;
  child.play(m);
  const std::optional<int> one = use_dtz ? std::optional<int>(1) : std::nullopt;
  if (is_mate(child)) return TablebaseMove{m, Wdl::Win, one};
  const bool zeroing = child.halfmove_clock() == 0;
  if (!zeroing && rule50 && halfmove_clock + 1 >= 100)
    return TablebaseMove{m, Wdl::Draw, use_dtz ? std::optional<int>(0) : std::nullopt};
  if (zeroing || !use_dtz) {
    // After a zeroing move the child's WDL is exact (its clock is 0); otherwise, without DTZ,
    // it is the best guess.
    const auto w = tables.probe_wdl(child);
    if (!w) return std::nullopt;
    const Wdl mine = negate(*w);
    return TablebaseMove{m, apply_rule(mine, rule50),
                         use_dtz ? std::optional<int>(zeroing_dtz(mine)) : std::nullopt};
  }
  const auto dtz = tables.probe_dtz(child);
  if (!dtz) return std::nullopt;
  // The child's DTZ counts from the child: one ply more from the root.
  int d = -*dtz;
  d += (d > 0) - (d < 0);
  return TablebaseMove{m, wdl_of_dtz(d, halfmove_clock, rule50), d};
}

}  // namespace

std::vector<TablebaseMove> rank_root_moves(const Position& pos, int halfmove_clock,
                                           const syzygy::Tablebases& tables, bool rule50,
                                           int probe_limit) {
  if (!tables.covers(pos, probe_limit)) return {};
  const MoveList moves = legal_moves(pos);
  std::vector<TablebaseMove> ranked;
  // With DTZ first; when a DTZ table is missing, by WDL alone.
  for (const bool use_dtz : {true, false}) {
    ranked.clear();
    for (Move m : moves) {
      const auto entry = rank_move(pos, m, halfmove_clock, tables, rule50, use_dtz);
      if (!entry) break;
      ranked.push_back(*entry);
    }
    if (ranked.size() == moves.size()) break;
  }
  if (ranked.size() != moves.size()) return {};
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const TablebaseMove& a, const TablebaseMove& b) {
                     if (a.wdl != b.wdl) return value(a.wdl) > value(b.wdl);
                     return a.dtz.value_or(0) < b.dtz.value_or(0);
                   });
  return ranked;
}

std::vector<TablebaseMove> best_group(std::span<const TablebaseMove> ranked) {
  std::vector<TablebaseMove> group;
  for (const TablebaseMove& t : ranked)
    if (t.wdl == ranked.front().wdl && t.dtz == ranked.front().dtz) group.push_back(t);
  return group;
}

}  // namespace avocet::search
