// `avocet puzzles`: the puzzle bench over a Lichess puzzle CSV.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <array>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "avocet/bench/puzzles.h"
#include "avocet/chess/move_text.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/argmax_policy.h"
#include "commands.h"

namespace avocet::cli {

namespace {

std::unique_ptr<nn::Evaluator> make_named_evaluator(const std::string& name,
                                                    const std::string& weights) {
  if (name == "material") return std::make_unique<nn::MaterialEvaluator>();
  if (name == "net") return nn::make_evaluator(nn::load_network(weights));
  throw cxxopts::exceptions::exception(
      fmt::format("--evaluator must be 'net' or 'material', got '{}'", name));
}

}  // namespace

int puzzles_command(const Args& args, const Streams& io) {
  cxxopts::Options options(
      "avocet puzzles", "Puzzle bench over a Lichess puzzle CSV (PuzzleId,FEN,Moves,Rating,...).");
  auto add = options.add_options();
  add("file", "puzzle CSV, with or without its header", cxxopts::value<std::string>());
  add("limit", "at most this many puzzles (0: all)", cxxopts::value<long>()->default_value("0"));
  add("evaluator", "net or material (1-ply material balance, the baseline)",
      cxxopts::value<std::string>()->default_value("net"));
  add("weights", "network file (default: the embedded net)",
      cxxopts::value<std::string>()->default_value(""));
  add("json", "write per-puzzle results to this file", cxxopts::value<std::string>());
  add("h,help", "print this help");
  const auto parsed = parse_args(options, args);
  if (parsed.count("help")) {
    fmt::print(io.out, "{}", options.help());
    return 0;
  }
  if (!parsed.count("file")) throw cxxopts::exceptions::exception("puzzles needs --file CSV");
  const std::string path = parsed["file"].as<std::string>();
  std::ifstream file(path);
  if (!file) throw std::runtime_error(fmt::format("cannot read puzzle file '{}'", path));
  const auto evaluator = make_named_evaluator(parsed["evaluator"].as<std::string>(),
                                              parsed["weights"].as<std::string>());
  fmt::print(io.out, "evaluator: {}\n", evaluator->description());

  std::vector<bench::Puzzle> puzzles;
  long line_number = 0, malformed = 0;
  const long limit = parsed["limit"].as<long>();
  for (std::string line;
       std::getline(file, line) && (limit <= 0 || long(puzzles.size()) < limit);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos ||
        (line_number == 1 && bench::is_puzzle_header(line)))
      continue;
    try {
      puzzles.push_back(bench::parse_puzzle_row(line));
    } catch (const std::exception& e) {
      if (++malformed <= 20) fmt::print(io.err, "{}:{}: {}\n", path, line_number, e.what());
    }
  }

  std::array<int, 5> solved{}, total{};
  nlohmann::json results = nlohmann::json::array();
  const auto start = std::chrono::steady_clock::now();
  const auto choose = [&](const Game& game) { return search::argmax_move(game, *evaluator); };
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const bench::Puzzle& p = puzzles[i];
    const bench::PuzzleResult r = bench::solve_puzzle(p, choose);
    const int bucket = bench::rating_bucket(p.rating);
    total[bucket]++;
    solved[bucket] += r.solved;
    results.push_back({{"id", p.id},
                       {"rating", p.rating},
                       {"solved", r.solved},
                       {"correct_moves", r.correct_moves},
                       {"first_mistake", r.first_mistake}});
    if ((i + 1) % 50 == 0 || i + 1 == puzzles.size()) {
      const int done = int(30 * (i + 1) / puzzles.size());
      int all_solved = 0;
      for (int s : solved) all_solved += s;
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      fmt::print(io.err, "\r[{}{}] {}/{} solved {:.1f}% {:.0f} puzzles/s ", std::string(done, '#'),
                 std::string(30 - done, '.'), i + 1, puzzles.size(),
                 100.0 * all_solved / double(i + 1), double(i + 1) / seconds);
    }
  }
  if (!puzzles.empty()) fmt::print(io.err, "\n");

  fmt::print(io.out, "{:<10} {:>7} {:>7} {:>9}\n", "rating", "solved", "total", "accuracy");
  int all_solved = 0, all_total = 0;
  for (int b = 0; b < 5; ++b) {
    all_solved += solved[b];
    all_total += total[b];
    fmt::print(io.out, "{:<10} {:>7} {:>7} {:>8.1f}%\n", bench::kRatingBucketNames[b], solved[b],
               total[b], total[b] ? 100.0 * solved[b] / total[b] : 0.0);
  }
  fmt::print(io.out, "{:<10} {:>7} {:>7} {:>8.1f}%\n", "overall", all_solved, all_total,
             all_total ? 100.0 * all_solved / all_total : 0.0);
  if (malformed) fmt::print(io.out, "{} malformed rows skipped\n", malformed);
  if (parsed.count("json")) {
    std::ofstream json(parsed["json"].as<std::string>());
    if (!json)
      throw std::runtime_error(fmt::format("cannot write '{}'", parsed["json"].as<std::string>()));
    json << nlohmann::json{{"evaluator", evaluator->description()},
                           {"file", path},
                           {"solved", all_solved},
                           {"total", all_total},
                           {"puzzles", results}}
                .dump(1)
         << "\n";
  }
  return 0;
}

}  // namespace avocet::cli
