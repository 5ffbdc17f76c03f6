#!/usr/bin/env bash
# Quick start, first command: install what is missing, build, and show the engine at work
# with its embedded net: the value of every move in the start position, then the puzzle
# bench on a sample of Lichess puzzles.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/build/install-deps.sh
tools/build/build.sh
build/avocet eval startpos
build/avocet puzzles --file tests/data/puzzles_sample.csv --mode search --nodes 200
