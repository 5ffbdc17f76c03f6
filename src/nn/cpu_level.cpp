#include "avocet/nn/cpu_level.h"

#include <algorithm>
#include <atomic>

namespace avocet::nn {

namespace {

CpuLevel detected_level() {
#if defined(__x86_64__) || defined(__i386__)
  // __builtin_cpu_supports also checks that the OS saves the registers (XCR0).
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return CpuLevel::Baseline;
  if (!__builtin_cpu_supports("avx512f")) return CpuLevel::Avx2;
  if (!__builtin_cpu_supports("avx512vnni")) return CpuLevel::Avx512;
  if (!__builtin_cpu_supports("avx512bf16")) return CpuLevel::Avx512Vnni;
  return CpuLevel::Avx512Bf16;
#else
  return CpuLevel::Baseline;
#endif
}

// Read at every dispatch (attention per block, SwiGLU per trunk run): a relaxed load costs what
// a plain one does.
std::atomic<CpuLevel> limit{CpuLevel::Avx512Bf16};

}  // namespace

CpuLevel cpu_level() {
  static const CpuLevel detected = detected_level();
  return std::min(detected, limit.load(std::memory_order_relaxed));
}

bool cpu_level_allowed(CpuLevel level) { return level <= limit.load(std::memory_order_relaxed); }

void limit_cpu_level(CpuLevel level) { limit.store(level, std::memory_order_relaxed); }

}  // namespace avocet::nn
