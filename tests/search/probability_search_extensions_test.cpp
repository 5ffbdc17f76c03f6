// The search's forcing-move extensions and its rule-50 damping, on the deterministic material
// evaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "avocet/chess/move_text.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/probability_search.h"
#include "avocet/search/rules.h"
#include "avocet/search/value.h"

namespace avocet::search {
namespace {

IterationReport search_one_iteration(const Game& game, const SearchParameters& params,
                                     std::vector<Move> searchmoves = {}) {
  nn::MaterialEvaluator evaluator;
  TranspositionTable table(16);
  SearchControl control;
  ProbabilitySearcher searcher(evaluator, table, params, control);
  Limits limits;
  limits.iterations = 1;
  limits.searchmoves = std::move(searchmoves);
  return searcher.run(game, limits, nullptr);
}

TEST(SearchExtensions, ChecksAndWinningCapturesBelowThetaAreExpanded) {
  // Lichess 000hf after ...Kxf7: in the first iteration the replies to the root's moves are
  // leaves. Among them are checks and captures that win material, which the extensions
  // expand (one network pass each); the root's quiet moves also gain nothing from them.
  Game game(Position::from_fen("r1bqk2r/pp1nbNp1/2p1p2p/8/2BP4/1PN3P1/P3QP1P/3R1RK1 b kq - 0 19"));
  game.play(parse_uci(game.position(), "e8f7"));

  SearchParameters plain;
  plain.forcing_extensions = 0;
  const IterationReport without = search_one_iteration(game, plain);
  const IterationReport with = search_one_iteration(game, SearchParameters{});
  EXPECT_GT(with.nodes, without.nodes);
}

TEST(SearchExtensions, AnExtendedCheckSearchesItsOnlyReplyAndSeesTheMate) {
  // Rxa4 wins a knight and takes nearly all of the root's probability, so Rb8+ is a leaf of
  // the first iteration. Extended, it leaves Black one move, ...Rc8 (probability theta * 1,
  // so searched), after which Rxc8 mates: the check is a mate in 2, better than the knight.
  const Game game(Position::from_fen("7k/2r3pp/8/8/n7/8/6PP/RR4K1 w - - 0 1"));
  const auto first_iteration = [&](int extensions) {
    SearchParameters params;
    params.forcing_extensions = extensions;
    params.forcing_reach = 1'000'000;  // however unlikely the net finds the check
    return search_one_iteration(
               game, params,
               {parse_uci(game.position(), "a1a4"), parse_uci(game.position(), "b1b8")})
        .lines.front();
  };
  const RootLine with = first_iteration(2);
  EXPECT_EQ(to_uci(with.move), "b1b8");
  ASSERT_TRUE(is_mate_value(with.value));
  EXPECT_EQ(mate_in_moves(with.value), 2);

  const RootLine without = first_iteration(0);
  EXPECT_EQ(to_uci(without.move), "a1a4");
  EXPECT_FALSE(is_mate_value(without.value));
}

TEST(SearchExtensions, NoExtensionWithoutAForcingMove) {
  // Bare kings and a blocked pawn pair: no check, no capture, no promotion anywhere near, so
  // the extensions change nothing.
  const Game game(Position::from_fen("8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1"));
  SearchParameters plain;
  plain.forcing_extensions = 0;
  const IterationReport a = search_one_iteration(game, plain);
  const IterationReport b = search_one_iteration(game, SearchParameters{});
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.lines.front().move, b.lines.front().move);
  EXPECT_EQ(a.lines.front().value, b.lines.front().value);
}

TEST(RuleFiftyDamping, ShrinksTheAdvantageWithTheCounter) {
  EXPECT_FLOAT_EQ(damp_by_rule50(0.9f, 0), 0.9f);    // a zeroing move keeps its value
  EXPECT_FLOAT_EQ(damp_by_rule50(0.9f, 100), 0.7f);  // half the advantage at the rule's limit
  EXPECT_FLOAT_EQ(damp_by_rule50(0.3f, 50), 0.35f);  // losing values move up towards 0.5
  EXPECT_FLOAT_EQ(damp_by_rule50(0.5f, 80), 0.5f);
  EXPECT_FLOAT_EQ(damp_by_rule50(0.9f, 250), 0.7f);  // counters past 100 count as 100
}

TEST(RuleFiftyDamping, AWonEndgameValuesTheMovesThatResetTheCounter) {
  // White wins whatever it plays, and material alone rates every quiet move the same. At 90
  // on the counter the pawn pushes keep their full value; nothing beats them, and the quiet
  // moves after which the first iteration sees no reset (no pawn move next) are damped well
  // below them.
  const Game game(Position::from_fen("7k/8/8/8/8/8/P7/K5Q1 w - - 90 120"));
  const IterationReport report = search_one_iteration(game, SearchParameters{});
  float push = 0.0f, lowest = 1.0f;
  for (const RootLine& line : report.lines) {
    if (type_of(game.position().piece_on(line.move.from())) == PieceType::Pawn)
      push = std::max(push, line.value);
    lowest = std::min(lowest, line.value);
  }
  EXPECT_EQ(push, report.lines.front().value);
  EXPECT_LT(lowest, push - 0.1f);
}

}  // namespace
}  // namespace avocet::search
