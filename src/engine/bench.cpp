#include "avocet/engine/bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace avocet::engine {

using search::IterationReport;
using search::SearchParameters;

namespace {

constexpr const char* kBenchPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 15",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 40",
    "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9",
};

}  // namespace

BenchResult run_bench(const EvaluatorFactory& factory, const std::string& evaluator_name,
                      int iterations, const std::function<void(const std::string&)>& on_position,
                      const SearchParameters& params) {
  Engine engine(factory, evaluator_name);
  Settings settings = engine.settings();
  settings.engine.params = params;
  engine.configure(settings);
  GoRequest request;
  request.iterations = iterations;
  BenchResult result;
  const auto start = std::chrono::steady_clock::now();
  for (const char* fen : kBenchPositions) {
    engine.new_game();
    engine.set_game(Game(Position::from_fen(fen)));
    IterationReport last;  // the deepest iteration's, whose count includes the others
    EngineCallbacks callbacks;
    callbacks.on_info = [&last](const SearchInfo& info) { last = info.report; };
    engine.go(request, std::move(callbacks));
    engine.wait();
    result.nodes += last.nodes;
    if (on_position)
      on_position(fmt::format("{} nodes, {} iterations, depth {}/{}: {}", last.nodes,
                              last.iterations, last.depth, last.seldepth, fen));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::string bench_summary(const BenchResult& result) {
  return fmt::format("\nNodes searched  : {}\nNodes/second    : {}\n", result.nodes,
                     uint64_t(double(result.nodes) / std::max(result.seconds, 1e-9)));
}

}  // namespace avocet::engine
