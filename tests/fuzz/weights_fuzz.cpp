// libFuzzer target: the safetensors reader and network loader on arbitrary bytes. Bad files
// throw WeightsError; a file that loads must evaluate a position to probabilities.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "avocet/chess/movegen.h"
#include "avocet/nn/evaluator.h"
#include "avocet/nn/network.h"
#include "avocet/nn/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avocet;
  std::shared_ptr<const nn::Network> net;
  try {
    const auto file = nn::SafetensorsFile::from_memory(
        std::span(reinterpret_cast<const std::byte*>(data), size), "fuzz input");
    net = nn::Network::load(file);
  } catch (const nn::WeightsError&) {
    return 0;
  }
  // Cap the work per input: the fuzzer may describe a large model.
  if (net->flops(20) > 50'000'000) return 0;
  const auto evaluator = nn::make_evaluator(net);
  const Position pos = Position::start();
  const MoveList moves = legal_moves(pos);
  std::vector<float> values(moves.size());
  evaluator->evaluate(pos, std::span(moves.begin(), moves.size()), values);
  for (float v : values)
    if (!(v >= 0.0f && v <= 1.0f) && !std::isnan(v)) __builtin_trap();
  return 0;
}
