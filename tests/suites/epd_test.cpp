#include "avocet/suites/epd.h"

#include <gtest/gtest.h>

#include "avocet/chess/move_text.h"

namespace avocet::suites {
namespace {

TEST(Epd, BestAndAvoidMoves) {
  const EpdEntry e = parse_epd_line(
      "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id \"mate.1\";");
  EXPECT_EQ(e.id, "mate.1");
  ASSERT_EQ(e.best.size(), 1u);
  EXPECT_EQ(to_uci(e.best[0]), "h5f7");
  EXPECT_EQ(score_epd_move(e, e.best[0]), 1);
  EXPECT_EQ(score_epd_move(e, parse_uci(e.position, "h5h4")), 0);
  const EpdEntry am = parse_epd_line("4k3/8/8/8/8/8/4P3/4K3 w - - am e4; id \"x\"");
  EXPECT_EQ(score_epd_move(am, parse_uci(am.position, "e2e4")), 0);
  EXPECT_EQ(score_epd_move(am, parse_uci(am.position, "e2e3")), 1);
}

TEST(Epd, StsPoints) {
  const EpdEntry e = parse_epd_line(
      "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"Undermine.001\"; "
      "c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\"; c8 \"10 2 3 2\"; c9 \"f4f5 d4e5 d4f2 f3g4\";");
  ASSERT_EQ(e.points.size(), 4u);
  EXPECT_EQ(max_epd_score(e), 10);
  EXPECT_EQ(score_epd_move(e, parse_uci(e.position, "d4f2")), 3);
  EXPECT_EQ(score_epd_move(e, parse_uci(e.position, "g1h1")), 0);
  const EpdEntry c9 = parse_epd_line(
      "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - c8 \"10 3\"; c9 \"f4f5 d4f2\";");
  EXPECT_EQ(score_epd_move(c9, parse_uci(c9.position, "d4f2")), 3);
}

TEST(Epd, MalformedLines) {
  for (const char* bad :
       {"", "4k3/8/8", "4k3/8/8/8/8/8/4P3/4K3 w - - id \"x\"", "4k3/8/8/8/8/8/4P3/4K3 w - - bm Qh5",
        "8/8/8/8/8/8/8/8 w - - bm e4", "4k3/8/8/8/8/8/4P3/4K3 w - - c0 \"e4=x\"",
        "4k3/8/8/8/8/8/4P3/4K3 w - - c8 \"1 2\"; c9 \"e2e4\""})
    EXPECT_THROW(parse_epd_line(bad), std::invalid_argument) << bad;
}

TEST(Epd, CategoryIsTheIdWithoutItsNumber) {
  EXPECT_EQ(epd_category("Undermine.001"), "Undermine");
  EXPECT_EQ(epd_category("STS(v1.0) Undermine.001"), "Undermine");
  EXPECT_EQ(epd_category("STS(v2.2) Open Files and Diagonals.015"), "Open Files and Diagonals");
  EXPECT_EQ(epd_category("BK.01"), "BK");
  EXPECT_EQ(epd_category("mate.1"), "mate");
  EXPECT_EQ(epd_category(""), "");
  EXPECT_EQ(epd_category("position 12"), "");
  EXPECT_EQ(epd_category("v1.0a"), "");
  EXPECT_EQ(epd_category(".001"), "");
  EXPECT_EQ(epd_category("Undermine."), "");
}

TEST(Epd, ExpectedMovesInSan) {
  EXPECT_EQ(expected_epd_moves(parse_epd_line("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/"
                                              "RNB1K1NR w KQkq - bm Qxf7#; am Qh4;")),
            "bm Qxf7# am Qh4");
  EXPECT_EQ(expected_epd_moves(parse_epd_line("4k3/8/8/8/8/8/4P3/4K3 w - - am e4 e3;")),
            "am e4 e3");
  // STS: the points, best first (ties in the file's order).
  EXPECT_EQ(expected_epd_moves(
                parse_epd_line("1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; "
                               "c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";")),
            "f5=10 Bf2=3 Be5+=2 Bg4=2");
}

}  // namespace
}  // namespace avocet::suites
