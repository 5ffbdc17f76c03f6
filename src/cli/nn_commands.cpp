// Subcommands that show the network's view of a position: tokens, actions, move values.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/chess/tactical_features.h"
#include "avocet/engine/move_values.h"
#include "avocet/engine/options.h"
#include "avocet/nn/action_table.h"
#include "avocet/nn/default_net.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/tokenizer.h"
#include "avocet/syzygy/tablebase.h"
#include "commands.h"

namespace avocet::cli {

namespace {

std::string required_fen(const cxxopts::ParseResult& parsed, const char* command) {
  if (!parsed.count("fen"))
    throw cxxopts::exceptions::exception(fmt::format("{} needs a FEN", command));
  const std::string fen =
      fmt::format("{}", fmt::join(parsed["fen"].as<std::vector<std::string>>(), " "));
  return fen_or_startpos(fen);
}

}  // namespace

int tokenize_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet tokenize", "Print the 77 network input tokens of a FEN.");
  options.positional_help("FEN");
  auto add = options.add_options();
  add("fen", "position (quote it, or give its fields as separate words)",
      cxxopts::value<std::vector<std::string>>());
  add("mirror", "flip Black-to-move positions as mirrored networks see them");
  add("h,help", "print this help");
  options.parse_positional({"fen"});
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  const Position pos = Position::from_fen(required_fen(parsed, "tokenize"));
  const nn::Tokens tokens = nn::tokenize(pos, parsed.count("mirror") > 0);
  fmt::print(io.out, "{}\n", fmt::join(tokens, " "));
  return 0;
}

int features_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet features",
                           "Print the tactical features of a position and of its legal moves, "
                           "as the house network's feature groups see them.");
  options.positional_help("FEN");
  auto add = options.add_options();
  add("fen", "position (quote it, or give its fields as separate words; 'startpos' works)",
      cxxopts::value<std::vector<std::string>>());
  add("json", "one JSON object: squares in token order (a8 ... h1), moves by UCI text");
  add("h,help", "print this help");
  options.parse_positional({"fen"});
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  const Position pos = Position::from_fen(required_fen(parsed, "features"));
  const auto squares = square_features(pos);
  const MoveList moves = legal_moves(pos);
  if (parsed.count("json")) {
    std::vector<std::string> rows, entries;
    for (int t = 1; t <= 64; ++t) {
      const Square s = nn::token_square(t);
      rows.push_back(fmt::format("[{}]", fmt::join(squares[size_t(index(s))], ",")));
    }
    for (Move m : moves)
      entries.push_back(
          fmt::format("\"{}\":[{}]", to_uci(m), fmt::join(move_features(pos, m), ",")));
    fmt::print(io.out, "{{\"fen\":\"{}\",\"squares\":[{}],\"moves\":{{{}}}}}\n", pos.fen(),
               fmt::join(rows, ","), fmt::join(entries, ","));
    return 0;
  }
  fmt::print(io.out, "fen: {}\nsquare  piece", pos.fen());
  for (const FeatureGroup& g : kSquareFeatureGroups) fmt::print(io.out, " {}", g.name);
  fmt::print(io.out, "\n");
  for (int t = 1; t <= 64; ++t) {
    const Square s = nn::token_square(t);
    const Piece p = pos.piece_on(s);
    fmt::print(io.out, "{:<7} {:<5} {}\n", square_name(s), p == Piece::None ? '.' : piece_char(p),
               fmt::join(squares[size_t(index(s))], " "));
  }
  fmt::print(io.out, "move   san    ");
  for (const FeatureGroup& g : kMoveFeatureGroups) fmt::print(io.out, " {}", g.name);
  fmt::print(io.out, "\n");
  for (Move m : moves)
    fmt::print(io.out, "{:<6} {:<7} {}\n", to_uci(m), to_san(pos, m),
               fmt::join(move_features(pos, m), " "));
  return 0;
}

int actions_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet actions", "Print ChessBench's action table: index move.");
  options.add_options()("h,help", "print this help");
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  for (int i = 0; i < nn::kActionCount; ++i) fmt::print(io.out, "{} {}\n", i, nn::action_uci(i));
  return 0;
}

int eval_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet eval",
                           "Print every legal move with its value as the engine plays it, best "
                           "first: the rules' for a move that mates (1) or draws (0.5), the "
                           "Syzygy tables' where they cover the position (with --SyzygyPath), "
                           "else the network's win probability; and the network's own value "
                           "beside it.");
  options.positional_help("FEN");
  auto add = options.add_options();
  add("fen", "position (quote it, or give its fields as separate words; 'startpos' works)",
      cxxopts::value<std::vector<std::string>>());
  add_engine_flags(options, {engine::option_name::kEvalFile, engine::option_name::kPrecision,
                             engine::option_name::kSyzygyPath});
  add("h,help", "print this help");
  options.parse_positional({"fen"});
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  const Position pos = Position::from_fen(required_fen(parsed, "eval"));
  const engine::Settings flags = engine_flags(parsed);
  const auto evaluator = nn::make_evaluator(load_network(flags));
  std::shared_ptr<const syzygy::Tablebases> tables;
  if (flags.syzygy_path != engine::kNoTablebases) {
    tables = engine::open_readable_tablebases(flags.syzygy_path);
    fmt::print(io.err, "found {} WDL and {} DTZ tables in {}\n", tables->wdl_count(),
               tables->dtz_count(), flags.syzygy_path);
  }
  search::TablebaseSettings tablebases;
  tablebases.tables = tables.get();
  fmt::print(
      io.out, "{}",
      engine::move_values_report(evaluator->description(), Game(pos), *evaluator, tablebases));
  return 0;
}

}  // namespace avocet::cli
