#!/usr/bin/env bash
# Quick start, first command: install what is missing, build, and run the engine's main job.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh
build/avocet perft 6
