#include "avocet/cli/cli.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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
  const Result r = run_cli({"--Frobnication=7"}, "isready\nquit\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("info string error: setoption: unknown option 'Frobnication'\n", 0), 0u)
      << r.out;
  // lichess-bot's python-chess drops info strings before uciok: stderr shows the mistake.
  EXPECT_EQ(r.err, "info string error: setoption: unknown option 'Frobnication'\n");
  EXPECT_TRUE(r.out.ends_with("readyok\n")) << r.out;
}

TEST(Cli, NoArgumentsRunsUci) {
  const Result r = run_cli({}, "uci\nquit\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("uciok"), std::string::npos);
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
      run_cli({"eval", "--weights", weights.c_str(),
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
    const double win = std::stod(line.substr(line.rfind(' ') + 1));
    EXPECT_LE(win, previous);
    previous = win;
  }
}

TEST(Cli, EvalErrors) {
  EXPECT_EQ(
      run_cli({"eval", "--weights", "/nonexistent.safetensors", "8/8/8/4k3/8/8/8/4K3 w - -"}).err,
      "avocet: /nonexistent.safetensors: cannot open: No such file or directory\n");
  EXPECT_EQ(run_cli({"eval", "--weights", "x", "8/8/8 w - -"}).err,
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
  const std::vector<nlohmann::json> rows = read_json_lines(path);
  ASSERT_EQ(rows.size(), 5u);
  std::set<std::string> ids;
  int solved = 0;
  for (const nlohmann::json& row : rows) {
    ids.insert(row.at("id").get<std::string>());
    solved += row.at("solved").get<bool>();
    EXPECT_GT(row.at("rating").get<int>(), 0);
    EXPECT_EQ(row.at("label"), "material");
    EXPECT_EQ(row.at("evaluator"), "material (1-ply material balance), argmax");
    EXPECT_TRUE(row.contains("correct_moves") && row.contains("first_mistake"));
  }
  EXPECT_EQ(ids, (std::set<std::string>{"00008", "0000D", "0009B", "000aY", "000hf"}));
  EXPECT_NE(r.out.find(fmt::format("{:<10} {:>7} {:>7}", "overall", solved, 5)), std::string::npos)
      << r.out;
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

  // The first run stopped after two puzzles, in the middle of writing a third.
  const Result first = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                                "--json", path.c_str(), "--limit", "2"});
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string two = read_text(path);
  std::ofstream(path, std::ios::app) << R"({"id":"0009B","rat)";

  const Result resumed = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                                  "--json", path.c_str(), "--resume"});
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find(path + ": 2 of 5 puzzles already solved or failed, 3 to go"),
            std::string::npos)
      << resumed.err;
  // The same table as the full run, and the file holds each puzzle once, the first two as
  // they were.
  EXPECT_NE(resumed.out.find(table), std::string::npos) << resumed.out << "\nvs\n" << table;
  const std::string text = read_text(path);
  EXPECT_EQ(text.rfind(two, 0), 0u);
  const std::vector<nlohmann::json> rows = read_json_lines(path);
  ASSERT_EQ(rows.size(), 5u) << text;
  std::set<std::string> ids;
  for (const nlohmann::json& row : rows) ids.insert(row.at("id").get<std::string>());
  EXPECT_EQ(ids.size(), 5u);

  // Nothing left to do: the table comes from the file alone.
  const Result again = run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material",
                                "--json", path.c_str(), "--resume"});
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_NE(again.out.find(table), std::string::npos) << again.out;
  EXPECT_EQ(read_text(path), text);

  // Results of another run are not mixed in.
  const Result other =
      run_cli({"puzzles", "--file", sample.c_str(), "--evaluator", "material", "--mode", "search",
               "--nodes", "50", "--json", path.c_str(), "--resume"});
  EXPECT_EQ(other.status, 2);
  EXPECT_EQ(other.err.rfind("avocet: --resume: " + path +
                                ":1: a result of 'material (1-ply "
                                "material balance), argmax', not of this run",
                            0),
            0u)
      << other.err;
}

TEST(Cli, TbPrintsWdlDtzAndEveryMoveBestFirst) {
  const std::string dir = std::string(AVOCET_TEST_DATA_DIR) + "/syzygy";
  const Result r = run_cli({"tb", "--path", dir.c_str(), "8/8/8/8/8/2k5/8/KR6 w - - 0 1"});
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
       {std::vector<const char*>{"tb", "--path", dir.c_str(), "8/8/8 w - -"},
        {"tb", "--path", dir.c_str()},
        {"tb", "--path", "/nonexistent/syzygy", "8/8/8/8/8/2k5/8/KR6 w - - 0 1"},
        {"tb", "--path", dir.c_str(), "8/8/8/8/8/2k5/8/KRB5 w - - 0 1"},
        {"tb", "--path", dir.c_str(), "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"}}) {
    const Result r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("avocet: ", 0), 0u) << r.err;
  }
}

}  // namespace
}  // namespace avocet::cli
