#include "avocet/datagen/shard.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>

#include "avocet/nn/action_table.h"

namespace avocet::datagen {

float win_probability_from_centipawns(double centipawns) {
  return float(1.0 / (1.0 + std::exp(-0.00368208 * centipawns)));
}

std::optional<float> parse_score(std::string_view text) {
  const bool mate = !text.empty() && text[0] == 'm';
  if (mate) text.remove_prefix(1);
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (mate) {
    if (value == 0) return std::nullopt;
    return value > 0 ? 1.0f : 0.0f;
  }
  return win_probability_from_centipawns(value);
}

namespace {

std::string header_json() {
  nlohmann::json header;
  for (const auto& [key, groups] :
       {std::pair{"square_features", std::span<const FeatureGroup>(kSquareFeatureGroups)},
        std::pair{"move_features", std::span<const FeatureGroup>(kMoveFeatureGroups)}}) {
    header[key] = nlohmann::json::array();
    for (const FeatureGroup& g : groups)
      header[key].push_back(nlohmann::json::array({std::string(g.name), g.values}));
  }
  return header.dump();
}

// The magic and header every version-2 file starts with.
std::string file_prefix() {
  const std::string header = header_json();
  std::string prefix(kShardMagic);
  const uint32_t length = uint32_t(header.size());
  prefix.append(reinterpret_cast<const char*>(&length), 4);
  return prefix + header;
}

}  // namespace

ShardWriter::ShardWriter(const std::string& path) {
  const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
  const std::string prefix = file_prefix();
  if (!fresh) {
    std::ifstream in(path, std::ios::binary);
    std::string existing(prefix.size(), '\0');
    in.read(existing.data(), std::streamsize(existing.size()));
    if (existing != prefix)
      throw std::runtime_error(
          fmt::format("shard '{}' has another format or feature set; write to a new folder", path));
    in.close();
    records_ = long(recover_shard(path).records.size());
  }
  out_.open(path, std::ios::binary | std::ios::app);
  if (!out_) throw std::runtime_error(fmt::format("cannot write shard '{}'", path));
  if (fresh) out_.write(prefix.data(), std::streamsize(prefix.size()));
}

void ShardWriter::write(const Position& pos, const std::vector<LabelledMove>& moves) {
  if (moves.size() > 255) throw std::logic_error("more than 255 moves in one record");
  const nn::Tokens tokens = nn::tokenize(pos);
  out_.write(reinterpret_cast<const char*>(tokens.data()), std::streamsize(tokens.size()));
  const std::array<SquareFeatures, 64> squares = square_features(pos);
  for (int t = 1; t <= 64; ++t) {  // token order: the square whose token is t
    const Square s = nn::token_square(t);
    out_.write(reinterpret_cast<const char*>(squares[size_t(index(s))].data()),
               kSquareFeatureCount);
  }
  const uint8_t n = uint8_t(moves.size());
  out_.put(char(n));
  for (const LabelledMove& m : moves) {
    const uint16_t action = uint16_t(nn::action_index(m.move));
    const MoveFeatures features = move_features(pos, m.move);
    char bytes[6 + kMoveFeatureCount];
    std::memcpy(bytes, &action, 2);
    std::memcpy(bytes + 2, &m.win_probability, 4);
    std::memcpy(bytes + 6, features.data(), kMoveFeatureCount);
    out_.write(bytes, sizeof bytes);
  }
  ++records_;
}

namespace {

// Reads the records of `path`. An incomplete last record throws, or with `cut` is cut off
// the file and its size returned in `cut_bytes`.
std::vector<ShardRecord> read_records(const std::string& path, bool cut, uintmax_t& cut_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read shard '{}'", path));
  char magic[8];
  if (!in.read(magic, 8) ||
      (std::string_view(magic, 8) != kShardMagic && std::string_view(magic, 8) != kShardMagicV1))
    throw std::runtime_error(fmt::format("'{}' is not an Avocet shard (bad magic)", path));
  const bool features = std::string_view(magic, 8) == kShardMagic;
  if (features) {
    const std::string prefix = file_prefix();
    std::string rest(prefix.size() - 8, '\0');
    if (!in.read(rest.data(), std::streamsize(rest.size())) || rest != prefix.substr(8))
      throw std::runtime_error(
          fmt::format("'{}': its feature header differs from this build's feature groups", path));
  }
  std::vector<ShardRecord> records;
  std::streamoff record_start = in.tellg();
  const auto partial_record = [&] {  // the file ends inside the record at record_start
    if (!cut) throw std::runtime_error(fmt::format("'{}': truncated record", path));
    in.close();
    cut_bytes = std::filesystem::file_size(path) - uintmax_t(record_start);
    std::filesystem::resize_file(path, uintmax_t(record_start));
    return records;
  };
  ShardRecord r;
  const auto read_record = [&]() -> bool {  // the rest of r after its tokens; false at EOF
    if (features)
      for (int t = 0; t < 64; ++t)
        if (!in.read(reinterpret_cast<char*>(r.squares[size_t(t)].data()), kSquareFeatureCount))
          return false;
    const int n = in.get();
    if (n == EOF) return false;
    r.actions.resize(size_t(n));
    r.move_features.resize(features ? size_t(n) : 0);
    for (size_t i = 0; i < size_t(n); ++i) {
      auto& [action, win] = r.actions[i];
      char bytes[6];
      if (!in.read(bytes, 6)) return false;
      std::memcpy(&action, bytes, 2);
      std::memcpy(&win, bytes + 2, 4);
      if (features &&
          !in.read(reinterpret_cast<char*>(r.move_features[i].data()), kMoveFeatureCount))
        return false;
      // NaN is an unscored move (a partial label); anything else outside [0, 1] is corrupt.
      if (action >= nn::kActionCount || !(std::isnan(win) || (win >= 0.0f && win <= 1.0f)))
        throw std::runtime_error(fmt::format("'{}': corrupt record {}", path, records.size()));
    }
    return true;
  };
  while (in.read(reinterpret_cast<char*>(r.tokens.data()), std::streamsize(r.tokens.size()))) {
    if (!read_record()) return partial_record();
    records.push_back(r);
    record_start = in.tellg();
  }
  if (in.gcount() != 0) return partial_record();
  return records;
}

}  // namespace

std::vector<ShardRecord> read_shard(const std::string& path) {
  uintmax_t unused = 0;
  return read_records(path, false, unused);
}

RecoveredShard recover_shard(const std::string& path) {
  RecoveredShard recovered;
  recovered.records = read_records(path, true, recovered.cut_bytes);
  return recovered;
}

}  // namespace avocet::datagen
