// The bench: fixed positions searched for a fixed number of iterations through an Engine with its
// default options (those `uci` declares), a new game before each position (as Stockfish's
// bench sends ucinewgame). The total node count is the search's signature: for a given net
// and search it is the same on every run (tests/CMakeLists.txt asserts the shipped net's,
// AVOCET_BENCH_SIGNATURE). `avocet bench` and the UCI command `bench` both run it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "avocet/engine/engine.h"

namespace avocet::engine {

inline constexpr int kBenchIterations = 7;

struct BenchResult {
  uint64_t nodes = 0;
  double seconds = 0;
};

// Searches every bench position for `iterations` iterations with the evaluators `factory` makes and
// the search parameters `params` (the signature is the defaults'); `on_position` receives one
// line per position ("123 nodes, 7 iterations, depth 4/9: FEN").
BenchResult run_bench(const EvaluatorFactory& factory, const std::string& evaluator_name,
                      int iterations, const std::function<void(const std::string&)>& on_position,
                      const search::SearchParameters& params = {});

// The signature in Stockfish's format, after an empty line:
//   Nodes searched  : 3412
//   Nodes/second    : 1234
std::string bench_summary(const BenchResult& result);

}  // namespace avocet::engine
