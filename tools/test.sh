#!/usr/bin/env bash
# Quick start, second command (and CI): install what is missing, build, check formatting, run
# the whole test suite on the checked build (the Release build, -O3 for this CPU, with its
# assertions on), compile the run-time dispatched kernels in a portable build, then run the
# suite again built with clang's AddressSanitizer and UndefinedBehaviorSanitizer
# (LeakSanitizer included), together with a short run of every libFuzzer target. Both builds treat a warning in the project's own code as an error
# (AVOCET_WERROR), so that CI fails on a new one, with gcc and with clang.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake --preset checked >/dev/null
cmake --build build-checked -j "$(nproc)"

unformatted=$(git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | grep -c "warning:" || true)
if [ "$unformatted" -ne 0 ]; then
  git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | head -20
  echo "clang-format: $unformatted lines differ from .clang-format (run clang-format -i)" >&2
  exit 1
fi

ctest --test-dir build-checked --output-on-failure -j "$(nproc)"

# The kernels chosen at run time carry their instruction sets as target attributes, so a
# portable build (AVOCET_NATIVE=OFF, no -march=native) must compile them too: a lambda inside
# such a kernel, for one, does not inherit the attribute and fails only there.
echo "== the run-time dispatched kernels without -march=native: build-portable"
cmake -S . -B build-portable -DCMAKE_BUILD_TYPE=Release -DAVOCET_NATIVE=OFF >/dev/null
make -C build-portable --no-print-directory src/nn/attention.o src/nn/attention_avx2.o \
  src/nn/bf16_gemm.o src/nn/int8_gemm.o src/nn/swiglu.o

echo "== sanitizers (ASan + UBSan + LSan) and fuzz smoke: build-fuzz"
cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j "$(nproc)"
ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)"
