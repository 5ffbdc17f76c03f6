// What the binary says about itself: its version (CMake's project version), the commit it was
// built from, the compiler and the instruction sets it was compiled for. `avocet --version`,
// the banner on a terminal, `id name` and the UCI command `compiler` read it from here.
#pragma once

#include <string>
#include <string_view>

namespace avocet {

// "0.1.0": project(VERSION) in CMakeLists.txt.
std::string_view version();
// `git describe --always --dirty` at build time ("63dc7d8a21", "63dc7d8a21-dirty"), or
// "unknown" for a build outside a git checkout.
std::string_view commit();

// "Avocet 0.1.0 (commit 63dc7d8a21)".
std::string version_line();
// What the build targets, in one line: "gcc 12.2.0, Release, -march=native: AVX2 BMI2, PEXT
// attacks" (AVX-512 and its BF16/VNNI parts when compiled in; "magic attacks" without PEXT).
std::string build_line();
// The full report of the UCI command `compiler`: one "name: value" line each for the
// version, commit, compiler, build type and flags, instruction sets, slider attacks and
// Eigen's SIMD.
std::string build_report();

}  // namespace avocet
