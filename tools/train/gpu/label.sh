#!/usr/bin/env bash
# On a machine with many cores (a GPU machine's CPUs, say): labels new positions with Stockfish
# on all its cores for SECONDS (avocet datagen: Stockfish self-play from the book's openings,
# 3% random moves after the opening, each position's moves scored at depth 7), then packs the
# annotations (.tsv, one file per core: whole games, but for the last of each, cut where the
# time limit stopped it) into OUT/datagen-seedSEED.tar.xz. Needs .sf/ (stage_labeller.sh,
# run here or on the machine that copies the repository here). 16 cores label about 440
# positions a second, 8 to 10 times what a 2-core machine does.
# Then, where training runs: tar -xJf datagen-seedSEED.tar.xz -C DIR, and
# tools/train/gpu/stage.sh with the .tsv files stages them for training, split by game.
# Usage: SEED=418 SECONDS_TO_RUN=140 [OUT=DIR] tools/train/gpu/label.sh
#   OUT defaults to ${TMPDIR:-/tmp}/avocet-label; the games are written in OUT/seed-SEED.
set -uo pipefail
seed=${SEED:?SEED: the datagen seed, one not used before (weights/README.md lists them)}
seconds=${SECONDS_TO_RUN:-140} out=$(realpath -m "${OUT:-${TMPDIR:-/tmp}/avocet-label}")
work=$out/seed-$seed
cd "$(dirname "$0")/../../.." || exit 2
mkdir -p "$out" "$work"
echo "$(nproc) cores, $seconds s"
LD_LIBRARY_PATH=.sf timeout "$seconds" .sf/avocet datagen --stockfish .sf/stockfish \
  --book .sf/book.epd.xz --blunder-rate 0.03 --seed "$seed" --threads "$(nproc)" \
  --positions 10000000 -o "$work" 2>&1 | tr '\r' '\n' | tail -2
cd "$work" || exit 1
# The time limit kills datagen mid-write, so a file can end in part of a line: drop it.
for file in ./*.tsv; do [ -z "$(tail -c 1 "$file")" ] || sed -i '$d' "$file"; done
positions=$(cat ./*.tsv 2>/dev/null | wc -l)
echo "$positions positions"
[ "$positions" -gt 0 ] || { echo "no whole game was labelled in $seconds s" >&2; exit 1; }
tar -cf - ./*.tsv | xz -T0 -6 > "$out/datagen-seed$seed.tar.xz" && ls -l "$out"
