#include "avocet/uci/uci_loop.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <atomic>
#include <charconv>
#include <exception>
#include <string>
#include <utility>

#include "avocet/build_info.h"
#include "avocet/chess/flip.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/chess/perft.h"
#include "avocet/nn/default_net.h"
#include "avocet/search/bench.h"
#include "avocet/search/move_values.h"
#include "avocet/search/wdl_model.h"

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

// The parameters of `go`: a value left out before one of them is reported as missing, and the
// keyword is read as itself.
bool is_go_keyword(std::string_view word) {
  for (const char* keyword : {"wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth",
                              "nodes", "mate", "infinite", "ponder", "searchmoves"})
    if (word == keyword) return true;
  return false;
}

// How many iterations a `go` searches when a bad parameter left it no limit at all.
constexpr int kFallbackDepth = 1;

// Reads the integer after `words[i]` for `go`.
int go_integer(const std::vector<std::string_view>& words, size_t& i) {
  const std::string_view name = words[i];
  if (i + 1 >= words.size() || is_go_keyword(words[i + 1]))
    throw std::invalid_argument(fmt::format("go: {} needs a value", name));
  const std::string_view text = words[++i];
  long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < -(1L << 40) ||
      value > (1L << 40))
    throw std::invalid_argument(fmt::format("go: {} must be an integer, got '{}'", name, text));
  return int(std::clamp<long>(value, -2000000000L, 2000000000L));
}

}  // namespace

UciLoop::UciLoop(std::ostream& out, search::EvaluatorFactory evaluator, std::string evaluator_name,
                 std::ostream& err)
    : out_(out),
      err_(err),
      engine_(evaluator, evaluator_name),
      has_evaluator_(evaluator != nullptr),
      evaluator_factory_(evaluator) {}

UciLoop::~UciLoop() {
  engine_.stop();
  engine_.wait();
}

std::string UciLoop::option(const std::string& name) const {
  const OptionSpec* spec = find_option(name);
  return spec ? spec->read(settings_) : "";
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
}

void UciLoop::report_error_line(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line;
  out_.flush();
  err_ << line;
  err_.flush();
}

void UciLoop::error(std::string_view message) {
  print(fmt::format("info string error: {}\n", printable(message)));
}

void UciLoop::option_error(std::string_view message) {
  report_error_line(fmt::format("info string error: {}\n", printable(message)));
}

bool UciLoop::handle_line(std::string_view line) {
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
        game_ = Game();
      }
    } else if (command == "position")
      on_position(words);
    else if (command == "go")
      on_go(words);
    else if (command == "stop")
      engine_.stop();
    else if (command == "ponderhit")
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
    else if (command == "debug")
      ;  // `debug on|off`: accepted; Avocet has no extra debugging output to switch
    else
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
  ensure_evaluator();
  print_reports(true);
  print("uciok\n");
}

void UciLoop::print_reports(bool name_net) {
  std::string text;
  if (has_evaluator_ && (name_net || !net_reported_))
    text = fmt::format("info string net {}\n", engine_.evaluator_name());
  net_reported_ = net_reported_ || has_evaluator_;
  text += std::exchange(reports_, "");
  if (!text.empty()) print(text);
}

bool UciLoop::ensure_evaluator() {
  if (has_evaluator_) return true;
  try {
    use_network(nn::default_network(settings_.precision), std::string(kEmbeddedNet));
  } catch (const std::exception& e) {
    error(fmt::format("no network: {} (set EvalFile)", e.what()));
    return false;
  }
  return true;
}

void UciLoop::use_network(std::shared_ptr<const nn::Network> net, const std::string& file) {
  const std::string name = net->description();
  evaluator_factory_ = [net] { return nn::make_evaluator(net); };
  engine_.set_evaluator(evaluator_factory_, name);
  has_evaluator_ = true;
  net_file_ = file;
  net_reported_ = false;
}

std::string UciLoop::current_net() const {
  if (!has_evaluator_) return "no network";
  if (net_file_ == kEmbeddedNet) return "the embedded net " + engine_.evaluator_name();
  if (net_file_.empty()) return engine_.evaluator_name();
  return fmt::format("{} (from {})", engine_.evaluator_name(), net_file_);
}

void UciLoop::on_isready() {
  // The net loads here if `uci` did not load it, so that the first go does not wait for it.
  if (!engine_.searching()) ensure_evaluator();
  print("readyok\n");
}

void UciLoop::on_position(const std::vector<std::string_view>& words) {
  // position startpos|fen F1 .. F6 [moves m1 m2 ...]; applied whole or not at all, and a
  // refused one leaves no position to search until a valid one comes.
  has_position_ = false;
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
    if (!settings_.chess960 && !start.has_standard_castling())
      return error(fmt::format(
          "position: castling rights '{}' need Chess960 (a king or castling rook off its "
          "standard square): set UCI_Chess960 to true",
          split_words(start.fen())[2]));
  } else {
    return error(fmt::format("position: expected 'startpos' or 'fen', got '{}'", words[1]));
  }
  Game game(start);
  for (size_t i = moves_at + 1; i < words.size(); ++i)
    game.play(parse_uci(game.position(), words[i], settings_.chess960));
  game_ = std::move(game);
  has_position_ = true;
}

void UciLoop::on_go(const std::vector<std::string_view>& words) {
  if (words.size() >= 2 && words[1] == "perft") {
    int depth = 0;
    const std::string_view text = words.size() >= 3 ? words[2] : std::string_view();
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), depth);
    if (ec != std::errc() || end != text.data() + text.size() || depth < 1 || depth > 20)
      return error(fmt::format("go perft: depth must be an integer from 1 to 20, got '{}'", text));
    if (!has_position_) return error("go perft: no position (the last 'position' was refused)");
    std::lock_guard lock(out_mutex_);
    write_perft_report(out_, game_.position(), depth, settings_.chess960);
    return;
  }
  if (engine_.searching()) {
    // A GUI should wait for the bestmove first. Waiting for it here would keep `stop` and
    // `quit` from being read (an infinite search would never end), and refusing would leave
    // this go without a bestmove: so the running search is stopped, its bestmove answers the
    // earlier go, and this go starts afresh.
    error("go: a search was still running: stopped it, its move answers the previous go");
    engine_.stop();
    engine_.wait();
  }
  if (!has_position_) {
    error("go: no position (the last 'position' was refused): send a valid one");
    print("bestmove 0000\n");
    return;
  }

  // Every go must end in exactly one bestmove, or the GUI waits for ever. So a bad parameter
  // gets one error line (the first fault of the line is named) and is left out, and the
  // search goes on with what remains: an illegal or garbled searchmoves move is dropped (none
  // left: every legal move is searched); an unknown word or a bad value is skipped. If that
  // leaves no limit at all (no depth, nodes, mate, movetime, clock for the side to move,
  // infinite or ponder), the search stops after kFallbackDepth iterations, so that the GUI
  // gets a legal move at once rather than a search only `stop` would end.
  //
  // A clock for the opponent only (`go btime 5000` with White to move) is such a fault too:
  // the side to move has no time given, and a search without limit would wait for a `stop`
  // that a GUI which thinks the clock is running never sends. Stockfish reads the missing
  // clock as 0 ms and moves at once; here the move comes as fast, from kFallbackDepth
  // iterations, after an error line that names the missing clock.
  search::GoRequest request;
  std::string fault;
  const auto note = [&](std::string message) {
    if (fault.empty()) fault = std::move(message);
  };
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string_view w = words[i];
    try {
      if (w == "wtime")
        request.clock.wtime = go_integer(words, i);
      else if (w == "btime")
        request.clock.btime = go_integer(words, i);
      else if (w == "winc")
        request.clock.winc = go_integer(words, i);
      else if (w == "binc")
        request.clock.binc = go_integer(words, i);
      else if (w == "movestogo")
        request.clock.movestogo = go_integer(words, i);
      else if (w == "movetime")
        request.clock.movetime = go_integer(words, i);
      else if (w == "depth")
        request.depth = std::max(1, go_integer(words, i));
      else if (w == "nodes")
        request.nodes = uint64_t(std::max(1, go_integer(words, i)));
      else if (w == "mate")
        request.mate = std::max(1, go_integer(words, i));
      else if (w == "infinite")
        request.infinite = true;
      else if (w == "ponder")
        request.ponder = true;
      else if (w == "searchmoves") {
        while (i + 1 < words.size()) {
          const std::string_view text = words[i + 1];
          if (!parse_square(text.substr(0, 2)) || text.size() < 4) break;  // the next keyword
          ++i;
          try {
            request.searchmoves.push_back(parse_uci(game_.position(), text, settings_.chess960));
          } catch (const std::exception& e) {
            note(e.what());
          }
        }
      } else {
        note(fmt::format("go: unknown parameter '{}'", w));
      }
    } catch (const std::exception& e) {
      note(e.what());
    }
  }
  const search::TimeControl& c = request.clock;
  const bool white = game_.position().side_to_move() == Color::White;
  const bool has_clock = white ? c.wtime.has_value() : c.btime.has_value();
  const bool has_limit = request.depth || request.nodes || request.mate || c.movetime || has_clock;
  if (fault.empty() && !has_limit && !request.infinite &&
      (white ? c.btime.has_value() : c.wtime.has_value()))
    note(fmt::format("go: {} given but {} is to move and has no {}: moving at once",
                     white ? "btime" : "wtime", white ? "White" : "Black",
                     white ? "wtime" : "btime"));
  if (!fault.empty()) {
    error(fault);
    if (!has_limit && !request.infinite) request.depth = kFallbackDepth;
  }
  const bool playable = ensure_evaluator();
  print_reports(false);
  if (!playable) {
    print("bestmove (none)\n");
    return;
  }
  engine_.set_game(game_);
  const int multipv = settings_.engine.multipv;
  // The root's material, taken now: a `position` during the search must not change it.
  const std::optional<int> wdl_material =
      settings_.show_wdl ? std::optional(search::wdl_material(game_.position())) : std::nullopt;
  const bool chess960 = settings_.chess960;
  engine_.go(request, {[this, multipv, wdl_material, chess960](const search::SearchInfo& info) {
                         print_info(info, multipv, wdl_material, chess960);
                       },
                       [this, chess960](Move best, Move ponder) {
                         if (best.is_none()) return print("bestmove (none)\n");
                         std::string text = "bestmove " + to_uci(best, chess960);
                         if (!ponder.is_none()) text += " ponder " + to_uci(ponder, chess960);
                         print(text + "\n");
                       }});
}

void UciLoop::print_info(const search::SearchInfo& info, int multipv,
                         std::optional<int> wdl_material, bool chess960) {
  const search::IterationReport& r = info.report;
  multipv = std::min<int>(multipv, int(r.lines.size()));
  const long ms = long(info.seconds * 1000);
  const long nps = info.seconds > 0 ? long(double(r.nodes) / info.seconds) : 0;
  std::string text;
  for (int k = 0; k < multipv; ++k) {
    const search::RootLine& line = r.lines[k];
    // Tablebase wins score 20000 cp less one per ply to the tablebase position (losses the
    // mirror), below every mate.
    const bool tablebase = search::is_tablebase_value(line.value);
    std::string score;
    if (tablebase) {
      const int plies = search::tablebase_plies(line.value);
      score = fmt::format("cp {}", plies > 0 ? 20000 - plies : -20000 - plies);
    } else if (search::is_mate_value(line.value)) {
      score = fmt::format("mate {}", search::mate_in_moves(line.value));
    } else {
      score = fmt::format("cp {}", search::centipawns_from_win_probability(line.value));
    }
    if (wdl_material) {
      // The tables' result and a mate are certain; otherwise the expected score is split by
      // the WDL model fitted on game outcomes (search/wdl_model.h).
      const int known = line.tablebase_wdl ? *line.tablebase_wdl
                        : tablebase || search::is_mate_value(line.value)
                            ? (line.value > 0.5f ? 2 : -2)
                            : 3;
      search::WdlPerMille split;
      if (known != 3) {
        split.win = known == 2 ? 1000 : 0;
        split.loss = known == -2 ? 1000 : 0;
        split.draw = 1000 - split.win - split.loss;
      } else {
        split = search::wdl_from_value(line.value, *wdl_material);
      }
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
    return option_error("setoption: expected 'setoption name <name> [value <value>]'");
  set_option(join(words, 2, value_at), join(words, value_at + 1, words.size()));
}

void UciLoop::set_option(const std::string& name, const std::string& value) {
  const OptionSpec* spec = find_option(name);
  if (!spec) return option_error(fmt::format("setoption: unknown option '{}'", name));
  if (engine_.searching())
    return option_error(
        fmt::format("setoption {}: a search is running (send stop first)", spec->name));
  OptionValue valid;
  try {
    valid = validate(*spec, value);
  } catch (const std::invalid_argument& e) {
    return option_error(e.what());
  }
  apply_option(*spec, valid);
}

void UciLoop::apply_option(const OptionSpec& spec, const OptionValue& value) {
  // The new settings are kept only once their effect succeeded: a failure changes nothing.
  Settings next = settings_;
  spec.write(next, value);
  switch (spec.effect) {
    case OptionEffect::Loop:
      break;
    case OptionEffect::ClearHash:
      // What ucinewgame does to the engine; the loop's position stays.
      engine_.new_game();
      break;
    case OptionEffect::Network:
      if (!nn::precision_supported(next.precision))
        return option_error(fmt::format("setoption {}: {}; keeping {}", spec.name,
                                        nn::unsupported_reason(next.precision),
                                        spec.read(settings_)));
      if (!load_network(next.eval_file, next.precision)) return;
      break;
    case OptionEffect::Tablebases:
      next.engine.tablebases = open_tablebases(next.syzygy_path);
      engine_.set_options(next.engine);
      break;
    case OptionEffect::Engine:
      try {
        engine_.set_options(next.engine);
      } catch (const std::runtime_error& e) {
        return option_error(
            fmt::format("setoption {}: {}; keeping {}", spec.name, e.what(), spec.read(settings_)));
      }
      break;
  }
  settings_ = std::move(next);
}

bool UciLoop::load_network(const std::string& file, nn::Precision precision) {
  const bool embedded = file == kEmbeddedNet;
  std::shared_ptr<const nn::Network> net;
  try {
    net = embedded ? nn::default_network(precision) : nn::Network::load_file(file, precision);
  } catch (const std::exception& e) {
    // The engine plays on, with the net it has or else the embedded one (what the next go
    // would load): name it. GUIs tend to hide info strings, hence stderr as well.
    if (!has_evaluator_) {
      try {
        use_network(nn::default_network(settings_.precision), std::string(kEmbeddedNet));
      } catch (const std::exception&) {
      }
    }
    const std::string line = fmt::format("info string ERROR: EvalFile: {}; keeping {}\n",
                                         printable(e.what()), current_net());
    report_error_line(line);
    // And again before the next search, where a GUI's log shows the game: GUIs send their
    // options right after uciok, where the line is easily lost.
    reports_ += line;
    return false;
  }
  use_network(net, file);
  return true;
}

std::shared_ptr<const syzygy::Tablebases> UciLoop::open_tablebases(const std::string& path) {
  if (path == kNoTablebases) return nullptr;
  // Problems found while scanning are printed at once; those found later (a table that turns
  // out corrupt at its first probe) as they come, from the search thread.
  auto live = std::make_shared<std::atomic<bool>>(false);
  auto tables =
      std::make_shared<const syzygy::Tablebases>(path, [this, live](const std::string& message) {
        if (*live) report_error_line(fmt::format("info string ERROR: {}\n", printable(message)));
      });
  for (const std::string& message : tables->errors())
    report_error_line(fmt::format("info string ERROR: {}\n", printable(message)));
  reports_ +=
      fmt::format("info string found {} tables ({} WDL, {} DTZ) in {}\n", tables->table_count(),
                  tables->wdl_count(), tables->dtz_count(), printable(path));
  *live = true;
  return tables;
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
  print(fmt::format("{}Fen: {}\nKey: {:016X}\nCheckers: {}\n", board, pos.fen(), pos.key(),
                    checkers));
}

void UciLoop::on_eval() {
  // The network runs on this thread: not beside a search, which owns the engine's evaluators.
  if (engine_.searching()) return error("eval: a search is running (send stop first)");
  if (!ensure_evaluator()) return;
  print_reports(false);
  const search::EngineOptions& options = settings_.engine;
  const search::TablebaseSettings tables{options.tablebases.get(), options.syzygy_probe_limit,
                                         options.syzygy_50_move_rule};
  const std::unique_ptr<nn::Evaluator> evaluator = evaluator_factory_();
  print(search::move_values_report(engine_.evaluator_name(), game_, *evaluator, tables));
}

void UciLoop::on_bench(const std::vector<std::string_view>& words) {
  // The signature is defined for the bench's own depth and the engine's default options:
  // arguments (Stockfish's hash, threads, depth) would make a count that is no signature.
  if (words.size() > 1)
    return error(
        fmt::format("bench: takes no arguments, got '{}' ('avocet bench --depth D' "
                    "searches to another depth)",
                    words[1]));
  if (engine_.searching()) return error("bench: a search is running (send stop first)");
  if (!ensure_evaluator()) return;
  print_reports(false);
  print(fmt::format("net {}\n", engine_.evaluator_name()));
  const search::BenchResult result =
      search::run_bench(evaluator_factory_, engine_.evaluator_name(), search::kBenchDepth,
                        [this](const std::string& line) { print(line + "\n"); });
  print(search::bench_summary(result));
}

void UciLoop::on_flip() {
  if (engine_.searching()) return error("flip: a search is running (send stop first)");
  game_ = Game(Position::from_fen(color_flipped_fen(game_.position().fen())));
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
