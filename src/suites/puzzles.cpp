#include "avocet/suites/puzzles.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <stdexcept>

#include "avocet/chess/move_text.h"

namespace avocet::suites {

const char* const kRatingBucketNames[kRatingBuckets] = {"<1000", "1000-1499", "1500-1999",
                                                        "2000-2499", ">=2500"};
const int kRatingBucketMin[kRatingBuckets] = {0, 1000, 1500, 2000, 2500};

int rating_bucket(int rating) {
  if (rating < 1000) return 0;
  if (rating >= 2500) return 4;
  return (rating - 500) / 500;
}

bool is_puzzle_header(std::string_view row) { return row.starts_with("PuzzleId,"); }

namespace {

constexpr size_t kThemesColumn =
    7;  // PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes

std::vector<std::string> split_themes(std::string_view text) {
  std::vector<std::string> themes;
  for (size_t i = 0; i < text.size();) {
    const size_t space = std::min(text.find(' ', i), text.size());
    if (space > i) themes.emplace_back(text.substr(i, space - i));
    i = space + 1;
  }
  return themes;
}

}  // namespace

Puzzle parse_puzzle_row(std::string_view row) {
  if (!row.empty() && row.back() == '\r') row.remove_suffix(1);
  std::vector<std::string_view> fields;
  for (size_t start = 0;;) {
    const size_t comma = row.find(',', start);
    fields.push_back(row.substr(start, comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (fields.size() < 4)
    throw std::invalid_argument(fmt::format(
        "expected at least 4 fields (PuzzleId,FEN,Moves,Rating), got {}", fields.size()));
  Puzzle p;
  p.id = std::string(fields[0]);
  if (p.id.empty()) throw std::invalid_argument("empty PuzzleId");
  try {
    p.start = Position::from_fen(fields[1]);
  } catch (const FenError& e) {
    throw std::invalid_argument(fmt::format("puzzle {}: bad FEN: {}", p.id, e.what()));
  }
  Game game(p.start);
  for (size_t i = 0; i < fields[2].size();) {
    const size_t space = fields[2].find(' ', i);
    const std::string_view text = fields[2].substr(i, space - i);
    i = space == std::string_view::npos ? fields[2].size() : space + 1;
    if (text.empty()) continue;
    try {
      const Move m = parse_uci(game.position(), text);
      game.play(m);
      p.moves.push_back(m);
    } catch (const MoveError& e) {
      throw std::invalid_argument(fmt::format("puzzle {}: bad move: {}", p.id, e.what()));
    }
  }
  if (p.moves.size() < 2)
    throw std::invalid_argument(
        fmt::format("puzzle {}: Moves needs the opponent's move and at "
                    "least one reply, got {}",
                    p.id, p.moves.size()));
  const std::string_view rating = fields[3];
  const auto [end, ec] = std::from_chars(rating.data(), rating.data() + rating.size(), p.rating);
  if (ec != std::errc() || end != rating.data() + rating.size() || p.rating < 0 ||
      p.rating > kMaxPuzzleRating)
    throw std::invalid_argument(fmt::format("puzzle {}: bad Rating '{}'", p.id, rating));
  if (fields.size() > kThemesColumn) p.themes = split_themes(fields[kThemesColumn]);
  return p;
}

int solver_moves(const Puzzle& puzzle) { return int(puzzle.moves.size() / 2); }

PuzzleResult solve_puzzle(const Puzzle& puzzle, const std::function<Move(const Game&)>& choose) {
  Game game(puzzle.start);
  PuzzleResult result;
  for (size_t i = 0; i < puzzle.moves.size(); ++i) {
    if (i % 2 == 1) {
      const Move chosen = choose(game);
      if (chosen != puzzle.moves[i]) {
        Game after = game;
        if (!chosen.is_none()) after.play(chosen);
        if (chosen.is_none() || !after.is_checkmate()) {
          result.mistake_fen = game.position().fen();
          result.expected = to_uci(puzzle.moves[i]);
          result.played = to_uci(chosen);
          return result;
        }
        result.correct_moves++;
        result.solved = true;  // mate ends the puzzle
        return result;
      }
      result.correct_moves++;
    }
    game.play(puzzle.moves[i]);
  }
  result.solved = true;
  return result;
}

uint64_t sample_key(std::string_view id, uint64_t seed) {
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a of the id ...
  for (const char c : id) hash = (hash ^ uint8_t(c)) * 0x100000001b3ull;
  // ... mixed with the seed by SplitMix64's finaliser, so that each seed orders ids anew.
  uint64_t z = hash + (seed + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<Puzzle> select_puzzles(std::vector<Puzzle> in_range, const PuzzleSelection& selection) {
  if (selection.limit && selection.sample)
    throw std::invalid_argument("a limit and a sample exclude each other");
  std::vector<Puzzle> rest;
  if (selection.offset < in_range.size())
    rest.assign(std::make_move_iterator(in_range.begin() + ptrdiff_t(selection.offset)),
                std::make_move_iterator(in_range.end()));
  if (selection.limit && *selection.limit < rest.size()) rest.resize(*selection.limit);
  if (selection.sample && *selection.sample < rest.size()) {
    std::vector<uint64_t> keys(rest.size());
    for (size_t i = 0; i < rest.size(); ++i) keys[i] = sample_key(rest[i].id, selection.seed);
    std::vector<size_t> order(rest.size());
    std::iota(order.begin(), order.end(), size_t(0));
    // Ties (duplicate ids) go to the earlier row, so the sample does not depend on the sort.
    std::nth_element(
        order.begin(), order.begin() + ptrdiff_t(*selection.sample), order.end(),
        [&](size_t a, size_t b) { return std::pair(keys[a], a) < std::pair(keys[b], b); });
    order.resize(*selection.sample);
    std::sort(order.begin(), order.end());
    std::vector<Puzzle> sample;
    for (const size_t i : order) sample.push_back(std::move(rest[i]));
    rest = std::move(sample);
  }
  return rest;
}

void RatingTally::add(int rating, bool solved) {
  overall.add(solved);
  by_rating[size_t(rating_bucket(rating))].add(solved);
}

void PuzzleSummary::add(const Puzzle& puzzle, bool solved) {
  all.add(puzzle.rating, solved);
  for (const std::string& theme : puzzle.themes) by_theme[theme].add(puzzle.rating, solved);
}

}  // namespace avocet::suites
