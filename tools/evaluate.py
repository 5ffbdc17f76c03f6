#!/usr/bin/env python3
"""Action accuracy and Kendall tau of an exported network on held-out labelled positions.

Held-out = the validation split by position hash that train.py uses (same --validation-percent),
or every position of the given shards with --all.

Example:
    /usr/bin/python3 tools/evaluate.py --weights weights/avocet-house.safetensors \\
        --shards /data/shards --positions 10000
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import sys
from types import SimpleNamespace

import numpy as np
import torch

import reference_model
import shards as shard_io
from train import Batches, validate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", required=True)
    parser.add_argument("--shards", nargs="+", required=True)
    parser.add_argument("--validation-percent", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="every position, not the split")
    parser.add_argument("--positions", type=int, default=10000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    model = reference_model.load(args.weights)
    if model.family != "house":
        sys.exit("evaluate.py scores house networks")
    data = shard_io.load_shards(args.shards)
    rows = (np.arange(len(data)) if args.all else
            np.flatnonzero(shard_io.validation_mask(data.tokens, args.validation_percent)))
    rows = rows[: args.positions]
    batches = Batches(data, model.mirror, torch.device("cpu"))
    loss, accuracy, tau = validate(model, batches, rows, SimpleNamespace(bins=model.config["bins"]),
                                   torch.device("cpu"))
    print(f"{args.weights}: {len(rows)} positions, loss {loss:.4f}, "
          f"action accuracy {accuracy:.4f}, Kendall tau {tau:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
