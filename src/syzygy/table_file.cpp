#include "avocet/syzygy/table_file.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <utility>

#include "encoding.h"

namespace avocet::syzygy {

namespace {

constexpr uint8_t kWdlMagic[4] = {0x71, 0xE8, 0x23, 0x5D};
constexpr uint8_t kDtzMagic[4] = {0xD7, 0x66, 0x0C, 0xA5};
constexpr int kMaxPieces = 7;

// Bounds-checked little/big-endian reads from the mapped file.
class Bytes {
 public:
  explicit Bytes(std::span<const uint8_t> b) : b_(b) {}
  size_t size() const { return b_.size(); }
  bool has(uint64_t offset, uint64_t n) const { return offset <= size() && n <= size() - offset; }
  uint8_t u8(size_t o) const { return b_[o]; }
  uint16_t u16le(size_t o) const { return uint16_t(b_[o] | b_[o + 1] << 8); }
  uint32_t u32le(size_t o) const {
    return uint32_t(b_[o]) | uint32_t(b_[o + 1]) << 8 | uint32_t(b_[o + 2]) << 16 |
           uint32_t(b_[o + 3]) << 24;
  }
  // Big-endian reads past the end see zero bytes.
  uint64_t be_padded(size_t o, int n) const {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | (o + i < size() ? b_[o + i] : 0);
    return v;
  }

 private:
  std::span<const uint8_t> b_;
};

constexpr Color code_color(uint8_t code) { return code & 8 ? Color::Black : Color::White; }
// Piece codes: 1..6 = pawn, knight, bishop, rook, queen, king.
constexpr PieceType code_type(uint8_t code) { return PieceType((code & 7) - 1); }
constexpr bool valid_code(uint8_t code) { return (code & 7) >= 1 && (code & 7) <= 6; }

}  // namespace

// Huffman-coded Re-Pair symbols in fixed-size blocks: one compressed stream of values.
struct TableFile::Compression {
  bool constant = false;  // every position has `constant_value`
  uint16_t constant_value = 0;
  uint8_t block_bits = 0;  // a block is 2^block_bits bytes
  uint8_t index_bits = 0;  // one index entry per 2^index_bits positions
  uint8_t min_len = 0, max_len = 0;
  uint32_t real_blocks = 0, total_blocks = 0;
  size_t lowest_symbol = 0;  // u16 per code length min_len..max_len
  size_t symbol_pairs = 0;   // 3 bytes per symbol: two 12-bit children, or a value
  uint32_t symbol_count = 0;
  std::vector<uint32_t> expansion;  // values a symbol stands for, minus one
  std::vector<uint64_t> base;       // smallest left-aligned code of each length
  size_t index_table = 0, size_table = 0, data = 0;
  uint64_t index_bytes = 0, size_bytes = 0, data_bytes = 0;
};

// How the pieces of one side to move (and pawn file) map to an index.
struct TableFile::Encoding {
  int pieces = 0;
  std::array<uint8_t, kMaxPieces> codes{};    // piece codes in index order
  std::array<uint8_t, kMaxPieces> group{};    // size of the group starting here, else 0
  std::array<uint64_t, kMaxPieces> factor{};  // multiplier of the group starting here
  uint64_t positions = 0;                     // size of the index space
};

struct TableFile::Part {
  bool present = false;
  Encoding encoding;
  Compression compression;
  uint8_t flags = 0;  // DTZ: bit 0 side stored, bit 1 value maps, bit 2/3 full precision
                      // of wins/losses, bit 4 16-bit maps
  std::array<size_t, 4> map_offset{};
  std::array<uint32_t, 4> map_length{};
};

TableFile::~TableFile() = default;

namespace {

using Compression = TableFile::Compression;
using Encoding = TableFile::Encoding;
using Part = TableFile::Part;

// Reads the piece codes of one side at `offset` (the nibble `high` selects the side) and
// derives groups and factors. `order` and `order2` place the leading group and the other
// colour's pawns among the factors. Returns an error message or empty.
std::string setup_encoding(Encoding& e, const Bytes& bytes, size_t offset, bool high, int pieces,
                           int unique_lead, int lead_pawns, int other_pawns, int order, int order2,
                           int pawn_file, Material& codes_material) {
  const auto& g = encoding::geometry();
  e.pieces = pieces;
  codes_material = Material();
  for (int i = 0; i < pieces; ++i) {
    const uint8_t byte = bytes.u8(offset + size_t(i));
    e.codes[i] = high ? byte >> 4 : byte & 15;
    if (!valid_code(e.codes[i])) return "invalid piece code";
    codes_material.add(code_color(e.codes[i]), code_type(e.codes[i]));
  }
  auto count = [&](uint8_t code) {
    return codes_material.count(code_color(code), code_type(code));
  };

  // Groups: the leading ones, then runs of identical pieces.
  int i = 0;
  if (lead_pawns > 0) {
    for (int k = 0; k < lead_pawns; ++k)
      if (e.codes[k] != e.codes[0] || code_type(e.codes[0]) != PieceType::Pawn)
        return "leading pawns expected first";
    if (count(e.codes[0]) != lead_pawns) return "leading pawn count mismatch";
    e.group[0] = uint8_t(lead_pawns);
    i = lead_pawns;
    if (other_pawns > 0) {
      for (int k = i; k < i + other_pawns; ++k)
        if (e.codes[k] != e.codes[i] || code_type(e.codes[i]) != PieceType::Pawn ||
            e.codes[i] == e.codes[0])
          return "second pawn group expected";
      if (count(e.codes[i]) != other_pawns) return "pawn count mismatch";
      e.group[i] = uint8_t(other_pawns);
      i += other_pawns;
    }
  } else {
    for (int k = 0; k < unique_lead; ++k)
      if (count(e.codes[k]) != 1) return "leading pieces are not unique";
    e.group[0] = uint8_t(unique_lead);
    i = unique_lead;
  }
  std::vector<int> rest;  // start of each remaining group
  while (i < pieces) {
    int j = i;
    while (j < pieces && e.codes[j] == e.codes[i]) ++j;
    if (j - i != count(e.codes[i])) return "pieces of one kind are not contiguous";
    e.group[i] = uint8_t(j - i);
    rest.push_back(i);
    i = j;
  }

  // Factors: the groups multiply in the order the file gives; the leading group sits at
  // position `order`, the other colour's pawns at `order2`.
  const int slots = 1 + (other_pawns > 0) + int(rest.size());
  if (order >= slots) return "bad group order";
  if (other_pawns > 0 && (order2 >= slots || order2 == order)) return "bad group order";
  uint64_t f = 1;
  int free_squares = 64 - (lead_pawns > 0 ? lead_pawns + other_pawns : unique_lead);
  size_t next_rest = 0;
  for (int k = 0; k < slots; ++k) {
    if (k == order) {
      e.factor[0] = f;
      if (lead_pawns > 0)
        f *= g.lead_pawn_count[lead_pawns][pawn_file];
      else
        f *= unique_lead == 3 ? encoding::kThreeUniquePlacements : encoding::kTwoKingsPlacements;
    } else if (other_pawns > 0 && k == order2) {
      e.factor[lead_pawns] = f;
      f *= g.binomial[other_pawns][48 - lead_pawns];
    } else {
      const int start = rest[next_rest++];
      e.factor[start] = f;
      f *= g.binomial[e.group[start]][free_squares];
      free_squares -= e.group[start];
    }
  }
  e.positions = f;
  return {};
}

// Expansion lengths of symbols, children first (iteratively: the data may hold cycles).
std::string setup_expansions(Compression& c, const Bytes& bytes) {
  c.expansion.assign(c.symbol_count, 0);
  std::vector<uint8_t> state(c.symbol_count, 0);  // 0 new, 1 on the stack, 2 done
  std::vector<uint32_t> stack;
  auto children = [&](uint32_t s) {
    const size_t w = c.symbol_pairs + 3 * size_t(s);
    const uint32_t left = uint32_t((bytes.u8(w + 1) & 15) << 8 | bytes.u8(w));
    const uint32_t right = uint32_t(bytes.u8(w + 2) << 4 | bytes.u8(w + 1) >> 4);
    return std::pair(left, right);
  };
  for (uint32_t root = 0; root < c.symbol_count; ++root) {
    if (state[root] == 2) continue;
    stack.push_back(root);
    state[root] = 1;
    while (!stack.empty()) {
      const uint32_t s = stack.back();
      const auto [left, right] = children(s);
      if (right == 0xFFF) {  // a value, not a pair
        state[s] = 2;
        stack.pop_back();
        continue;
      }
      if (left >= c.symbol_count || right >= c.symbol_count) return "symbol out of range";
      bool ready = true;
      for (uint32_t child : {left, right}) {
        if (state[child] == 1) return "cyclic symbol table";
        if (state[child] == 0) {
          state[child] = 1;
          stack.push_back(child);
          ready = false;
          break;
        }
      }
      if (!ready) continue;
      const uint64_t length = uint64_t(c.expansion[left]) + c.expansion[right] + 1;
      if (length > (uint64_t{1} << 30)) return "symbol expands too far";
      c.expansion[s] = uint32_t(length);
      state[s] = 2;
      stack.pop_back();
    }
  }
  return {};
}

// Canonical Huffman code: base[l] is the smallest code of length min_len + l, left-aligned
// in 64 bits.
void setup_code_bases(Compression& c, const Bytes& bytes) {
  const int lengths = c.max_len - c.min_len + 1;
  c.base.assign(size_t(lengths), 0);
  for (int i = lengths - 2; i >= 0; --i)
    c.base[i] = (c.base[i + 1] + bytes.u16le(c.lowest_symbol + 2 * size_t(i)) -
                 bytes.u16le(c.lowest_symbol + 2 * size_t(i) + 2)) /
                2;
  for (int i = 0; i < lengths; ++i) c.base[i] <<= 64 - (c.min_len + i);
}

// Reads the compression header at `offset`; `next` receives the offset after it.
std::string setup_compression(Compression& c, const Bytes& bytes, size_t offset, uint64_t positions,
                              bool wdl, size_t& next) {
  if (!bytes.has(offset, 2)) return "compression header past the end";
  const uint8_t flags = bytes.u8(offset);
  if (flags & 0x80) {
    c.constant = true;
    c.constant_value = wdl ? bytes.u8(offset + 1) : 0;
    next = offset + 2;
    return {};
  }
  if (!bytes.has(offset, 12)) return "compression header past the end";
  c.block_bits = bytes.u8(offset + 1);
  c.index_bits = bytes.u8(offset + 2);
  c.real_blocks = bytes.u32le(offset + 4);
  c.total_blocks = c.real_blocks + bytes.u8(offset + 3);
  c.max_len = bytes.u8(offset + 8);
  c.min_len = bytes.u8(offset + 9);
  if (c.block_bits > 32 || c.index_bits < 1 || c.index_bits > 62)
    return "bad block size or index granularity";
  if (c.total_blocks < c.real_blocks) return "bad block count";
  if (c.min_len < 1 || c.max_len < c.min_len || c.max_len > 63) return "bad code lengths";
  const int lengths = c.max_len - c.min_len + 1;
  c.lowest_symbol = offset + 10;
  if (!bytes.has(c.lowest_symbol, 2 * size_t(lengths) + 2)) return "symbol table past the end";
  c.symbol_count = bytes.u16le(c.lowest_symbol + 2 * size_t(lengths));
  c.symbol_pairs = c.lowest_symbol + 2 * size_t(lengths) + 2;
  if (c.symbol_count == 0 || !bytes.has(c.symbol_pairs, 3 * uint64_t(c.symbol_count)))
    return "symbol table past the end";
  next = c.symbol_pairs + 3 * size_t(c.symbol_count) + (c.symbol_count & 1);
  if (std::string e = setup_expansions(c, bytes); !e.empty()) return e;
  setup_code_bases(c, bytes);

  const uint64_t entries = (positions + (uint64_t{1} << c.index_bits) - 1) >> c.index_bits;
  c.index_bytes = 6 * entries;
  c.size_bytes = 2 * uint64_t(c.total_blocks);
  if (c.real_blocks > (uint64_t(bytes.size()) >> c.block_bits)) return "blocks past the end";
  c.data_bytes = uint64_t(c.real_blocks) << c.block_bits;
  return {};
}

// The value at `index` of a compressed stream; nullopt on inconsistent data.
std::optional<uint32_t> decompress(const Compression& c, const Bytes& bytes, bool wdl,
                                   uint64_t index) {
  if (c.constant) return c.constant_value;
  const uint64_t entry = index >> c.index_bits;
  if (6 * entry + 6 > c.index_bytes) return std::nullopt;
  const size_t at = c.index_table + 6 * size_t(entry);
  int64_t block = bytes.u32le(at);
  int64_t literal = int64_t(index & ((uint64_t{1} << c.index_bits) - 1)) -
                    (int64_t{1} << (c.index_bits - 1)) + bytes.u16le(at + 4);
  if (block >= c.total_blocks) return std::nullopt;
  auto values_in = [&](int64_t b) { return int64_t(bytes.u16le(c.size_table + 2 * size_t(b))); };
  while (literal < 0) {
    if (--block < 0) return std::nullopt;
    literal += values_in(block) + 1;
  }
  while (literal > values_in(block)) {
    literal -= values_in(block) + 1;
    if (++block >= c.total_blocks) return std::nullopt;
  }
  if (block >= c.real_blocks) return std::nullopt;

  size_t ptr = c.data + (size_t(block) << c.block_bits);
  uint64_t code = bytes.be_padded(ptr, 8);
  ptr += 8;
  int used = 0;  // bits of `code` consumed since the last refill
  uint32_t symbol;
  for (;;) {
    int l = 0;
    while (code < c.base[l]) ++l;  // base[last] is 0: ends at max_len
    symbol = bytes.u16le(c.lowest_symbol + 2 * size_t(l)) +
             uint32_t((code - c.base[l]) >> (64 - (c.min_len + l)));
    if (symbol >= c.symbol_count) return std::nullopt;
    if (literal < int64_t(c.expansion[symbol]) + 1) break;
    literal -= int64_t(c.expansion[symbol]) + 1;
    code <<= c.min_len + l;
    used += c.min_len + l;
    if (used >= 32) {
      used -= 32;
      code |= bytes.be_padded(ptr, 4) << used;
      ptr += 4;
    }
  }
  while (c.expansion[symbol] != 0) {
    const size_t w = c.symbol_pairs + 3 * size_t(symbol);
    const uint32_t left = uint32_t((bytes.u8(w + 1) & 15) << 8 | bytes.u8(w));
    if (literal < int64_t(c.expansion[left]) + 1) {
      symbol = left;
    } else {
      literal -= int64_t(c.expansion[left]) + 1;
      symbol = uint32_t(bytes.u8(w + 2) << 4 | bytes.u8(w + 1) >> 4);
    }
  }
  const size_t w = c.symbol_pairs + 3 * size_t(symbol);
  return wdl ? uint32_t(bytes.u8(w)) : uint32_t((bytes.u8(w + 1) & 15) << 8 | bytes.u8(w));
}

// Sorts sq[from, to) by `less`: at most seven squares, so insertion sort.
template <class Less>
void sort_squares(std::array<int, kMaxPieces>& sq, int from, int to, Less less) {
  for (int i = from + 1; i < to; ++i)
    for (int j = i; j > from && less(sq[j], sq[j - 1]); --j) std::swap(sq[j], sq[j - 1]);
}

// Index of `sq[0..pieces)` (squares in the encoding's order) in a pawnless table.
std::optional<uint64_t> encode_pieces(const Encoding& e, int unique_lead,
                                      std::array<int, kMaxPieces> sq) {
  const auto& g = encoding::geometry();
  const int n = e.pieces;
  if (sq[0] & 4)
    for (int i = 0; i < n; ++i) sq[i] ^= 7;
  if (sq[0] & 32)
    for (int i = 0; i < n; ++i) sq[i] ^= 56;
  // The first leading piece off the diagonal decides the diagonal reflection.
  for (int i = 0; i < unique_lead; ++i) {
    const int d = encoding::off_diagonal(sq[i]);
    if (d == 0) continue;
    if (d > 0)
      for (int k = 0; k < n; ++k) sq[k] = encoding::flip_diagonal(sq[k]);
    break;
  }

  uint64_t index;
  if (unique_lead == 3) {
    const int a = sq[0], b = sq[1], c = sq[2];
    const int b_skip = b > a;
    const int c_skip = (c > a) + (c > b);
    using encoding::off_diagonal;
    if (off_diagonal(a))
      index = uint64_t(g.triangle[a]) * 63 * 62 + uint64_t(b - b_skip) * 62 + uint64_t(c - c_skip);
    else if (off_diagonal(b))
      index = 6 * 63 * 62 + uint64_t(encoding::rank_of(a)) * 28 * 62 +
              uint64_t(g.below_diagonal[b]) * 62 + uint64_t(c - c_skip);
    else if (off_diagonal(c))
      index = 6 * 63 * 62 + 4 * 28 * 62 + uint64_t(encoding::rank_of(a)) * 7 * 28 +
              uint64_t(encoding::rank_of(b) - b_skip) * 28 + uint64_t(g.below_diagonal[c]);
    else
      index = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + uint64_t(encoding::rank_of(a)) * 7 * 6 +
              uint64_t(encoding::rank_of(b) - b_skip) * 6 + uint64_t(encoding::rank_of(c) - c_skip);
  } else {
    const int k = g.king_pair[g.triangle[sq[0]]][sq[1]];
    if (k < 0) return std::nullopt;  // kings touch
    index = uint64_t(k);
  }
  index *= e.factor[0];

  for (int i = unique_lead; i < n; i += e.group[i]) {
    const int t = e.group[i];
    if (t == 0 || i + t > n) return std::nullopt;
    sort_squares(sq, i, i + t, std::less<int>());
    uint64_t s = 0;
    for (int m = i; m < i + t; ++m) {
      int below = 0;
      for (int l = 0; l < i; ++l) below += sq[m] > sq[l];
      s += g.binomial[m - i + 1][sq[m] - below];
    }
    index += s * e.factor[i];
  }
  return index;
}

// Index in a table with pawns; sq[0] is the leading pawn nearest the a/h file edge.
std::optional<uint64_t> encode_pawns(const Encoding& e, int lead_pawns, int other_pawns,
                                     std::array<int, kMaxPieces> sq) {
  const auto& g = encoding::geometry();
  const int n = e.pieces;
  if (sq[0] & 4)
    for (int i = 0; i < n; ++i) sq[i] ^= 7;
  for (int i = 0; i < n; ++i)
    if (i < lead_pawns + other_pawns && (sq[i] < 8 || sq[i] >= 56)) return std::nullopt;
  sort_squares(sq, 1, lead_pawns,
               [&](int a, int b) { return g.pawn_rank_twist[a] > g.pawn_rank_twist[b]; });
  const int t = lead_pawns - 1;
  uint64_t index = g.lead_pawn_index[lead_pawns][sq[0]];
  for (int i = t; i > 0; --i) index += g.binomial[t - i + 1][g.pawn_rank_twist[sq[i]]];
  index *= e.factor[0];

  int i = lead_pawns;
  if (other_pawns > 0) {
    sort_squares(sq, i, i + other_pawns, std::less<int>());
    uint64_t s = 0;
    for (int m = i; m < i + other_pawns; ++m) {
      int below = 0;
      for (int l = 0; l < i; ++l) below += sq[m] > sq[l];
      const int free = sq[m] - below - 8;
      if (free < 0) return std::nullopt;
      s += g.binomial[m - i + 1][free];
    }
    index += s * e.factor[i];
    i += other_pawns;
  }
  for (; i < n; i += e.group[i]) {
    const int t2 = e.group[i];
    if (t2 == 0 || i + t2 > n) return std::nullopt;
    sort_squares(sq, i, i + t2, std::less<int>());
    uint64_t s = 0;
    for (int m = i; m < i + t2; ++m) {
      int below = 0;
      for (int l = 0; l < i; ++l) below += sq[m] > sq[l];
      s += g.binomial[m - i + 1][sq[m] - below];
    }
    index += s * e.factor[i];
  }
  return index;
}

}  // namespace

std::unique_ptr<TableFile> TableFile::parse(TableKind kind, const Material& material,
                                            std::span<const uint8_t> span, std::string& error) {
  std::unique_ptr<TableFile> t(new TableFile());
  size_t p = 5;  // the piece lists follow the magic and the flags byte
  std::string e = t->read_header(kind, material, span);
  if (e.empty()) e = t->read_piece_lists(p);
  if (e.empty()) e = t->read_compression_headers(p);
  if (e.empty() && kind == TableKind::Dtz) e = t->read_value_maps(p);
  if (e.empty()) e = t->place_blocks(p);
  if (!e.empty()) {
    error = std::move(e);
    return std::unique_ptr<TableFile>();
  }
  return t;
}

// Checks the magic and the flags byte against the material, and derives from the material
// what leads the index (pawns or unique pieces) and how many parts the table has.
std::string TableFile::read_header(TableKind kind, const Material& material,
                                   std::span<const uint8_t> span) {
  const Bytes bytes(span);
  const bool wdl = kind == TableKind::Wdl;
  if (!bytes.has(0, 5)) return "file too short for a header";
  if (!std::equal(span.begin(), span.begin() + 4, wdl ? kWdlMagic : kDtzMagic))
    return wdl ? "bad magic bytes (not a Syzygy WDL table)"
               : "bad magic bytes (not a Syzygy DTZ table)";
  const int pieces = material.piece_count();
  if (pieces < 3 || pieces > kMaxPieces) return "unsupported number of pieces";

  kind_ = kind;
  material_ = material;
  white_ = material;
  bytes_ = span;
  const uint8_t flags = bytes.u8(4);
  split_ = wdl && (flags & 1);
  const bool pawns = material.has_pawns();
  if (bool(flags & 2) != pawns) return "header flags disagree with the material";
  files_ = pawns ? 4 : 1;
  if (wdl && !split_ && !material.symmetric())
    return "WDL table stores one side of an asymmetric material";
  if (pawns) {
    const int a = material.count(Color::White, PieceType::Pawn);
    const int b = material.count(Color::Black, PieceType::Pawn);
    const bool first_leads = a > 0 && (b == 0 || a < b);
    lead_pawns_ = first_leads ? a : b;
    other_pawns_ = first_leads ? b : a;
  } else {
    int unique = 0;
    for (Color c : {Color::White, Color::Black})
      for (int p = 0; p < kPieceTypeCount; ++p) unique += material.count(c, PieceType(p)) == 1;
    unique_lead_ = unique >= 3 ? 3 : 2;
  }
  parts_.assign(size_t(files_) * 2, Part());
  return {};
}

// Piece codes and group orders, per file; every file must list the same pieces, those of
// the material (either colour first).
std::string TableFile::read_piece_lists(size_t& p) {
  const Bytes bytes(bytes_);
  const int pieces = material_.piece_count();
  const bool pawns = material_.has_pawns();
  const int sides = split_ ? 2 : 1;
  const int order_bytes = other_pawns_ > 0 ? 2 : 1;
  Material first_codes;
  for (int f = 0; f < files_; ++f) {
    if (!bytes.has(p, size_t(pieces + order_bytes))) return "piece list past the end";
    for (int side = 0; side < sides; ++side) {
      Part& part = parts_[size_t(f) * 2 + size_t(side)];
      part.present = true;
      const int shift = side ? 4 : 0;
      const int order = (bytes.u8(p) >> shift) & 15;
      const int order2 = other_pawns_ > 0 ? (bytes.u8(p + 1) >> shift) & 15 : 15;
      Material codes;
      const std::string e =
          setup_encoding(part.encoding, bytes, p + size_t(order_bytes), side, pieces, unique_lead_,
                         lead_pawns_, other_pawns_, order, order2, f, codes);
      if (!e.empty()) return e + " (file " + std::to_string(f) + ")";
      if (f == 0 && side == 0) {
        if (!(codes == material_) && !(codes == material_.mirrored()))
          return "piece list does not match the material " + material_.name();
        first_codes = codes;
        // Pawnless tables name their White by the pieces; with pawns, the file name does.
        if (!pawns) white_ = codes;
      } else if (!(codes == first_codes)) {
        return "piece lists disagree";
      }
      if (pawns && part.encoding.codes[0] != parts_[0].encoding.codes[0])
        return "leading pawn colour differs between files";
    }
    p += size_t(pieces + order_bytes);
  }
  p += p & 1;
  return {};
}

// The compression header of every part, in file and side order.
std::string TableFile::read_compression_headers(size_t& p) {
  const Bytes bytes(bytes_);
  const bool wdl = kind_ == TableKind::Wdl;
  const int sides = split_ ? 2 : 1;
  for (int f = 0; f < files_; ++f)
    for (int side = 0; side < sides; ++side) {
      Part& part = parts_[size_t(f) * 2 + size_t(side)];
      if (!bytes.has(p, 1)) return "compression header past the end";
      part.flags = bytes.u8(p);
      size_t next = 0;
      const std::string e =
          setup_compression(part.compression, bytes, p, part.encoding.positions, wdl, next);
      if (!e.empty()) return e;
      p = next;
    }
  return {};
}

// DTZ value maps: four per file whose flags say it has them (win, loss, cursed win,
// blessed loss), of 8-bit or, 2-byte aligned, 16-bit values.
std::string TableFile::read_value_maps(size_t& p) {
  const Bytes bytes(bytes_);
  for (int f = 0; f < files_; ++f) {
    Part& part = parts_[size_t(f) * 2];
    if (!(part.flags & 2)) continue;
    const bool wide = part.flags & 16;
    if (wide) p += p & 1;
    for (int m = 0; m < 4; ++m) {
      if (!bytes.has(p, wide ? 2 : 1)) return "value map past the end";
      const uint32_t length = wide ? bytes.u16le(p) : bytes.u8(p);
      p += wide ? 2 : 1;
      part.map_offset[m] = p;
      part.map_length[m] = length;
      p += size_t(length) * (wide ? 2 : 1);
      if (!bytes.has(0, p)) return "value map past the end";
    }
  }
  p += p & 1;
  return {};
}

// Index tables, block size tables, then 64-byte aligned blocks: each kind for every part
// in file and side order before the next kind.
std::string TableFile::place_blocks(size_t p) {
  const Bytes bytes(bytes_);
  const int sides = split_ ? 2 : 1;
  auto place = [&](uint64_t bytes_needed, size_t& where) {
    if (!bytes.has(p, bytes_needed)) return false;
    where = p;
    p += size_t(bytes_needed);
    return true;
  };
  for (int f = 0; f < files_; ++f)
    for (int side = 0; side < sides; ++side) {
      Compression& c = parts_[size_t(f) * 2 + size_t(side)].compression;
      if (!c.constant && !place(c.index_bytes, c.index_table)) return "index past the end";
    }
  for (int f = 0; f < files_; ++f)
    for (int side = 0; side < sides; ++side) {
      Compression& c = parts_[size_t(f) * 2 + size_t(side)].compression;
      if (!c.constant && !place(c.size_bytes, c.size_table)) return "sizes past the end";
    }
  for (int f = 0; f < files_; ++f)
    for (int side = 0; side < sides; ++side) {
      Compression& c = parts_[size_t(f) * 2 + size_t(side)].compression;
      if (c.constant) continue;
      p = (p + 63) & ~size_t{63};
      if (!place(c.data_bytes, c.data)) return "compressed data past the end";
    }
  return {};
}

std::optional<uint32_t> TableFile::value(const Position& pos, int& stored_side,
                                         const Part*& part) const {
  const Material m = Material::of(pos);
  bool flip;
  if (white_.symmetric())
    flip = pos.side_to_move() == Color::Black;
  else if (m == white_)
    flip = false;
  else if (m == white_.mirrored())
    flip = true;
  else
    return std::nullopt;
  const Color stm = flip ? ~pos.side_to_move() : pos.side_to_move();
  const int side = stm == Color::White ? 0 : 1;
  const int mirror = flip && files_ > 1 ? 56 : 0;  // pawns keep their direction

  auto squares_of = [&](uint8_t code) {
    const Color c = flip ? ~code_color(code) : code_color(code);
    return pos.pieces(c, code_type(code));
  };

  std::array<int, kMaxPieces> sq{};
  int n = 0;
  int file = 0;
  if (files_ > 1) {
    for (Square s : squares_of(parts_[0].encoding.codes[0])) {
      if (n >= lead_pawns_) return std::nullopt;
      sq[n++] = index(s) ^ mirror;
    }
    if (n != lead_pawns_) return std::nullopt;
    const auto& g = encoding::geometry();
    for (int i = 1; i < n; ++i)
      if (g.pawn_file_rank[sq[0]] > g.pawn_file_rank[sq[i]]) std::swap(sq[0], sq[i]);
    if (g.pawn_file_rank[sq[0]] < 0) return std::nullopt;
    file = std::min(encoding::file_of(sq[0]), 7 - encoding::file_of(sq[0]));
  }

  stored_side = side;
  const int part_side = split_ ? side : 0;
  part = &parts_[size_t(file) * 2 + size_t(part_side)];
  if (!part->present) return std::nullopt;
  const Encoding& e = part->encoding;
  if (kind_ == TableKind::Dtz) {
    const bool stored = (part->flags & 1) == side || (files_ == 1 && white_.symmetric());
    if (!stored) {
      part = nullptr;
      return 0;
    }
  }
  while (n < e.pieces) {
    const int start = n;
    for (Square s : squares_of(e.codes[start])) {
      if (n >= e.pieces) return std::nullopt;
      sq[n++] = index(s) ^ mirror;
    }
    if (n == start) return std::nullopt;
  }

  const auto idx = files_ > 1 ? encode_pawns(e, lead_pawns_, other_pawns_, sq)
                              : encode_pieces(e, unique_lead_, sq);
  if (!idx || *idx >= e.positions) return std::nullopt;
  return decompress(part->compression, Bytes(bytes_), kind_ == TableKind::Wdl, *idx);
}

std::optional<int> TableFile::wdl(const Position& pos) const {
  if (kind_ != TableKind::Wdl) return std::nullopt;
  int side = 0;
  const Part* part = nullptr;
  const auto v = value(pos, side, part);
  if (!v || *v > 4) return std::nullopt;
  return int(*v) - 2;
}

std::optional<DtzEntry> TableFile::dtz(const Position& pos, int wdl) const {
  if (kind_ != TableKind::Dtz || wdl == 0 || wdl < -2 || wdl > 2) return std::nullopt;
  int side = 0;
  const Part* part = nullptr;
  auto v = value(pos, side, part);
  if (!v) return std::nullopt;
  if (!part) return DtzEntry{false, 0};
  uint32_t plies = *v;
  if (part->flags & 2) {
    // Maps by result: win, loss, cursed win, blessed loss.
    static constexpr int kMapOf[5] = {1, 3, 0, 2, 0};
    const int m = kMapOf[wdl + 2];
    if (plies >= part->map_length[m]) return std::nullopt;
    const Bytes bytes(bytes_);
    plies = part->flags & 16 ? bytes.u16le(part->map_offset[m] + 2 * size_t(plies))
                             : bytes.u8(part->map_offset[m] + plies);
  }
  // Wins and losses stored at half precision unless their flag says otherwise; cursed and
  // blessed results always.
  const uint8_t full_precision = wdl == 2 ? 4 : wdl == -2 ? 8 : 0;
  if (!(part->flags & full_precision) || (wdl & 1)) plies *= 2;
  return DtzEntry{true, int(plies)};
}

}  // namespace avocet::syzygy
