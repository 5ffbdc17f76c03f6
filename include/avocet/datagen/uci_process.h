// A UCI engine (Stockfish) run as a child process over pipes.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <string>
#include <vector>

namespace avocet::datagen {

class UciProcess {
 public:
  // Starts `path`, sends `uci` and waits for `uciok`; throws std::runtime_error on failure.
  explicit UciProcess(const std::string& path);
  ~UciProcess();
  UciProcess(const UciProcess&) = delete;
  UciProcess& operator=(const UciProcess&) = delete;

  void send(const std::string& line);
  // Reads lines until one starts with `prefix`; returns all lines read (that one included).
  std::vector<std::string> read_until(const std::string& prefix);

 private:
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
  std::string path_;
};

}  // namespace avocet::datagen
