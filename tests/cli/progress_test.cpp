#include "avocet/cli/progress.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace avocet::cli {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Redirected: a plain line every 5% of the items and after the last, never a `\r`.
TEST(Progress, PlainLinesEveryFewItemsWithoutCarriageReturns) {
  std::ostringstream err, out;
  Progress progress(err, /*terminal=*/false, 50, "puzzles");
  for (size_t done = 1; done <= 50; ++done) {
    if (done == 7) progress.print_line(out, "a result");
    progress.update(done, fmt::format("{:.1f}% solved", 100.0 * double(done / 5) / double(done)));
  }
  progress.finish();
  EXPECT_EQ(err.str().find('\r'), std::string::npos);
  EXPECT_EQ(out.str(), "a result\n");
  const std::vector<std::string> lines = lines_of(err.str());
  ASSERT_EQ(lines.size(), 17u) << err.str();  // every 3 items (5% of 50, rounded up), and 50
  EXPECT_EQ(lines.front().rfind("3/50 done, 0.0% solved", 0), 0u) << lines.front();
  EXPECT_EQ(lines[2].rfind("9/50 done, 11.1% solved, ", 0), 0u) << lines[2];
  EXPECT_NE(lines[2].find(" puzzles/s, "), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find(" left"), std::string::npos) << lines[2];
  EXPECT_EQ(lines.back().rfind("50/50 done, 20.0% solved, ", 0), 0u) << lines.back();
  EXPECT_EQ(lines.back().find(" left"), std::string::npos) << lines.back();
}

// Updates that arrive late (from another thread) and repeats add no line.
TEST(Progress, PlainLinesIgnoreLateUpdates) {
  std::ostringstream err;
  Progress progress(err, false, 10, "positions", 2);
  progress.update(2);
  progress.update(1);
  progress.update(2);
  progress.update(3);
  progress.update(4);
  EXPECT_EQ(lines_of(err.str()).size(), 2u) << err.str();
  EXPECT_EQ(err.str().rfind("2/10 done, ", 0), 0u) << err.str();
}

TEST(Progress, UnknownTotalCountsWithoutABar) {
  std::ostringstream err;
  Progress progress(err, false, 0, "positions", 100);
  for (size_t done = 1; done <= 250; ++done) progress.update(done);
  const std::vector<std::string> lines = lines_of(err.str());
  ASSERT_EQ(lines.size(), 2u) << err.str();
  EXPECT_EQ(lines[0].rfind("100 positions done, ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("200 positions done, ", 0), 0u) << lines[1];
}

// On a terminal: a bar redrawn in place, erased before a result line and drawn again after.
TEST(Progress, TerminalBarIsRedrawnInPlace) {
  std::ostringstream err, out;
  Progress progress(err, /*terminal=*/true, 4, "puzzles");
  EXPECT_EQ(err.str().rfind("\r[....................] 0/4 done", 0), 0u) << err.str();
  progress.update(4, "25.0% solved");  // the last update is drawn however soon it comes
  EXPECT_NE(err.str().find("\r[####################] 4/4 done, 25.0% solved"), std::string::npos)
      << err.str();
  const size_t before = err.str().size();
  progress.print_line(out, "a result");
  EXPECT_EQ(out.str(), "a result\n");
  const std::string after = err.str().substr(before);
  EXPECT_EQ(after.rfind("\r\x1b[K\r[####################] 4/4 done, 25.0% solved", 0), 0u) << after;
  progress.finish();
  const std::string text = err.str();
  EXPECT_TRUE(text.ends_with("\n"));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

TEST(Progress, IntervalsAndDurations) {
  EXPECT_EQ(Progress::line_interval(1), 1u);
  EXPECT_EQ(Progress::line_interval(50), 3u);
  EXPECT_EQ(Progress::line_interval(1000), 50u);
  EXPECT_EQ(Progress::line_interval(100000), 100u);
  EXPECT_EQ(Progress::line_interval(0), 100u);
  EXPECT_EQ(Progress::duration_text(16.4), "16 s");
  EXPECT_EQ(Progress::duration_text(725), "12 min");
  EXPECT_EQ(Progress::duration_text(2 * 3600 + 5 * 60 + 10), "2 h 05 min");
}

}  // namespace
}  // namespace avocet::cli
