"""One SPRT over several runs of the same test: resume a match that was stopped (to free the
cores for CI, or at the end of a session) and decide it on all its game pairs.

    python3 -m tools.measure.sprt fe3.log fe3b.log   # fastchess logs: each one's last Ptnml line
    python3 -m tools.measure.sprt --ptnml 33,25,94,30,48 fe3b.log  # or the counts themselves
    python3 -m tools.measure.sprt --elo0 0 --elo1 25 --alpha 0.05 --beta 0.1 ...

Only runs of one test may be added up: the same binaries, options, time control and book, each
run with its own `-srand` so that the openings differ. Logs must carry the same `Results of A
vs B (...)` heading (the engines' names in the same order, the control, the book); the tool
cannot see the binaries behind the names, so keep one name per binary. The sums are what one
long run would have given, as fishtest counts a test resumed on other workers; the verdict is
read from the sums alone, never from one run's own LLR.

The statistics are the pentanomial ones fastchess prints with `-sprt ... model=normalized`
(its default): the normalized Elo of Van den Bergh's generalized SPRT (the log-likelihood
ratio of the two most likely pair-score distributions under H0 and H1), the logistic Elo with
its 95% interval, and the normalized Elo.
"""

import argparse
import math
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# A game pair scores 0, 1/4, 1/2, 3/4 or 1 per game (LL, LD, WL or DD, WD, WW).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
NORMALIZED_ELO_SCALE = 800.0 / math.log(10.0)  # nElo = t * this / sqrt(2) for game pairs
RESULTS_LINE = re.compile(r"Results of (.+?):?\s*$")
PTNML_LINE = re.compile(r"Ptnml\(0-2\):\s*\[(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\]")


def last_ptnml(lines: Iterable[str]) -> list[int] | None:
    """The counts on the last `Ptnml(0-2): [...]` line fastchess printed, or None."""
    counts = None
    for line in lines:
        found = PTNML_LINE.search(line)
        if found:
            counts = [int(group) for group in found.groups()]
    return counts


def regularized(counts: Sequence[int]) -> list[float]:
    # As fastchess does: an empty outcome counts 1e-3, so that no probability is 0.
    return [c if c > 0 else 1e-3 for c in counts]


def mean_and_deviation(probabilities: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * a for p, a in zip(probabilities, PAIR_SCORES))
    variance = sum(p * (a - mean) ** 2 for p, a in zip(probabilities, PAIR_SCORES))
    return mean, math.sqrt(variance)


def most_likely_with_t(empirical: Sequence[float], t: float,
                       iterations: int = 1000) -> list[float]:
    """The pair-score distribution nearest (in likelihood) to `empirical` whose normalized
    score (mean - 1/2) / deviation is t. A stationary point of the likelihood under that
    constraint has p_i = e_i / (1 + x phi_i) with phi_i = (a_i - mu) - t ((a_i - mu)^2 -
    sigma^2) / (2 sigma), mu = 1/2 + t sigma, and sigma p's own deviation: alternate between
    sigma and the multiplier x, which makes the p_i sum to one. sigma starts from the uniform
    distribution's, as fastchess starts: from the sample's own, a sample nearly all in one
    outcome (all draws) has a deviation near 0 and the iteration settles where the constraint
    does not hold. Raises ArithmeticError if it does not hold at the end."""
    _, sigma = mean_and_deviation([1.0 / len(PAIR_SCORES)] * len(PAIR_SCORES))
    p = list(empirical)
    for _ in range(iterations):
        mu = 0.5 + t * sigma
        phi = [(a - mu) - t * ((a - mu) ** 2 - sigma**2) / (2 * sigma) for a in PAIR_SCORES]
        # sum e_i phi_i / (1 + x phi_i) falls as x rises; its root keeps every 1 + x phi_i > 0.
        low = max((-1.0 / f for f in phi if f > 0), default=-1e9)
        high = min((-1.0 / f for f in phi if f < 0), default=1e9)
        low, high = low + 1e-12 * abs(low), high - 1e-12 * abs(high)
        for _ in range(200):
            x = (low + high) / 2
            if sum(e * f / (1 + x * f) for e, f in zip(empirical, phi)) > 0:
                low = x
            else:
                high = x
        p = [e / (1 + x * f) for e, f in zip(empirical, phi)]
        total = sum(p)
        p = [q / total for q in p]
        _, new_sigma = mean_and_deviation(p)
        if abs(new_sigma - sigma) < 1e-14:
            break
        sigma = new_sigma
    mean, deviation = mean_and_deviation(p)
    if not deviation > 0 or abs((mean - 0.5) / deviation - t) > 1e-6:
        raise ArithmeticError(f"no pair-score distribution near the sample has normalized "
                              f"score {t:.4f}")
    return p


def logistic_elo(score: float) -> float:
    """The Elo difference of an expected score; +-inf at 1 and 0 (every pair won or lost)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def summary(counts: Sequence[int], elo0: float, elo1: float, alpha: float,
            beta: float) -> dict[str, Any]:
    """Everything fastchess prints for a pentanomial SPRT, for the summed counts: the Elo
    figures from the counts as they are, the LLR from the regularized ones."""
    pairs = sum(counts)
    mean, deviation = mean_and_deviation([c / pairs for c in counts])
    # The 95% interval of the mean pair score; where it leaves (0, 1) the Elo error is inf.
    error = 1.959963984540054 * deviation / math.sqrt(pairs)
    low, high = mean - error, mean + error
    elo_error = ((logistic_elo(high) - logistic_elo(low)) / 2 if 0.0 < low and high < 1.0
                 else math.inf)
    values = regularized(counts)
    empirical = [v / sum(values) for v in values]
    t0 = math.sqrt(2.0) * elo0 / NORMALIZED_ELO_SCALE
    t1 = math.sqrt(2.0) * elo1 / NORMALIZED_ELO_SCALE
    h0, h1 = most_likely_with_t(empirical, t0), most_likely_with_t(empirical, t1)
    llr = sum(v * math.log(p1 / p0) for v, p0, p1 in zip(values, h0, h1))
    per_t = NORMALIZED_ELO_SCALE / math.sqrt(2.0)  # normalized Elo per unit of t
    return {
        "pairs": pairs,
        "games": 2 * pairs,
        "ptnml": counts,
        "score": mean,
        "elo": logistic_elo(mean),
        "elo_error": elo_error,
        # No spread (every pair the same result): the normalized Elo is undefined.
        "nelo": (mean - 0.5) / deviation * per_t if deviation > 0 else math.nan,
        "nelo_error": 1.959963984540054 / math.sqrt(pairs) * per_t,
        "llr": llr,
        "lower": math.log(beta / (1 - alpha)),
        "upper": math.log((1 - beta) / alpha),
    }


def verdict(result: Mapping[str, Any]) -> str:
    if result["llr"] >= result["upper"]:
        return "H1 accepted"
    if result["llr"] <= result["lower"]:
        return "H0 accepted"
    return "continue"


def parse_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if len(counts) != 5 or min(counts) < 0:
        raise ValueError(f"--ptnml wants five counts LL,LD,WL+DD,WD,WW, got '{text}'")
    return counts


def read_log(path: str) -> tuple[str, list[int]]:
    """(the match's `Results of A vs B (...)` heading, the last Ptnml counts) of a fastchess
    log; raises ValueError with the reason it cannot be used."""
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            lines = log.readlines()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    counts = last_ptnml(lines)
    headings = [m.group(1) for m in map(RESULTS_LINE.match, lines) if m]
    if counts is None or not headings:
        raise ValueError(f"{path} has no 'Results of ...' and 'Ptnml(0-2): [...]' lines "
                         "(was it a fastchess log of a finished report?)")
    return headings[-1], counts


def figure(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value + 0.0:.2f}"  # + 0.0: no "-0.00"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("logs", nargs="*", help="fastchess logs; each adds its last Ptnml line")
    parser.add_argument("--ptnml", action="append", default=[],
                        help="LL,LD,WL+DD,WD,WW counts of another run (repeatable)")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=25.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.1)
    args = parser.parse_args(argv)

    def fail(message):
        print(f"sprt: {message}", file=sys.stderr)
        return 2

    if not (math.isfinite(args.elo0) and math.isfinite(args.elo1) and args.elo0 < args.elo1):
        return fail(f"--elo0 {args.elo0} and --elo1 {args.elo1}: two finite bounds, "
                    "elo0 below elo1")
    if not (0 < args.alpha < 1 and 0 < args.beta < 1 and args.alpha + args.beta < 1):
        return fail(f"--alpha {args.alpha} and --beta {args.beta}: each in (0, 1), "
                    "their sum below 1")
    runs = []
    try:
        runs += [(f"--ptnml {text}", parse_counts(text)) for text in args.ptnml]
        heading = None
        for path in args.logs:
            this_heading, counts = read_log(path)
            # Runs of one test only: the same engines in the same order, control and book.
            if heading is not None and this_heading != heading:
                raise ValueError(f"{path} is another match ('{this_heading}', not '{heading}')")
            heading = this_heading
            runs.append((path, counts))
    except ValueError as error:
        return fail(error)
    if not runs:
        return fail("give at least one fastchess log or --ptnml")
    counts = [sum(run[1][i] for run in runs) for i in range(5)]
    if sum(counts) == 0:
        return fail("no game pairs in the runs given")
    try:
        r = summary(counts, args.elo0, args.elo1, args.alpha, args.beta)
    except ArithmeticError as error:
        return fail(error)

    if heading:
        print(f"match: {heading}")
    for name, run in runs:
        print(f"{name}: {sum(run)} pairs, ptnml {run}")
    print(f"together: {r['games']} games ({r['pairs']} pairs), ptnml {r['ptnml']}, "
          f"score {100 * r['score']:.2f}%")
    print(f"Elo: {figure(r['elo'])} +/- {figure(r['elo_error'])}, "
          f"nElo: {figure(r['nelo'])} +/- {figure(r['nelo_error'])}")
    print(f"LLR: {r['llr']:.2f} ({r['lower']:.2f}, {r['upper']:.2f}) "
          f"[{args.elo0:.2f}, {args.elo1:.2f}]: {verdict(r)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
