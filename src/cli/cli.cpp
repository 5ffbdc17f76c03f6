#include "avocet/cli/cli.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <stdexcept>
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
    {"features", "features FEN [--json]                   tactical features of squares and moves",
     features_command},
    {"actions", "actions                                 the 1968-move action table",
     actions_command},
    {"nnbench", "nnbench [--seconds S]                   network speed (positions/s, GFLOP/s)",
     nnbench_command},
    {"datagen", "datagen [--from-tsv FILE...] [-o DIR]  training shards (Stockfish labels)",
     datagen_command},
    {"puzzles", "puzzles --file CSV [OPTIONS]            Lichess puzzle bench, by rating and theme",
     puzzles_command},
    {"epd", "epd --file EPD [OPTIONS]                bm/am and STS suites, by category",
     epd_command},
    {"tb", "tb [--path DIRS] FEN                     Syzygy WDL/DTZ of a position and its moves",
     tb_command},
    {"version", "version                                 print the version", version_command},
};

// What an option accepts, for --help: "1..65536", "true|false", "search|argmax", "TEXT".
std::string accepted_values(const uci::OptionSpec& spec) {
  switch (spec.type) {
    case uci::OptionType::Spin:
      return fmt::format("{}..{}", spec.min, spec.max);
    case uci::OptionType::Check:
      return "true|false";
    case uci::OptionType::Combo:
      return fmt::format("{}", fmt::join(spec.vars, "|"));
    case uci::OptionType::String:
      return "TEXT";
  }
  return "";
}

void print_help(std::ostream& out) {
  fmt::print(out, "usage: avocet [--Option=value ...]               run the UCI loop\n");
  for (const Subcommand& s : kSubcommands) fmt::print(out, "       avocet {}\n", s.usage);
  fmt::print(out, "'avocet SUBCOMMAND --help' describes a subcommand's options.\n\n");
  fmt::print(out, "UCI options (setoption, or --Name=value before the loop starts):\n");
  for (const uci::OptionSpec& spec : uci::option_specs())
    fmt::print(out, "  {:<36} {}; default {}\n",
               fmt::format("--{}={}", spec.name, accepted_values(spec)), spec.help,
               uci::default_value(spec));
}

// `--Name=value` arguments are set as `setoption name Name value value` would set them,
// before the loop reads standard input: that is how lichess-bot hands over its
// engine_options. A bad one (unknown name, bad value, or an effect that fails: a net that
// cannot be loaded, a Hash that cannot be allocated) ends the program with status 2 before
// the loop starts, as any bad argument does: a misconfigured engine that plays on shows its
// error only in a log, and plays with settings nobody asked for.
int uci_command(const Args& args, const Streams& io) {
  std::vector<std::pair<std::string, std::string>> settings;  // name, value
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
    const uci::OptionSpec* spec = uci::find_option(name);
    if (!spec)
      throw std::invalid_argument(
          fmt::format("{}: unknown option '{}' (avocet --help lists them)", arg, name));
    try {
      uci::validate(*spec, value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}: {}", arg, e.what()));
    }
    settings.emplace_back(std::string(spec->name), value);
  }
  uci::UciLoop loop(io.out, nullptr, "", io.err);
  for (const auto& [name, value] : settings) {
    loop.set_option(name, value);
    // The loop keeps the previous value when the effect fails, and has said why on stderr.
    if (loop.option(name) != uci::validate(*uci::find_option(name), value).text) return 2;
  }
  loop.run(io.in);
  return 0;
}

// cxxopts quotes with typographic quotes; error lines stay ASCII.
// (Built by appending: gcc 12's -Wrestrict misfires on std::string::replace here.)
std::string ascii_quotes(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const std::string_view rest = std::string_view(text).substr(i);
    if (rest.starts_with("\u2018") || rest.starts_with("\u2019")) {
      out += '\'';
      i += std::string_view("\u2018").size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace

cxxopts::ParseResult parse_args(cxxopts::Options& options, const Args& args) {
  std::vector<const char*> argv{"avocet"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::string subcommand = options.program();
  if (subcommand.rfind("avocet ", 0) == 0) subcommand.erase(0, 7);
  try {
    cxxopts::ParseResult parsed = options.parse(int(argv.size()), argv.data());
    // cxxopts keeps words no option takes aside; silently ignored, `avocet bench 16 1 13`
    // (Stockfish's bench arguments) would run the default bench as if they meant something.
    if (!parsed.unmatched().empty())
      throw std::invalid_argument(
          fmt::format("{}: unexpected argument '{}' (see 'avocet {} --help')", subcommand,
                      parsed.unmatched().front(), subcommand));
    return parsed;
  } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
    // cxxopts names the value but not the option; find the option it followed.
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].rfind("-", 0) != 0) continue;
      const size_t eq = args[i].find('=');
      const std::string value = eq != std::string::npos ? args[i].substr(eq + 1)
                                                        : (i + 1 < args.size() ? args[i + 1] : "");
      const std::string name = args[i].substr(0, eq);
      try {
        std::vector<const char*> one{"avocet", args[i].c_str()};
        if (eq == std::string::npos) one.push_back(value.c_str());
        options.parse(int(one.size()), one.data());
      } catch (const cxxopts::exceptions::incorrect_argument_type&) {
        throw std::invalid_argument(
            fmt::format("{} {}: '{}' is not a valid value", subcommand, name, value));
      } catch (const cxxopts::exceptions::exception&) {
      }
    }
    throw std::invalid_argument(fmt::format("{}: {}", subcommand, ascii_quotes(e.what())));
  } catch (const cxxopts::exceptions::exception& e) {
    throw std::invalid_argument(fmt::format("{}: {}", subcommand, ascii_quotes(e.what())));
  }
}

std::ifstream open_text_file(const std::string& path, std::string_view what) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  std::string reason;
  if (ec)
    reason = ec.message();
  else if (std::filesystem::is_directory(status))
    reason = "is a directory";
  std::ifstream file;
  if (reason.empty()) {
    file.open(path);
    if (!file) reason = std::strerror(errno);
  }
  if (!reason.empty())
    throw std::runtime_error(fmt::format("cannot read {} '{}': {}", what, path, reason));
  return file;
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
  // Only the process's own stderr can be a terminal; tests pass string streams.
  const Streams io{in, out, err, &err == &std::cerr && isatty(STDERR_FILENO) == 1};
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
