#!/usr/bin/env bash
# The labeller that never stops: runs the recipes of tools/data/label-plan.txt in order with
# `avocet datagen` at nice 19 on one core, each into DATA_ROOT/NAME until its budget of
# Stockfish CPU hours is spent (datagen --seconds; the cost is kept in NAME/recipe.json, so
# a killed run resumes where it stopped, budget included). Start it before anything else in a
# session, and land what it writes at least every hour (tools/data/land.sh):
#
#   nohup tools/data/labeller.sh /path/to/data/labels > /path/to/data/labeller.log 2>&1 &
#
# It runs a copy of build/avocet kept in DATA_ROOT/bin, one per commit (built when it has none),
# so that rebuilding the repository does not disturb it. AVOCET_BOOKS names the books
# folder (default: ../shared/data/books beside the repository); LABEL_PLAN another plan;
# AVOCET_STOCKFISH another Stockfish 15.1 (tools/data/build_stockfish.sh builds one for this
# CPU that gives the same labels faster; default /usr/games/stockfish); LABEL_WORKERS the
# Stockfish processes (default 1: one core; 2 when no training needs the other).
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
root="${1:?usage: tools/data/labeller.sh DATA_ROOT}"
books="${AVOCET_BOOKS:-$repo/../shared/data/books}"
plan="${LABEL_PLAN:-$repo/tools/data/label-plan.txt}"
mkdir -p "$root/bin"
root="$(cd "$root" && pwd)"

commit="$(git -C "$repo" rev-parse --short HEAD)"
avocet="$root/bin/avocet-$commit"
# Built from this checkout first: a build/avocet left from an older commit must not be kept
# under this commit's name.
[ -x "$avocet" ] || { nice -n 19 "$repo/tools/build/build.sh" && cp "$repo/build/avocet" "$avocet"; }

while read -r name hours options; do
  case "$name" in "" | "#"*) continue ;; esac
  seconds=$(awk -v h="$hours" 'BEGIN { printf "%d", h * 3600 }')
  echo "$(date -u +%FT%TZ) $name: ${hours} core-hours, $options"
  # Each folder draws its own seed once, kept in NAME/seed: the games of two machines (or of
  # two sessions on new machines) never repeat each other, and a resumed run keeps its seed.
  mkdir -p "$root/$name"
  [ -s "$root/$name/seed" ] || od -An -N4 -tu4 /dev/urandom | tr -d ' ' > "$root/$name/seed"
  seed="$(cat "$root/$name/seed")"
  # A failure (a Stockfish crash, a full disk) is logged and the recipe tried again: the
  # labeller must not stop, and datagen resumes from the last whole record.
  # shellcheck disable=SC2086 # the options are words
  until nice -n 19 "$avocet" datagen -o "$root/$name" --seconds "$seconds" \
    --stockfish "${AVOCET_STOCKFISH:-/usr/games/stockfish}" --threads "${LABEL_WORKERS:-1}" \
    --positions 1000000000 --seed "$seed" ${options//\{books\}/$books}; do
    echo "$(date -u +%FT%TZ) $name: datagen failed; again in 60 s"
    sleep 60
  done
done < "$plan"
