#!/usr/bin/env bash
# For a GPU machine other than this one: stages what it needs to make the shards itself into
# .gpu/ (kept out of git by .git/info/exclude), small enough to copy there with the repository
# (41 MB, where the shards are 496 MB): the packed annotations (pack_annotations.py, 23 MB for
# the three sf-annotations files), a portable `avocet` (no -march=native) with its libfmt for
# `datagen --from-tsv`, so the GPU machine needs no C++ toolchain, and python-chess.
# That avocet embeds no net (build-gpu, AVOCET_DEFAULT_NET empty): datagen --from-tsv needs
# none. Then copy the repository with .gpu/ (rsync -a, say) and run train.sh there.
# Usage: tools/train/gpu/stage.sh PYTHON_CHESS_SOURCE [ANNOTATIONS_DIR] [DATAGEN_TSV ...]
#   PYTHON_CHESS_SOURCE: a python-chess checkout (the folder holding chess/), e.g. a clone of
#   https://github.com/niklasf/python-chess; ANNOTATIONS_DIR defaults to
#   ../shared/data/sf-annotations beside the repository.
#   DATAGEN_TSV: `avocet datagen` annotations (its .tsv files); split_games.py splits each into
#   training games (.gpu/data, trained on) and 10% held-out games (.gpu/held-out, which
#   train.sh passes to train.py --held-out-shards), both packed. Stage a file again after
#   datagen has added to it: the packed copies are remade.
set -euo pipefail
chess_source=$(cd "$1" && pwd)
annotations=${2:+$(realpath "$2")}
datagen=()
for file in "${@:3}"; do datagen+=("$(realpath "$file")"); done
cd "$(dirname "$0")/../../.."
annotations=${annotations:-../shared/data/sf-annotations}
[ -f "$chess_source/chess/__init__.py" ] || { echo "$chess_source has no chess/ package" >&2; exit 2; }
# The clone's own exclude file (.git is a file in a worktree; git knows where it is).
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")" .gpu/data .gpu/held-out .gpu/bin .gpu/lib
grep -qx '/.gpu/' "$exclude" 2>/dev/null || echo '/.gpu/' >> "$exclude"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DAVOCET_NATIVE=OFF -DAVOCET_DEFAULT_NET= >/dev/null
cmake --build build-gpu -j "$(nproc)" --target avocet
cp build-gpu/avocet .gpu/bin/avocet && strip .gpu/bin/avocet
cp -L "$(ldd .gpu/bin/avocet | awk '/libfmt/ {print $3}')" .gpu/lib/
rm -rf .gpu/chess && cp -r "$chess_source/chess" .gpu/chess
pids=()
pack() {  # IN OUT in the background
  PYTHONPATH=.gpu /usr/bin/python3 -m tools.train.gpu.pack_annotations pack "$1" "$2" &
  pids+=($!)
}
for file in "$annotations"/*.tsv.xz; do
  packed=.gpu/data/$(basename "$file" .tsv.xz).pk.xz
  [ -s "$packed" ] || pack "$file" "$packed"
done
# A datagen file's data sets are named after it (seed and worker: datagen-sf-seed404-worker0),
# so two files of one name would overwrite each other's packs.
names=$(for file in "${datagen[@]}"; do echo "datagen-$(basename "$file" .tsv)"; done)
[ -z "$(sort <<< "$names" | uniq -d)" ] ||
  { echo "two datagen files share a name: $(sort <<< "$names" | uniq -d | head -1)" >&2; exit 2; }
split=$(mktemp -d)
trap 'rm -rf "$split"' EXIT
for file in "${datagen[@]}"; do
  name=datagen-$(basename "$file" .tsv)
  /usr/bin/python3 -m tools.data.split_games "$file" "$split/$name.tsv" "$split/$name-games.tsv"
  rm -f ".gpu/data/$name.pk.xz" ".gpu/held-out/$name-games.pk.xz"
  for part in "$name .gpu/data" "$name-games .gpu/held-out"; do
    read -r set folder <<< "$part"
    if [ -s "$split/$set.tsv" ]; then pack "$split/$set.tsv" "$folder/$set.pk.xz"
    else echo "$file: no games for $folder, none staged there"; fi
  done
done
for pid in "${pids[@]}"; do wait "$pid" || { echo "packing failed" >&2; exit 1; }; done
du -sh .gpu
