// Tablebases: the Syzygy endgame tables found in a list of directories, probed by material.
//
// Construction scans the directories (the UCI `SyzygyPath` string, ':'-separated) for
// KQvKR.rtbw / KQvKR.rtbz style files and checks each file's size and magic bytes; nothing
// is mapped yet. The first probe of a table memory-maps and parses it (once, thread-safely);
// afterwards probes only read. Every problem (missing directory, unreadable, truncated or
// corrupt file) produces one message naming the file, passed to the error callback and kept
// in errors(); the table is then treated as absent. Probes never throw.
//
// Values follow python-chess's chess.syzygy:
//   probe_wdl: -2 loss, -1 blessed loss (lost but drawn by the 50-move rule), 0 draw,
//              1 cursed win, 2 win; for the side to move, assuming the position was reached by
//              a zeroing move (capture or pawn move).
//   probe_dtz: plies to the next zeroing move on the tablebase line, signed like WDL:
//              1..100 win, > 100 cursed win, 0 draw, < -100 blessed loss, -100..-1 loss (DTZ50''
//              with rounding: a value may be one ply above the true distance). Independent of
//              the position's halfmove clock; where the best move zeroes, 1 / -1 (or 101 / -101).
// Both consider en passant captures, and return nullopt when the position has castling
// rights, more pieces than the tables, or a table it needs is missing or broken.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "avocet/chess/position.h"
#include "avocet/syzygy/material.h"
#include "avocet/syzygy/table_file.h"

namespace avocet::syzygy {

enum class Wdl : int8_t { Loss = -2, BlessedLoss = -1, Draw = 0, CursedWin = 1, Win = 2 };

constexpr int value(Wdl w) { return int(w); }

// Receives one line per problem, e.g. "syzygy: /tb/KQvK.rtbw: bad magic bytes (...)".
using ErrorCallback = std::function<void(const std::string&)>;

class Tablebases {
 public:
  // Scans every directory of `path` (':'-separated; empty entries are ignored).
  explicit Tablebases(std::string_view path, ErrorCallback on_error = {});
  ~Tablebases();
  Tablebases(const Tablebases&) = delete;
  Tablebases& operator=(const Tablebases&) = delete;

  // Tables found whose size and magic bytes are right (a table broken later still counts).
  int wdl_count() const { return wdl_count_; }
  int dtz_count() const { return dtz_count_; }
  int table_count() const { return wdl_count_ + dtz_count_; }
  // Most pieces of any WDL table found (0 when none): the useful SyzygyProbeLimit.
  int max_pieces() const { return max_pieces_; }
  // Whether the tables cover `pos`: no castling rights, and at most min(probe_limit,
  // max_pieces()) pieces. The one test of coverage; a probe outside it answers nullopt.
  bool covers(const Position& pos, int probe_limit = 7) const;
  // Every problem reported so far.
  std::vector<std::string> errors() const;

  std::optional<Wdl> probe_wdl(const Position& pos) const;
  std::optional<int> probe_dtz(const Position& pos) const;

  struct Slot;

 private:
  struct Search {
    int value;
    int how;  // 1: from the table (or a capture no better), 2: a capture decides
  };

  void scan_directory(const std::string& dir);
  void add_file(const std::string& dir, const std::string& file_name);
  void report(const std::string& message) const;
  const TableFile* table(TableKind kind, const Material& m) const;

  std::optional<int> table_wdl(const Position& pos) const;
  std::optional<Search> search_wdl(const Position& pos, int alpha, int beta) const;
  std::optional<int> wdl_with_ep(const Position& pos) const;
  // The best WDL the side to move gets by capturing en passant (-3: it cannot) and whether
  // en passant captures are its only legal moves; nullopt when a probe fails.
  struct EnPassantWdl {
    int best;
    bool only;
  };
  std::optional<EnPassantWdl> en_passant_wdl(const Position& pos) const;
  std::optional<int> dtz_without_ep(const Position& pos) const;
  std::optional<int> dtz_with_ep(const Position& pos) const;

  ErrorCallback on_error_;
  mutable std::mutex errors_mutex_;
  mutable std::vector<std::string> errors_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::unordered_map<uint64_t, size_t> wdl_slots_, dtz_slots_;  // material key -> slot
  int wdl_count_ = 0, dtz_count_ = 0, max_pieces_ = 0;
};

}  // namespace avocet::syzygy
