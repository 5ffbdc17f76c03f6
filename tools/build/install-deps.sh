#!/usr/bin/env bash
# Installs the Debian 12 packages Avocet needs to build, test and benchmark, when missing.
# Usage: tools/build/install-deps.sh [extra packages...]
set -euo pipefail

packages=(g++ cmake make libeigen3-dev libfmt-dev libcxxopts-dev libgtest-dev nlohmann-json3-dev
          clang-format clang libclang-rt-14-dev flake8
          stockfish "$@")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
