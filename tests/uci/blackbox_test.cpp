// Drives the real avocet binary through pipes, as a GUI does.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "../test_data.h"

namespace avocet {
namespace {

class EngineProcess {
 public:
  explicit EngineProcess(const std::vector<std::string>& args) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      std::vector<char*> argv{const_cast<char*>(AVOCET_BINARY)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(AVOCET_BINARY, argv.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~EngineProcess() {
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(to_);
    close(from_);
  }

  void send(const std::string& line) {
    const std::string text = line + "\n";
    ASSERT_EQ(write(to_, text.data(), text.size()), ssize_t(text.size()));
  }

  // Reads until a line starting with `prefix` arrives, or `ms` pass; returns the text read.
  std::string read_until(const std::string& prefix, int ms = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    std::string seen;
    while (std::chrono::steady_clock::now() < deadline) {
      size_t newline;
      while ((newline = buffer_.find('\n')) != std::string::npos) {
        const std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        seen += line + "\n";
        if (line.rfind(prefix, 0) == 0) return seen;
      }
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, 10) > 0) {
        char chunk[4096];
        const ssize_t n = read(from_, chunk, sizeof chunk);
        if (n <= 0) break;
        buffer_.append(chunk, size_t(n));
      }
    }
    return seen + "<timeout waiting for '" + prefix + "'>";
  }

  // The exit status once the process has ended within `ms`, or -1.
  int wait_exit(int ms) {
    for (int i = 0; i < ms; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
      }
      usleep(1000);
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffer_;
};

TEST(BlackBox, UciSessionThroughPipes) {
  EngineProcess engine({"--EvalFile=" + testing::data_path("tiny_house.safetensors"), "--Hash=16"});
  engine.send("uci");
  const std::string hello = engine.read_until("uciok");
  EXPECT_NE(hello.find("id name Avocet"), std::string::npos) << hello;
  EXPECT_NE(hello.find("option name EvalFile"), std::string::npos);
  // The options given as arguments were applied before `uci`: the net was announced.
  EXPECT_NE(hello.find("info string net tiny_house"), std::string::npos) << hello;

  engine.send("isready");
  EXPECT_NE(engine.read_until("readyok").find("readyok"), std::string::npos);
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

TEST(BlackBox, CommandLineErrorsAreOneLine) {
  EngineProcess engine({"--EvalFile=/nonexistent.safetensors"});
  const std::string out = engine.read_until("info string error", 3000);
  EXPECT_NE(out.find("info string error: EvalFile: /nonexistent.safetensors: cannot open"),
            std::string::npos)
      << out;
  engine.send("quit");
  EXPECT_EQ(engine.wait_exit(3000), 0);
}

}  // namespace
}  // namespace avocet
