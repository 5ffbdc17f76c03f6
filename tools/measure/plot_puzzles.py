"""Draws puzzle accuracy by rating bucket for one or more `avocet puzzles --json` results.

Each file is JSON Lines: one object per puzzle (id, rating, rating_bucket, themes, solved,
settings, label, ...) and, for a run that finished, a summary object ({"summary": ...}) whose
`by_rating` names the CLI's rating buckets. The chart uses those buckets (<1000, 1000-1499,
1500-1999, 2000-2499, >=2500), draws a 95% Wilson interval around each point and writes the
number of puzzles beside it. A bucket with fewer than --min-count puzzles is dropped from the
chart, with a warning on stderr naming it (a point over 3 puzzles says nothing).

Examples:
    /usr/bin/python3 -m tools.measure.plot_puzzles argmax.jsonl search-400.jsonl --out puzzles.png
    /usr/bin/python3 -m tools.measure.plot_puzzles argmax.jsonl --theme fork --print

--print writes the numbers instead of a chart and needs no matplotlib.
"""

import argparse
import json
import math
import os
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

# The CLI's buckets (suites::kRatingBucketNames and kRatingBucketMin), for files that hold
# no summary line: a run that was stopped, or one written before summaries existed.
DEFAULT_BUCKETS = [("<1000", 0), ("1000-1499", 1000), ("1500-1999", 1500),
                   ("2000-2499", 2000), (">=2500", 2500)]
LEGEND_WIDTH = 40  # characters per legend line; longer labels wrap


def warn(message: str) -> None:
    print(f"plot_puzzles.py: {message}", file=sys.stderr)


def wilson_interval(solved: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of solved/total, as fractions (sound near 0% and 100%)."""
    if total == 0:
        return 0.0, 0.0
    p = solved / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def bucket_of(rating: float, buckets: Sequence[tuple[str, float]]) -> str:
    name = buckets[0][0]
    for bucket, lowest in buckets:
        if rating >= lowest:
            name = bucket
    return name


def read_results(path: str) -> tuple[list[dict[str, Any]], list[tuple[str, float]], str]:
    """The puzzle rows of a results file, its label and its rating buckets."""
    rows, buckets, label = [], None, None
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                warn(f"{path}:{number}: not JSON (a write cut short?), skipped")
                continue
            if "summary" in row:
                buckets = [(b["bucket"], b["min_rating"]) for b in row["summary"]["by_rating"]]
                label = label or row.get("label")
            elif "id" in row:
                rows.append(row)
                label = label or row.get("label")
    return rows, buckets or DEFAULT_BUCKETS, label or os.path.splitext(os.path.basename(path))[0]


def bucket_counts(rows: Iterable[dict[str, Any]],
                  buckets: Sequence[tuple[str, float]]) -> list[tuple[str, int, int]]:
    """(bucket, solved, total) for every bucket, in the CLI's order."""
    counts = {name: [0, 0] for name, _ in buckets}
    for row in rows:
        name = row.get("rating_bucket") or bucket_of(row["rating"], buckets)
        counts.setdefault(name, [0, 0])
        counts[name][0] += bool(row["solved"])
        counts[name][1] += 1
    return [(name, *counts[name]) for name, _ in buckets]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="JSON Lines files from avocet puzzles --json")
    parser.add_argument("--out", default="puzzles.png")
    parser.add_argument("--min-count", type=int, default=10,
                        help="drop (and warn about) buckets with fewer puzzles than this")
    parser.add_argument("--theme", help="only puzzles with this Lichess theme (e.g. fork)")
    parser.add_argument("--title", default="Avocet puzzle accuracy by rating")
    parser.add_argument("--print", action="store_true",
                        help="print the numbers instead of drawing (no matplotlib needed)")
    args = parser.parse_args()

    series = []
    for path in args.results:
        rows, buckets, label = read_results(path)
        if args.theme:
            rows = [r for r in rows if args.theme in r.get("themes", [])]
        if not rows:
            warn(f"{path}: no puzzles{' with theme ' + args.theme if args.theme else ''}, skipped")
            continue
        points = []
        for name, solved, total in bucket_counts(rows, buckets):
            if total == 0 or total < args.min_count:
                warn(f"{path}: bucket {name} dropped: " +
                     ("no puzzles" if total == 0 else
                      f"{total} puzzles, fewer than --min-count {args.min_count}"))
                continue
            points.append((name, solved, total))
        solved_all = sum(bool(r["solved"]) for r in rows)
        series.append((path, label, [name for name, _ in buckets], points, solved_all, len(rows)))
    if not series:
        warn("nothing to draw")
        return 1

    if args.print:
        for path, label, _, points, solved_all, total_all in series:
            print(f"{path}: {label}: {solved_all}/{total_all} solved "
                  f"({100 * solved_all / total_all:.1f}%)")
            print(f"  {'bucket':<10} {'n':>6} {'solved':>7} {'accuracy':>9}  95% interval")
            for name, solved, total in points:
                low, high = wilson_interval(solved, total)
                print(f"  {name:<10} {total:>6} {solved:>7} {100 * solved / total:>8.1f}%"
                      f"  {100 * low:.1f}-{100 * high:.1f}%")
        return 0

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = series[0][2]
    fig, ax = plt.subplots(figsize=(8, 5))
    width = 0.6 / len(series)  # files side by side within a bucket, so their bars do not overlap
    for k, (path, label, file_names, points, solved_all, total_all) in enumerate(series):
        if file_names != names:
            warn(f"{path}: other rating buckets than {args.results[0]}; plotted on the first's")
        xs, ys, low_err, high_err = [], [], [], []
        by_name = {name: (solved, total) for name, solved, total in points}
        for i, name in enumerate(names):
            x = i + (k - (len(series) - 1) / 2) * width
            if name not in by_name:  # dropped: a gap in the line, not a segment across it
                xs.append(x)
                ys.append(math.nan)
                low_err.append(0)
                high_err.append(0)
                continue
            solved, total = by_name[name]
            low, high = wilson_interval(solved, total)
            y = 100 * solved / total
            xs.append(x)
            ys.append(y)
            low_err.append(y - 100 * low)
            high_err.append(100 * high - y)
            ax.annotate(f"n={total}", (x, 100 * high), textcoords="offset points", xytext=(0, 3),
                        ha="center", fontsize=7)
        legend = textwrap.fill(f"{label} ({100 * solved_all / total_all:.1f}% of {total_all})",
                               LEGEND_WIDTH)
        ax.errorbar(xs, ys, yerr=[low_err, high_err], marker="o", capsize=3, label=legend)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_xlabel("puzzle rating (Lichess)")
    ax.set_ylabel("solved (%), 95% interval")
    ax.set_ylim(0, 108)
    ax.grid(alpha=0.3)
    ax.set_title(args.title + (f" ({args.theme})" if args.theme else ""))
    # Beside the axes, so a long label neither covers points nor squeezes the plot.
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), fontsize="small", frameon=False)
    fig.savefig(args.out, dpi=120, bbox_inches="tight")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
