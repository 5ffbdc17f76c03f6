"""Turns the landed labels (weights/labels/manifest.json), or a data manifest
(tools/data/manifest.py), into training and held-out shards.

The landed labels are labelled games (tools/data/labels.py). A game is held out when its CRC
falls below the percentage, so the same games stay held out however many files land after it,
and they are never trained on. A position is kept once: where the book's first plies repeat in
many games, the first game's label is kept, and a held-out position that a training game also
reaches is dropped from the held-out side. Shared annotation files (--external, the
sf-annotations) go to training whole; train.py's split by position hash validates them.

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

Standard library only. Examples:
    python3 -m tools.data.prepare --labels weights/labels/manifest.json \\
        --external ../shared/data/sf-annotations/sf15-d7-00{1,2,3}.tsv.xz -o DATA/staged
    python3 -m tools.data.prepare DATA/labels/manifest.json -o DATA/staged --avocet build/avocet
"""

import argparse
import hashlib
import json
import lzma
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from typing import Any

from tools.data import labels
from tools.data import split_games


def read_hashed(entry: dict[str, Any], root: str) -> str:
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


def stage(manifest: dict[str, Any], root: str, out: str,
          held_out_percent: int) -> dict[str, dict[str, int]]:
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


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def stage_labels(manifest_path: str, out: str,
                 held_out_percent: int) -> tuple[dict[str, Any], dict[str, dict[str, int]]]:
    """Writes OUT/tsv/{train,held-out}/RECIPE[-games].tsv from the landed labels; returns the
    counts per recipe, with the positions dropped as repeats."""
    with open(manifest_path) as file:
        manifest = json.load(file)
    root = os.path.dirname(os.path.abspath(manifest_path))
    train_keys, held_out, outputs, counts = set(), {}, {}, {}
    for entry in manifest["files"]:
        path = os.path.join(root, entry["path"])
        if file_sha256(path) != entry["sha256"]:
            raise ValueError(f"{path}: its hash is not the manifest's (the file was changed)")
        name = entry["recipe_name"]
        count = counts.setdefault(name, {"train": 0, "held-out": 0, "repeats": 0})
        train_path = os.path.join(out, "tsv", "train", name + ".tsv")
        if train_path not in outputs:
            os.makedirs(os.path.dirname(train_path), exist_ok=True)
            outputs[train_path] = open(train_path, "w")
        _, games = labels.games_of_file(path)
        for game in games:
            is_held_out = game.checksum % 100 < held_out_percent
            for line in labels.annotation_lines(game):
                key = labels.position_key(line)
                if is_held_out:
                    side = held_out.setdefault(name, {})
                    if key in side:
                        count["repeats"] += 1
                    else:
                        side[key] = line
                elif key in train_keys:
                    count["repeats"] += 1
                else:
                    train_keys.add(key)
                    outputs[train_path].write(line)
                    count["train"] += 1
    for file in outputs.values():
        file.close()
    for name, lines in held_out.items():
        path = os.path.join(out, "tsv", "held-out", name + "-games.tsv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as file:
            for key, line in lines.items():
                if key in train_keys:
                    counts[name]["repeats"] += 1
                    continue
                file.write(line)
                counts[name]["held-out"] += 1
    return manifest, counts


def stage_externals(paths: Iterable[str], out: str) -> list[dict[str, str]]:
    """Copies shared annotation files into OUT/tsv/train; returns their entries."""
    entries = []
    folder = os.path.join(out, "tsv", "train")
    os.makedirs(folder, exist_ok=True)
    for path in paths:
        name = os.path.basename(path).replace(".tsv.xz", "").replace(".tsv", "")
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rb") as source, open(os.path.join(folder, name + ".tsv"), "wb") as copy:
            shutil.copyfileobj(source, copy)
        entries.append({"path": os.path.basename(path), "sha256": file_sha256(path)})
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", nargs="?", help="manifest.json from tools/data/manifest.py")
    parser.add_argument("--labels",
                        help="the landed labels' manifest (weights/labels/manifest.json)")
    parser.add_argument("--external", nargs="*", default=[],
                        help="annotation files trained on whole (the shared sf-annotations)")
    parser.add_argument("-o", "--out", required=True, help="folder for the shards")
    parser.add_argument("--avocet", default="build/avocet", help="the avocet binary")
    parser.add_argument("--held-out-percent", type=int, default=10,
                        help="of each recipe's games, never trained on")
    args = parser.parse_args(argv)
    if not 0 <= args.held_out_percent <= 100:
        sys.exit(f"prepare.py: --held-out-percent {args.held_out_percent} is not in 0..100")
    if bool(args.manifest) == bool(args.labels):
        sys.exit("prepare.py: give a data manifest or --labels, one of the two")
    try:
        if os.path.exists(args.out):
            shutil.rmtree(args.out)
        if args.labels:
            manifest, counts = stage_labels(args.labels, args.out, args.held_out_percent)
            manifest = {"hash": manifest.get("hash"), "labels": manifest.get("hash"),
                        "labels_totals": manifest.get("totals"),
                        "external": stage_externals(args.external, args.out)}
        else:
            with open(args.manifest) as file:
                manifest = json.load(file)
            root = os.path.dirname(os.path.abspath(args.manifest))
            if os.path.basename(root) == "manifests":  # an archived copy: paths from its root
                root = os.path.dirname(root)
            counts = stage(manifest, root, args.out, args.held_out_percent)
            if args.external:
                manifest["external_staged"] = stage_externals(args.external, args.out)
    except (OSError, ValueError, KeyError, labels.LabelError) as error:
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
        repeats = f", {c['repeats']} repeated positions dropped" if "repeats" in c else ""
        print(f"  {name}: {c['train']} positions to train, {c['held-out']} held out{repeats}")
    for entry in manifest.get("external", []) + manifest.get("external_staged", []):
        print(f"  {entry['path']}: to train whole")
    return 0


if __name__ == "__main__":
    sys.exit(main())
