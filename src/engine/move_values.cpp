#include "avocet/engine/move_values.h"

#include <fmt/format.h>

#include <algorithm>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/search/argmax_policy.h"
#include "avocet/search/tablebase_root.h"
#include "avocet/search/value.h"

namespace avocet::engine {

using search::rank_root_moves;
using search::result_score;
using search::rule_value_after;
using search::TablebaseMove;
using search::TablebaseSettings;

namespace {

// Why the rules end the game after a move (one that rule_value_after scores).
std::string termination_text(Termination t) {
  switch (t) {
    case Termination::Checkmate:
      return "mate";
    case Termination::Stalemate:
      return "stalemate";
    case Termination::InsufficientMaterial:
      return "insufficient material";
    case Termination::SeventyFiveMoves:
      return "75-move rule";
    case Termination::FivefoldRepetition:
      return "fivefold repetition";
    case Termination::FiftyMoves:
      return "50-move rule";
    case Termination::ThreefoldRepetition:
      return "threefold repetition";
    case Termination::None:
      break;
  }
  return "";
}

std::string tablebase_text(const TablebaseMove& t) {
  const char* result = "draw";
  switch (t.wdl) {
    case syzygy::Wdl::Win:
      result = "win";
      break;
    case syzygy::Wdl::CursedWin:
      result = "cursed win (a draw)";
      break;
    case syzygy::Wdl::BlessedLoss:
      result = "blessed loss (a draw)";
      break;
    case syzygy::Wdl::Loss:
      result = "loss";
      break;
    case syzygy::Wdl::Draw:
      break;
  }
  if (t.dtz && *t.dtz != 0) return fmt::format("tablebase {}, DTZ {}", result, *t.dtz);
  return fmt::format("tablebase {}", result);
}

}  // namespace

std::vector<MoveValue> value_moves(const Game& game, nn::Evaluator& evaluator,
                                   const TablebaseSettings& tables) {
  const Position& pos = game.position();
  const MoveList legal = legal_moves(pos);
  if (legal.empty()) return {};
  std::vector<float> network(legal.size());
  evaluator.evaluate(pos, {legal.begin(), legal.size()}, network);

  // In the tables' ranking where they cover the position, so that equal results stay in DTZ
  // order through the stable sort below; else in legal move order.
  std::vector<TablebaseMove> ranked;
  if (tables.tables)
    ranked = rank_root_moves(pos, pos.halfmove_clock(), *tables.tables, tables.rule50,
                             tables.probe_limit);
  std::vector<MoveValue> values;
  Game after = game;
  const auto add = [&](Move m, const TablebaseMove* tablebase) {
    const size_t i = size_t(std::find(legal.begin(), legal.end(), m) - legal.begin());
    MoveValue entry{m, network[i], network[i], ""};
    after.play(m);
    const float rule = rule_value_after(after);
    if (rule >= 0.0f) {
      entry.value = rule;
      entry.decided = termination_text(after.termination());
    } else if (tablebase) {
      entry.value = result_score(tablebase->wdl);
      entry.decided = tablebase_text(*tablebase);
    }
    after.undo();
    values.push_back(std::move(entry));
  };
  if (!ranked.empty())
    for (const TablebaseMove& t : ranked) add(t.move, &t);
  else
    for (Move m : legal) add(m, nullptr);
  std::stable_sort(values.begin(), values.end(),
                   [](const MoveValue& a, const MoveValue& b) { return a.value > b.value; });
  return values;
}

std::string move_values_report(std::string_view net_name, const Game& game,
                               nn::Evaluator& evaluator, const TablebaseSettings& tables) {
  const Position& pos = game.position();
  std::string text = fmt::format("net: {}\nfen: {}\n", net_name, pos.fen());
  const std::vector<MoveValue> values = value_moves(game, evaluator, tables);
  if (values.empty())
    return text + fmt::format("no legal moves ({})\n", pos.in_check() ? "checkmate" : "stalemate");
  // The rule or table column is as wide as its longest entry ("tablebase blessed loss (a
  // draw), DTZ -105" is 40 characters), so the net's column stays under its header.
  size_t decided_width = 22;
  for (const MoveValue& v : values) decided_width = std::max(decided_width, v.decided.size());
  text += fmt::format("{:<6} {:<8} {:<8}  {:<{}} {:>8}\n", "move", "san", "win", "decided by",
                      decided_width, "net");
  for (const MoveValue& v : values)
    text +=
        fmt::format("{:<6} {:<8} {:>8.6f}  {:<{}} {:>8.6f}\n", to_uci(v.move), to_san(pos, v.move),
                    v.value, v.decided.empty() ? "-" : v.decided, decided_width, v.network);
  return text;
}

}  // namespace avocet::engine
