#include "avocet/syzygy/material.h"

namespace avocet::syzygy {

namespace {

constexpr PieceType kNameOrder[] = {PieceType::King,   PieceType::Queen,  PieceType::Rook,
                                    PieceType::Bishop, PieceType::Knight, PieceType::Pawn};
constexpr char kNameLetters[] = "KQRBNP";

std::optional<PieceType> piece_of_letter(char c) {
  for (int i = 0; i < 6; ++i)
    if (kNameLetters[i] == c) return kNameOrder[i];
  return std::nullopt;
}

}  // namespace

std::optional<Material> Material::from_name(std::string_view name) {
  const size_t v = name.find('v');
  if (v == std::string_view::npos) return std::nullopt;
  Material m;
  const std::string_view sides[2] = {name.substr(0, v), name.substr(v + 1)};
  for (int side = 0; side < 2; ++side) {
    const std::string_view part = sides[side];
    if (part.empty() || part[0] != 'K') return std::nullopt;
    for (size_t i = 0; i < part.size(); ++i) {
      const auto pt = piece_of_letter(part[i]);
      if (!pt || (i > 0 && *pt == PieceType::King)) return std::nullopt;
      m.add(Color(side), *pt);
    }
  }
  if (m.piece_count() < 3 || m.piece_count() > 7) return std::nullopt;
  return m;
}

Material Material::of(const Position& pos) {
  Material m;
  for (Color c : {Color::White, Color::Black})
    for (int t = 0; t < kPieceTypeCount; ++t)
      m.key_ += uint64_t(pos.pieces(c, PieceType(t)).count()) << shift(c, PieceType(t));
  return m;
}

Material Material::mirrored() const {
  Material m;
  m.key_ = (key_ >> 32) | (key_ << 32);
  return m;
}

int Material::piece_count() const {
  int n = 0;
  for (Color c : {Color::White, Color::Black})
    for (int t = 0; t < kPieceTypeCount; ++t) n += count(c, PieceType(t));
  return n;
}

std::string Material::name() const {
  std::string s;
  for (Color c : {Color::White, Color::Black}) {
    if (c == Color::Black) s += 'v';
    for (int i = 0; i < 6; ++i) s.append(size_t(count(c, kNameOrder[i])), kNameLetters[i]);
  }
  return s;
}

}  // namespace avocet::syzygy
