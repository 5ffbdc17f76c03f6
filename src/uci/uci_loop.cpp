#include "avocet/uci/uci_loop.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <exception>
#include <string>

#include "avocet/chess/move_text.h"
#include "avocet/chess/perft.h"
#include "avocet/version.h"

namespace avocet::uci {

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    size_t j = i;
    while (j < line.size() && !blank(line[j])) ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

namespace {

std::string join(const std::vector<std::string_view>& words, size_t begin, size_t end) {
  std::string text;
  for (size_t i = begin; i < end; ++i) {
    if (i > begin) text += ' ';
    text += words[i];
  }
  return text;
}

}  // namespace

UciLoop::UciLoop(std::ostream& out) : out_(out) {}

void UciLoop::run(std::istream& in) {
  std::string line;
  while (std::getline(in, line))
    if (!handle_line(line)) return;
}

bool UciLoop::handle_line(std::string_view line) {
  const std::vector<std::string_view> words = split_words(line);
  if (words.empty()) return true;
  const std::string_view command = words[0];
  try {
    if (command == "quit") return false;
    if (command == "uci")
      on_uci();
    else if (command == "isready")
      fmt::print(out_, "readyok\n");
    else if (command == "ucinewgame")
      game_ = Game();
    else if (command == "position")
      on_position(words);
    else if (command == "go")
      on_go(words);
    else if (command == "setoption")
      on_setoption(words);
    else if (command == "d")
      on_display();
    else if (command == "stop" || command == "ponderhit")
      ;  // Nothing is searching: nothing to stop.
    else
      error(fmt::format("unknown command '{}'", command));
  } catch (const std::exception& e) {
    error(e.what());
  }
  out_.flush();
  return true;
}

void UciLoop::on_uci() {
  fmt::print(out_, "id name Avocet {}\nid author the Avocet developers\nuciok\n", kVersion);
}

void UciLoop::on_position(const std::vector<std::string_view>& words) {
  // position startpos|fen F1 .. F6 [moves m1 m2 ...]; applied whole or not at all.
  size_t moves_at = words.size();
  for (size_t i = 1; i < words.size(); ++i)
    if (words[i] == "moves") moves_at = std::min(moves_at, i);
  if (words.size() < 2) return error("position needs 'startpos' or 'fen <FEN>'");

  Position start;
  if (words[1] == "startpos") {
    if (moves_at != 2 && moves_at != words.size())
      return error("position startpos: expected 'moves' after 'startpos'");
    if (moves_at == words.size() && words.size() > 2)
      return error(fmt::format("position startpos: unexpected '{}'", words[2]));
    start = Position::start();
  } else if (words[1] == "fen") {
    start = Position::from_fen(join(words, 2, moves_at));
  } else {
    return error(fmt::format("position: expected 'startpos' or 'fen', got '{}'", words[1]));
  }

  Game game(start);
  for (size_t i = moves_at + 1; i < words.size(); ++i)
    game.play(parse_uci(game.position(), words[i]));
  game_ = std::move(game);
}

void UciLoop::on_go(const std::vector<std::string_view>& words) {
  if (words.size() >= 2 && words[1] == "perft") {
    int depth = 0;
    const std::string_view text = words.size() >= 3 ? words[2] : std::string_view();
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), depth);
    if (ec != std::errc() || end != text.data() + text.size() || depth < 1 || depth > 20)
      return error(fmt::format("go perft: depth must be an integer from 1 to 20, got '{}'", text));
    write_perft_report(out_, game_.position(), depth);
    return;
  }
  error("go: this build has no network or search yet; only 'go perft N' is available");
}

void UciLoop::on_setoption(const std::vector<std::string_view>& words) {
  size_t value_at = words.size();
  for (size_t i = 2; i < words.size(); ++i)
    if (words[i] == "value") value_at = std::min(value_at, i);
  if (words.size() < 3 || words[1] != "name")
    return error("setoption: expected 'setoption name <name> [value <value>]'");
  error(fmt::format("setoption: unknown option '{}'", join(words, 2, value_at)));
}

void UciLoop::on_display() {
  const Position& pos = game_.position();
  std::string board = "\n +---+---+---+---+---+---+---+---+\n";
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f)
      board += fmt::format(" | {}", piece_char(pos.piece_on(make_square(File(f), Rank(r)))));
    board += fmt::format(" | {}\n +---+---+---+---+---+---+---+---+\n", r + 1);
  }
  board += "   a   b   c   d   e   f   g   h\n\n";
  std::string checkers;
  for (Square s : pos.checkers()) checkers += square_name(s) + " ";
  fmt::print(out_, "{}Fen: {}\nKey: {:016X}\nCheckers: {}\n", board, pos.fen(), pos.key(),
             checkers);
}

void UciLoop::error(std::string_view message) {
  fmt::print(out_, "info string error: {}\n", message);
}

}  // namespace avocet::uci
