// Drives the real avocet binary through pipes, as a GUI does.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <string>

#include "../test_data.h"
#include "avocet/build_info.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/position.h"
#include "engine_process.h"

namespace avocet {
namespace {

TEST(BlackBox, UciSessionThroughPipes) {
  EngineProcess engine({"--EvalFile=" + testing::data_path("tiny_house.safetensors"), "--Hash=16"});
  engine.send("uci");
  const std::string hello = engine.read_until("uciok");
  // Through pipes there is no banner: the first line answers `uci`, and carries the version.
  EXPECT_EQ(hello.rfind(fmt::format("id name Avocet {}\n", version()), 0), 0u) << hello;
  EXPECT_NE(hello.find("option name EvalFile"), std::string::npos);
  // The options given as arguments were applied before `uci`: the net was announced.
  EXPECT_NE(hello.find("info string net tiny_house"), std::string::npos) << hello;

  engine.send("isready");
  EXPECT_EQ(engine.read_until("readyok"), "readyok\n");
  engine.send("position startpos moves e2e4 e7e5");
  engine.send("go infinite");
  engine.send("isready");  // answered while searching, without stopping it
  const std::string during = engine.read_until("readyok");
  EXPECT_NE(during.find("readyok"), std::string::npos) << during;
  EXPECT_EQ(during.find("bestmove"), std::string::npos) << during;
  engine.send("stop");
  const std::string after = engine.read_until("bestmove", 2000);
  EXPECT_NE(after.find("bestmove "), std::string::npos) << after;

  engine.send("position startpos");
  engine.send("go movetime 200");
  EXPECT_NE(engine.read_until("bestmove", 3000).find("bestmove "), std::string::npos);

  engine.send("go infinite");
  engine.send("quit");  // quits promptly, even mid-search
  EXPECT_EQ(engine.wait_exit(3000), 0);
}

// On a terminal (standard input and output a tty, as when a person runs `avocet`), the
// engine greets with its version, commit and build flags before reading commands.
TEST(BlackBox, BannerOnATerminalOnly) {
  const int terminal = posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  ASSERT_EQ(grantpt(terminal), 0);
  ASSERT_EQ(unlockpt(terminal), 0);
  const int user_end = open(ptsname(terminal), O_RDWR | O_NOCTTY);
  ASSERT_GE(user_end, 0);
  const pid_t pid = spawn_avocet({}, user_end, user_end, -1, {terminal});
  close(user_end);
  const std::string quit = "quit\n";
  ASSERT_EQ(write(terminal, quit.data(), quit.size()), ssize_t(quit.size()));
  std::string seen;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (seen.find("Type 'help'") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    pollfd p{terminal, POLLIN, 0};
    if (poll(&p, 1, 10) <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(terminal, chunk, sizeof chunk);
    if (n <= 0) break;
    seen.append(chunk, size_t(n));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(terminal);
  // The terminal may echo the typed `quit` before the banner; the banner is all there is else.
  EXPECT_NE(seen.find(version_line() + "\r\n" + build_line() + "\r\n" +
                      "Type 'help' for the commands.\r\n"),
            std::string::npos)
      << seen;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// The `Nodes searched` line of a bench's output, or "" when there is none.
std::string signature(const std::string& out) {
  const size_t at = out.find("Nodes searched  : ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

// `bench` typed in the loop is `avocet bench` with the playing net: the same signature.
TEST(BlackBox, BenchInTheLoopGivesTheSubcommandsSignature) {
  const std::string net = testing::data_path("tiny_house.safetensors");
  EngineProcess subcommand({"bench", "--EvalFile", net});
  const std::string expected = signature(subcommand.read_until("Nodes/second", 60000));
  ASSERT_NE(expected, "");
  EngineProcess engine({"--EvalFile=" + net});
  engine.send("bench");
  const std::string out = engine.read_until("Nodes/second", 60000);
  EXPECT_EQ(signature(out), expected) << out;
  // Plain lines, one per position, then the signature.
  EXPECT_NE(out.find(" nodes, 7 iterations, depth "), std::string::npos) << out;
  EXPECT_NE(out.find(": rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"),
            std::string::npos)
      << out;
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
}

// python-chess's handshake, as lichess-bot runs it: engine_options as arguments, `uci`,
// setoption lines (uci_options), `isready`. python-chess drops what comes before `uciok` and
// warns about anything but `readyok` after `isready`: so the misspelt setoptions are reported
// on stderr as well, and the tables found are reported by the next `go`. (A bad argument
// stops the engine before the loop: BlackBox.BadArgumentsStopTheEngineWithStatus2.)
TEST(BlackBox, HandshakeAsPythonChessRunsIt) {
  EngineProcess engine(
      {"--Move Overhead=100", "--EvalFile=" + testing::data_path("tiny_house.safetensors")}, true);
  engine.send("uci");
  EXPECT_NE(engine.read_until("uciok").find("info string net tiny_house"), std::string::npos);
  engine.send("setoption name Treads value 2");
  engine.send("setoption name Hash value abc");
  engine.send("setoption name SyzygyPath value " + testing::data_path("syzygy"));
  engine.send("setoption name UCI_ShowWDL value true");
  engine.send("isready");
  EXPECT_EQ(engine.read_until("readyok"),
            "info string error: setoption: unknown option 'Treads'\n"
            "info string error: option Hash: expected an integer, got 'abc'\n"
            "readyok\n");
  engine.send("position startpos");
  engine.send("go depth 1");
  const std::string search = engine.read_until("bestmove");
  EXPECT_EQ(search.rfind("info string found 18 tables (10 WDL, 8 DTZ) in ", 0), 0u) << search;
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
  EXPECT_EQ(engine.read_stderr(),
            "info string error: setoption: unknown option 'Treads'\n"
            "info string error: option Hash: expected an integer, got 'abc'\n");
}

// The last `bestmove` of `text`, or "" when there is none.
std::string last_bestmove(const std::string& text) {
  const size_t at = text.rfind("bestmove ");
  if (at == std::string::npos) return "";
  return text.substr(at + 9, text.find_first_of(" \n", at + 9) - at - 9);
}

// A bad EvalFile is the one error a GUI must not hide: the line names the file, the reason
// and the net that plays instead, on stdout and on stderr.
TEST(BlackBox, BadEvalFileIsAnErrorOnStdoutAndStderr) {
  EngineProcess engine({}, true);
  engine.send("setoption name EvalFile value /nonexistent.safetensors");
  const std::string out = engine.read_until("info string ERROR", 3000);
  const std::string expected =
      "info string ERROR: EvalFile: /nonexistent.safetensors: cannot open: No such file or "
      "directory; keeping the embedded net ";
  ASSERT_NE(out.find(expected), std::string::npos) << out;
  const std::string line = out.substr(out.find(expected));
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
  EXPECT_EQ(engine.read_stderr(), line);
}

// Arguments are checked before the loop starts: a misspelt name, a bad value or a net that
// cannot be read is one `avocet:` line on stderr, nothing on stdout, and status 2, which
// lichess-bot reports as an engine that did not start.
// --Precision=fp32 on the command line plays in fp32 (the net's name says so).
TEST(BlackBox, PrecisionOnTheCommandLine) {
  EngineProcess engine({"--Precision=fp32"}, true);
  engine.send("uci");
  const std::string answer = engine.read_until("uciok");
  EXPECT_NE(answer.find("option name Precision type combo default auto var auto var fp32 var bf16"),
            std::string::npos)
      << answer;
  EXPECT_NE(answer.find(" fp32) hash "), std::string::npos) << answer;
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
}

TEST(BlackBox, BadArgumentsStopTheEngineWithStatus2) {
  for (const auto& [arg, error] :
       {std::pair{"--Treads=2", "avocet: --Treads=2: unknown option 'Treads'"},
        std::pair{"--Hash=abc", "avocet: --Hash=abc: option Hash: expected an integer, got 'abc'"},
        std::pair{"--EvalFile=/nonexistent.safetensors",
                  "avocet: --EvalFile=/nonexistent.safetensors: /nonexistent.safetensors: "
                  "cannot open: No such file or directory"}}) {
    SCOPED_TRACE(arg);
    EngineProcess engine({arg}, true);
    const std::string err = engine.read_stderr();
    EXPECT_EQ(err.rfind(error, 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_EQ(engine.wait_exit(3000), 2);
    EXPECT_EQ(engine.read_until("", 100), "<timeout waiting for ''>");  // nothing on stdout
  }
}

// End of input is `quit`, as in Stockfish: a search held by `infinite` or `ponder` stops,
// prints its bestmove, and the engine exits with status 0.
TEST(BlackBox, EndOfInputEndsAnInfiniteOrPonderSearch) {
  for (const char* go : {"go infinite", "go ponder wtime 60000 btime 60000"}) {
    SCOPED_TRACE(go);
    EngineProcess engine({"--EvalFile=" + testing::data_path("tiny_house.safetensors")});
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4");
    engine.send(go);
    engine.send("isready");
    ASSERT_NE(engine.read_until("readyok").find("readyok"), std::string::npos);
    engine.close_input();
    const std::string out = engine.read_until("bestmove", 5000);
    Position after_e4 = Position::start();
    after_e4.play(parse_uci(after_e4, "e2e4"));
    EXPECT_NO_THROW(parse_uci(after_e4, last_bestmove(out))) << out;
    EXPECT_EQ(engine.wait_exit(3000), 0);
  }
}

// Every go gets exactly one bestmove, even with a bad parameter: an error line, then a move.
TEST(BlackBox, BadGoParametersStillGetOneBestmove) {
  EngineProcess engine({"--EvalFile=" + testing::data_path("tiny_house.safetensors")});
  engine.send("uci");
  ASSERT_NE(engine.read_until("uciok").find("info string net tiny_house"), std::string::npos);
  engine.send("position startpos");
  struct Case {
    const char* go;
    const char* error;
  };
  for (const Case c : {Case{"go depth abc", "go: depth must be an integer, got 'abc'"},
                       Case{"go searchmoves e2e5",
                            "go searchmoves: illegal move 'e2e5' in position "
                            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
                       Case{"go depth 2 searchmoves e2e5 a2a3",
                            "go searchmoves: illegal move 'e2e5' in position "
                            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
                       Case{"go nodes 50 banana", "go: unknown parameter 'banana'"},
                       Case{"go wtime x btime 1000", "go: wtime must be an integer, got 'x'"},
                       Case{"go btime 5000",
                            "go: btime given but White is to move and has no wtime: moving at "
                            "once"}}) {
    SCOPED_TRACE(c.go);
    engine.send(c.go);
    const std::string out = engine.read_until("bestmove", 10000);
    EXPECT_EQ(out.rfind(std::string("info string error: ") + c.error + "\n", 0), 0u) << out;
    // Nothing more for this go: the next line answers the isready.
    engine.send("isready");
    EXPECT_EQ(engine.read_until("readyok"), "readyok\n");
    const std::string best = last_bestmove(out);
    EXPECT_NO_THROW(parse_uci(Position::start(), best)) << out;
    if (std::string(c.go).find("a2a3") != std::string::npos) {
      EXPECT_EQ(best, "a2a3");
    }
  }
  // Typed by hand, a second go comes before the first one's bestmove: each gets its own.
  engine.send("go depth abc");
  engine.send("go depth 1");
  for (int i = 0; i < 2; ++i) {
    const std::string out = engine.read_until("bestmove", 10000);
    EXPECT_NO_THROW(parse_uci(Position::start(), last_bestmove(out))) << out;
  }
  // And no third: the next line answers the isready.
  engine.send("isready");
  EXPECT_EQ(engine.read_until("readyok"), "readyok\n");
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
}

}  // namespace
}  // namespace avocet
