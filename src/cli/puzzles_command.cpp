// `avocet puzzles`: the puzzle bench over a Lichess puzzle CSV, in argmax or search mode.
// With --threads N, N puzzles are solved at once (each worker has its own evaluator and
// table), which measures the same thing faster.
//
// Selection: the puzzles rated --min-rating..--max-rating, less the first --offset of them,
// then the first --limit or a seeded --sample (suites::select_puzzles).
//
// --json FILE is opened before anything else runs (a bad path costs nothing) and receives
// the results as they come, as JSON Lines: one object per puzzle, flushed, e.g.
//   {"id":"000hf","rating":1595,"rating_bucket":"1500-1999","themes":["mate","mateIn2",...],
//    "fen":"r1bqk2r/...","solved":false,"correct_moves":0,"solver_moves":2,
//    "mistake_fen":"r1bq1k1r/...","expected":"e2e6","played":"c4e6","seconds":0.41,
//    "nodes":402,"settings":{"mode":"search","evaluator":"net","nodes":400,
//    "movetime_ms":null,"net":"avocet-house-v2","net_hash":"...","weights":"<embedded>"},
//    "label":"avocet-house-v2, search 400 nodes/move"}
// (settings also holds "parameters":{"PolicyTemperature":"90",...} when --set is given)
// and, when the run ends, one summary object {"summary":{...},"settings":...,"label":...}
// with the counts by rating bucket and by theme. A run that is stopped keeps what it did:
// --resume reads FILE first, skips the puzzles whose ids it holds (counting them in the
// tables), drops its summary lines and appends the rest.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "avocet/chess/move_text.h"
#include "avocet/cli/progress.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/material_evaluator.h"
#include "avocet/nn/network.h"
#include "avocet/search/argmax_policy.h"
#include "avocet/search/parameters.h"
#include "avocet/suites/puzzles.h"
#include "commands.h"
#include "suite_runner.h"

namespace avocet::cli {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

const SearchBudget kDefaultSearchBudget{400, std::nullopt};
// Accuracies over fewer puzzles than this are shown in parentheses in the theme table.
constexpr int kFewPuzzles = 10;

struct PuzzleFile {
  std::vector<suites::Puzzle> selected;
  size_t puzzles = 0, in_range = 0;
};

// Reads the puzzles `selection` picks. Without a sample, reading stops once the offset and
// the limit are filled. A file that yields no puzzle is an error, with one line saying why.
PuzzleFile read_puzzles(const std::string& path, const suites::PuzzleSelection& selection,
                        const Streams& io) {
  PuzzleFile found;
  std::vector<suites::Puzzle> in_range;
  read_suite_lines(
      path,
      {"puzzle file", "puzzles", "rows", "a Lichess puzzle row (PuzzleId,FEN,Moves,Rating,...)"},
      [](long number, const std::string& line) {
        return number == 1 && suites::is_puzzle_header(line);
      },
      [&](const std::string& line) {
        suites::Puzzle puzzle = suites::parse_puzzle_row(line);
        ++found.puzzles;
        if (selection.in_rating_range(puzzle.rating)) in_range.push_back(std::move(puzzle));
      },
      [&] {
        return !selection.sample && selection.limit &&
               in_range.size() >= selection.offset + *selection.limit;
      },
      io);
  found.in_range = in_range.size();
  if (in_range.empty())
    throw std::runtime_error(fmt::format("no puzzles in '{}' are rated {} to {} (of {})", path,
                                         selection.min_rating, selection.max_rating,
                                         found.puzzles));
  if (selection.offset >= in_range.size())
    throw std::runtime_error(
        fmt::format("--offset {} skips all {} puzzles", selection.offset, in_range.size()));
  found.selected = suites::select_puzzles(std::move(in_range), selection);
  return found;
}

// The settings that decide a result: results made with other ones are not mixed in by
// --resume. (Where the net was read from does not matter, only which net it is.)
constexpr const char* kDecidingSettings[] = {"mode",     "evaluator",  "nodes",   "movetime_ms",
                                             "net_hash", "parameters", "hash_mb", "syzygy"};

// "" when `previous` and `current` agree on every deciding setting, else what differs:
// `mode "argmax", not "search"; nodes null, not 50`.
std::string settings_difference(const json& previous, const json& current) {
  std::string difference;
  for (const char* key : kDecidingSettings) {
    const json was = previous.value(key, json()), is = current.value(key, json());
    if (was == is) continue;
    if (!difference.empty()) difference += "; ";
    difference += fmt::format("{} {}, not {}", key, was.dump(), is.dump());
  }
  return difference;
}

// The results a previous run left in a JSON Lines file: solved or not, by puzzle id. A last
// line without its newline is a write cut short, and summary lines describe a run that is
// about to grow: both are cut out of the file, so that appending starts clean. Any other
// line that is not a result of the same settings stops the command.
std::map<std::string, bool> read_previous_results(const std::string& path, const json& settings) {
  std::map<std::string, bool> previous;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw std::runtime_error(fmt::format("cannot write '{}': is a directory", path));
  if (!std::filesystem::exists(path, ec)) return previous;
  std::ifstream file = open_text_file(path, "results file");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  file.close();
  const size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  std::string kept;
  long line_number = 0;
  for (size_t start = 0; start < complete;) {
    const size_t end = text.find('\n', start);
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const json row = json::parse(line, nullptr, false);
    if (row.is_object() && row.contains("summary")) continue;
    if (row.is_discarded() || !row.is_object() || !row.contains("id") || !row["id"].is_string() ||
        !row.contains("solved") || !row["solved"].is_boolean())
      throw std::runtime_error(
          fmt::format("--resume: {}:{}: not a puzzle result line", path, line_number));
    if (!row.contains("settings") || !row["settings"].is_object())
      throw std::runtime_error(fmt::format(
          "--resume: {}:{}: a result without settings (an older format); use another --json file",
          path, line_number));
    const std::string difference = settings_difference(row["settings"], settings);
    if (!difference.empty())
      throw std::runtime_error(
          fmt::format("--resume: {}:{}: a result of other settings ({}); use another --json file",
                      path, line_number, difference));
    previous.emplace(row["id"].get<std::string>(), row["solved"].get<bool>());
    kept.append(line);
    kept += '\n';
  }
  if (kept.size() != text.size()) {
    // Written beside the file and renamed over it, so that a failure leaves the old one.
    const std::string temporary = path + ".tmp";
    std::ofstream rewrite(temporary, std::ios::trunc | std::ios::binary);
    rewrite << kept;
    rewrite.close();
    if (!rewrite) throw std::runtime_error(fmt::format("cannot write '{}'", temporary));
    std::filesystem::rename(temporary, path, ec);
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

// "12.3%", or "–" for no puzzles: 0.0% would claim a result that was never measured.
std::string accuracy(const suites::Tally& tally) {
  if (tally.total == 0) return "–";
  return fmt::format("{:.1f}%", 100.0 * tally.solved / tally.total);
}

json tally_json(const suites::RatingTally& tally) {
  json buckets = json::array();
  for (int b = 0; b < suites::kRatingBuckets; ++b)
    buckets.push_back({{"bucket", suites::kRatingBucketNames[b]},
                       {"min_rating", suites::kRatingBucketMin[b]},
                       {"solved", tally.by_rating[size_t(b)].solved},
                       {"total", tally.by_rating[size_t(b)].total}});
  return {{"solved", tally.overall.solved}, {"total", tally.overall.total}, {"by_rating", buckets}};
}

void print_rating_table(std::ostream& out, const suites::RatingTally& all) {
  fmt::print(out, "{:<10} {:>7} {:>7} {:>9}\n", "rating", "solved", "total", "accuracy");
  for (int b = 0; b < suites::kRatingBuckets; ++b) {
    const suites::Tally& t = all.by_rating[size_t(b)];
    fmt::print(out, "{:<10} {:>7} {:>7} {:>9}\n", suites::kRatingBucketNames[b], t.solved, t.total,
               accuracy(t));
  }
  fmt::print(out, "{:<10} {:>7} {:>7} {:>9}\n", "overall", all.overall.solved, all.overall.total,
             accuracy(all.overall));
}

// One row per theme, most frequent first, with its accuracy in each rating bucket: themes
// differ in difficulty, so an overall figure alone mixes the theme with the rating.
void print_theme_table(std::ostream& out, const suites::PuzzleSummary& summary) {
  std::vector<std::pair<std::string, suites::RatingTally>> themes(summary.by_theme.begin(),
                                                                  summary.by_theme.end());
  std::stable_sort(themes.begin(), themes.end(), [](const auto& a, const auto& b) {
    return a.second.overall.total > b.second.overall.total;
  });
  size_t width = 5;
  for (const auto& [theme, tally] : themes) width = std::max(width, theme.size());
  fmt::print(out, "\n{:<{}} {:>7} {:>7} {:>9}", "theme", width, "solved", "total", "accuracy");
  for (const char* bucket : suites::kRatingBucketNames) fmt::print(out, " {:>10}", bucket);
  fmt::print(out, "\n");
  for (const auto& [theme, tally] : themes) {
    fmt::print(out, "{:<{}} {:>7} {:>7} {:>9}", theme, width, tally.overall.solved,
               tally.overall.total, accuracy(tally.overall));
    for (const suites::Tally& t : tally.by_rating)
      fmt::print(
          out, " {:>10}",
          t.total > 0 && t.total < kFewPuzzles ? fmt::format("({})", accuracy(t)) : accuracy(t));
    fmt::print(out, "\n");
  }
  if (themes.empty())
    fmt::print(out, "(no themes: the file has no Themes column)\n");
  else
    fmt::print(out, "(..): fewer than {} puzzles; –: none\n", kFewPuzzles);
}

cxxopts::Options puzzle_options() {
  cxxopts::Options options(
      "avocet puzzles",
      "Puzzle bench over a Lichess puzzle CSV (PuzzleId,FEN,Moves,Rating,...,Themes).");
  auto add = options.add_options();
  add("file", "puzzle CSV, with or without its header", cxxopts::value<std::string>(), "CSV");
  add("min-rating", "only puzzles rated at least this",
      cxxopts::value<long long>()->default_value("0"), "R");
  add("max-rating", "only puzzles rated at most this",
      cxxopts::value<long long>()->default_value(std::to_string(suites::kMaxPuzzleRating)), "R");
  add("offset", "skip the first N in the rating range",
      cxxopts::value<long long>()->default_value("0"), "N");
  add("limit", "then at most the first N (default: all)", cxxopts::value<long long>(), "N");
  add("sample", "or a random sample of N (see --seed)", cxxopts::value<long long>(), "N");
  add("seed", "seed of --sample", cxxopts::value<long long>()->default_value("1"), "S");
  add("by-theme", "also print accuracy by theme and rating");
  add("evaluator", "net, or material (the baseline)",
      cxxopts::value<std::string>()->default_value("net"), "E");
  add_engine_flags(options, {engine::option_name::kEvalFile, engine::option_name::kPrecision});
  // argmax, unlike UCI's SearchMode: the bench's first question is what the net alone solves.
  add("mode",
      "argmax (the net alone, as ChessBench measures it; UCI's SearchMode defaults to puct) or "
      "search (the engine as it plays, SearchMode as --set gives it)",
      cxxopts::value<std::string>()->default_value("argmax"), "M");
  add_search_budget_options(options, "move", kDefaultSearchBudget);
  add_search_parameter_option(options);
  add_bench_engine_options(options);
  add("threads", "puzzles solved in parallel", cxxopts::value<long long>()->default_value("1"),
      "T");
  add("json", "write results to FILE as they come (JSON Lines)", cxxopts::value<std::string>(),
      "FILE");
  add("resume", "with --json: skip the puzzles FILE holds");
  add("label", "name of this run in the JSON (for plots)", cxxopts::value<std::string>(), "TEXT");
  add("h,help", "print this help");
  return options;
}

// Which puzzles: the rating range, the offset, then a limit or a sample.
suites::PuzzleSelection puzzle_selection(const cxxopts::ParseResult& parsed) {
  suites::PuzzleSelection selection;
  selection.min_rating = int(integer_option(parsed, "min-rating", 0, suites::kMaxPuzzleRating));
  selection.max_rating = int(integer_option(parsed, "max-rating", 0, suites::kMaxPuzzleRating));
  if (selection.min_rating > selection.max_rating)
    throw std::invalid_argument(fmt::format("--min-rating {} is above --max-rating {}",
                                            selection.min_rating, selection.max_rating));
  selection.offset = size_t(integer_option(parsed, "offset", 0));
  if (const auto limit = optional_integer_option(parsed, "limit", 1)) selection.limit = *limit;
  if (const auto sample = optional_integer_option(parsed, "sample", 1)) selection.sample = *sample;
  if (selection.limit && selection.sample)
    throw std::invalid_argument("--limit and --sample exclude each other; give one");
  selection.seed = uint64_t(integer_option(parsed, "seed", 0));
  if (parsed.count("seed") && !selection.sample)
    throw std::invalid_argument("--seed applies to --sample only");
  return selection;
}

// Everything a run is set to do, checked.
struct PuzzleRun {
  std::string path, json_path, label;
  bool resume = false;
  int threads = 1;
  suites::PuzzleSelection selection;
  BenchEngineSetup setup;
  std::string description;  // the evaluator and the mode, for the header
  json settings;            // what decides a result (see kDecidingSettings), for the JSON
};

PuzzleRun puzzle_run(const cxxopts::ParseResult& parsed) {
  if (!parsed.count("file")) throw cxxopts::exceptions::exception("puzzles needs --file CSV");
  const std::string mode = parsed["mode"].as<std::string>();
  if (mode != "argmax" && mode != "search")
    throw cxxopts::exceptions::exception(
        fmt::format("--mode must be argmax or search, got '{}'", mode));
  const std::string evaluator_name = parsed["evaluator"].as<std::string>();
  if (evaluator_name != "net" && evaluator_name != "material")
    throw cxxopts::exceptions::exception(
        fmt::format("--evaluator must be 'net' or 'material', got '{}'", evaluator_name));
  for (const std::string_view net_flag :
       {engine::option_name::kEvalFile, engine::option_name::kPrecision})
    if (evaluator_name == "material" && engine_flag_given(parsed, net_flag))
      throw std::invalid_argument(fmt::format("--{} applies to --evaluator net only", net_flag));
  std::optional<SearchBudget> budget = given_search_budget(parsed);
  if (mode == "argmax" && budget)
    throw std::invalid_argument("--nodes and --movetime apply to --mode search only");
  const GivenSearchParameters parameters = given_search_parameters(parsed);
  if (mode == "argmax" && !parameters.set.empty())
    throw std::invalid_argument("--set applies to --mode search only");
  if (parameters.params.mode == search::SearchMode::Argmax)
    throw std::invalid_argument("--set SearchMode=argmax: write --mode argmax");

  PuzzleRun run;
  run.path = parsed["file"].as<std::string>();
  run.threads = int(integer_option(parsed, "threads", 1, 256));
  run.selection = puzzle_selection(parsed);
  run.resume = parsed.count("resume") > 0;
  if (run.resume && !parsed.count("json"))
    throw cxxopts::exceptions::exception("--resume needs --json FILE");
  run.json_path = parsed.count("json") ? parsed["json"].as<std::string>() : "";
  const engine::Settings flags = engine_flags(parsed);
  std::shared_ptr<const nn::Network> network;
  if (evaluator_name == "net") network = load_network(flags);
  engine::EvaluatorFactory evaluator = [network]() -> std::unique_ptr<nn::Evaluator> {
    if (network) return nn::make_evaluator(network);
    return std::make_unique<nn::MaterialEvaluator>();
  };
  const std::string name = evaluator()->description();
  search::SearchParameters params = parameters.params;
  if (mode == "argmax") params.mode = search::SearchMode::Argmax;
  run.setup =
      bench_engine_setup(flags, evaluator, name, budget.value_or(kDefaultSearchBudget), params);
  std::string mode_text = mode == "search" ? "search " + run.setup.budget.text("move") : "argmax";
  if (!parameters.set.empty()) mode_text += ", " + parameters.text();
  const int hash_mb = run.setup.settings.engine.hash_mb;
  const SearchBudget* b = mode == "search" ? &run.setup.budget : nullptr;
  run.description =
      fmt::format("{}, {}{}{}", name, mode_text, b ? fmt::format(", {} MB table", hash_mb) : "",
                  run.setup.tables ? ", syzygy" : "");
  run.settings = {{"mode", mode},
                  {"evaluator", evaluator_name},
                  {"nodes", b && b->nodes ? json(*b->nodes) : json()},
                  {"movetime_ms", b && b->movetime_ms ? json(*b->movetime_ms) : json()},
                  {"net", network ? json(network->config().name) : json()},
                  {"net_hash", network ? json(fmt::format("{:016x}", network->hash())) : json()},
                  {"precision", network ? json(nn::precision_name(network->precision())) : json()},
                  {"weights", network ? json(flags.eval_file) : json()},
                  {"hash_mb", b ? json(hash_mb) : json()},
                  {"syzygy", run.setup.tables ? json(flags.syzygy_path) : json()}};
  // Only when given, so that results written before --set existed still --resume.
  for (const auto& [option, value] : parameters.set) run.settings["parameters"][option] = value;
  // A short default label: the plot's legend shows it.
  run.label = parsed.count("label")
                  ? parsed["label"].as<std::string>()
                  : fmt::format("{}, {}", network ? network->config().name : "material", mode_text);
  return run;
}

// One puzzle's line of the JSON Lines results.
json result_json(const suites::Puzzle& puzzle, const suites::PuzzleResult& result, double seconds,
                 uint64_t nodes, const PuzzleRun& run) {
  const auto text_or_null = [](const std::string& s) { return s.empty() ? json() : json(s); };
  return json{{"id", puzzle.id},
              {"rating", puzzle.rating},
              {"rating_bucket", suites::kRatingBucketNames[suites::rating_bucket(puzzle.rating)]},
              {"themes", puzzle.themes},
              {"fen", puzzle.start.fen()},
              {"solved", result.solved},
              {"correct_moves", result.correct_moves},
              {"solver_moves", suites::solver_moves(puzzle)},
              {"mistake_fen", text_or_null(result.mistake_fen)},
              {"expected", text_or_null(result.expected)},
              {"played", text_or_null(result.played)},
              {"seconds", std::round(seconds * 1e4) / 1e4},
              {"nodes", nodes},
              {"settings", run.settings},
              {"label", run.label}};
}

// Solves the puzzles `to_solve` indexes, on run.threads workers; sets solved[i] for each and
// writes its result line to `results` (when open) as it comes.
void solve_puzzles(const PuzzleRun& run, const std::vector<suites::Puzzle>& puzzles,
                   const std::vector<size_t>& to_solve, std::vector<int>& solved,
                   std::ofstream& results, const Streams& io) {
  size_t done = 0, solved_now = 0;  // under progress_mutex
  std::mutex progress_mutex;
  Progress progress(io.err, io.err_is_terminal && !to_solve.empty(), to_solve.size(), "puzzles");
  bool write_failed = false;
  run_on_workers(to_solve.size(), run.threads, run.setup, [&](BenchEngine& engine, size_t k) {
    const suites::Puzzle& puzzle = puzzles[to_solve[k]];
    engine.new_problem();
    uint64_t nodes = 0;
    const auto start = Clock::now();
    const suites::PuzzleResult result = suites::solve_puzzle(puzzle, [&](const Game& game) {
      const BenchEngine::Answer answer = engine.best_move(game);
      nodes += answer.nodes;
      return answer.move;
    });
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::lock_guard lock(progress_mutex);
    solved[to_solve[k]] = result.solved;
    if (results.is_open()) {
      results << result_json(puzzle, result, seconds, nodes, run).dump() << '\n';
      results.flush();
      write_failed = write_failed || !results;
    }
    solved_now += result.solved;
    ++done;
    progress.update(done, fmt::format("{:.1f}% solved", 100.0 * double(solved_now) / double(done)));
  });
  progress.finish();
  if (write_failed) throw std::runtime_error(fmt::format("cannot write '{}'", run.json_path));
}

// The summary line that ends a results file.
void write_summary_json(std::ofstream& results, const suites::PuzzleSummary& summary,
                        double seconds, const PuzzleRun& run) {
  json themes = json::object();
  for (const auto& [theme, tally] : summary.by_theme) themes[theme] = tally_json(tally);
  json summary_json = tally_json(summary.all);
  summary_json["by_theme"] = themes;
  summary_json["file"] = run.path;
  summary_json["seconds_this_run"] = std::round(seconds * 100) / 100;
  results
      << json{{"summary", summary_json}, {"settings", run.settings}, {"label", run.label}}.dump()
      << '\n';
  results.flush();
  if (!results) throw std::runtime_error(fmt::format("cannot write '{}'", run.json_path));
}

// "the first 1000", "a sample, seed 1", ...: how the puzzles were picked.
std::string selection_text(const suites::PuzzleSelection& selection) {
  std::vector<std::string> how;
  if (selection.min_rating > 0 || selection.max_rating < suites::kMaxPuzzleRating)
    how.push_back(fmt::format("rated {} to {}", selection.min_rating, selection.max_rating));
  if (selection.offset) how.push_back(fmt::format("skipping the first {}", selection.offset));
  if (selection.limit) how.push_back(fmt::format("the first {}", *selection.limit));
  if (selection.sample) how.push_back(fmt::format("a sample, seed {}", selection.seed));
  return how.empty() ? "" : fmt::format(" ({})", fmt::join(how, ", "));
}

}  // namespace

int puzzles_command(const Args& args, const Streams& io) {
  cxxopts::Options options = puzzle_options();
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  const PuzzleRun run = puzzle_run(parsed);
  // The results file first: a bad path must fail before a long run, not after it.
  std::ofstream results;
  if (!run.json_path.empty() && !run.resume) results = open_results_file(run.json_path, false);
  std::map<std::string, bool> previous;
  if (run.resume) {
    previous = read_previous_results(run.json_path, run.settings);
    results = open_results_file(run.json_path, true);
  }

  const PuzzleFile file = read_puzzles(run.path, run.selection, io);
  const std::vector<suites::Puzzle>& puzzles = file.selected;
  fmt::print(io.out, "{}: {} of {} puzzles{}\n", run.path, puzzles.size(), file.puzzles,
             selection_text(run.selection));
  fmt::print(io.out, "{}, {} thread{}\n", run.description, run.threads,
             run.threads == 1 ? "" : "s");
  io.out.flush();

  std::vector<int> solved(puzzles.size(), 0);
  std::vector<size_t> to_solve;  // indices into puzzles
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const auto found = previous.find(puzzles[i].id);
    if (found != previous.end())
      solved[i] = found->second;
    else
      to_solve.push_back(i);
  }
  if (run.resume)
    fmt::print(io.err, "{}: {} of {} puzzles already solved or failed, {} to go\n", run.json_path,
               puzzles.size() - to_solve.size(), puzzles.size(), to_solve.size());
  const auto start = Clock::now();
  solve_puzzles(run, puzzles, to_solve, solved, results, io);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

  suites::PuzzleSummary summary;
  for (size_t i = 0; i < puzzles.size(); ++i) summary.add(puzzles[i], solved[i] != 0);
  print_rating_table(io.out, summary.all);
  if (parsed.count("by-theme")) print_theme_table(io.out, summary);
  fmt::print(io.out, "{:.1f} s, {:.2f} puzzles/s\n", seconds,
             double(to_solve.size()) / std::max(seconds, 1e-9));
  io.out.flush();
  if (results.is_open()) write_summary_json(results, summary, seconds, run);
  return 0;
}

}  // namespace avocet::cli
