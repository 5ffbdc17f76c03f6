#!/usr/bin/env bash
# Quick start, second command (and CI): install what is missing, check formatting, build, run
# the whole test suite on the checked build (the Release build, -O3 for this CPU, with its
# assertions on), compile the code that depends on the target CPU for six -march targets with
# -Werror (nothing linked or run), then run the suite again built with clang's
# AddressSanitizer and UndefinedBehaviorSanitizer (LeakSanitizer included), together with a
# short run of every libFuzzer target, and the threaded tests under ThreadSanitizer. Every build
# treats a warning in the project's own code as an error (AVOCET_WERROR), so that CI fails on a
# new one, with gcc and with clang. Each stage prints when it starts, in seconds from the start,
# so that CI's time can be read by stage.
set -euo pipefail
cd "$(dirname "$0")/../.."
stage() { echo "== $1 (at $SECONDS s)"; }
tools/build/install-deps.sh

# Formatting first: it takes seconds, a build minutes.
unformatted=$(git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | grep -c "warning:" || true)
if [ "$unformatted" -ne 0 ]; then
  git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | head -20
  echo "clang-format: $unformatted lines differ from .clang-format (run clang-format -i)" >&2
  exit 1
fi

stage "checked build: build-checked"
cmake --preset checked >/dev/null
cmake --build build-checked -j "$(nproc)"
stage "the suite on the checked build"
ctest --test-dir build-checked --output-on-failure -j "$(nproc)"

# The code whose compilation depends on the target CPU, for each -march a user's CPU may have,
# with the CI warning flags and -Werror (the checked preset's flags; compile only, nothing is
# linked or run). gcc's warnings depend on the target: with AVX-512 gcc 12 reports false
# maybe-uninitialized warnings from its intrinsics headers wherever Eigen's packet code is
# inlined (nn/eigen.h), which -march=native on earlier CI machines never showed. x86-64-v2 has
# no AVX, so the kernels chosen at run time must compile from their target attributes alone (a
# lambda inside one does not inherit the attribute). Debian 12's gcc 12.2 knows no znver4: on
# Zen 4 its -march=native gives znver3 with Zen 4's AVX-512 extensions, spelled out here.
# Scope: src/nn (Eigen's vector code and the kernels) and chess/attacks.cpp (BMI2's PEXT); the
# rest of src/ is plain C++ whose code does not change with the target. This scope is about
# 75 s of CPU a target. CMake's top-level Makefile is .NOTPARALLEL, so one target's objects
# compile one at a time whatever -j says: the targets run side by side instead, one per core,
# each logging to build-march-TARGET/compile.log (printed when it fails).
stage "compile only, -Werror, for six -march targets"
march_targets=(x86-64-v2 x86-64-v3 icelake-server sapphirerapids znver3 znver4)
march_sources=(src/nn/*.cpp src/nn/kernels/*.cpp src/chess/attacks.cpp)
compile_for_target() {  # TARGET: compile march_sources for it; leaves DIR/compile.ok
  local target=$1 flags="-march=$1"
  [ "$target" = znver4 ] && flags="-march=znver3 -mavx512f -mavx512cd -mavx512bw -mavx512dq \
-mavx512vl -mavx512ifma -mavx512vbmi -mavx512vbmi2 -mavx512vnni -mavx512bitalg -mavx512vpopcntdq \
-mavx512bf16 -mgfni -mvaes -mvpclmulqdq"
  local dir="build-march-$target" start=$SECONDS
  mkdir -p "$dir" && rm -f "$dir/compile.ok"
  if cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE= \
       -DAVOCET_WERROR=ON -DAVOCET_NATIVE=OFF -DAVOCET_BUILD_TESTS=OFF "-DCMAKE_CXX_FLAGS=$flags" \
       >"$dir/compile.log" 2>&1 &&
     make -C "$dir" --no-print-directory "${march_sources[@]/%.cpp/.o}" >>"$dir/compile.log" 2>&1; then
    echo "== compile only, -Werror, -march=$target: $((SECONDS - start)) s"
    touch "$dir/compile.ok"
  else
    cat "$dir/compile.log"
    echo "== compile only, -Werror, $flags: FAILED" >&2
  fi
}
for target in "${march_targets[@]}"; do
  [ "$(jobs -rp | wc -l)" -lt "$(nproc)" ] || wait -n || true
  compile_for_target "$target" &
done
wait
for target in "${march_targets[@]}"; do [ -f "build-march-$target/compile.ok" ] || exit 1; done

stage "sanitizers (ASan + UBSan + LSan) and fuzz smoke: build-fuzz"
cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j "$(nproc)"
stage "the suite and the fuzz smoke on build-fuzz"
ctest --test-dir build-fuzz --output-on-failure -j "$(nproc)"

# ThreadSanitizer on the tests whose code runs on several threads at once: PUCT's helpers in
# one tree, the probability-limited search's split work, the table both share, two threads on
# one evaluation and the engine that starts them. It found the table's slots locked by key
# instead of by index (5d38757). Only the test binary is built. The table's failed resize asks
# for more memory than there is on purpose, which TSan's allocator reports, so it is left out.
stage "ThreadSanitizer on the threaded tests: build-tsan"
cmake --preset tsan >/dev/null
cmake --build build-tsan -j "$(nproc)" --target avocet_tests
stage "the threaded tests on build-tsan"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build-tsan/tests/avocet_tests \
  --gtest_brief=1 \
  --gtest_filter='PuctThreads.*:SplitWork.*:TranspositionTable.*:HelperThread.*:SplitEvaluation.*:Engine.*:BusyPositions.*-TranspositionTable.FailedResizeLeavesAUsableTable'
stage "all passed"
