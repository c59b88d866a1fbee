#!/usr/bin/env python3
"""The gate's verdict from one or more fastchess logs of the same pairing.

    sprt.py LOG [LOG ...] [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05] [--planned GAMES]

Each LOG is the output of a fastchess match of NEW against BASE played with `-games 2 -repeat`
(every start with both colours), as tools/match/gate.sh writes it. The last pentanomial line of
each (`Ptnml(0-2): [LL, LD, DD+WL, WD, WW]`, from NEW's side) is read, and the counts of all logs
are added: a gate that stopped undecided goes on with a new seed, and the SPRT is taken over every
game pair played so far. That is sound because the test's bounds do not depend on the number of
games; what is not sound is to stop at whatever count happens to show a good interval. One file
given twice (by any path: a link, a symlink) is refused, since its pairs would count twice; two
files of the same content draw a warning (a copy, most likely: a continuation with another seed
is never byte for byte the first).

Printed: the pairs, the score, the Elo with its 95% interval (logistic, from the pentanomial
variance), the LLR of the normalized-Elo SPRT between ELO0 and ELO1 with its bounds, then the
verdict on the last line, with gate.sh's rule:
  PASS       the LLR reached the upper bound (exit 0); or, for a gate of one log (a match whose
             length was fixed before it started), at least 400 games were played and the lower
             end of the 95% interval is above zero
  FAIL       the LLR reached the lower bound (exit 1)
  UNDECIDED  neither (exit 3)
Exit 2 on unusable input (a log without a pentanomial line, a file given twice), and, with
--planned GAMES (one log: the games its match was started for), when fewer were played and the LLR
reached neither bound: fastchess stops early for its SPRT, so a shorter match with the LLR inside
its bounds was cut short (an engine crash, fastchess stopped), and no verdict is given, the PASS by
the interval least of all: that rule holds for a match whose length was fixed before it started.
Unless fastchess's closing line says its own SPRT accepted a hypothesis: its LLR and this one
compute the same test and can part in the last digits right at a bound, so a match it stopped
there gets that verdict, when this LLR is within 0.1 of the same bound (further off, the two
were given other hypotheses, and there is no verdict).
Over several logs only the SPRT decides: the interval looked at again after every continuation
would pass a change without any gain more often than 5% of the time, the more so the more looks
(about 3% after two looks and 8% after eight, simulated at a true difference of zero), while
the SPRT's bounds hold at every look.

The LLR is the generalized SPRT's, as fastchess computes it for its own stop (M. Van den Bergh,
"Normalized Elo practical"), so the two agree: the pentanomial frequencies (a count of 0 taken as
0.001, as fastchess does) are fitted twice by maximum likelihood under the constraint
(mean - 1/2) / sd = t, once for t0 and once for t1, where ti = sqrt(2) * ELOi / (800 / ln 10),
and LLR = sum over the five outcomes of count * ln(p1 / p0). The constrained fit: with the
constraint linearized around the current fit, the maximum has the form p = phat / (1 + x c)
with x the root of sum(phat c / (1 + x c)) = 0 (a decreasing function, bisected); repeated until
the fit no longer moves, where the linearized constraint is the constraint itself.
"""

import argparse
import hashlib
import math
import os
import re
import sys

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
# What fastchess counts an outcome never seen as, so that no frequency is zero.
ZERO_COUNT = 1e-3
Z95 = 1.959963984540054
# fastchess's closing line. It names H1 also when the match reached its planned games with the
# test undecided, so it tells an SPRT stop only in a match short of its games.
SPRT_STOP = re.compile(r"^SPRT \(.*\) completed - (H[01]) was accepted\s*$", re.M)
# How far this LLR may be from the bound fastchess stopped at: the two compute the same test
# and part in the last digits, never by this much unless the hypotheses differ.
STOP_TOLERANCE = 0.1
PTNML = re.compile(r"Ptnml\(0-2\):\s*\[\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+),\s*(\d+)\s*\]")


def die(msg, code=2):
    print(f"sprt: {msg}", file=sys.stderr)
    sys.exit(code)


def read_log(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")


def pentanomial(path):
    found = PTNML.findall(read_log(path))
    if not found:
        die(f"no pentanomial line (Ptnml(0-2): [...]) in {path}")
    return [int(x) for x in found[-1]]


def sprt_stop(path):
    """The hypothesis fastchess's own SPRT accepted, by its closing line, or None."""
    found = SPRT_STOP.findall(read_log(path))
    return found[-1] if found else None


def distinct(paths):
    """Refuse a file given twice (the same file by its real path or its inode: a symlink or a
    hard link are the same games); warn of two files of the same content."""
    seen, digests = {}, {}
    for path in paths:
        try:
            st = os.stat(path)
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError as e:
            die(f"cannot read {path}: {e.strerror}")
        key = (st.st_dev, st.st_ino)
        if key in seen:
            die(f"{path} is the same file as {seen[key]}: its game pairs would count twice")
        seen[key] = path
        if digest in digests:
            # Not refused: a copy is most likely, but the verdict's tests (tests/sprt.rs) add a
            # log to a copy of itself on purpose, to stand for a gate continued.
            print(f"sprt: warning: {path} has the same content as {digests[digest]} (a copy?)",
                  file=sys.stderr)
        digests.setdefault(digest, path)


def elo(score):
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def constrained_fit(phat, t):
    """The pentanomial distribution of largest likelihood for the frequencies `phat` among those
    whose (mean - 1/2) / sd is `t` (all of `phat` is above zero)."""
    # From the uniform distribution: from `phat` itself, the linearized constraint of a nearly
    # one-outcome sample (all draws) can have no solution at all.
    p = [1 / len(phat)] * len(phat)
    for _ in range(1000):
        mu = sum(q * a for q, a in zip(p, PAIR_SCORES))
        sd = math.sqrt(sum(q * (a - mu) ** 2 for q, a in zip(p, PAIR_SCORES)))
        # The constraint mean - 1/2 - t sd = 0, linear in p around the current fit: the sum of
        # p * c, since the sum of p * (1 + ((a - mu) / sd)^2) / 2 is 1.
        c = [a - 0.5 - t * sd * (1 + ((a - mu) / sd) ** 2) / 2 for a in PAIR_SCORES]
        if min(c) >= 0 or max(c) <= 0:
            die(f"no distribution has the normalized score {t:.4f}: --elo0/--elo1 too far from 0")
        lo, hi = -1 / max(c), -1 / min(c)
        for _ in range(200):
            x = (lo + hi) / 2
            if sum(q * ci / (1 + x * ci) for q, ci in zip(phat, c)) > 0:
                lo = x
            else:
                hi = x
        x = (lo + hi) / 2
        fit = [q / (1 + x * ci) for q, ci in zip(phat, c)]
        moved = max(abs(a - b) for a, b in zip(fit, p))
        p = fit
        if moved < 1e-13:
            break
    return p


def llr_normalized(counts, t0, t1):
    """The generalized SPRT's log-likelihood ratio of t1 against t0 on the pentanomial counts."""
    held = [n if n > 0 else ZERO_COUNT for n in counts]
    total = sum(held)
    phat = [n / total for n in held]
    p0, p1 = constrained_fit(phat, t0), constrained_fit(phat, t1)
    return sum(n * math.log(b / a) for n, a, b in zip(held, p0, p1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--planned", type=int, help="games the match of the one LOG was started for")
    args = ap.parse_args()
    if not (0 < args.alpha < 1 and 0 < args.beta < 1):
        die("--alpha and --beta must be between 0 and 1")
    if args.planned is not None and (args.planned < 1 or len(args.logs) != 1):
        die("--planned takes a number of games above 0, and one LOG")
    distinct(args.logs)
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
    diff = elo(mean) + 0.0  # no "-0.0" for an even score
    # Every pair scored alike: no spread to make an interval of (and inf - inf is no number).
    half = (elo(min(mean + err, 1.0)) - elo(max(mean - err, 0.0))) / 2 if err > 0 else 0.0
    scale = math.sqrt(2.0) / (800.0 / math.log(10.0))
    t0, t1 = args.elo0 * scale, args.elo1 * scale
    llr = llr_normalized(counts, t0, t1)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    games = 2 * pairs
    print(f"logs {len(args.logs)}, pairs {pairs} {counts}, games {games}, score {100 * mean:.2f}%")
    print(f"games {games}, Elo {diff:+.1f} +/- {half:.1f}, LLR {llr:.2f} ({lower:.2f}, {upper:.2f})")
    if llr >= upper:
        print("PASS")
        sys.exit(0)
    if llr <= lower:
        print("FAIL")
        sys.exit(1)
    if args.planned is not None and games < args.planned:
        # fastchess stopped on its own LLR, which reached a bound where this one falls just short
        # (the two part in the last digits): the SPRT decided, and its verdict stands.
        accepted = sprt_stop(args.logs[0])
        if accepted is not None:
            bound = upper if accepted == "H1" else lower
            if abs(llr - bound) > STOP_TOLERANCE:
                die(f"{args.logs[0]}: fastchess's SPRT accepted {accepted} after {games} of "
                    f"{args.planned} planned games, but the LLR here is {llr:.2f}, far from "
                    f"{bound:.2f} (other --elo0/--elo1 than the match's?): no verdict")
            print(f"fastchess's own LLR reached {bound:.2f} and stopped the match "
                  f"({accepted} accepted; {llr:.2f} here)")
            print("PASS" if accepted == "H1" else "FAIL")
            sys.exit(0 if accepted == "H1" else 1)
        die(f"{args.logs[0]}: {games} of {args.planned} planned games, the LLR inside its bounds: "
            "the match was cut short (an engine crash?), no verdict")
    if games >= 400 and diff - half > 0:
        if len(args.logs) == 1:
            print("PASS")
            sys.exit(0)
        print("the interval's lower end is above zero, but over several logs only the SPRT decides")
    print("UNDECIDED")
    sys.exit(3)


if __name__ == "__main__":
    main()
