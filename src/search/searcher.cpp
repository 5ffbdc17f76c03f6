#include "avocet/search/searcher.h"

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

#include "avocet/search/argmax_policy.h"
#include "avocet/search/probability_search.h"
#include "avocet/search/strength.h"
#include "avocet/search/value.h"

namespace avocet::search {

ThreadPlan thread_plan(int threads) {
  const int searching = (std::max(1, threads) + 1) / 2;
  return {searching, std::max(1, threads) - searching};
}

namespace {

// What every search keeps: the setup it was built with.
class SearchWithSetup : public Searcher {
 public:
  explicit SearchWithSetup(const SearchSetup& setup) : setup_(setup) {}

 protected:
  SearchSetup setup_;
};

// The net's first look: every allowed move by its value, no search (SearchMode argmax, and a
// strength level of one node, which draws among the moves at its temperature).
class ArgmaxSearch final : public SearchWithSetup {
 public:
  using SearchWithSetup::SearchWithSetup;

  IterationReport run(const Game& game, const Limits& limits, const IterationSink& on_iteration,
                      ProgressSink) override {
    const auto evaluator = setup_.evaluators();
    const std::vector<ScoredMove> scored = score_moves(game, *evaluator);
    const std::vector<Move>& only = limits.searchmoves;
    IterationReport result;
    result.iterations = result.depth = result.seldepth = 1;
    result.nodes = 1;
    result.tbhits = setup_.control->tbhits.load();
    for (const ScoredMove& s : scored) {
      if (!only.empty() && std::find(only.begin(), only.end(), s.move) == only.end()) continue;
      // The rules score a mating move 1: a mate at ply 1 in the search's scale, which reports
      // as `mate 1` (1 itself would read as a mate in 0 plies).
      const float value = s.win_probability >= 1.0f ? mating_value(1) : s.win_probability;
      result.lines.push_back({s.move, value, {s.move}, {}, s.win_probability});
    }
    if (result.lines.empty()) result.lines.push_back({scored.front().move, kDraw, {}, {}});
    // The first look values every move alike (no move's value comes from a search), so a
    // level's draw among them weighs the moves fairly.
    if (setup_.level_temperature && setup_.random) {
      const size_t chosen = sample_line(result.lines, *setup_.level_temperature, *setup_.random);
      std::rotate(result.lines.begin(), result.lines.begin() + long(chosen),
                  result.lines.begin() + long(chosen) + 1);
    }
    if (on_iteration) on_iteration(result);
    return result;
  }
};

// PUCT: every thread plays out in one tree with its own evaluator (PuctSearcher::add_helper).
class PuctSearch final : public SearchWithSetup {
 public:
  using SearchWithSetup::SearchWithSetup;

  IterationReport run(const Game& game, const Limits& limits, const IterationSink& on_iteration,
                      ProgressSink on_progress) override {
    const auto evaluator = setup_.evaluators();
    PuctSearcher searcher(*evaluator, *setup_.table, *setup_.tree, setup_.params, *setup_.control,
                          setup_.multipv, setup_.tablebases);
    std::vector<std::unique_ptr<nn::Evaluator>> helpers;
    for (int i = 1; i < setup_.threads; ++i) {
      helpers.push_back(setup_.evaluators());
      searcher.add_helper(*helpers.back());
    }
    IterationReport result = searcher.run(game, limits, on_iteration, std::move(on_progress));
    if (result.iterations == 0 && on_iteration) on_iteration(result);
    return result;
  }
};

// The probability-limited search on thread_plan's threads: helper threads search the same
// iterations through the shared table (lazy SMP), each leaving the children another is
// expanding to the end (SearchControl::split_work), so that they split a node's moves instead
// of evaluating the same positions. Search thread i evaluates on two threads when
// i < plan.split_evaluations.
class ProbabilitySearch final : public SearchWithSetup {
 public:
  using SearchWithSetup::SearchWithSetup;

  IterationReport run(const Game& game, const Limits& limits, const IterationSink& on_iteration,
                      ProgressSink on_progress) override {
    const ThreadPlan plan = thread_plan(setup_.threads);
    const auto evaluator_for = [this, plan](int i) {
      auto evaluator = setup_.evaluators();
      evaluator->set_threads(i < plan.split_evaluations ? 2 : 1);
      return evaluator;
    };
    std::vector<std::thread> helpers;
    for (int i = 1; i < plan.searching; ++i) {
      helpers.emplace_back([this, &game, i, &evaluator_for] {
        const auto evaluator = evaluator_for(i);
        ProbabilitySearcher helper(*evaluator, *setup_.table, setup_.params, *setup_.control, 1,
                                   setup_.tablebases);
        helper.run(game, Limits{}, nullptr);
      });
    }
    const auto evaluator = evaluator_for(0);
    ProbabilitySearcher searcher(*evaluator, *setup_.table, setup_.params, *setup_.control,
                                 setup_.multipv, setup_.tablebases);
    IterationReport result = searcher.run(game, limits, on_iteration, std::move(on_progress));
    setup_.control->stop = true;
    for (auto& h : helpers) h.join();
    if (result.iterations == 0) {
      result.tbhits = setup_.control->tbhits.load();
      if (on_iteration) on_iteration(result);
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Searcher> make_searcher(SearchMode mode, const SearchSetup& setup) {
  switch (mode) {
    case SearchMode::Argmax:
      return std::make_unique<ArgmaxSearch>(setup);
    case SearchMode::Puct:
      return std::make_unique<PuctSearch>(setup);
    case SearchMode::Probability:
      return std::make_unique<ProbabilitySearch>(setup);
  }
  return std::make_unique<PuctSearch>(setup);
}

}  // namespace avocet::search
