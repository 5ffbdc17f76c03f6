// The UCI command loop: translates protocol lines into Engine calls and Engine reports into
// `info` / `bestmove` lines. The Engine holds all the state; the loop holds only the streams.
// Every problem is reported as one `info string error: ...` line (refused, nothing changed) or
// `info string ERROR: ...` (the engine plays on with less); the loop never throws and the state
// stays as it was before the bad line. Every `go` gets exactly one `bestmove`, a `go` with a bad
// parameter included (see on_go).
//
// Some lines must reach a log even where a GUI hides info strings (python-chess drops them
// during its handshake, so lichess-bot would report a misspelt option as "configuration OK"):
// every setoption error, and every `ERROR:` line when it happens, go to stdout and to stderr
// both.
//
// What the options set up (the net that plays, the Syzygy tables found) is reported in
// answer to `uci`, before `uciok`, or else before the next `go` searches: python-chess
// warns about any line other than `readyok` after its `isready`.
#pragma once

#include <iostream>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/engine/engine.h"
#include "avocet/uci/debug_log.h"

namespace avocet::nn {
class Network;
}  // namespace avocet::nn

namespace avocet::uci {

class UciLoop {
 public:
  // Plays with the default (embedded) network, or EvalFile; tests pass their own evaluator.
  // `err` receives the diagnostics that must reach a log even when a GUI hides info strings.
  explicit UciLoop(std::ostream& out, engine::EvaluatorFactory evaluator = nullptr,
                   std::string evaluator_name = "", std::ostream& err = std::cerr);
  ~UciLoop();

  // Handles one line; returns false after `quit`.
  bool handle_line(std::string_view line);
  // `setoption name <name> value <value>`, also for the `--Name=value` arguments. False when
  // the option was refused or its effect failed (the error line is printed); the engine then
  // keeps what it had, or plays on with the net it names.
  bool set_option(const std::string& name, const std::string& value);
  // Reads lines until `quit` or end of input, which acts as `quit` (as in Stockfish): a
  // running search stops and prints its bestmove, even one held by `infinite` or `ponder`.
  void run(std::istream& in);

  const Game& game() const { return engine_.game(); }
  const engine::Engine& engine() const { return engine_; }
  // Blocks until the current search has printed its bestmove (for tests).
  void wait_for_search() { engine_.wait(); }
  // An option's current value as UCI text; "" for an unknown name.
  std::string option(const std::string& name) const;

 private:
  void on_uci();
  void on_isready();
  void on_position(const std::vector<std::string_view>& words);
  void on_go(const std::vector<std::string_view>& words);
  void on_go_perft(const std::vector<std::string_view>& words);
  // Hands a checked request to the engine, with callbacks that print its info and bestmove.
  void start_search(const engine::GoRequest& request);
  void on_setoption(const std::vector<std::string_view>& words);
  void on_display();
  // Commands people type, as in Stockfish; they answer in plain lines on stdout.
  // `eval`: every legal move's value as the engine plays it (rules, tables, network).
  void on_eval();
  // `bench`: `avocet bench` with the playing net, on this thread (no other command is read
  // until it ends, as in Stockfish).
  void on_bench(const std::vector<std::string_view>& words);
  // `flip`: the colour-flipped position, without history (as Stockfish's flip).
  void on_flip();
  // `help`: the commands the loop understands.
  void on_help();
  // Prints what the engine set up and was not reported yet (Engine::take_reports); with
  // `name_net`, the playing net whether it was named before or not.
  void print_reports(bool name_net);
  // Loads the embedded net if none plays yet; false (and an error line) if it cannot.
  bool ensure_network();
  // A protocol line (or lines), whole, under the output lock.
  void print(const std::string& text);
  // Bad news, one line each (src/DESIGN.md#error-channels). Refused: `info string error: ...`,
  // the line was refused and nothing changed. Degraded: `info string ERROR: ...`, the engine
  // plays on with less than it was asked (another net, missing tables).
  // The message quotes what was sent and is made printable (cut to 240 characters); `kept`, what
  // the engine plays on with, follows it whole.
  enum class Problem { Refused, Degraded };
  static std::string problem_line(Problem problem, std::string_view message,
                                  std::string_view kept = {});
  // Prints problem_line on stdout and, with `log`, on stderr too: what must reach a log where a
  // GUI hides info strings (every setoption error, and each Degraded line when it happens).
  void report(Problem problem, std::string_view message, bool log, std::string_view kept = {});
  // A refused command: report(Refused, message, false).
  void error(std::string_view message);
  // `wdl_material`: the root's material for the WDL model, or nullopt without UCI_ShowWDL;
  // `chess960`: castling written as king takes rook.
  void print_info(const engine::SearchInfo& info, int multipv, std::optional<int> wdl_material,
                  bool chess960);

  std::ostream& out_;
  std::ostream& err_;
  std::mutex out_mutex_;
  DebugLog debug_log_;  // the Debug Log File option
  engine::Engine engine_;
};

// Splits a line on blanks (spaces, tabs, carriage returns).
std::vector<std::string_view> split_words(std::string_view line);

}  // namespace avocet::uci
