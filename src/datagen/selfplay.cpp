#include "avocet/datagen/selfplay.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>

#include "avocet/chess/game.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/datagen/game_record.h"
#include "avocet/datagen/multipv_lines.h"
#include "avocet/datagen/shard.h"
#include "avocet/datagen/uci_process.h"

namespace avocet::datagen {

namespace {

struct ScoredLine {
  Move move;
  double centipawns;  // mate as +-100000 minus the distance
  float win;
  std::string score;  // as the annotation files write it: "35", "-120", "m3", "m-2"
};

// The lines of one MultiPV search of `pos`, best first (see multipv_lines.h).
std::vector<ScoredLine> search_lines(UciProcess& engine, const Position& pos, int moves,
                                     const std::string& go) {
  engine.send(fmt::format("setoption name MultiPV value {}", moves));
  engine.send("position fen " + pos.fen());
  engine.send(go);
  std::vector<ScoredLine> lines;
  for (const MultiPvLine& line : final_multipv_lines(engine.read_until("bestmove"), moves)) {
    const Move m = parse_uci(pos, line.move);
    if (line.mate) {
      const int v = line.value;
      lines.push_back(
          {m, v > 0 ? 100000.0 - v : -100000.0 - v, v > 0 ? 1.0f : 0.0f, fmt::format("m{}", v)});
    } else {
      lines.push_back({m, double(line.value), win_probability_from_centipawns(line.value),
                       std::to_string(line.value)});
    }
  }
  return lines;
}

// Scores the moves of `pos` by the recipe (SelfplayOptions::multipv, shallow_depth): the
// deep lines first, best first, then the shallow scores of the other moves.
std::vector<ScoredLine> label_position(UciProcess& engine, const Position& pos, int legal,
                                       const SelfplayOptions& options) {
  const std::string deep = options.nodes > 0 ? fmt::format("go nodes {}", options.nodes)
                                             : fmt::format("go depth {}", options.depth);
  const int searched = options.multipv > 0 ? std::min(options.multipv, legal) : legal;
  if (searched == legal || options.shallow_depth <= 0)
    return search_lines(engine, pos, searched, deep);
  const std::vector<ScoredLine> shallow =
      search_lines(engine, pos, legal, fmt::format("go depth {}", options.shallow_depth));
  std::vector<ScoredLine> lines = search_lines(engine, pos, searched, deep);
  for (const ScoredLine& s : shallow)
    if (std::none_of(lines.begin(), lines.end(),
                     [&](const ScoredLine& l) { return l.move == s.move; }))
      lines.push_back(s);
  return lines;
}

// Cuts a line an interrupted run left unfinished off the end of a text file, so that the
// next line appended starts a line of its own.
void cut_to_last_whole_line(const std::string& path) {
  if (!std::filesystem::exists(path)) return;
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty() || text.back() == '\n') return;
  in.close();
  const size_t end = text.rfind('\n');
  std::filesystem::resize_file(path, end == std::string::npos ? 0 : end + 1);
}

}  // namespace

namespace {

GameResult result_of(const Game& game) {
  switch (game.termination()) {
    case Termination::None:
      return GameResult::NotOver;
    case Termination::Checkmate:
      return game.position().side_to_move() == Color::White ? GameResult::WhiteMated
                                                            : GameResult::BlackMated;
    default:
      return GameResult::Drawn;
  }
}

}  // namespace

void run_selfplay_worker(const SelfplayOptions& options, int worker, long positions,
                         const WorkerFiles& files, std::atomic<long>& written,
                         std::atomic<bool>& stop, std::atomic<double>* engine_seconds) {
  UciProcess engine(options.stockfish);
  engine.send("setoption name Threads value 1");
  engine.send(fmt::format("setoption name Hash value {}", options.hash_mb));
  engine.send("isready");
  engine.read_until("readyok");
  const RecoveredGames kept = recover_game_records(files.games);
  GameRecordWriter games(files.games, files.header_json);
  // The games format keeps Stockfish's best move alone; a recipe that scores more moves also
  // writes them all as annotation lines.
  const bool annotate = options.multipv != 1 || options.shallow_depth > 0;
  std::ofstream annotations;
  if (annotate) {
    cut_to_last_whole_line(files.annotations);
    annotations.open(files.annotations, std::ios::app);
    if (!annotations)
      throw std::runtime_error(fmt::format("cannot write annotations '{}'", files.annotations));
  }
  // Each worker and seed draws its own games; resuming continues with fresh games.
  std::mt19937_64 rng(options.seed * 1000003 + uint64_t(worker) * 7919 + uint64_t(kept.games));
  long mine = 0;
  while (mine < positions && !stop) {
    Game game(Position::from_fen(options.book[rng() % options.book.size()]));
    LabelledGame record{game.position().fen(), {}, GameResult::NotOver};
    std::string lines_of_game;
    // Whole games only, the last one cut short by the target, a stop or a failed engine
    // included: a kill loses at most the game in progress, an engine's crash nothing.
    auto write_game = [&] {
      record.result = result_of(game);
      if (!record.plies.empty()) games.write(record);
      if (annotate) {
        annotations << lines_of_game;
        annotations.flush();
      }
    };
    try {
      engine.send("ucinewgame");
      for (int ply = 0; ply < options.max_plies && game.termination() == Termination::None &&
                        !stop && mine < positions;
           ++ply) {
        const Position& pos = game.position();
        const MoveList legal = legal_moves(pos);
        const std::vector<ScoredLine> lines =
            label_position(engine, pos, int(legal.size()), options);
        if (engine_seconds) *engine_seconds = engine.cpu_seconds();
        if (lines.empty()) break;
        if (annotate) {
          std::string annotation = pos.fen() + '\t';
          for (const ScoredLine& l : lines)
            annotation +=
                fmt::format("{}{}:{}", &l == &lines.front() ? "" : " ", to_uci(l.move), l.score);
          // The moves the recipe left unsearched: written unscored, so that training knows
          // every legal move (the policy term of a partial label) and which it must not fit.
          const bool partial = options.multipv > 0 && size_t(options.multipv) < legal.size() &&
                               options.shallow_depth <= 0;
          for (const Move m : partial ? legal : MoveList())
            if (std::none_of(lines.begin(), lines.end(),
                             [&](const ScoredLine& l) { return l.move == m; }))
              annotation += fmt::format(" {}:{}", to_uci(m), kUnscored);
          lines_of_game += annotation + '\n';
        }
        // Next move: softmax over the scores at this ply's temperature.
        const double t =
            ply < options.opening_plies ? options.opening_temperature : options.temperature;
        double best = -1e9;
        for (const ScoredLine& l : lines) best = std::max(best, l.centipawns);
        std::vector<double> weights;
        for (const ScoredLine& l : lines)
          weights.push_back(std::exp(std::clamp((l.centipawns - best) / t, -50.0, 0.0)));
        std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
        const bool blunder =
            ply >= options.opening_plies && std::bernoulli_distribution(options.blunder_rate)(rng);
        const Move played = blunder ? legal[rng() % legal.size()] : lines[pick(rng)].move;
        record.plies.push_back({lines.front().move, encode_score(lines.front().score), played});
        game.play(played);
        ++mine;
        ++written;
      }
    } catch (...) {
      write_game();
      throw;
    }
    write_game();
  }
}

}  // namespace avocet::datagen
