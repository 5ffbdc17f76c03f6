// Lichess puzzles: rows `PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,...`,
// where the FEN is the position before the opponent's move Moves[0] and the solver must find
// Moves[1], Moves[3], ... By ChessBench's rule every one of the solver's moves must match,
// except that a different move that mates at once also counts.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "avocet/chess/game.h"

namespace avocet::suites {

inline constexpr int kMaxPuzzleRating = 5000;  // rows rated above are malformed

struct Puzzle {
  std::string id;
  Position start;
  std::vector<Move> moves;  // the whole line, opponent's first move included
  int rating = 0;
  // The Themes column (the 8th), split on spaces: {"crushing", "fork", "middlegame", "short"}.
  // Empty when the row stops before it.
  std::vector<std::string> themes;
};

// Parses one CSV row; throws std::invalid_argument naming the faulty field.
Puzzle parse_puzzle_row(std::string_view row);
// True for the header row `PuzzleId,FEN,...`.
bool is_puzzle_header(std::string_view row);

struct PuzzleResult {
  bool solved = false;
  int correct_moves = 0;  // solver moves that matched before the first miss
  // At the first miss, if any: the position (FEN), the line's move and the move played, in
  // UCI ("0000", UCI's null move, when the solver had none). Empty when solved.
  std::string mistake_fen, expected, played;
};

// Plays the puzzle with `choose` picking the solver's moves from the game so far.
PuzzleResult solve_puzzle(const Puzzle& puzzle, const std::function<Move(const Game&)>& choose);

// How many of the line's moves are the solver's: Moves[1], Moves[3], ...
int solver_moves(const Puzzle& puzzle);

// Rating buckets of the summary tables: <1000, 1000-1499, 1500-1999, 2000-2499, >=2500.
inline constexpr int kRatingBuckets = 5;
int rating_bucket(int rating);
extern const char* const kRatingBucketNames[kRatingBuckets];
extern const int kRatingBucketMin[kRatingBuckets];  // the lowest rating in each bucket

// Which puzzles of a file run: those rated min_rating..max_rating, of which the first
// `offset` (in file order) are skipped; then the first `limit` of the rest, or a seeded
// random `sample` of them (not both).
struct PuzzleSelection {
  int min_rating = 0, max_rating = kMaxPuzzleRating;
  size_t offset = 0;
  std::optional<size_t> limit, sample;
  uint64_t seed = 1;

  bool in_rating_range(int rating) const { return rating >= min_rating && rating <= max_rating; }
};

// The sample is the `n` puzzles whose ids have the lowest key under the seed: a uniform
// random sample that is the same on every machine and standard library, whatever the order
// of the file (a hash of the id, not a generator's stream).
uint64_t sample_key(std::string_view id, uint64_t seed);

// Applies the offset and the limit or sample of `selection` to puzzles already in its rating
// range, in file order; the result keeps file order.
std::vector<Puzzle> select_puzzles(std::vector<Puzzle> in_range, const PuzzleSelection& selection);

// Solved out of total.
struct Tally {
  int solved = 0, total = 0;
  void add(bool is_solved) {
    ++total;
    solved += is_solved;
  }
};

// Results overall and by rating bucket.
struct RatingTally {
  Tally overall;
  std::array<Tally, kRatingBuckets> by_rating{};
  void add(int rating, bool solved);
};

// What the summary tables show: every puzzle, and every puzzle of each theme (a puzzle with
// several themes counts in each).
struct PuzzleSummary {
  RatingTally all;
  std::map<std::string, RatingTally> by_theme;
  void add(const Puzzle& puzzle, bool solved);
};

}  // namespace avocet::suites
