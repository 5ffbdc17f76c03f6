#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) and runs one of them.
# Usage: tools/build/fuzz.sh TARGET [SECONDS]   TARGET: fen uci weights puzzle_row epd_line syzygy
# New inputs are kept in build-fuzz/tests/fuzz/found/TARGET; a crash leaves its input in
# build-fuzz/artifacts/ (turn it into a regression test).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: tools/build/fuzz.sh TARGET [SECONDS]}
seconds=${2:-600}
[ -d "tests/fuzz/corpus/$target" ] || { echo "fuzz.sh: unknown target '$target'" >&2; exit 2; }
cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "fuzz_$target"
mkdir -p build-fuzz/artifacts "build-fuzz/tests/fuzz/found/$target"
exec "build-fuzz/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build-fuzz/artifacts/ \
  "build-fuzz/tests/fuzz/found/$target" "tests/fuzz/corpus/$target"
