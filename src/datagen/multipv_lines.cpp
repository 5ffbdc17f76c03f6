#include "avocet/datagen/multipv_lines.h"

#include <algorithm>
#include <optional>
#include <sstream>

namespace avocet::datagen {

namespace {

struct ParsedInfo {
  int index = 0;
  MultiPvLine line;
};

// One `info ... multipv I ... score cp|mate V ... pv MOVE ...` line, or nothing.
std::optional<ParsedInfo> parse_info(const std::string& text) {
  if (text.rfind("info ", 0) != 0) return std::nullopt;
  std::istringstream words(text);
  ParsedInfo info;
  std::string word, kind;
  bool scored = false;
  while (words >> word) {
    if (word == "multipv") {
      words >> info.index;
    } else if (word == "score") {
      scored = bool(words >> kind >> info.line.value) && (kind == "cp" || kind == "mate");
      info.line.mate = kind == "mate";
    } else if (word == "pv") {
      if (!(words >> info.line.move)) return std::nullopt;
      break;
    }
  }
  if (info.index < 1 || !scored || info.line.move.empty()) return std::nullopt;
  return info;
}

}  // namespace

std::vector<MultiPvLine> final_multipv_lines(const std::vector<std::string>& output, int lines) {
  struct Seen {
    MultiPvLine line;
    size_t printed;  // its place in `output`: the later of two lines for one move wins
  };
  std::vector<std::optional<Seen>> last(size_t(std::max(lines, 0)));
  for (size_t i = 0; i < output.size(); ++i)
    if (const std::optional<ParsedInfo> info = parse_info(output[i]); info && info->index <= lines)
      last[size_t(info->index - 1)] = Seen{info->line, i};
  std::vector<MultiPvLine> result;
  for (const std::optional<Seen>& seen : last) {
    if (!seen) continue;
    const bool superseded =
        std::any_of(last.begin(), last.end(), [&](const std::optional<Seen>& other) {
          return other && other->line.move == seen->line.move && other->printed > seen->printed;
        });
    if (!superseded) result.push_back(seen->line);
  }
  return result;
}

}  // namespace avocet::datagen
