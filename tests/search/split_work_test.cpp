// Several search threads split a node's moves (BusyPositions and SearchControl::split_work).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/engine/engine.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/busy_positions.h"
#include "avocet/search/probability_search.h"

namespace avocet::search {
namespace {

TEST(BusyPositions, AMarkLastsAsLongAsItsGuard) {
  BusyPositions busy;
  EXPECT_FALSE(busy.busy(12345));
  {
    const BusyPositions::Mark mark = busy.mark(12345);
    EXPECT_TRUE(mark.held());
    EXPECT_TRUE(busy.busy(12345));
    EXPECT_FALSE(busy.busy(12346));
  }
  EXPECT_FALSE(busy.busy(12345));
}

TEST(BusyPositions, ATakenSlotLeavesAnotherPositionUnmarked) {
  BusyPositions busy;
  const uint64_t first = 7, same_slot = 7 + (uint64_t(1) << 40);  // 4096 divides 2^40
  const BusyPositions::Mark a = busy.mark(first);
  const BusyPositions::Mark b = busy.mark(same_slot);
  EXPECT_TRUE(a.held());
  EXPECT_FALSE(b.held());
  EXPECT_TRUE(busy.busy(first));
  EXPECT_FALSE(busy.busy(same_slot));
  // A second mark of a marked position does not own it: its guard must not clear the first.
  { const BusyPositions::Mark again = busy.mark(first); }
  EXPECT_TRUE(busy.busy(first));
  EXPECT_FALSE(busy.mark(0).held());
  EXPECT_FALSE(busy.busy(0));
}

// Records the positions the search evaluates, in order.
class RecordingEvaluator final : public nn::Evaluator {
 public:
  void evaluate(const Position& pos, std::span<const Move> moves,
                std::span<float> win_probability) override {
    evaluated.push_back(pos.key());
    material_.evaluate(pos, moves, win_probability);
  }
  void evaluate_bins(const Position& pos, std::span<const Move> moves,
                     std::span<float> log_probabilities) override {
    material_.evaluate_bins(pos, moves, log_probabilities);
  }
  int bins() const override { return material_.bins(); }
  std::string description() const override { return "recording material"; }

  std::vector<uint64_t> evaluated;

 private:
  nn::MaterialEvaluator material_;
};

// Where each child of `parent` was first evaluated (npos: never); the search holds `busy` as if
// another thread were expanding it.
std::vector<size_t> evaluation_order(const Position& parent, uint64_t busy, bool split_work) {
  RecordingEvaluator evaluator;
  TranspositionTable table(16);
  SearchControl control;
  control.split_work = split_work;
  const BusyPositions::Mark other_thread = control.busy.mark(busy);
  ProbabilitySearcher searcher(evaluator, table, SearchParameters{}, control);
  Limits limits;
  limits.iterations = 7;  // deep enough (theta 0.0008) that the second ply is expanded
  searcher.run(Game(), limits, nullptr);
  std::vector<size_t> order;
  for (Move m : legal_moves(parent)) {
    Position child = parent;
    child.play(m);
    const auto it = std::find(evaluator.evaluated.begin(), evaluator.evaluated.end(), child.key());
    order.push_back(it == evaluator.evaluated.end() ? std::string::npos
                                                    : size_t(it - evaluator.evaluated.begin()));
  }
  return order;
}

TEST(SplitWork, AChildAnotherThreadIsExpandingIsSearchedAfterItsSiblings) {
  // The material evaluator values every opening move alike, so the first root move is searched
  // with a full window and all its replies are expanded.
  Position parent = Position::start();
  parent.play(legal_moves(parent)[0]);
  const MoveList replies = legal_moves(parent);
  const auto position_of = [](const std::vector<size_t>& order, size_t value) {
    return size_t(std::find(order.begin(), order.end(), value) - order.begin());
  };

  // One thread: the reply searched first, with nothing marked and with it marked (the mark is
  // ignored when split_work is off).
  const std::vector<size_t> alone = evaluation_order(parent, 0, false);
  for (size_t i = 0; i < alone.size(); ++i) ASSERT_NE(alone[i], std::string::npos) << i;
  const size_t first = position_of(alone, *std::min_element(alone.begin(), alone.end()));
  Position first_reply = parent;
  first_reply.play(replies[first]);
  EXPECT_EQ(evaluation_order(parent, first_reply.key(), false), alone);

  // Splitting the work: every other reply is evaluated first, and that one still is, last.
  const std::vector<size_t> split = evaluation_order(parent, first_reply.key(), true);
  for (size_t i = 0; i < split.size(); ++i) ASSERT_NE(split[i], std::string::npos) << i;
  EXPECT_EQ(position_of(split, *std::max_element(split.begin(), split.end())), first);
}

TEST(SplitWork, TwoSearchThreadsFindTheMateOneFinds) {
  // Lichess 000hf after ...Kxf7: Qe6+ Kf8 Qf7# (as Search.FindsMateInTwo).
  engine::Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  engine::Settings settings = engine.settings();
  settings.engine.threads = 4;  // two search threads (search::thread_plan)
  settings.engine.hash_mb = 16;
  engine.configure(settings);
  Game game(Position::from_fen("r1bqk2r/pp1nbNp1/2p1p2p/8/2BP4/1PN3P1/P3QP1P/3R1RK1 b kq - 0 19"));
  game.play(parse_uci(game.position(), "e8f7"));
  engine.set_game(game);
  engine::GoRequest request;
  request.nodes = 20000;
  Move best;
  float value = 0;
  engine::EngineCallbacks callbacks;
  callbacks.on_info = [&](const engine::SearchInfo& info) {
    value = info.report.lines.front().value;
  };
  callbacks.on_bestmove = [&](Move m, Move) { best = m; };
  engine.go(request, std::move(callbacks));
  engine.wait();
  EXPECT_EQ(to_uci(best), "e2e6");
  ASSERT_TRUE(is_mate_value(value));
  EXPECT_EQ(mate_in_moves(value), 2);
}

}  // namespace
}  // namespace avocet::search
