#!/usr/bin/env bash
# Stages what label.sh needs to label positions on another machine's CPU cores into .sf/ (kept
# out of git by .git/info/exclude), so that machine needs neither a C++ toolchain nor
# Stockfish: Stockfish 15.1 (the label source, 47 MB), the portable avocet that stage.sh
# builds (no net, no -march=native) with its libfmt, and the opening book xz-compressed: about
# 50 MB to copy with the repository.
# Usage: tools/train/gpu/stage_labeller.sh [BOOK]
#   BOOK defaults to noob_3moves.epd, the label plan's book (tools/data/label-plan.txt), in
#   $AVOCET_BOOKS (../shared/data/books beside the repository, as for tools/data/labeller.sh).
set -euo pipefail
book=${1:+$(realpath "$1")}
cd "$(dirname "$0")/../../.."
book=${book:-${AVOCET_BOOKS:-../shared/data/books}/noob_3moves.epd}
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$stockfish" ] || { echo "no Stockfish: apt-get install stockfish" >&2; exit 2; }
[ -f "$book" ] || { echo "no book at $book" >&2; exit 2; }
# The clone's own exclude file (.git is a file in a worktree; git knows where it is).
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")" .sf
grep -qx '/.sf/' "$exclude" 2>/dev/null || echo '/.sf/' >> "$exclude"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DAVOCET_NATIVE=OFF -DAVOCET_DEFAULT_NET= >/dev/null
cmake --build build-gpu -j "$(nproc)" --target avocet
cp build-gpu/avocet .sf/avocet && strip .sf/avocet
cp -L "$(ldd .sf/avocet | awk '/libfmt/ {print $3}')" .sf/
cp "$stockfish" .sf/stockfish
xz -c "$book" > .sf/book.epd.xz
du -sh .sf
