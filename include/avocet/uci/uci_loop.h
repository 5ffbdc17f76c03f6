// The UCI command loop: translates protocol lines into Engine calls and Engine reports into
// `info` / `bestmove` lines. Every error is reported as one `info string error: ...` line;
// the loop never throws and the state stays as it was before the bad line.
#pragma once

#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/search/engine.h"
#include "avocet/uci/options.h"

namespace avocet::nn {
class Network;
}  // namespace avocet::nn

namespace avocet::uci {

class UciLoop {
 public:
  // Plays with the default (embedded) network, or EvalFile; tests pass their own evaluator.
  explicit UciLoop(std::ostream& out, search::EvaluatorFactory evaluator = nullptr,
                   std::string evaluator_name = "");
  ~UciLoop();

  // Handles one line; returns false after `quit`.
  bool handle_line(std::string_view line);
  // Reads lines until `quit` or end of input (then waits for a running search to finish).
  void run(std::istream& in);

  const Game& game() const { return game_; }
  // Blocks until the current search has printed its bestmove (for tests).
  void wait_for_search() { engine_.wait(); }
  std::string option(const std::string& name) const;

 private:
  void on_uci();
  void on_isready();
  void on_position(const std::vector<std::string_view>& words);
  void on_go(const std::vector<std::string_view>& words);
  void on_setoption(const std::vector<std::string_view>& words);
  void on_display();
  void apply_option(const OptionSpec& spec, const std::string& value);
  bool ensure_evaluator();
  // Plays with `net` from the next `go` on (each search thread gets its own evaluator).
  void use_network(std::shared_ptr<const nn::Network> net);
  void print(const std::string& text);
  void error(std::string_view message);
  void print_info(const search::SearchInfo& info, int multipv, bool wdl);

  std::ostream& out_;
  std::mutex out_mutex_;
  std::vector<OptionSpec> specs_;
  std::map<std::string, std::string> values_;  // by the spec's name
  search::Engine engine_;
  bool has_evaluator_;
  bool announced_ = false;
  Game game_;
};

// Splits a line on blanks (spaces, tabs, carriage returns).
std::vector<std::string_view> split_words(std::string_view line);

}  // namespace avocet::uci
