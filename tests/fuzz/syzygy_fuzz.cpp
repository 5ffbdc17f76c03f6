// libFuzzer target: the Syzygy table reader on arbitrary bytes. The first byte picks the
// material and the kind (WDL or DTZ), the rest is the table file. Parsing refuses the data
// with a message or accepts it; an accepted table then answers probes of positions of its
// material with a value or nullopt, and never reads outside the data.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "avocet/chess/position.h"
#include "avocet/syzygy/table_file.h"

namespace {

constexpr const char* kMaterials[8] = {"KQvK",  "KRvK",  "KPvK",  "KBNvK",
                                       "KQvKR", "KRvKR", "KPvKP", "KPPvK"};

// Places the pieces of `m` on pseudo-random squares (pawns on ranks 2-7); nullopt when the
// placement is not a legal position.
std::optional<avocet::Position> random_position(const avocet::syzygy::Material& m, uint64_t& seed) {
  using namespace avocet;
  auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return int(seed >> 58);
  };
  char board[64];
  std::fill(board, board + 64, '.');
  static constexpr char kLetters[] = "PNBRQK";
  for (Color c : {Color::White, Color::Black})
    for (int t = 0; t < kPieceTypeCount; ++t)
      for (int k = 0; k < m.count(c, PieceType(t)); ++k) {
        int s = next();
        while (board[s] != '.' || (t == 0 && (s < 8 || s >= 56))) s = (s + 1) & 63;
        board[s] = c == Color::White ? kLetters[t] : char(kLetters[t] + 32);
      }
  std::string fen;
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f) fen += board[r * 8 + f] == '.' ? '1' : board[r * 8 + f];
    if (r) fen += '/';
  }
  fen += next() & 1 ? " w - - 0 1" : " b - - 0 1";
  try {
    return Position::from_fen(fen);
  } catch (const FenError&) {
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avocet::syzygy;
  if (size < 1) return 0;
  const Material material = *Material::from_name(kMaterials[data[0] & 7]);
  const TableKind kind = data[0] & 8 ? TableKind::Dtz : TableKind::Wdl;
  std::string error;
  const auto table = TableFile::parse(kind, material, std::span(data + 1, size - 1), error);
  if (!table) {
    if (error.empty()) __builtin_trap();  // every refusal says why
    return 0;
  }
  uint64_t seed = size;
  for (int i = 0; i < 64; ++i) {
    const auto pos = random_position(i & 1 ? material : material.mirrored(), seed);
    if (!pos) continue;
    if (kind == TableKind::Wdl) {
      const auto v = table->wdl(*pos);
      if (v && (*v < -2 || *v > 2)) __builtin_trap();
    } else {
      for (int wdl : {-2, -1, 1, 2}) {
        const auto v = table->dtz(*pos, wdl);
        if (v && v->plies < 0) __builtin_trap();
      }
    }
  }
  return 0;
}
