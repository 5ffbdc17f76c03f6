// The subcommands of the avocet binary; each returns the process exit status and reports
// bad input by throwing (cli.cpp prints one `avocet: ...` line).
#pragma once

// cxxopts 3's SplitInteger trips gcc 12's -Wrestrict, a false positive inside libstdc++'s
// string assignment that gcc finds after inlining it; silenced for this include only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <cxxopts.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/engine/engine.h"
#include "avocet/engine/options.h"
#include "avocet/search/limits.h"
#include "avocet/search/parameters.h"

namespace avocet::search {
struct SearchControl;
}  // namespace avocet::search

namespace avocet::nn {
class Network;
}  // namespace avocet::nn

namespace avocet::cli {

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  // `err` is the process's stderr and a terminal: progress is a bar redrawn in place (see
  // avocet/cli/progress.h); otherwise plain lines.
  bool err_is_terminal = false;
};

using Args = std::vector<std::string>;

// Parses `args` (the words after the subcommand) with `options`. A word that no option or
// declared positional takes is an error ("bench: unexpected argument '16'"), not ignored.
cxxopts::ParseResult parse_args(cxxopts::Options& options, const Args& args);

// Numbers on the command line are checked by these, so that every subcommand rejects
// nonsense with the same words: "--nodes must be >= 1, got 0", "--threads must be 1 to 256,
// got 0". Integer options are declared as cxxopts::value<long long>(), so that a negative
// value reaches the check instead of failing to parse as unsigned.
inline constexpr long long kNoMaximum = std::numeric_limits<long long>::max();
// Throws std::invalid_argument unless min <= value <= max.
void check_range(std::string_view name, long long value, long long min, long long max = kNoMaximum);
// The integer option `name` (given or defaulted), checked.
long long integer_option(const cxxopts::ParseResult& parsed, const std::string& name, long long min,
                         long long max = kNoMaximum);
// The same for an option without a default: nothing when it is not given.
std::optional<long long> optional_integer_option(const cxxopts::ParseResult& parsed,
                                                 const std::string& name, long long min,
                                                 long long max = kNoMaximum);
// A real option (cxxopts::value<double>()) that must be finite and > 0.
double positive_number_option(const cxxopts::ParseResult& parsed, const std::string& name);

// A position argument: a FEN, or `startpos` for the start position.
std::string fen_or_startpos(const std::string& text);

// The budget of one search in `puzzles` (per move) and `epd` (per position): --nodes N or
// --movetime MS, defined once here for both.
struct SearchBudget {
  std::optional<long long> nodes, movetime_ms;
  // "400 nodes/move", "1000 ms/position".
  std::string text(std::string_view per) const;
  // Sets the control's node limit, or its deadline counted from now.
  void apply(search::SearchControl& control) const;
};
// Adds --nodes and --movetime; `per` is "move" or "position", `fallback` what applies when
// neither is given (for the help text).
void add_search_budget_options(cxxopts::Options& options, std::string_view per,
                               const SearchBudget& fallback);
// The budget given on the command line (both options at once are an error), if any.
std::optional<SearchBudget> given_search_budget(const cxxopts::ParseResult& parsed);
// --set NAME=VALUE (repeatable) in `puzzles`, `epd` and `bench`: a search parameter, in the units
// its UCI option takes (PolicyTemperature=90), so that a suite measures a setting before games do.
void add_search_parameter_option(cxxopts::Options& options);
struct GivenSearchParameters {
  std::vector<std::pair<std::string, std::string>> set;  // (option, value), as UCI writes them
  search::SearchParameters params;                       // the defaults with `set` applied
  std::string text() const;                              // "PolicyTemperature=90" ("": none)
};
// Throws std::invalid_argument naming a word that is not NAME=VALUE, a name that is not a
// search parameter, or a value its option refuses.
GivenSearchParameters given_search_parameters(const cxxopts::ParseResult& parsed);
// Opens a text file to read; throws "cannot read <what> '<path>': <reason>" when it is
// missing, a directory, or unreadable.
std::ifstream open_text_file(const std::string& path, std::string_view what);
// The engine options a subcommand that loads a net or tables takes, by the options table's own
// names, help and defaults (engine/options.h): --EvalFile, --Precision, --SyzygyPath, --Hash.
// Adds `--Name VALUES` for each option `names` lists (engine::option_name).
void add_engine_flags(cxxopts::Options& options, std::initializer_list<std::string_view> names);
bool engine_flag_given(const cxxopts::ParseResult& parsed, std::string_view name);
// The settings the given flags make from the defaults, each validated, written and checked
// without being applied (OptionSpec::check), as `avocet --Name=value` is: throws
// std::invalid_argument "--Name VALUE: reason".
engine::Settings engine_flags(const cxxopts::ParseResult& parsed);
// The network EvalFile and Precision name, loaded (nn::WeightsError for a bad file).
std::shared_ptr<const nn::Network> load_network(const engine::Settings& settings);
// What an option accepts, for help texts: "1..65536", "true|false", "auto|fp32|bf16|int8", "TEXT".
std::string accepted_values(const engine::OptionSpec& spec);
// A subcommand's --help: its description and usage line, then one row per option with the
// descriptions in one column, wrapped at 100 columns, each default stated once.
std::string options_help(const cxxopts::Options& options);
// Prints the options' help and returns true when --help was given.
bool help_requested(const cxxopts::ParseResult& parsed, cxxopts::Options& options,
                    const Streams& io);

int perft_command(const Args& args, const Streams& io);
int tokenize_command(const Args& args, const Streams& io);
int features_command(const Args& args, const Streams& io);
int actions_command(const Args& args, const Streams& io);
int eval_command(const Args& args, const Streams& io);
int nnbench_command(const Args& args, const Streams& io);
int datagen_command(const Args& args, const Streams& io);
int puzzles_command(const Args& args, const Streams& io);
int bench_command(const Args& args, const Streams& io);
int epd_command(const Args& args, const Streams& io);
int tb_command(const Args& args, const Streams& io);

}  // namespace avocet::cli
