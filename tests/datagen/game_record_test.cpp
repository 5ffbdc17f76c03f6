#include "avocet/datagen/game_record.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "../test_data.h"
#include "avocet/chess/move_text.h"

namespace avocet::datagen {
namespace {

std::vector<LabelledGame> all_games_of(const std::string& path) {
  std::vector<LabelledGame> games;
  read_game_records(path, [&](const LabelledGame& g) { games.push_back(g); });
  return games;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A game from a line of moves, the best move given as a second move where it differs.
LabelledGame game_of(const std::string& fen,
                     const std::vector<std::tuple<std::string, std::string, int>>& plies) {
  LabelledGame g{fen, {}, GameResult::NotOver};
  Position pos = Position::from_fen(fen);
  for (const auto& [played, best, score] : plies) {
    const Move m = parse_uci(pos, played);
    g.plies.push_back({best.empty() ? m : parse_uci(pos, best), score, m});
    pos.play(m);
  }
  return g;
}

void expect_same_games(const std::vector<LabelledGame>& a, const std::vector<LabelledGame>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].start_fen, b[i].start_fen);
    EXPECT_EQ(a[i].result, b[i].result);
    ASSERT_EQ(a[i].plies.size(), b[i].plies.size());
    for (size_t k = 0; k < a[i].plies.size(); ++k) {
      EXPECT_EQ(a[i].plies[k].best, b[i].plies[k].best) << "game " << i << " ply " << k;
      EXPECT_EQ(a[i].plies[k].played, b[i].plies[k].played) << "game " << i << " ply " << k;
      EXPECT_EQ(a[i].plies[k].score, b[i].plies[k].score) << "game " << i << " ply " << k;
    }
  }
}

TEST(GameRecord, ScoresInTheFilesEncoding) {
  EXPECT_EQ(encode_score("35"), 35);
  EXPECT_EQ(encode_score("-30000"), -30000);
  EXPECT_EQ(encode_score("m3"), 31997);
  EXPECT_EQ(encode_score("m-2"), -31998);
  for (const char* s : {"0", "-120", "m1", "m-1", "m17", "29999"})
    EXPECT_EQ(decode_score(encode_score(s)), s);
  for (const char* bad : {"", "m", "30001", "12x", "m2000", "--3"})
    EXPECT_THROW(encode_score(bad), std::invalid_argument) << bad;
}

TEST(GameRecord, CrcIsZlibs) {
  EXPECT_EQ(crc32("123456789"), 0xCBF43926u);  // the CRC-32 check value
  EXPECT_EQ(crc32(""), 0u);
}

// Castling both ways, en passant, a promotion, a random move, mate and extreme scores.
std::vector<LabelledGame> sample_games() {
  std::vector<LabelledGame> games;
  games.push_back(game_of(std::string(kStartFen), {{"e2e4", "", 30},
                                                   {"d7d5", "", -25},
                                                   {"e4e5", "e4d5", -80},
                                                   {"f7f5", "", 120},
                                                   {"e5f6", "", -100},
                                                   {"g8f6", "", 90},
                                                   {"g1f3", "", -95},
                                                   {"c8g4", "", 100},
                                                   {"f1e2", "", -30000},
                                                   {"b8c6", "", 30000},
                                                   {"e1g1", "", -31990},
                                                   {"d8d7", "", 31995}}));
  games.back().result = GameResult::NotOver;
  games.push_back(game_of("r3k3/6P1/8/8/8/8/8/4K3 b q - 0 40",
                          {{"e8c8", "", -500}, {"g7g8q", "g7g8r", 31999}, {"c8b8", "", -31998}}));
  games.back().result = GameResult::Drawn;
  games.push_back(game_of("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", {{"f7g7", "", 31999}}));
  games.back().result = GameResult::BlackMated;
  return games;
}

TEST(GameRecord, RoundTripAndAppend) {
  const std::string path = ::testing::TempDir() + "/avocet_round_trip.games";
  std::filesystem::remove(path);
  const std::vector<LabelledGame> games = sample_games();
  {
    GameRecordWriter writer(path, R"({"recipe":"test"})");
    writer.write(games[0]);
    writer.write(games[1]);
  }
  {
    GameRecordWriter writer(path, R"({"ignored":"when appending"})");  // as a resumed run
    writer.write(games[2]);
  }
  std::vector<LabelledGame> read;
  const std::string header =
      read_game_records(path, [&](const LabelledGame& g) { read.push_back(g); });
  EXPECT_EQ(header, R"({"recipe":"test"})");
  expect_same_games(read, games);
  std::filesystem::remove(path);
}

// The committed fixture is four labeller games; its .lines file is what the Python reader
// (tools/data/labels.py) makes of it. Both readers must agree position by position.
TEST(GameRecord, ReadsTheFixtureAsThePythonReaderDoes) {
  const std::vector<LabelledGame> games =
      all_games_of(testing::data_path("labels/four-games.games"));
  ASSERT_EQ(games.size(), 4u);
  std::ifstream golden(testing::data_path("labels/four-games.lines"));
  std::string line;
  long positions = 0;
  for (const LabelledGame& g : games) {
    Position pos = Position::from_fen(g.start_fen);
    for (const LabelledPly& ply : g.plies) {
      ASSERT_TRUE(std::getline(golden, line));
      const std::string fen = line.substr(0, line.find('\t'));
      EXPECT_EQ(Position::from_fen(fen).fen(), pos.fen()) << line;
      EXPECT_EQ(line.substr(line.find('\t') + 1),
                fmt::format("{}:{} *:?", to_uci(ply.best), decode_score(ply.score)));
      pos.play(ply.played);
      ++positions;
    }
  }
  EXPECT_FALSE(std::getline(golden, line)) << "the golden file has more positions";
  EXPECT_EQ(positions, 380);
}

TEST(GameRecord, ACutShortFileNamesTheGameAndKeepsTheOnesBefore) {
  const std::string path = ::testing::TempDir() + "/avocet_cut.games";
  const std::string bytes = file_bytes(testing::data_path("labels/four-games.games"));
  const std::vector<LabelledGame> whole =
      all_games_of(testing::data_path("labels/four-games.games"));
  for (const size_t cut : {size_t(1), size_t(7), size_t(300)}) {
    write_bytes(path, bytes.substr(0, bytes.size() - cut));
    std::vector<LabelledGame> read;
    try {
      read_game_records(path, [&](const LabelledGame& g) { read.push_back(g); });
      ADD_FAILURE() << "a file cut by " << cut << " bytes was read whole";
    } catch (const GameRecordError& e) {
      EXPECT_NE(std::string(e.what()).find(path + ": game 4"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("cut short"), std::string::npos) << e.what();
    }
    expect_same_games(read, {whole.begin(), whole.begin() + 3});
  }
  write_bytes(path, bytes.substr(0, 10));
  EXPECT_THROW(all_games_of(path), GameRecordError);  // the header itself cut
  std::filesystem::remove(path);
}

TEST(GameRecord, ADamagedGameIsNamedAndTheGamesBeforeItKept) {
  const std::string path = ::testing::TempDir() + "/avocet_damaged.games";
  std::string bytes = file_bytes(testing::data_path("labels/four-games.games"));
  const std::vector<LabelledGame> whole =
      all_games_of(testing::data_path("labels/four-games.games"));
  // The first game starts after the magic, the header's length and the header.
  const size_t header_length = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
  const size_t first_game = 12 + header_length;
  const size_t second_game =
      first_game + 1 + 2 + whole[0].start_fen.size() + 3 + 4 * whole[0].plies.size() + 4;
  size_t played = 0;
  for (const LabelledPly& p : whole[0].plies) played += p.played != p.best;
  const size_t target = second_game + 2 * played + 40;  // a byte inside the second game
  bytes[target] = char(bytes[target] ^ 0x20);
  write_bytes(path, bytes);
  std::vector<LabelledGame> read;
  try {
    read_game_records(path, [&](const LabelledGame& g) { read.push_back(g); });
    ADD_FAILURE() << "a damaged file was read whole";
  } catch (const GameRecordError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": game 2"), std::string::npos) << e.what();
  }
  expect_same_games(read, {whole.begin(), whole.begin() + 1});
  // Damage is not what a kill leaves: recovering the file refuses it rather than cut games.
  EXPECT_THROW(recover_game_records(path), GameRecordError);
  EXPECT_EQ(file_bytes(path), bytes);
  std::filesystem::remove(path);
}

TEST(GameRecord, RecoveryCutsOnlyAnUnfinishedLastGame) {
  const std::string path = ::testing::TempDir() + "/avocet_recover.games";
  const std::string bytes = file_bytes(testing::data_path("labels/four-games.games"));
  write_bytes(path, bytes.substr(0, bytes.size() - 9));
  const RecoveredGames kept = recover_game_records(path);
  EXPECT_EQ(kept.games, 3);
  EXPECT_GT(kept.cut_bytes, 9u);
  {
    GameRecordWriter writer(path, "{}");
    writer.write(sample_games()[2]);
  }
  EXPECT_EQ(all_games_of(path).size(), 4u);
  EXPECT_EQ(recover_game_records(path).cut_bytes, 0u);
  std::filesystem::remove(path);
}

TEST(GameRecord, NotAGamesFile) {
  const std::string path = ::testing::TempDir() + "/avocet_not_games.games";
  write_bytes(path, "FEN\tmoves\n");
  try {
    all_games_of(path);
    ADD_FAILURE() << "read a text file as games";
  } catch (const GameRecordError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": not a labelled-games file (no 'AVOGAME1' header)");
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace avocet::datagen
