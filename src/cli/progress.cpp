#include "avocet/cli/progress.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace avocet::cli {

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr size_t kBarWidth = 20;

// The terminal's width: a line longer than it wraps, and `\r` then redraws only its last
// part, leaving a trail of stale bars.
size_t terminal_columns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

}  // namespace

Progress::Progress(std::ostream& err, bool terminal, size_t total, std::string unit,
                   size_t line_every)
    : err_(err),
      terminal_(terminal),
      total_(total),
      unit_(std::move(unit)),
      line_every_(line_every ? line_every : line_interval(total)),
      start_(Clock::now()),
      last_draw_(start_),
      next_line_at_(line_every_) {
  if (terminal_) draw(status(0, ""));  // at once: the first item may take a while
}

size_t Progress::line_interval(size_t total) {
  if (total == 0) return 100;
  return std::clamp<size_t>((total + 19) / 20, 1, 100);
}

std::string Progress::duration_text(double seconds) {
  const long s = std::lround(std::max(seconds, 0.0));
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min", (s + 30) / 60);
  const long minutes = (s + 30) / 60;
  return fmt::format("{} h {:02d} min", minutes / 60, minutes % 60);
}

std::string Progress::status(size_t done, std::string_view detail) const {
  std::string text =
      total_ ? fmt::format("{}/{} done", done, total_) : fmt::format("{} {} done", done, unit_);
  if (!detail.empty()) text += fmt::format(", {}", detail);
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  if (done > 0 && seconds > 0) {
    const double rate = double(done) / seconds;
    text += rate >= 10 ? fmt::format(", {:.0f} {}/s", rate, unit_)
                       : fmt::format(", {:.2f} {}/s", rate, unit_);
    if (total_ > done)
      text += fmt::format(", {} left", duration_text(double(total_ - done) / rate));
  }
  return text;
}

void Progress::draw(const std::string& text) {
  std::string line;
  if (total_) {
    const size_t filled = kBarWidth * std::min(last_done_, total_) / total_;
    line = fmt::format("[{}{}] ", std::string(filled, '#'), std::string(kBarWidth - filled, '.'));
  }
  line += text;
  const size_t columns = terminal_columns();
  if (line.size() >= columns) line.resize(columns - 1);
  // `\r` back to the line's start; ESC [K erases what a longer earlier line left.
  fmt::print(err_, "\r{}\x1b[K", line);
  err_.flush();
  drawn_ = true;
  last_draw_ = Clock::now();
}

void Progress::erase() {
  if (!drawn_) return;
  fmt::print(err_, "\r\x1b[K");
  err_.flush();
  drawn_ = false;
}

void Progress::update(size_t done, std::string_view detail) {
  if (done < last_done_) return;  // a late report from another thread
  last_done_ = done;
  detail_ = detail;
  const bool last = total_ && done >= total_;
  if (terminal_) {
    if (last || Clock::now() - last_draw_ >= kRedrawInterval) draw(status(done, detail));
    return;
  }
  if (done >= next_line_at_ || last) {
    fmt::print(err_, "{}\n", status(done, detail));
    err_.flush();
    while (next_line_at_ <= done) next_line_at_ += line_every_;
  }
}

void Progress::print_line(std::ostream& results, std::string_view line) {
  const bool redraw = drawn_;
  erase();
  fmt::print(results, "{}\n", line);
  results.flush();
  if (redraw) draw(status(last_done_, detail_));
}

void Progress::finish() {
  if (!terminal_) return;
  draw(status(last_done_, detail_));
  fmt::print(err_, "\n");
  err_.flush();
  drawn_ = false;
}

}  // namespace avocet::cli
