#include "avocet/cli/cli.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <exception>
#include <string>
#include <vector>

#include "avocet/uci/uci_loop.h"
#include "avocet/version.h"
#include "commands.h"

namespace avocet::cli {

namespace {

struct Subcommand {
  const char* name;
  const char* usage;
  int (*run)(const Args&, const Streams&);
};

int version_command(const Args&, const Streams& io) {
  fmt::print(io.out, "Avocet {}\n", kVersion);
  return 0;
}

// One table serves dispatch and --help.
constexpr Subcommand kSubcommands[] = {
    {"bench", "bench [--depth D] [--weights FILE]      fixed search; prints the node signature",
     bench_command},
    {"perft", "perft DEPTH [--fen FEN] | --suite FILE   count leaf nodes (perft)", perft_command},
    {"eval", "eval FEN [--weights FILE]                win probability of every legal move",
     eval_command},
    {"tokenize", "tokenize FEN [--mirror]                 the 77 network input tokens",
     tokenize_command},
    {"actions", "actions                                 the 1968-move action table",
     actions_command},
    {"nnbench", "nnbench [--seconds S]                   network speed (positions/s, GFLOP/s)",
     nnbench_command},
    {"datagen", "datagen [--from-tsv FILE...] [-o DIR]  training shards (Stockfish labels)",
     datagen_command},
    {"puzzles", "puzzles --file CSV [--limit N] [--evaluator net|material]   puzzle bench",
     puzzles_command},
    {"epd", "epd --file EPD [--movetime MS]          bm/am and STS suites", epd_command},
    {"version", "version                                 print the version", version_command},
};

void print_help(std::ostream& out) {
  fmt::print(out, "usage: avocet [--Option=value ...]               run the UCI loop\n");
  for (const Subcommand& s : kSubcommands) fmt::print(out, "       avocet {}\n", s.usage);
  fmt::print(out, "'avocet SUBCOMMAND --help' describes a subcommand's options.\n");
}

// `--Name=value` arguments become `setoption name Name value value` before the loop reads
// standard input, which is how lichess-bot hands over its engine_options.
int uci_command(const Args& args, const Streams& io) {
  uci::UciLoop loop(io.out);
  for (const std::string& arg : args) {
    if (arg == "-h" || arg == "--help") {
      print_help(io.out);
      return 0;
    }
    if (arg.rfind("--", 0) != 0) {
      fmt::print(io.err, "avocet: unknown subcommand '{}' (try --help)\n", arg);
      return 2;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    loop.handle_line(fmt::format("setoption name {} value {}", name, value));
  }
  loop.run(io.in);
  return 0;
}

}  // namespace

cxxopts::ParseResult parse_args(cxxopts::Options& options, const Args& args) {
  std::vector<const char*> argv{"avocet"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return options.parse(int(argv.size()), argv.data());
}

void add_weights_option(cxxopts::Options& options) {
  options.add_options()("weights", "network file (default: the embedded net)",
                        cxxopts::value<std::string>()->default_value(""));
}

bool help_requested(const cxxopts::ParseResult& parsed, cxxopts::Options& options,
                    const Streams& io) {
  if (!parsed.count("help")) return false;
  fmt::print(io.out, "{}", options.help());
  return true;
}

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  const Streams io{in, out, err};
  const Args args(argv + 1, argv + argc);
  try {
    if (!args.empty()) {
      for (const Subcommand& s : kSubcommands)
        if (args[0] == s.name) return s.run(Args(args.begin() + 1, args.end()), io);
    }
    return uci_command(args, io);
  } catch (const std::exception& e) {
    fmt::print(err, "avocet: {}\n", e.what());
    return 2;
  }
}

}  // namespace avocet::cli
