#!/usr/bin/env bash
# Stages what a GPU machine needs into .gpu/ (kept out of git by .git/info/exclude), small
# enough to travel (the device tool carries at most 64 MiB with the working tree): the packed
# annotations (pack_annotations.py, 23 MB for the three sf-annotations files), a portable
# `avocet` (no -march=native) with its libfmt for `datagen --from-tsv`, and python-chess.
# Usage: tools/gpu/stage.sh PYTHON_CHESS_SOURCE [ANNOTATIONS_DIR]
#   PYTHON_CHESS_SOURCE: a python-chess checkout (the folder holding chess/), e.g. one
#   fetched from github:niklasf/python-chess; ANNOTATIONS_DIR defaults to
#   ../shared/data/sf-annotations.
set -euo pipefail
chess_source=$(cd "$1" && pwd)
cd "$(dirname "$0")/../.."
annotations=${2:-../shared/data/sf-annotations}
[ -f "$chess_source/chess/__init__.py" ] || { echo "$chess_source has no chess/ package" >&2; exit 2; }
mkdir -p .git/info .gpu/data .gpu/bin .gpu/lib
grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
cmake -S . -B build-portable -DCMAKE_BUILD_TYPE=Release -DAVOCET_NATIVE=OFF >/dev/null
cmake --build build-portable -j "$(nproc)" --target avocet
cp build-portable/avocet .gpu/bin/avocet && strip .gpu/bin/avocet
cp -L "$(ldd .gpu/bin/avocet | awk '/libfmt/ {print $3}')" .gpu/lib/
rm -rf .gpu/chess && cp -r "$chess_source/chess" .gpu/chess
for file in "$annotations"/*.tsv.xz; do
  packed=.gpu/data/$(basename "$file" .tsv.xz).pk.xz
  [ -s "$packed" ] || PYTHONPATH=.gpu /usr/bin/python3 tools/gpu/pack_annotations.py pack "$file" "$packed" &
done
wait
du -sh .gpu
