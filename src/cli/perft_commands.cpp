#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "avocet/chess/perft.h"
#include "avocet/chess/position.h"
#include "avocet/cli/progress.h"
#include "commands.h"

namespace avocet::cli {

namespace {

// Checks every count of a perft suite file; exit status 1 if any differs. A file that holds
// no count within `max_nodes` checks nothing, which is an error, not a pass.
int perft_suite(const std::string& path, std::optional<long long> max_nodes, const Streams& io) {
  std::ifstream file = open_text_file(path, "perft suite");
  struct Check {
    int line_number;
    std::string fen;
    int depth;
    uint64_t expected;
  };
  std::vector<Check> checks;
  int line_number = 0;
  size_t skipped = 0;
  for (std::string line; std::getline(file, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    PerftSuiteEntry entry;
    try {
      entry = parse_perft_suite_line(line);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}:{}: {}", path, line_number, e.what()));
    }
    for (const auto& [depth, expected] : entry.counts) {
      if (max_nodes && expected > uint64_t(*max_nodes))
        ++skipped;
      else
        checks.push_back({line_number, entry.fen, depth, expected});
    }
  }
  if (checks.empty())
    throw std::invalid_argument(
        skipped ? fmt::format("no count in '{}' is within --max-nodes {} ({} larger)", path,
                              *max_nodes, skipped)
                : fmt::format("no perft counts in '{}' (lines 'FEN; D1 n; D2 n; ...')", path));

  int passed = 0, failed = 0;
  uint64_t total_nodes = 0;
  const auto start = std::chrono::steady_clock::now();
  Progress progress(io.err, io.err_is_terminal, checks.size(), "counts");
  for (const Check& check : checks) {
    const uint64_t nodes = perft(Position::from_fen(check.fen), check.depth);
    total_nodes += nodes;
    if (nodes == check.expected) {
      ++passed;
    } else {
      ++failed;
      progress.print_line(
          io.out, fmt::format("FAIL line {} depth {}: expected {}, got {}: {}", check.line_number,
                              check.depth, check.expected, nodes, check.fen));
    }
    progress.update(size_t(passed + failed), fmt::format("{} failed", failed));
  }
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(io.out, "Nodes searched: {}\nTime: {:.3f} s\nSpeed: {:.1f} Mnodes/s\n", total_nodes,
             seconds, total_nodes / std::max(seconds, 1e-9) / 1e6);
  fmt::print(io.out, "{} passed, {} failed{}\n", passed, failed,
             skipped ? fmt::format(", {} skipped (over --max-nodes)", skipped) : "");
  return failed ? 1 : 0;
}

// The DEPTH argument, an integer from 1 to kMaxDepth; anything else is refused with one line
// that names the argument as the usage line does.
constexpr int kMaxDepth = 20;
int depth_argument(const std::string& text) {
  int depth = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), depth);
  if (ec != std::errc() || end != text.data() + text.size() || depth < 1 || depth > kMaxDepth)
    throw std::invalid_argument(
        fmt::format("perft: DEPTH must be an integer from 1 to {}, got '{}'", kMaxDepth, text));
  return depth;
}

}  // namespace

int perft_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet perft", "Count the leaf nodes of the legal move tree.");
  options.positional_help("DEPTH");
  auto add = options.add_options();
  add("fen", "position to count from: a FEN or startpos",
      cxxopts::value<std::string>()->default_value("startpos"), "FEN");
  add("depth", "plies to count", cxxopts::value<std::string>(), "DEPTH");
  add("suite", "check every count of a perft suite file (lines 'FEN; D1 n; D2 n; ...')",
      cxxopts::value<std::string>(), "FILE");
  add("max-nodes", "with --suite: skip counts larger than this (default: none)",
      cxxopts::value<long long>(), "N");
  add("h,help", "print this help");
  options.parse_positional({"depth"});
  // cxxopts would read a negative DEPTH as an option ("Option '1' does not exist" for -1): a
  // word that is a negative number, and not the value of the option before it, is the DEPTH.
  for (size_t i = 0; i < args.size(); ++i) {
    const bool negative = args[i].size() > 1 && args[i][0] == '-' &&
                          std::isdigit(static_cast<unsigned char>(args[i][1]));
    const bool option_value = i > 0 && (args[i - 1] == "--fen" || args[i - 1] == "--suite" ||
                                        args[i - 1] == "--max-nodes" || args[i - 1] == "--depth");
    if (negative && !option_value) depth_argument(args[i]);
  }
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  const std::optional<long long> max_nodes = optional_integer_option(parsed, "max-nodes", 1);
  if (parsed.count("suite")) {
    if (parsed.count("depth"))
      throw std::invalid_argument("perft: --suite takes the depths from the file, not a DEPTH");
    return perft_suite(parsed["suite"].as<std::string>(), max_nodes, io);
  }
  if (max_nodes) throw std::invalid_argument("perft: --max-nodes applies to --suite only");
  if (!parsed.count("depth")) throw cxxopts::exceptions::exception("perft needs a DEPTH");
  const int depth = depth_argument(parsed["depth"].as<std::string>());
  const Position pos = Position::from_fen(fen_or_startpos(parsed["fen"].as<std::string>()));
  // Standard text cannot name every Chess960 castling (b1c1 is also a king step).
  write_perft_report(io.out, pos, depth, !pos.has_standard_castling());
  return 0;
}

}  // namespace avocet::cli
