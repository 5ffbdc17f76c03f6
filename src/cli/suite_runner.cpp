#include "suite_runner.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace avocet::cli {

namespace {

constexpr size_t kMalformedLinesShown = 20;

}  // namespace

void read_suite_lines(const std::string& path, const SuiteFormat& format,
                      const std::function<bool(long, const std::string&)>& skip,
                      const std::function<void(const std::string&)>& parse,
                      const std::function<bool()>& enough, const Streams& io) {
  std::ifstream file = open_text_file(path, format.file_kind);
  std::vector<std::string> malformed;  // the first kMalformedLinesShown, with their numbers
  size_t malformed_count = 0, lines = 0;
  long line_number = 0;
  for (std::string line; !enough() && std::getline(file, line);) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos || skip(line_number, line)) continue;
    ++lines;
    try {
      parse(line);
    } catch (const std::exception& e) {
      if (++malformed_count <= kMalformedLinesShown)
        malformed.push_back(fmt::format("{}:{}: {}", path, line_number, e.what()));
    }
  }
  if (lines == 0)
    throw std::runtime_error(
        fmt::format("no {} in '{}': it holds no {}", format.items, path, format.lines));
  if (malformed_count == lines)
    throw std::runtime_error(fmt::format("no {} in '{}': none of its {} {} is {}; first: {}",
                                         format.items, path, lines, format.lines, format.line_kind,
                                         malformed.front()));
  for (const std::string& message : malformed) fmt::print(io.err, "{}\n", message);
  if (malformed_count)
    fmt::print(io.err, "{} malformed {} skipped\n", malformed_count, format.lines);
}

void add_bench_engine_options(cxxopts::Options& options) {
  add_engine_flags(options, {engine::option_name::kHash, engine::option_name::kSyzygyPath});
}

BenchEngineSetup bench_engine_setup(const engine::Settings& flags,
                                    engine::EvaluatorFactory evaluator, std::string name,
                                    const SearchBudget& budget,
                                    const search::SearchParameters& params) {
  BenchEngineSetup setup{std::move(evaluator), std::move(name), flags, nullptr, budget};
  setup.settings.engine.params = params;
  if (setup.settings.syzygy_path != engine::kNoTablebases)
    setup.tables = engine::open_readable_tablebases(setup.settings.syzygy_path);
  return setup;
}

BenchEngine::BenchEngine(const BenchEngineSetup& setup)
    : engine_(setup.evaluator, setup.evaluator_name) {
  engine_.configure(setup.settings);
  engine_.set_tablebases(setup.tables);
  if (setup.budget.movetime_ms)
    request_.clock.movetime = int(*setup.budget.movetime_ms);
  else
    request_.nodes = uint64_t(setup.budget.nodes.value_or(1));
}

BenchEngine::Answer BenchEngine::best_move(const Game& game) {
  engine_.set_game(game);
  Answer answer;
  engine::EngineCallbacks callbacks;
  callbacks.on_info = [&answer](const engine::SearchInfo& info) {
    answer.nodes = info.report.nodes;
  };
  callbacks.on_bestmove = [&answer](Move best, Move) { answer.move = best; };
  engine_.go(request_, std::move(callbacks));
  engine_.wait();
  return answer;
}

void run_on_workers(size_t count, int threads, const BenchEngineSetup& setup,
                    const std::function<void(BenchEngine&, size_t)>& work) {
  std::atomic<size_t> next{0};
  // A worker that fails (a Hash that cannot be allocated) stops the others; its error is
  // rethrown here, on the caller's thread.
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto worker = [&] {
    try {
      BenchEngine engine(setup);
      for (size_t i = next++; i < count; i = next++) work(engine, i);
    } catch (...) {
      next = count;
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace avocet::cli
