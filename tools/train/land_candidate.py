"""Lands a trained net as a candidate: weights/candidates/NAME.safetensors in bf16 (at most
3 MB, so that a net in training survives its machine), and its row in the candidates' lineage
(weights/candidates/lineage.jsonl): parent, labels by manifest hash, the files trained on
whole, steps, minutes and the last validation of each data set. tools/train/continue.sh runs it
after every round and commits both; the next round, on any machine, continues from the newest
candidate in the lineage.

Example:
    python3 -m tools.train.land_candidate runs/v46.safetensors --log runs/v46.jsonl \\
        --parent weights/avocet-house.safetensors --stage STAGE/manifest.json
"""

import argparse
import datetime
import json
import os
import sys
from typing import Any

import torch

from tools.train import safetensors_io

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CANDIDATES = os.path.join(ROOT, "weights", "candidates")
MAX_BYTES = 3 * 1024 * 1024


def last_validation(log_path: str | None) -> dict[str, Any]:
    """The last validation line of a train.py log, or {}."""
    last = {}
    if log_path and os.path.exists(log_path):
        with open(log_path) as file:
            for line in file:
                entry = json.loads(line)
                if "val_loss" in entry or entry.get("final"):
                    last = entry
    return last


def newest(lineage: str = os.path.join(CANDIDATES, "lineage.jsonl")) -> str | None:
    """The newest candidate still in the folder (its path), or None."""
    if not os.path.exists(lineage):
        return None
    found = None
    with open(lineage) as file:
        for line in file:
            path = os.path.join(CANDIDATES, json.loads(line)["name"] + ".safetensors")
            if os.path.exists(path):
                found = path
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("net", nargs="?", help="the exported net (fp32 safetensors)")
    parser.add_argument("--log", help="its train.py --log")
    parser.add_argument("--parent", help="the net it continued")
    parser.add_argument("--stage", help="the staged manifest.json it trained on")
    parser.add_argument("--newest", action="store_true",
                        help="print the newest candidate's path (nothing if none) and exit")
    args = parser.parse_args(argv)
    if args.newest:
        print(newest() or "")
        return 0
    if not args.net:
        parser.error("give the net to land")
    try:
        tensors, metadata = safetensors_io.load(args.net)
        name = metadata.get("name", os.path.splitext(os.path.basename(args.net))[0])
        name = name.removeprefix("avocet-house-")
        os.makedirs(CANDIDATES, exist_ok=True)
        path = os.path.join(CANDIDATES, name + ".safetensors")
        safetensors_io.save(path, tensors, metadata, torch.bfloat16)
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            os.remove(path)
            raise ValueError(f"{name} is {size} bytes in bf16, over the {MAX_BYTES} a candidate "
                             "may take: land a smaller net")
        stage = {}
        if args.stage:
            with open(args.stage) as file:
                stage = json.load(file)
        validation = last_validation(args.log)
        row = {"name": name, "parent": os.path.basename(args.parent or metadata.get("parent", "")),
               "labels": stage.get("labels"), "positions_landed":
                   (stage.get("labels_totals") or {}).get("positions"),
               "external": [e["path"] for e in stage.get("external", [])],
               "steps": int(metadata.get("steps", 0)), "batch": int(metadata.get("batch", 0)),
               "minutes": float(metadata.get("train_minutes", 0)),
               "landed": datetime.datetime.now(datetime.timezone.utc).isoformat(
                   timespec="seconds"),
               "bytes": size, "validation": validation}
        with open(os.path.join(CANDIDATES, "lineage.jsonl"), "a") as out:
            out.write(json.dumps(row, sort_keys=True) + "\n")
    except (OSError, ValueError, KeyError) as error:
        sys.exit(f"land_candidate.py: {error}")
    print(f"candidate {name}: {path}, {size} bytes (bf16), parent {row['parent']}, labels "
          f"{row['labels']}, {row['steps']} steps x {row['batch']}, {row['minutes']:.0f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
