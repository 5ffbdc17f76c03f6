#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "avocet/chess/perft.h"
#include "avocet/chess/position.h"
#include "commands.h"

namespace avocet::cli {

namespace {

// Checks every count of a perft suite file; exit status 1 if any differs.
int perft_suite(const std::string& path, uint64_t max_nodes, const Streams& io) {
  std::ifstream file = open_text_file(path, "perft suite");
  int passed = 0, failed = 0;
  uint64_t total_nodes = 0;
  const auto start = std::chrono::steady_clock::now();
  int line_number = 0;
  for (std::string line; std::getline(file, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const PerftSuiteEntry entry = parse_perft_suite_line(line);
    const Position pos = Position::from_fen(entry.fen);
    for (const auto& [depth, expected] : entry.counts) {
      if (expected > max_nodes) continue;
      const uint64_t nodes = perft(pos, depth);
      total_nodes += nodes;
      if (nodes == expected) {
        ++passed;
      } else {
        ++failed;
        fmt::print(io.out, "FAIL line {} depth {}: expected {}, got {}: {}\n", line_number, depth,
                   expected, nodes, entry.fen);
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(io.out, "Nodes searched: {}\nTime: {:.3f} s\nSpeed: {:.1f} Mnodes/s\n", total_nodes,
             seconds, total_nodes / std::max(seconds, 1e-9) / 1e6);
  fmt::print(io.out, "{} passed, {} failed\n", passed, failed);
  return failed ? 1 : 0;
}

}  // namespace

int perft_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet perft", "Count the leaf nodes of the legal move tree.");
  options.positional_help("DEPTH");
  auto add = options.add_options();
  add("fen", "position to count from (default: the start position)",
      cxxopts::value<std::string>()->default_value(std::string(kStartFen)));
  add("depth", "plies to count", cxxopts::value<int>());
  add("suite", "check every count of a perft suite file (lines 'FEN; D1 n; D2 n; ...')",
      cxxopts::value<std::string>());
  add("max-nodes", "with --suite: skip counts larger than this",
      cxxopts::value<uint64_t>()->default_value("18446744073709551615"));
  add("h,help", "print this help");
  options.parse_positional({"depth"});
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  if (parsed.count("suite"))
    return perft_suite(parsed["suite"].as<std::string>(), parsed["max-nodes"].as<uint64_t>(), io);
  if (!parsed.count("depth")) throw cxxopts::exceptions::exception("perft needs a DEPTH");
  const int depth = parsed["depth"].as<int>();
  if (depth < 1 || depth > 20)
    throw cxxopts::exceptions::exception(fmt::format("depth must be 1 to 20, got {}", depth));
  const Position pos = Position::from_fen(parsed["fen"].as<std::string>());
  // Standard text cannot name every Chess960 castling (b1c1 is also a king step).
  write_perft_report(io.out, pos, depth, !pos.has_standard_castling());
  return 0;
}

}  // namespace avocet::cli
