// The Debug Log File option, as Stockfish has it: every line the loop reads and writes,
// appended to a file with a time stamp and its direction (`>>` in, `<<` out), for a user whose
// GUI hides what the engine said.
#pragma once

#include <fstream>
#include <mutex>
#include <string>
#include <string_view>

namespace avocet::uci {

class DebugLog {
 public:
  // Appends to `path` from now on (empty: stops logging); throws std::runtime_error naming
  // the file if it cannot be written, and then logs where it did before.
  void open(const std::string& path);
  // Each line of `text`, as `2026-12-02T06:55:01.123Z >> uci`; nothing while no file is open.
  void write(std::string_view direction, std::string_view text);

 private:
  std::mutex mutex_;
  std::ofstream file_;
};

}  // namespace avocet::uci
