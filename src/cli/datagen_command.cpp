// `avocet datagen`: training data. With --from-tsv it converts Stockfish annotation files;
// otherwise it plays and labels games with Stockfish (see datagen/selfplay.h).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <cstdio>
#include <ext/stdio_filebuf.h>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

#include "avocet/cli/progress.h"
#include "avocet/datagen/selfplay.h"
#include "avocet/datagen/shard.h"
#include "avocet/datagen/tsv_import.h"
#include "commands.h"

namespace avocet::cli {

namespace {

// Opens a text file, through `xz -dc` when it ends in .xz.
class TextInput {
 public:
  explicit TextInput(const std::string& path) {
    if (!std::filesystem::is_regular_file(path))
      throw std::runtime_error(fmt::format("cannot read '{}'", path));
    if (path.ends_with(".xz")) {
      std::string quoted = "'";
      for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      pipe_ = popen(("xz -dc " + quoted + "'").c_str(), "r");
      if (!pipe_) throw std::runtime_error(fmt::format("cannot run xz on '{}'", path));
      buffer_ = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(pipe_, std::ios::in);
      stream_ = std::make_unique<std::istream>(buffer_.get());
    } else {
      stream_ = std::make_unique<std::ifstream>(path);
    }
  }
  ~TextInput() {
    stream_.reset();
    buffer_.reset();
    if (pipe_) pclose(pipe_);
  }
  std::istream& stream() { return *stream_; }

 private:
  FILE* pipe_ = nullptr;
  std::unique_ptr<__gnu_cxx::stdio_filebuf<char>> buffer_;
  std::unique_ptr<std::istream> stream_;
};

std::string stem(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* suffix : {".xz", ".tsv"})
    if (name.ends_with(suffix)) name.resize(name.size() - std::string_view(suffix).size());
  return name;
}

int import_tsv(const std::vector<std::string>& inputs, const std::string& output, long shard_size,
               const Streams& io) {
  std::filesystem::create_directories(output);
  const auto start = std::chrono::steady_clock::now();
  long total_positions = 0, total_malformed = 0;
  // The number of positions is known only at the end: a count and a rate, no bar.
  Progress progress(io.err, io.err_is_terminal, 0, "positions", 20000);
  for (const std::string& input : inputs) {
    TextInput text(input);
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
        fmt::format("{}: {} lines, {} positions, {} labelled moves, {} malformed lines, "
                    "{} shards",
                    input, stats.lines, stats.positions, stats.moves, stats.malformed, shard));
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
  TextInput input(book_path);
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

// Reads back the shards an earlier run left in `output` (cutting a record an interrupted run
// left unfinished) into `seen`; returns how many positions they hold.
long resume_shards(const std::string& output, datagen::SeenPositions& seen, const Streams& io) {
  long existing = 0;
  for (const auto& entry : std::filesystem::directory_iterator(output)) {
    if (entry.path().extension() != ".shard") continue;
    const datagen::RecoveredShard shard = datagen::recover_shard(entry.path().string());
    if (shard.cut_bytes > 0)
      fmt::print(io.err, "{}: cut {} bytes of a record an interrupted run left unfinished\n",
                 entry.path().string(), shard.cut_bytes);
    for (const datagen::ShardRecord& r : shard.records) {
      seen.keys.insert(datagen::dedup_key(r.tokens));
      ++existing;
    }
  }
  return existing;
}

// Runs `workers` selfplay workers until they have written `target` new positions between
// them, showing progress; the first worker's error stops them all and is thrown.
void run_workers(const datagen::SelfplayOptions& o, int workers, long target,
                 const std::string& output, datagen::SeenPositions& seen, const Streams& io) {
  std::atomic<long> written{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  std::mutex error_mutex;
  std::string first_error;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      try {
        const std::string stem = fmt::format("{}/sf-seed{}-worker{}", output, o.seed, w);
        datagen::run_selfplay_worker(o, w, (target + workers - 1 - w) / workers, stem + ".shard",
                                     stem + ".tsv", seen, written, stop);
      } catch (const std::exception& e) {
        std::lock_guard lock(error_mutex);
        if (first_error.empty()) first_error = fmt::format("datagen worker {}: {}", w, e.what());
        stop = true;
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  Progress progress(io.err, io.err_is_terminal, size_t(target), "positions");
  while (written < target && !stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    progress.update(size_t(std::min(written.load(), target)));
  }
  for (auto& t : threads) t.join();
  progress.finish();
  // Each worker's shard and annotation file end with its last whole record: what was
  // written before the error is kept, and a later run resumes from it.
  if (!first_error.empty())
    throw std::runtime_error(
        fmt::format("{}; {} positions written before it are kept", first_error, written.load()));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(io.out, "wrote {} positions in {:.1f} s ({:.2f} positions/s)\n", written.load(), s,
             written / std::max(s, 1e-9));
}

// Plays and labels games with Stockfish, one process per worker.
int selfplay(const cxxopts::ParseResult& parsed, const Streams& io) {
  datagen::SelfplayOptions o = selfplay_options(parsed);
  const int workers = int(integer_option(parsed, "threads", 1, 256));
  const long target = long(integer_option(parsed, "positions", 1));
  o.book = opening_book(parsed, io);

  const std::string output = parsed["output"].as<std::string>();
  std::filesystem::create_directories(output);
  datagen::SeenPositions seen;
  const long existing = resume_shards(output, seen, io);
  if (parsed.count("book"))
    fmt::print(io.out, "{} openings, ", o.book.size());
  else
    fmt::print(io.out, "the start position (no --book), ");
  fmt::print(io.out, "{} worker{}, ", workers, workers == 1 ? "" : "s");
  if (existing > 0)
    fmt::print(io.out, "{} positions already in {} (resuming)\n", existing, output);
  else
    fmt::print(io.out, "writing to {}\n", output);

  run_workers(o, workers, target, output, seen, io);
  return 0;
}

}  // namespace

int datagen_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet datagen", "Make training shards.");
  auto add = options.add_options();
  add("from-tsv", "convert these Stockfish annotation files (.tsv or .tsv.xz)",
      cxxopts::value<std::vector<std::string>>());
  add("o,output", "output folder (required)", cxxopts::value<std::string>());
  add("shard-size", "positions per shard (0: one shard per input)",
      cxxopts::value<long long>()->default_value("100000"));
  add("stockfish", "Stockfish binary",
      cxxopts::value<std::string>()->default_value("/usr/games/stockfish"));
  add("book", "openings, EPD/FEN lines, .xz allowed (default: the start position)",
      cxxopts::value<std::string>());
  add("depth", "Stockfish depth per position", cxxopts::value<long long>()->default_value("7"));
  add("nodes", "Stockfish nodes per position instead of depth (0: use the depth)",
      cxxopts::value<long long>()->default_value("0"));
  add("threads", "workers (one Stockfish each)", cxxopts::value<long long>()->default_value("1"));
  add("seed", "random seed (shards are named by seed and worker)",
      cxxopts::value<uint64_t>()->default_value("1"));
  add("positions", "new positions to write", cxxopts::value<long long>()->default_value("1000"));
  add("opening-temperature", "softmax temperature (cp) for the first plies",
      cxxopts::value<double>()->default_value("60"));
  add("opening-plies", "plies using the opening temperature",
      cxxopts::value<long long>()->default_value("16"));
  add("temperature", "softmax temperature (cp) after the opening",
      cxxopts::value<double>()->default_value("25"));
  add("blunder-rate", "after the opening, chance per ply of a uniformly random legal move",
      cxxopts::value<double>()->default_value("0"));
  add("h,help", "print this help");
  options.parse_positional({"from-tsv"});  // --from-tsv A B C: every file after the flag
  options.positional_help("[FILE...]");
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
