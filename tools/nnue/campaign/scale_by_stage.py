#!/usr/bin/env python3
"""What a score is worth at each stage of the game, for labels and engines.

    scale_by_stage.py DATA [--every N] [--engine NAME=BINARY ...]
                      [--stockfish BINARY --depth D --count M]

DATA is a campaign data file (`FEN;result;...;cp`: the game result and the
label from White's side). Every Nth line (default 10) is read. For each band
of piece counts, and for the labels and each engine's static evaluation
(UCI `eval`), it fits the scale k for which `sigmoid(k * cp / 400)` best
predicts the game results (least squares; golden-section search over
0.05..5, as `tune nnue --calibrate` fits it) and prints k and the error. A
well-judged evaluation has about one k at every stage: a k that falls in
the endings means scores there promise more than the games deliver.

With --stockfish, the yardstick is that engine's search to depth D of the
first M positions read (as the side to move's score) instead of the results:
the scale and the correlation of each evaluation against it. It measures,
it teaches nothing: no network of the campaign is trained on its scores.

Paths come from the arguments; nothing is written.
"""
import argparse
import math
import subprocess
import sys

BANDS = [(2, 8), (9, 12), (13, 16), (17, 20), (21, 24), (25, 28), (29, 32), (2, 32)]
CLIP = 2000.0


def sigmoid(x):
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def error(k, xs, ys):
    return sum((sigmoid(k * x / 400.0) - y) ** 2 for x, y in zip(xs, ys)) / max(1, len(xs))


def fit(xs, ys):
    """The k of the least error within 0.05..5 (golden-section search)."""
    g = (math.sqrt(5) - 1) / 2
    lo, hi = 0.05, 5.0
    for _ in range(40):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if error(a, xs, ys) <= error(b, xs, ys):
            hi = b
        else:
            lo = a
    k = (lo + hi) / 2
    return k, error(k, xs, ys)


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    vx = sum((x - mx) ** 2 for x in xs)
    vy = sum((y - my) ** 2 for y in ys)
    if vx == 0 or vy == 0:
        return float("nan")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / math.sqrt(vx * vy)


def evals(binary, fens):
    """Static evaluations (side to move) of `fens` by a chess960 binary."""
    script = "".join(f"position fen {f}\neval\n" for f in fens) + "quit\n"
    out = subprocess.run([binary], input=script, capture_output=True, text=True, check=True).stdout
    got = [int(line.split()[3]) for line in out.splitlines() if line.startswith("info string eval ")]
    if len(got) != len(fens):
        sys.exit(f"error: {binary} gave {len(got)} evaluations for {len(fens)} positions")
    return got


def stockfish_scores(binary, fens, depth):
    """Scores (side to move, centipawns, mates as +-CLIP) of a UCI engine's search."""
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait(prefix):
        last = None
        for line in proc.stdout:
            if line.startswith("info") and " score " in line:
                last = line
            if line.startswith(prefix):
                return last
        sys.exit(f"error: {binary} ended before '{prefix}'")

    send("uci")
    wait("uciok")
    send("setoption name UCI_Chess960 value true")
    send("isready")
    wait("readyok")
    scores = []
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go depth {depth}")
        info = wait("bestmove").split()
        at = info.index("score")
        value = int(info[at + 2])
        scores.append(max(-CLIP, min(CLIP, value if info[at + 1] == "cp" else math.copysign(CLIP, value))))
    send("quit")
    proc.wait()
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--engine", action="append", default=[], metavar="NAME=BINARY")
    ap.add_argument("--stockfish")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--count", type=int, default=2000)
    args = ap.parse_args()
    if args.every < 1:
        ap.error("--every must be at least 1")
    fens, results, labels, pieces = [], [], [], []
    with open(args.data) as f:
        for i, line in enumerate(f):
            if i % args.every:
                continue
            fields = line.rstrip("\n").split(";")
            if len(fields) < 3:
                sys.exit(f"error: {args.data}:{i + 1}: not FEN;result;...;cp")
            white = fields[0].split()[1] == "w"
            fens.append(fields[0])
            # Everything from the side to move's point of view.
            result, cp = float(fields[1]), float(fields[-1])
            results.append(result if white else 1.0 - result)
            labels.append(cp if white else -cp)
            pieces.append(sum(c.isalpha() for c in fields[0].split()[0]))
    if args.stockfish:
        fens, results, labels, pieces = (v[: args.count] for v in (fens, results, labels, pieces))
    series = {"labels": labels}
    for spec in args.engine:
        name, _, binary = spec.partition("=")
        if not binary:
            ap.error(f"--engine {spec}: NAME=BINARY")
        series[name] = evals(binary, fens)
    if args.stockfish:
        target = stockfish_scores(args.stockfish, fens, args.depth)
        ys_all = [sigmoid(t / 400.0) for t in target]
        what = f"against {args.stockfish} at depth {args.depth}: k and correlation"
    else:
        ys_all = results
        what = "against the game results: k and error"
    print(f"{len(fens)} positions of {args.data}; {what}")
    print("pieces " + "".join(f"{name:>24}" for name in series))
    for lo, hi in BANDS:
        idx = [i for i, p in enumerate(pieces) if lo <= p <= hi]
        if not idx:
            continue
        cells = []
        for values in series.values():
            xs = [max(-CLIP, min(CLIP, values[i])) for i in idx]
            ys = [ys_all[i] for i in idx]
            k, err = fit(xs, ys)
            if args.stockfish:
                r = pearson([max(-800, min(800, x)) for x in xs], [max(-800, min(800, target[i])) for i in idx])
                cells.append(f"k={k:.2f} r={r:.3f}")
            else:
                cells.append(f"k={k:.2f} e={err:.4f}")
        print(f"{lo:2d}-{hi:2d}  " + "".join(f"{c:>24}" for c in cells) + f"   ({len(idx)})")


if __name__ == "__main__":
    main()
