#include "avocet/datagen/uci_process.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>

namespace avocet::datagen {

UciProcess::UciProcess(const std::string& path) : path_(path) {
  int to_child[2], from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0)
    throw std::runtime_error("cannot create pipes for " + path);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("cannot fork for " + path);
  if (pid_ == 0) {
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    close(to_child[1]);
    close(from_child[0]);
    execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  to_ = fdopen(to_child[1], "w");
  from_ = fdopen(from_child[0], "r");
  send("uci");
  read_until("uciok");
}

UciProcess::~UciProcess() {
  if (to_) {
    fputs("quit\n", to_);
    fclose(to_);
  }
  if (from_) fclose(from_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

void UciProcess::send(const std::string& line) {
  if (fputs((line + "\n").c_str(), to_) < 0 || fflush(to_) != 0)
    throw std::runtime_error(fmt::format("{}: cannot write to the engine", path_));
}

std::vector<std::string> UciProcess::read_until(const std::string& prefix) {
  std::vector<std::string> lines;
  char buffer[8192];
  while (fgets(buffer, sizeof buffer, from_)) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    lines.push_back(line);
    if (line.rfind(prefix, 0) == 0) return lines;
  }
  throw std::runtime_error(fmt::format("{}: the engine exited (is the path right?)", path_));
}

}  // namespace avocet::datagen
