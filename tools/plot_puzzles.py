#!/usr/bin/env python3
"""Draws puzzle accuracy by rating for one or more `avocet puzzles --json` results (JSON
Lines: one object per puzzle with id, rating, solved, label, ...).

Example:
    /usr/bin/python3 tools/plot_puzzles.py argmax.json search-400.json --out puzzles.png
"""

import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="JSON Lines files from avocet puzzles --json")
    parser.add_argument("--out", default="puzzles.png")
    parser.add_argument("--bucket", type=int, default=200, help="rating bucket width")
    args = parser.parse_args()

    fig, ax = plt.subplots(figsize=(8, 5))
    for path in args.results:
        rows = [json.loads(line) for line in open(path) if line.strip()]
        if not rows:
            print(f"{path}: no puzzles, skipped", file=sys.stderr)
            continue
        buckets = {}
        for p in rows:
            b = p["rating"] // args.bucket * args.bucket
            solved, total = buckets.get(b, (0, 0))
            buckets[b] = (solved + p["solved"], total + 1)
        xs = sorted(b for b, (_, total) in buckets.items() if total >= 10)
        ys = [100 * buckets[b][0] / buckets[b][1] for b in xs]
        label = rows[0].get("label") or os.path.splitext(os.path.basename(path))[0]
        overall = 100 * sum(bool(p["solved"]) for p in rows) / len(rows)
        ax.plot([x + args.bucket / 2 for x in xs], ys, marker="o", label=f"{label} ({overall:.1f}%)")
    ax.set_xlabel("puzzle rating")
    ax.set_ylabel("solved (%)")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("Avocet puzzle accuracy by rating")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
