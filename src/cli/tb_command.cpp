// `avocet tb`: what the Syzygy tables say about a position and each of its legal moves.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "avocet/chess/move_text.h"
#include "avocet/engine/engine.h"
#include "avocet/engine/options.h"
#include "avocet/search/tablebase_root.h"
#include "avocet/syzygy/material.h"
#include "avocet/syzygy/tablebase.h"
#include "commands.h"

namespace avocet::cli {

namespace {

const char* wdl_name(syzygy::Wdl w) {
  switch (w) {
    case syzygy::Wdl::Loss:
      return "loss";
    case syzygy::Wdl::BlessedLoss:
      return "blessed loss";
    case syzygy::Wdl::Draw:
      return "draw";
    case syzygy::Wdl::CursedWin:
      return "cursed win";
    case syzygy::Wdl::Win:
      return "win";
  }
  return "?";
}

}  // namespace

int tb_command(const Args& args, const Streams& io) {
  cxxopts::Options options("avocet tb",
                           "Probe the Syzygy tables: the position's WDL and DTZ (for the side to "
                           "move, as python-chess's probe_wdl / probe_dtz), then every legal "
                           "move, best first, with the result after it for the side that moves "
                           "and its DTZ (plies to the next capture or pawn move), counting the "
                           "FEN's halfmove clock against the 50-move rule.");
  options.positional_help("FEN");
  auto add = options.add_options();
  add_engine_flags(options, {engine::option_name::kSyzygyPath});
  add("fen", "position (quote it, or give its fields as separate words; 'startpos' works)",
      cxxopts::value<std::vector<std::string>>());
  add("h,help", "print this help");
  options.parse_positional({"fen"});
  const auto parsed = parse_args(options, args);
  if (help_requested(parsed, options, io)) return 0;
  // Required, without a default: a path compiled into the binary would point at one machine's
  // folders.
  const engine::Settings flags = engine_flags(parsed);
  if (flags.syzygy_path == engine::kNoTablebases)
    throw std::invalid_argument(fmt::format("tb needs --{} DIRS, the Syzygy table directories",
                                            engine::option_name::kSyzygyPath));
  if (!parsed.count("fen")) throw std::invalid_argument("tb needs a FEN");
  const Position pos = Position::from_fen(fen_or_startpos(
      fmt::format("{}", fmt::join(parsed["fen"].as<std::vector<std::string>>(), " "))));

  const std::string& path = flags.syzygy_path;
  const std::shared_ptr<const syzygy::Tablebases> readable = engine::open_readable_tablebases(path);
  const syzygy::Tablebases& tables = *readable;
  if (pos.castling_rights() != kNoCastling)
    throw std::invalid_argument("tb: the tables have no positions with castling rights");
  if (pos.occupied().count() > tables.max_pieces())
    throw std::invalid_argument(fmt::format("tb: {} pieces; the tables in '{}' have at most {}",
                                            pos.occupied().count(), path, tables.max_pieces()));
  const auto wdl = tables.probe_wdl(pos);
  if (!wdl) {
    const auto errors = tables.errors();
    throw std::invalid_argument(fmt::format("tb: no table for {} in '{}'{}",
                                            syzygy::Material::of(pos).name(), path,
                                            errors.empty() ? "" : " (" + errors.back() + ")"));
  }
  const auto dtz = tables.probe_dtz(pos);
  fmt::print(io.out, "fen: {}\nwdl: {} ({})\ndtz: {}\n", pos.fen(), value(*wdl), wdl_name(*wdl),
             dtz ? std::to_string(*dtz) : std::string("unknown (no DTZ table)"));
  const auto ranked =
      search::rank_root_moves(pos, pos.halfmove_clock(), tables, /*rule50=*/true, 7);
  if (!ranked.empty()) fmt::print(io.out, "move     wdl   dtz  result\n");
  for (const search::TablebaseMove& t : ranked)
    fmt::print(io.out, "{:<8} {:>3} {:>5}  {}\n", to_uci(t.move), value(t.wdl),
               t.dtz ? std::to_string(*t.dtz) : std::string("-"), wdl_name(t.wdl));
  return 0;
}

}  // namespace avocet::cli
