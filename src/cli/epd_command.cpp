// `avocet epd`: bm/am suites and STS point suites, searched for a fixed time per position.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <fstream>

#include "avocet/chess/move_text.h"
#include "avocet/nn/default_net.h"
#include "avocet/search/search.h"
#include "avocet/suites/epd.h"
#include "commands.h"

namespace avocet::cli {

int epd_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet epd", "Run an EPD suite (bm/am in SAN, or STS points).");
  auto add = options.add_options();
  add("file", "EPD file", cxxopts::value<std::string>());
  add("movetime", "milliseconds per position", cxxopts::value<int>()->default_value("1000"));
  add("nodes", "node budget per position instead of a time", cxxopts::value<uint64_t>());
  add_weights_option(options);
  add("h,help", "print this help");
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  if (!parsed.count("file")) throw cxxopts::exceptions::exception("epd needs --file EPD");
  const std::string path = parsed["file"].as<std::string>();
  std::ifstream file = open_text_file(path, "EPD file");
  std::vector<suites::EpdEntry> entries;
  int line_number = 0, malformed = 0;
  for (std::string line; std::getline(file, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    try {
      entries.push_back(suites::parse_epd_line(line));
    } catch (const std::exception& e) {
      ++malformed;
      fmt::print(io.err, "{}:{}: {}\n", path, line_number, e.what());
    }
  }

  const auto evaluator = nn::make_evaluator(nn::load_network(parsed["weights"].as<std::string>()));
  search::TranspositionTable table(64);
  int solved = 0, score = 0, max_score = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const suites::EpdEntry& e = entries[i];
    search::SearchControl control;
    if (parsed.count("nodes"))
      control.node_limit = parsed["nodes"].as<uint64_t>();
    else
      control.set_deadline(std::chrono::steady_clock::now() +
                           std::chrono::milliseconds(parsed["movetime"].as<int>()));
    table.clear();
    search::Searcher searcher(*evaluator, table, search::SearchParameters{}, control);
    const search::IterationReport report = searcher.run(Game(e.position), {}, nullptr);
    if (report.lines.empty()) continue;
    const Move move = report.lines.front().move;
    const int points = suites::score_epd_move(e, move), best = suites::max_epd_score(e);
    solved += points == best;
    score += points;
    max_score += best;
    fmt::print(io.out, "{:>4} {:<28} {:<8} {:>2}/{:<2} {}\n", i + 1, e.id.substr(0, 28),
               to_san(e.position, move), points, best, points == best ? "ok" : "");
  }
  fmt::print(io.out, "\nsolved {}/{} ({:.1f}%), points {}/{} ({:.1f}%)", solved, entries.size(),
             entries.empty() ? 0.0 : 100.0 * solved / double(entries.size()), score, max_score,
             max_score ? 100.0 * score / max_score : 0.0);
  fmt::print(io.out, "{}\n",
             malformed ? fmt::format(", {} malformed lines skipped", malformed) : "");
  return 0;
}

}  // namespace avocet::cli
