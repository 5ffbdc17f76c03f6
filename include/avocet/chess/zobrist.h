// Zobrist hashing keys: one random 64-bit key per (piece, square), castling-rights set,
// en passant file and side to move. Position keys are the XOR of the keys that apply.
#pragma once

#include <array>
#include <cstdint>

#include "avocet/chess/types.h"

namespace avocet::zobrist {

struct Keys {
  std::array<std::array<uint64_t, 64>, 12> piece_square;
  std::array<uint64_t, 16> castling;
  std::array<uint64_t, 8> en_passant_file;
  uint64_t black_to_move;
};

// splitmix64 over a fixed seed, evaluated at compile time: the same keys in every build.
constexpr Keys make_keys() {
  Keys keys{};
  uint64_t state = 0x41564F4345543031ULL;  // "AVOCET01"
  auto next = [&state]() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (auto& squares : keys.piece_square)
    for (auto& key : squares) key = next();
  for (auto& key : keys.castling) key = next();
  for (auto& key : keys.en_passant_file) key = next();
  keys.black_to_move = next();
  return keys;
}

inline constexpr Keys kKeys = make_keys();

inline uint64_t piece_square(Piece p, Square s) { return kKeys.piece_square[index(p)][index(s)]; }
inline uint64_t castling(uint8_t rights) { return kKeys.castling[rights]; }
inline uint64_t en_passant(Square s) { return kKeys.en_passant_file[index(file_of(s))]; }
inline uint64_t side() { return kKeys.black_to_move; }

}  // namespace avocet::zobrist
