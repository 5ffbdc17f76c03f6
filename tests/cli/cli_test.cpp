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
  EXPECT_EQ(r.out, "info string error: setoption: unknown option 'Frobnication'\nreadyok\n");
}

TEST(Cli, NoArgumentsRunsUci) {
  const Result r = run_cli({}, "uci\nquit\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("uciok"), std::string::npos);
}

}  // namespace
}  // namespace avocet::cli
