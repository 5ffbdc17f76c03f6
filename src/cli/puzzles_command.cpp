// `avocet puzzles`: the puzzle bench over a Lichess puzzle CSV, in argmax or search mode.
// With --threads N, N puzzles are solved at once (each worker has its own evaluator and
// table), which measures the same thing faster.
//
// --json FILE is opened before anything else runs (a bad path costs nothing) and receives
// the results as they come, as JSON Lines: one object per puzzle, flushed, e.g.
//   {"id":"00sHx","rating":1760,"solved":true,"correct_moves":2,"first_mistake":"",
//    "evaluator":"material (1-ply material balance), argmax","label":"..."}
// so a run that is stopped keeps what it did. --resume reads FILE first, skips the puzzles
// whose ids it holds (counting them in the table) and appends the others.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "avocet/chess/move_text.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/search/argmax_policy.h"
#include "avocet/search/search.h"
#include "avocet/suites/puzzles.h"
#include "commands.h"

namespace avocet::cli {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<suites::Puzzle> read_puzzles(const std::string& path, long limit, const Streams& io) {
  std::ifstream file = open_text_file(path, "puzzle file");
  std::vector<suites::Puzzle> puzzles;
  long line_number = 0, malformed = 0;
  for (std::string line;
       std::getline(file, line) && (limit <= 0 || long(puzzles.size()) < limit);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos ||
        (line_number == 1 && suites::is_puzzle_header(line)))
      continue;
    try {
      puzzles.push_back(suites::parse_puzzle_row(line));
    } catch (const std::exception& e) {
      if (++malformed <= 20) fmt::print(io.err, "{}:{}: {}\n", path, line_number, e.what());
    }
  }
  if (malformed) fmt::print(io.err, "{} malformed rows skipped\n", malformed);
  return puzzles;
}

// The results a previous run left in a JSON Lines file, by puzzle id. A last line without
// its newline is a write cut short: it is cut off the file, so appending starts clean. Any
// other line that is not a result of the same run (`evaluator`) stops the command.
std::map<std::string, suites::PuzzleResult> read_previous_results(const std::string& path,
                                                                  const std::string& evaluator) {
  std::map<std::string, suites::PuzzleResult> previous;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error(fmt::format("cannot write '{}': is a directory", path));
  if (!std::filesystem::exists(path, ec)) return previous;
  std::ifstream file = open_text_file(path, "results file");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  file.close();
  const size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  long line_number = 0;
  for (size_t start = 0; start < complete;) {
    const size_t end = text.find('\n', start);
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.is_object() || !row.contains("id") || !row["id"].is_string() ||
        !row.contains("solved") || !row["solved"].is_boolean())
      throw std::runtime_error(
          fmt::format("--resume: {}:{}: not a puzzle result line", path, line_number));
    if (row.value("evaluator", std::string()) != evaluator)
      throw std::runtime_error(
          fmt::format("--resume: {}:{}: a result of '{}', not of this run ('{}')", path,
                      line_number, row.value("evaluator", std::string()), evaluator));
    suites::PuzzleResult result;
    result.solved = row["solved"].get<bool>();
    result.correct_moves = row.value("correct_moves", 0);
    result.first_mistake = row.value("first_mistake", std::string());
    previous.emplace(row["id"].get<std::string>(), result);
  }
  if (complete < text.size()) {
    std::filesystem::resize_file(path, complete, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot write '{}': {}", path, ec.message()));
  }
  return previous;
}

// Opens the results file before the run, appending (--resume) or truncating.
std::ofstream open_results_file(const std::string& path, bool append) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error(fmt::format("cannot write '{}': is a directory", path));
  std::ofstream file(path, append ? std::ios::app : std::ios::trunc);
  if (!file)
    throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  return file;
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
  add_weights_option(options);
  add("mode", "argmax (no search) or search",
      cxxopts::value<std::string>()->default_value("argmax"));
  add("nodes", "search mode: nodes per move", cxxopts::value<uint64_t>()->default_value("400"));
  add("movetime", "search mode: milliseconds per move instead of nodes", cxxopts::value<int>());
  add("threads", "puzzles solved in parallel", cxxopts::value<int>()->default_value("1"));
  add("json", "write per-puzzle results to this file as they come (JSON Lines)",
      cxxopts::value<std::string>());
  add("resume", "with --json: skip the puzzles the file already holds (they count in the table)");
  add("label", "name of this run in the JSON (for plots)", cxxopts::value<std::string>());
  add("h,help", "print this help");
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  if (!parsed.count("file")) throw cxxopts::exceptions::exception("puzzles needs --file CSV");
  const std::string mode = parsed["mode"].as<std::string>();
  if (mode != "argmax" && mode != "search")
    throw cxxopts::exceptions::exception(
        fmt::format("--mode must be argmax or search, got '{}'", mode));
  const std::string evaluator_name = parsed["evaluator"].as<std::string>();
  if (evaluator_name != "net" && evaluator_name != "material")
    throw cxxopts::exceptions::exception(
        fmt::format("--evaluator must be 'net' or 'material', got '{}'", evaluator_name));
  const int threads = parsed["threads"].as<int>();
  if (threads < 1 || threads > 256)
    throw cxxopts::exceptions::exception("--threads must be 1 to 256");
  const bool resume = parsed.count("resume") > 0;
  if (resume && !parsed.count("json"))
    throw cxxopts::exceptions::exception("--resume needs --json FILE");
  // The results file first: a bad path must fail before a long run, not after it.
  const std::string json_path = parsed.count("json") ? parsed["json"].as<std::string>() : "";
  std::ofstream json;
  if (!json_path.empty() && !resume) json = open_results_file(json_path, false);
  std::shared_ptr<const nn::Network> network;
  if (evaluator_name == "net") network = nn::load_network(parsed["weights"].as<std::string>());
  auto make_evaluator = [&]() -> std::unique_ptr<nn::Evaluator> {
    if (network) return nn::make_evaluator(network);
    return std::make_unique<nn::MaterialEvaluator>();
  };
  const std::string description =
      fmt::format("{}, {}", make_evaluator()->description(),
                  mode == "argmax" ? std::string("argmax")
                  : parsed.count("movetime")
                      ? fmt::format("search {} ms/move", parsed["movetime"].as<int>())
                      : fmt::format("search {} nodes/move", parsed["nodes"].as<uint64_t>()));
  const std::string label = parsed.count("label") ? parsed["label"].as<std::string>() : description;
  std::map<std::string, suites::PuzzleResult> previous;
  if (resume) {
    previous = read_previous_results(json_path, description);
    json = open_results_file(json_path, true);
  }
  fmt::print(io.out, "{}\n", description);

  const std::vector<suites::Puzzle> puzzles =
      read_puzzles(parsed["file"].as<std::string>(), parsed["limit"].as<long>(), io);
  std::vector<suites::PuzzleResult> results(puzzles.size());
  std::vector<size_t> to_solve;  // indices into puzzles
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const auto found = previous.find(puzzles[i].id);
    if (found != previous.end())
      results[i] = found->second;
    else
      to_solve.push_back(i);
  }
  if (resume)
    fmt::print(io.err, "{}: {} of {} puzzles already solved or failed, {} to go\n", json_path,
               puzzles.size() - to_solve.size(), puzzles.size(), to_solve.size());
  std::atomic<size_t> next{0}, done{0}, solved_count{0};
  std::mutex progress_mutex;
  bool write_failed = false;
  const auto start = Clock::now();

  auto worker = [&] {
    const auto evaluator = make_evaluator();
    search::TranspositionTable table(16);
    const auto choose = [&](const Game& game) -> Move {
      if (mode == "argmax") return search::argmax_move(game, *evaluator);
      search::SearchControl control;
      if (parsed.count("movetime"))
        control.set_deadline(Clock::now() +
                             std::chrono::milliseconds(parsed["movetime"].as<int>()));
      else
        control.node_limit = parsed["nodes"].as<uint64_t>();
      search::Searcher searcher(*evaluator, table, search::SearchParameters{}, control);
      const search::IterationReport r = searcher.run(game, search::Limits{}, nullptr);
      return r.lines.empty() ? Move::none() : r.lines.front().move;
    };
    for (size_t k = next++; k < to_solve.size(); k = next++) {
      const size_t i = to_solve[k];
      table.clear();
      results[i] = suites::solve_puzzle(puzzles[i], choose);
      solved_count += results[i].solved;
      const size_t finished = ++done;
      std::lock_guard lock(progress_mutex);
      if (json.is_open()) {
        json << nlohmann::json{{"id", puzzles[i].id},
                               {"rating", puzzles[i].rating},
                               {"solved", results[i].solved},
                               {"correct_moves", results[i].correct_moves},
                               {"first_mistake", results[i].first_mistake},
                               {"evaluator", description},
                               {"label", label}}
                    .dump()
             << '\n';
        json.flush();
        write_failed = write_failed || !json;
      }
      if (finished % 10 == 0 || finished == to_solve.size()) {
        const int bar = int(30 * finished / to_solve.size());
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        fmt::print(io.err, "\r[{}{}] {}/{} solved {:.1f}% {:.1f} puzzles/s ", std::string(bar, '#'),
                   std::string(30 - bar, '.'), finished, to_solve.size(),
                   100.0 * double(solved_count) / double(finished), double(finished) / seconds);
      }
    }
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) workers.emplace_back(worker);
  for (auto& w : workers) w.join();
  if (!to_solve.empty()) fmt::print(io.err, "\n");
  if (write_failed) throw std::runtime_error(fmt::format("cannot write '{}'", json_path));

  std::array<int, 5> solved{}, total{};
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const int bucket = suites::rating_bucket(puzzles[i].rating);
    total[bucket]++;
    solved[bucket] += results[i].solved;
  }
  fmt::print(io.out, "{:<10} {:>7} {:>7} {:>9}\n", "rating", "solved", "total", "accuracy");
  int all_solved = 0, all_total = 0;
  for (int b = 0; b < 5; ++b) {
    all_solved += solved[b];
    all_total += total[b];
    fmt::print(io.out, "{:<10} {:>7} {:>7} {:>8.1f}%\n", suites::kRatingBucketNames[b], solved[b],
               total[b], total[b] ? 100.0 * solved[b] / total[b] : 0.0);
  }
  fmt::print(io.out, "{:<10} {:>7} {:>7} {:>8.1f}%\n", "overall", all_solved, all_total,
             all_total ? 100.0 * all_solved / all_total : 0.0);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print(io.out, "{:.1f} s, {:.2f} puzzles/s\n", seconds, double(to_solve.size()) / seconds);
  return 0;
}

}  // namespace avocet::cli
