#!/usr/bin/env bash
# Regenerates the network parity fixtures in tests/data/ (needs python3-torch, Stockfish, and
# build/avocet, whose `features` subcommand supplies the featured net's inputs).
set -euo pipefail
cd "$(dirname "$0")/.."
export OPENBLAS_NUM_THREADS=1
py=/usr/bin/python3
d=tests/data
$py tools/reference_model.py --family house --d-model 32 --layers 2 --heads 4 --ffn-dim 64 \
  --bins 32 --seed 1 --out $d/tiny_house.safetensors \
  --fens $d/parity_fens.txt --golden $d/tiny_house.golden.json
$py tools/reference_model.py --family house --d-model 16 --layers 2 --heads 2 --ffn-dim 48 \
  --bins 16 --head-dim 24 --mirror --bf16 --seed 2 --out $d/tiny_house_mirror_bf16.safetensors \
  --fens $d/parity_fens.txt --golden $d/tiny_house_mirror_bf16.golden.json
$py tools/reference_model.py --family house --d-model 16 --layers 2 --heads 2 --ffn-dim 32 \
  --bins 16 --head-dim 24 --mirror --square-features all --move-features all --seed 4 \
  --out $d/tiny_house_features.safetensors \
  --fens $d/parity_fens.txt --golden $d/tiny_house_features.golden.json
$py tools/reference_model.py --family house --d-model 16 --layers 2 --heads 2 --ffn-dim 32 \
  --bins 16 --head-dim 24 --mirror --square-features all --move-features all \
  --attention-position bias --seed 5 --out $d/tiny_house_bias.safetensors \
  --fens $d/parity_fens.txt --golden $d/tiny_house_bias.golden.json
$py tools/reference_model.py --family house --d-model 16 --layers 2 --heads 2 --ffn-dim 32 \
  --bins 16 --head-dim 24 --mirror --square-features all --move-features all \
  --attention-position relative --seed 6 --out $d/tiny_house_relative.safetensors \
  --fens $d/parity_fens.txt --golden $d/tiny_house_relative.golden.json
$py tools/reference_model.py --family searchless --d-model 16 --layers 2 --heads 2 --ffn-dim 32 \
  --bins 32 --seed 3 --out $d/tiny_searchless.safetensors \
  --fens $d/parity_fens.txt --golden $d/tiny_searchless.golden.json
$py tools/chess_tokens.py actions > $d/actions.golden
$py tools/chess_tokens.py tokens $d/token_fens.txt > $d/tokens.golden
