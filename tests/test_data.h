// Paths to the committed fixtures, and a reader for perft suite files.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "avocet/chess/perft.h"

namespace avocet::testing {

inline std::string data_path(const std::string& name) {
  return std::string(AVOCET_TEST_DATA_DIR) + "/" + name;
}

inline std::vector<PerftSuiteEntry> read_perft_file(const std::string& name) {
  std::ifstream file(data_path(name));
  if (!file) throw std::runtime_error("cannot open " + data_path(name));
  std::vector<PerftSuiteEntry> entries;
  for (std::string line; std::getline(file, line);)
    if (!line.empty()) entries.push_back(parse_perft_suite_line(line));
  return entries;
}

}  // namespace avocet::testing
