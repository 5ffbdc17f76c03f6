#include "avocet/datagen/game_record.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <istream>

#include "avocet/chess/move_text.h"
#include "avocet/datagen/input_file.h"

namespace avocet::datagen {

namespace {

constexpr char kGameMarker = 'G';
constexpr int kMateScore = 32000;
constexpr int kMaxCentipawns = 30000;
constexpr uint16_t kPlayedDiffers = 0x8000;
constexpr uint32_t kMaxHeaderBytes = 1 << 20;
constexpr std::string_view kPromotions = " nbrq";

uint16_t encode_move(Move m) {
  const std::string uci = to_uci(m);
  auto square = [&](size_t i) { return uint16_t((uci[i] - 'a') + 8 * (uci[i + 1] - '1')); };
  const uint16_t promotion = uci.size() == 5 ? uint16_t(kPromotions.find(uci[4])) : 0;
  return uint16_t(square(0) | square(2) << 6 | promotion << 12);
}

// The legal move `bits` names in `pos`; throws MoveError if none.
Move decode_move(const Position& pos, uint16_t bits) {
  std::string uci;
  for (const int square : {bits & 63, (bits >> 6) & 63}) {
    uci += char('a' + square % 8);
    uci += char('1' + square / 8);
  }
  const int promotion = (bits >> 12) & 7;
  if (promotion >= int(kPromotions.size()))
    throw MoveError(fmt::format("move {:#06x} has no promotion piece {}", bits, promotion));
  if (promotion > 0) uci += kPromotions[size_t(promotion)];
  return parse_uci(pos, uci);
}

template <typename T>
void put(std::string& out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i) out += char((uint64_t(value) >> (8 * i)) & 0xff);
}

template <typename T>
T get(std::string_view bytes, size_t at) {
  uint64_t value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) value |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
  return T(value);
}

// Reads exactly `n` bytes onto `out`; false if the stream ends first.
bool read_exactly(std::istream& in, size_t n, std::string& out) {
  const size_t before = out.size();
  out.resize(before + n);
  in.read(out.data() + before, std::streamsize(n));
  return size_t(in.gcount()) == n;
}

std::string read_header(std::istream& in, const std::string& name) {
  std::string head;
  if (!read_exactly(in, kGameRecordMagic.size() + 4, head) ||
      std::string_view(head).substr(0, kGameRecordMagic.size()) != kGameRecordMagic)
    throw GameRecordError(
        fmt::format("{}: not a labelled-games file (no '{}' header)", name, kGameRecordMagic));
  const uint32_t length = get<uint32_t>(head, kGameRecordMagic.size());
  std::string json;
  if (length > kMaxHeaderBytes || !read_exactly(in, length, json))
    throw GameRecordError(fmt::format("{}: its header is cut short or damaged", name));
  return json;
}

std::string header_bytes(const std::string& json) {
  std::string out(kGameRecordMagic);
  put<uint32_t>(out, uint32_t(json.size()));
  return out + json;
}

// A score as the file stores it: the zigzag code of its sum with the previous ply's.
uint16_t score_code(int score, int previous) {
  const auto sum = int16_t(uint16_t(score + previous));
  return uint16_t(uint16_t(sum) << 1 ^ uint16_t(sum >> 15));
}

int decode_score_code(uint16_t code, int previous) {
  const auto sum = int16_t(uint16_t((code >> 1) ^ (0u - (code & 1u))));
  return int16_t(uint16_t(sum - previous));
}

}  // namespace

int encode_score(std::string_view text) {
  const bool mate = text.starts_with('m');
  if (mate) text.remove_prefix(1);
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() ||
      std::abs(value) > (mate ? kMateScore - kMaxCentipawns - 1 : kMaxCentipawns))
    throw std::invalid_argument(
        fmt::format("'{}{}' is not a Stockfish score", mate ? "m" : "", text));
  if (!mate) return value;
  return value >= 0 ? kMateScore - value : -(kMateScore + value);
}

std::string decode_score(int score) {
  if (std::abs(score) <= kMaxCentipawns) return std::to_string(score);
  return score > 0 ? fmt::format("m{}", kMateScore - score)
                   : fmt::format("m-{}", kMateScore + score);
}

uint32_t crc32(std::string_view bytes, uint32_t crc) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (const char b : bytes) crc = table[(crc ^ uint8_t(b)) & 0xff] ^ (crc >> 8);
  return ~crc;
}

std::string read_game_records(std::istream& in, const std::string& name,
                              const std::function<void(const LabelledGame&)>& game,
                              uint64_t* valid_bytes) {
  const std::string json = read_header(in, name);
  uint64_t offset = kGameRecordMagic.size() + 4 + json.size();
  if (valid_bytes) *valid_bytes = offset;
  for (long number = 1;; ++number) {
    const int first = in.get();
    if (first == std::char_traits<char>::eof()) return json;
    auto fail = [&](const std::string& why) {
      return GameRecordError(fmt::format("{}: game {} (byte {}): {}", name, number, offset, why));
    };
    if (char(first) != kGameMarker) throw fail("no game starts here: the file is damaged");
    std::string bytes(1, kGameMarker);
    const char* truncated = "the file ends inside this game (cut short)";
    if (!read_exactly(in, 1, bytes)) throw fail(truncated);
    const size_t fen_length = uint8_t(bytes[1]);
    if (!read_exactly(in, fen_length + 3, bytes)) throw fail(truncated);
    const size_t plies = get<uint16_t>(bytes, 2 + fen_length);
    const uint8_t result = uint8_t(bytes[4 + fen_length]);
    const size_t columns = 5 + fen_length;
    if (!read_exactly(in, 4 * plies, bytes)) throw fail(truncated);
    size_t played = 0;
    for (size_t i = 0; i < plies; ++i)
      played += (get<uint16_t>(bytes, columns + 2 * i) & kPlayedDiffers) != 0;
    if (!read_exactly(in, 2 * played, bytes)) throw fail(truncated);
    std::string stored;
    if (!read_exactly(in, 4, stored)) throw fail(truncated);
    if (get<uint32_t>(stored, 0) != crc32(bytes)) throw fail("its checksum does not match");
    if (result > uint8_t(GameResult::Drawn))
      throw fail(fmt::format("result {} is unknown", result));

    LabelledGame g;
    g.start_fen = bytes.substr(2, fen_length);
    g.result = GameResult(result);
    try {
      Position pos = Position::from_fen(g.start_fen);
      size_t next_played = columns + 4 * plies;
      int previous_score = 0;
      for (size_t i = 0; i < plies; ++i) {
        const uint16_t best_bits = get<uint16_t>(bytes, columns + 2 * i);
        const int score =
            decode_score_code(get<uint16_t>(bytes, columns + 2 * plies + 2 * i), previous_score);
        previous_score = score;
        if (std::abs(score) > kMateScore) throw fail(fmt::format("ply {}: score {}", i + 1, score));
        LabelledPly ply{decode_move(pos, best_bits & ~kPlayedDiffers), score, Move()};
        ply.played = ply.best;
        if (best_bits & kPlayedDiffers) {
          ply.played = decode_move(pos, get<uint16_t>(bytes, next_played));
          next_played += 2;
        }
        pos.play(ply.played);
        g.plies.push_back(ply);
      }
    } catch (const FenError& e) {
      throw fail(fmt::format("bad start position: {}", e.what()));
    } catch (const MoveError& e) {
      throw fail(fmt::format("ply {}: {}", g.plies.size() + 1, e.what()));
    }
    game(g);
    offset += bytes.size() + 4;
    if (valid_bytes) *valid_bytes = offset;
  }
}

std::string read_game_records(const std::string& path,
                              const std::function<void(const LabelledGame&)>& game) {
  InputFile file(path);
  return read_game_records(file.stream(), path, game);
}

RecoveredGames recover_game_records(const std::string& path) {
  RecoveredGames kept;
  if (!std::filesystem::exists(path) || std::filesystem::file_size(path) == 0) return kept;
  const uint64_t size = std::filesystem::file_size(path);
  uint64_t valid = 0;
  std::ifstream in(path, std::ios::binary);
  try {
    read_game_records(
        in, path,
        [&](const LabelledGame& g) {
          ++kept.games;
          kept.plies += long(g.plies.size());
        },
        &valid);
  } catch (const GameRecordError& e) {
    // Only a game the file ends inside is what a kill leaves; anything else is damage.
    if (std::string_view(e.what()).find("cut short") == std::string_view::npos) throw;
  }
  in.close();
  kept.cut_bytes = size - valid;
  if (kept.cut_bytes > 0) std::filesystem::resize_file(path, valid);
  return kept;
}

GameRecordWriter::GameRecordWriter(const std::string& path, const std::string& header_json)
    : path_(path) {
  const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
  out_.open(path, std::ios::binary | std::ios::app);
  if (!out_) throw std::runtime_error(fmt::format("cannot write '{}'", path));
  if (fresh) out_ << header_bytes(header_json);
  out_.flush();
}

void GameRecordWriter::write(const LabelledGame& game) {
  if (game.start_fen.size() > 255 || game.plies.size() > 65535)
    throw std::invalid_argument(fmt::format("{}: a game too long to record", path_));
  std::string bytes(1, kGameMarker);
  put<uint8_t>(bytes, uint8_t(game.start_fen.size()));
  bytes += game.start_fen;
  put<uint16_t>(bytes, uint16_t(game.plies.size()));
  put<uint8_t>(bytes, uint8_t(game.result));
  for (const LabelledPly& p : game.plies)
    put<uint16_t>(bytes, uint16_t(encode_move(p.best) | (p.played != p.best ? kPlayedDiffers : 0)));
  int previous_score = 0;
  for (const LabelledPly& p : game.plies) {
    put<uint16_t>(bytes, score_code(p.score, previous_score));
    previous_score = p.score;
  }
  for (const LabelledPly& p : game.plies)
    if (p.played != p.best) put<uint16_t>(bytes, encode_move(p.played));
  put<uint32_t>(bytes, crc32(bytes));
  out_.write(bytes.data(), std::streamsize(bytes.size()));
  out_.flush();
  if (!out_) throw std::runtime_error(fmt::format("cannot write '{}'", path_));
}

}  // namespace avocet::datagen
