// Running, on this CPU, the code paths that CPUs with fewer instruction sets take
// (nn/cpu_level.h): each kernel that CI's machine would choose is otherwise the only one its
// tests see.
#pragma once

#include <string>
#include <vector>

#include "avocet/nn/cpu_level.h"

namespace avocet::nn::testing {

// Limits the kernels to `level` while it lives (load the nets under test after it).
class CpuLevelLimit {
 public:
  explicit CpuLevelLimit(CpuLevel level) { limit_cpu_level(level); }
  ~CpuLevelLimit() { limit_cpu_level(CpuLevel::Avx512Bf16); }
  CpuLevelLimit(const CpuLevelLimit&) = delete;
  CpuLevelLimit& operator=(const CpuLevelLimit&) = delete;
};

// Every level up to this CPU's, lowest first.
inline std::vector<CpuLevel> levels_up_to_this_cpu() {
  std::vector<CpuLevel> levels;
  for (int level = 0; level <= int(cpu_level()); ++level) levels.push_back(CpuLevel(level));
  return levels;
}

inline std::string level_name(CpuLevel level) {
  static const char* const names[] = {"baseline", "avx2", "avx512", "avx512-vnni", "avx512-bf16"};
  return names[int(level)];
}

}  // namespace avocet::nn::testing
