#include "avocet/cli/cli.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cxxopts.hpp>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "avocet/chess/perft.h"
#include "avocet/chess/position.h"
#include "avocet/uci/uci_loop.h"
#include "avocet/version.h"

namespace avocet::cli {

namespace {

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

int perft_command(std::vector<std::string> args, const Streams& io) {
  cxxopts::Options options("avocet perft", "Count the leaf nodes of the legal move tree.");
  options.positional_help("DEPTH");
  options.add_options()("fen", "position to count from (default: the start position)",
                        cxxopts::value<std::string>()->default_value(std::string(kStartFen)))(
      "depth", "plies to count", cxxopts::value<int>())("h,help", "print this help");
  options.parse_positional({"depth"});
  std::vector<const char*> argv{"avocet perft"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  const auto parsed = options.parse(int(argv.size()), argv.data());
  if (parsed.count("help")) {
    fmt::print(io.out, "{}", options.help());
    return 0;
  }
  if (!parsed.count("depth")) throw cxxopts::exceptions::exception("perft needs a DEPTH");
  const int depth = parsed["depth"].as<int>();
  if (depth < 1 || depth > 20)
    throw cxxopts::exceptions::exception(fmt::format("depth must be 1 to 20, got {}", depth));
  write_perft_report(io.out, Position::from_fen(parsed["fen"].as<std::string>()), depth);
  return 0;
}

// `--Name=value` arguments become `setoption name Name value value` before the loop reads
// standard input, which is how lichess-bot hands over its engine_options.
int uci_command(const std::vector<std::string>& args, const Streams& io) {
  uci::UciLoop loop(io.out);
  for (const std::string& arg : args) {
    if (arg == "-h" || arg == "--help") {
      fmt::print(io.out,
                 "usage: avocet [--Option=value ...]      run the UCI loop\n"
                 "       avocet perft DEPTH [--fen FEN]   count moves (perft)\n"
                 "       avocet version                   print the version\n");
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

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  const Streams io{in, out, err};
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::map<std::string, std::function<int(std::vector<std::string>, const Streams&)>>
      subcommands = {
          {"perft", perft_command},
          {"version",
           [](std::vector<std::string>, const Streams& s) {
             fmt::print(s.out, "Avocet {}\n", kVersion);
             return 0;
           }},
      };
  try {
    if (!args.empty()) {
      const auto it = subcommands.find(args[0]);
      if (it != subcommands.end())
        return it->second(std::vector<std::string>(args.begin() + 1, args.end()), io);
    }
    return uci_command(args, io);
  } catch (const std::exception& e) {
    fmt::print(err, "avocet: {}\n", e.what());
    return 2;
  }
}

}  // namespace avocet::cli
