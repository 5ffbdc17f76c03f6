#include "avocet/uci/uci_loop.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <atomic>
#include <charconv>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "avocet/build_info.h"
#include "avocet/chess/flip.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/chess/perft.h"
#include "avocet/engine/bench.h"
#include "avocet/engine/move_values.h"
#include "avocet/engine/options.h"
#include "avocet/uci/wdl_model.h"

namespace avocet::uci {

using engine::find_option;
using engine::option_specs;
using engine::OptionSpec;
using engine::OptionValue;

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
  for (size_t i = begin; i < end && i < words.size(); ++i) {
    if (i > begin) text += ' ';
    text += words[i];
  }
  return text;
}

// Error messages quote what they were sent; a GUI must still get one short printable line.
std::string printable(std::string_view text) {
  constexpr size_t kLimit = 240;
  std::string out;
  for (size_t i = 0; i < text.size() && i < kLimit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f)
      out += char(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  if (text.size() > kLimit) out += fmt::format("... ({} bytes)", text.size());
  return out;
}

// `option name ... type ... default ...` as `uci` declares an option (a button has no default).
std::string declaration(const OptionSpec& spec) {
  using engine::OptionType;
  std::string text = fmt::format("option name {} type {}", spec.name, engine::type_name(spec.type));
  if (spec.type != OptionType::Button)
    text += fmt::format(" default {}", engine::default_value(spec));
  if (spec.type == OptionType::Spin) text += fmt::format(" min {} max {}", spec.min, spec.max);
  for (std::string_view v : spec.vars) text += fmt::format(" var {}", v);
  return text;
}

// The parameters of `go`: a value left out before one of them is reported as missing, and the
// keyword is read as itself.
bool is_go_keyword(std::string_view word) {
  for (const char* keyword : {"wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth",
                              "nodes", "mate", "infinite", "ponder", "searchmoves"})
    if (word == keyword) return true;
  return false;
}

// What a command that needs the position says after a refused `position` (go, go perft, d,
// eval, flip alike): none of them may show or search the position before it.
std::string no_position(std::string_view command) {
  return fmt::format("{}: no position (the last 'position' was refused): send a valid one",
                     command);
}

// How many iterations a `go` searches when a bad parameter left it no limit at all.
constexpr int kFallbackIterations = 1;

// The largest value of each `go` limit: milliseconds, depth, mate and movestogo are ints;
// nodes count up to the largest signed 64-bit integer.
constexpr long long kMostGoValue = std::numeric_limits<int>::max();
constexpr long long kMostGoNodes = std::numeric_limits<long long>::max();

// Reads the integer after `words[i]` for `go` (i moves to it): nullopt when it has more digits
// than any limit takes. Throws std::invalid_argument when the value is missing or is not an
// integer (an optional '-' and digits).
std::optional<long long> go_integer(const std::vector<std::string_view>& words, size_t& i) {
  const std::string_view name = words[i];
  if (i + 1 >= words.size() || is_go_keyword(words[i + 1]))
    throw std::invalid_argument(fmt::format("go: {} needs a value", name));
  const std::string_view text = words[++i];
  const std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
    throw std::invalid_argument(fmt::format("go: {} must be an integer, got '{}'", name, text));
  long long value = 0;
  if (std::from_chars(text.data(), text.data() + text.size(), value).ec ==
      std::errc::result_out_of_range)
    return std::nullopt;
  return value;
}

// Whether a value go_integer read is below `least` (one with too many digits is below any
// range when negative, above it otherwise).
bool below_range(std::optional<long long> value, std::string_view text, long long least) {
  return value ? *value < least : text.starts_with('-');
}

// Every `go` limit is an integer from its least to its most value. One outside that range
// (below it, a limit that asks for no search at all; above it, more than the engine counts)
// is a fault named in one error line, and the limit is left out as if it were not given. The
// one exception is a clock run past zero (go_milliseconds).
void check_go_range(std::string_view name, std::string_view text, std::optional<long long> value,
                    long long least, long long most) {
  if (below_range(value, text, least))
    throw std::invalid_argument(
        fmt::format("go: {} must be at least {}, got {}: ignored", name, least, text));
  if (!value || *value > most)
    throw std::invalid_argument(
        fmt::format("go: {} must be at most {}, got {}: ignored", name, most, text));
}

// Reads a `go` limit from `least` to `most` (check_go_range).
long long go_limit(const std::vector<std::string_view>& words, size_t& i, long long least,
                   long long most) {
  const std::string_view name = words[i];
  const std::optional<long long> value = go_integer(words, i);
  check_go_range(name, words[i], value, least, most);
  return *value;
}

// Reads a clock or increment, from 0 to kMostGoValue milliseconds, except that a negative one
// (a GUI's clock run past zero) is read as 0 after an error line, so the engine moves at once
// rather than not at all.
int go_milliseconds(const std::vector<std::string_view>& words, size_t& i, std::string& fault) {
  const std::string_view name = words[i];
  const std::optional<long long> value = go_integer(words, i);
  const std::string_view text = words[i];
  if (below_range(value, text, 0)) {
    if (fault.empty()) fault = fmt::format("go: {} {} is negative: read as 0", name, text);
    return 0;
  }
  check_go_range(name, text, value, 0, kMostGoValue);
  return int(*value);
}

}  // namespace

UciLoop::UciLoop(std::ostream& out, engine::EvaluatorFactory evaluator, std::string evaluator_name,
                 std::ostream& err)
    : out_(out),
      err_(err),
      engine_(std::move(evaluator), std::move(evaluator_name), [this](const std::string& message) {
        report(Problem::Degraded, message, /*log=*/true);
      }) {}

UciLoop::~UciLoop() {
  engine_.stop();
  engine_.wait();
}

std::string UciLoop::option(const std::string& name) const {
  const OptionSpec* spec = find_option(name);
  return spec ? spec->read(engine_.settings()) : "";
}

void UciLoop::run(std::istream& in) {
  // std::cin is tied to std::cout: every read would flush std::cout from this thread, past
  // out_mutex_, racing the search thread's bestmove (seen as duplicated bestmove lines under
  // cutechess-cli). print() flushes every line itself.
  in.tie(nullptr);
  std::string line;
  while (std::getline(in, line))
    if (!handle_line(line)) return;
  // End of input is `quit`: whoever wrote to us is gone, and a search held by `infinite` or
  // `ponder` would wait for a stop that never comes. The search stops and prints its move.
  handle_line("quit");
}

void UciLoop::print(const std::string& text) {
  std::lock_guard lock(out_mutex_);
  out_ << text;
  out_.flush();
  debug_log_.write("<<", text);
}

std::string UciLoop::problem_line(Problem problem, std::string_view message,
                                  std::string_view kept) {
  return fmt::format("info string {}: {}{}\n", problem == Problem::Refused ? "error" : "ERROR",
                     printable(message), kept);
}

void UciLoop::report(Problem problem, std::string_view message, bool log, std::string_view kept) {
  const std::string line = problem_line(problem, message, kept);
  std::lock_guard lock(out_mutex_);
  out_ << line;
  out_.flush();
  debug_log_.write("<<", line);
  if (log) {
    err_ << line;
    err_.flush();
  }
}

void UciLoop::error(std::string_view message) { report(Problem::Refused, message, false); }

bool UciLoop::handle_line(std::string_view line) {
  debug_log_.write(">>", line);
  const std::vector<std::string_view> words = split_words(line);
  if (words.empty()) return true;
  const std::string_view command = words[0];
  try {
    if (command == "quit") {
      engine_.stop();
      engine_.wait();
      return false;
    }
    if (command == "uci")
      on_uci();
    else if (command == "isready")
      on_isready();
    else if (command == "ucinewgame") {
      if (engine_.searching()) {
        error("ucinewgame: a search is running (send stop first)");
      } else {
        engine_.new_game();
      }
    } else if (command == "position")
      on_position(words);
    else if (command == "go")
      on_go(words);
    else if (command == "stop") {
      // Every command after stop acts as if the search had ended, as in Stockfish: a GUI
      // changing MultiPV sends stop, setoption and go at once. The search ends within a
      // playout, and its bestmove is printed before the next command is read.
      engine_.stop();
      engine_.wait();
    } else if (command == "ponderhit")
      engine_.ponderhit();
    else if (command == "setoption")
      on_setoption(words);
    else if (command == "d")
      on_display();
    else if (command == "eval")
      on_eval();
    else if (command == "bench")
      on_bench(words);
    else if (command == "flip")
      on_flip();
    else if (command == "compiler")
      print(build_report());
    else if (command == "help")
      on_help();
    else if (command == "debug") {
      // `debug on|off`: accepted; Avocet has no extra debugging output to switch.
      if (words.size() != 2 || (words[1] != "on" && words[1] != "off"))
        error(fmt::format("debug: expected 'on' or 'off', got '{}'",
                          words.size() > 1 ? line.substr(size_t(words[1].data() - line.data()))
                                           : std::string_view()));
    } else
      error(fmt::format("unknown command '{}'", command));
  } catch (const std::exception& e) {
    error(e.what());
  }
  return true;
}

void UciLoop::on_uci() {
  std::string text = fmt::format("id name Avocet {}\nid author the Avocet developers\n", version());
  for (const OptionSpec& spec : option_specs()) text += declaration(spec) + "\n";
  print(text);
  ensure_network();
  print_reports(true);
  print("uciok\n");
}

void UciLoop::print_reports(bool name_net) {
  const engine::EngineReports reports = engine_.take_reports(name_net);
  std::string text;
  for (const std::string& line : reports.lines)
    text += fmt::format("info string {}\n", printable(line));
  // A net that did not load, repeated until a search: GUIs send options right after `uciok`.
  if (const auto& failure = reports.net_failure)
    text += problem_line(Problem::Degraded, "EvalFile: " + failure->reason(),
                         "; keeping " + failure->kept());
  if (!text.empty()) print(text);
}

bool UciLoop::ensure_network() {
  try {
    engine_.ensure_network();
  } catch (const std::exception& e) {
    error(e.what());
    return false;
  }
  return true;
}

void UciLoop::on_isready() {
  // The net loads and the table is allocated here, so that the first go does not wait for
  // them on its own clock (Stockfish likewise does such work before readyok).
  if (!engine_.searching()) {
    try {
      engine_.prepare();
    } catch (const std::exception& e) {
      error(e.what());
    }
  }
  print("readyok\n");
}

void UciLoop::on_position(const std::vector<std::string_view>& words) {
  // position startpos|fen F1 .. F6 [moves m1 m2 ...]; applied whole or not at all, and a
  // refused one leaves no position to search until a valid one comes.
  engine_.refuse_position();
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
    // Standard move text cannot name every Chess960 castling (b1c1 is also a king step).
    // The refusal quotes the castling field as the FEN wrote it (HFhf), not as fen() would
    // write it back (KQkq): the user must recognise it. from_fen has checked the fields.
    if (!engine_.settings().protocol.chess960 && !start.has_standard_castling())
      return error(fmt::format(
          "position: castling rights '{}' need Chess960 (a king or castling rook off its "
          "standard square): set UCI_Chess960 to true",
          words[4]));
  } else {
    return error(fmt::format("position: expected 'startpos' or 'fen', got '{}'", words[1]));
  }
  Game game(start);
  for (size_t i = moves_at + 1; i < words.size(); ++i)
    game.play(parse_uci(game.position(), words[i], engine_.settings().protocol.chess960));
  engine_.set_game(std::move(game));
}

void UciLoop::on_go_perft(const std::vector<std::string_view>& words) {
  int depth = 0;
  const std::string_view text = words.size() >= 3 ? words[2] : std::string_view();
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), depth);
  if (ec != std::errc() || end != text.data() + text.size() || depth < 1 || depth > 20)
    return error(fmt::format("go perft: depth must be an integer from 1 to 20, got '{}'", text));
  if (!engine_.has_position()) return error(no_position("go perft"));
  std::lock_guard lock(out_mutex_);
  write_perft_report(out_, engine_.game().position(), depth, engine_.settings().protocol.chess960);
}

namespace {

// The parameters of a `go` line and the first fault found in it ("" for none).
struct ParsedGo {
  engine::GoRequest request;
  std::string fault;
};

// Reads the words after `go`. A bad parameter is noted (the first fault of the line) and left
// out: an illegal or garbled searchmoves move is dropped, an unknown word or a bad value is
// skipped.
ParsedGo parse_go(const std::vector<std::string_view>& words, const Position& pos, bool chess960) {
  ParsedGo parsed;
  engine::GoRequest& request = parsed.request;
  const auto note = [&](std::string message) {
    if (parsed.fault.empty()) parsed.fault = std::move(message);
  };
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view w = words[i];
    try {
      if (w == "wtime")
        request.clock.wtime = go_milliseconds(words, i, parsed.fault);
      else if (w == "btime")
        request.clock.btime = go_milliseconds(words, i, parsed.fault);
      else if (w == "winc")
        request.clock.winc = go_milliseconds(words, i, parsed.fault);
      else if (w == "binc")
        request.clock.binc = go_milliseconds(words, i, parsed.fault);
      else if (w == "movestogo")
        request.clock.movestogo = int(go_limit(words, i, 1, kMostGoValue));
      else if (w == "movetime")
        request.clock.movetime = int(go_limit(words, i, 1, kMostGoValue));
      else if (w == "depth")
        request.depth = int(go_limit(words, i, 1, kMostGoValue));
      else if (w == "nodes")
        request.nodes = uint64_t(go_limit(words, i, 1, kMostGoNodes));
      else if (w == "mate")
        request.mate = int(go_limit(words, i, 1, kMostGoValue));
      else if (w == "infinite")
        request.infinite = true;
      else if (w == "ponder")
        request.ponder = true;
      else if (w == "searchmoves") {
        // Every word up to the next keyword is a move; one that is not a legal move here is
        // named and dropped.
        while (i + 1 < words.size() && !is_go_keyword(words[i + 1])) {
          const std::string_view text = words[++i];
          try {
            request.searchmoves.push_back(parse_uci(pos, text, chess960));
          } catch (const std::exception& e) {
            note(fmt::format("go searchmoves: {}", e.what()));
          }
        }
      } else {
        note(fmt::format("go: unknown parameter '{}'", w));
      }
    } catch (const std::exception& e) {
      note(e.what());
    }
  }
  return parsed;
}

}  // namespace

void UciLoop::on_go(const std::vector<std::string_view>& words) {
  if (words.size() >= 2 && words[1] == "perft") return on_go_perft(words);
  if (engine_.searching()) {
    // A GUI should wait for the bestmove first. Waiting for it here would keep `stop` and
    // `quit` from being read (an infinite search would never end), and refusing would leave
    // this go without a bestmove: so the running search is stopped, its bestmove answers the
    // earlier go, and this go starts afresh.
    error("go: a search was still running: stopped it, its move answers the previous go");
    engine_.stop();
    engine_.wait();
  }
  if (!engine_.has_position()) {
    error(no_position("go"));
    print("bestmove 0000\n");
    return;
  }

  // Every go must end in exactly one bestmove, or the GUI waits for ever. So a bad parameter
  // gets one error line and the search goes on with what remains (parse_go). If that leaves
  // no limit at all (no depth, nodes, mate, movetime, clock for the side to move, infinite or
  // ponder), the search stops after kFallbackIterations iterations, so that the GUI gets a legal
  // move at once rather than a search only `stop` would end.
  //
  // A clock for the opponent only (`go btime 5000` with White to move) is such a fault too:
  // the side to move has no time given, and a search without limit would wait for a `stop`
  // that a GUI which thinks the clock is running never sends. Stockfish reads the missing
  // clock as 0 ms and moves at once; here the move comes as fast, from kFallbackIterations
  // iterations, after an error line that names the missing clock.
  const engine::Settings& settings = engine_.settings();
  const Position& pos = engine_.game().position();
  ParsedGo parsed = parse_go(words, pos, settings.protocol.chess960);
  engine::GoRequest& request = parsed.request;
  const search::TimeControl& c = request.clock;
  const bool white = pos.side_to_move() == Color::White;
  const bool has_clock = white ? c.wtime.has_value() : c.btime.has_value();
  const bool has_limit = request.depth || request.nodes || request.mate || c.movetime || has_clock;
  // Clock words without the side to move's own clock leave it without a limit; the first of
  // them names the fault: the opponent's clock, an increment or movestogo.
  std::string_view clock_word;
  for (const auto& [word, given] :
       {std::pair{white ? "btime" : "wtime", (white ? c.btime : c.wtime).has_value()},
        std::pair{"winc", c.winc.has_value()}, std::pair{"binc", c.binc.has_value()},
        std::pair{"movestogo", c.movestogo.has_value()}})
    if (given && clock_word.empty()) clock_word = word;
  if (parsed.fault.empty() && !has_limit && !request.infinite && !clock_word.empty())
    parsed.fault = fmt::format("go: {} given but {} is to move and has no {}: moving at once",
                               clock_word, white ? "White" : "Black", white ? "wtime" : "btime");
  if (!parsed.fault.empty()) {
    error(parsed.fault);
    if (!has_limit && !request.infinite) request.iterations = kFallbackIterations;
  }
  const bool playable = ensure_network();
  print_reports(false);
  if (!playable) {
    print("bestmove (none)\n");
    return;
  }
  start_search(request);
}

namespace {

// VerboseMoveStats, as lc0 names it: one `info string` per root move, best first, with what
// the net said before the search (its value of the move as a win probability, and pi, the
// move's share of the root's attention) beside what the search made of it. Argmax mode has
// no pi: it plays the net's values as they are.
std::string verbose_move_stats(const search::IterationReport& report, bool chess960,
                               bool with_prior) {
  std::string text;
  for (const search::RootLine& line : report.lines) {
    const search::UciScore searched = search::uci_score(line.value);
    text += fmt::format("info string {:<5} net {:5.1f}%", to_uci(line.move, chess960),
                        100.0 * line.net_value);
    if (with_prior) text += fmt::format(" pi {:5.1f}%", 100.0 * line.prior);
    text += fmt::format(" searched {} {}\n", searched.mate ? "mate" : "cp", searched.amount);
  }
  return text;
}

// A line between iterations: where the search is (currmove after kCurrmoveAfter) and how far.
std::string progress_line(const engine::ProgressInfo& info, bool chess960) {
  std::string text = "info";
  if (info.show_currmove)
    text += fmt::format(" currmove {} currmovenumber {}", to_uci(info.progress.currmove, chess960),
                        info.progress.currmovenumber);
  const long ms = long(info.seconds * 1000);
  const long nps = ms > 0 ? long(double(info.progress.nodes) * 1000 / double(ms)) : 0;
  return text + fmt::format(" nodes {} nps {} time {} hashfull {}\n", info.progress.nodes, nps, ms,
                            info.hashfull);
}

}  // namespace

void UciLoop::start_search(const engine::GoRequest& request) {
  const engine::Settings& settings = engine_.settings();
  const int multipv = settings.engine.multipv;
  // The root's material, taken now: a `position` during the search must not change it.
  const std::optional<int> wdl_material =
      settings.protocol.show_wdl ? std::optional(uci::wdl_material(engine_.game().position()))
                                 : std::nullopt;
  const bool chess960 = settings.protocol.chess960;
  engine::EngineCallbacks callbacks;
  callbacks.on_info = [this, multipv, wdl_material, chess960](const engine::SearchInfo& info) {
    print_info(info, multipv, wdl_material, chess960);
  };
  callbacks.on_bestmove = [this, chess960](Move best, Move ponder) {
    if (best.is_none()) return print("bestmove (none)\n");
    std::string text = "bestmove " + to_uci(best, chess960);
    if (!ponder.is_none()) text += " ponder " + to_uci(ponder, chess960);
    print(text + "\n");
  };
  callbacks.on_progress = [this, chess960](const engine::ProgressInfo& info) {
    print(progress_line(info, chess960));
  };
  // No legal move: the search has no line to report, and Stockfish's single line comes first,
  // the score of the game's end (the side to move mated, or stalemate) at depth 0.
  if (!has_legal_move(engine_.game().position()))
    print(engine_.game().position().in_check() ? "info depth 0 score mate 0\n"
                                               : "info depth 0 score cp 0\n");
  if (settings.protocol.verbose_move_stats) {
    const bool with_prior = settings.engine.params.mode != search::SearchMode::Argmax;
    callbacks.on_root_moves = [this, chess960, with_prior](const search::IterationReport& r) {
      print(verbose_move_stats(r, chess960, with_prior));
    };
  }
  engine_.go(request, std::move(callbacks));
}

void UciLoop::print_info(const engine::SearchInfo& info, int multipv,
                         std::optional<int> wdl_material, bool chess960) {
  const search::IterationReport& r = info.report;
  multipv = std::min<int>(multipv, int(r.lines.size()));
  const long ms = long(info.seconds * 1000);
  // Per whole millisecond, as `time` shows it: an answer from the table takes under one, and
  // its nodes over a fraction of a millisecond made nps in the hundreds of thousands.
  const long nps = ms > 0 ? long(double(r.nodes) * 1000 / double(ms)) : 0;
  std::string text;
  for (int k = 0; k < multipv; ++k) {
    const search::RootLine& line = r.lines[k];
    const search::UciScore uci = search::uci_score(line.value);
    std::string score = fmt::format("{} {}", uci.mate ? "mate" : "cp", uci.amount);
    if (wdl_material) {
      // The tables' result and a mate are certain; otherwise the expected score is split by
      // the WDL model fitted on game outcomes (uci/wdl_model.h).
      const search::WdlPerMille split =
          search::exact_wdl(line.value, line.tablebase_wdl, line.proven)
              .value_or(wdl_from_value(line.value, *wdl_material));
      score += fmt::format(" wdl {} {} {}", split.win, split.draw, split.loss);
    }
    std::string pv;
    for (Move m : line.pv) {
      pv += ' ';  // two appends: gcc 12's -Wrestrict misfires on " " + std::string
      pv += to_uci(m, chess960);
    }
    text += fmt::format(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} "
        "hashfull {} tbhits {} pv{}\n",
        std::max(1, r.depth), std::max(1, r.seldepth), k + 1, score, r.nodes, nps, ms,
        info.hashfull, r.tbhits, pv);
  }
  print(text);
}

void UciLoop::on_setoption(const std::vector<std::string_view>& words) {
  size_t value_at = words.size();
  for (size_t i = 2; i < words.size(); ++i)
    if (words[i] == "value") value_at = std::min(value_at, i);
  if (words.size() < 3 || words[1] != "name")
    return report(Problem::Refused, "setoption: expected 'setoption name <name> [value <value>]'",
                  /*log=*/true);
  set_option(join(words, 2, value_at), join(words, value_at + 1, words.size()));
}

bool UciLoop::set_option(const std::string& name, const std::string& value) {
  const OptionSpec* spec = find_option(name);
  if (!spec) {
    report(Problem::Refused, fmt::format("setoption: unknown option '{}'", name), /*log=*/true);
    return false;
  }
  if (engine_.searching()) {
    report(Problem::Refused,
           fmt::format("setoption {}: a search is running (send stop first)", spec->name),
           /*log=*/true);
    return false;
  }
  OptionValue valid;
  try {
    valid = engine::validate(*spec, value);
  } catch (const std::invalid_argument& e) {
    report(Problem::Refused, e.what(), /*log=*/true);
    return false;
  }
  // The effect takes whole or not at all: a failure says what is kept.
  const std::string before = spec->read(engine_.settings());
  try {
    engine::set_option(engine_, *spec, valid);
    if (spec->name == "Debug Log File") {
      try {
        debug_log_.open(valid.text);
      } catch (const std::exception&) {
        engine::set_option(engine_, *spec, engine::validate(*spec, before));
        throw;
      }
    }
    return true;
  } catch (const engine::NetworkLoadError& e) {
    // The engine plays on with the net it had, which the line names.
    report(Problem::Degraded, "EvalFile: " + e.reason(), /*log=*/true, "; keeping " + e.kept());
  } catch (const std::exception& e) {
    report(Problem::Refused,
           fmt::format("setoption {}: {}; keeping {}", spec->name, e.what(), before),
           /*log=*/true);
  }
  return false;
}

void UciLoop::on_display() {
  if (!engine_.has_position()) return error(no_position("d"));
  const Position& pos = engine_.game().position();
  std::string board = "\n +---+---+---+---+---+---+---+---+\n";
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f)
      board += fmt::format(" | {}", piece_char(pos.piece_on(make_square(File(f), Rank(r)))));
    board += fmt::format(" | {}\n +---+---+---+---+---+---+---+---+\n", r + 1);
  }
  board += "   a   b   c   d   e   f   g   h\n\n";
  std::string checkers;
  for (Square s : pos.checkers()) checkers += square_name(s) + " ";
  print(fmt::format("{}Fen: {}\nKey: {:016X}\nCheckers: {}\n", board, pos.fen(), pos.key(),
                    checkers));
}

void UciLoop::on_eval() {
  if (engine_.searching()) return error("eval: a search is running (send stop first)");
  if (!engine_.has_position()) return error(no_position("eval"));
  if (!ensure_network()) return;
  print_reports(false);
  print(engine_.move_values_report());
}

void UciLoop::on_bench(const std::vector<std::string_view>& words) {
  // The signature is defined for the bench's own iterations and the engine's default options:
  // arguments (Stockfish's hash, threads, depth) would make a count that is no signature.
  if (words.size() > 1)
    return error(
        fmt::format("bench: takes no arguments, got '{}' ('avocet bench --iterations I' "
                    "searches for another count)",
                    words[1]));
  if (engine_.searching()) return error("bench: a search is running (send stop first)");
  if (!ensure_network()) return;
  print_reports(false);
  print(fmt::format("net {}\n", engine_.evaluator_name()));
  const engine::BenchResult result = engine::run_bench(
      engine_.evaluator_factory(), engine_.evaluator_name(), engine::kBenchIterations,
      [this](const std::string& line) { print(line + "\n"); });
  print(engine::bench_summary(result));
}

void UciLoop::on_flip() {
  if (engine_.searching()) return error("flip: a search is running (send stop first)");
  if (!engine_.has_position()) return error(no_position("flip"));
  engine_.set_game(Game(Position::from_fen(color_flipped_fen(engine_.game().position().fen()))));
}

void UciLoop::on_help() {
  constexpr std::pair<const char*, const char*> kCommands[] = {
      {"uci", "identify, list the options, answer uciok"},
      {"isready", "answer readyok (at once, also during a search)"},
      {"setoption name N [value V]", "set an option ('uci' lists them)"},
      {"ucinewgame", "forget the previous game's searches"},
      {"position startpos|fen FEN [moves M...]", "set the position"},
      {"go depth D|nodes N|movetime MS|mate N", "search; answers bestmove"},
      {"go wtime MS btime MS [winc MS binc MS movestogo N]", "search on the clock"},
      {"go infinite|ponder [searchmoves M...]", "search until stop (or ponderhit)"},
      {"stop", "end the search: bestmove now"},
      {"ponderhit", "the opponent played the expected move: the clock runs"},
      {"quit", "exit (end of input does the same)"},
      {"d", "the board, FEN and key"},
      {"eval", "every legal move's value, best first"},
      {"flip", "swap the colours of the position"},
      {"go perft D", "count the leaf nodes to depth D"},
      {"bench", "the fixed search and its node signature"},
      {"compiler", "version, commit, compiler and instruction sets"},
      {"help", "this list"},
  };
  constexpr size_t kColumn = 27;
  std::string text = "UCI commands (a GUI sends them; from d on, they are for people):\n";
  for (const auto& [command, meaning] : kCommands) {
    // A command too long for the first column keeps its line; its meaning goes below it.
    if (std::string_view(command).size() > kColumn)
      text += fmt::format("  {}\n  {:<{}}  {}\n", command, "", kColumn, meaning);
    else
      text += fmt::format("  {:<{}}  {}\n", command, kColumn, meaning);
  }
  print(text);
}

}  // namespace avocet::uci
