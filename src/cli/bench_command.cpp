// `avocet bench`: engine/bench.h's fixed search; the per-position lines go to stderr and the
// signature (`Nodes searched  : N`, `Nodes/second    : M`) to stdout.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "avocet/engine/bench.h"
#include "avocet/nn/default_net.h"
#include "commands.h"

namespace avocet::cli {

int bench_command(const Args& args, const Streams& io) {
  cxxopts::Options options(
      "avocet bench",
      "Search fixed positions for a fixed number of iterations; prints the node "
      "count (the search's signature) and the speed.");
  auto add = options.add_options();
  add("iterations", "iterations per position",
      cxxopts::value<long long>()->default_value(std::to_string(engine::kBenchIterations)), "I");
  add_engine_flags(options, {engine::option_name::kEvalFile, engine::option_name::kPrecision});
  add_search_parameter_option(options);
  add("h,help", "print this help");
  // Stockfish's `bench [hash] [threads] [depth]` is not taken: its depth is in plies, this
  // one's in iterations, and the signature is defined for the engine's default options. Extra
  // words are rejected by parse_args rather than read as something they are not.
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  const int iterations = int(integer_option(parsed, "iterations", 1, 64));
  const GivenSearchParameters parameters = given_search_parameters(parsed);
  const std::shared_ptr<const nn::Network> net = load_network(engine_flags(parsed));
  fmt::print(io.err, "net {}\n", net->description());
  if (!parameters.set.empty()) fmt::print(io.err, "search parameters {}\n", parameters.text());
  const engine::BenchResult result = engine::run_bench(
      [net] { return nn::make_evaluator(net); }, net->description(), iterations,
      [&io](const std::string& line) { fmt::print(io.err, "{}\n", line); }, parameters.params);
  fmt::print(io.out, "{}", engine::bench_summary(result));
  return 0;
}

}  // namespace avocet::cli
