// Strength levels (UCI_LimitStrength, UCI_Elo): the level schedule and the choice of move.
#include "avocet/search/strength.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>

#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/engine/engine.h"
#include "avocet/nn/material_evaluator.h"

namespace avocet::search {
namespace {

// A lower Elo never searches more nor chooses more freely, every level plays differently from
// its neighbours (more nodes, or a lower temperature where the nodes are one), the weakest
// looks at one node and samples, and the top of the range is full strength.
TEST(Strength, LevelsWeakenMonotonicallyDownTheRange) {
  StrengthLevel previous = strength_level(kMinElo);
  EXPECT_EQ(previous.nodes, 1.0);
  EXPECT_GT(previous.temperature, 0.0);
  for (int elo = kMinElo + 1; elo < kMaxElo; ++elo) {
    const StrengthLevel level = strength_level(elo);
    EXPECT_FALSE(level.full_strength()) << elo;
    EXPECT_GE(level.nodes, 1.0) << elo;
    if (level.nodes == 1.0 && previous.nodes == 1.0 && previous.temperature > 0)
      EXPECT_LT(level.temperature, previous.temperature) << elo;
    else
      EXPECT_GT(level.nodes, previous.nodes) << elo;
    EXPECT_LE(level.temperature, previous.temperature) << elo;
    EXPECT_TRUE(level.temperature == 0.0 || level.nodes == 1.0)
        << elo << ": a temperature only where every value is the net's own";
    previous = level;
  }
  EXPECT_GE(strength_level(kMaxElo - 1).nodes, 100.0);
  EXPECT_TRUE(strength_level(kMaxElo).full_strength());
  // Outside the range: the nearest end.
  EXPECT_EQ(strength_level(kMinElo - 500).temperature, strength_level(kMinElo).temperature);
  EXPECT_TRUE(strength_level(kMaxElo + 500).full_strength());
}

// A fractional count is its floor or its ceiling, in proportion: 2.25 nodes is 3 one move in
// four, so the mean is the level's.
TEST(Strength, DrawnNodesAverageTheLevelsCount) {
  std::mt19937_64 random(3);
  const int draws = 40000;
  std::array<int, 4> drawn{};
  for (int i = 0; i < draws; ++i) {
    const uint64_t nodes = draw_nodes(2.25, random);
    ASSERT_TRUE(nodes == 2 || nodes == 3) << nodes;
    ++drawn[nodes];
  }
  EXPECT_NEAR(drawn[3] / double(draws), 0.25, 0.01);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(draw_nodes(7.0, random), 7u) << "a whole count";
  for (int i = 0; i < 100; ++i) EXPECT_GE(draw_nodes(1.0, random), 1u);
}

std::vector<RootLine> lines_valued(std::initializer_list<float> values) {
  std::vector<RootLine> lines;
  const MoveList moves = legal_moves(Game().position());
  size_t i = 0;
  for (float v : values) lines.push_back({moves[i++], v, {}, {}});
  return lines;
}

// Each move is drawn as often as its softmax weight says: a move 0.05 below the best at
// temperature 0.05 comes e^-1 as often, one 0.3 below almost never.
TEST(Strength, SampleFollowsTheSoftmaxOfTheValues) {
  const std::vector<RootLine> lines = lines_valued({0.60f, 0.55f, 0.30f});
  std::mt19937_64 random(7);
  std::array<int, 3> drawn{};
  const int draws = 40000;
  for (int i = 0; i < draws; ++i) ++drawn[sample_line(lines, 0.05, random)];
  const double z = 1 + std::exp(-1.0) + std::exp(-6.0);
  EXPECT_NEAR(drawn[0] / double(draws), 1 / z, 0.01);
  EXPECT_NEAR(drawn[1] / double(draws), std::exp(-1.0) / z, 0.01);
  EXPECT_NEAR(drawn[2] / double(draws), std::exp(-6.0) / z, 0.003);
  EXPECT_GT(drawn[2], 0) << "a bad move still comes, rarely";

  for (int i = 0; i < 100; ++i) EXPECT_EQ(sample_line(lines, 0.0, random), 0u) << "temperature 0";
  EXPECT_EQ(sample_line(lines_valued({0.5f}), 1.0, random), 0u) << "one move";
}

// The moves and nodes of `searches` searches of the position after 1. e4 at `elo`.
std::pair<std::set<std::string>, uint64_t> play_at(int elo, bool limit, int searches,
                                                   int skill_level = 20) {
  engine::Engine engine([] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
  engine::Settings settings;
  settings.engine.limit_strength = limit;
  settings.engine.elo = elo;
  settings.engine.skill_level = skill_level;
  engine.configure(settings);
  std::set<std::string> moves;
  uint64_t most_nodes = 0;
  for (int i = 0; i < searches; ++i) {
    Game game;
    game.play(parse_uci(game.position(), "e2e4"));
    engine.new_game();  // each search from an empty table, as deterministic as it can be
    engine.set_game(game);
    engine::GoRequest request;
    request.nodes = 2000;
    engine::EngineCallbacks callbacks;
    callbacks.on_info = [&](const engine::SearchInfo& info) {
      most_nodes = std::max(most_nodes, info.report.nodes);
    };
    callbacks.on_bestmove = [&](Move best, Move) {
      EXPECT_TRUE(legal_moves(game.position()).contains(best));
      moves.insert(to_uci(best));
    };
    engine.go(request, std::move(callbacks));
    engine.wait();
  }
  return {moves, most_nodes};
}

// A limited level searches at most its nodes and varies its moves among those it values
// alike; full strength (the option off, or the top of the range) plays one move and uses the
// nodes it is given.
TEST(Strength, LimitedEngineSearchesItsNodesAndVariesItsMoves) {
  const auto [weak_moves, weak_nodes] = play_at(kMinElo, true, 40);
  EXPECT_EQ(weak_nodes, 1u) << "the net's first look";
  EXPECT_GE(weak_moves.size(), 3u) << "the material evaluator values many replies alike";

  const int middle = (kMinElo + kMaxElo) / 2;
  const auto [middle_moves, middle_nodes] = play_at(middle, true, 3);
  EXPECT_GT(middle_nodes, 1u);
  EXPECT_LE(middle_nodes, uint64_t(std::ceil(strength_level(middle).nodes)));

  for (const auto& [elo, limit] : {std::pair{kMinElo, false}, std::pair{kMaxElo, true}}) {
    const auto [full_moves, full_nodes] = play_at(elo, limit, 5);
    EXPECT_EQ(full_moves.size(), 1u) << elo;
    EXPECT_GT(full_nodes, uint64_t(strength_level(kMaxElo - 1).nodes)) << elo;
  }
}

// Stockfish's Skill Level, on the same table: the level of the Elo Stockfish 15.1 gives it.
TEST(Strength, SkillLevelPlaysTheLevelOfItsStockfishElo) {
  EXPECT_EQ(skill_level_elo(0), 1347);
  EXPECT_EQ(skill_level_elo(4), 1785);  // Stockfish's depth-5 stair: 1800 and 1850 play as 4
  EXPECT_EQ(skill_level_elo(5), 1871);
  EXPECT_EQ(skill_level_elo(20), kMaxElo);
  EXPECT_FALSE(strength_level(skill_level_elo(0)).full_strength());
  EXPECT_TRUE(strength_level(skill_level_elo(5)).full_strength());
  // Skill Level 0 without UCI_LimitStrength searches within UCI_Elo 1347's nodes (its count is
  // drawn around them); UCI_LimitStrength, when on, decides (as in Stockfish); Skill Level 20
  // is full strength.
  const auto limit_of_1347 = uint64_t(std::ceil(strength_level(1347).nodes));
  EXPECT_LE(play_at(kMinElo, false, 1, 0).second, limit_of_1347);
  EXPECT_EQ(play_at(kMinElo, true, 1, 0).second, 1u);
  EXPECT_GT(play_at(kMinElo, false, 1, 20).second, uint64_t(strength_level(kMaxElo - 1).nodes));
}

}  // namespace
}  // namespace avocet::search
