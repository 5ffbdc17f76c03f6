#include "avocet/uci/uci_loop.h"

#include <gtest/gtest.h>

#include <sstream>

namespace avocet::uci {
namespace {

// Runs a scripted session and returns everything the loop printed.
std::string session(const std::string& script) {
  std::ostringstream out;
  std::istringstream in(script);
  UciLoop loop(out);
  loop.run(in);
  return out.str();
}

TEST(UciLoop, Handshake) {
  const std::string out = session("uci\nisready\nquit\n");
  EXPECT_NE(out.find("id name Avocet"), std::string::npos);
  EXPECT_NE(out.find("uciok\n"), std::string::npos);
  EXPECT_NE(out.find("readyok\n"), std::string::npos);
}

TEST(UciLoop, PositionWithMovesAndDisplay) {
  const std::string out = session("position startpos moves e2e4 c7c5 g1f3\nd\n");
  EXPECT_NE(out.find("Fen: rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"),
            std::string::npos);
}

TEST(UciLoop, FourFieldFen) {
  std::ostringstream out;
  UciLoop loop(out);
  loop.handle_line("position fen 4k3/8/8/8/8/8/8/4K2R w K - moves e1g1");
  EXPECT_EQ(loop.game().position().fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  EXPECT_EQ(out.str(), "");
}

TEST(UciLoop, GoPerft) {
  const std::string out = session("position startpos\ngo perft 3\n");
  EXPECT_NE(out.find("e2e4: 600\n"), std::string::npos);
  EXPECT_NE(out.find("Nodes searched: 8902\n"), std::string::npos);
}

// A bad line prints one error and leaves the previous position in place.
TEST(UciLoop, BadLinesReportOneErrorAndKeepState) {
  struct Case {
    const char* line;
    const char* error;
  };
  const Case cases[] = {
      {"position startpos moves e2e4 e7e5 e1e3",
       "info string error: illegal move 'e1e3' in position "
       "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n"},
      {"position fen 8/8/8 w - - 0 1",
       "info string error: piece placement has 3 ranks; expected 8 separated by '/'\n"},
      {"position", "info string error: position needs 'startpos' or 'fen <FEN>'\n"},
      {"position somewhere",
       "info string error: position: expected 'startpos' or 'fen', got 'somewhere'\n"},
      {"position startpos e2e4", "info string error: position startpos: unexpected 'e2e4'\n"},
      {"position startpos moves e2e4 zz",
       "info string error: 'zz' is not a move in UCI notation (e.g. e2e4, e7e8q)\n"},
      {"go perft", "info string error: go perft: depth must be an integer from 1 to 20, got ''\n"},
      {"go perft 0",
       "info string error: go perft: depth must be an integer from 1 to 20, got '0'\n"},
      {"go perft x1",
       "info string error: go perft: depth must be an integer from 1 to 20, got 'x1'\n"},
      {"flurb", "info string error: unknown command 'flurb'\n"},
      {"setoption Hash 16",
       "info string error: setoption: expected 'setoption name <name> [value <value>]'\n"},
  };
  for (const Case& c : cases) {
    std::ostringstream out;
    UciLoop loop(out);
    loop.handle_line("position startpos moves d2d4");
    const std::string before = loop.game().position().fen();
    EXPECT_TRUE(loop.handle_line(c.line));
    EXPECT_EQ(out.str(), c.error) << c.line;
    EXPECT_EQ(loop.game().position().fen(), before) << c.line;
  }
}

TEST(UciLoop, QuitStopsTheLoop) {
  std::ostringstream out;
  UciLoop loop(out);
  EXPECT_FALSE(loop.handle_line("quit"));
  EXPECT_EQ(session("isready\nquit\nisready\n"), "readyok\n");
}

TEST(UciLoop, BlankAndWhitespaceLinesAreIgnored) {
  EXPECT_EQ(session("\n   \n\t\r\nisready\r\n"), "readyok\n");
}

}  // namespace
}  // namespace avocet::uci
