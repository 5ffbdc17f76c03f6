#!/usr/bin/env bash
# Quick start, second command (and CI): install what is missing, build, check formatting and
# run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh

unformatted=$(git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | grep -c "warning:" || true)
if [ "$unformatted" -ne 0 ]; then
  git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | head -20
  echo "clang-format: $unformatted lines differ from .clang-format (run clang-format -i)" >&2
  exit 1
fi

ctest --test-dir build --output-on-failure -j "$(nproc)"
