#include "avocet/suites/puzzles.h"

#include <fmt/format.h>

#include <charconv>
#include <stdexcept>

#include "avocet/chess/move_text.h"

namespace avocet::suites {

const char* const kRatingBucketNames[5] = {"<1000", "1000-1499", "1500-1999", "2000-2499",
                                           ">=2500"};

int rating_bucket(int rating) {
  if (rating < 1000) return 0;
  if (rating >= 2500) return 4;
  return (rating - 500) / 500;
}

bool is_puzzle_header(std::string_view row) { return row.starts_with("PuzzleId,"); }

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
  if (ec != std::errc() || end != rating.data() + rating.size() || p.rating < 0 || p.rating > 5000)
    throw std::invalid_argument(fmt::format("puzzle {}: bad Rating '{}'", p.id, rating));
  return p;
}

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
          result.first_mistake = to_uci(chosen);
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

}  // namespace avocet::suites
