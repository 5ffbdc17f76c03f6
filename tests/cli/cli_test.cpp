#include "avocet/cli/cli.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "avocet/build_info.h"
#include "avocet/engine/options.h"

namespace avocet::cli {
namespace {

struct Result {
  int status;
  std::string out, err;
};

Result run_cli(std::vector<const char*> args, const std::string& input = "") {
  args.insert(args.begin(), "avocet");
  std::istringstream in(input);
  std::ostringstream out, err;
  const int status = run(int(args.size()), args.data(), in, out, err);
  return {status, out.str(), err.str()};
}

TEST(Cli, PerftPrintsDivideAndTotal) {
  const Result r = run_cli({"perft", "2"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("a2a3: 20\n"), std::string::npos);
  EXPECT_NE(r.out.find("Nodes searched: 400\n"), std::string::npos);
  EXPECT_NE(r.out.find("Mnodes/s"), std::string::npos);
}

TEST(Cli, PerftFromStartpos) {
  const Result r = run_cli({"perft", "3", "--fen", "startpos"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Nodes searched: 8902\n"), std::string::npos) << r.out;
}

TEST(Cli, PerftFromFen) {
  const Result r = run_cli(
      {"perft", "3", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"});
  EXPECT_NE(r.out.find("Nodes searched: 97862\n"), std::string::npos);
}

// A Chess960 FEN: castling is written as the king taking its rook (b1a1), since the king's
// step b1c1 is a move of its own.
TEST(Cli, PerftFromChess960Fen) {
  const Result r = run_cli({"perft", "2", "--fen", "4k3/8/8/8/8/8/8/RK6 w A - 0 1"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("b1a1: 3\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("b1c1: 5\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Nodes searched: 53\n"), std::string::npos) << r.out;
}

TEST(Cli, BadArgumentsGiveOneLineAndStatus2) {
  for (std::vector<const char*> args : {std::vector<const char*>{"perft"},
                                        {"perft", "x"},
                                        {"perft", "0"},
                                        {"perft", "2", "--fen", "8/8/8 w - -"},
                                        {"perft", "2", "--bogus"},
                                        {"frobnicate"}}) {
    const Result r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("avocet: ", 0), 0u) << r.err;
  }
}

// lichess-bot passes engine options as --Name=value: they reach the UCI loop as setoption
// lines, and are never read as UCI commands.
TEST(Cli, DashDashOptionsBecomeSetoption) {
  const Result r = run_cli({"--Hash=16", "--MultiPV=2"}, "isready\nquit\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "readyok\n");
  EXPECT_EQ(r.err, "");
}

// A bad one stops the program before the loop starts, with one line and status 2, as any
// bad argument does (it used to be reported and then ignored, with status 0).
TEST(Cli, BadDashDashOptionsExitWithStatus2) {
  const std::string missing = ::testing::TempDir() + "avocet_no_such_net.safetensors";
  const std::string eval_file = "--EvalFile=" + missing;
  struct Case {
    std::vector<const char*> args;
    std::string error;
  };
  const Case cases[] = {
      {{"--Hash=0"}, "avocet: --Hash=0: option Hash: 0 is outside [1, 65536]\n"},
      {{"--Hash=16", "--Threads=abc"},
       "avocet: --Threads=abc: option Threads: expected an integer, got 'abc'\n"},
      {{"--Frobnication=7"},
       "avocet: --Frobnication=7: unknown option 'Frobnication' (avocet --help lists them)\n"},
      {{"--Ponder=maybe"},
       "avocet: --Ponder=maybe: option Ponder: expected true or false, got "
       "'maybe'\n"},
      // N11: the subcommands' flag form says what to write instead.
      {{"--Hash", "16"},
       "avocet: --Hash 16: write --Hash=16 (before the loop, options take '=')\n"},
      {{"--Hash"}, "avocet: --Hash: needs a value, --Hash=VALUE\n"},
  };
  for (const Case& c : cases) {
    const Result r = run_cli(c.args, "isready\nquit\n");
    EXPECT_EQ(r.status, 2) << c.args.back();
    EXPECT_EQ(r.out, "") << c.args.back();  // the loop never ran: no readyok
    EXPECT_EQ(r.err, c.error);
  }
  // A valid value whose effect fails (a net that cannot be read): the loop's own error line,
  // and status 2 before any command is read.
  const Result r = run_cli({eval_file.c_str()}, "isready\nquit\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out.find("readyok"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
}

// A SyzygyPath that cannot take effect stops the program like a bad EvalFile: one line on
// stderr, status 2, nothing on stdout (ccff59f printed an info string before `uci` and went
// on with status 0). An empty one means no tables, as for setoption (ccff59f exited 2
// silently, so lichess-bot's `SyzygyPath: ""` killed the engine).
TEST(Cli, SyzygyPathOnTheCommandLine) {
  for (const char* arg : {"--SyzygyPath=/nonexistent", "--SyzygyPath=/"}) {
    const Result r = run_cli({arg}, "isready\nquit\n");
    EXPECT_EQ(r.status, 2) << arg;
    EXPECT_EQ(r.out, "") << arg;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind(std::string("avocet: ") + arg + ": ", 0), 0u) << r.err;
  }
  for (const char* arg : {"--SyzygyPath=", "--SyzygyPath", "--SyzygyPath=<empty>"}) {
    const Result r = run_cli({arg}, "isready\nquit\n");
    EXPECT_EQ(r.status, 0) << arg << ": " << r.err;
    EXPECT_EQ(r.out, "readyok\n") << arg;
    EXPECT_EQ(r.err, "") << arg;
  }
  const std::string tables = "--SyzygyPath=" + std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  const Result r = run_cli({tables.c_str()}, "isready\nquit\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "readyok\n");
}

// Every option's declared default (`uci` and `avocet --help` show it) is accepted as its
// command-line value, as `setoption` accepts it: 59eb6be refused `--SyzygyPath=<empty>` ("no
// Syzygy tables in '<empty>'") with status 2. So is an empty EvalFile, the embedded net, as
// for setoption.
TEST(Cli, DeclaredDefaultsWorkOnTheCommandLine) {
  std::vector<std::string> args;
  for (const engine::OptionSpec& spec : engine::option_specs()) {
    args.push_back(spec.type == engine::OptionType::Button
                       ? fmt::format("--{}", spec.name)
                       : fmt::format("--{}={}", spec.name, engine::default_value(spec)));
    SCOPED_TRACE(args.back());
    const Result r = run_cli({args.back().c_str()}, "isready\nquit\n");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "readyok\n");
    EXPECT_EQ(r.err, "");
  }
  std::vector<const char*> all;
  for (const std::string& arg : args) all.push_back(arg.c_str());
  all.push_back("--EvalFile=");
  const Result r = run_cli(all, "isready\nquit\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "readyok\n");
}

TEST(Cli, NoArgumentsRunsUci) {
  const Result r = run_cli({}, "uci\nquit\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("uciok"), std::string::npos);
}

TEST(Cli, VersionNamesTheCommitAndTheBuild) {
  const std::string expected = version_line() + "\n" + build_line() + "\n";
  for (const char* arg : {"--version", "version"}) {
    const Result r = run_cli({arg});
    EXPECT_EQ(r.status, 0) << arg;
    EXPECT_EQ(r.out, expected) << arg;
  }
  EXPECT_EQ(version_line().rfind(fmt::format("Avocet {} (commit ", version()), 0), 0u);
  EXPECT_NE(version(), "unknown");
  EXPECT_NE(build_line().find(" attacks"), std::string::npos) << build_line();
}

// `avocet help` is `avocet --help`: every subcommand and every UCI option, in one column.
TEST(Cli, HelpListsSubcommandsAndOptionsInOneColumn) {
  const Result help = run_cli({"help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, run_cli({"--help"}).out);
  EXPECT_EQ(help.out, run_cli({"-h"}).out);
  std::istringstream lines(help.out);
  std::set<size_t> columns;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(line.size(), 100u) << line;
    if (!line.starts_with("  ") || line.starts_with("   ")) continue;  // rows, not wrapped text
    const size_t gap = line.find("  ", 2);
    ASSERT_NE(gap, std::string::npos) << line;
    columns.insert(line.find_first_not_of(' ', gap));
  }
  EXPECT_EQ(columns.size(), 1u) << help.out;
  for (const engine::OptionSpec& spec : engine::option_specs())
    EXPECT_NE(help.out.find(fmt::format("  --{}", spec.name)), std::string::npos) << spec.name;
}

// The subcommands the top-level help lists: the word after `  avocet ` on each row.
std::vector<std::string> listed_subcommands() {
  std::vector<std::string> names;
  std::istringstream lines(run_cli({"help"}).out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("  avocet ") || line.starts_with("  avocet [")) continue;
    std::string name = line.substr(9, line.find_first_of(" ,", 9) - 9);
    if (name != "help" && name != "version") names.push_back(name);
  }
  return names;
}

// Every subcommand's --help: descriptions in one column, wrapped at 100 columns, a default
// said once (not cxxopts' own after one in words), no type maximum for "no limit".
TEST(Cli, SubcommandHelpStatesEachDefaultOnce) {
  const std::vector<std::string> names = listed_subcommands();
  ASSERT_GE(names.size(), 11u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const Result r = run_cli({name.c_str(), "--help"});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.find("18446744073709551615"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("9223372036854775807"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("(default: \"\")"), std::string::npos) << r.out;
    std::istringstream lines(r.out);
    std::set<size_t> columns;
    std::string option;  // an option's row and its wrapped lines
    const auto check_option = [&] {
      const size_t first = option.find("(default");
      if (first != std::string::npos) {
        EXPECT_EQ(option.find("(default", first + 1), std::string::npos) << option;
      }
    };
    for (std::string line; std::getline(lines, line);) {
      EXPECT_LE(line.size(), 100u) << line;
      if (line.starts_with("  -") || line.starts_with("      --")) {
        check_option();
        option = line;
        const size_t gap = line.find("  ", 6);
        ASSERT_NE(gap, std::string::npos) << line;
        columns.insert(line.find_first_not_of(' ', gap));
      } else if (!option.empty()) {
        option += line;
      }
    }
    check_option();
    EXPECT_EQ(columns.size(), 1u) << r.out;
  }
}

// src/cli/README.md's command table documents what the help offers: a row for every
// subcommand, and in its rows every option of the subcommand's --help (by its long or its
// short name). The help itself is not copied there: the binary's --help is its one source.
TEST(Cli, ReadmeCommandTableMatchesTheHelp) {
  const std::string path = std::string(AVOCET_SOURCE_DIR) + "/src/cli/README.md";
  std::ifstream readme(path);
  ASSERT_TRUE(readme) << path;
  std::vector<std::string> rows;
  for (std::string line; std::getline(readme, line);)
    if (line.starts_with("| `avocet ")) rows.push_back(line);
  for (const std::string& name : listed_subcommands()) {
    SCOPED_TRACE(name);
    std::string documented;
    for (const std::string& row : rows) {
      const std::string command = row.substr(0, row.find(" | "));  // the first cell
      if (command.find("`avocet " + name + " ") != std::string::npos ||
          command.find("`avocet " + name + "`") != std::string::npos)
        documented += row;
    }
    ASSERT_FALSE(documented.empty()) << "no row for avocet " << name << " in " << path;
    std::istringstream lines(run_cli({name.c_str(), "--help"}).out);
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("  -") && !line.starts_with("      --")) continue;
      const size_t long_at = line.find("--");
      const std::string long_name = line.substr(long_at, line.find(' ', long_at) - long_at);
      const std::string short_name = line.starts_with("  -") ? line.substr(2, 2) : "";
      if (long_name == "--help") continue;
      const auto names_it = [&](const std::string& option) {
        for (size_t at = documented.find(option); at != std::string::npos;
             at = documented.find(option, at + 1)) {
          const size_t end = at + option.size();
          if (end == documented.size() ||
              !(std::isalnum(documented[end]) || documented[end] == '-'))
            return true;
        }
        return false;
      };
      EXPECT_TRUE(names_it(long_name) || (!short_name.empty() && names_it(short_name)))
          << long_name << " of avocet " << name << " is not in its row in " << path;
    }
  }
}

TEST(Cli, TokenizePrints77Tokens) {
  const Result r =
      run_cli({"tokenize", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), ' '), 76);
  EXPECT_EQ(r.out.rfind("29 20 19 11 22 21 11 19 20 18", 0), 0u) << r.out;
  EXPECT_TRUE(r.out.ends_with(" 30 30 0 30 30 1 30 30\n")) << r.out;
}

TEST(Cli, ActionsListsTheTable) {
  const Result r = run_cli({"actions"});
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1968);
  EXPECT_EQ(r.out.rfind("0 a1b1\n", 0), 0u);
  EXPECT_NE(r.out.find("\n1967 h7g8n\n"), std::string::npos);
}

TEST(Cli, EvalListsEveryMoveBestFirst) {
  const std::string weights = std::string(AVOCET_TEST_DATA_DIR) + "/tiny_house.safetensors";
  const Result r =
      run_cli({"eval", "--EvalFile", weights.c_str(),
               "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("net: tiny_house (house d=32 L=2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("e1g1   O-O"), std::string::npos) << r.out;
  // 48 moves plus the net, fen and column header lines.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 48 + 3);
  std::istringstream lines(r.out);
  std::string line;
  double previous = 2.0;
  for (int i = 0; std::getline(lines, line); ++i) {
    if (i < 3) continue;
    std::istringstream words(line);
    std::string move, san;
    double win = 0;
    words >> move >> san >> win;
    EXPECT_LE(win, previous);
    previous = win;
  }
}

// The row of `move` in eval's output, or "".
std::string eval_row(const std::string& out, const std::string& move) {
  const size_t at = out.find("\n" + move + " ");
  return at == std::string::npos ? "" : out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

// Moves the rules decide are valued as the engine plays them and sorted in: a mate in one
// first at 1, a stalemate at 0.5; the net's own value stays in the last column.
TEST(Cli, EvalMarksMovesTheRulesDecide) {
  const std::string weights = std::string(AVOCET_TEST_DATA_DIR) + "/tiny_house.safetensors";
  const Result mate =
      run_cli({"eval", "--EvalFile", weights.c_str(),
               "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"});
  EXPECT_EQ(mate.status, 0) << mate.err;
  EXPECT_EQ(mate.out.find("\nh5f7"), mate.out.find("net\n") + 3) << mate.out;
  EXPECT_TRUE(eval_row(mate.out, "h5f7").starts_with("h5f7   Qxf7#    1.000000  mate   "))
      << mate.out;

  const Result stalemate =
      run_cli({"eval", "--EvalFile", weights.c_str(), "k7/8/1Q6/8/8/8/8/K7 w - - 0 1"});
  EXPECT_TRUE(eval_row(stalemate.out, "b6c7").starts_with("b6c7   Qc7      0.500000  stalemate   "))
      << stalemate.out;
}

// With --SyzygyPath, the tables' result decides every move of a position they cover, ranked by
// DTZ among equal results; a move that gives the queen away is a draw.
TEST(Cli, EvalUsesTheTablesWhereTheyApply) {
  const std::string weights = std::string(AVOCET_TEST_DATA_DIR) + "/tiny_house.safetensors";
  const std::string tables = std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  const Result r = run_cli({"eval", "--EvalFile", weights.c_str(), "--SyzygyPath", tables.c_str(),
                            "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("found 10 WDL and 8 DTZ tables in "), std::string::npos) << r.err;
  const std::string rows = r.out.substr(r.out.find("net\n") + 4);
  EXPECT_NE(rows.find(" 1.000000  tablebase win, DTZ "), std::string::npos) << r.out;
  EXPECT_EQ(rows.find(" 1.000000  tablebase win, DTZ "), rows.find(" 1.000000 ")) << r.out;
  EXPECT_TRUE(eval_row(r.out, "b1e4").starts_with("b1e4   Qe4+     0.500000  tablebase draw   "))
      << r.out;
  EXPECT_EQ(rows.find(" -  "), std::string::npos) << "a move the net decided: " << r.out;
}

// N11: every row of eval's table is as long as its header, so each column sits under its name.
// 2b8a4ef gave the rule column 22 characters, and a loss the tables rank ("tablebase loss, DTZ
// -18", 23) pushed the net's value a column out of line.
TEST(Cli, EvalColumnsLineUpWithTheirHeaders) {
  const std::string weights = std::string(AVOCET_TEST_DATA_DIR) + "/tiny_house.safetensors";
  const std::string tables = std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  for (const char* fen : {"8/8/8/4k3/8/8/8/KQ6 b - - 0 1", "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
                          "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"}) {
    const Result r =
        run_cli({"eval", "--EvalFile", weights.c_str(), "--SyzygyPath", tables.c_str(), fen});
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out.substr(r.out.find("\nmove ") + 1));
    std::string header;
    std::getline(lines, header);
    int rows = 0;
    for (std::string row; std::getline(lines, row); ++rows)
      EXPECT_EQ(row.size(), header.size()) << fen << "\n" << header << "\n" << row;
    EXPECT_GT(rows, 0) << r.out;
  }
}

TEST(Cli, EvalErrors) {
  EXPECT_EQ(
      run_cli({"eval", "--EvalFile", "/nonexistent.safetensors", "8/8/8/4k3/8/8/8/4K3 w - -"}).err,
      "avocet: --EvalFile /nonexistent.safetensors: /nonexistent.safetensors: cannot open: No "
      "such file or directory\n");
  EXPECT_EQ(run_cli({"eval", "--EvalFile", "x", "8/8/8 w - -"}).err,
            "avocet: piece placement has 3 ranks; expected 8 separated by '/'\n");
}

// The puzzle bench's results file: opened before the run, written puzzle by puzzle (JSON
// Lines), and resumable.
std::string puzzle_sample() { return std::string(AVOCET_TEST_DATA_DIR) + "/puzzles_sample.csv"; }

std::vector<nlohmann::json> read_json_lines(const std::string& path) {
  std::ifstream file(path);
  std::vector<nlohmann::json> rows;
  for (std::string line; std::getline(file, line);) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(Cli, PuzzlesJsonBadPathFailsBeforeTheRun) {
  const std::string sample = puzzle_sample();
  for (const std::string& path :
       {std::string("/nonexistent/dir/results.jsonl"), std::string(::testing::TempDir())}) {
    for (const bool resume : {false, true}) {
      std::vector<const char*> args = {"puzzles",  "--file", sample.c_str(), "--evaluator",
                                       "material", "--json", path.c_str()};
      if (resume) args.push_back("--resume");
      const Result r = run_cli(args);
      EXPECT_EQ(r.status, 2) << path;
      EXPECT_EQ(r.out, "") << path;  // nothing ran: no table
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_EQ(r.err.rfind("avocet: cannot write '" + path + "': ", 0), 0u) << r.err;
    }
  }
  const Result r = run_cli({"puzzles", "--file", sample.c_str(), "--resume"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "avocet: --resume needs --json FILE\n");
}

TEST(Cli, PuzzlesJsonWritesOneLinePerPuzzle) {
  const std::string sample = puzzle_sample();
  const std::string path = ::testing::TempDir() + "avocet_puzzles_lines.jsonl";
  const Result r = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                            "--json", path.c_str(), "--label", "material"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<nlohmann::json> lines = read_json_lines(path);
  ASSERT_EQ(lines.size(), 6u);  // a line per puzzle, then the summary
  std::set<std::string> ids;
  int solved = 0;
  const nlohmann::json settings = {{"mode", "argmax"},     {"evaluator", "material"},
                                   {"nodes", nullptr},     {"movetime_ms", nullptr},
                                   {"net", nullptr},       {"net_hash", nullptr},
                                   {"precision", nullptr}, {"weights", nullptr},
                                   {"hash_mb", nullptr},   {"syzygy", nullptr}};
  for (size_t i = 0; i < 5; ++i) {
    const nlohmann::json& row = lines[i];
    ids.insert(row.at("id").get<std::string>());
    solved += row.at("solved").get<bool>();
    EXPECT_GT(row.at("rating").get<int>(), 0);
    EXPECT_EQ(row.at("label"), "material");
    EXPECT_EQ(row.at("settings"), settings);
    EXPECT_FALSE(row.at("fen").get<std::string>().empty());
    EXPECT_FALSE(row.at("themes").empty());
    EXPECT_GE(row.at("seconds").get<double>(), 0.0);
    // argmax: one evaluation per solver move played (all of them, or up to the miss)
    const int played = row.at("correct_moves").get<int>() + (row.at("solved") ? 0 : 1);
    EXPECT_EQ(row.at("nodes").get<int>(), played) << row;
    if (row.at("solved")) {
      EXPECT_TRUE(row.at("expected").is_null() && row.at("played").is_null()) << row;
    } else {
      EXPECT_NE(row.at("expected"), row.at("played")) << row;
      EXPECT_EQ(row.at("expected").get<std::string>().size(), 4u) << row;
      EXPECT_FALSE(row.at("mistake_fen").get<std::string>().empty()) << row;
    }
  }
  EXPECT_EQ(ids, (std::set<std::string>{"00008", "0000D", "0009B", "000aY", "000hf"}));
  // 0000D (advantage endgame short): the material baseline plays d3d6, the line's move.
  EXPECT_EQ(lines[1].at("themes"), nlohmann::json({"advantage", "endgame", "short"}));
  EXPECT_NE(r.out.find(fmt::format("{:<10} {:>7} {:>7}", "overall", solved, 5)), std::string::npos)
      << r.out;
  const nlohmann::json& summary = lines[5].at("summary");
  EXPECT_EQ(summary.at("total"), 5);
  EXPECT_EQ(summary.at("solved"), solved);
  EXPECT_EQ(summary.at("by_rating").size(), 5u);
  EXPECT_EQ(summary.at("by_rating")[0].at("bucket"), "<1000");
  EXPECT_EQ(summary.at("by_rating")[0].at("total"), 0);
  EXPECT_EQ(summary.at("by_theme").at("middlegame").at("total"), 4);
  EXPECT_EQ(summary.at("by_theme").at("mateIn2").at("total"), 1);
  EXPECT_EQ(lines[5].at("settings"), settings);
}

// Empty buckets show a dash, not 0.0%; --by-theme adds a row per theme, most frequent first.
TEST(Cli, PuzzlesTablesByRatingAndTheme) {
  const std::string sample = puzzle_sample();
  const Result r =
      run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material", "--by-theme"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(fmt::format("{:<10} {:>7} {:>7} {:>9}\n", "<1000", 0, 0, "–")),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(fmt::format("{:<10} {:>7} {:>7} {:>9}\n", ">=2500", 0, 0, "–")),
            std::string::npos)
      << r.out;
  const size_t table = r.out.find("\ntheme ");
  ASSERT_NE(table, std::string::npos) << r.out;
  std::istringstream rows(r.out.substr(table + 1));
  std::string header, first;
  std::getline(rows, header);
  std::getline(rows, first);
  EXPECT_NE(header.find("accuracy      <1000  1000-1499"), std::string::npos) << header;
  // middlegame: 4 of the 5 puzzles, rated 1088, 1375, 1595, 1852: none below 1000 or from
  // 2000, and fewer than 10 in the others (in parentheses).
  std::istringstream words_in(first);
  const std::vector<std::string> words{std::istream_iterator<std::string>(words_in), {}};
  ASSERT_EQ(words.size(), 9u) << first;
  EXPECT_EQ(words[0], "middlegame");
  EXPECT_EQ(words[2], "4");
  EXPECT_EQ(words[4], "–");
  EXPECT_EQ(words[5].front(), '(') << first;
  EXPECT_EQ(words[6].front(), '(') << first;
  EXPECT_EQ(words[7], "–");
  EXPECT_EQ(words[8], "–");
  EXPECT_NE(r.out.find("\nmateIn2 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(..): fewer than 10 puzzles"), std::string::npos) << r.out;
}

TEST(Cli, PuzzlesSelection) {
  const std::string sample = puzzle_sample();
  const auto ids_run = [&](std::vector<const char*> extra) {
    std::vector<const char*> args = {"puzzles", "--file", sample.c_str(), "--evaluator",
                                     "material"};
    const std::string path = ::testing::TempDir() + "avocet_puzzles_selection.jsonl";
    args.insert(args.end(), {"--json", path.c_str()});
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = run_cli(args);
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> ids;
    for (const nlohmann::json& row : read_json_lines(path))
      if (row.contains("id")) ids.push_back(row.at("id").get<std::string>());
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  // Ratings: 00008 1852, 0000D 1580, 0009B 1088, 000aY 1375, 000hf 1595.
  EXPECT_EQ(ids_run({"--min-rating", "1500"}),
            (std::vector<std::string>{"00008", "0000D", "000hf"}));
  EXPECT_EQ(ids_run({"--max-rating", "1500"}), (std::vector<std::string>{"0009B", "000aY"}));
  EXPECT_EQ(ids_run({"--offset", "1", "--limit", "2"}),
            (std::vector<std::string>{"0000D", "0009B"}));
  EXPECT_EQ(ids_run({"--min-rating", "1500", "--offset", "2"}),
            (std::vector<std::string>{"000hf"}));
  const std::vector<std::string> sample_ids = ids_run({"--sample", "3", "--seed", "7"});
  EXPECT_EQ(sample_ids.size(), 3u);
  EXPECT_EQ(ids_run({"--sample", "3", "--seed", "7"}), sample_ids);
}

TEST(Cli, PuzzlesResumeSkipsWhatTheFileHoldsAndCountsIt) {
  const std::string sample = puzzle_sample();
  const std::string path = ::testing::TempDir() + "avocet_puzzles_resume.jsonl";
  std::filesystem::remove(path);
  const Result full = run_cli(
      {"puzzles", "--file", sample.c_str(), "--evaluator", "material", "--json", path.c_str()});
  ASSERT_EQ(full.status, 0) << full.err;
  const std::string overall = full.out.substr(full.out.find("overall"));
  const std::string table = overall.substr(0, overall.find('\n'));

  // The first run stopped after two puzzles, in the middle of writing a third. (Its summary
  // line, written as the run ended, is left in as a run that finished leaves it.)
  const Result first = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                                "--json", path.c_str(), "--limit", "2"});
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string first_text = read_text(path);
  ASSERT_EQ(std::count(first_text.begin(), first_text.end(), '\n'), 3) << first_text;
  const std::string two =
      first_text.substr(0, first_text.find('\n', first_text.find('\n') + 1) + 1);
  std::ofstream(path, std::ios::app) << R"({"id":"0009B","rat)";

  const Result resumed = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                                  "--json", path.c_str(), "--resume"});
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find(path + ": 2 of 5 puzzles already solved or failed, 3 to go"),
            std::string::npos)
      << resumed.err;
  // The same table as the full run, and the file holds each puzzle once, the first two as
  // they were, and one summary line: the last.
  EXPECT_NE(resumed.out.find(table), std::string::npos) << resumed.out << "\nvs\n" << table;
  const std::string text = read_text(path);
  EXPECT_EQ(text.rfind(two, 0), 0u);
  const std::vector<nlohmann::json> lines = read_json_lines(path);
  ASSERT_EQ(lines.size(), 6u) << text;
  std::set<std::string> ids;
  for (size_t i = 0; i < 5; ++i) ids.insert(lines[i].at("id").get<std::string>());
  EXPECT_EQ(ids.size(), 5u);
  EXPECT_EQ(lines[5].at("summary").at("total"), 5);

  // Nothing left to do: the table comes from the file alone, which keeps its results.
  const Result again = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                                "--json", path.c_str(), "--resume"});
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find(table), std::string::npos) << again.out;
  const std::string rows_only = text.substr(0, text.rfind('\n', text.size() - 2) + 1);
  const std::string again_text = read_text(path);
  EXPECT_EQ(again_text.rfind(rows_only, 0), 0u);
  EXPECT_EQ(std::count(again_text.begin(), again_text.end(), '\n'), 6) << again_text;

  // Results of other settings are not mixed in.
  const Result other =
      run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material", "--mode", "search",
               "--nodes", "50", "--json", path.c_str(), "--resume"});
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(other.err, "avocet: --resume: " + path +
                           ":1: a result of other settings (mode \"argmax\", not \"search\"; nodes "
                           "null, not 50; hash_mb null, not 64); use another --json file\n");
  EXPECT_EQ(other.out, "");
}

// Nonsense numbers and stray words are refused with one line naming the option, status 2,
// and nothing on stdout (they used to run, on garbage or on the defaults, with status 0).
TEST(Cli, NonsenseNumbersAndExtraArgumentsAreRefused) {
  const std::string sample = puzzle_sample();
  const std::string epd = std::string(AVOCET_TEST_DATA_DIR) + "/sts_sample.epd";
  const char* csv = sample.c_str();
  const std::string shards = ::testing::TempDir() + "avocet_refused_shards";
  struct Case {
    std::vector<const char*> args;
    std::string error;
  };
  const Case cases[] = {
      {{"puzzles", "--file", csv, "--mode", "search", "--nodes", "0"},
       "--nodes must be >= 1, got 0"},
      {{"puzzles", "--file", csv, "--mode", "search", "--movetime", "-5"},
       "--movetime must be >= 1, got -5"},
      {{"puzzles", "--file", csv, "--mode", "search", "--nodes", "5", "--movetime", "5"},
       "--nodes and --movetime exclude each other; give one"},
      {{"puzzles", "--file", csv, "--nodes", "400"},
       "--nodes and --movetime apply to --mode search only"},
      {{"puzzles", "--file", csv, "--threads", "0"}, "--threads must be 1 to 256, got 0"},
      {{"puzzles", "--file", csv, "--limit", "0"}, "--limit must be >= 1, got 0"},
      {{"puzzles", "--file", csv, "--sample", "-2"}, "--sample must be >= 1, got -2"},
      {{"puzzles", "--file", csv, "--sample", "2", "--limit", "2"},
       "--limit and --sample exclude each other; give one"},
      {{"puzzles", "--file", csv, "--seed", "3"}, "--seed applies to --sample only"},
      {{"puzzles", "--file", csv, "--offset", "-1"}, "--offset must be >= 0, got -1"},
      {{"puzzles", "--file", csv, "--offset", "5"}, "--offset 5 skips all 5 puzzles"},
      {{"puzzles", "--file", csv, "--min-rating", "2000", "--max-rating", "1000"},
       "--min-rating 2000 is above --max-rating 1000"},
      {{"puzzles", "--file", csv, "--max-rating", "9000"},
       "--max-rating must be 0 to 5000, got 9000"},
      {{"puzzles", "--file", csv, "--min-rating", "2000"},
       "no puzzles in '" + sample + "' are rated 2000 to 5000 (of 5)"},
      {{"puzzles", "--file", csv, "--evaluator", "material", "--EvalFile", "x.safetensors"},
       "--EvalFile applies to --evaluator net only"},
      {{"puzzles", "--file", csv, "extra"},
       "puzzles: unexpected argument 'extra' (see 'avocet puzzles --help')"},
      {{"bench", "--iterations", "0"}, "--iterations must be 1 to 64, got 0"},
      {{"bench", "16", "1", "13"}, "bench: unexpected argument '16' (see 'avocet bench --help')"},
      {{"bench", "--set", "Hash=16"}, "--set Hash=16: 'Hash' is not a search parameter"},
      {{"bench", "--set", "ForcingReach=0"},
       "--set ForcingReach=0: option ForcingReach: 0 is outside [1, 1048576]"},
      {{"nnbench", "--threads", "0"}, "--threads must be 1 to 256, got 0"},
      {{"nnbench", "--threads", "1,-1"}, "--threads must be 1 to 256, got -1"},
      {{"nnbench", "--split", "3"}, "--split must be 1 to 2, got 3"},
      {{"nnbench", "--seconds", "0"}, "--seconds must be > 0, got 0"},
      {{"nnbench", "--nets", "house-d128-L4,house-d64"},
       "--nets: no standard net 'house-d64' (they are: house-d128-L4, house-d128-L4-features, "
       "house-d128-L4-features-bias, house-d128-L4-features-relative, house-d128-L8, "
       "house-d256-L4, house-d256-L8, searchless-d256-L8)"},
      {{"nnbench", "--nets", "house-d128-L4", "--EvalFile", "x.safetensors"},
       "--nets chooses among the standard random nets, not --EvalFile's"},
      {{"epd", "--file", epd.c_str(), "--movetime", "0"}, "--movetime must be >= 1, got 0"},
      {{"epd", "--file", epd.c_str(), "--threads", "0"}, "--threads must be 1 to 256, got 0"},
      {{"epd", "--file", epd.c_str(), "--limit", "-3"}, "--limit must be >= 1, got -3"},
      {{"perft", "0"}, "perft: DEPTH must be an integer from 1 to 20, got '0'"},
      {{"perft", "3", "4"}, "perft: unexpected argument '4' (see 'avocet perft --help')"},
      {{"perft", "3", "--max-nodes", "100"}, "perft: --max-nodes applies to --suite only"},
      {{"datagen", "-o", shards.c_str(), "--threads", "0"}, "--threads must be 1 to 256, got 0"},
      {{"datagen", "-o", shards.c_str(), "--positions", "0"}, "--positions must be >= 1, got 0"},
      {{"datagen", "-o", shards.c_str(), "--temperature", "-1"},
       "--temperature must be > 0, got -1"},
      {{"datagen", "--from-tsv", csv}, "datagen needs -o DIR, the output folder"},
      {{"datagen", "-o", shards.c_str(), "--shallow-depth", "3"},
       "--shallow-depth needs --multipv K: the moves searched deeper"},
      {{"datagen", "-o", shards.c_str(), "--multipv", "2", "--shallow-depth", "7"},
       "--shallow-depth 7 must be below --depth 5"},
      {{"datagen", "-o", shards.c_str(), "--multipv", "-1"}, "--multipv must be 0 to 255, got -1"},
      {{"datagen", "-o", shards.c_str(), "--seconds", "-1"}, "--seconds must be 0 or more"},
      {{"tb", "8/8/8/8/8/2k5/8/KR6 w - - 0 1"},
       "tb needs --SyzygyPath DIRS, the Syzygy table directories"},
      {{"actions", "x"}, "actions: unexpected argument 'x' (see 'avocet actions --help')"},
  };
  for (const Case& c : cases) {
    const Result r = run_cli(c.args);
    EXPECT_EQ(r.status, 2) << c.error;
    EXPECT_EQ(r.out, "") << c.error;
    EXPECT_EQ(r.err, "avocet: " + c.error + "\n");
  }
}

// `avocet datagen` alone used to start a Stockfish job writing into ./shards; the output
// folder is now required, and without it nothing runs.
TEST(Cli, DatagenWithoutAnOutputFolderRunsNothing) {
  const bool had_shards = std::filesystem::exists("shards");
  const Result r = run_cli({"datagen"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "avocet: datagen needs -o DIR, the output folder\n");
  if (!had_shards) {
    EXPECT_FALSE(std::filesystem::exists("shards"));
  }
}

// A folder's labels are of one recipe: recipe.json records it with the CPU seconds Stockfish
// spent on each file, a run of another recipe is refused with what differs, and a budget
// (--seconds) already spent starts nothing.
// N10: a datagen that fails before writing anything leaves no empty output folder behind.
TEST(Cli, AFailedDatagenLeavesNoEmptyFolder) {
  const std::string dir = ::testing::TempDir() + "avocet_failed_datagen";
  std::filesystem::remove_all(dir);
  const Result r = run_cli({"datagen", "-o", dir.c_str(), "--stockfish", "/nonexistent/stockfish"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/nonexistent/stockfish"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir));
  const Result tsv = run_cli({"datagen", "--from-tsv", "/nonexistent.tsv", "-o", dir.c_str()});
  EXPECT_EQ(tsv.status, 2);
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(Cli, DatagenKeepsOneRecipePerFolderAndItsCost) {
  if (!std::filesystem::exists("/usr/games/stockfish")) GTEST_SKIP() << "no Stockfish";
  const std::string dir = ::testing::TempDir() + "avocet_recipe";
  std::filesystem::remove_all(dir);
  const Result first =
      run_cli({"datagen", "-o", dir.c_str(), "--depth", "3", "--positions", "4", "--seed", "7"});
  ASSERT_EQ(first.status, 0) << first.err;
  std::ifstream in(dir + "/recipe.json");
  const std::string record((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(record.find("\"depth\": 3"), std::string::npos) << record;
  EXPECT_NE(record.find("\"engine\": \"Stockfish"), std::string::npos) << record;
  EXPECT_NE(record.find("sf-seed7-worker0.games"), std::string::npos) << record;
  const Result other = run_cli({"datagen", "-o", dir.c_str(), "--depth", "4", "--positions", "4"});
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(other.err,
            "avocet: '" + dir +
                "' holds labels of another recipe (depth 3, not 4): use another folder\n");
  const Result spent = run_cli(
      {"datagen", "-o", dir.c_str(), "--depth", "3", "--seconds", "0.000001", "--seed", "7"});
  EXPECT_EQ(spent.status, 0) << spent.err;
  EXPECT_NE(spent.out.find("budget of 0 Stockfish CPU seconds is already spent"), std::string::npos)
      << spent.out;
  std::filesystem::remove_all(dir);
}

// A file that yields nothing is an error with one line, not an empty table and status 0.
TEST(Cli, FilesThatYieldNothingFail) {
  const std::string sample = puzzle_sample();
  const std::string empty = ::testing::TempDir() + "avocet_empty.txt";
  std::ofstream(empty) << "\n";
  const std::string perft_empty = ::testing::TempDir() + "avocet_empty_perft.epd";
  std::ofstream(perft_empty) << "";
  struct Case {
    std::vector<const char*> args;
    std::string error;
  };
  // An EPD file given to `puzzles` (it used to give "174 malformed rows skipped", an empty
  // table and status 0), and a puzzle CSV given to `epd`.
  const std::string perft = std::string(AVOCET_TEST_DATA_DIR) + "/perft.epd";
  const Case cases[] = {
      {{"puzzles", "--file", perft.c_str()},
       "no puzzles in '" + perft +
           "': none of its 174 rows is a Lichess puzzle row (PuzzleId,FEN,Moves,Rating,...); "
           "first: " +
           perft + ":1: expected at least 4 fields (PuzzleId,FEN,Moves,Rating), got 1"},
      {{"puzzles", "--file", empty.c_str()}, "no puzzles in '" + empty + "': it holds no rows"},
      {{"epd", "--file", sample.c_str()},
       "no EPD positions in '" + sample +
           "': none of its 5 lines is an EPD line with bm, am or points; first: " + sample +
           ":1: bad EPD position: invalid character '0' in rank 8 of the piece placement"},
      {{"epd", "--file", empty.c_str()}, "no EPD positions in '" + empty + "': it holds no lines"},
      {{"perft", "--suite", perft_empty.c_str()},
       "no perft counts in '" + perft_empty + "' (lines 'FEN; D1 n; D2 n; ...')"},
  };
  for (const Case& c : cases) {
    const Result r = run_cli(c.args);
    EXPECT_EQ(r.status, 2) << c.error;
    EXPECT_EQ(r.out, "") << c.error;
    EXPECT_EQ(r.err, "avocet: " + c.error + "\n");
  }
}

std::string tiny_net() { return std::string(AVOCET_TEST_DATA_DIR) + "/tiny_house.safetensors"; }

// A header, one line per position in file order (the same with 2 threads as with 1), what
// the suite expected beside each miss, the totals, and a table by STS category.
// --set NAME=VALUE: a search parameter in its UCI option's units, shown in the header and
// kept in the results' settings (so that --resume does not mix settings).
TEST(Cli, PuzzlesAndEpdTakeSearchParameters) {
  const std::string sample = puzzle_sample();
  const std::string path = ::testing::TempDir() + "avocet_puzzles_set.jsonl";
  const Result r = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                            "--mode", "search", "--nodes", "30", "--set", "PolicyTemperature=90",
                            "--set", "thresholdfactor=40", "--json", path.c_str()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.out.find(
          "search 30 nodes/move, PolicyTemperature=90, ThresholdFactor=40, 64 MB table, 1 thread"),
      std::string::npos)
      << r.out;
  const std::vector<nlohmann::json> lines = read_json_lines(path);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0].at("settings").at("parameters"),
            nlohmann::json({{"PolicyTemperature", "90"}, {"ThresholdFactor", "40"}}));
  // Other settings are not resumed into this file.
  const Result other =
      run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material", "--mode", "search",
               "--nodes", "30", "--set", "PolicyTemperature=60", "--set", "ThresholdFactor=40",
               "--json", path.c_str(), "--resume"});
  EXPECT_EQ(other.status, 2);
  EXPECT_NE(other.err.find("a result of other settings"), std::string::npos) << other.err;

  const std::string epd = std::string(AVOCET_TEST_DATA_DIR) + "/sts_sample.epd";
  const std::string net = tiny_net();
  const Result e = run_cli({"epd", "--file", epd.c_str(), "--nodes", "30", "--EvalFile",
                            net.c_str(), "--limit", "1", "--set", "ThresholdStart=500"});
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_NE(e.out.find(", 30 nodes/position, ThresholdStart=500, 64 MB table, 1 thread"),
            std::string::npos)
      << e.out;

  const std::pair<std::vector<const char*>, std::string> bad[] = {
      {{"--set", "Hash=16"}, "avocet: --set Hash=16: 'Hash' is not a search parameter\n"},
      {{"--set", "PolicyTemperature"}, "avocet: --set PolicyTemperature: expected NAME=VALUE\n"},
      {{"--set", "PolicyTemperature=0"},
       "avocet: --set PolicyTemperature=0: option PolicyTemperature: 0 is outside [1, 1000]\n"},
  };
  for (const auto& [words, error] : bad) {
    std::vector<const char*> args = {"puzzles",  "--file", sample.c_str(), "--evaluator",
                                     "material", "--mode", "search"};
    args.insert(args.end(), words.begin(), words.end());
    const Result b = run_cli(args);
    EXPECT_EQ(b.status, 2);
    EXPECT_EQ(b.err, error);
  }
  const Result argmax = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                                 "--set", "PolicyTemperature=90"});
  EXPECT_EQ(argmax.status, 2);
  EXPECT_EQ(argmax.err, "avocet: --set applies to --mode search only\n");
}

TEST(Cli, EpdReportsMissesAndCategories) {
  const std::string epd = std::string(AVOCET_TEST_DATA_DIR) + "/sts_sample.epd";
  const std::string net = tiny_net();
  const Result r =
      run_cli({"epd", "--file", epd.c_str(), "--nodes", "30", "--EvalFile", net.c_str()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_GE(lines.size(), 3u + 5 + 2 + 5) << r.out;
  EXPECT_EQ(lines[0], epd + ": 5 positions");
  EXPECT_NE(lines[1].find(", 30 nodes/position, 64 MB table, 1 thread"), std::string::npos)
      << lines[1];
  EXPECT_EQ(lines[2].rfind("   #  id ", 0), 0u) << lines[2];
  int points = 0, solved = 0;
  const char* expected[] = {"f5=10 Bf2=3 Be5+=2 Bg4=2", "dxe6=10 Qxf6=4", "O-O-O=10 Bc4=6 g4=5",
                            "Ng5=10 O-O=8 d3=7", "bm Qxf7# am Qh4"};
  for (int i = 0; i < 5; ++i) {
    const std::string& line = lines[size_t(3 + i)];
    EXPECT_EQ(line.rfind(fmt::format("{:>4}  ", i + 1), 0), 0u) << line;
    // The id column holds the id without its STS(...) tag, whole, in 28 characters.
    if (i == 2) {
      EXPECT_EQ(line.substr(6, 29), "Open Files and Diagonals.001 ") << line;
    }
    const size_t slash = line.find('/', 40);
    ASSERT_NE(slash, std::string::npos) << line;
    const int got = std::stoi(line.substr(line.rfind(' ', slash) + 1));
    const int best = i == 4 ? 1 : 10;
    EXPECT_EQ(std::stoi(line.substr(slash + 1)), best) << line;
    points += got;
    solved += got == best;
    EXPECT_TRUE(line.ends_with(got == best ? std::string("  ok") : "  " + std::string(expected[i])))
        << line;
  }
  EXPECT_EQ(lines[9], fmt::format("solved {}/5 ({:.1f}%), points {}/41 ({:.1f}%)", solved,
                                  20.0 * solved, points, 100.0 * points / 41))
      << r.out;
  EXPECT_EQ(lines[11].rfind("category ", 0), 0u) << r.out;
  EXPECT_EQ(lines[12].rfind("Undermine ", 0), 0u) << r.out;
  EXPECT_EQ(lines[13].rfind("Open Files and Diagonals ", 0), 0u) << r.out;
  EXPECT_EQ(lines[14].rfind("mate ", 0), 0u) << r.out;
  EXPECT_NE(lines[12].find("/20 "), std::string::npos) << lines[12];

  const Result two = run_cli(
      {"epd", "--file", epd.c_str(), "--nodes", "30", "--EvalFile", net.c_str(), "--threads", "2"});
  ASSERT_EQ(two.status, 0) << two.err;
  EXPECT_EQ(two.out.substr(two.out.find("\n   #")), r.out.substr(r.out.find("\n   #")));

  const Result limited = run_cli(
      {"epd", "--file", epd.c_str(), "--nodes", "30", "--EvalFile", net.c_str(), "--limit", "2"});
  ASSERT_EQ(limited.status, 0) << limited.err;
  EXPECT_EQ(limited.out.rfind(epd + ": 2 positions (the first 2)\n", 0), 0u) << limited.out;
  EXPECT_NE(limited.out.find("\nsolved "), std::string::npos);
  EXPECT_EQ(limited.out.find("category"), std::string::npos) << limited.out;  // one category
}

TEST(Cli, TbPrintsWdlDtzAndEveryMoveBestFirst) {
  const std::string dir = std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  const Result r = run_cli({"tb", "--SyzygyPath", dir.c_str(), "8/8/8/8/8/2k5/8/KR6 w - - 0 1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("fen: 8/8/8/8/8/2k5/8/KR6 w - - 0 1\nwdl: 2 (win)\ndtz: 27\n"
                        "move     wdl   dtz  result\n"
                        "b1d1       2    27  win\n",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("b1b3       0     0  draw\n"), std::string::npos);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4 + 14);
}

TEST(Cli, TbErrors) {
  const std::string dir = std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  for (std::vector<const char*> args :
       {std::vector<const char*>{"tb", "--SyzygyPath", dir.c_str(), "8/8/8 w - -"},
        {"tb", "--SyzygyPath", dir.c_str()},
        {"tb", "--SyzygyPath", "/nonexistent/syzygy", "8/8/8/8/8/2k5/8/KR6 w - - 0 1"},
        {"tb", "--SyzygyPath", dir.c_str(), "8/8/8/8/8/2k5/8/KRB5 w - - 0 1"},
        {"tb", "--SyzygyPath", dir.c_str(), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"}}) {
    const Result r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("avocet: ", 0), 0u) << r.err;
  }
}

// perft's DEPTH, whatever is wrong with it, is named as the usage line names it: 59eb6be said
// "Option '1' does not exist" for -1 (read as an option) and "--depth must be 1 to 20" for 0,
// an option the help does not list.
TEST(Cli, PerftDepthErrorsNameTheDepth) {
  for (const char* depth : {"-1", "0", "21", "x", "2.5", "-30"}) {
    SCOPED_TRACE(depth);
    for (const std::vector<const char*>& args : {std::vector<const char*>{"perft", depth},
                                                 {"perft", depth, "--fen", "startpos"},
                                                 {"perft", "--fen", "startpos", depth}}) {
      const Result r = run_cli(args);
      EXPECT_EQ(r.status, 2);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(
          r.err,
          fmt::format("avocet: perft: DEPTH must be an integer from 1 to 20, got '{}'\n", depth));
    }
  }
  EXPECT_EQ(run_cli({"perft"}).err, "avocet: perft needs a DEPTH\n");
}

// Every option of every subcommand's --help has a real placeholder for its value, not cxxopts'
// `arg` (`ARG` as the help prints it), and datagen lists --from-tsv, its conversion's option
// (59eb6be left it out and showed ARG for most of datagen's and for tb's --path, now
// --SyzygyPath).
TEST(Cli, EveryHelpOptionHasARealPlaceholder) {
  for (const std::string& name : listed_subcommands()) {
    SCOPED_TRACE(name);
    const Result r = run_cli({name.c_str(), "--help"});
    ASSERT_EQ(r.status, 0);
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("  -") && !line.starts_with("      --")) continue;
      const std::string left = line.substr(0, line.find("  ", 6));
      EXPECT_EQ(left.find(" ARG"), std::string::npos) << line;
      EXPECT_EQ(left.find(" arg"), std::string::npos) << line;
    }
  }
  const std::string datagen = run_cli({"datagen", "--help"}).out;
  EXPECT_NE(datagen.find("\n      --from-tsv FILE...  "), std::string::npos) << datagen;
  EXPECT_NE(datagen.find("\n  -o, --output DIR  "), std::string::npos) << datagen;
  EXPECT_NE(run_cli({"tb", "--help"}).out.find("\n      --SyzygyPath TEXT  "), std::string::npos);
}

// Every subcommand that loads a net or tables takes the options table's names, with the table's
// help and values (issue 53's one vocabulary); the old spellings are answered with the new.
TEST(Cli, SubcommandsTakeTheOptionTablesNames) {
  for (const char* name : {"bench", "eval", "puzzles", "epd"}) {
    SCOPED_TRACE(name);
    const std::string help = run_cli({name, "--help"}).out;
    EXPECT_NE(help.find("\n      --EvalFile TEXT "), std::string::npos) << help;
    EXPECT_NE(help.find("network file (safetensors)"), std::string::npos) << help;
    EXPECT_NE(help.find("\n      --Precision auto|fp32|bf16|int8 "), std::string::npos) << help;
    const Result old = run_cli({name, "--weights", "x"});
    EXPECT_EQ(old.status, 2);
    EXPECT_EQ(old.err, fmt::format("avocet: {}: --weights is now --EvalFile\n", name));
  }
  for (const char* name : {"puzzles", "epd"}) {
    const std::string help = run_cli({name, "--help"}).out;
    EXPECT_NE(help.find("\n      --Hash 1..65536 "), std::string::npos) << help;
    EXPECT_NE(help.find("\n      --SyzygyPath TEXT "), std::string::npos) << help;
  }
  EXPECT_NE(run_cli({"nnbench", "--help"}).out.find("\n      --EvalFile FILE,... "),
            std::string::npos);
}

// tb takes `startpos` as eval and perft do (59eb6be: "FEN has 1 fields"); the start position
// has castling rights, which no table holds.
TEST(Cli, TbTakesStartpos) {
  const std::string dir = std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  for (const std::vector<const char*>& args :
       {std::vector<const char*>{"tb", "--SyzygyPath", dir.c_str(), "startpos"},
        {"tb", "startpos", "--SyzygyPath", dir.c_str()}}) {
    const Result r = run_cli(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "avocet: tb: the tables have no positions with castling rights\n");
  }
}

// nnbench's summary compares the featured net with the plain one of its shape, each as its own
// row shows it: 59eb6be compared the -relative variant's row (measured after it, with the
// same shape) as if it were the featured net.
TEST(Cli, NnbenchComparesThePlainFeaturedNet) {
  // --nets leaves out the rows the summary does not compare (the searchless net alone takes
  // seconds a position under the sanitizers); the rows keep the standard order, whatever
  // order --nets lists them in.
  const Result r = run_cli(
      {"nnbench", "--seconds", "0.02", "--threads", "1", "--split", "1", "--Precision", "fp32",
       "--nets", "house-d128-L4-features-relative,house-d128-L4-features,house-d128-L4"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The ms/pos column of the row of net `name` (the first of the rows).
  const auto ms_of = [&](const std::string& name) {
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream fields(line);
      std::string net, precision, threads, rate, ms;
      if (fields >> net >> precision >> threads >> rate >> ms && net == name) return ms;
    }
    return std::string();
  };
  const std::string featured = ms_of("house-d128-L4-features");
  const std::string plain = ms_of("house-d128-L4");
  ASSERT_NE(featured, "") << r.out;
  ASSERT_NE(plain, "") << r.out;
  ASSERT_NE(ms_of("house-d128-L4-features-relative"), "") << r.out;
  EXPECT_NE(
      r.out.find(fmt::format("feature groups at d=128 L=4: featured net {} ms/pos against {} ms ",
                             featured, plain)),
      std::string::npos)
      << r.out;
}

// Both of nnbench's tables keep their columns whatever the precision's label: "int8-vnni+bf16-qkv"
// once pushed every int8 row 9 characters right of its header (issue 71, N11).
TEST(Cli, NnbenchColumnsLineUpWithTheirHeaders) {
  const Result r = run_cli({"nnbench", "--seconds", "0.02", "--threads", "1", "--split", "1",
                            "--Precision", "int8", "--nets", "house-d128-L4"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  size_t header = 0;
  int headers = 0, rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("network ", 0) == 0) {
      header = line.size();
      ++headers;
    } else if (header > 0 && line.rfind("house-d128-L4 ", 0) == 0) {
      EXPECT_EQ(line.size(), header) << line << "\n" << r.out;
      ++rows;
    } else {
      header = 0;
    }
  }
  EXPECT_EQ(headers, 2) << r.out;
  EXPECT_GE(rows, 2) << r.out;
}

}  // namespace
}  // namespace avocet::cli
