#!/usr/bin/env bash
# Configures and builds Avocet (Release, native CPU) into build/.
# Usage: tools/build/build.sh [extra cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j "$(nproc)"
