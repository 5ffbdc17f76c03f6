// Search on the deterministic material evaluator (no network).
#include "avocet/search/probability_search.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "../chess/game_testing.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/argmax_policy.h"
#include "avocet/search/rules.h"
#include "avocet/search/time_manager.h"
#include "avocet/search/value.h"

namespace avocet::search {
namespace {

struct Result {
  Move best;
  float value;
  uint64_t nodes;
  std::vector<Move> pv;
};

Result search_game(const Game& game, uint64_t nodes, bool mop_up = false) {
  nn::MaterialEvaluator evaluator(mop_up);
  TranspositionTable table(16);
  SearchControl control;
  control.node_limit = nodes;
  ProbabilitySearcher searcher(evaluator, table, SearchParameters{}, control);
  const IterationReport report = searcher.run(game, Limits{}, nullptr);
  return {report.lines.front().move, report.lines.front().value, control.nodes.load(),
          report.lines.front().pv};
}

// A search on the material evaluator with a table of its own; every iteration's report kept.
struct MaterialSearch {
  explicit MaterialSearch(int multipv = 1)
      : searcher(evaluator, table, SearchParameters{}, control, multipv) {}

  nn::MaterialEvaluator evaluator;
  TranspositionTable table{16};
  SearchControl control;
  ProbabilitySearcher searcher;
  std::vector<IterationReport> reports;

  IterationReport run(const Game& game, const Limits& limits) {
    return searcher.run(game, limits, [this](const IterationReport& r) { reports.push_back(r); });
  }
};

using avocet::testing::after;

// A large ThresholdFactor makes many small iterations: the search goes on to its limit
// (ccff59f stopped after 64 iterations, so `go movetime 500` at ThresholdFactor 99 returned in
// 71 ms). A solved position still stops, once theta is below kSmallestThreshold.
TEST(Search, IterationsGoOnToTheLimitAtAnyThresholdFactor) {
  nn::MaterialEvaluator evaluator;
  TranspositionTable table(16);
  SearchControl control;
  SearchParameters params;
  params.threshold_factor = 0.97;
  ProbabilitySearcher searcher(evaluator, table, params, control);
  Limits limits;
  limits.iterations = 70;
  const IterationReport report = searcher.run(Game(), limits, nullptr);
  EXPECT_EQ(report.iterations, 70);

  // Bare kings: every line is a draw at once, so the iterations end at the smallest theta.
  SearchControl solved_control;
  ProbabilitySearcher solved(evaluator, table, SearchParameters{}, solved_control);
  const IterationReport draw =
      solved.run(Game(Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1")), Limits{}, nullptr);
  EXPECT_EQ(draw.lines.front().value, kDraw);
  EXPECT_LE(draw.iterations, 66);
  EXPECT_GE(draw.iterations, 60);
}

TEST(Search, FindsMateInTwo) {
  // Lichess 000hf after ...Kxf7: Qe6+ Kf8 Qf7#.
  const Game game =
      after("r1bqk2r/pp1nbNp1/2p1p2p/8/2BP4/1PN3P1/P3QP1P/3R1RK1 b kq - 0 19", {"e8f7"});
  const Result r = search_game(game, 20000);
  EXPECT_EQ(to_uci(r.best), "e2e6");
  ASSERT_TRUE(is_mate_value(r.value));
  EXPECT_EQ(mate_in_moves(r.value), 2);
}

TEST(Search, FindsMateInThreeBySacrifice) {
  // After Qxc7: ...Qxf2+ Rxf2 Re1+ Rf1 Rxf1#, starting with a queen sacrifice.
  const Game game = after("4rr1k/pQpn2pp/3p1q2/8/8/2P5/PP3PPP/RN3RK1 w - - 1 16", {"b7c7"});
  const Result r = search_game(game, 60000);
  EXPECT_EQ(to_uci(r.best), "f6f2");
  ASSERT_TRUE(is_mate_value(r.value));
  EXPECT_EQ(mate_in_moves(r.value), 3);
}

TEST(Search, MatedSideSeesNegativeMate) {
  // ...Kb8 (forced) Rh8#.
  const Game game = after("k7/8/1K6/8/8/8/8/7R b - - 0 1", {});
  const Result r = search_game(game, 5000);
  ASSERT_TRUE(is_mate_value(r.value));
  EXPECT_EQ(mate_in_moves(r.value), -1);
}

// A search ended by its depth, not by a node limit, is reproducible: two runs from the same
// start (a new table each) report the same node count, value and principal variation. State
// left over between searches, uninitialised memory or an order that depends on addresses
// would show here (bench's signature relies on it).
TEST(Search, DepthLimitedSearchIsReproducible) {
  const Game game(
      Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
  const auto search = [&game] {
    Limits limits;
    limits.iterations = 8;
    return MaterialSearch().run(game, limits);
  };
  const IterationReport a = search(), b = search();
  ASSERT_EQ(a.iterations, 8);
  EXPECT_GT(a.nodes, 300u);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.lines.front().value, b.lines.front().value);
  EXPECT_GT(a.lines.front().pv.size(), 1u);
  EXPECT_EQ(a.lines.front().pv, b.lines.front().pv);
}

// GUIs read depth and seldepth as plies: every report has seldepth >= depth >= 1, no
// printed line longer than seldepth, and a node count that includes the root (the first
// iteration of a flat position may expand nothing but the root).
TEST(Search, ReportsPliesWithSeldepthCoveringEveryLine) {
  const Game game(
      Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
  nn::MaterialEvaluator evaluator;
  TranspositionTable table(16);
  SearchControl control;
  ProbabilitySearcher searcher(evaluator, table, SearchParameters{}, control, 3);
  Limits limits;
  limits.iterations = 6;
  std::vector<IterationReport> reports;
  searcher.run(game, limits, [&](const IterationReport& r) { reports.push_back(r); });
  ASSERT_EQ(reports.size(), 6u);
  for (size_t i = 0; i < reports.size(); ++i) {
    const IterationReport& r = reports[i];
    EXPECT_EQ(r.iterations, int(i) + 1);
    EXPECT_GE(r.nodes, uint64_t(r.iterations));
    EXPECT_GE(r.depth, i == 0 ? 1 : reports[i - 1].depth) << "depth never decreases";
    EXPECT_GE(r.seldepth, int(r.lines.front().pv.size()));
    for (const RootLine& line : r.lines) EXPECT_LE(int(line.pv.size()), r.seldepth);
  }
  EXPECT_GT(reports.back().seldepth, 2);
  EXPECT_GT(reports.back().depth, reports.front().depth);
}

TEST(Search, NominalDepthIsTheBitsOfTheta) {
  EXPECT_EQ(nominal_depth(1.0), 1);
  EXPECT_EQ(nominal_depth(0.25), 2);
  EXPECT_EQ(nominal_depth(0.2), 2);
  EXPECT_EQ(nominal_depth(0.25 / 1024), 12);
  EXPECT_EQ(nominal_depth(0.25 / 1024 * 1.01), 11);
}

// `go depth N` ends with the first iteration whose theta is 2^-N or less, within
// searchmoves too.
TEST(Search, DepthLimitEndsAtTheNominalDepth) {
  const Game game(
      Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
  for (const bool restricted : {false, true}) {
    SCOPED_TRACE(restricted ? "searchmoves a2a3 d5d6" : "all moves");
    Limits limits;
    limits.depth = 6;
    if (restricted)
      limits.searchmoves = {parse_uci(game.position(), "a2a3"), parse_uci(game.position(), "d5d6")};
    MaterialSearch search;
    const IterationReport last = search.run(game, limits);
    const std::vector<IterationReport>& reports = search.reports;
    ASSERT_FALSE(reports.empty());
    EXPECT_GE(last.depth, 6);
    for (size_t i = 0; i + 1 < reports.size(); ++i) EXPECT_LT(reports[i].depth, 6);
    // Theta starts at 1/4 or less and halves each iteration.
    EXPECT_LE(last.iterations, 5);
    for (const IterationReport& r : reports) EXPECT_GE(r.seldepth, 2);
  }
}

// A solved position (bare kings: every move draws at once) still stops at the depth asked for,
// where it would otherwise go on to the smallest theta (about 64 iterations). Theta starts at
// the likeliest root move's pi (1/5) and halves: depths 2 (0.2), 3, 4, 5, 6.
TEST(Search, DepthLimitEndsASolvedSearch) {
  Limits limits;
  limits.depth = 6;
  MaterialSearch search;
  const IterationReport last =
      search.run(Game(Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1")), limits);
  std::vector<int> depths;
  for (const IterationReport& r : search.reports) depths.push_back(r.depth);
  EXPECT_EQ(depths, (std::vector<int>{2, 3, 4, 5, 6}));
  EXPECT_EQ(last.iterations, 5);
}

TEST(Search, ConvertsKingAndQueenAgainstKing) {
  Game game(Position::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"));
  for (int ply = 0; ply < 120 && game.termination() == Termination::None; ++ply)
    game.play(search_game(game, 4000, true).best);
  EXPECT_EQ(game.termination(), Termination::Checkmate) << game.position().fen();
  EXPECT_EQ(game.position().side_to_move(), Color::Black);
}

// Black, a queen down, steers into a threefold repetition (a draw); White, winning, avoids it.
TEST(Search, ClaimsRepetitionWhenLosingAndAvoidsItWhenWinning) {
  const Game losing = after("6k1/8/8/8/8/8/8/1Q4K1 b - - 0 1",
                            {"g8h8", "b1c1", "h8g8", "c1b1", "g8h8", "b1c1", "h8g8", "c1b1"});
  const Result claim = search_game(losing, 3000);
  EXPECT_EQ(to_uci(claim.best), "g8h8");
  EXPECT_EQ(claim.value, 0.5f);
  // The line stops at the repetition: GUIs reject a PV that goes on after a threefold.
  ASSERT_EQ(claim.pv.size(), 1u);

  const Game winning = after("6k1/8/8/8/8/8/8/1Q4K1 w - - 0 1",
                             {"b1c1", "g8h8", "c1b1", "h8g8", "b1c1", "g8h8", "c1b1", "h8g8"});
  const Result r = search_game(winning, 3000);
  EXPECT_NE(to_uci(r.best), "b1c1");
  EXPECT_GT(r.value, 0.9f);
}

// 1. e4 e5 2. Nf3 Qg5 3. Nxg5 Nc6 4. Nf3 Nb8 5. Ng5: Black is a queen down, and 5...Nc6 would
// repeat the position after 3...Nc6 once. That is no draw (White need not repeat), so the
// search must not score it 0.5 (issue 14: the engine played such moves at 0.00 over moves it
// scored -4.8). One more round and 7...Nc6 makes the third occurrence: then it is a draw.
constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const std::initializer_list<const char*> kQueenDownWithARepetition = {
    "e2e4", "e7e5", "g1f3", "d8g5", "f3g5", "b8c6", "g5f3", "c6b8", "f3g5"};

TEST(Search, OneRepetitionOfTheGameHistoryIsNotADraw) {
  const Game once = after(kStartFen, kQueenDownWithARepetition);
  const Result r = search_game(once, 3000);
  EXPECT_LT(r.value, 0.2f) << to_uci(r.best);

  Game twice = once;
  for (const char* m : {"b8c6", "g5f3", "c6b8", "f3g5"}) twice.play(parse_uci(twice.position(), m));
  const Result draw = search_game(twice, 3000);
  EXPECT_EQ(to_uci(draw.best), "b8c6");
  EXPECT_EQ(draw.value, 0.5f);
}

// Argmax mode applies the same rule on the game history: 0.5 only for the third occurrence.
TEST(ArgmaxPolicy, OneRepetitionOfTheGameHistoryIsNotADraw) {
  nn::MaterialEvaluator evaluator;
  const auto value_of = [&](const Game& game, const char* move) {
    for (const ScoredMove& s : score_moves(game, evaluator))
      if (to_uci(s.move) == move) return s.win_probability;
    return -1.0f;
  };
  Game game = after(kStartFen, kQueenDownWithARepetition);
  EXPECT_LT(value_of(game, "b8c6"), 0.2f);
  for (const char* m : {"b8c6", "g5f3", "c6b8", "f3g5"}) game.play(parse_uci(game.position(), m));
  EXPECT_EQ(value_of(game, "b8c6"), 0.5f);
  EXPECT_EQ(to_uci(argmax_move(game, evaluator)), "b8c6");
}

// The rule itself, on keys standing for positions (the parent last; the same side to move
// every other ply).
TEST(Search, RepetitionRuleCountsTheSearchOnceAndTheHistoryTwice) {
  // 1 2 | 3 (the root) | 4 5: a repeat of 4, reached in the search, is a draw; a repeat of 2,
  // from the history, is not; nor is a repeat of the root (1 2 | 3 | 4 5 6, then 3).
  const std::vector<uint64_t> path{1, 2, 3, 4, 5};
  EXPECT_TRUE(is_repetition_draw(path, 3, 4, 100));
  EXPECT_FALSE(is_repetition_draw(path, 3, 2, 100));
  EXPECT_FALSE(is_repetition_draw(std::vector<uint64_t>{1, 2, 3, 4, 5, 6}, 3, 3, 100));
  // 7 8 7 8 | 9 (the root) | 6: a third 7 is a draw; a second root is not.
  const std::vector<uint64_t> history{7, 8, 7, 8, 9, 6};
  EXPECT_TRUE(is_repetition_draw(history, 5, 7, 100));
  EXPECT_FALSE(is_repetition_draw(history, 5, 9, 100));
  // A root occurring for the third time is a draw.
  EXPECT_TRUE(is_repetition_draw(std::vector<uint64_t>{9, 8, 9, 8, 9, 6}, 5, 9, 100));
  // Only the last halfmove_clock plies count, and only positions with the same side to move.
  const std::vector<uint64_t> searched{5, 1, 2, 3};
  EXPECT_TRUE(is_repetition_draw(searched, 0, 5, 4));
  EXPECT_FALSE(is_repetition_draw(searched, 0, 5, 3));
  EXPECT_FALSE(is_repetition_draw(searched, 0, 3, 100));
}

// Both searches' clocks (time_manager.h), each checked by every rule below.
const std::pair<const char*, TimeStyle> kTimeStyles[] = {{"iterative", kIterativeTime},
                                                         {"puct", kPuctTime}};

// Repeating time controls (issue 14: at 40 moves in 1 minute the engine reached move 40 with
// 0.14 s). For every movestogo m, with A = time - Move Overhead and a share A / (m + r): the
// hard limit never exceeds A, and what is left after it holds a share for each of the m - 1
// moves still to play before the clock is refilled, plus half the reserve of r shares before
// the increment arrives and all of it after.
TEST(TimeManager, MovesToGoKeepsAReserveForTheRemainingMoves) {
  for (const auto& [name, style] : kTimeStyles) {
    for (const int overhead : {0, 50, 300}) {
      for (const int time : {1000, 5000, 60000, 600000}) {
        for (const int increment : {0, 100, 3000}) {
          for (int m = 1; m <= 40; ++m) {
            SCOPED_TRACE(::testing::Message()
                         << name << " time " << time << " overhead " << overhead << " inc "
                         << increment << " movestogo " << m);
            TimeControl tc;
            tc.wtime = time;
            tc.btime = 1;
            tc.winc = increment;
            tc.movestogo = m;
            const TimeBudget budget = allocate_time(tc, Color::White, overhead, style);
            ASSERT_TRUE(budget.soft && budget.hard);
            const double available = time - overhead;
            const double share = available / (m + style.reserve_shares);
            const double hard = double(budget.hard->count());
            EXPECT_GE(budget.soft->count(), 1);
            EXPECT_LE(budget.soft->count(), budget.hard->count());
            EXPECT_LE(hard, available);
            EXPECT_GE(available - hard, (m - 1 + style.reserve_shares / 2) * share - 1e-6);
            EXPECT_GE(available - hard + increment, (m - 1 + style.reserve_shares) * share - 1e-6);
          }
        }
      }
    }
  }
}

// The issue-71 case: with movestogo 1 the clock is refilled after this move, so PUCT spends
// two thirds of it (1.08 s of 5 s before).
TEST(TimeManager, PuctSpendsTheLastMoveBeforeARefill) {
  TimeControl tc;
  tc.wtime = 5050;
  tc.btime = 5050;
  tc.movestogo = 1;
  EXPECT_EQ(allocate_time(tc, Color::White, 50, kPuctTime).hard->count(), 3333);
  EXPECT_EQ(allocate_time(tc, Color::White, 50, kIterativeTime).hard->count(), 1666);
}

// `go movetime` uses the time asked for (less Move Overhead): no soft budget that a dominant
// move could shorten.
TEST(TimeManager, MovetimeIsSpentInFull) {
  for (const auto& [name, style] : kTimeStyles) {
    SCOPED_TRACE(name);
    TimeControl tc;
    tc.movetime = 2000;
    tc.wtime = 60000;  // a clock given beside movetime does not change it
    const TimeBudget budget = allocate_time(tc, Color::White, 50, style);
    EXPECT_FALSE(budget.soft);
    ASSERT_TRUE(budget.hard);
    EXPECT_EQ(budget.hard->count(), 1950);
    tc.movetime = 10;
    EXPECT_EQ(allocate_time(tc, Color::White, 50, style).hard->count(), 1);
  }
}

// The worst case end to end: 40 moves in 60 s, three times over, each move using its whole
// hard limit plus the full Move Overhead as latency. Every move still gets at least a second
// and every control is reached with time left: more than 2 s with the iterative search's
// reserve of two shares, more than 0.3 s with PUCT's half share.
TEST(TimeManager, FortyMovesInAMinuteReachEachControlWithTimeLeft) {
  constexpr int kOverhead = 50;
  for (const auto& [name, style] : kTimeStyles) {
    SCOPED_TRACE(name);
    int clock = 60000;
    for (int move = 0; move < 120; ++move) {
      const int to_go = 40 - move % 40;
      TimeControl tc;
      tc.wtime = clock;
      tc.btime = clock;
      tc.movestogo = to_go;
      const TimeBudget budget = allocate_time(tc, Color::White, kOverhead, style);
      ASSERT_TRUE(budget.hard);
      EXPECT_GE(budget.hard->count(), 1000) << "move " << move + 1;
      clock -= int(budget.hard->count()) + kOverhead;
      ASSERT_GT(clock, 0) << "move " << move + 1;
      if (to_go == 1) {
        EXPECT_GT(clock, style.reserve_shares >= 2 ? 2000 : 300) << "move " << move + 1;
        clock += 60000;
      }
    }
  }
}

// Sudden death as lichess-bot plays it: its `Move Overhead` (the lag of the server and the
// network) is kept back from every budget. For any clock, overhead and increment, the hard
// limit never exceeds the clock less the overhead, and a game in which every move uses its
// whole hard limit and loses the full overhead on top never runs out of time.
TEST(TimeManager, SuddenDeathRespectsMoveOverhead) {
  for (const auto& [name, style] : kTimeStyles) {
    for (const int overhead : {0, 50, 300, 1000}) {
      for (const int base : {1000, 10000, 60000, 180000}) {
        for (const int increment : {0, 10, 100, 2000}) {
          SCOPED_TRACE(::testing::Message() << name << " base " << base << " inc " << increment
                                            << " overhead " << overhead);
          int clock = base;
          for (int move = 0; move < 300; ++move) {
            TimeControl tc;
            tc.wtime = clock;
            tc.btime = base;
            tc.winc = increment;
            const TimeBudget budget = allocate_time(tc, Color::White, overhead, style);
            ASSERT_TRUE(budget.soft && budget.hard);
            ASSERT_LE(budget.soft->count(), budget.hard->count());
            if (clock > overhead) {
              ASSERT_LE(budget.hard->count(), clock - overhead);
            }
            if (clock <= 2 * overhead + 1) break;  // no engine can move in less than its lag
            clock -= int(budget.hard->count()) + overhead;
            ASSERT_GT(clock, 0) << "move " << move + 1;
            clock += increment;
          }
        }
      }
    }
  }
}

// Sudden death, the probability-limited search: an optimum of A / 30 + 3/4 of the increment
// (A = clock - Move Overhead), no new iteration after 0.6 of it, and at most 4 times it.
TEST(TimeManager, SuddenDeathBudgetsAThirtiethOfTheClock) {
  TimeControl tc;
  tc.wtime = 10050;
  tc.btime = 1;
  tc.winc = 100;
  const TimeBudget budget = allocate_time(tc, Color::White, 50);
  EXPECT_EQ(budget.soft->count(), 244);   // 0.6 x (10000 / 30 + 75), rounded down
  EXPECT_EQ(budget.hard->count(), 1633);  // 4 x the optimum, under 40% of A
}

// PUCT, which can stop after any playout: its soft budget is the optimum itself, A / 20 + the
// increment, and its hard limit 2.5 times that, at most a quarter of A.
TEST(TimeManager, PuctBudgetsATwentiethOfTheClock) {
  TimeControl tc;
  tc.wtime = 10050;
  tc.btime = 1;
  tc.winc = 100;
  const TimeBudget budget = allocate_time(tc, Color::White, 50, kPuctTime);
  EXPECT_EQ(budget.soft->count(), 600);   // 10000 / 20 + 100
  EXPECT_EQ(budget.hard->count(), 1500);  // 2.5 x the optimum, under 25% of A
  tc.wtime = 2050;
  EXPECT_EQ(allocate_time(tc, Color::White, 50, kPuctTime).hard->count(), 500);  // 25% of A
}

TEST(Search, SearchmovesRestrictTheRoot) {
  const Game game(Position::start());
  nn::MaterialEvaluator evaluator;
  TranspositionTable table(1);
  SearchControl control;
  control.node_limit = 500;
  ProbabilitySearcher searcher(evaluator, table, SearchParameters{}, control);
  Limits limits;
  limits.searchmoves = {parse_uci(game.position(), "a2a3"), parse_uci(game.position(), "h2h4")};
  const IterationReport report = searcher.run(game, limits, nullptr);
  ASSERT_EQ(report.lines.size(), 2u);
  EXPECT_TRUE(report.lines[0].move == limits.searchmoves[0] ||
              report.lines[0].move == limits.searchmoves[1]);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AVOCET_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define AVOCET_ASAN 1
#endif

TEST(TranspositionTable, FailedResizeLeavesAUsableTable) {
#ifdef AVOCET_ASAN
  GTEST_SKIP() << "AddressSanitizer's operator new aborts instead of throwing std::bad_alloc";
#endif
  TranspositionTable table(1);
  EXPECT_EQ(table.megabytes(), 1u);
  // A petabyte: no machine gives it, so the allocation fails cleanly.
  EXPECT_THROW(
      {
        try {
          table.resize(size_t(1) << 30);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "cannot allocate 1073741824 MB for the hash table");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(table.megabytes(), 0u);
  EXPECT_GT(table.capacity(), 0u);
  const std::array<Move, 1> moves{parse_uci(Position::start(), "e2e4")};
  const std::array<float, 1> stored{0.5f};
  table.store_values(42, moves, stored);
  std::array<float, 1> read{};
  EXPECT_TRUE(table.probe_values(42, moves, read));
  EXPECT_NEAR(read[0], 0.5f, 1e-4);
  table.resize(2);
  EXPECT_EQ(table.megabytes(), 2u);
}

}  // namespace
}  // namespace avocet::search
