// libFuzzer target: the UCI line handler. Each input is a session of lines sent to a loop
// playing with the material evaluator; the session ends with `stop` and `quit`. Lines that
// would only make a session slow (deep perft, huge Hash, many threads, loading files) are
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
  const auto has = [&](std::string_view word) { return line.find(word) != std::string_view::npos; };
  const auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string text = lower(std::string(line));
  if (const size_t at = text.find("perft"); at != std::string::npos) {
    // Depths 1-3 only: any number after "perft" above 3 is skipped.
    int number = 0;
    for (size_t i = at; i <= text.size(); ++i) {
      if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        number = std::min(number * 10 + (text[i] - '0'), 1000);
      } else {
        if (number > 3) return true;
        number = 0;
      }
    }
  }
  if (!has("setoption")) return false;
  return text.find("hash") != std::string::npos || text.find("threads") != std::string::npos ||
         text.find("evalfile") != std::string::npos;
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
