#include "avocet/nn/tokenizer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "../test_data.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/action_table.h"

namespace avocet::nn {
namespace {

// Goldens from tools/train/chess_tokens.py, an independent Python implementation.
TEST(Tokenizer, MatchesPythonGoldens) {
  std::ifstream file(avocet::testing::data_path("tokens.golden"));
  ASSERT_TRUE(file);
  int checked = 0, en_passant_dropped = 0;
  for (std::string line; std::getline(file, line);) {
    const size_t bar = line.find('|');
    const std::string fen = line.substr(0, bar);
    std::istringstream numbers(line.substr(bar + 1));
    Tokens expected{};
    for (auto& t : expected) {
      int v;
      numbers >> v;
      t = uint8_t(v);
    }
    const Position pos = Position::from_fen(fen);
    EXPECT_EQ(tokenize(pos), expected) << fen;
    std::istringstream fields(fen);
    std::string placement, side, castling, en_passant;
    fields >> placement >> side >> castling >> en_passant;
    if (en_passant != "-" && pos.en_passant_square() == Square::None) ++en_passant_dropped;
    ++checked;
  }
  EXPECT_GE(checked, 50);
  EXPECT_GE(en_passant_dropped, 3);
}

TEST(Tokenizer, StartPositionLayout) {
  const Tokens t = tokenize(Position::start());
  auto token = [](char c) { return uint8_t(kAlphabet.find(c)); };
  EXPECT_EQ(t[0], token('w'));
  EXPECT_EQ(t[1], token('r'));
  EXPECT_EQ(t[square_token(Square::E1)], token('K'));
  EXPECT_EQ(t[square_token(Square::E8)], token('k'));
  EXPECT_EQ(t[65], token('K'));
  EXPECT_EQ(t[68], token('q'));
  EXPECT_EQ(t[69], token('.'));
  EXPECT_EQ(t[71], token('0'));
  EXPECT_EQ(t[74], token('1'));
  EXPECT_EQ(t[76], token('.'));
}

// The tokenizer knows standard castling only: a Chess960 right is K or Q by the side of the
// king its rook stands on, whatever the files.
TEST(Tokenizer, Chess960RightsAsKingSideAndQueenSide) {
  auto castling_tokens = [](const char* fen) {
    const Tokens t = tokenize(Position::from_fen(fen));
    std::string text;
    for (int i = 65; i < 69; ++i) text += kAlphabet[t[size_t(i)]];
    return text;
  };
  EXPECT_EQ(castling_tokens("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"), "KQkq");
  EXPECT_EQ(castling_tokens("rr2k3/8/8/8/8/8/8/RR2K2R w HBb - 0 1"), "KQq.");
  EXPECT_EQ(castling_tokens("4k3/8/8/8/8/8/8/1KR5 w C - 0 1"), "K...");
  EXPECT_EQ(castling_tokens("rkr5/8/8/8/8/8/8/4K3 b ca - 0 1"), "kq..");
}

// A mirrored black-to-move position tokenizes as its colour-flipped twin with White to move.
TEST(Tokenizer, MirrorEqualsTheFlippedPosition) {
  const Position black = Position::from_fen("r3k2r/8/8/8/3pP3/8/8/R3K3 b Qkq e3 5 20");
  const Position twin = Position::from_fen("r3k3/8/8/3Pp3/8/8/8/R3K2R w KQq e6 5 20");
  EXPECT_EQ(tokenize(black, true), tokenize(twin));
  EXPECT_EQ(tokenize(twin, true), tokenize(twin));
  EXPECT_NE(tokenize(black, false), tokenize(twin));
}

TEST(ActionTable, MatchesPythonGolden) {
  std::ifstream file(avocet::testing::data_path("actions.golden"));
  ASSERT_TRUE(file);
  int index = 0;
  std::string move;
  for (int i; file >> i >> move; ++index) {
    ASSERT_EQ(i, index);
    EXPECT_EQ(action_uci(i), move);
  }
  EXPECT_EQ(index, kActionCount);
}

TEST(ActionTable, EveryLegalMoveHasAnAction) {
  for (const auto& entry : avocet::testing::read_perft_file("perft_random.epd")) {
    const Position pos = Position::from_fen(entry.fen);
    for (Move m : legal_moves(pos)) {
      const int a = action_index(m);
      ASSERT_GE(a, 0) << to_uci(m);
      EXPECT_EQ(action_uci(a), to_uci(m));
    }
  }
  EXPECT_EQ(action_index(Move(Square::E1, Square::H1, MoveKind::Castling)),
            action_index(Move(Square::E1, Square::G1)));
  EXPECT_EQ(action_index(Move(Square::A1, Square::B4)), -1);
}

// Chess960 castling is the king's move for the networks when the king moves two files or
// more, else the king taking its rook: no two legal moves share an action.
TEST(ActionTable, Chess960CastlingHasAnActionOfItsOwn) {
  int castling_moves = 0;
  for (const auto& entry : avocet::testing::read_perft_file("perft_chess960.epd")) {
    const Position pos = Position::from_fen(entry.fen);
    std::set<int> actions;
    for (Move m : legal_moves(pos)) {
      const int a = action_index(m);
      ASSERT_GE(a, 0) << entry.fen << " " << to_uci(m, true);
      EXPECT_TRUE(actions.insert(a).second) << entry.fen << " " << to_uci(m, true);
      castling_moves += m.kind() == MoveKind::Castling;
    }
  }
  EXPECT_GE(castling_moves, 15);
  // King b1 and rook a1: the king's step b1c1 is a legal move of its own.
  EXPECT_EQ(action_uci(action_index(Move(Square::B1, Square::A1, MoveKind::Castling))), "b1a1");
  EXPECT_EQ(action_uci(action_index(Move(Square::G1, Square::H1, MoveKind::Castling))), "g1h1");
  EXPECT_EQ(action_uci(action_index(Move(Square::B1, Square::C1, MoveKind::Castling))), "b1g1");
  EXPECT_EQ(action_uci(action_index(Move(Square::E8, Square::A8, MoveKind::Castling))), "e8c8");
}

}  // namespace
}  // namespace avocet::nn
