// `avocet datagen`: training data. With --from-tsv it converts Stockfish annotation files;
// otherwise it plays and labels games with Stockfish (see datagen/selfplay.h).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "avocet/cli/progress.h"
#include "avocet/datagen/game_record.h"
#include "avocet/datagen/input_file.h"
#include "avocet/datagen/selfplay.h"
#include "avocet/datagen/shard.h"
#include "avocet/datagen/tsv_import.h"
#include "avocet/datagen/uci_process.h"
#include "commands.h"

namespace avocet::cli {

namespace {

// The output folder, created if missing; a run that fails before writing anything into it
// leaves no empty folder behind.
class OutputFolder {
 public:
  explicit OutputFolder(std::string path)
      : path_(std::move(path)), created_(!std::filesystem::exists(path_)) {
    std::filesystem::create_directories(path_);
  }
  ~OutputFolder() {
    std::error_code ignored;
    if (created_ && std::filesystem::is_empty(path_, ignored))
      std::filesystem::remove(path_, ignored);
  }
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

 private:
  std::string path_;
  bool created_;
};

std::string stem(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* suffix : {".xz", ".tsv"})
    if (name.ends_with(suffix)) name.resize(name.size() - std::string_view(suffix).size());
  return name;
}

int import_tsv(const std::vector<std::string>& inputs, const std::string& output, long shard_size,
               const Streams& io) {
  const OutputFolder folder(output);
  const auto start = std::chrono::steady_clock::now();
  long total_positions = 0, total_malformed = 0;
  // The number of positions is known only at the end: a count and a rate, no bar.
  Progress progress(io.err, io.err_is_terminal, 0, "positions", 20000);
  for (const std::string& input : inputs) {
    datagen::InputFile text(input);
    std::unique_ptr<datagen::ShardWriter> writer;
    int shard = 0;
    auto write = [&](const Position& pos, const std::vector<datagen::LabelledMove>& moves) {
      if (!writer || (shard_size > 0 && writer->records() >= shard_size)) {
        const std::string path = fmt::format("{}/{}-{:03d}.shard", output, stem(input), shard++);
        std::filesystem::remove(path);  // a conversion rewrites its shards
        writer = std::make_unique<datagen::ShardWriter>(path);
      }
      writer->write(pos, moves);
      progress.update(size_t(++total_positions));
    };
    const datagen::ImportStats stats = datagen::import_annotations(text.stream(), write, io.err);
    if (writer) writer->flush();
    total_malformed += stats.malformed;
    progress.print_line(
        io.out,
        fmt::format("{}: {} lines, {} positions, {} labelled moves{}, {} malformed lines, "
                    "{} shards",
                    input, stats.lines, stats.positions, stats.moves,
                    stats.unscored > 0 ? fmt::format(" ({} more unscored)", stats.unscored) : "",
                    stats.malformed, shard));
  }
  progress.finish();
  if (total_positions == 0)
    throw std::runtime_error(fmt::format(
        "no annotated positions in {} ({} malformed lines; expected 'FEN<TAB>move:score ...')",
        inputs.size() == 1 ? "'" + inputs.front() + "'" : "the input files", total_malformed));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(io.out, "total: {} positions in {:.1f} s ({:.0f} positions/s), {} malformed lines\n",
             total_positions, seconds, total_positions / std::max(seconds, 1e-9), total_malformed);
  return 0;
}

// The game and labelling options (all but the book, the workers and the target).
datagen::SelfplayOptions selfplay_options(const cxxopts::ParseResult& parsed) {
  datagen::SelfplayOptions o;
  o.stockfish = parsed["stockfish"].as<std::string>();
  o.depth = int(integer_option(parsed, "depth", 1, 64));
  o.nodes = int(integer_option(parsed, "nodes", 0, std::numeric_limits<int>::max()));
  o.multipv = int(integer_option(parsed, "multipv", 0, 255));
  o.shallow_depth = int(integer_option(parsed, "shallow-depth", 0, 64));
  if (o.shallow_depth > 0 && o.multipv == 0)
    throw std::invalid_argument("--shallow-depth needs --multipv K: the moves searched deeper");
  if (o.shallow_depth > 0 && o.nodes == 0 && o.shallow_depth >= o.depth)
    throw std::invalid_argument(
        fmt::format("--shallow-depth {} must be below --depth {}", o.shallow_depth, o.depth));
  o.seed = parsed["seed"].as<uint64_t>();
  o.opening_plies = int(integer_option(parsed, "opening-plies", 0, o.max_plies));
  o.blunder_rate = parsed["blunder-rate"].as<double>();
  if (!(o.blunder_rate >= 0 && o.blunder_rate <= 1))
    throw std::invalid_argument(
        fmt::format("--blunder-rate must be 0 to 1, got {}", o.blunder_rate));
  o.opening_temperature = positive_number_option(parsed, "opening-temperature");
  o.temperature = positive_number_option(parsed, "temperature");
  return o;
}

// The openings of --book (bad ones skipped with a line on stderr). Without a book every game
// starts from the start position; the softmax over Stockfish's scores in the first
// --opening-plies (at --opening-temperature) makes the games differ.
std::vector<std::string> opening_book(const cxxopts::ParseResult& parsed, const Streams& io) {
  if (!parsed.count("book")) return {std::string(kStartFen)};
  std::vector<std::string> book;
  const std::string book_path = parsed["book"].as<std::string>();
  datagen::InputFile input(book_path);
  for (std::string line; std::getline(input.stream(), line);) {
    const std::string fen = line.substr(0, line.find(';'));
    if (fen.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      book.push_back(Position::from_fen(fen).fen());
    } catch (const FenError& e) {
      fmt::print(io.err, "{}: skipped a bad opening: {}\n", book_path, e.what());
    }
  }
  if (book.empty()) throw std::runtime_error(fmt::format("no openings in '{}'", book_path));
  return book;
}

// Checks the games an earlier run left in `output` (cutting a game an interrupted run left
// unfinished); returns how many positions they hold.
long resume_games(const std::string& output, const Streams& io) {
  long existing = 0;
  for (const auto& entry : std::filesystem::directory_iterator(output)) {
    if (entry.path().extension() != ".games") continue;
    const datagen::RecoveredGames kept = datagen::recover_game_records(entry.path().string());
    if (kept.cut_bytes > 0)
      fmt::print(io.err, "{}: cut {} bytes of a game an interrupted run left unfinished\n",
                 entry.path().string(), kept.cut_bytes);
    existing += kept.plies;
  }
  return existing;
}

// The folder's record of how its labels were made (recipe.json): the recipe, the same for
// every file in the folder, and per annotation file the CPU seconds its Stockfish spent, so
// that a recipe's cost per position is known however the runs were interrupted and resumed.
// tools/data/manifest.py reads it into the data manifest.
class RecipeRecord {
 public:
  RecipeRecord(const std::string& output, nlohmann::json recipe)
      : path_(output + "/recipe.json"), recipe_(std::move(recipe)) {
    if (!std::filesystem::exists(path_)) return;
    std::ifstream in(path_);
    nlohmann::json saved;
    try {
      saved = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("'{}' is not valid JSON: {}", path_, e.what()));
    }
    const nlohmann::json theirs = saved.value("recipe", nlohmann::json::object());
    if (theirs != recipe_) {
      std::string differences;
      for (const auto& [key, value] : recipe_.items())
        if (theirs.value(key, nlohmann::json()) != value)
          differences += fmt::format("{}{} {}, not {}", differences.empty() ? "" : ", ", key,
                                     theirs.value(key, nlohmann::json()).dump(), value.dump());
      throw std::invalid_argument(fmt::format(
          "'{}' holds labels of another recipe ({}): use another folder", output, differences));
    }
    // A named copy: items() of the temporary value() returns would outlive it in the loop.
    const nlohmann::json files = saved.value("files", nlohmann::json::object());
    for (const auto& [file, entry] : files.items()) files_[file] = entry;
  }

  // CPU seconds spent on `file` by earlier runs.
  double earlier_seconds(const std::string& file) const {
    return files_.contains(file) ? files_.at(file).value("engine_cpu_seconds", 0.0) : 0.0;
  }
  double total_earlier_seconds() const {
    double total = 0;
    for (const auto& [file, entry] : files_.items())
      total += entry.value("engine_cpu_seconds", 0.0);
    return total;
  }

  // Writes the record with `seconds[file]` spent by this run on top of earlier runs'; through
  // a temporary file and a rename, so that a kill never leaves half a record.
  void save(const std::map<std::string, std::pair<uint64_t, double>>& seconds) const {
    nlohmann::json files = files_;
    for (const auto& [file, seed_seconds] : seconds)
      files[file] = {{"seed", seed_seconds.first},
                     {"engine_cpu_seconds", earlier_seconds(file) + seed_seconds.second}};
    const std::string temporary = path_ + ".tmp";
    {
      std::ofstream out(temporary);
      out << nlohmann::json{{"recipe", recipe_}, {"files", files}}.dump(2) << '\n';
      if (!out) throw std::runtime_error(fmt::format("cannot write '{}'", temporary));
    }
    std::filesystem::rename(temporary, path_);
  }

 private:
  std::string path_;
  nlohmann::json recipe_;
  nlohmann::json files_ = nlohmann::json::object();
};

// The recipe as recipe.json records it: everything that decides what the labels are.
nlohmann::json recipe_json(const datagen::SelfplayOptions& o, const std::string& book,
                           const std::string& engine) {
  return {{"engine", engine},
          {"depth", o.nodes > 0 ? 0 : o.depth},
          {"nodes", o.nodes},
          {"multipv", o.multipv},
          {"shallow_depth", o.shallow_depth},
          {"hash_mb", o.hash_mb},
          {"book", book},
          {"book_openings", o.book.size()},
          {"opening_plies", o.opening_plies},
          {"opening_temperature", o.opening_temperature},
          {"temperature", o.temperature},
          {"blunder_rate", o.blunder_rate}};
}

// Runs `workers` selfplay workers until they have written `target` new positions between
// them, or their Stockfish processes have spent the folder's `budget` CPU seconds (0: no
// budget), showing progress and keeping recipe.json current; the first worker's error stops
// them all and is thrown.
void run_workers(const datagen::SelfplayOptions& o, int workers, long target, double budget,
                 const std::string& output, const RecipeRecord& record,
                 const nlohmann::json& recipe, const Streams& io) {
  std::atomic<long> written{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  std::vector<std::atomic<double>> engine_seconds(static_cast<size_t>(workers));
  std::mutex error_mutex;
  std::string first_error;
  auto stem = [&](int w) { return fmt::format("sf-seed{}-worker{}", o.seed, w); };
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      try {
        const std::string path = output + "/" + stem(w);
        const nlohmann::json header = {{"format", "avocet labelled games"},
                                       {"recipe", recipe},
                                       {"seed", o.seed},
                                       {"worker", w}};
        datagen::run_selfplay_worker(o, w, (target + workers - 1 - w) / workers,
                                     {path + ".games", header.dump(), path + ".tsv"}, written, stop,
                                     &engine_seconds[size_t(w)]);
      } catch (const std::exception& e) {
        std::lock_guard lock(error_mutex);
        if (first_error.empty()) first_error = fmt::format("datagen worker {}: {}", w, e.what());
        stop = true;
      }
    });
  }
  auto spent = [&] {
    std::map<std::string, std::pair<uint64_t, double>> seconds;
    for (int w = 0; w < workers; ++w)
      seconds[stem(w) + ".games"] = std::pair(o.seed, engine_seconds[size_t(w)].load());
    return seconds;
  };
  auto total_spent = [&] {
    double total = record.total_earlier_seconds();
    for (const auto& s : engine_seconds) total += s.load();
    return total;
  };
  const auto start = std::chrono::steady_clock::now();
  auto last_save = start;
  Progress progress(io.err, io.err_is_terminal, size_t(target), "positions");
  while (written < target && !stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    progress.update(size_t(std::min(written.load(), target)));
    if (budget > 0 && total_spent() >= budget) stop = true;
    if (std::chrono::steady_clock::now() - last_save > std::chrono::seconds(30)) {
      record.save(spent());
      last_save = std::chrono::steady_clock::now();
    }
  }
  stop = true;  // the target reached, the budget spent or an error: all workers end
  for (auto& t : threads) t.join();
  record.save(spent());
  // A move in flight when the loop stopped is written as its game ends: the last line counts
  // it, as the summary below does.
  progress.update(size_t(std::min(written.load(), target)));
  progress.finish();
  // Each worker's games file ends with its last whole game: what was
  // written before the error is kept, and a later run resumes from it.
  if (!first_error.empty())
    throw std::runtime_error(
        fmt::format("{}; {} positions written before it are kept", first_error, written.load()));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double cpu = 0;
  for (const auto& e : engine_seconds) cpu += e.load();
  fmt::print(io.out,
             "wrote {} positions in {:.1f} s ({:.2f} positions/s); Stockfish CPU {:.1f} s "
             "({:.0f} positions per core-hour){}\n",
             written.load(), s, written / std::max(s, 1e-9), cpu,
             written * 3600.0 / std::max(cpu, 1e-9),
             budget > 0 && total_spent() >= budget
                 ? fmt::format("; the folder's budget of {:.0f} CPU seconds is spent", budget)
                 : "");
}

// Plays and labels games with Stockfish, one process per worker.
int selfplay(const cxxopts::ParseResult& parsed, const Streams& io) {
  datagen::SelfplayOptions o = selfplay_options(parsed);
  const int workers = int(integer_option(parsed, "threads", 1, 256));
  const long target = long(integer_option(parsed, "positions", 1));
  o.book = opening_book(parsed, io);

  const double budget = parsed["seconds"].as<double>();
  if (!(budget >= 0)) throw std::invalid_argument("--seconds must be 0 or more");

  const std::string output = parsed["output"].as<std::string>();
  const OutputFolder folder(output);
  // Asks Stockfish its name before any worker starts: a wrong --stockfish fails here, once.
  const std::string engine = datagen::UciProcess(o.stockfish).name();
  const std::string book =
      parsed.count("book")
          ? std::filesystem::path(parsed["book"].as<std::string>()).filename().string()
          : "startpos";
  const nlohmann::json recipe = recipe_json(o, book, engine);
  const RecipeRecord record(output, recipe);
  if (budget > 0 && record.total_earlier_seconds() >= budget) {
    fmt::print(io.out, "{}: its budget of {:.0f} Stockfish CPU seconds is already spent\n", output,
               budget);
    return 0;
  }
  const long existing = resume_games(output, io);
  if (parsed.count("book"))
    fmt::print(io.out, "{} openings, ", o.book.size());
  else
    fmt::print(io.out, "the start position (no --book), ");
  fmt::print(io.out, "{} worker{}, ", workers, workers == 1 ? "" : "s");
  if (existing > 0)
    fmt::print(io.out, "{} positions already in {} (resuming)\n", existing, output);
  else
    fmt::print(io.out, "writing to {}\n", output);

  run_workers(o, workers, target, budget, output, record, recipe, io);
  return 0;
}

}  // namespace

int datagen_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet datagen", "Make training shards.");
  auto add = options.add_options();
  add("from-tsv", "convert these Stockfish annotation files (.tsv or .tsv.xz)",
      cxxopts::value<std::vector<std::string>>(), "FILE...");
  add("o,output", "output folder (required)", cxxopts::value<std::string>(), "DIR");
  add("shard-size", "positions per shard (0: one shard per input)",
      cxxopts::value<long long>()->default_value("100000"), "N");
  add("stockfish", "Stockfish binary",
      cxxopts::value<std::string>()->default_value("/usr/games/stockfish"), "PATH");
  add("book", "openings, EPD/FEN lines, .xz allowed (default: the start position)",
      cxxopts::value<std::string>(), "EPD");
  add("depth", "Stockfish depth per position", cxxopts::value<long long>()->default_value("5"),
      "D");
  add("nodes", "Stockfish nodes per position instead of depth (0: use the depth)",
      cxxopts::value<long long>()->default_value("0"), "N");
  add("multipv", "moves searched at --depth (0: all; fewer leaves the rest unscored)",
      cxxopts::value<long long>()->default_value("0"), "K");
  add("shallow-depth", "with --multipv K: score every move at this depth first",
      cxxopts::value<long long>()->default_value("0"), "S");
  add("seconds", "stop when the folder's Stockfish CPU seconds reach this (0: no budget)",
      cxxopts::value<double>()->default_value("0"), "N");
  add("threads", "workers (one Stockfish each)", cxxopts::value<long long>()->default_value("1"),
      "W");
  add("seed", "random seed (shards are named by seed and worker)",
      cxxopts::value<uint64_t>()->default_value("1"), "S");
  add("positions", "new positions to write", cxxopts::value<long long>()->default_value("1000"),
      "N");
  add("opening-temperature", "softmax temperature (cp) for the first plies",
      cxxopts::value<double>()->default_value("60"), "CP");
  add("opening-plies", "plies using the opening temperature",
      cxxopts::value<long long>()->default_value("16"), "N");
  add("temperature", "softmax temperature (cp) after the opening",
      cxxopts::value<double>()->default_value("25"), "CP");
  add("blunder-rate", "after the opening, chance per ply of a uniformly random legal move",
      cxxopts::value<double>()->default_value("0"), "R");
  add("h,help", "print this help");
  options.parse_positional({"from-tsv"});  // --from-tsv A B C: every file after the flag
  options.positional_help("[FILE...]");
  options.show_positional_help();  // --from-tsv is an option too: --help lists it
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  // Required rather than defaulted: a mistyped command must not start a Stockfish job that
  // writes into whatever folder it was run from.
  if (!parsed.count("output"))
    throw std::invalid_argument("datagen needs -o DIR, the output folder");
  if (parsed.count("from-tsv"))
    return import_tsv(parsed["from-tsv"].as<std::vector<std::string>>(),
                      parsed["output"].as<std::string>(),
                      long(integer_option(parsed, "shard-size", 0)), io);
  return selfplay(parsed, io);
}

}  // namespace avocet::cli
