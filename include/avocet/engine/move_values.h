// The value of every legal move as the engine plays it, for people to read (`avocet eval` and
// the UCI command `eval`): a move the rules decide gets the rules' value (argmax_policy's
// rule_value_after: 1 for mate given, 0.5 for a draw by rule or claim); in a position the
// Syzygy tables cover, every other move gets the tables' result (as the engine ranks root
// moves, rank_root_moves); the rest get the network's win probability. Best first.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "avocet/chess/game.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/parameters.h"

namespace avocet::engine {

struct MoveValue {
  Move move;
  float value;          // for the side to move, after the move: what the engine plays by
  float network;        // the network's win probability, whatever decided `value`
  std::string decided;  // what set `value` when not the network: "mate", "stalemate",
                        // "tablebase win, DTZ 3", ...; empty for the network
};

// Every legal move, best first: by value, the tables' ranking (DTZ) among equal results,
// then the legal move order. Empty when there is no legal move. `tables.tables` may be null.
std::vector<MoveValue> value_moves(const Game& game, nn::Evaluator& evaluator,
                                   const search::TablebaseSettings& tables);

// What `eval` prints: the net's name, the FEN, then a header row and one row per move:
//   net: avocet-house-v2 (...)
//   fen: r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4
//   move   san      win       decided by                  net
//   h5f7   Qxf7#    1.000000  mate                   0.098042
// `net` is last, so that a script reading the network's raw output (tools/train/check_parity.py)
// takes each row's last word. A position without legal moves says "no legal moves
// (checkmate)" or "(stalemate)" instead of the rows.
std::string move_values_report(std::string_view net_name, const Game& game,
                               nn::Evaluator& evaluator, const search::TablebaseSettings& tables);

}  // namespace avocet::engine
