// The real avocet binary as a child process: lines in through a pipe, stdout read back
// line by line (as a GUI sees it), and a one-shot runner for command-line subcommands.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

namespace avocet {

// Starts `avocet args...` with the given descriptors as its stdin, stdout and stderr (-1:
// /dev/null); the child closes every other pipe end it inherited in `close_in_child`.
inline pid_t spawn_avocet(const std::vector<std::string>& args, int in, int out, int err,
                          std::vector<int> close_in_child) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int null = open("/dev/null", O_RDWR);
  dup2(in >= 0 ? in : null, 0);
  dup2(out >= 0 ? out : null, 1);
  dup2(err >= 0 ? err : null, 2);
  for (int fd : close_in_child) close(fd);
  std::vector<char*> argv{const_cast<char*>(AVOCET_BINARY)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  execv(AVOCET_BINARY, argv.data());
  _exit(127);
}

class EngineProcess {
 public:
  // With `capture_stderr`, the engine's stderr is read back by read_stderr(); otherwise it
  // goes to the test's own stderr.
  explicit EngineProcess(const std::vector<std::string>& args, bool capture_stderr = false) {
    int in[2], out[2], err[2] = {-1, -1};
    if (pipe(in) != 0 || pipe(out) != 0 || (capture_stderr && pipe(err) != 0))
      throw std::runtime_error("pipe");
    std::vector<int> parent_ends{in[1], out[0]};
    if (capture_stderr) parent_ends.push_back(err[0]);
    pid_ = spawn_avocet(args, in[0], out[1], capture_stderr ? err[1] : 2, parent_ends);
    close(in[0]);
    close(out[1]);
    if (capture_stderr) close(err[1]);
    to_ = in[1];
    from_ = out[0];
    err_ = err[0];
  }
  ~EngineProcess() {
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (to_ >= 0) close(to_);
    close(from_);
    if (err_ >= 0) close(err_);
  }

  // Closes the engine's standard input: it reads end of file, as when a GUI goes away.
  void close_input() {
    close(to_);
    to_ = -1;
  }

  // What the engine wrote to stderr (when captured) until it closed it or `ms` passed.
  std::string read_stderr(int ms = 3000) {
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (err_ >= 0 && std::chrono::steady_clock::now() < deadline) {
      pollfd p{err_, POLLIN, 0};
      if (poll(&p, 1, 10) <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(err_, chunk, sizeof chunk);
      if (n <= 0) break;
      text.append(chunk, size_t(n));
    }
    return text;
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
  int to_ = -1, from_ = -1, err_ = -1;
  std::string buffer_;
};

// Runs `avocet args...` with empty standard input; returns the exit status and stderr.
struct CliRun {
  int status = -1;
  std::string err;
};

inline CliRun run_avocet(const std::vector<std::string>& args) {
  int err[2];
  if (pipe(err) != 0) throw std::runtime_error("pipe");
  const pid_t pid = spawn_avocet(args, -1, -1, err[1], {err[0]});
  close(err[1]);
  CliRun run;
  char chunk[4096];
  for (ssize_t n; (n = read(err[0], chunk, sizeof chunk)) > 0;) run.err.append(chunk, size_t(n));
  close(err[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return run;
}

}  // namespace avocet
