#include "avocet/suites/epd.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "avocet/chess/move_text.h"

namespace avocet::suites {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::string_view unquote(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t at = s.find(separator, start);
    const std::string_view part = trim(s.substr(start, at - start));
    if (!part.empty()) parts.push_back(part);
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

int parse_points(std::string_view text, std::string_view context) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument(fmt::format("bad points '{}' in {}", text, context));
  return value;
}

}  // namespace

EpdEntry parse_epd_line(std::string_view line) {
  line = trim(line);
  // The first four space-separated fields are the position.
  size_t at = 0;
  for (int field = 0; field < 4; ++field) {
    at = line.find_first_not_of(' ', at);
    at = at == std::string_view::npos ? at : line.find(' ', at);
    if (at == std::string_view::npos && field < 3)
      throw std::invalid_argument("EPD line has fewer than 4 position fields");
  }
  EpdEntry entry;
  try {
    entry.position = Position::from_fen(line.substr(0, at));
  } catch (const FenError& e) {
    throw std::invalid_argument(fmt::format("bad EPD position: {}", e.what()));
  }
  const Position& pos = entry.position;
  std::vector<std::string_view> c8, c9;
  for (std::string_view op : split(at == std::string_view::npos ? "" : line.substr(at), ';')) {
    const size_t space = op.find(' ');
    const std::string_view code = op.substr(0, space);
    const std::string_view arg = space == std::string_view::npos ? "" : trim(op.substr(space + 1));
    try {
      if (code == "bm" || code == "am") {
        for (std::string_view san : split(arg, ' '))
          (code == "bm" ? entry.best : entry.avoid).push_back(parse_san(pos, san));
      } else if (code == "id") {
        entry.id = std::string(unquote(arg));
      } else if (code == "c0") {
        for (std::string_view item : split(unquote(arg), ',')) {
          const size_t eq = item.find('=');
          if (eq == std::string_view::npos) continue;  // a plain comment
          entry.points.emplace_back(parse_san(pos, trim(item.substr(0, eq))),
                                    parse_points(trim(item.substr(eq + 1)), "c0"));
        }
      } else if (code == "c8") {
        c8 = split(unquote(arg), ' ');
      } else if (code == "c9") {
        c9 = split(unquote(arg), ' ');
      }
    } catch (const MoveError& e) {
      throw std::invalid_argument(fmt::format("{}: {}", code, e.what()));
    }
  }
  if (entry.points.empty() && !c8.empty()) {
    if (c8.size() != c9.size())
      throw std::invalid_argument("c8 and c9 list different numbers of moves");
    for (size_t i = 0; i < c8.size(); ++i) {
      try {
        entry.points.emplace_back(parse_uci(pos, c9[i]), parse_points(c8[i], "c8"));
      } catch (const MoveError& e) {
        throw std::invalid_argument(fmt::format("c9: {}", e.what()));
      }
    }
  }
  if (entry.best.empty() && entry.avoid.empty() && entry.points.empty())
    throw std::invalid_argument("EPD line has no bm, am or points");
  return entry;
}

int score_epd_move(const EpdEntry& entry, Move move) {
  if (!entry.points.empty()) {
    for (const auto& [m, p] : entry.points)
      if (m == move) return p;
    return 0;
  }
  const bool best_ok = entry.best.empty() ||
                       std::find(entry.best.begin(), entry.best.end(), move) != entry.best.end();
  const bool avoid_ok =
      std::find(entry.avoid.begin(), entry.avoid.end(), move) == entry.avoid.end();
  return best_ok && avoid_ok ? 1 : 0;
}

int max_epd_score(const EpdEntry& entry) {
  if (entry.points.empty()) return 1;
  int best = 0;
  for (const auto& [m, p] : entry.points) best = std::max(best, p);
  return best;
}

std::string expected_epd_moves(const EpdEntry& entry) {
  std::string text;
  const auto append = [&text](std::string_view word) {
    if (!text.empty()) text += ' ';
    text += word;
  };
  if (!entry.points.empty()) {
    std::vector<std::pair<Move, int>> points = entry.points;
    std::stable_sort(points.begin(), points.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [move, p] : points)
      append(fmt::format("{}={}", to_san(entry.position, move), p));
    return text;
  }
  for (const auto& [code, moves] : {std::pair{"bm", &entry.best}, std::pair{"am", &entry.avoid}}) {
    if (moves->empty()) continue;
    append(code);
    for (const Move m : *moves) append(to_san(entry.position, m));
  }
  return text;
}

std::string epd_category(std::string_view id) {
  id = trim(id);
  if (id.starts_with("STS(")) {
    const size_t close = id.find(')');
    if (close != std::string_view::npos) id = trim(id.substr(close + 1));
  }
  const size_t dot = id.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == id.size()) return "";
  const std::string_view number = id.substr(dot + 1);
  if (number.find_first_not_of("0123456789") != std::string_view::npos) return "";
  return std::string(trim(id.substr(0, dot)));
}

}  // namespace avocet::suites
