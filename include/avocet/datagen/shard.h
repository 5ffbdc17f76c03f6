// Training shards: binary files of labelled positions that Python reads without chess logic.
//
//   file    = "AVOSHRD2" (8 bytes), uint32 header length, JSON header, then records
//   header  = {"square_features": [[name, values], ...], "move_features": [...]}: the
//             feature groups of chess/tactical_features.h, in the order their bytes follow
//   record  = 77 token bytes (ChessBench tokenizer, never mirrored; the trainer mirrors)
//             64 x S square-feature bytes, in token order (a8, b8, ..., h1)
//             uint8 n, then n x { uint16 action index, float32 win probability,
//                                 M move-feature bytes } little-endian
//
// Features are the side to move's view (chess/tactical_features.h), so mirroring a record only
// reorders its squares. Version 1 files ("AVOSHRD1": no header, no features) still read.
//
// The win probability is the side to move's, after the move: Stockfish's centipawns through
// 1 / (1 + exp(-0.00368208 cp)), mate for the mover 1, mated 0; NaN for a legal move the
// labelling recipe did not search (a partial label, datagen/selfplay.h).
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/chess/position.h"
#include "avocet/chess/tactical_features.h"
#include "avocet/nn/tokenizer.h"

namespace avocet::datagen {

inline constexpr std::string_view kShardMagic = "AVOSHRD2";
inline constexpr std::string_view kShardMagicV1 = "AVOSHRD1";

struct LabelledMove {
  Move move;
  float win_probability;
};

struct ShardRecord {
  nn::Tokens tokens;
  std::vector<std::pair<uint16_t, float>> actions;  // (action index, win probability)
  std::array<SquareFeatures, 64> squares{};         // token order; zero in version 1 files
  std::vector<MoveFeatures> move_features;          // per action; empty in version 1 files
};

// The score an annotation file gives a legal move the recipe did not search: `e2e4:?`.
inline constexpr std::string_view kUnscored = "?";
// An annotation entry standing for every legal move the line does not list, unscored: `*:?`
// ends a line that scores one move and leaves the rest to the reader (external data that
// knows only the move played and its value, tools/data/tcec.py).
inline constexpr std::string_view kEveryOtherMove = "*";

// Stockfish's score for a move, from the mover's view, as a win probability.
float win_probability_from_centipawns(double centipawns);

// Parses "123", "-45", "m3" (mate in 3 for the mover) or "m-2" (mated in 2).
std::optional<float> parse_score(std::string_view text);

class ShardWriter {
 public:
  // Appends to `path` (writing the magic and header if the file is new or empty), after
  // cutting off a record an interrupted run left unfinished (recover_shard); throws
  // std::runtime_error if the file exists in another format.
  explicit ShardWriter(const std::string& path);
  void write(const Position& pos, const std::vector<LabelledMove>& moves);
  void flush() { out_.flush(); }
  long records() const { return records_; }  // in the file, including those it held before

 private:
  std::ofstream out_;
  long records_ = 0;
};

// Reads every record of a shard; throws std::runtime_error naming the file on corruption,
// a partial last record included.
std::vector<ShardRecord> read_shard(const std::string& path);

struct RecoveredShard {
  std::vector<ShardRecord> records;
  uintmax_t cut_bytes = 0;  // the unfinished last record's bytes, now gone from the file
};

// read_shard for a file that a run killed mid-write may have left (datagen buffers its
// writes, so a kill can stop it inside a record): a partial last record is cut off the file
// so that appending resumes at a record boundary. Corruption anywhere else still throws.
RecoveredShard recover_shard(const std::string& path);

}  // namespace avocet::datagen
