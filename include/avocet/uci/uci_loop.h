// The UCI command loop: reads protocol lines, keeps the game the GUI set up, and answers on
// `out`. Every error is reported as one `info string error: ...` line; the loop never
// throws and the game state stays as it was before the bad line.
#pragma once

#include <istream>
#include <ostream>
#include <string_view>
#include <vector>

#include "avocet/chess/game.h"

namespace avocet::uci {

class UciLoop {
 public:
  explicit UciLoop(std::ostream& out);

  // Handles one line; returns false after `quit`.
  bool handle_line(std::string_view line);
  // Reads lines until `quit` or end of input.
  void run(std::istream& in);

  const Game& game() const { return game_; }

 private:
  void on_uci();
  void on_position(const std::vector<std::string_view>& words);
  void on_go(const std::vector<std::string_view>& words);
  void on_setoption(const std::vector<std::string_view>& words);
  void on_display();
  void error(std::string_view message);

  std::ostream& out_;
  Game game_;
};

// Splits a line on blanks (spaces, tabs, carriage returns).
std::vector<std::string_view> split_words(std::string_view line);

}  // namespace avocet::uci
