#include "avocet/cli/cli.h"

#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace avocet::cli
