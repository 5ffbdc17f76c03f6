// Stockfish's answer to one MultiPV search, read from its `info` output.
//
// Stockfish prints every line (`multipv 1` to K) after each iteration, so the last line
// printed for each index is its answer at the deepest iteration. That line is taken even when
// it carries `upperbound` or `lowerbound`: Stockfish 15.1 flags the last index against the
// last search's window after re-sorting the K lines, so a move that has sunk into that slot
// can be flagged although the iteration is complete. Skipping such a line left the previous
// iteration's line in its slot, whose move could also stand in another slot with a second
// score, and the move that had sunk there lost its deep score (8 positions of 1.49 M,
// sessions 23-25).
#pragma once

#include <string>
#include <vector>

namespace avocet::datagen {

struct MultiPvLine {
  std::string move;  // the first move of the principal variation, in UCI notation
  bool mate = false;
  int value = 0;  // centipawns, or moves to mate (negative: being mated)
};

// The last line for each index 1..`lines` found in `output`, best first. An index with no
// line (a search stopped before it was reached) is left out, and so is one whose move a line
// printed later gives to another index: each move is given once, by its latest line.
std::vector<MultiPvLine> final_multipv_lines(const std::vector<std::string>& output, int lines);

}  // namespace avocet::datagen
