// Stockfish-labelled self-play: from book positions, games whose moves are sampled by a
// softmax over Stockfish's MultiPV scores; every position is labelled, and each game is
// written whole in the labelled-games format (datagen/game_record.h: the best move, its score
// and the move played, per ply), the format the repository keeps (weights/labels/). A recipe
// that scores more than the best move also writes its labels in the sf-annotations format
// (`FEN<TAB>move:score ...`), which `datagen --from-tsv` turns into shards.
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
#include <string>
#include <vector>

#include "avocet/chess/position.h"

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

// Where one worker writes.
struct WorkerFiles {
  std::string games;        // labelled games (datagen/game_record.h), appended whole
  std::string header_json;  // the recipe, written at the head of a new games file
  std::string annotations;  // annotation lines, for recipes that score more than the best move
};

// One worker: plays games until it has labelled `positions` positions (or `stop` is set),
// appending each game whole to `files.games` (a game a killed run left unfinished is cut off
// first). Every ply is labelled and kept: repeated positions (the book's first plies) are
// removed when the labels are staged for training (tools/data/prepare.py). If
// `engine_seconds` is given, it holds the CPU seconds this worker's Stockfish has used so far,
// updated after every search.
void run_selfplay_worker(const SelfplayOptions& options, int worker, long positions,
                         const WorkerFiles& files, std::atomic<long>& written,
                         std::atomic<bool>& stop, std::atomic<double>* engine_seconds = nullptr);

}  // namespace avocet::datagen
