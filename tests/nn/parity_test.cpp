// Network outputs against the PyTorch reference (tools/train/reference_model.py): per-move
// value-bin log-probabilities for every legal move (listed by Stockfish) of each parity position.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "../test_data.h"
#include "avocet/chess/move_text.h"
#include "avocet/chess/movegen.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/network.h"

namespace avocet::nn {
namespace {

// fp32 against PyTorch's fp32: only summation order differs.
constexpr float kTolerance = 1e-4f;
// bf16 against PyTorch's fp32: the tiny nets' log-probabilities move by up to 0.044 and
// their win probabilities by up to 0.0019 (measured); the limits leave about 2.5x room.
constexpr float kBf16LogProbabilityTolerance = 0.1f, kBf16WinTolerance = 0.005f;

// max(worst, value), where a NaN value makes the result NaN (std::max would drop it), so a
// NaN fails every EXPECT_LE below.
float worse(float worst, float value) { return value <= worst ? worst : value; }

void check_parity(const std::string& model, Precision precision = Precision::Fp32,
                  float log_p_tolerance = kTolerance, float win_tolerance = kTolerance) {
  const auto network =
      Network::load_file(avocet::testing::data_path(model + ".safetensors"), precision);
  const auto evaluator = make_evaluator(network);
  std::ifstream file(avocet::testing::data_path(model + ".golden.json"));
  ASSERT_TRUE(file);
  const nlohmann::json golden = nlohmann::json::parse(file);
  ASSERT_GE(golden.size(), 20u);

  float worst = 0.0f, worst_win = 0.0f;
  int moves_checked = 0;
  std::vector<float> log_probs, win;
  for (const auto& c : golden) {
    const Position pos = Position::from_fen(c["fen"].get<std::string>());
    const MoveList moves = legal_moves(pos);
    ASSERT_EQ(moves.size(), c["moves"].size()) << pos.fen();
    const int k = evaluator->bins();
    log_probs.resize(moves.size() * k);
    win.resize(moves.size());
    evaluator->evaluate_bins(pos, {moves.begin(), moves.size()}, log_probs);
    evaluator->evaluate(pos, {moves.begin(), moves.size()}, win);
    for (size_t i = 0; i < moves.size(); ++i) {
      const auto& expected = c["moves"].at(to_uci(moves[i]));
      ASSERT_EQ(int(expected.size()), k);
      std::vector<float> row(expected.begin(), expected.end());
      for (int j = 0; j < k; ++j) worst = worse(worst, std::abs(log_probs[i * k + j] - row[j]));
      worst_win = worse(worst_win, std::abs(win[i] - expected_win_probability(row)));
      ++moves_checked;
    }
  }
  EXPECT_LE(worst, log_p_tolerance) << model;
  EXPECT_LE(worst_win, win_tolerance) << model;
  EXPECT_GT(moves_checked, 400);
  std::cout << model << " (" << precision_name(network->precision()) << "): " << moves_checked
            << " moves, max |log p - reference| = " << worst
            << ", max |win - reference| = " << worst_win << "\n";
}

TEST(Parity, HouseFamily) { check_parity("tiny_house"); }
TEST(Parity, HouseFamilyMirroredBf16) { check_parity("tiny_house_mirror_bf16"); }
TEST(Parity, HouseFamilyWithEveryFeatureGroup) { check_parity("tiny_house_features"); }
TEST(Parity, HouseFamilyWithAttentionBias) { check_parity("tiny_house_bias"); }
TEST(Parity, HouseFamilyWithRelativePositions) { check_parity("tiny_house_relative"); }
TEST(Parity, SearchlessFamily) { check_parity("tiny_searchless"); }

// The bf16 trunk against the same fp32 PyTorch goldens, within the bf16 tolerances above.
TEST(Parity, HouseFamilyInBf16) {
  if (!precision_supported(Precision::Bf16)) GTEST_SKIP() << "no AVX-512 BF16 on this CPU";
  for (const char* model : {"tiny_house", "tiny_house_mirror_bf16", "tiny_house_features",
                            "tiny_house_bias", "tiny_house_relative"})
    check_parity(model, Precision::Bf16, kBf16LogProbabilityTolerance, kBf16WinTolerance);
}
TEST(Parity, SearchlessFamilyInBf16) {
  if (!precision_supported(Precision::Bf16)) GTEST_SKIP() << "no AVX-512 BF16 on this CPU";
  check_parity("tiny_searchless", Precision::Bf16, kBf16LogProbabilityTolerance, kBf16WinTolerance);
}

TEST(Evaluator, WinProbabilitiesAreInRangeAndRepeatable) {
  const auto evaluator =
      make_evaluator(Network::load_file(avocet::testing::data_path("tiny_house.safetensors")));
  const Position pos = Position::start();
  const MoveList moves = legal_moves(pos);
  std::vector<float> first(moves.size()), second(moves.size());
  evaluator->evaluate(pos, {moves.begin(), moves.size()}, first);
  evaluator->evaluate(pos, {moves.begin(), moves.size()}, second);
  EXPECT_EQ(first, second);
  for (float w : first) {
    EXPECT_GT(w, 0.0f);
    EXPECT_LT(w, 1.0f);
  }
}

}  // namespace
}  // namespace avocet::nn
