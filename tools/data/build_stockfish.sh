#!/usr/bin/env bash
# Builds Stockfish 15.1 for this CPU, for the labeller: Debian's package is compiled for SSE2
# alone, and a build for AVX2 labels the same positions 1.5 times as fast (180,000 instead of
# 118,000 positions a core-hour at depth 11 on a 2-core AMD EPYC, 2026-12-02). The labels are
# the same bit for bit: the build must give Debian's `bench` signature, 3467381, or it is
# refused.
#
#   tools/data/build_stockfish.sh SOURCE OUT
#
# SOURCE is a Stockfish source tree at tag sf_15.1 (a clone of official-stockfish/Stockfish;
# nothing of it is committed here); OUT the binary to write, e.g. DATA/labels/bin/stockfish.
# The net (nn-ad9b42354671.nnue) is exported from Debian's binary, which embeds it, so no
# download is needed. Then run the labeller with AVOCET_STOCKFISH=OUT.
set -euo pipefail
source_dir="$(cd "${1:?usage: build_stockfish.sh SOURCE OUT}" && pwd)"
out="${2:?usage: build_stockfish.sh SOURCE OUT}"
debian=/usr/games/stockfish
signature=3467381
[ -x "$debian" ] || { echo "build_stockfish.sh: no $debian (apt-get install stockfish)" >&2; exit 2; }
grep -q 'nn-ad9b42354671.nnue' "$source_dir/src/evaluate.h" ||
  { echo "build_stockfish.sh: $source_dir is not Stockfish 15.1 (git checkout sf_15.1)" >&2; exit 2; }
arch=x86-64-modern
grep -qw avx2 /proc/cpuinfo && arch=x86-64-avx2
grep -qw avx512bw /proc/cpuinfo && arch=x86-64-avx512
cd "$source_dir/src"
[ -f nn-ad9b42354671.nnue ] ||
  printf 'export_net %s/nn-ad9b42354671.nnue\nquit\n' "$PWD" | "$debian" > /dev/null
make -j "$(nproc)" build ARCH="$arch" COMP=gcc > build.log 2>&1 ||
  { tail -5 build.log >&2; exit 1; }
nodes() { "$1" bench 2>&1 | awk '/Nodes searched/ {print $4}'; }
built="$(nodes ./stockfish)"
[ "$built" = "$signature" ] && [ "$(nodes "$debian")" = "$signature" ] ||
  { echo "build_stockfish.sh: bench $built, not $signature: labels would differ" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
cp stockfish "$out"
echo "$out: Stockfish 15.1 for $arch, bench $built as Debian's"
