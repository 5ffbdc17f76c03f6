// `avocet epd`: bm/am suites and STS point suites, one search per position. Results print
// as they come, in file order (with --threads N, N positions are searched at once, each by
// its own worker with its own evaluator and table); a miss shows what the suite expected.
// STS is scored per theme, so the summary adds a table by category (the id without its
// running number, or the file's name) when the suite has more than one.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "avocet/chess/move_text.h"
#include "avocet/cli/progress.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/network.h"
#include "avocet/suites/epd.h"
#include "commands.h"
#include "suite_runner.h"

namespace avocet::cli {

namespace {

// The id as the results column shows it, `width` characters at most: without an "STS(...)"
// tag (the header names the file) and, if still too long, with its middle cut out, so the
// running number at the end stays readable and the columns stay aligned.
std::string column_id(std::string_view id, size_t width) {
  if (id.starts_with("STS(") && id.find(") ") != std::string_view::npos)
    id.remove_prefix(id.find(") ") + 2);
  if (id.size() <= width) return std::string(id);
  const size_t tail = std::min<size_t>(5, width / 3);
  return fmt::format("{}...{}", id.substr(0, width - tail - 3), id.substr(id.size() - tail));
}

const SearchBudget kDefaultBudget{std::nullopt, 1000};

struct Entry {
  suites::EpdEntry epd;
  std::string category;
};

// The entries of an EPD file (the first `limit`, if given).
std::vector<Entry> read_entries(const std::string& path, std::optional<long long> limit,
                                const Streams& io) {
  const std::string file_category = std::filesystem::path(path).stem().string();
  std::vector<Entry> entries;
  read_suite_lines(
      path, {"EPD file", "EPD positions", "lines", "an EPD line with bm, am or points"},
      [](long, const std::string& line) { return line[0] == '#'; },
      [&](const std::string& line) {
        suites::EpdEntry epd = suites::parse_epd_line(line);
        std::string category = suites::epd_category(epd.id);
        entries.push_back({std::move(epd), category.empty() ? file_category : category});
      },
      [&] { return limit && entries.size() >= size_t(*limit); }, io);
  return entries;
}

struct Outcome {
  std::string move;  // SAN, or "(none)" without a legal move
  int points = 0, max_points = 0;
};

struct Totals {
  int positions = 0, solved = 0, points = 0, max_points = 0;
  void add(const Outcome& o) {
    ++positions;
    solved += o.points == o.max_points;
    points += o.points;
    max_points += o.max_points;
  }
};

std::string percent(int part, int whole) {
  return whole ? fmt::format("{:.1f}%", 100.0 * part / whole) : std::string("–");
}

// Searches every entry, `threads` at a time, and prints each result line as soon as those
// before it in the file have printed.
std::vector<Outcome> search_entries(const std::vector<Entry>& entries,
                                    const BenchEngineSetup& setup, int threads, const Streams& io) {
  std::vector<std::optional<Outcome>> outcomes(entries.size());
  std::mutex print_mutex;
  size_t next_to_print = 0;
  Totals running;
  Progress progress(io.err, io.err_is_terminal, entries.size(), "positions");
  run_on_workers(entries.size(), threads, setup, [&](BenchEngine& engine, size_t i) {
    const suites::EpdEntry& e = entries[i].epd;
    engine.new_problem();
    const Move move = engine.best_move(Game(e.position)).move;
    Outcome outcome{"(none)", 0, suites::max_epd_score(e)};
    if (!move.is_none()) {
      outcome.move = to_san(e.position, move);
      outcome.points = suites::score_epd_move(e, move);
    }
    std::lock_guard lock(print_mutex);
    outcomes[i] = outcome;
    running.add(outcome);
    for (; next_to_print < entries.size() && outcomes[next_to_print]; ++next_to_print) {
      const Outcome& o = *outcomes[next_to_print];
      const suites::EpdEntry& printed = entries[next_to_print].epd;
      progress.print_line(
          io.out,
          fmt::format(
              "{:>4}  {:<28} {:<8} {:>6}  {}", next_to_print + 1, column_id(printed.id, 28), o.move,
              fmt::format("{}/{}", o.points, o.max_points),
              o.points == o.max_points ? std::string("ok") : suites::expected_epd_moves(printed)));
    }
    progress.update(
        size_t(running.positions),
        fmt::format("{} solved, {} of points", percent(running.solved, running.positions),
                    percent(running.points, running.max_points)));
  });
  progress.finish();
  std::vector<Outcome> done;
  for (const auto& o : outcomes) done.push_back(*o);
  return done;
}

// The totals, and a table by category when the suite has more than one.
void print_summary(std::ostream& out, const std::vector<Entry>& entries,
                   const std::vector<Outcome>& outcomes) {
  Totals all;
  std::map<std::string, Totals> by_category;
  std::vector<std::string> category_order;  // as they first appear in the file
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!by_category.contains(entries[i].category)) category_order.push_back(entries[i].category);
    by_category[entries[i].category].add(outcomes[i]);
    all.add(outcomes[i]);
  }
  fmt::print(out, "\nsolved {}/{} ({}), points {}/{} ({})\n", all.solved, all.positions,
             percent(all.solved, all.positions), all.points, all.max_points,
             percent(all.points, all.max_points));
  if (by_category.size() > 1) {
    size_t width = 8;
    for (const std::string& c : category_order) width = std::max(width, c.size());
    fmt::print(out, "\n{:<{}} {:>9} {:>7} {:>11} {:>7}\n", "category", width, "positions", "solved",
               "points", "score");
    for (const std::string& c : category_order) {
      const Totals& t = by_category[c];
      fmt::print(out, "{:<{}} {:>9} {:>7} {:>11} {:>7}\n", c, width, t.positions, t.solved,
                 fmt::format("{}/{}", t.points, t.max_points), percent(t.points, t.max_points));
    }
  }
  out.flush();
}

}  // namespace

int epd_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet epd",
                           "Run an EPD suite: bm/am in SAN, or STS points (c0, or c8/c9).");
  auto add = options.add_options();
  add("file", "EPD file", cxxopts::value<std::string>(), "EPD");
  add_search_budget_options(options, "position", kDefaultBudget);
  add_search_parameter_option(options);
  add("limit", "only the first N positions", cxxopts::value<long long>(), "N");
  add("threads", "positions searched in parallel", cxxopts::value<long long>()->default_value("1"),
      "T");
  add_engine_flags(options, {engine::option_name::kEvalFile, engine::option_name::kPrecision});
  add_bench_engine_options(options);
  add("h,help", "print this help");
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  if (!parsed.count("file")) throw cxxopts::exceptions::exception("epd needs --file EPD");
  const SearchBudget budget = given_search_budget(parsed).value_or(kDefaultBudget);
  const GivenSearchParameters parameters = given_search_parameters(parsed);
  const std::optional<long long> limit = optional_integer_option(parsed, "limit", 1);
  const int threads = int(integer_option(parsed, "threads", 1, 256));
  const std::string path = parsed["file"].as<std::string>();
  const std::vector<Entry> entries = read_entries(path, limit, io);
  const engine::Settings flags = engine_flags(parsed);
  const std::shared_ptr<const nn::Network> network = load_network(flags);
  const BenchEngineSetup setup = bench_engine_setup(
      flags, [network] { return nn::make_evaluator(network); }, network->description(), budget,
      parameters.params);

  fmt::print(io.out, "{}: {} positions{}\n", path, entries.size(),
             limit ? fmt::format(" (the first {})", *limit) : "");
  fmt::print(io.out, "net {}, {}{}, {} MB table{}, {} thread{}\n", network->description(),
             budget.text("position"), parameters.set.empty() ? "" : ", " + parameters.text(),
             setup.settings.engine.hash_mb, setup.tables ? ", syzygy" : "", threads,
             threads == 1 ? "" : "s");
  fmt::print(io.out, "{:>4}  {:<28} {:<8} {:>6}  {}\n", "#", "id", "move", "points",
             "expected (on a miss)");
  io.out.flush();
  print_summary(io.out, entries, search_entries(entries, setup, threads, io));
  return 0;
}

}  // namespace avocet::cli
