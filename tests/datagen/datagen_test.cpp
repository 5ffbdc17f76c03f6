#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/chess/tactical_features.h"
#include "avocet/datagen/game_record.h"
#include "avocet/datagen/selfplay.h"
#include "avocet/datagen/shard.h"
#include "avocet/datagen/tsv_import.h"
#include "avocet/nn/action_table.h"

namespace avocet::datagen {
namespace {

TEST(Datagen, ScoresBecomeWinProbabilities) {
  EXPECT_FLOAT_EQ(*parse_score("0"), 0.5f);
  EXPECT_NEAR(*parse_score("100"), 1.0 / (1.0 + std::exp(-0.368208)), 1e-6);
  EXPECT_NEAR(*parse_score("-100"), 1.0 - 1.0 / (1.0 + std::exp(-0.368208)), 1e-6);
  EXPECT_EQ(*parse_score("m3"), 1.0f);
  EXPECT_EQ(*parse_score("m-2"), 0.0f);
  for (const char* bad : {"", "m", "m0", "x", "12x", "1.5", "m+"})
    EXPECT_FALSE(parse_score(bad)) << bad;
}

TEST(Datagen, AnnotationLines) {
  const auto [pos, moves] =
      parse_annotation_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:35 e1d1:-20 e2e3:m2");
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  ASSERT_EQ(moves.size(), 3u);
  EXPECT_EQ(to_uci(moves[0].move), "e2e4");
  EXPECT_EQ(moves[2].win_probability, 1.0f);
  for (const char* bad :
       {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e5:35",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:abc",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\t", "8/8/8 w - - 0 1\te2e4:1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:1 e2e4:2"})
    EXPECT_THROW(parse_annotation_line(bad), std::invalid_argument) << bad;
}

// A partial label: moves the recipe did not search are `move:?`, NaN in the shard; a line
// must score at least one move.
TEST(Datagen, AnnotationLinesWithUnscoredMoves) {
  const auto [pos, moves] =
      parse_annotation_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:35 e1d1:? e2e3:?");
  ASSERT_EQ(moves.size(), 3u);
  EXPECT_FALSE(std::isnan(moves[0].win_probability));
  EXPECT_TRUE(std::isnan(moves[1].win_probability));
  EXPECT_THROW(parse_annotation_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:? e1d1:?"),
               std::invalid_argument);
  EXPECT_THROW(parse_annotation_line("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:?? e1d1:3"),
               std::invalid_argument);
  const std::string path = ::testing::TempDir() + "/avocet_partial.shard";
  std::filesystem::remove(path);
  ShardWriter(path).write(pos, moves);
  const std::vector<ShardRecord> records = read_shard(path);  // NaN is not corruption
  ASSERT_EQ(records.size(), 1u);
  EXPECT_TRUE(std::isnan(records[0].actions[1].second));
  std::filesystem::remove(path);
}

// `*:?` ends a line with every legal move it does not list, unscored: the form of external
// data that scores only the move played (tools/data/tcec.py).
TEST(Datagen, AnnotationLinesEndingWithEveryOtherMoveUnscored) {
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  const auto [pos, moves] = parse_annotation_line(fen + "\te2e4:35 *:?");
  ASSERT_EQ(moves.size(), legal_moves(pos).size());
  EXPECT_EQ(to_uci(moves[0].move), "e2e4");
  EXPECT_FALSE(std::isnan(moves[0].win_probability));
  for (size_t i = 1; i < moves.size(); ++i) {
    EXPECT_TRUE(std::isnan(moves[i].win_probability));
    EXPECT_NE(moves[i].move, moves[0].move);
  }
  // Moves listed unscored are not added twice.
  EXPECT_EQ(parse_annotation_line(fen + "\te2e4:35 e1d1:? *:?").second.size(), moves.size());
  for (const std::string bad : {"\t*:?", "\t*:? e2e4:35", "\te2e4:35 *:12", "\te2e4:35 *:"})
    EXPECT_THROW(parse_annotation_line(fen + bad), std::invalid_argument) << bad;
}

// Malformed lines are counted and reported, good ones kept.
TEST(Datagen, ImportCountsMalformedLines) {
  std::istringstream in(
      "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\te2e4:35 e1d1:-20\n"
      "garbage\n"
      "\n"
      "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\te8d8:0\n"
      "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\te8e1:0\n");
  std::ostringstream report;
  int written = 0;
  const ImportStats stats = import_annotations(
      in, [&](const Position&, const std::vector<LabelledMove>&) { ++written; }, report);
  EXPECT_EQ(stats.lines, 5);
  EXPECT_EQ(stats.positions, 2);
  EXPECT_EQ(stats.malformed, 2);
  EXPECT_EQ(written, 2);
  EXPECT_EQ(report.str(),
            "line 2: no tab between FEN and moves\n"
            "line 5: illegal move 'e8e1' in position 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\n");
}

TEST(Datagen, ShardRoundTripAndAppend) {
  const std::string path = ::testing::TempDir() + "/avocet_test.shard";
  std::filesystem::remove(path);
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  {
    ShardWriter writer(path);
    writer.write(pos, {{parse_uci(pos, "e2e4"), 0.75f}, {parse_uci(pos, "e1d1"), 0.25f}});
  }
  {
    ShardWriter writer(path);  // appends, as a resumed run does
    writer.write(pos, {{parse_uci(pos, "e2e3"), 0.5f}});
  }
  const std::vector<ShardRecord> records = read_shard(path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].tokens, nn::tokenize(pos));
  ASSERT_EQ(records[0].actions.size(), 2u);
  EXPECT_EQ(nn::action_uci(records[0].actions[0].first), "e2e4");
  EXPECT_EQ(records[0].actions[1].second, 0.25f);
  EXPECT_EQ(records[1].actions.size(), 1u);
  // Features are written in token order (a8 first) and per labelled move.
  const auto squares = square_features(pos);
  for (int t = 1; t <= 64; ++t)
    EXPECT_EQ(records[0].squares[size_t(t - 1)], squares[size_t(index(nn::token_square(t)))]);
  ASSERT_EQ(records[0].move_features.size(), 2u);
  EXPECT_EQ(records[0].move_features[1], move_features(pos, parse_uci(pos, "e1d1")));

  // A file of another format is not appended to.
  {
    std::ofstream(path + ".v1", std::ios::binary) << "AVOSHRD1";
    EXPECT_THROW(ShardWriter writer(path + ".v1"), std::runtime_error);
    std::filesystem::remove(path + ".v1");
  }
  // A truncated shard is an error naming the file.
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3);
  EXPECT_THROW(read_shard(path), std::runtime_error);
  std::filesystem::remove(path);
}

TEST(Datagen, AShardAnInterruptedRunLeftIsCutBackToItsLastWholeRecord) {
  const std::string path = ::testing::TempDir() + "/avocet_interrupted.shard";
  std::filesystem::remove(path);
  const Position pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  {
    ShardWriter writer(path);
    writer.write(pos, {{parse_uci(pos, "e2e4"), 0.75f}});
  }
  const uintmax_t one_record = std::filesystem::file_size(path);
  {
    ShardWriter writer(path);
    EXPECT_EQ(writer.records(), 1);
    writer.write(pos, {{parse_uci(pos, "e2e3"), 0.5f}, {parse_uci(pos, "e1d1"), 0.25f}});
  }
  // A kill inside the second record: its tokens and some features reached the file.
  std::filesystem::resize_file(path, one_record + 100);
  EXPECT_THROW(read_shard(path), std::runtime_error);
  {
    ShardWriter writer(path);  // what a resumed run does
    EXPECT_EQ(writer.records(), 1);
    EXPECT_EQ(std::filesystem::file_size(path), one_record);
    writer.write(pos, {{parse_uci(pos, "e1f1"), 0.4f}});
  }
  const std::vector<ShardRecord> records = read_shard(path);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(nn::action_uci(records[1].actions[0].first), "e1f1");

  // Cut inside the tokens, and a whole file: recover_shard reports what it cut, if anything.
  std::filesystem::resize_file(path, one_record + 5);
  EXPECT_EQ(recover_shard(path).cut_bytes, 5u);
  EXPECT_EQ(std::filesystem::file_size(path), one_record);
  EXPECT_EQ(recover_shard(path).cut_bytes, 0u);
  EXPECT_EQ(recover_shard(path).records.size(), 1u);
  // Corruption before the end still throws.
  {
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    // The record ends with its one move's win probability and move features.
    f.seekp(std::streamoff(one_record) - std::streamoff(kMoveFeatureCount) - 4);
    const float bad = 7.0f;  // outside [0, 1]
    f.write(reinterpret_cast<const char*>(&bad), 4);
  }
  EXPECT_THROW(recover_shard(path), std::runtime_error);
  std::filesystem::remove(path);
}

// The games a worker wrote, in order.
std::vector<LabelledGame> selfplay_games(const std::string& path) {
  std::vector<LabelledGame> games;
  read_game_records(path, [&](const LabelledGame& g) { games.push_back(g); });
  return games;
}

// Self-play against the real Stockfish with near-zero temperatures, so that without blunders
// every move after the opening is Stockfish's best. Returns how many of the moves played after
// the opening were not, after checking that every position was labelled and written.
int moves_off_stockfish_best(double blunder_rate) {
  const std::string dir = ::testing::TempDir() + "/avocet_selfplay";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  SelfplayOptions options;
  options.book = {std::string(kStartFen)};
  options.depth = 2;
  options.opening_plies = 2;
  options.opening_temperature = options.temperature = 0.01;
  options.blunder_rate = blunder_rate;
  std::atomic<long> written{0};
  std::atomic<bool> stop{false};
  run_selfplay_worker(options, 0, 12, {dir + "/w.games", "{}", dir + "/w.tsv"}, written, stop);
  EXPECT_EQ(written, 12);
  const std::vector<LabelledGame> games = selfplay_games(dir + "/w.games");
  long plies = 0;
  int off_best = 0;
  for (const LabelledGame& g : games) {
    for (size_t i = 0; i < g.plies.size(); ++i)
      off_best += i >= 2 && g.plies[i].played != g.plies[i].best;
    plies += long(g.plies.size());
  }
  EXPECT_EQ(plies, 12);
  // A recipe that scores every move also writes every position's annotation line.
  std::ifstream annotations(dir + "/w.tsv");
  int lines = 0;
  for (std::string line; std::getline(annotations, line); ++lines) {
    const auto [pos, moves] = parse_annotation_line(line);
    EXPECT_EQ(moves.size(), legal_moves(pos).size()) << line;
  }
  EXPECT_EQ(lines, 12);
  std::filesystem::remove_all(dir);
  return off_best;
}

TEST(Datagen, SelfplayWritesGamesAndBlundersAtTheGivenRate) {
  if (!std::filesystem::exists("/usr/games/stockfish")) GTEST_SKIP() << "no Stockfish";
  EXPECT_EQ(moves_off_stockfish_best(0.0), 0);
  EXPECT_GE(moves_off_stockfish_best(1.0), 4);  // 10 uniformly random moves
}

// The cheaper recipes. With --multipv 1 the games hold every label and no annotation file is
// written; with a shallow pass every move is scored, and written as annotation lines.
TEST(Datagen, SelfplayRecipesLabelWhatTheySay) {
  if (!std::filesystem::exists("/usr/games/stockfish")) GTEST_SKIP() << "no Stockfish";
  const std::string dir = ::testing::TempDir() + "/avocet_recipes";
  for (const int shallow : {0, 2}) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    SelfplayOptions options;
    options.book = {std::string(kStartFen)};
    options.depth = 4;
    options.multipv = shallow ? 3 : 1;
    options.shallow_depth = shallow;
    std::atomic<long> written{0};
    std::atomic<bool> stop{false};
    std::atomic<double> seconds{0};
    run_selfplay_worker(options, 0, 6, {dir + "/w.games", "{}", dir + "/w.tsv"}, written, stop,
                        &seconds);
    EXPECT_GT(seconds.load(), 0.0) << "the engine's CPU time";
    const std::vector<LabelledGame> games = selfplay_games(dir + "/w.games");
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].plies.size(), 6u);
    EXPECT_EQ(std::filesystem::exists(dir + "/w.tsv"), shallow > 0);
    if (!shallow) continue;
    std::ifstream annotations(dir + "/w.tsv");
    int lines = 0;
    for (std::string line; std::getline(annotations, line); ++lines) {
      const auto [pos, moves] = parse_annotation_line(line);
      EXPECT_EQ(moves.size(), legal_moves(pos).size()) << line;
      for (const LabelledMove& m : moves) EXPECT_FALSE(std::isnan(m.win_probability)) << line;
    }
    EXPECT_EQ(lines, 6);
  }
  std::filesystem::remove_all(dir);
}

// A kill mid-game leaves part of a game at the end of the file: the next run cuts it off,
// keeps every whole game, and goes on with new games after them.
TEST(Datagen, SelfplayResumesAfterAKillMidGame) {
  if (!std::filesystem::exists("/usr/games/stockfish")) GTEST_SKIP() << "no Stockfish";
  const std::string dir = ::testing::TempDir() + "/avocet_resume";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  SelfplayOptions options;
  options.book = {std::string(kStartFen)};
  options.depth = 2;
  options.max_plies = 4;  // games of 4 plies: 10 positions are 3 games, the last cut short
  const WorkerFiles files{dir + "/w.games", R"({"recipe":"test"})", dir + "/w.tsv"};
  std::atomic<long> written{0};
  std::atomic<bool> stop{false};
  run_selfplay_worker(options, 0, 10, files, written, stop);
  ASSERT_EQ(selfplay_games(files.games).size(), 3u);
  std::filesystem::resize_file(files.games, std::filesystem::file_size(files.games) - 5);
  EXPECT_EQ(recover_game_records(files.games).games, 2);  // what the next run does first
  run_selfplay_worker(options, 0, 8, files, written, stop);
  const std::vector<LabelledGame> games = selfplay_games(files.games);
  ASSERT_EQ(games.size(), 4u);  // 2 kept + 2 new
  for (const LabelledGame& g : games) EXPECT_EQ(g.plies.size(), 4u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace avocet::datagen
