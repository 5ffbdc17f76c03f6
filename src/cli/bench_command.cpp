// `avocet bench`: searches fixed positions to a fixed depth (iterations) through the Engine
// with its default options (those `uci` declares), a new game before each position (as
// Stockfish's bench sends ucinewgame), and prints the total node count as the search's
// signature in Stockfish's format. For a given net and search the count is the same on every
// run; tests/CMakeLists.txt asserts it (AVOCET_BENCH_SIGNATURE).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>

#include "avocet/nn/default_net.h"
#include "avocet/search/engine.h"
#include "commands.h"

namespace avocet::cli {

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

int bench_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet bench",
                           "Search fixed positions to a fixed depth; prints the node "
                           "count (the search's signature) and the speed.");
  auto add = options.add_options();
  add("depth", "iterations per position", cxxopts::value<long long>()->default_value("7"), "D");
  add_weights_option(options);
  add("h,help", "print this help");
  // Stockfish's `bench [hash] [threads] [depth]` is not taken: its depth is in plies, this
  // one's in iterations, and the signature is defined for the engine's default options. Extra
  // words are rejected by parse_args rather than read as something they are not.
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  const int depth = int(integer_option(parsed, "depth", 1, 64));
  const std::shared_ptr<const nn::Network> net =
      nn::load_network(parsed["weights"].as<std::string>());
  search::Engine engine([net] { return nn::make_evaluator(net); }, net->description());
  fmt::print(io.err, "net {}\n", engine.evaluator_name());
  search::GoRequest request;
  request.depth = depth;
  uint64_t total = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const char* fen : kBenchPositions) {
    engine.new_game();
    engine.set_game(Game(Position::from_fen(fen)));
    search::IterationReport last;  // the deepest iteration's, whose count includes the others
    engine.go(request, {[&last](const search::SearchInfo& info) { last = info.report; }, nullptr});
    engine.wait();
    total += last.nodes;
    fmt::print(io.err, "{} nodes, depth {}: {}\n", last.nodes, last.depth, fen);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(io.out, "\nNodes searched  : {}\nNodes/second    : {}\n", total,
             uint64_t(double(total) / std::max(seconds, 1e-9)));
  return 0;
}

}  // namespace avocet::cli
