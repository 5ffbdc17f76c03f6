// Stockfish-labelled self-play: from book positions, games whose moves are sampled by a
// softmax over Stockfish's MultiPV scores; every new position (first four FEN fields) gets
// all its legal moves labelled and written to the worker's shard, and to an annotation file
// in the sf-annotations format (`FEN<TAB>move:score ...`), so that the labels outlive the
// shard format: `datagen --from-tsv` rebuilds shards from them with any later feature set.
//
// With a blunder rate R, each ply after the opening plays a uniformly random legal move with
// probability R: the data then holds what real games are full of and Stockfish's own play
// lacks, pieces en prise and mates in the air.
//
// The labelling recipe decides what a label costs. By default every legal move is searched
// (MultiPV over all of them) at `depth`. With `multipv` K only the best K are: alone, the
// other moves are written unscored (`move:?` in the annotation file, a NaN win probability in
// the shard), so K = 1 at a greater depth gives a value and a best move; with
// `shallow_depth` S, every move is first scored at S and the best K then searched again at
// `depth`, whose scores replace the shallow ones. Moves are sampled from the scored moves,
// so with K = 1 and no shallow pass the games vary by the book and the blunders alone.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "avocet/chess/position.h"
#include "avocet/nn/tokenizer.h"

namespace avocet::datagen {

struct SelfplayOptions {
  std::string stockfish = "/usr/games/stockfish";
  std::vector<std::string> book;  // FENs (4 or 6 fields)
  int depth = 5;          // every move at depth 5: the recipe experiment's choice (weights/results)
  int nodes = 0;          // if > 0, `go nodes` instead of depth
  int multipv = 0;        // moves searched at `depth` (0: every legal move)
  int shallow_depth = 0;  // with multipv > 0: every move first scored at this depth
  int hash_mb = 64;
  double opening_temperature = 60;  // centipawns, for the first opening_plies
  int opening_plies = 16;
  double temperature = 25;
  double blunder_rate = 0;  // chance per ply after the opening of a uniformly random move
  int max_plies = 300;
  uint64_t seed = 1;
};

// Positions seen by all workers (and read back from existing shards when resuming).
struct SeenPositions {
  std::mutex mutex;
  std::unordered_set<uint64_t> keys;
  bool insert(uint64_t key) {
    std::lock_guard lock(mutex);
    return keys.insert(key).second;
  }
};

// One worker: plays games until `positions` new positions are written (or `stop` is set).
// Appends to `shard_path` and to `annotation_path`. If `engine_seconds` is given, it holds
// the CPU seconds this worker's Stockfish has used so far, updated after every search.
void run_selfplay_worker(const SelfplayOptions& options, int worker, long positions,
                         const std::string& shard_path, const std::string& annotation_path,
                         SeenPositions& seen, std::atomic<long>& written, std::atomic<bool>& stop,
                         std::atomic<double>* engine_seconds = nullptr);

// The key positions are de-duplicated by: a hash of the tokens of the first four FEN fields
// (tokens 0-70), so that resuming can rebuild the set from the shards themselves.
uint64_t dedup_key(const nn::Tokens& tokens);

}  // namespace avocet::datagen
