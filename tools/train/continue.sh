#!/usr/bin/env bash
# The training line that grows with the data, in one command: stages every landed label
# (weights/labels/) with the shared sf-annotations, continues the newest candidate
# (weights/candidates/, else the default net) for MINUTES at nice 10 on one core, and lands the
# result as a candidate (bf16, with its lineage row), committed, so the next round on any
# machine continues from it. ROUNDS runs that many rounds, restaging between them when labels
# have landed meanwhile.
#
#   tools/train/continue.sh [MINUTES]        # default 60
#
# Environment: ROUNDS (1), PARENT (a net to continue instead), STAGE (where shards are staged,
# default ${TMPDIR:-/tmp}/avocet-stage), RUNS (exports and logs, default
# ${TMPDIR:-/tmp}/avocet-runs), ANNOTATIONS (default ../shared/data/sf-annotations; missing is
# fine), LAND (1: commit each candidate; 0: leave it uncommitted), TRAIN_ARGS (more train.py
# options, e.g. "--data-weight noob-d11-pv=4").
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
minutes="${1:-60}"
rounds="${ROUNDS:-1}"
stage="${STAGE:-${TMPDIR:-/tmp}/avocet-stage}"
runs="${RUNS:-${TMPDIR:-/tmp}/avocet-runs}"
annotations="${ANNOTATIONS:-$repo/../shared/data/sf-annotations}"
python=/usr/bin/python3
export OPENBLAS_NUM_THREADS=1
mkdir -p "$runs"

[ -x build/avocet ] || nice -n 10 tools/build/build.sh

labels_hash() { "$python" -c 'import json,sys; print(json.load(open(sys.argv[1])).get("hash"))' "$1"; }

for round in $(seq 1 "$rounds"); do
  # Staged again only when new labels have landed since.
  if [ ! -f "$stage/manifest.json" ] ||
     [ "$(labels_hash "$stage/manifest.json")" != "$(labels_hash weights/labels/manifest.json)" ]; then
    externals=()
    for n in 001 002 003 004; do
      [ -f "$annotations/sf15-d7-$n.tsv.xz" ] && externals+=("$annotations/sf15-d7-$n.tsv.xz")
    done
    nice -n 10 "$python" -m tools.data.prepare --labels weights/labels/manifest.json \
      --external "${externals[@]}" -o "$stage" --avocet build/avocet 2> "$runs/prepare.log"
  fi
  parent="${PARENT:-$("$python" -m tools.train.land_candidate --newest)}"
  parent="${parent:-weights/avocet-house.safetensors}"
  name="line-$(date -u +%Y%m%d-%H%M)"
  bf16=()
  grep -q avx512_bf16 /proc/cpuinfo && bf16=(--bf16)
  echo "round $round of $rounds: $name from $(basename "$parent"), $minutes min, labels $(labels_hash "$stage/manifest.json")"
  # No policy term on the single-PV labels: with it (--partial-policy-weight 1) v45 continued
  # fell from 53.0% to 50.1% of lichess-10k; without it, 52.8% with v45's regret
  # (weights/results/2026-12-03-levels-and-analysis.md).
  # shellcheck disable=SC2086 # TRAIN_ARGS are words
  nice -n 10 "$python" -m tools.train.train --shards "$stage/train" \
    --held-out-shards "$stage/held-out" --manifest "$stage/manifest.json" \
    --init "$parent" --minutes "$minutes" --steps 1000000 --threads 1 "${bf16[@]}" \
    --batch 256 --lr 1e-4 --warmup 100 --partial-policy-weight 0 --eval-every 500 \
    --name "avocet-house-$name" --out "$runs/$name.safetensors" --log "$runs/$name.jsonl" \
    ${TRAIN_ARGS:-}
  "$python" -m tools.train.land_candidate "$runs/$name.safetensors" --log "$runs/$name.jsonl" \
    --parent "$parent" --stage "$stage/manifest.json"
  if [ "${LAND:-1}" = 1 ]; then
    git add weights/candidates
    git commit -q -m "weights: candidate $name, continued from $(basename "$parent" .safetensors)" \
      -m "$(tail -n 1 weights/candidates/lineage.jsonl)" -- weights/candidates
    git log -1 --format='landed as %h: %s'
  fi
  PARENT=""  # the next round continues from this one
done
