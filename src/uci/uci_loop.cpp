#include "avocet/uci/uci_loop.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <atomic>
#include <charconv>
#include <exception>
#include <string>
#include <utility>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/chess/perft.h"
#include "avocet/nn/default_net.h"
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
      has_evaluator_(evaluator != nullptr) {}

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
  std::string text = fmt::format("id name Avocet {}\nid author the Avocet developers\n", kVersion);
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
    use_network(nn::default_network(), std::string(kEmbeddedNet));
  } catch (const std::exception& e) {
    error(fmt::format("no network: {} (set EvalFile)", e.what()));
    return false;
  }
  return true;
}

void UciLoop::use_network(std::shared_ptr<const nn::Network> net, const std::string& file) {
  const std::string name = net->description();
  engine_.set_evaluator([net] { return nn::make_evaluator(net); }, name);
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
  if (engine_.searching()) return error("go: a search is already running (send stop first)");
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
  if (!fault.empty()) {
    error(fault);
    const search::TimeControl& c = request.clock;
    const bool has_clock =
        game_.position().side_to_move() == Color::White ? c.wtime.has_value() : c.btime.has_value();
    if (!request.depth && !request.nodes && !request.mate && !c.movetime && !has_clock &&
        !request.infinite && !request.ponder)
      request.depth = kFallbackDepth;
  }
  const bool playable = ensure_evaluator();
  print_reports(false);
  if (!playable) {
    print("bestmove (none)\n");
    return;
  }
  engine_.set_game(game_);
  const int multipv = settings_.engine.multipv;
  const bool wdl = settings_.show_wdl;
  const bool chess960 = settings_.chess960;
  engine_.go(request, {[this, multipv, wdl, chess960](const search::SearchInfo& info) {
                         print_info(info, multipv, wdl, chess960);
                       },
                       [this, chess960](Move best, Move ponder) {
                         if (best.is_none()) return print("bestmove (none)\n");
                         std::string text = "bestmove " + to_uci(best, chess960);
                         if (!ponder.is_none()) text += " ponder " + to_uci(ponder, chess960);
                         print(text + "\n");
                       }});
}

void UciLoop::print_info(const search::SearchInfo& info, int multipv, bool wdl, bool chess960) {
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
    if (wdl) {
      // The tables' result is certain. The net predicts the expected score s = W + D/2 only:
      // W = s^2, L = (1-s)^2 is a simple split consistent with it.
      const int known = line.tablebase_wdl ? *line.tablebase_wdl
                        : tablebase        ? (line.value > 0.5f ? 2 : -2)
                                           : 3;
      if (known != 3) {
        const int w = known == 2 ? 1000 : 0, l = known == -2 ? 1000 : 0;
        score += fmt::format(" wdl {} {} {}", w, 1000 - w - l, l);
      } else {
        const double s = std::clamp(double(line.value), 0.0, 1.0);
        const int w = int(std::lround(1000 * s * s)),
                  l = int(std::lround(1000 * (1 - s) * (1 - s)));
        score += fmt::format(" wdl {} {} {}", w, 1000 - w - l, l);
      }
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
    case OptionEffect::Network:
      if (!load_network(next.eval_file)) return;
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

bool UciLoop::load_network(const std::string& file) {
  const bool embedded = file == kEmbeddedNet;
  std::shared_ptr<const nn::Network> net;
  try {
    net = embedded ? nn::default_network() : nn::Network::load_file(file);
  } catch (const std::exception& e) {
    // The engine plays on, with the net it has or else the embedded one (what the next go
    // would load): name it. GUIs tend to hide info strings, hence stderr as well.
    if (!has_evaluator_) {
      try {
        use_network(nn::default_network(), std::string(kEmbeddedNet));
      } catch (const std::exception&) {
      }
    }
    report_error_line(fmt::format("info string ERROR: EvalFile: {}; keeping {}\n",
                                  printable(e.what()), current_net()));
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

}  // namespace avocet::uci
