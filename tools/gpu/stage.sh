#!/usr/bin/env bash
# Stages what a GPU machine needs into .gpu/ (kept out of git by .git/info/exclude), small
# enough to travel (the device tool carries at most 64 MiB with the working tree): the packed
# annotations (pack_annotations.py, 23 MB for the three sf-annotations files), a portable
# `avocet` (no -march=native) with its libfmt for `datagen --from-tsv`, and python-chess.
# Usage: tools/gpu/stage.sh PYTHON_CHESS_SOURCE [ANNOTATIONS_DIR] [DATAGEN_TSV ...]
#   PYTHON_CHESS_SOURCE: a python-chess checkout (the folder holding chess/), e.g. one
#   fetched from github:niklasf/python-chess; ANNOTATIONS_DIR defaults to
#   ../shared/data/sf-annotations.
#   DATAGEN_TSV: `avocet datagen` annotations (its .tsv files); split_games.py splits each into
#   training games (.gpu/data, trained on) and 10% held-out games (.gpu/held-out, which
#   train.sh passes to train.py --held-out-shards), both packed. Stage a file again after
#   datagen has added to it: the packed copies are remade.
set -euo pipefail
chess_source=$(cd "$1" && pwd)
cd "$(dirname "$0")/../.."
annotations=${2:-../shared/data/sf-annotations}
datagen=("${@:3}")
[ -f "$chess_source/chess/__init__.py" ] || { echo "$chess_source has no chess/ package" >&2; exit 2; }
mkdir -p .git/info .gpu/data .gpu/held-out .gpu/bin .gpu/lib
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
for file in "${datagen[@]}"; do
  # seed and worker in the name (sf-seed404-worker0), so runs with other seeds stay apart
  name=datagen-$(basename "$file" .tsv) split=$(mktemp -d)
  /usr/bin/python3 tools/split_games.py "$file" "$split/$name.tsv" "$split/$name.tsv.held"
  PYTHONPATH=.gpu /usr/bin/python3 tools/gpu/pack_annotations.py pack "$split/$name.tsv" \
    ".gpu/data/$name.pk.xz" &
  PYTHONPATH=.gpu /usr/bin/python3 tools/gpu/pack_annotations.py pack "$split/$name.tsv.held" \
    ".gpu/held-out/$name-games.pk.xz" &
done
wait
du -sh .gpu
