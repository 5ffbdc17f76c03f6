// A UCI engine (Stockfish) run as a child process.
//
// The child's standard input and output are one end of a socket pair, not pipes: writes go
// through send() with MSG_NOSIGNAL, so an engine that has exited makes a write fail with
// EPIPE, reported as an exception naming how the engine ended, instead of killing this
// process with SIGPIPE (and with it the records other workers have not flushed yet).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace avocet::datagen {

class UciProcess {
 public:
  // Starts `path`, sends `uci` and waits for `uciok`; throws std::runtime_error on failure,
  // after stopping and reaping the child if it had started.
  explicit UciProcess(const std::string& path);
  // Sends `quit`, and kills the engine if it has not exited within a second.
  ~UciProcess();
  UciProcess(const UciProcess&) = delete;
  UciProcess& operator=(const UciProcess&) = delete;

  // Both throw std::runtime_error naming how the engine ended when it is gone.
  void send(const std::string& line);
  // Reads lines until one starts with `prefix`; returns all lines read (that one included).
  std::vector<std::string> read_until(const std::string& prefix);

  // The engine's name from its `id name` line ("Stockfish 15.1").
  const std::string& name() const { return name_; }

  // The engine's CPU time so far (user + system, from /proc/PID/stat), in seconds: what a
  // label costs, whatever else shares the core. 0 where /proc cannot be read.
  double cpu_seconds() const;

 private:
  // Closes our end and waits up to `grace` for the engine to exit, then kills it; returns
  // how it ended ("exited with status 3", "was killed by signal 11 (Segmentation fault)").
  std::string stop(std::chrono::milliseconds grace);
  // Why the engine stopped talking, for an error message: stops it on the first call.
  const std::string& ended();

  pid_t pid_ = -1;          // -1 once reaped
  FILE* stream_ = nullptr;  // our end of the socket pair, read through stdio, written with send()
  std::string path_;
  std::string name_;
  std::string ending_;  // how the engine ended, once known
};

}  // namespace avocet::datagen
