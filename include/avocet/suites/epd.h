// EPD test suites: `FEN(4 fields) op arg; op arg; ...` with best moves (`bm`, SAN), moves to
// avoid (`am`), an `id`, and STS-style points (`c0 "f5=10, Be5+=2"`, or `c8`/`c9` with
// points and UCI moves).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "avocet/chess/position.h"

namespace avocet::suites {

struct EpdEntry {
  Position position;
  std::string id;
  std::vector<Move> best, avoid;
  std::vector<std::pair<Move, int>> points;  // STS: move and its points (10 for the best)
};

// Parses one EPD line; throws std::invalid_argument naming the faulty part.
EpdEntry parse_epd_line(std::string_view line);

// Points the move earns: from `points` when given, else 1 for a bm move / no am move.
int score_epd_move(const EpdEntry& entry, Move move);
int max_epd_score(const EpdEntry& entry);

// What the entry asks for, in SAN, to show beside a miss: "bm Qxf7#", "am e4", "bm Nf3 am
// e4", or the STS points best first, "f5=10 Bf2=3 Be5+=2 Bg4=2".
std::string expected_epd_moves(const EpdEntry& entry);

// The category an id names, as STS scores per theme: the id without its running number and
// without a leading "STS(...)" tag: "Undermine.001" and "STS(v1.0) Undermine.001" give
// "Undermine", "BK.01" gives "BK". Empty when the id has no ".<digits>" ending.
std::string epd_category(std::string_view id);

}  // namespace avocet::suites
