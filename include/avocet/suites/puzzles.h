// Lichess puzzles: rows `PuzzleId,FEN,Moves,Rating,...`, where the FEN is the position before
// the opponent's move Moves[0] and the solver must find Moves[1], Moves[3], ... By
// ChessBench's rule every one of the solver's moves must match, except that a different
// move that mates at once also counts.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/chess/game.h"

namespace avocet::suites {

struct Puzzle {
  std::string id;
  Position start;
  std::vector<Move> moves;  // the whole line, opponent's first move included
  int rating = 0;
};

// Parses one CSV row; throws std::invalid_argument naming the faulty field.
Puzzle parse_puzzle_row(std::string_view row);
// True for the header row `PuzzleId,FEN,...`.
bool is_puzzle_header(std::string_view row);

struct PuzzleResult {
  bool solved = false;
  int correct_moves = 0;      // solver moves that matched before the first miss
  std::string first_mistake;  // UCI of the first wrong move played, if any
};

// Plays the puzzle with `choose` picking the solver's moves from the game so far.
PuzzleResult solve_puzzle(const Puzzle& puzzle, const std::function<Move(const Game&)>& choose);

// Rating buckets of the summary table: <1000, 1000-1499, 1500-1999, 2000-2499, >=2500.
int rating_bucket(int rating);
extern const char* const kRatingBucketNames[5];

}  // namespace avocet::suites
