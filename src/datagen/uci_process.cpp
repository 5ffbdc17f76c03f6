#include "avocet/datagen/uci_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace avocet::datagen {

namespace {

// Starts `path` with `fd` as its standard input and output. An exec failure comes back
// through a close-on-exec pipe as the child's errno, so that a wrong path is reported as
// such rather than as an engine that exited at once.
pid_t spawn(const std::string& path, int fd) {
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(fmt::format("cannot start '{}': {}", path, std::strerror(errno)));
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, STDIN_FILENO);  // dup2 clears close-on-exec on the copies
    dup2(fd, STDOUT_FILENO);
    execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
    const int error = errno;
    if (write(status_pipe[1], &error, sizeof error) < 0) _exit(126);
    _exit(127);
  }
  const int fork_error = errno;
  close(status_pipe[1]);
  int exec_error = 0;
  ssize_t n = 0;
  if (pid > 0) {
    do n = read(status_pipe[0], &exec_error, sizeof exec_error);
    while (n < 0 && errno == EINTR);
  }
  close(status_pipe[0]);
  if (pid < 0)
    throw std::runtime_error(fmt::format("cannot start '{}': {}", path, std::strerror(fork_error)));
  if (n > 0) {
    waitpid(pid, nullptr, 0);
    throw std::runtime_error(fmt::format("cannot run '{}': {}", path, std::strerror(exec_error)));
  }
  return pid;
}

std::string describe(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
  return "ended";
}

}  // namespace

UciProcess::UciProcess(const std::string& path) : path_(path) {
  // Close-on-exec: the engines of other workers must not hold this engine's socket open,
  // or its end would never be seen.
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::runtime_error(fmt::format("cannot start '{}': {}", path, std::strerror(errno)));
  try {
    pid_ = spawn(path, fds[1]);
  } catch (const std::exception&) {
    close(fds[0]);
    close(fds[1]);
    throw;
  }
  close(fds[1]);
  stream_ = fdopen(fds[0], "r");
  if (!stream_) {
    close(fds[0]);
    stop(std::chrono::milliseconds(0));
    throw std::runtime_error(fmt::format("cannot read from '{}': {}", path, std::strerror(errno)));
  }
  try {
    send("uci");
    for (const std::string& line : read_until("uciok"))
      if (line.rfind("id name ", 0) == 0) name_ = line.substr(8);
  } catch (const std::exception&) {
    stop(std::chrono::milliseconds(1000));
    throw;
  }
}

UciProcess::~UciProcess() {
  if (stream_) {
    const std::string quit = "quit\n";
    (void)::send(fileno(stream_), quit.data(), quit.size(), MSG_NOSIGNAL);
  }
  stop(std::chrono::milliseconds(1000));
}

std::string UciProcess::stop(std::chrono::milliseconds grace) {
  if (stream_) {
    fclose(stream_);
    stream_ = nullptr;
  }
  if (pid_ <= 0) return ending_.empty() ? "has ended" : ending_;
  int status = 0;
  pid_t done = 0;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while ((done = waitpid(pid_, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::string how;
  if (done == pid_) {
    how = describe(status);
  } else {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    how = "stopped answering (killed)";
  }
  pid_ = -1;
  return how;
}

const std::string& UciProcess::ended() {
  if (ending_.empty()) ending_ = stop(std::chrono::milliseconds(2000));
  return ending_;
}

void UciProcess::send(const std::string& line) {
  const std::string text = line + "\n";
  for (size_t done = 0; done < text.size();) {
    const ssize_t n =
        stream_ ? ::send(fileno(stream_), text.data() + done, text.size() - done, MSG_NOSIGNAL)
                : -1;
    if (n < 0 && stream_ && errno == EINTR) continue;
    if (n < 0)
      throw std::runtime_error(fmt::format("'{}' {} (sending '{}')", path_, ended(), line));
    done += size_t(n);
  }
}

std::vector<std::string> UciProcess::read_until(const std::string& prefix) {
  std::vector<std::string> lines;
  char buffer[8192];
  while (stream_ && fgets(buffer, sizeof buffer, stream_)) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    lines.push_back(line);
    if (line.rfind(prefix, 0) == 0) return lines;
  }
  throw std::runtime_error(fmt::format("'{}' {} (waiting for '{}')", path_, ended(), prefix));
}

double UciProcess::cpu_seconds() const {
  if (pid_ <= 0) return 0;
  std::ifstream stat(fmt::format("/proc/{}/stat", pid_));
  std::string text;
  if (!std::getline(stat, text)) return 0;
  // Field 2, the command name, is in parentheses and may hold spaces: count from its end.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  unsigned long long user = 0, system = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // utime is field 14, stime 15
    if (i == 14) user = std::stoull(field);
    if (i == 15) system = std::stoull(field);
  }
  return double(user + system) / double(sysconf(_SC_CLK_TCK));
}

}  // namespace avocet::datagen
