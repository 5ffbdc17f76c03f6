// An engine that dies: fake 'engines' (shell scripts) that exit or are killed mid-session.
// UciProcess must report how the engine ended (never die of SIGPIPE itself) and leave no
// child behind; `avocet datagen` must name the failure and keep the shards written so far.
#include "avocet/datagen/uci_process.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "avocet/cli/cli.h"
#include "avocet/datagen/game_record.h"
#include "avocet/datagen/shard.h"

namespace avocet::datagen {
namespace {

// Writes an executable /bin/sh script and returns its path.
std::string fake_engine(const std::string& name, const std::string& body) {
  const std::string path = ::testing::TempDir() + "avocet_fake_engine_" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

// True when this process has no child left, running or unreaped.
bool no_children() { return waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(UciProcess, AnEngineThatExitsIsReportedNotASigpipe) {
  const std::string path = fake_engine("exits", "read line\necho uciok\nexit 3\n");
  UciProcess engine(path);
  // Writing to an engine that has gone fails with EPIPE, which without MSG_NOSIGNAL would
  // kill this test with SIGPIPE. Until the engine has exited, the lines are only buffered.
  std::string error = "(no error)";
  for (int i = 0; i < 1000 && error == "(no error)"; ++i) {
    error = error_of([&] { engine.send("isready"); });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(error, "'" + path + "' exited with status 3 (sending 'isready')");
  EXPECT_EQ(error_of([&] { engine.read_until("readyok"); }),
            "'" + path + "' exited with status 3 (waiting for 'readyok')");
  EXPECT_TRUE(no_children());
}

TEST(UciProcess, AKilledEngineIsNamedWithItsSignal) {
  const std::string path =
      fake_engine("killed", "read line\necho uciok\nread line\nkill -KILL $$\n");
  UciProcess engine(path);
  engine.send("go depth 1");
  EXPECT_EQ(error_of([&] { engine.read_until("bestmove"); }),
            "'" + path + "' was killed by signal 9 (Killed) (waiting for 'bestmove')");
  EXPECT_TRUE(no_children());
}

TEST(UciProcess, AFailedStartLeavesNoChildBehind) {
  EXPECT_EQ(error_of([] { UciProcess engine("/nonexistent/stockfish"); }),
            "cannot run '/nonexistent/stockfish': No such file or directory");
  EXPECT_TRUE(no_children());
  const std::string mute = fake_engine("mute", "read line\nexit 5\n");
  EXPECT_EQ(error_of([&] { UciProcess engine(mute); }),
            "'" + mute + "' exited with status 5 (waiting for 'uciok')");
  EXPECT_TRUE(no_children());
}

// Plays 1. e4 e5 as its only MultiPV line for the first two positions, then is killed.
const char* kCrashingEngine = R"(n=0
while read -r line; do
  case "$line" in
    uci) echo "id name crashing fake"; echo uciok ;;
    isready) echo readyok ;;
    go*) n=$((n + 1))
      case $n in
        1) echo "info depth 1 multipv 1 score cp 30 pv e2e4"; echo "bestmove e2e4" ;;
        2) echo "info depth 1 multipv 1 score cp -25 pv e7e5"; echo "bestmove e7e5" ;;
        *) kill -KILL $$ ;;
      esac ;;
  esac
done
)";

TEST(UciProcess, DatagenNamesACrashedEngineAndKeepsItsGames) {
  const std::string engine = fake_engine("crashing", kCrashingEngine);
  const std::string dir = ::testing::TempDir() + "avocet_crash_shards";
  std::filesystem::remove_all(dir);
  const std::string book = ::testing::TempDir() + "avocet_crash_book.epd";
  std::ofstream(book) << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n";

  const char* argv[] = {"avocet",     "datagen", "--stockfish", engine.c_str(), "--book",
                        book.c_str(), "-o",      dir.c_str(),   "--positions",  "10"};
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(cli::run(int(std::size(argv)), argv, in, out, err), 2);
  const std::string expected = "avocet: datagen worker 0: '" + engine +
                               "' was killed by signal 9 (Killed) (waiting for 'bestmove'); 2 "
                               "positions written before it are kept\n";
  EXPECT_TRUE(err.str().ends_with(expected)) << err.str();

  // Both positions labelled before the crash are kept: the game cut short, and their labels.
  std::vector<LabelledGame> games;
  read_game_records(dir + "/sf-seed1-worker0.games",
                    [&](const LabelledGame& g) { games.push_back(g); });
  ASSERT_EQ(games.size(), 1u);
  ASSERT_EQ(games[0].plies.size(), 2u);
  EXPECT_EQ(games[0].result, GameResult::NotOver);
  EXPECT_EQ(games[0].plies[1].score, -25);
  std::ifstream annotations(dir + "/sf-seed1-worker0.tsv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(annotations, line);) lines.push_back(line);
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\te2e4:30",
                       "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\te7e5:-25"}));
  EXPECT_TRUE(no_children());
  std::filesystem::remove_all(dir);
}

// Burns a tenth of a second of CPU on its first move (more than the folder's budget below),
// then is slow to answer the second: the budget stops datagen while that move is in flight.
const char* kSlowSecondMoveEngine = R"(n=0
while read -r line; do
  case "$line" in
    uci) echo "id name slow fake"; echo uciok ;;
    isready) echo readyok ;;
    go*) n=$((n + 1))
      case $n in
        1) i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done
           echo "info depth 1 multipv 1 score cp 30 pv e2e4"; echo "bestmove e2e4" ;;
        2) sleep 2; echo "info depth 1 multipv 1 score cp -25 pv e7e5"; echo "bestmove e7e5" ;;
        *) sleep 60 ;;
      esac ;;
  esac
done
)";

// The last progress line counts what the summary counts, the move that was in flight when the
// budget ran out included.
TEST(UciProcess, DatagenProgressEndsAtTheSummarysCount) {
  const std::string engine = fake_engine("slow_second_move", kSlowSecondMoveEngine);
  const std::string dir = ::testing::TempDir() + "avocet_budget_shards";
  std::filesystem::remove_all(dir);

  const char* argv[] = {"avocet",    "datagen",     "--stockfish", engine.c_str(), "-o",
                        dir.c_str(), "--positions", "10",          "--seconds",    "0.01"};
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(cli::run(int(std::size(argv)), argv, in, out, err), 0) << err.str();
  EXPECT_NE(out.str().find("wrote 2 positions"), std::string::npos) << out.str();
  std::vector<std::string> lines;
  std::istringstream progress(err.str());
  for (std::string line; std::getline(progress, line);) lines.push_back(line);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("2/10 done", 0), 0u) << err.str();
  EXPECT_TRUE(no_children());
  std::filesystem::remove_all(dir);
}

// Without --book every game starts from the start position (there is no default book file).
TEST(UciProcess, DatagenWithoutABookStartsFromTheStartPosition) {
  const std::string engine = fake_engine("crashing", kCrashingEngine);
  const std::string dir = ::testing::TempDir() + "avocet_no_book_shards";
  std::filesystem::remove_all(dir);

  const char* argv[] = {"avocet", "datagen",   "--stockfish", engine.c_str(),
                        "-o",     dir.c_str(), "--positions", "10"};
  std::istringstream in;
  std::ostringstream out, err;
  EXPECT_EQ(cli::run(int(std::size(argv)), argv, in, out, err), 2);
  EXPECT_EQ(out.str().rfind("the start position (no --book), 1 worker, writing to " + dir, 0), 0u)
      << out.str();
  std::ifstream annotations(dir + "/sf-seed1-worker0.tsv");
  std::string first;
  ASSERT_TRUE(std::getline(annotations, first)) << err.str();
  EXPECT_EQ(first, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\te2e4:30");
  EXPECT_TRUE(no_children());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace avocet::datagen
