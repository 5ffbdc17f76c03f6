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

#include <fstream>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace avocet::cli {

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

using Args = std::vector<std::string>;

// Parses `args` (the words after the subcommand) with `options`.
cxxopts::ParseResult parse_args(cxxopts::Options& options, const Args& args);
// Opens a text file to read; throws "cannot read <what> '<path>': <reason>" when it is
// missing, a directory, or unreadable.
std::ifstream open_text_file(const std::string& path, std::string_view what);
// Adds --weights FILE (default: the embedded net).
void add_weights_option(cxxopts::Options& options);
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
