#include "avocet/build_info.h"

#include <fmt/format.h>

#include <Eigen/Core>
#include <vector>

#include "avocet/chess/attacks.h"  // AVOCET_USE_PEXT
#include "avocet/nn/kernels/int8_gemm.h"
#include "avocet/nn/precision.h"
#include "avocet_build_commit.h"  // AVOCET_COMMIT, written at build time

// CMakeLists.txt defines these for this file alone; the fallbacks keep it compilable on its own.
#ifndef AVOCET_PROJECT_VERSION
#define AVOCET_PROJECT_VERSION "unknown"
#endif
#ifndef AVOCET_BUILD_TYPE
#define AVOCET_BUILD_TYPE "unknown"
#endif
#ifndef AVOCET_NATIVE_BUILD
#define AVOCET_NATIVE_BUILD 0
#endif
#ifndef AVOCET_SANITIZERS
#define AVOCET_SANITIZERS ""
#endif

namespace avocet {

namespace {

std::string compiler() {
#if defined(__clang__)
  return fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("gcc {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown compiler";
#endif
}

// The instruction sets this translation unit was compiled for (the whole library shares its
// flags), as the compiler's predefined macros say; the kernels and attacks use no others,
// except the bf16 kernels, which are chosen at run time (net_arithmetic below).
std::vector<std::string_view> instruction_sets() {
  std::vector<std::string_view> sets;
#ifdef __AVX2__
  sets.push_back("AVX2");
#endif
#ifdef __FMA__
  sets.push_back("FMA");
#endif
#ifdef __BMI2__
  sets.push_back("BMI2");
#endif
#ifdef __AVX512F__
  sets.push_back("AVX-512");
#endif
#ifdef __AVX512BF16__
  sets.push_back("AVX512-BF16");
#endif
#ifdef __AVX512VNNI__
  sets.push_back("AVX512-VNNI");
#endif
  return sets;
}

std::string instruction_set_text() {
  const std::vector<std::string_view> sets = instruction_sets();
  std::string text = sets.empty() ? std::string("baseline x86-64") : fmt::format("{}", sets[0]);
  for (size_t i = 1; i < sets.size(); ++i) text += fmt::format(" {}", sets[i]);
#ifndef __AVX512F__
  text += " (no AVX-512)";
#endif
  return text;
}

std::string_view attack_method() { return AVOCET_USE_PEXT ? "PEXT" : "magic bitboards"; }

std::string_view target() { return AVOCET_NATIVE_BUILD ? "-march=native" : "portable"; }

// What Precision auto gives on this CPU: found at run time, whatever the build's target.
std::string net_arithmetic() {
  switch (nn::resolve(nn::Precision::Auto)) {
    case nn::Precision::Int8:
      return nn::int8::best_kernel() == nn::int8::Kernel::Vnni
                 ? "int8 (AVX-512 VNNI found at run time)"
                 : "int8 with 16-bit products (AVX2 found at run time)";
    case nn::Precision::Bf16:
      return "bf16 (AVX-512 BF16 found at run time)";
    default:
      return "fp32 (no AVX2 or AVX-512 on this CPU)";
  }
}

}  // namespace

std::string_view version() { return AVOCET_PROJECT_VERSION; }

std::string_view commit() { return AVOCET_COMMIT; }

std::string version_line() { return fmt::format("Avocet {} (commit {})", version(), commit()); }

std::string build_line() {
  std::string sanitizers(AVOCET_SANITIZERS);
  return fmt::format("{}, {}{}, {}: {}, {} attacks, net in {}", compiler(), AVOCET_BUILD_TYPE,
                     sanitizers.empty() ? "" : ", sanitizers " + sanitizers, target(),
                     instruction_set_text(), attack_method(), net_arithmetic());
}

std::string build_report() {
  std::string report;
  const auto line = [&report](std::string_view name, std::string_view value) {
    report += fmt::format("{:<17} {}\n", fmt::format("{}:", name), value);
  };
  line("version", version());
  line("commit", commit());
  line("compiler", compiler());
  line("build type", AVOCET_BUILD_TYPE);
  line("target", target());
  line("sanitizers", *AVOCET_SANITIZERS ? AVOCET_SANITIZERS : "none");
  line("instruction sets", instruction_set_text());
  line("slider attacks", attack_method());
  line("Eigen SIMD", Eigen::SimdInstructionSetsInUse());
  line("net arithmetic", net_arithmetic());
  return report;
}

}  // namespace avocet
