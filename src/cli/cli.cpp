#include "avocet/cli/cli.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "avocet/build_info.h"
#include "avocet/engine/options.h"
#include "avocet/uci/uci_loop.h"
#include "commands.h"

namespace avocet::cli {

namespace {

// The default cxxopts would append to an option's description, or "" where it should not:
// the description already says it in words ("network file (default: the embedded net)"), the
// default is empty (the option's absence, which the description explains), or a flag is off.
// A numeric type's maximum (18446744073709551615) stands for "no limit".
std::string default_note(const cxxopts::HelpOptionDetails& o) {
  if (!o.has_default || o.is_boolean || o.default_value.empty()) return "";
  if (o.desc.find("(default") != std::string::npos) return "";
  for (const std::string& unlimited : {std::to_string(std::numeric_limits<uint64_t>::max()),
                                       std::to_string(std::numeric_limits<int64_t>::max()),
                                       std::to_string(std::numeric_limits<int32_t>::max()),
                                       std::to_string(std::numeric_limits<uint32_t>::max())})
    if (o.default_value == unlimited) return " (default: no limit)";
  return fmt::format(" (default: {})", o.default_value);
}

// Appends `text` to `out` wrapped at kHelpWidth columns, continuation lines indented by
// `indent` (the description column).
constexpr size_t kHelpWidth = 100;
void append_wrapped(std::string& out, std::string_view text, size_t indent) {
  size_t column = indent;
  bool first = true;
  for (size_t i = 0; i < text.size();) {
    const size_t end = std::min(text.find(' ', i), text.size());
    const std::string_view word = text.substr(i, end - i);
    i = end + 1;
    if (word.empty()) continue;
    if (!first && column + 1 + word.size() > kHelpWidth) {
      out += '\n';
      out += std::string(indent, ' ');
      column = indent;
    } else if (!first) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    first = false;
  }
}

struct Subcommand {
  const char* name;
  const char* synopsis;  // what follows `avocet`: the name and its main arguments
  const char* summary;
  int (*run)(const Args&, const Streams&);
};

// `avocet version` and `avocet --version`: the version line, then the build line.
int version_command(const Args&, const Streams& io) {
  fmt::print(io.out, "{}\n{}\n", version_line(), build_line());
  return 0;
}

int help_command(const Args&, const Streams& io);

// One table serves dispatch and the top-level help; src/cli/README.md's command table lists the
// same subcommands with the options of each (tests/cli/cli_test.cpp checks both).
constexpr Subcommand kSubcommands[] = {
    {"bench", "bench [--iterations I] [--EvalFile FILE]", "fixed search; prints the node signature",
     bench_command},
    {"perft", "perft DEPTH [--fen FEN] | --suite FILE", "count leaf nodes (perft)", perft_command},
    {"eval", "eval FEN [--EvalFile FILE] [--SyzygyPath DIRS]",
     "every legal move's value, best first", eval_command},
    {"tokenize", "tokenize FEN [--mirror]", "the 77 network input tokens", tokenize_command},
    {"features", "features FEN [--json]", "tactical features of squares and moves",
     features_command},
    {"actions", "actions", "the 1968-move action table", actions_command},
    {"nnbench", "nnbench [--seconds S]", "network speed (positions/s, GFLOP/s)", nnbench_command},
    {"datagen", "datagen [--from-tsv FILE...] -o DIR", "training shards (Stockfish labels)",
     datagen_command},
    {"puzzles", "puzzles --file CSV [OPTIONS]", "Lichess puzzle bench, by rating and theme",
     puzzles_command},
    {"epd", "epd --file EPD [OPTIONS]", "bm/am and STS suites, by category", epd_command},
    {"tb", "tb --SyzygyPath DIRS FEN", "Syzygy WDL/DTZ of a position and its moves", tb_command},
    {"version", "version, --version", "the version, commit and build flags", version_command},
    {"help", "help, --help", "this help", help_command},
};

void print_help(std::ostream& out) {
  // Two columns, each row's second starting where the widest first one ends.
  std::vector<std::pair<std::string, std::string>> rows = {
      {"avocet [--Option=value ...]", "the UCI loop; 'help' there lists its commands"}};
  for (const Subcommand& s : kSubcommands)
    rows.emplace_back(fmt::format("avocet {}", s.synopsis), s.summary);
  std::vector<std::pair<std::string, std::string>> options;
  for (const engine::OptionSpec& spec : engine::option_specs()) {
    if (spec.type == engine::OptionType::Button)
      options.emplace_back(fmt::format("--{}", spec.name), std::string(spec.help));
    else
      options.emplace_back(fmt::format("--{}={}", spec.name, accepted_values(spec)),
                           fmt::format("{} (default: {})", spec.help, engine::default_value(spec)));
  }
  size_t width = 0;
  for (const auto& [left, right] : rows) width = std::max(width, left.size());
  for (const auto& [left, right] : options) width = std::max(width, left.size());
  std::string text = fmt::format("{}, a UCI chess engine\n\nusage:\n", version_line());
  const auto add_rows = [&](const std::vector<std::pair<std::string, std::string>>& table) {
    for (const auto& [left, right] : table) {
      text += fmt::format("  {:<{}}  ", left, width);
      append_wrapped(text, right, width + 4);
      text += '\n';
    }
  };
  add_rows(rows);
  text +=
      "'avocet SUBCOMMAND --help' describes a subcommand's options.\n\n"
      "UCI options (setoption, or --Name=value before the loop starts):\n";
  add_rows(options);
  fmt::print(out, "{}", text);
}

int help_command(const Args&, const Streams& io) {
  print_help(io.out);
  return 0;
}

// Standard input and output are a terminal: a person types, no GUI listens.
bool interactive(const Streams& io) {
  return &io.in == &std::cin && &io.out == &std::cout && isatty(STDIN_FILENO) == 1 &&
         isatty(STDOUT_FILENO) == 1;
}

// `--Name=value` arguments are set as `setoption name Name value value` would set them,
// before the loop reads standard input: that is how lichess-bot hands over its
// engine_options. A bad one (unknown name, bad value, or an effect that fails: a net that
// cannot be loaded, a Hash that cannot be allocated) ends the program with status 2 before
// the loop starts, as any bad argument does: a misconfigured engine that plays on shows its
// error only in a log, and plays with settings nobody asked for.
int uci_command(const Args& args, const Streams& io) {
  std::vector<std::pair<std::string, std::string>> settings;  // name, value
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") return help_command({}, io);
    if (arg == "--version") return version_command({}, io);
    if (arg.rfind("--", 0) != 0) {
      fmt::print(io.err, "avocet: unknown subcommand '{}' (try --help)\n", arg);
      return 2;
    }
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    const engine::OptionSpec* spec = engine::find_option(name);
    if (!spec)
      throw std::invalid_argument(
          fmt::format("{}: unknown option '{}' (avocet --help lists them)", arg, name));
    // `--Hash 16`, as the subcommands take their flags: the loop's options take `=`. A
    // string option alone (`--SyzygyPath`) is set empty.
    const bool takes_value = spec->type != engine::OptionType::Button;
    if (eq == std::string::npos && takes_value && i + 1 < args.size() &&
        args[i + 1].rfind("--", 0) != 0)
      throw std::invalid_argument(
          fmt::format("{} {}: write --{}={} (before the loop, options "
                      "take '=')",
                      arg, args[i + 1], spec->name, args[i + 1]));
    if (eq == std::string::npos && takes_value && spec->type != engine::OptionType::String)
      throw std::invalid_argument(fmt::format("{}: needs a value, --{}=VALUE", arg, spec->name));
    // Checked as the subcommands' flags are: a net that cannot be read, an arithmetic this CPU
    // lacks or tables that cannot be read are named here, in the form of every bad argument;
    // the loop below would report them as an engine that plays on with less.
    try {
      engine::checked_settings(*spec, value);
    } catch (const std::exception& e) {
      throw std::invalid_argument(fmt::format("{}: {}", arg, e.what()));
    }
    settings.emplace_back(std::string(spec->name), value);
  }
  uci::UciLoop loop(io.out, nullptr, "", io.err);
  // An effect that fails even so (a Hash that cannot be allocated) has been reported by the
  // loop, on stderr too.
  for (const auto& [name, value] : settings)
    if (!loop.set_option(name, value)) return 2;
  // A person at a terminal is greeted as Stockfish and lc0 do; a GUI, which reads the first
  // line as the answer to `uci`, gets nothing it did not ask for.
  // Flushed at once: the loop unties standard input from the output, so nothing else would
  // write the greeting out before the first answer to a command.
  if (interactive(io)) {
    fmt::print(io.out, "{}\n{}\nType 'help' for the commands.\n", version_line(), build_line());
    io.out.flush();
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

// Flags renamed to the options table's names (issue 53): an old one is answered with its new
// spelling where the subcommand takes it.
constexpr std::pair<std::string_view, std::string_view> kRenamedFlags[] = {
    {"weights", engine::option_name::kEvalFile},  {"precision", engine::option_name::kPrecision},
    {"syzygy", engine::option_name::kSyzygyPath}, {"path", engine::option_name::kSyzygyPath},
    {"hash", engine::option_name::kHash},
};

bool takes_flag(const cxxopts::Options& options, std::string_view name) {
  for (const std::string& group : options.groups())
    for (const cxxopts::HelpOptionDetails& o : options.group_help(group).options)
      if (std::find(o.l.begin(), o.l.end(), name) != o.l.end()) return true;
  return false;
}

// One line for a flag the subcommand does not take, from cxxopts' "Option 'x' does not
// exist": "bench: --weights is now --EvalFile", else "bench: unknown option '--x' (see ...)".
std::string unknown_option_message(const cxxopts::Options& options, const std::string& subcommand,
                                   const std::string& cxxopts_message) {
  const size_t open = cxxopts_message.find('\'');
  const size_t close = cxxopts_message.find('\'', open + 1);
  if (open == std::string::npos || close == std::string::npos)
    return fmt::format("{}: {}", subcommand, cxxopts_message);
  const std::string name = cxxopts_message.substr(open + 1, close - open - 1);
  for (const auto& [old_name, new_name] : kRenamedFlags)
    if (name == old_name && takes_flag(options, new_name))
      return fmt::format("{}: --{} is now --{}", subcommand, old_name, new_name);
  const std::string dashes = name.size() == 1 ? "-" : "--";
  return fmt::format("{}: unknown option '{}{}' (see 'avocet {} --help')", subcommand, dashes, name,
                     subcommand);
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
  } catch (const cxxopts::exceptions::no_such_option& e) {
    throw std::invalid_argument(
        unknown_option_message(options, subcommand, ascii_quotes(e.what())));
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

std::string options_help(const cxxopts::Options& options) {
  // cxxopts writes the description and usage lines; its option list is redrawn here, because
  // it appends a default to descriptions that state theirs in words, prints a type's maximum
  // for "no limit", and wraps at 76 columns with the description column chosen per group.
  const std::string stock = options.help();
  const size_t usage = stock.find("\nUsage:\n");
  std::string text;
  append_wrapped(text, stock.substr(0, usage), 0);
  text += stock.substr(usage, stock.find("\n\n") + 2 - usage);
  struct Row {
    std::string left, description;
  };
  std::vector<Row> rows;
  for (const std::string& group : options.groups()) {
    for (const cxxopts::HelpOptionDetails& o : options.group_help(group).options) {
      const std::string name = o.l.empty() ? o.s : o.l.front();
      // Positional arguments (FEN, DEPTH) are named on the usage line, not listed as options:
      // cxxopts leaves them out of its own list.
      if (stock.find(" --" + name + " ") == std::string::npos &&
          stock.find(" --" + name + "\n") == std::string::npos)
        continue;
      std::string left = o.s.empty() ? "    " : fmt::format("-{}, ", o.s);
      left += "--" + name;
      if (!o.is_boolean) {
        left += " " + (o.arg_help.empty() ? std::string("ARG") : o.arg_help);
      }
      rows.push_back({left, o.desc + default_note(o)});
    }
  }
  size_t width = 0;
  for (const Row& row : rows) width = std::max(width, row.left.size());
  for (const Row& row : rows) {
    text += fmt::format("  {:<{}}  ", row.left, width);
    append_wrapped(text, row.description, width + 4);
    text += '\n';
  }
  return text;
}

bool help_requested(const cxxopts::ParseResult& parsed, cxxopts::Options& options,
                    const Streams& io) {
  if (!parsed.count("help")) return false;
  fmt::print(io.out, "{}", options_help(options));
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
