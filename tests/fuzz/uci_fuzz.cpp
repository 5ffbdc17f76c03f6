// libFuzzer target: the UCI line handler. Each input is a session of lines sent to a loop
// playing with the material evaluator; the session ends with `stop` and `quit`. Lines that
// would only make a session slow (deep perft, huge Hash, many threads, loading files, bench) are
// skipped: they are covered by the unit and black-box tests.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>

#include "avocet/nn/material_evaluator.h"
#include "avocet/uci/uci_loop.h"

namespace {

bool too_slow(std::string_view line) {
  std::string text(line);
  for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  const auto has = [&](const char* word) { return text.find(word) != std::string::npos; };
  // Both checks apply to every line: a mutated line can hold "setoption" and "perft" at once.
  if (has("setoption") && (has("hash") || has("threads") || has("evalfile"))) return true;
  // The bench: ten fixed searches with a default-sized (64 MB) table, whatever it was sent.
  if (has("bench")) return true;
  if (!has("perft")) return false;
  // Depths 1-3 only: any number after "perft" above 3 is skipped.
  int number = 0;
  for (size_t i = text.find("perft"); i <= text.size(); ++i) {
    if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      number = std::min(number * 10 + (text[i] - '0'), 1000);
    } else {
      if (number > 3) return true;
      number = 0;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avocet;
  std::ostringstream out;
  {
    uci::UciLoop loop(
        out, [] { return std::make_unique<nn::MaterialEvaluator>(); }, "material");
    loop.handle_line("setoption name Hash value 1");
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::string line;
    int lines = 0;
    while (std::getline(in, line) && ++lines <= 64) {
      if (too_slow(line)) continue;
      if (!loop.handle_line(line)) break;
    }
    loop.handle_line("stop");
    loop.handle_line("quit");
  }
  return 0;
}
