#!/usr/bin/env python3
"""The gate's verdict from one or more fastchess logs of the same pairing.

    sprt.py LOG [LOG ...] [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05]

Each LOG is the output of a fastchess match of NEW against BASE played with `-games 2 -repeat`
(every start with both colours), as tools/match/gate.sh writes it. The last pentanomial line of
each (`Ptnml(0-2): [LL, LD, DD+WL, WD, WW]`, from NEW's side) is read, and the counts of all logs
are added: a gate that stopped undecided goes on with a new seed, and the SPRT is taken over every
game pair played so far. That is sound because the test's bounds do not depend on the number of
games; what is not sound is to stop at whatever count happens to show a good interval.

Printed: the pairs, the score, the Elo with its 95% interval (logistic, from the pentanomial
variance), the LLR of the normalized-Elo SPRT between ELO0 and ELO1 with its bounds, then the
verdict on the last line, with gate.sh's rule:
  PASS       the LLR reached the upper bound, or at least 400 games were played and the lower end
             of the 95% interval is above zero (exit 0)
  FAIL       the LLR reached the lower bound (exit 1)
  UNDECIDED  neither (exit 3)
Exit 2 on unusable input (a log without a pentanomial line).

The LLR is the usual approximation for normalized Elo (M. Van den Bergh, "Comments on normalized
Elo"): with the pair scores' mean m and standard deviation s, t = (m - 1/2) / s, and
LLR = N (t1 - t0) (2 t - t0 - t1) / 2 over N pairs, where ti = sqrt(2) * ELOi / (800 / ln 10).
For a single log it agrees with the LLR fastchess prints to the two decimals it shows (the test
suite checks this on a real gate's figures).
"""

import argparse
import math
import re
import sys

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
Z95 = 1.959963984540054
PTNML = re.compile(r"Ptnml\(0-2\):\s*\[\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\s*\]")


def die(msg, code=2):
    print(f"sprt: {msg}", file=sys.stderr)
    sys.exit(code)


def pentanomial(path):
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    found = PTNML.findall(text)
    if not found:
        die(f"no pentanomial line (Ptnml(0-2): [...]) in {path}")
    return [int(x) for x in found[-1]]


def elo(score):
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    args = ap.parse_args()
    if not (0 < args.alpha < 1 and 0 < args.beta < 1):
        die("--alpha and --beta must be between 0 and 1")
    counts = [0] * 5
    for path in args.logs:
        for i, n in enumerate(pentanomial(path)):
            counts[i] += n
    pairs = sum(counts)
    if pairs == 0:
        die("no game pairs in the logs")
    mean = sum(n * s for n, s in zip(counts, PAIR_SCORES)) / pairs
    var = sum(n * (s - mean) ** 2 for n, s in zip(counts, PAIR_SCORES)) / pairs
    sd = math.sqrt(var)
    err = Z95 * sd / math.sqrt(pairs)
    diff = elo(mean)
    half = (elo(min(mean + err, 1.0)) - elo(max(mean - err, 0.0))) / 2
    scale = math.sqrt(2.0) / (800.0 / math.log(10.0))
    t0, t1 = args.elo0 * scale, args.elo1 * scale
    t = (mean - 0.5) / sd if sd > 0 else 0.0
    llr = pairs * (t1 - t0) * (2 * t - t0 - t1) / 2
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    games = 2 * pairs
    print(f"logs {len(args.logs)}, pairs {pairs} {counts}, games {games}, score {100 * mean:.2f}%")
    print(f"games {games}, Elo {diff:+.1f} +/- {half:.1f}, LLR {llr:.2f} ({lower:.2f}, {upper:.2f})")
    if llr >= upper or (games >= 400 and diff - half > 0):
        print("PASS")
        sys.exit(0)
    if llr <= lower:
        print("FAIL")
        sys.exit(1)
    print("UNDECIDED")
    sys.exit(3)


if __name__ == "__main__":
    main()
