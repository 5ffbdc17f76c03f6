// `avocet datagen`: training data. With --from-tsv it converts Stockfish annotation files;
// otherwise it plays and labels games with Stockfish (see datagen/stockfish_datagen.h).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <cstdio>
#include <ext/stdio_filebuf.h>
#include <filesystem>
#include <fstream>
#include <memory>

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
      if (++total_positions % 20000 == 0) {
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        fmt::print(io.err, "\r{} positions, {:.0f} positions/s", total_positions,
                   total_positions / s);
      }
    };
    const datagen::ImportStats stats = datagen::import_annotations(text.stream(), write, io.err);
    if (writer) writer->flush();
    total_malformed += stats.malformed;
    fmt::print(io.err, "\n");
    fmt::print(io.out,
               "{}: {} lines, {} positions, {} labelled moves, {} malformed lines, {} shards\n",
               input, stats.lines, stats.positions, stats.moves, stats.malformed, shard);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(io.out, "total: {} positions in {:.1f} s ({:.0f} positions/s), {} malformed lines\n",
             total_positions, seconds, total_positions / std::max(seconds, 1e-9), total_malformed);
  return 0;
}

}  // namespace

int datagen_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet datagen", "Make training shards.");
  auto add = options.add_options();
  add("from-tsv", "convert these Stockfish annotation files (.tsv or .tsv.xz)",
      cxxopts::value<std::vector<std::string>>());
  add("o,output", "output folder", cxxopts::value<std::string>()->default_value("shards"));
  add("shard-size", "positions per shard (0: one shard per input)",
      cxxopts::value<long>()->default_value("100000"));
  add("h,help", "print this help");
  const auto parsed = parse_args(options, args);
  if (parsed.count("help")) {
    fmt::print(io.out, "{}", options.help());
    return 0;
  }
  if (parsed.count("from-tsv"))
    return import_tsv(parsed["from-tsv"].as<std::vector<std::string>>(),
                      parsed["output"].as<std::string>(), parsed["shard-size"].as<long>(), io);
  throw cxxopts::exceptions::exception("datagen needs --from-tsv FILE... (Stockfish play: soon)");
}

}  // namespace avocet::cli
