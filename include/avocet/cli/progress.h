// Progress of a long subcommand (puzzles, epd, nnbench, datagen, perft --suite), written to
// stderr so that stdout keeps only results.
//
// On a terminal the status is a bar redrawn in place with `\r`, at most every 100 ms (so it
// moves without flooding the terminal), and result lines written through print_line() erase
// it first and get it redrawn below them. Anywhere else (a file, a pipe, a CI log) it is a
// plain line every `line_every` items and after the last one, and never holds a `\r`:
//
//   10/50 done, 20.0% solved, 2.5 puzzles/s, 16 s left
//
// Not thread-safe: callers that update it from several threads hold their own lock.
#pragma once

#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

namespace avocet::cli {

class Progress {
 public:
  // `total` items (0 when unknown) called `unit` ("puzzles"); on a terminal or not. With
  // `line_every` 0, a plain line comes every 5% of the items (see line_interval).
  Progress(std::ostream& err, bool terminal, size_t total, std::string unit, size_t line_every = 0);

  // `done` items are finished; `detail` says how they went ("20.0% solved"), or is empty.
  void update(size_t done, std::string_view detail = {});
  // Writes `line` and a newline to `results` (stdout) and flushes it, without tearing the bar.
  void print_line(std::ostream& results, std::string_view line);
  // Ends the bar's line on a terminal (once the last update is drawn); nothing elsewhere.
  void finish();

  // Items between two plain lines for `total` items: 5% of them, at least 1, at most 100
  // (so a long run still reports every few minutes); 100 when the total is unknown.
  static size_t line_interval(size_t total);
  // "16 s", "12 min", "2 h 05 min".
  static std::string duration_text(double seconds);

 private:
  using Clock = std::chrono::steady_clock;

  // "10/50 done, 20.0% solved, 2.5 puzzles/s, 16 s left"
  std::string status(size_t done, std::string_view detail) const;
  void draw(const std::string& text);
  void erase();

  std::ostream& err_;
  bool terminal_;
  size_t total_;
  std::string unit_;
  size_t line_every_;
  Clock::time_point start_, last_draw_;
  size_t next_line_at_;  // plain mode: the done count of the next line
  size_t last_done_ = 0;
  std::string detail_;  // the last update's, for redrawing after print_line
  bool drawn_ = false;  // a bar is on the terminal's current line
};

}  // namespace avocet::cli
