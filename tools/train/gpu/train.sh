#!/usr/bin/env bash
# On the GPU machine: makes the shards, then trains every pilot of PILOTS side by side on the
# one GPU (each is bound by its Python data loop, so four together cost little), for MINUTES
# each, batch 1024, bf16, --keep-best, and puts each export and validation log in $OUT.
# PILOTS: one pilot per line, 'NAME train.py-options...'; '#' lines are comments.
# Usage: MINUTES=5.8 tools/gpu/train.sh tools/gpu/pilots.txt   (env WORKERS: shard workers)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
pilots=$(realpath "$1") minutes=${MINUTES:-5.8} shards=/tmp/avocet-shards out=${OUT:-/tmp/avocet-out}
held_out=/tmp/avocet-held-out
export OPENBLAS_NUM_THREADS=1 PYTHONUNBUFFERED=1
mkdir -p "$out" && nvidia-smi -L && python3 -c "import torch; print('torch', torch.__version__)"
started=$(date +%s)
made=$(tools/gpu/make_shards.sh "$shards" "${WORKERS:-5}") || { echo "shard conversion failed"; exit 1; }
made_held=0 held_option=()
if [ -n "$(find .gpu/held-out -name '*.pk.xz' 2>/dev/null)" ]; then
  made_held=$(tools/gpu/make_shards.sh "$held_out" "${WORKERS:-5}" .gpu/held-out) ||
    { echo "held-out shard conversion failed"; exit 1; }
  held_option=(--held-out-shards "$held_out")
fi
echo "shards: $made, held-out games $made_held, in $(( $(date +%s) - started )) s"
limit=$(python3 -c "print(int($minutes * 60 + 150))")   # loading, validation and export
cd tools || exit 2
while read -r name options; do
  # shellcheck disable=SC2086  # the options are words by design
  timeout "$limit" python3 train.py --shards "$shards" --device cuda --bf16 --threads 2 \
    --batch 1024 --steps 1000000 --minutes "$minutes" --eval-every 1000 \
    --validation-positions 2000 --keep-best --name "$name" --checkpoint "/tmp/$name.ckpt" \
    --out "$out/$name.safetensors" --log "$out/$name.jsonl" "${held_option[@]}" $options \
    > "/tmp/$name.out" 2>&1 &
done < <(grep -v -e '^\s*#' -e '^\s*$' "$pilots")
sleep 60 && nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv
wait
for log in /tmp/*.out; do
  echo "== $log"; tr '\r' '\n' < "$log" | grep -E '^(validation|final|--keep-best|train.py|Traceback)|Error' | tail -5
done
ls -l "$out"
