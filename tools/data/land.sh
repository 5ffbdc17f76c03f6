#!/usr/bin/env bash
# Lands the labeller's new games on the repository: packs what it wrote since the last landing
# into new files of weights/labels/, updates the manifest (tools/data/land.py) and commits
# them, and only them, as `data: land N positions of RECIPE`. Run it at least every hour of
# labelling and before you stop: a machine is not kept, and what is not committed is lost.
#
#   tools/data/land.sh DATA/labels
#
# Push (or submit) main afterwards as usual. With nothing new it says so and commits nothing.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
root="${1:?usage: tools/data/land.sh DATA_ROOT}"
python="/usr/bin/python3"
[ -x "$python" ] || python="python3"

status=0
output="$(PYTHONPATH="$repo${PYTHONPATH:+:$PYTHONPATH}" "$python" -m tools.data.land "$root" --labels "$repo/weights/labels")" || status=$?
echo "$output"
[ "$status" -eq 3 ] && exit 0  # nothing new to land
[ "$status" -eq 0 ] || exit "$status"

subject="$(tail -n 1 <<< "$output")"
body="$(head -n -1 <<< "$output")"
git -C "$repo" add weights/labels
git -C "$repo" commit -q -m "$subject" -m "$body" -- weights/labels
git -C "$repo" log -1 --format='landed as %h: %s'
