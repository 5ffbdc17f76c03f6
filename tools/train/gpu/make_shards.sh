#!/usr/bin/env bash
# On the GPU machine: packed annotations (stage.sh) -> shards with the tactical features, WORKERS
# blocks per file in parallel, in the files' line order (train.py's validation rows then match
# those of shards made here by `avocet datagen --from-tsv`). A file of fewer lines than WORKERS
# is cut into one block per line. Prints the number of shards; fails if any block failed.
# The avocet is stage.sh's portable one (.gpu/bin) where it was staged, else build/avocet.
# Usage: tools/train/gpu/make_shards.sh OUT_DIR [WORKERS] [PACKED_DIR]   (PACKED_DIR: .gpu/data)
set -euo pipefail
out=$(realpath -m "$1")
cd "$(dirname "$0")/../../.."
workers=${2:-5} packed_dir=${3:-.gpu/data} work=$(mktemp -d)
avocet=.gpu/bin/avocet
[ -x "$avocet" ] || avocet=build/avocet
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
pids=()
for packed in "$packed_dir"/*.pk.xz; do
  [ -e "$packed" ] || continue  # an empty PACKED_DIR makes no shards
  name=$(basename "$packed" .pk.xz)
  lines=$(xz -dc "$packed" | wc -l)
  blocks=$(( lines < workers ? lines : workers ))
  for block in $(seq 0 $((blocks - 1))); do
    dir=$work/$name-$block
    ( mkdir -p "$dir" &&
      PYTHONPATH=.gpu python3 -m tools.train.gpu.pack_annotations unpack "$packed" "$dir/$name.tsv" \
        --block "$block" --blocks "$blocks" &&
      LD_LIBRARY_PATH=.gpu/lib "$avocet" datagen --from-tsv "$dir/$name.tsv" -o "$dir/out" \
        --shard-size 0 > /dev/null 2>&1 &&
      mv "$dir/out/$name-000.shard" "$out/$name-$(printf %03d "$block").shard" ) &
    pids+=($!)
  done
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
find "$out" -name "*.shard" | wc -l
exit "$failed"
