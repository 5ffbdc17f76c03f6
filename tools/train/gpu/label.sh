#!/usr/bin/env bash
# On a machine with many cores (a GPU machine's CPUs, say): labels games by the label plan's
# recipe (tools/data/label-plan.txt: depth 11, a single PV, the noob book, 10% random moves)
# with avocet datagen on all its cores for SECONDS, into OUT/noob-d11-pv/, one labelled-games
# file per core. The time limit kills datagen mid-game; the games written whole are kept and
# the one in progress is not. Needs .sf/ (stage_labeller.sh). Bring OUT back and land it where
# the repository is: tools/data/land.sh OUT (weights/labels/README.md).
# Usage: SECONDS_TO_RUN=480 [OUT=DIR] tools/train/gpu/label.sh
#   OUT defaults to ${TMPDIR:-/tmp}/avocet-label. The seed is drawn once per OUT folder.
set -uo pipefail
seconds=${SECONDS_TO_RUN:-480} out=$(realpath -m "${OUT:-${TMPDIR:-/tmp}/avocet-label}")
work=$out/noob-d11-pv
cd "$(dirname "$0")/../../.." || exit 2
mkdir -p "$work"
[ -s "$work/seed" ] || od -An -N4 -tu4 /dev/urandom | tr -d ' ' > "$work/seed"
echo "$(nproc) cores, $seconds s, seed $(cat "$work/seed")"
LD_LIBRARY_PATH=.sf timeout "$seconds" .sf/avocet datagen --stockfish .sf/stockfish \
  --book .sf/book.epd.xz --depth 11 --multipv 1 --blunder-rate 0.10 --seed "$(cat "$work/seed")" \
  --threads "$(nproc)" --positions 1000000000 -o "$work" 2>&1 | tr '\r' '\n' | tail -2
ls -l "$work"
