// The x86-64 instruction-set levels the network's kernels are chosen by, and a ceiling on them
// for tests. Every kernel that needs more than the baseline is compiled with a target attribute
// and chosen at run time where the CPU has its instructions (nn/precision.h and the headers
// of nn/kernels/), so one binary runs on every x86-64 CPU and takes another
// code path on each level. A test machine has one level; limit_cpu_level lets its tests run the
// paths that CPUs with less take (on a CPU with AVX-512 VNNI but no BF16, for one, int8 runs the
// products a net names in int8_bf16 in fp32, with Eigen).
#pragma once

namespace avocet::nn {

// Each level has the instructions of those before it, as x86 CPUs ship them.
enum class CpuLevel {
  Baseline,    // x86-64 (e.g. x86-64-v2): the Eigen reference kernels; Precision int8 refused
  Avx2,        // AVX2 and FMA (Haswell, Zen 1-3): int8's 16-bit kernel, AVX2 attention, SwiGLU
  Avx512,      // AVX-512 F (Skylake-SP): the fp32 AVX-512 attention; int8 still on AVX2
  Avx512Vnni,  // AVX-512 VNNI (Cascade Lake, Ice Lake): int8's 8-bit kernel, the products a
               // net names in int8_bf16 in fp32
  Avx512Bf16,  // AVX-512 BF16 (Sapphire Rapids, Zen 4): Precision bf16; int8 runs those
               // products, and attention where it can, in bf16
};

// This CPU's level under the limit below: the highest level whose instructions it has (and
// whose registers the OS saves).
CpuLevel cpu_level();

// Whether the kernels may use `level`'s instructions: false above the limit. Each kernel's own
// check of the CPU comes on top, so this never adds what the CPU lacks.
bool cpu_level_allowed(CpuLevel level);

// The highest level the kernels may use from now on, process-wide; Avx512Bf16 (the default)
// is no limit. For tests: networks loaded afterwards are packed for it (Network::load), and
// the kernels chosen at each call (attention, SwiGLU) follow it at once, so a test sets it
// before it loads a net and lifts it after it has run it.
void limit_cpu_level(CpuLevel level);

}  // namespace avocet::nn
