#!/usr/bin/env bash
# Trains every pilot of PILOTS side by side on one CUDA GPU (each is bound by its Python data
# loop, so four together cost little), for MINUTES each, batch 1024, bf16, --keep-best, and puts
# each export (NAME.safetensors) and validation log (NAME.jsonl) in OUT.
# PILOTS: one pilot per line, 'NAME train.py-options...' run from the repository root; '#' lines
# are comments.
# Shards: SHARDS (and HELD_OUT, whole held-out games) name folders made on this machine by
# `avocet datagen --from-tsv` or tools/data/prepare.py; without SHARDS they are made here from
# the packed annotations of stage.sh (.gpu/data, .gpu/held-out) by make_shards.sh.
# Usage: [SHARDS=DIR [HELD_OUT=DIR]] [OUT=DIR] MINUTES=5.8 tools/train/gpu/train.sh PILOTS
#   WORK (default ${TMPDIR:-/tmp}/avocet-gpu) holds the shards made here, the checkpoints and
#   each pilot's console output (NAME.out); OUT defaults to WORK/out; WORKERS: shard workers (5).
set -uo pipefail
# Paths given are relative to where it is called from; it runs in the repository root.
pilots=$(realpath "$1") || exit 2
minutes=${MINUTES:-5.8} work=$(realpath -m "${WORK:-${TMPDIR:-/tmp}/avocet-gpu}")
out=$(realpath -m "${OUT:-$work/out}")
shards=${SHARDS:+$(realpath "$SHARDS")} held_out=${HELD_OUT:+$(realpath "$HELD_OUT")}
cd "$(dirname "$0")/../../.." || exit 2
export OPENBLAS_NUM_THREADS=1 PYTHONUNBUFFERED=1
mkdir -p "$out" "$work" && nvidia-smi -L && python3 -c "import torch; print('torch', torch.__version__)"
started=$(date +%s)
held_option=()
if [ -z "$shards" ]; then
  shards=$work/shards
  made=$(tools/train/gpu/make_shards.sh "$shards" "${WORKERS:-5}") || { echo "shard conversion failed"; exit 1; }
  if [ -n "$(find .gpu/held-out -name '*.pk.xz' 2>/dev/null)" ]; then
    held_out=$work/held-out
    made_held=$(tools/train/gpu/make_shards.sh "$held_out" "${WORKERS:-5}" .gpu/held-out) ||
      { echo "held-out shard conversion failed"; exit 1; }
    echo "held-out shards: $made_held"
  fi
  echo "shards: $made, in $(( $(date +%s) - started )) s"
fi
[ -n "$held_out" ] && held_option=(--held-out-shards "$held_out")
limit=$(python3 -c "print(int($minutes * 60 + 150))")   # loading, validation and export
while read -r name options; do
  # shellcheck disable=SC2086  # the options are words by design
  timeout "$limit" python3 -m tools.train.train --shards "$shards" --device cuda --bf16 --threads 2 \
    --batch 1024 --steps 1000000 --minutes "$minutes" --eval-every 1000 \
    --validation-positions 2000 --keep-best --name "$name" --checkpoint "$work/$name.ckpt" \
    --out "$out/$name.safetensors" --log "$out/$name.jsonl" "${held_option[@]}" $options \
    > "$work/$name.out" 2>&1 &
done < <(grep -v -e '^\s*#' -e '^\s*$' "$pilots")
sleep 60 && nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv
wait
for log in "$work"/*.out; do
  echo "== $log"; tr '\r' '\n' < "$log" | grep -E '^(validation|final|--keep-best|train.py|Traceback)|Error' | tail -5
done
ls -l "$out"
