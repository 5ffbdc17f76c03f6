// TableFile: one Syzygy table (.rtbw WDL or .rtbz DTZ) read from bytes in memory.
//
// A table stores one value per position of its material, in an index that removes the
// board's symmetries, compressed with a Huffman code over Re-Pair symbols in blocks of a
// fixed size. Layout of a file (all offsets are checked against its length when parsed):
//
//   magic (4 bytes)  flags (1 byte: bit 0 both sides stored, bit 1 split by pawn file)
//   per file (1 or 4): order byte(s), then one byte per piece (low nibble: side to move is
//       the table's White, high nibble: Black; piece codes 1..6 = P N B R Q K, +8 = Black)
//   per file and side: the compression header (block size, index granularity, symbol
//       lengths and the symbol pair table); DTZ tables then hold value maps
//   per file and side: the index table (6 bytes per 2^index_bits positions), the block
//       size table (2 bytes per block), the 64-byte aligned compressed blocks
//
// Parsing validates everything that probing later dereferences, so that a probe never
// reads outside `bytes`; a probe that meets inconsistent data returns nullopt.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "avocet/chess/position.h"
#include "avocet/syzygy/material.h"

namespace avocet::syzygy {

enum class TableKind : uint8_t { Wdl, Dtz };

// A DTZ table stores only one side to move for most materials; the other side is found by
// a one-ply search.
struct DtzEntry {
  bool stored = false;  // false: this side to move is not in the table
  int plies = 0;        // distance to zeroing as the table stores it (already scaled by 2
                        // where the table's precision requires)
};

class TableFile {
 public:
  // Parses `bytes` (not copied: they must outlive the TableFile) as the table of `material`
  // (the material of its file name). Returns null and an explanation in `error` when the
  // data is not a valid table of that material.
  static std::unique_ptr<TableFile> parse(TableKind kind, const Material& material,
                                          std::span<const uint8_t> bytes, std::string& error);
  ~TableFile();

  TableKind kind() const { return kind_; }
  const Material& material() const { return material_; }

  // Value stored for `pos`, whose material must be this table's (either colour): WDL tables
  // give -2..2 for the side to move. nullopt when the data turns out inconsistent.
  std::optional<int> wdl(const Position& pos) const;
  // DTZ tables: `wdl` is the position's WDL value (it selects the value map).
  std::optional<DtzEntry> dtz(const Position& pos, int wdl) const;

  struct Compression;
  struct Encoding;
  struct Part;

 private:
  TableFile() = default;
  // The steps of parse(), in file order. Each returns an error message or empty; the
  // read_* steps that take `offset` move it past what they read.
  std::string read_header(TableKind kind, const Material& material, std::span<const uint8_t> bytes);
  std::string read_piece_lists(size_t& offset);
  std::string read_compression_headers(size_t& offset);
  std::string read_value_maps(size_t& offset);
  std::string place_blocks(size_t offset);
  std::optional<uint32_t> value(const Position& pos, int& stored_side, const Part*& part) const;

  TableKind kind_ = TableKind::Wdl;
  Material material_;
  Material white_;  // the material whose first side is the table's White
  std::span<const uint8_t> bytes_;
  bool split_ = false;
  int files_ = 1;            // 4 for tables with pawns (one part per file a..d of the lead pawn)
  int lead_pawns_ = 0;       // tables with pawns: pawns of the leading colour
  int other_pawns_ = 0;      // tables with pawns: pawns of the other colour
  int unique_lead_ = 0;      // pawnless: 3 (three unique pieces lead) or 2 (the two kings)
  std::vector<Part> parts_;  // files_ * 2, index file * 2 + side
};

}  // namespace avocet::syzygy
