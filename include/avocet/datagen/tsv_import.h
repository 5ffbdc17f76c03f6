// Converts Stockfish annotation files (`FEN<TAB>move:score move:score ...`, as `avocet datagen`
// writes beside its shards; tools/README.md describes the format) into training shards.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "avocet/datagen/shard.h"

namespace avocet::datagen {

struct ImportStats {
  long lines = 0;
  long positions = 0;
  long moves = 0;     // scored
  long unscored = 0;  // legal moves a partial label leaves unscored (`move:?`)
  long malformed = 0;
};

// Parses one annotation line into a position and its labelled moves; throws
// std::invalid_argument saying what is malformed.
std::pair<Position, std::vector<LabelledMove>> parse_annotation_line(std::string_view line);

// Reads lines from `in`, writes well-formed ones through `write`, and reports each malformed
// line (up to `max_reports` of them) to `report` as "line N: why".
ImportStats import_annotations(
    std::istream& in,
    const std::function<void(const Position&, const std::vector<LabelledMove>&)>& write,
    std::ostream& report, int max_reports = 20);

}  // namespace avocet::datagen
