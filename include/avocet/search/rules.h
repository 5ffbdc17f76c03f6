// What both searches know about a position besides their trees: the rules' exact results
// (mate, stalemate, the 50-move rule, dead positions, repetitions), the mates of a lone king and
// the tables' results after a zeroing move, the network's values through the table's cache, the
// move probabilities pi(a|s) the network's values give, and the 50-move damping of those
// values. The probability-limited search (probability_search.h) and PUCT (puct.h) share them,
// so the two score every exact result alike.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>

#include "avocet/chess/move.h"
#include "avocet/chess/movegen.h"
#include "avocet/chess/position.h"
#include "avocet/nn/evaluator.h"
#include "avocet/search/parameters.h"
#include "avocet/search/transposition_table.h"

namespace avocet::search {

// The exact value of `pos` for its side to move from the rules alone, `ply` plies from the
// root, or nullopt: mated (mated_value(ply)), stalemate, the 50-move rule, a dead position or a
// repetition (is_repetition_draw over `earlier`, which ends with the parent) are exact.
// `moves` are pos's legal moves.
std::optional<float> rule_value(const Position& pos, int ply, const MoveList& moves,
                                std::span<const uint64_t> earlier, size_t first_after_root);

// The tables' value of a position reached by a zeroing move (capture or pawn move), `ply` plies
// from the root, if `tablebases` covers it; each probe that answers counts in `tbhits`.
std::optional<float> tablebase_value_after_zeroing(const Position& pos, int ply,
                                                   const TablebaseSettings& tablebases,
                                                   std::atomic<uint64_t>& tbhits);

// What is known of `pos` beyond the rules, `ply` plies from the root: a lone king's mate
// against king and queen or king and rook (search/lone_king_mates.h), at any halfmove clock if
// it comes within the 50-move rule; else the tables' value after a zeroing move.
std::optional<float> ending_value(const Position& pos, int ply, const TablebaseSettings& tablebases,
                                  std::atomic<uint64_t>& tbhits);

// pi(a|s): the softmax of the values over `temperature`.
void move_probabilities(std::span<const float> values, double temperature, std::span<float> out);

// Q(s, a) for every move of `pos`, as the network gives it, through the table's cache.
void network_values(nn::Evaluator& evaluator, TranspositionTable& table, const Position& pos,
                    const MoveList& moves, std::span<float> values);

// Stockfish's rule-50 damping, applied to the network's values where the search uses them
// as values (leaves and move order; pi(a|s) and argmax mode see the net's own): a move that does
// not reset the 50-move counter has its advantage (value - 0.5) shrunk by halfmove_clock_after /
// 200. The net rates the quiet moves of a won endgame all close to 1; damped, captures and pawn
// moves (progress, and the way into the tables) come first, and shuffling towards a draw by the
// rule costs value.
float damp_by_rule50(float value, int halfmove_clock_after);

// The search's repetition rule, as Stockfish's: a position that repeats one reached after the
// root (inside the search) is a draw; one that repeats only positions from before the root,
// or the root itself, is a draw when this is its third occurrence. A single repetition of the
// game's history is not a draw: the opponent need not repeat. `earlier` holds the keys of
// the positions before this one, oldest first (the parent last); those from index
// `first_after_root` on were reached after the root. Only the last `halfmove_clock` plies can
// repeat, and only every other ply (same side to move).
bool is_repetition_draw(std::span<const uint64_t> earlier, size_t first_after_root, uint64_t key,
                        int halfmove_clock);

// A move's network value with the 50-move damping (damp_by_rule50) for the clock it leaves.
float damped_value(const Position& pos, Move m, float value);

}  // namespace avocet::search
