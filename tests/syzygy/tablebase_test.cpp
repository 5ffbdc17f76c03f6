#include "avocet/syzygy/tablebase.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../test_data.h"
#include "avocet/syzygy/material.h"

namespace avocet::syzygy {
namespace {

namespace fs = std::filesystem;

// Goldens whose tables (and those their captures reach) are committed.
constexpr int kFixtureWdlChecked = 797;
constexpr int kFixtureDtzChecked = 687;

struct Golden {
  std::string fen;
  int wdl;
  int dtz;
};

// tests/data/syzygy/goldens.tsv: FEN, WDL, DTZ from python-chess
// (tools/fixtures/syzygy_goldens.py).
std::vector<Golden> read_goldens(
    const std::string& path = testing::data_path("syzygy/goldens.tsv")) {
  std::ifstream in(path);
  std::vector<Golden> goldens;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    Golden g;
    std::string wdl, dtz;
    std::getline(fields, g.fen, '\t');
    std::getline(fields, wdl, '\t');
    std::getline(fields, dtz, '\t');
    g.wdl = std::stoi(wdl);
    g.dtz = std::stoi(dtz);
    goldens.push_back(g);
  }
  return goldens;
}

std::string fixture_dir() { return testing::data_path("syzygy"); }

// All 3-4 piece tables, outside the repository; the full golden check needs them.
std::string shared_dir() {
  if (const char* env = std::getenv("AVOCET_SYZYGY_DIR")) return env;
  return testing::data_path("../../../shared/data/syzygy");
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("avocet_syzygy_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

  // Copies a committed table, keeping its first `keep` bytes when given.
  void copy_fixture(const std::string& name, size_t keep = std::string::npos) const {
    std::ifstream in(fixture_dir() + "/" + name, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty()) << name;
    write(name, bytes.substr(0, keep));
  }
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream out(path_ / name, std::ios::binary);
    out << bytes;
  }

 private:
  fs::path path_;
};

bool any_contains(const std::vector<std::string>& messages, const std::string& part,
                  const std::string& part2 = "") {
  for (const auto& m : messages)
    if (m.find(part) != std::string::npos && m.find(part2) != std::string::npos) return true;
  return false;
}

std::string joined(const std::vector<std::string>& messages) {
  std::string s;
  for (const auto& m : messages) s += m + "\n";
  return s;
}

TEST(SyzygyMaterial, NamesAndKeys) {
  const auto m = Material::from_name("KQvKR");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->name(), "KQvKR");
  EXPECT_EQ(m->mirrored().name(), "KRvKQ");
  EXPECT_EQ(m->piece_count(), 4);
  EXPECT_FALSE(m->symmetric());
  EXPECT_TRUE(Material::from_name("KRvKR")->symmetric());
  EXPECT_EQ(Material::of(Position::from_fen("8/8/8/3k4/8/8/1Q6/K6r w - - 0 1")), *m);
  EXPECT_EQ(Material::of(Position::from_fen("8/8/3q4/3k4/8/8/8/K6R w - - 0 1")), m->mirrored());
  EXPECT_FALSE(Material::from_name("KvK"));
  EXPECT_FALSE(Material::from_name("QvK"));
  EXPECT_FALSE(Material::from_name("KQvKK"));
  EXPECT_FALSE(Material::from_name("KQQQQQQvK"));
  EXPECT_FALSE(Material::from_name("KXvK"));
}

TEST(SyzygyTablebases, ScanCountsCommittedTables) {
  std::vector<std::string> messages;
  const Tablebases tb(fixture_dir(), [&](const std::string& m) { messages.push_back(m); });
  EXPECT_EQ(tb.wdl_count(), 10);
  EXPECT_EQ(tb.dtz_count(), 8);
  EXPECT_EQ(tb.table_count(), 18);
  EXPECT_EQ(tb.max_pieces(), 4);
  EXPECT_TRUE(messages.empty()) << joined(messages);
}

TEST(SyzygyTablebases, KnownPositions) {
  const Tablebases tb(fixture_dir());
  // KQ v K, White to move: a win; Black to move and mated in the corner: a loss.
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")), Wdl::Win);
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")), Wdl::Loss);
  EXPECT_EQ(tb.probe_dtz(Position::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")), -1);
  // Stalemate is a draw.
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")), Wdl::Draw);
  EXPECT_EQ(tb.probe_dtz(Position::from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")), 0);
  // KN v K and KB v K are draws.
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("8/8/8/3k4/8/8/1N6/K7 w - - 0 1")), Wdl::Draw);
  EXPECT_EQ(tb.probe_dtz(Position::from_fen("8/8/8/3k4/8/8/1B6/K7 b - - 0 1")), 0);
}

// The tables know nothing of en passant rights; these results exist only through hxg6 e.p.
// and bxa3 e.p. (python-chess: 2/1 and 0/0; without the capture 0/0 and -2/-1).
TEST(SyzygyTablebases, EnPassantCapturesCount) {
  const Tablebases tb(fixture_dir());
  const Position win = Position::from_fen("7K/8/8/6pP/8/8/8/1k6 w - g6 0 1");
  ASSERT_EQ(win.en_passant_square(), Square::G6);
  EXPECT_EQ(tb.probe_wdl(win), Wdl::Win);
  EXPECT_EQ(tb.probe_dtz(win), 1);
  const Position draw = Position::from_fen("8/8/8/8/Pp6/1K6/8/3k4 b - a3 0 1");
  EXPECT_EQ(tb.probe_wdl(draw), Wdl::Draw);
  EXPECT_EQ(tb.probe_dtz(draw), 0);
  // The same squares without the right: the tables alone.
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("7K/8/8/6pP/8/8/8/1k6 w - - 0 1")), Wdl::Draw);
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("8/8/8/8/Pp6/1K6/8/3k4 b - - 0 1")), Wdl::Loss);
}

TEST(SyzygyTablebases, RefusesWhatTheTablesDoNotHold) {
  const Tablebases tb(fixture_dir());
  // Castling rights.
  EXPECT_FALSE(tb.probe_wdl(Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")));
  // Five pieces, more than the tables.
  EXPECT_FALSE(tb.probe_wdl(Position::from_fen("4k3/8/8/8/8/8/8/RNB1K3 w - - 0 1")));
  // A four-piece material not committed (KQ v KQ).
  EXPECT_FALSE(tb.probe_wdl(Position::from_fen("4k3/8/8/8/8/3q4/8/Q3K3 w - - 0 1")));
  EXPECT_FALSE(tb.probe_dtz(Position::start()));
}

// Every golden whose tables are committed; counted, so that a reader that returns nullopt
// everywhere cannot pass.
TEST(SyzygyTablebases, GoldensMatchCommittedTables) {
  const auto goldens = read_goldens();
  ASSERT_GE(goldens.size(), 2000u);
  const Tablebases tb(fixture_dir());
  int wdl_checked = 0, dtz_checked = 0;
  for (const Golden& g : goldens) {
    const Position pos = Position::from_fen(g.fen);
    const auto wdl = tb.probe_wdl(pos);
    if (wdl) {
      ++wdl_checked;
      EXPECT_EQ(value(*wdl), g.wdl) << g.fen;
    }
    const auto dtz = tb.probe_dtz(pos);
    if (dtz) {
      ++dtz_checked;
      EXPECT_EQ(*dtz, g.dtz) << g.fen;
    }
  }
  EXPECT_EQ(wdl_checked, kFixtureWdlChecked);
  EXPECT_EQ(dtz_checked, kFixtureDtzChecked);
  EXPECT_TRUE(tb.errors().empty()) << joined(tb.errors());
}

TEST(SyzygyTablebases, GoldensMatchAllTables) {
  if (!fs::is_directory(shared_dir())) GTEST_SKIP() << "no tables at " << shared_dir();
  // AVOCET_SYZYGY_GOLDENS: a larger golden file made by tools/fixtures/syzygy_goldens.py.
  const char* more = std::getenv("AVOCET_SYZYGY_GOLDENS");
  const auto goldens = more ? read_goldens(more) : read_goldens();
  ASSERT_GE(goldens.size(), 2000u);
  const Tablebases tb(shared_dir());
  ASSERT_EQ(tb.wdl_count(), 35);
  ASSERT_EQ(tb.dtz_count(), 35);
  int wdl_ok = 0, dtz_ok = 0;
  for (const Golden& g : goldens) {
    const Position pos = Position::from_fen(g.fen);
    const auto wdl = tb.probe_wdl(pos);
    const auto dtz = tb.probe_dtz(pos);
    EXPECT_TRUE(wdl && value(*wdl) == g.wdl)
        << g.fen << " wdl " << (wdl ? value(*wdl) : 99) << " expected " << g.wdl;
    EXPECT_TRUE(dtz && *dtz == g.dtz)
        << g.fen << " dtz " << dtz.value_or(9999) << " expected " << g.dtz;
    wdl_ok += wdl && value(*wdl) == g.wdl;
    dtz_ok += dtz && *dtz == g.dtz;
  }
  EXPECT_EQ(wdl_ok, int(goldens.size()));
  EXPECT_EQ(dtz_ok, int(goldens.size()));
  EXPECT_TRUE(tb.errors().empty()) << joined(tb.errors());
}

TEST(SyzygyTablebases, ConcurrentFirstProbes) {
  const auto goldens = read_goldens();
  const Tablebases tb(fixture_dir());
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (size_t i = size_t(t); i < goldens.size(); i += 2) {
        const auto wdl = tb.probe_wdl(Position::from_fen(goldens[i].fen));
        if (wdl && value(*wdl) != goldens[i].wdl) ++mismatches[size_t(t)];
      }
    });
  for (auto& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(SyzygyMalformed, MissingDirectory) {
  std::vector<std::string> messages;
  const std::string missing = "/nonexistent/avocet/syzygy";
  const Tablebases tb(missing + ":" + fixture_dir(),
                      [&](const std::string& m) { messages.push_back(m); });
  ASSERT_EQ(messages.size(), 1u) << joined(messages);
  EXPECT_TRUE(any_contains(messages, missing, "no such directory")) << joined(messages);
  // The other directory still works.
  EXPECT_EQ(tb.wdl_count(), 10);
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")), Wdl::Win);
}

TEST(SyzygyMalformed, TruncatedFile) {
  TempDir dir("truncated");
  dir.copy_fixture("KQvK.rtbw", 100);  // not 64k+16 bytes: refused by the scan
  dir.copy_fixture("KRvK.rtbw");
  const Tablebases tb(dir.str());
  const std::string path = (dir.path() / "KQvK.rtbw").string();
  EXPECT_TRUE(any_contains(tb.errors(), path, "truncated")) << joined(tb.errors());
  EXPECT_EQ(tb.wdl_count(), 1);
  EXPECT_FALSE(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")));
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1")), Wdl::Win);
}

TEST(SyzygyMalformed, TruncatedToPlausibleLength) {
  // Cut at a length the scan accepts: the parser finds the data past the end on first probe.
  TempDir dir("cut");
  dir.copy_fixture("KQvKR.rtbw", 64 * 20 + 16);
  dir.copy_fixture("KRvK.rtbw");
  std::vector<std::string> messages;
  const Tablebases tb(dir.str(), [&](const std::string& m) { messages.push_back(m); });
  EXPECT_TRUE(messages.empty()) << joined(messages);  // lazy: nothing read yet
  EXPECT_EQ(tb.wdl_count(), 2);
  const Position pos = Position::from_fen("8/8/8/3k4/8/8/1Q6/K6r w - - 0 1");
  EXPECT_FALSE(tb.probe_wdl(pos));
  EXPECT_FALSE(tb.probe_wdl(pos));  // reported once
  const std::string path = (dir.path() / "KQvKR.rtbw").string();
  ASSERT_EQ(messages.size(), 1u) << joined(messages);
  EXPECT_TRUE(any_contains(messages, path, "past the end")) << joined(messages);
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1")), Wdl::Win);
}

TEST(SyzygyMalformed, CorruptMagic) {
  TempDir dir("magic");
  std::ifstream in(fixture_dir() + "/KQvK.rtbw", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes[0] = 'X';
  dir.write("KQvK.rtbw", bytes);
  dir.copy_fixture("KQvK.rtbz");  // a DTZ file named as WDL is refused too
  fs::rename(dir.path() / "KQvK.rtbz", dir.path() / "KRvK.rtbw");
  const Tablebases tb(dir.str());
  EXPECT_TRUE(any_contains(tb.errors(), (dir.path() / "KQvK.rtbw").string(), "bad magic"))
      << joined(tb.errors());
  EXPECT_TRUE(any_contains(tb.errors(), (dir.path() / "KRvK.rtbw").string(), "bad magic"))
      << joined(tb.errors());
  EXPECT_EQ(tb.table_count(), 0);
  EXPECT_EQ(tb.max_pieces(), 0);
  EXPECT_FALSE(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")));
  EXPECT_FALSE(tb.probe_dtz(Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")));
}

TEST(SyzygyMalformed, CorruptBody) {
  // Right size and magic, garbage after the header: the parser refuses it by name.
  TempDir dir("body");
  std::ifstream in(fixture_dir() + "/KPvK.rtbw", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (size_t i = 5; i < 64; ++i) bytes[i] = char(0xEE);
  dir.write("KPvK.rtbw", bytes);
  const Tablebases tb(dir.str());
  EXPECT_EQ(tb.wdl_count(), 1);
  EXPECT_FALSE(tb.probe_wdl(Position::from_fen("8/8/8/3k4/8/8/1P6/K7 w - - 0 1")));
  EXPECT_TRUE(any_contains(tb.errors(), (dir.path() / "KPvK.rtbw").string(), "corrupt table"))
      << joined(tb.errors());
}

TEST(SyzygyMalformed, DirectoryNamedLikeATable) {
  TempDir dir("isdir");
  fs::create_directory(dir.path() / "KQvK.rtbw");
  dir.copy_fixture("KRvK.rtbw");
  const Tablebases tb(dir.str());
  EXPECT_TRUE(any_contains(tb.errors(), (dir.path() / "KQvK.rtbw").string(), "is a directory"))
      << joined(tb.errors());
  EXPECT_EQ(tb.wdl_count(), 1);
  EXPECT_EQ(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KR6 w - - 0 1")), Wdl::Win);
}

TEST(SyzygyMalformed, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  TempDir dir("unreadable");
  dir.copy_fixture("KQvK.rtbw");
  fs::permissions(dir.path() / "KQvK.rtbw", fs::perms::none);
  const Tablebases tb(dir.str());
  EXPECT_TRUE(any_contains(tb.errors(), (dir.path() / "KQvK.rtbw").string(), "cannot read"))
      << joined(tb.errors());
  EXPECT_FALSE(tb.probe_wdl(Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")));
}

}  // namespace
}  // namespace avocet::syzygy
