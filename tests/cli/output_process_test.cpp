// Long subcommands as a person sees them, through the real binary: results arrive line by
// line while the run goes on, and progress is a bar on a terminal but plain lines, without
// `\r`, where output is redirected. Started on a terminal, the UCI loop greets at once.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "../uci/engine_process.h"

namespace avocet {
namespace {

std::string data(const std::string& name) { return std::string(AVOCET_TEST_DATA_DIR) + "/" + name; }

// Reads `fd` until end of file (or EIO, which a terminal's master side reads once the last
// process holding the other side has exited).
std::string read_all(int fd) {
  std::string text;
  char chunk[4096];
  for (ssize_t n; (n = read(fd, chunk, sizeof chunk)) > 0;) text.append(chunk, size_t(n));
  return text;
}

// The first result line comes while the process still runs: stdout is flushed per line, not
// held in a buffer until the end (where a person at a terminal would see nothing for the
// whole run). Each command below runs for at least a second after its first line.
TEST(OutputProcess, ResultsStreamWhileTheRunGoesOn) {
  const std::string net = data("tiny_house.safetensors");
  struct Case {
    std::vector<std::string> args;
    std::string first_line_prefix;
  };
  const Case cases[] = {
      // 5 positions, 400 ms each
      {{"epd", "--file", data("sts_sample.epd"), "--movetime", "400", "--EvalFile", net}, "   1  "},
      // the header, then 5 puzzles of at least one 400 ms search each
      {{"puzzles", "--file", data("puzzles_sample.csv"), "--evaluator", "material", "--mode",
        "search", "--movetime", "400"},
       data("puzzles_sample.csv") + ": 5 of 5 puzzles"},
      // the table's header, then 4 entries of 2 x 0.4 s each (each net on 1x2 and 1 thread)
      {{"nnbench", "--EvalFile", net, "--EvalFile", net, "--threads", "1", "--seconds", "0.4"},
       "network "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args[0]);
    EngineProcess process(c.args, /*capture_stderr=*/true);
    const std::string seen = process.read_until(c.first_line_prefix, 20000);
    ASSERT_EQ(seen.find("<timeout"), std::string::npos) << seen;
    EXPECT_EQ(process.wait_exit(1), -1) << "the first line came only when the run ended";
    EXPECT_EQ(process.wait_exit(60000), 0);
  }
}

// Redirected (here, to pipes), stderr holds plain status lines and nothing holds a `\r`.
TEST(OutputProcess, RedirectedProgressIsPlainLines) {
  EngineProcess process(
      {"puzzles", "--file", data("puzzles_sample.csv"), "--evaluator", "material"},
      /*capture_stderr=*/true);
  const std::string out = process.read_until("<end of file>", 20000);
  ASSERT_EQ(process.wait_exit(20000), 0);
  const std::string err = process.read_stderr();
  EXPECT_EQ(out.find('\r'), std::string::npos) << out;
  EXPECT_EQ(err.find('\r'), std::string::npos) << err;
  EXPECT_NE(err.find("\n5/5 done, "), std::string::npos) << err;
  EXPECT_NE(err.find("% solved, "), std::string::npos) << err;
  EXPECT_NE(out.find("\noverall "), std::string::npos) << out;
}

// On a terminal, stderr gets a bar redrawn in place; stdout (a pipe here) stays plain.
TEST(OutputProcess, TerminalProgressIsABar) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
    GTEST_SKIP() << "no pseudo-terminal here";
  const int terminal = open(ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const pid_t pid =
      spawn_avocet({"puzzles", "--file", data("puzzles_sample.csv"), "--evaluator", "material"}, -1,
                   out[1], terminal, {master, out[0]});
  close(out[1]);
  close(terminal);
  const std::string results = read_all(out[0]);
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::string bar = read_all(master);
  close(master);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << bar;
  EXPECT_EQ(results.find('\r'), std::string::npos) << results;
  EXPECT_NE(bar.find("\r[....................] 0/5 done"), std::string::npos) << bar;
  EXPECT_NE(bar.find("\r[####################] 5/5 done, "), std::string::npos) << bar;
}

// Started on a terminal, the engine greets at once, before anything is typed, as
// src/uci/README.md says (59eb6be held the greeting in stdout's buffer until the answer to the
// first line typed).
TEST(OutputProcess, TerminalGreetingComesAtOnce) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
    GTEST_SKIP() << "no pseudo-terminal here";
  const int terminal = open(ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  const pid_t pid = spawn_avocet({}, terminal, terminal, -1, {master});
  close(terminal);
  std::string seen;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (seen.find("Type 'help' for the commands.") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(master, chunk, sizeof chunk);
    if (n <= 0) break;
    seen.append(chunk, size_t(n));
  }
  // Nothing was typed until now: `quit` ends it.
  ASSERT_EQ(write(master, "quit\n", 5), 5);
  int status = 0;
  for (int i = 0; i < 10000 && waitpid(pid, &status, WNOHANG) == 0; ++i) usleep(1000);
  if (waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  close(master);
  EXPECT_EQ(seen.rfind("Avocet ", 0), 0u) << seen;
  EXPECT_NE(seen.find("Type 'help' for the commands."), std::string::npos) << seen;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << seen;
}

}  // namespace
}  // namespace avocet
