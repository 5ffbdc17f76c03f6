#include "avocet/uci/debug_log.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace avocet::uci {

void DebugLog::open(const std::string& path) {
  std::lock_guard lock(mutex_);
  if (path.empty()) {
    file_.close();
    return;
  }
  std::ofstream next(path, std::ios::app);
  if (!next)
    throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  file_ = std::move(next);
}

void DebugLog::write(std::string_view direction, std::string_view text) {
  std::lock_guard lock(mutex_);
  if (!file_.is_open()) return;
  const auto now =
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  const std::string stamp = fmt::format("{:%FT%T}Z", now);
  while (!text.empty()) {
    const size_t end = text.find('\n');
    file_ << stamp << ' ' << direction << ' ' << text.substr(0, end) << '\n';
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  file_.flush();
}

}  // namespace avocet::uci
