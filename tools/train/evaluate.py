"""Action accuracy and Kendall tau of an exported network on held-out labelled positions.

Held-out = the validation split by position hash that train.py uses (same
--validation-percent), reported per data set (shard name without its counter), or every
position of the given shards with --all.

With --against BASELINE, the baseline net is scored on the same positions too, and each
data set gets the paired difference of regret (this net's minus the baseline's, position by
position) with its standard error: the comparison the recipe experiment needs, whose nets
differ by less than either mean's own noise.

Example:
    /usr/bin/python3 -m tools.train.evaluate --weights weights/avocet-house.safetensors \\
        --shards /data/shards --positions 10000
"""

import argparse
import sys

import numpy as np
import torch

from tools.train import reference_model
from tools.train import shards as shard_io
from tools.train.batches import Batches
from tools.train.metrics import paired_difference, validate, validate_sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", required=True)
    parser.add_argument("--shards", nargs="+", required=True)
    parser.add_argument("--validation-percent", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="every position, not the split")
    parser.add_argument("--positions", type=int, default=10000, help="per data set")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--against", metavar="BASELINE",
                        help="another house net: the paired regret difference per data set")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    model = reference_model.load(args.weights)
    baseline = reference_model.load(args.against) if args.against else None
    if model.family != "house" or (baseline is not None and baseline.family != "house"):
        sys.exit("evaluate.py scores house networks")
    data = shard_io.load_shards(args.shards)
    chosen = (np.ones(len(data), bool) if args.all else
              shard_io.validation_mask(data.tokens, args.validation_percent))
    sets = {name: np.flatnonzero(chosen & (data.sources == i))[: args.positions]
            for i, name in enumerate(data.source_names)}
    batches = Batches(data, model.mirror, torch.device("cpu"))
    print(f"{args.weights}:", end="")
    validate_sets(model, batches, sets, model.config["bins"], torch.device("cpu"))
    if baseline is None:
        return 0
    baseline_batches = Batches(data, baseline.mirror, torch.device("cpu"))
    for name, rows in sets.items():
        if len(rows) == 0:
            continue
        ours, theirs = [], []
        validate(model, batches, rows, model.config["bins"], torch.device("cpu"), ours)
        validate(baseline, baseline_batches, rows, baseline.config["bins"], torch.device("cpu"),
                 theirs)
        mean, error, n = paired_difference(ours, theirs)
        print(f"regret {name}, this net minus {args.against}: {mean:+.4f} +- {1.96 * error:.4f} "
              f"(95%, paired over {n} fully scored positions)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (ValueError, OSError) as error:
        # Bad input (a missing net or shard, a shard cut short): one line.
        print(f"evaluate.py: {error}", file=sys.stderr)
        sys.exit(2)
