#include "avocet/datagen/shard.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
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

ShardWriter::ShardWriter(const std::string& path) {
  const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
  out_.open(path, std::ios::binary | std::ios::app);
  if (!out_) throw std::runtime_error(fmt::format("cannot write shard '{}'", path));
  if (fresh) out_.write(kShardMagic.data(), std::streamsize(kShardMagic.size()));
}

void ShardWriter::write(const Position& pos, const std::vector<LabelledMove>& moves) {
  if (moves.size() > 255) throw std::logic_error("more than 255 moves in one record");
  const nn::Tokens tokens = nn::tokenize(pos);
  out_.write(reinterpret_cast<const char*>(tokens.data()), std::streamsize(tokens.size()));
  const uint8_t n = uint8_t(moves.size());
  out_.put(char(n));
  for (const LabelledMove& m : moves) {
    const uint16_t action = uint16_t(nn::action_index(m.move));
    char bytes[6];
    std::memcpy(bytes, &action, 2);
    std::memcpy(bytes + 2, &m.win_probability, 4);
    out_.write(bytes, 6);
  }
  ++records_;
}

std::vector<ShardRecord> read_shard(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read shard '{}'", path));
  char magic[8];
  if (!in.read(magic, 8) || std::string_view(magic, 8) != kShardMagic)
    throw std::runtime_error(fmt::format("'{}' is not an Avocet shard (bad magic)", path));
  std::vector<ShardRecord> records;
  ShardRecord r;
  while (in.read(reinterpret_cast<char*>(r.tokens.data()), std::streamsize(r.tokens.size()))) {
    const int n = in.get();
    if (n == EOF) throw std::runtime_error(fmt::format("'{}': truncated record", path));
    r.actions.resize(size_t(n));
    for (auto& [action, win] : r.actions) {
      char bytes[6];
      if (!in.read(bytes, 6)) throw std::runtime_error(fmt::format("'{}': truncated record", path));
      std::memcpy(&action, bytes, 2);
      std::memcpy(&win, bytes + 2, 4);
      if (action >= nn::kActionCount || !(win >= 0.0f && win <= 1.0f))
        throw std::runtime_error(fmt::format("'{}': corrupt record {}", path, records.size()));
    }
    records.push_back(r);
  }
  if (in.gcount() != 0) throw std::runtime_error(fmt::format("'{}': truncated record", path));
  return records;
}

}  // namespace avocet::datagen
