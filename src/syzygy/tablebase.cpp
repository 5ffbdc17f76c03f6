#include "avocet/syzygy/tablebase.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "avocet/chess/movegen.h"
#include "mapped_file.h"

namespace avocet::syzygy {

namespace {

constexpr uint8_t kMagic[2][4] = {{0x71, 0xE8, 0x23, 0x5D}, {0xD7, 0x66, 0x0C, 0xA5}};

// DTZ of a position whose best move zeroes the counter, by its WDL.
int zeroing_dtz(int wdl) {
  const int sign = (wdl > 0) - (wdl < 0);
  return sign * (wdl == 2 || wdl == -2 ? 1 : 101);
}

bool is_pawn_move(const Position& pos, Move m) {
  return type_of(pos.piece_on(m.from())) == PieceType::Pawn;
}

Position after(const Position& pos, Move m) {
  Position child = pos;
  child.play(m);
  return child;
}

}  // namespace

// One table file: found by the scan, mapped and parsed by the first probe that needs it.
struct Tablebases::Slot {
  std::string path;
  TableKind kind;
  Material material;
  std::once_flag loaded;
  std::unique_ptr<MappedFile> file;
  std::unique_ptr<TableFile> table;  // null when loading failed
  std::atomic<bool> probe_failure_reported{false};
};

Tablebases::Tablebases(std::string_view path, ErrorCallback on_error)
    : on_error_(std::move(on_error)) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string dir(path.substr(start, end - start));
    if (!dir.empty() && dir != "<empty>") scan_directory(dir);
    start = end + 1;
  }
}

Tablebases::~Tablebases() = default;

void Tablebases::report(const std::string& message) const {
  std::lock_guard lock(errors_mutex_);
  errors_.push_back(message);
  if (on_error_) on_error_(message);
}

std::vector<std::string> Tablebases::errors() const {
  std::lock_guard lock(errors_mutex_);
  return errors_;
}

void Tablebases::scan_directory(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    report("syzygy: " + dir + ": " +
           (fs::exists(dir, ec) ? "not a directory" : "no such directory"));
    return;
  }
  fs::directory_iterator it(dir, ec);
  if (ec) {
    report("syzygy: " + dir + ": cannot read directory: " + ec.message());
    return;
  }
  std::vector<std::string> names;
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) break;
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());  // deterministic order of messages and duplicates
  for (const std::string& name : names) add_file(dir, name);
}

void Tablebases::add_file(const std::string& dir, const std::string& file_name) {
  namespace fs = std::filesystem;
  if (file_name.size() < 6) return;
  const std::string ext = file_name.substr(file_name.size() - 5);
  if (ext != ".rtbw" && ext != ".rtbz") return;
  const auto material = Material::from_name(file_name.substr(0, file_name.size() - 5));
  if (!material) return;
  const TableKind kind = ext == ".rtbw" ? TableKind::Wdl : TableKind::Dtz;
  const std::string path = (fs::path(dir) / file_name).string();

  auto& index = kind == TableKind::Wdl ? wdl_slots_ : dtz_slots_;
  if (index.contains(material->key())) return;  // an earlier directory has it

  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec) {
    report("syzygy: " + path + ": cannot read: " + ec.message());
    return;
  }
  if (fs::is_directory(status)) {
    report("syzygy: " + path + ": is a directory, not a table file; ignored");
    return;
  }
  if (!fs::is_regular_file(status)) {
    report("syzygy: " + path + ": not a regular file; ignored");
    return;
  }
  const auto size = fs::file_size(path, ec);
  if (ec) {
    report("syzygy: " + path + ": cannot read: " + ec.message());
    return;
  }
  if (size % 64 != 16) {
    report("syzygy: " + path + ": truncated or corrupt (" + std::to_string(size) +
           " bytes; a table is 64k+16 bytes long); ignored");
    return;
  }
  std::ifstream in(path, std::ios::binary);
  std::array<char, 4> magic{};
  if (!in || !in.read(magic.data(), 4)) {
    report("syzygy: " + path + ": cannot read; ignored");
    return;
  }
  if (!std::equal(magic.begin(), magic.end(), kMagic[int(kind)],
                  [](char a, uint8_t b) { return uint8_t(a) == b; })) {
    report("syzygy: " + path + ": bad magic bytes (not a Syzygy " +
           (kind == TableKind::Wdl ? "WDL" : "DTZ") + " table); ignored");
    return;
  }

  auto slot = std::make_unique<Slot>();
  slot->path = path;
  slot->kind = kind;
  slot->material = *material;
  index.emplace(material->key(), slots_.size());
  index.emplace(material->mirrored().key(), slots_.size());
  slots_.push_back(std::move(slot));
  if (kind == TableKind::Wdl) {
    ++wdl_count_;
    max_pieces_ = std::max(max_pieces_, material->piece_count());
  } else {
    ++dtz_count_;
  }
}

const TableFile* Tablebases::table(TableKind kind, const Material& m) const {
  const auto& index = kind == TableKind::Wdl ? wdl_slots_ : dtz_slots_;
  const auto it = index.find(m.key());
  if (it == index.end()) return nullptr;
  Slot& slot = *slots_[it->second];
  std::call_once(slot.loaded, [&] {
    std::string error;
    auto file = MappedFile::open(slot.path, error);
    if (!file) {
      report("syzygy: " + slot.path + ": " + error + "; ignored");
      return;
    }
    if (file->bytes().size() % 64 != 16) {
      report("syzygy: " + slot.path + ": truncated or corrupt (" +
             std::to_string(file->bytes().size()) + " bytes); ignored");
      return;
    }
    auto table = TableFile::parse(slot.kind, slot.material, file->bytes(), error);
    if (!table) {
      report("syzygy: " + slot.path + ": corrupt table: " + error + "; ignored");
      return;
    }
    slot.file = std::move(file);
    slot.table = std::move(table);
  });
  return slot.table.get();
}

bool Tablebases::covers(const Position& pos, int probe_limit) const {
  return pos.castling_rights() == kNoCastling &&
         pos.occupied().count() <= std::min(probe_limit, max_pieces_);
}

std::optional<int> Tablebases::table_wdl(const Position& pos) const {
  if (pos.occupied() == pos.pieces(PieceType::King)) return 0;
  const Material m = Material::of(pos);
  const TableFile* t = table(TableKind::Wdl, m);
  if (!t) return std::nullopt;
  const auto v = t->wdl(pos);
  if (!v) {
    Slot& slot = *slots_[wdl_slots_.at(m.key())];
    if (!slot.probe_failure_reported.exchange(true))
      report("syzygy: " + slot.path + ": inconsistent data while probing " + pos.fen());
  }
  return v;
}

// Alpha-beta over captures (en passant excluded), then the table: the table's value holds
// only if no capture does better.
std::optional<Tablebases::Search> Tablebases::search_wdl(const Position& pos, int alpha,
                                                         int beta) const {
  for (Move m : legal_moves(pos)) {
    if (m.kind() == MoveKind::EnPassant || !pos.is_capture(m)) continue;
    const auto r = search_wdl(after(pos, m), -beta, -alpha);
    if (!r) return std::nullopt;
    const int v = -r->value;
    if (v > alpha) {
      if (v >= beta) return Search{v, 2};
      alpha = v;
    }
  }
  const auto v = table_wdl(pos);
  if (!v) return std::nullopt;
  if (alpha >= *v) return Search{alpha, 1 + (alpha > 0)};
  return Search{*v, 1};
}

// The tables assume no en passant right; a legal en passant capture can only improve the
// result, or is forced when it is the only legal move.
std::optional<int> Tablebases::wdl_with_ep(const Position& pos) const {
  const auto r = search_wdl(pos, -2, 2);
  if (!r) return std::nullopt;
  int v = r->value;
  if (pos.en_passant_square() == Square::None) return v;
  const auto ep = en_passant_wdl(pos);
  if (!ep) return std::nullopt;
  if (ep->best > -3 && (ep->best >= v || (v == 0 && ep->only))) v = ep->best;
  return v;
}

std::optional<Tablebases::EnPassantWdl> Tablebases::en_passant_wdl(const Position& pos) const {
  EnPassantWdl result{-3, true};
  for (Move m : legal_moves(pos)) {
    if (m.kind() != MoveKind::EnPassant) {
      result.only = false;
      continue;
    }
    const auto c = search_wdl(after(pos, m), -2, 2);
    if (!c) return std::nullopt;
    result.best = std::max(result.best, -c->value);
  }
  return result;
}

std::optional<int> Tablebases::dtz_without_ep(const Position& pos) const {
  const auto r = search_wdl(pos, -2, 2);
  if (!r) return std::nullopt;
  const int wdl = r->value;
  if (wdl == 0) return 0;
  if (r->how == 2) return zeroing_dtz(wdl);  // a capture is best

  const MoveList moves = legal_moves(pos);
  if (wdl > 0) {
    // A pawn push that keeps the result zeroes at once.
    for (Move m : moves) {
      if (!is_pawn_move(pos, m) || pos.is_capture(m)) continue;
      const auto v = wdl_with_ep(after(pos, m));
      if (!v) return std::nullopt;
      if (-*v == wdl) return wdl == 2 ? 1 : 101;
    }
  }

  const Material material = Material::of(pos);
  const TableFile* t = table(TableKind::Dtz, material);
  if (!t) return std::nullopt;
  const auto entry = t->dtz(pos, wdl);
  if (!entry) {
    Slot& slot = *slots_[dtz_slots_.at(material.key())];
    if (!slot.probe_failure_reported.exchange(true))
      report("syzygy: " + slot.path + ": inconsistent data while probing " + pos.fen());
    return std::nullopt;
  }
  if (entry->stored) return zeroing_dtz(wdl) + (wdl > 0 ? entry->plies : -entry->plies);

  // This side to move is not stored: one ply of search over the stored side.
  if (wdl > 0) {
    int best = 0xFFFF;
    for (Move m : moves) {
      if (is_pawn_move(pos, m) || pos.is_capture(m)) continue;
      const Position child = after(pos, m);
      const auto d = dtz_with_ep(child);
      if (!d) return std::nullopt;
      const int v = -*d;
      if (v == 1 && child.in_check() && !has_legal_move(child))
        best = 1;
      else if (v > 0 && v + 1 < best)
        best = v + 1;
    }
    return best;
  }
  int best = -1;
  for (Move m : moves) {
    const Position child = after(pos, m);
    int v;
    if (is_pawn_move(pos, m) || pos.is_capture(m)) {
      if (wdl == -2) {
        v = -1;
      } else {
        const auto c = search_wdl(child, 1, 2);
        if (!c) return std::nullopt;
        v = c->value == 2 ? 0 : -101;
      }
    } else {
      const auto d = dtz_with_ep(child);
      if (!d) return std::nullopt;
      v = -*d - 1;
    }
    best = std::min(best, v);
  }
  return best;
}

std::optional<int> Tablebases::dtz_with_ep(const Position& pos) const {
  auto v = dtz_without_ep(pos);
  if (!v || pos.en_passant_square() == Square::None) return v;
  const auto captures = en_passant_wdl(pos);
  if (!captures) return std::nullopt;
  const int best_ep = captures->best;
  const bool only_ep = captures->only;
  if (best_ep == -3) return v;
  // The capture zeroes: its DTZ is that of a zeroing move of its WDL.
  static constexpr int kDtzOfWdl[5] = {-1, -101, 0, 101, 1};
  const int ep = kDtzOfWdl[best_ep + 2];
  int d = *v;
  if (d < -100) {
    if (ep >= 0) d = ep;
  } else if (d < 0) {
    if (ep >= 0 || ep < -100) d = ep;
  } else if (d > 100) {
    if (ep > 0) d = ep;
  } else if (d > 0) {
    if (ep == 1) d = ep;
  } else if (ep >= 0) {
    d = ep;
  } else if (only_ep) {
    d = ep;
  }
  return d;
}

std::optional<Wdl> Tablebases::probe_wdl(const Position& pos) const {
  if (!covers(pos)) return std::nullopt;
  const auto v = wdl_with_ep(pos);
  if (!v) return std::nullopt;
  return Wdl(*v);
}

std::optional<int> Tablebases::probe_dtz(const Position& pos) const {
  if (!covers(pos)) return std::nullopt;
  return dtz_with_ep(pos);
}

}  // namespace avocet::syzygy
