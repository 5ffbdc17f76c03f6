"""Packs what the labeller wrote since the last landing into new files of weights/labels/ and
updates its manifest; tools/data/land.sh runs it and commits the result.

The labeller (tools/data/labeller.sh) appends whole games to DATA/RECIPE/sf-seedS-workerW.games.
The manifest (weights/labels/manifest.json) lists every landed file with the byte range of each
labeller file it took, so a landing takes exactly the whole games written after the last one's
range, and a game still being written waits for the next landing. Seeds are drawn per folder
(labeller.sh), so two machines' files never share a name.

One file per recipe and landing, RECIPE-YYYYMMDD-HHMMSS.games.xz, never rewritten: the same
format as the labeller's (tools/data/labels.py), its header naming the recipe and its sources.
The manifest's hash names its list of files; a net's lineage names its labels by it, and the
manifest's `landings` list which hash covered which first files, so any hash in a lineage can be
traced to the files it meant.

Standard library only. Prints one line per landed file and, last, the commit subject
(`data: land N positions of RECIPE`), or `nothing to land` and exits 3. Example:
    python3 -m tools.data.land DATA/labels --labels weights/labels
"""

import argparse
import datetime
import glob
import hashlib
import json
import os
import sys
from typing import Any

from tools.data import labels

MANIFEST_FORMAT = "avocet labels manifest"
NOTHING_TO_LAND = 3


def load_manifest(path: str) -> dict[str, Any]:
    if not os.path.exists(path):
        return {"format": MANIFEST_FORMAT, "version": 1, "files": [], "landings": []}
    with open(path) as file:
        manifest = json.load(file)
    if manifest.get("format") != MANIFEST_FORMAT:
        raise ValueError(f"{path} is not a labels manifest (format {manifest.get('format')!r})")
    return manifest


def manifest_hash(files: list[dict[str, Any]]) -> str:
    """The hash that names a list of landed files: of each one's path and content hash."""
    text = "".join(f"{f['path']} {f['sha256']}\n" for f in files)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def totals(files: list[dict[str, Any]]) -> dict[str, int | float | None]:
    positions = sum(f["positions"] for f in files)
    size = sum(f["bytes"] for f in files)
    return {"files": len(files), "games": sum(f["games"] for f in files),
            "positions": positions, "bytes": size,
            "bytes_per_position": round(size / positions, 3) if positions else None}


def landed_offsets(manifest: dict[str, Any]) -> dict[str, int]:
    """Per labeller file (by name), the offset up to which its games have landed."""
    offsets = {}
    for entry in manifest["files"]:
        for source in entry.get("sources", []):
            offsets[source["file"]] = max(offsets.get(source["file"], 0), source["to"])
    return offsets


def new_games(folder: str,
              offsets: dict[str, int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The recipe of `folder` and, per labeller file, the whole games after its landed
    offset: [(name, from, to, [Game])]."""
    with open(os.path.join(folder, "recipe.json")) as file:
        record = json.load(file)
    found = []
    for path in sorted(glob.glob(os.path.join(folder, "*.games"))):
        name = os.path.basename(path)
        with open(path, "rb") as stream:
            header, header_bytes = labels.read_header(stream, path)
            if header.get("recipe") != record.get("recipe"):
                raise ValueError(f"{path}: its recipe is not its folder's (recipe.json)")
            start = max(offsets.get(name, 0), header_bytes)
            games, end = [], start
            for game, offset in labels.read_games(stream, path, start, allow_cut_short=True):
                games.append(game)
                end = offset
        seconds = record.get("files", {}).get(name, {}).get("engine_cpu_seconds")
        if games:
            found.append({"file": name, "seed": header.get("seed"), "from": start, "to": end,
                          "engine_cpu_seconds_to": seconds, "games": games})
    return record["recipe"], found


def land(data_root: str, labels_dir: str, now: datetime.datetime | None = None) -> list[str]:
    """Lands every recipe folder's new games; returns the lines to print (the last one the
    commit subject), or [] when there is nothing new."""
    manifest_path = os.path.join(labels_dir, "manifest.json")
    manifest = load_manifest(manifest_path)
    offsets = landed_offsets(manifest)
    now = now or datetime.datetime.now(datetime.timezone.utc)
    printed, subjects = [], []
    for recipe_file in sorted(glob.glob(os.path.join(data_root, "*", "recipe.json"))):
        folder = os.path.dirname(recipe_file)
        recipe_name = os.path.basename(folder)
        recipe, found = new_games(folder, offsets)
        if not found:
            continue
        # Landed files are never rewritten: a second landing within the second is named apart.
        name = f"{recipe_name}-{now:%Y%m%d-%H%M%S}.games.xz"
        for n in range(2, 100):
            if not os.path.exists(os.path.join(labels_dir, name)):
                break
            name = f"{recipe_name}-{now:%Y%m%d-%H%M%S}-{n}.games.xz"
        path = os.path.join(labels_dir, name)
        sources = [{k: v for k, v in s.items() if k != "games"} for s in found]
        games = [g for s in found for g in s["games"]]
        header = {"format": "avocet labelled games", "recipe_name": recipe_name,
                  "recipe": recipe, "sources": sources}
        os.makedirs(labels_dir, exist_ok=True)
        size = labels.write_file(path, header, (g.raw for g in games))
        with open(path, "rb") as file:
            sha256 = hashlib.sha256(file.read()).hexdigest()
        positions = sum(len(g.plies) for g in games)
        manifest["files"].append({
            "path": name, "recipe_name": recipe_name, "recipe": recipe,
            "games": len(games), "positions": positions, "bytes": size, "sha256": sha256,
            "landed": now.isoformat(timespec="seconds"), "sources": sources})
        printed.append(f"{name}: {len(games)} games, {positions} positions, {size} bytes "
                       f"({size / positions:.2f} bytes a position)")
        subjects.append((positions, recipe_name))
    if not subjects:
        return []
    manifest["totals"] = totals(manifest["files"])
    manifest["hash"] = manifest_hash(manifest["files"])
    manifest["landings"].append({"hash": manifest["hash"], "files": len(manifest["files"]),
                                 "positions": manifest["totals"]["positions"]})
    temporary = manifest_path + ".tmp"
    with open(temporary, "w") as out:
        json.dump(manifest, out, indent=1)
        out.write("\n")
    os.replace(temporary, manifest_path)
    t = manifest["totals"]
    printed.append(f"manifest {manifest['hash']}: {t['files']} files, {t['games']} games, "
                   f"{t['positions']} positions, {t['bytes']} bytes "
                   f"({t['bytes_per_position']} bytes a position)")
    printed.append("data: land " + ", ".join(f"{n} positions of {r}" for n, r in subjects))
    return printed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_root", help="the labeller's folder (one folder per recipe)")
    parser.add_argument("--labels", required=True, help="the repository's weights/labels")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.data_root):
        sys.exit(f"land.py: '{args.data_root}' is not a folder")
    try:
        lines = land(args.data_root, args.labels)
    except (OSError, ValueError, KeyError) as error:
        sys.exit(f"land.py: {error}")
    if not lines:
        print(f"nothing to land in {args.data_root}")
        return NOTHING_TO_LAND
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
