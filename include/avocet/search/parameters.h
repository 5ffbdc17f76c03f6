// What a search is asked to be: the UCI option SearchMode, the constants of both tree searches
// (UCI options and `--set`, tuned by games), and where the Syzygy tables are probed. Read by
// every search; set by engine/options.cpp from one default-constructed SearchParameters.
#pragma once

namespace avocet::syzygy {
class Tablebases;
}  // namespace avocet::syzygy

namespace avocet::search {

// How the engine plays (UCI option SearchMode): PUCT (puct.h), the default since it beat
// this file's probability-limited search by SPRT at 10+0.1 (weights/results/
// 2026-11-28-puct-default.md); the probability-limited search; or argmax, no search at all
// (argmax_policy.h: the net's best value, as ChessBench plays).
enum class SearchMode { Probability, Puct, Argmax };

struct SearchParameters {
  SearchMode mode = SearchMode::Puct;
  double policy_temperature = 0.06;  // softmax temperature over Q for pi(a|s)
  double initial_threshold = 0.25;   // theta of the first iteration
  double threshold_factor = 0.5;     // theta multiplier per iteration
  // Forcing moves below theta (checks, and captures or promotions that SEE says win
  // material) are still expanded, at most forcing_extensions times along a line, when their
  // probability is at least theta / forcing_reach: a leaf's value then does not stand on a
  // check or a winning capture that the net judged from the parent alone.
  int forcing_extensions = 2;
  int forcing_reach = 16;

  // PUCT (puct.h). The exploration c(N) = cpuct + cpuct_factor * ln((N + cpuct_base) /
  // cpuct_base): Leela's defaults (2.15, 18368, 2.82 for its Q in [-1, 1]) halved for values in
  // [0, 1]; to be tuned by games.
  double cpuct = 1.075;
  double cpuct_base = 18368;
  double cpuct_factor = 1.41;
  // The temperature of the priors' softmax over the network's values.
  double prior_temperature = 0.06;
  // A visited move's value: (1 - blend) * the mean of the values backed up through it
  // + blend * its minimax value over the tree (the best line's leaf, as the probability-limited
  // search backs values up). The mean is robust to one bad leaf evaluation; the minimax value
  // follows the small differences between moves in a won position that the mean averages away
  // (king and queen against king). 0 is AlphaZero's mean alone.
  double minimax_blend = 0.5;
};

// Where and how the search probes the tables: after a zeroing move (capture or pawn move),
// at most probe_limit pieces and no castling rights. With rule50, cursed wins and blessed
// losses are draws.
struct TablebaseSettings {
  const syzygy::Tablebases* tables = nullptr;
  int probe_limit = 7;
  bool rule50 = true;
};

}  // namespace avocet::search
