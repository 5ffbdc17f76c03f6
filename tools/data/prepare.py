#!/usr/bin/env python3
"""Turns a data manifest (tools/data/manifest.py) into training and held-out shards.

For each file of the manifest it reads exactly the bytes the manifest hashed, and refuses a
file whose hash no longer matches (a file rewritten rather than grown). Labeller files hold
whole games in order: each recipe's games are split by a hash of the game's first position
(tools/data/split_games.py), so the same games stay held out however far the files grow, and
are never trained on. A recipe folder named judge-* (a set labelled the expensive way, to
compare recipes by) is held out whole. Files listed with --external (shuffled positions, no
games) go to training whole; train.py's split by position hash validates them.

One data set per recipe folder, named after it, so train.py reports each recipe on its own;
a recipe's held-out games are the data set NAME-games.
Writes OUT/train/*.shard, OUT/held-out/*.shard and OUT/manifest.json (the manifest used);
then train with `train.py --shards OUT/train --held-out-shards OUT/held-out --manifest
OUT/manifest.json`.

Standard library only. Example:
    tools/data/prepare.py DATA/labels/manifest.json -o DATA/staged \\
        --avocet build/avocet
"""

import argparse
import hashlib
import json
import lzma
import os
import shutil
import subprocess
import sys

import split_games


def read_hashed(entry, root):
    """The manifest's bytes of one file, checked against its hash."""
    path = entry["path"] if os.path.isabs(entry["path"]) else os.path.join(root, entry["path"])
    if path.endswith(".xz"):
        with lzma.open(path, "rb") as file:
            data = file.read(entry["bytes"])
    else:
        with open(path, "rb") as file:
            data = file.read(entry["bytes"])
    if len(data) != entry["bytes"] or hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise ValueError(f"{path}: its first {entry['bytes']} bytes no longer match the "
                         "manifest's hash (the file was rewritten, not grown)")
    return data.decode()


def stage(manifest, root, out, held_out_percent):
    """Writes OUT/tsv/{train,held-out}/NAME.tsv; returns the counts per data set."""
    counts = {}
    outputs = {}
    for entry in manifest["files"]:
        text = read_hashed(entry, root)
        if entry.get("external"):
            name = os.path.basename(entry["path"]).replace(".tsv.xz", "").replace(".tsv", "")
            sides = {"train": text.splitlines(keepends=True), "held-out": []}
        elif entry["recipe_name"].startswith("judge-"):
            name = entry["recipe_name"]
            sides = {"train": [], "held-out": text.splitlines(keepends=True)}
        else:
            name = entry["recipe_name"]
            sides = {"train": [], "held-out": []}
            for game in split_games.games(text.splitlines(keepends=True)):
                sides["held-out" if split_games.is_held_out(game, held_out_percent)
                      else "train"].extend(game)
        for side, lines in sides.items():
            if not lines:
                continue
            # A recipe split by games has a data set on each side; train.py tells data sets
            # apart by file name, so the held-out side's is NAME-games.
            split = not entry.get("external") and not name.startswith("judge-")
            file_name = name + "-games" if split and side == "held-out" else name
            path = os.path.join(out, "tsv", side, file_name + ".tsv")
            if path not in outputs:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                outputs[path] = open(path, "w")
            outputs[path].writelines(lines)
            counts.setdefault(name, {"train": 0, "held-out": 0})[side] += len(lines)
    for file in outputs.values():
        file.close()
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", help="manifest.json from tools/data/manifest.py")
    parser.add_argument("-o", "--out", required=True, help="folder for the shards")
    parser.add_argument("--avocet", default="build/avocet", help="the avocet binary")
    parser.add_argument("--held-out-percent", type=int, default=10,
                        help="of each recipe's games, never trained on")
    args = parser.parse_args(argv)
    if not 0 <= args.held_out_percent <= 100:
        sys.exit(f"prepare.py: --held-out-percent {args.held_out_percent} is not in 0..100")
    try:
        with open(args.manifest) as file:
            manifest = json.load(file)
        root = os.path.dirname(os.path.abspath(args.manifest))
        if os.path.basename(root) == "manifests":  # an archived copy: paths are from its root
            root = os.path.dirname(root)
        if os.path.exists(args.out):
            shutil.rmtree(args.out)
        counts = stage(manifest, root, args.out, args.held_out_percent)
    except (OSError, ValueError, KeyError) as error:
        sys.exit(f"prepare.py: {error}")
    for side in ("train", "held-out"):
        folder = os.path.join(args.out, "tsv", side)
        if not os.path.isdir(folder):
            continue
        tsvs = sorted(os.path.join(folder, f) for f in os.listdir(folder))
        result = subprocess.run([args.avocet, "datagen", "--from-tsv", *tsvs, "-o",
                                 os.path.join(args.out, side)], stdout=subprocess.DEVNULL)
        if result.returncode != 0:
            sys.exit(f"prepare.py: '{args.avocet} datagen --from-tsv' failed on {folder}")
    shutil.rmtree(os.path.join(args.out, "tsv"))
    with open(os.path.join(args.out, "manifest.json"), "w") as out:
        json.dump(manifest, out, indent=1)
    print(f"manifest {manifest['hash']} staged in {args.out}:")
    for name, c in counts.items():
        print(f"  {name}: {c['train']} positions to train, {c['held-out']} held out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
