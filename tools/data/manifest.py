"""Writes the data manifest: every labelled file in a data folder with its recipe, its
positions, what labelling it cost and its hash.

The labeller (tools/data/labeller.sh) keeps one folder per recipe under ROOT, each with the
recipe.json that `avocet datagen` writes (the recipe, and per annotation file the CPU
seconds Stockfish spent on it). This script reads those folders and the annotation files
themselves into ROOT/manifest.json, and keeps a copy named by the manifest's hash in
ROOT/manifests/, so that a net's lineage can name its data by that hash however far the
files grow afterwards.

Files still being written are read up to their last whole line: `bytes` and `sha256` cover
exactly those lines, and tools/data/prepare.py reads no further. Files from elsewhere (the
shared sf-annotations, say) are listed with --external, with no recipe of their own.

Standard library only. Example:
    python3 -m tools.data.manifest DATA/labels \\
        --external ../shared/data/sf-annotations/sf15-d7-00{1,2,3,4}.tsv.xz
"""

import argparse
import datetime
import glob
import hashlib
import json
import lzma
import os
import sys
from typing import Any


def whole_lines(path: str) -> bytes:
    """The bytes of `path` up to its last newline (all of it for .xz files, which are
    written whole)."""
    if path.endswith(".xz"):
        with lzma.open(path, "rb") as file:
            return file.read()
    with open(path, "rb") as file:
        data = file.read()
    return data[:data.rfind(b"\n") + 1]


def count_labels(data: bytes) -> tuple[int, int, int]:
    """Positions, scored moves and unscored moves (`move:?`) of annotation lines; a line's
    `*:?` (every legal move it does not list, unscored) is counted as neither."""
    positions = scored = unscored = 0
    for line in data.splitlines():
        if not line.strip():
            continue
        positions += 1
        moves = line.split(b"\t", 1)[1].split() if b"\t" in line else []
        rest = moves.count(b"*:?")
        missing = sum(1 for m in moves if m.endswith(b":?")) - rest
        unscored += missing
        scored += len(moves) - missing - rest
    return positions, scored, unscored


def describe(path: str, root: str) -> dict[str, Any]:
    data = whole_lines(path)
    positions, scored, unscored = count_labels(data)
    return {"path": os.path.relpath(path, root), "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(), "positions": positions,
            "scored_moves": scored, "unscored_moves": unscored}


def recipe_files(root: str) -> list[dict[str, Any]]:
    """One entry per annotation file of every recipe folder under `root`."""
    entries = []
    for record_path in sorted(glob.glob(os.path.join(root, "*", "recipe.json"))):
        folder = os.path.dirname(record_path)
        with open(record_path) as file:
            record = json.load(file)
        for tsv in sorted(glob.glob(os.path.join(folder, "*.tsv"))):
            entry = describe(tsv, root)
            cost = record.get("files", {}).get(os.path.basename(tsv), {})
            seconds = cost.get("engine_cpu_seconds")
            entry.update({"recipe_name": os.path.basename(folder), "recipe": record["recipe"],
                          "seed": cost.get("seed"), "engine_cpu_seconds": seconds,
                          "positions_per_core_hour":
                              round(entry["positions"] * 3600 / seconds) if seconds else None})
            entries.append(entry)
    return entries


def manifest_hash(files: list[dict[str, Any]]) -> str:
    """The hash that names a manifest: of its files' paths, lengths and hashes."""
    key = json.dumps([[f["path"], f["bytes"], f["sha256"]] for f in files], sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def recipe_summary(files: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per recipe folder: positions, Stockfish CPU hours and positions per core-hour."""
    summary = {}
    for f in files:
        if "recipe_name" not in f:
            continue
        s = summary.setdefault(f["recipe_name"], {"recipe": f["recipe"], "positions": 0,
                                                  "engine_cpu_hours": 0.0, "uncosted_files": 0})
        s["positions"] += f["positions"]
        if f["engine_cpu_seconds"]:
            s["engine_cpu_hours"] += f["engine_cpu_seconds"] / 3600
        else:
            s["uncosted_files"] += 1
    for s in summary.values():
        s["engine_cpu_hours"] = round(s["engine_cpu_hours"], 3)
        costed = s["engine_cpu_hours"] > 0 and s["uncosted_files"] == 0
        s["positions_per_core_hour"] = round(s["positions"] / s["engine_cpu_hours"]) if costed \
            else None
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root",
                        help="the data folder: one folder per recipe, each with recipe.json")
    parser.add_argument("--external", nargs="*", default=[],
                        help="annotation files made elsewhere (.tsv or .tsv.xz), listed too")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.root):
        sys.exit(f"manifest.py: '{args.root}' is not a folder")
    files = recipe_files(args.root)
    for path in args.external:
        if not os.path.isfile(path):
            sys.exit(f"manifest.py: --external '{path}' is not a file")
        entry = describe(path, args.root)
        entry["path"] = os.path.abspath(path)
        entry["external"] = True
        files.append(entry)
    if not files:
        sys.exit(f"manifest.py: no recipe folders (*/recipe.json) in '{args.root}' and no "
                 "--external files")
    manifest = {"hash": manifest_hash(files),
                "written": datetime.datetime.now(datetime.timezone.utc).isoformat(
                    timespec="seconds"),
                "recipes": recipe_summary(files), "files": files}
    text = json.dumps(manifest, indent=1) + "\n"
    os.makedirs(os.path.join(args.root, "manifests"), exist_ok=True)
    for path in (os.path.join(args.root, "manifests", manifest["hash"] + ".json"),
                 os.path.join(args.root, "manifest.json")):
        with open(path + ".tmp", "w") as out:
            out.write(text)
        os.replace(path + ".tmp", path)
    total = sum(f["positions"] for f in files)
    print(f"manifest {manifest['hash']}: {len(files)} files, {total} positions")
    for name, s in manifest["recipes"].items():
        rate = s["positions_per_core_hour"]
        print(f"  {name}: {s['positions']} positions, {s['engine_cpu_hours']:.2f} Stockfish "
              f"CPU hours, {rate if rate else 'n/a'} positions per core-hour")
    return 0


if __name__ == "__main__":
    sys.exit(main())
