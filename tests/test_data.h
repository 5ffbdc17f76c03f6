// Paths to the committed fixtures, and a reader for perft files (`FEN; D1 n; D2 n; ...`).
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace avocet::testing {

inline std::string data_path(const std::string& name) {
  return std::string(AVOCET_TEST_DATA_DIR) + "/" + name;
}

struct PerftCase {
  std::string fen;
  std::vector<std::pair<int, uint64_t>> counts;  // (depth, nodes)
};

inline std::vector<PerftCase> read_perft_file(const std::string& name) {
  std::ifstream file(data_path(name));
  if (!file) throw std::runtime_error("cannot open " + data_path(name));
  std::vector<PerftCase> cases;
  std::string line;
  while (std::getline(file, line)) {
    if (line.empty()) continue;
    std::stringstream fields(line);
    PerftCase c;
    std::getline(fields, c.fen, ';');
    std::string entry;
    while (std::getline(fields, entry, ';')) {
      std::stringstream words(entry);
      std::string depth;
      uint64_t nodes;
      words >> depth >> nodes;
      c.counts.emplace_back(std::stoi(depth.substr(1)), nodes);
    }
    cases.push_back(c);
  }
  return cases;
}

}  // namespace avocet::testing
