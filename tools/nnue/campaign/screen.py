#!/usr/bin/env python3
"""Which evaluation predicts the results of games it never saw: a screen before a match.

    screen.py GAMES [--every N] [--engine NAME=BINARY ...] [--column NAME=INDEX ...]
              [--boot B] [--seed S]

GAMES holds positions of games that none of the screened networks was trained on
(`FEN;result;game...` lines from White's side, a run of lines with one game
number being one game): the quiet game positions of a test chunk, one of
chunks.tsv with no labels and no neighbours. Each series is an engine's
static evaluation (UCI `eval`, as scale_by_stage.py reads it) or a column of
the file (a score from White's side, counted from 0), both taken from the side
to move's point of view. For each series and each band of piece counts the
scale k of `sigmoid(k * cp / 400)` is fitted to the results as
scale_by_stage.py fits it, and the error is the mean squared difference between
the fitted prediction and the result over all positions: the fit per band
takes away what a score's scale alone would cost (a network trained on another
teacher's centipawns is not penalised for them), so what is left is how well
the evaluation orders positions by their outcome.

The first series is the base. For every other one the script prints its
error less the base's and a 95% interval of that difference from B bootstrap
resamplings of whole games (seeded; the k of each band is kept as fitted on
all games). Below zero: the series predicts the unseen games' results better.

What it can and cannot tell is measured in docs/strength.md ("Unseen games
as a screen"): networks of one recipe, trained from scratch on different
labels, it ranked as their matches did, at a small fraction of a match's
cost; fine-tunes, a network with calibrated labels and networks trained
towards the results themselves it favoured beyond their play. It chooses
what goes to a match; the match decides. Paths come from the arguments;
nothing is written.
"""
import argparse
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale_by_stage import BANDS, CLIP, evals, fit, sigmoid  # noqa: E402

# The bands each k is fitted in: those of scale_by_stage.py, without its row of all stages.
STAGES = [band for band in BANDS if band != (2, 32)]


def read(path, every):
    """Positions of `path` (every `every`-th line): FENs, results and White-view
    columns, pieces on the board, and the game (run of lines) each belongs to."""
    fens, results, whites, rows, pieces, games = [], [], [], [], [], []
    game, previous = -1, None
    with open(path) as f:
        for i, line in enumerate(f):
            fields = line.rstrip("\n").split(";")
            if len(fields) < 3:
                sys.exit(f"error: {path}:{i + 1}: not FEN;result;game...")
            if fields[2] != previous:
                game, previous = game + 1, fields[2]
            if i % every:
                continue
            try:
                result = float(fields[1])
            except ValueError:
                sys.exit(f"error: {path}:{i + 1}: result '{fields[1]}' is not a number")
            white = fields[0].split()[1:2] == ["w"]
            fens.append(fields[0])
            results.append(result if white else 1.0 - result)
            whites.append(white)
            rows.append(fields)
            pieces.append(sum(c.isalpha() for c in fields[0].split()[0]))
            games.append(game)
    if not fens:
        sys.exit(f"error: {path}: no positions")
    return fens, results, whites, rows, pieces, games


def squared_errors(values, results, pieces):
    """Each position's squared error with the k fitted to its band."""
    out = [0.0] * len(values)
    for lo, hi in STAGES:
        idx = [i for i, p in enumerate(pieces) if lo <= p <= hi]
        if not idx:
            continue
        xs = [max(-CLIP, min(CLIP, values[i])) for i in idx]
        k, _ = fit(xs, [results[i] for i in idx])
        for i, x in zip(idx, xs):
            out[i] = (sigmoid(k * x / 400.0) - results[i]) ** 2
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games")
    ap.add_argument("--every", type=int, default=1)
    # One list in the order given: the first series is the base, whichever kind it is.
    ap.add_argument("--engine", action="append", dest="series", default=[], metavar="NAME=BINARY",
                    type=lambda spec: ("engine", spec))
    ap.add_argument("--column", action="append", dest="series", default=[], metavar="NAME=INDEX",
                    type=lambda spec: ("column", spec))
    ap.add_argument("--boot", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.every < 1:
        ap.error("--every must be at least 1")
    if args.boot < 1:
        ap.error("--boot must be at least 1")
    specs = []
    for kind, spec in args.series:
        name, _, what = spec.partition("=")
        if not name or not what:
            ap.error(f"--{kind} {spec}: NAME={'BINARY' if kind == 'engine' else 'INDEX'}")
        if kind == "column" and not what.isdigit():
            ap.error(f"--column {spec}: INDEX must be a field number, counted from 0")
        if any(name == other for _, other, _ in specs):
            ap.error(f"--{kind} {spec}: the name {name} is given twice")
        specs.append((kind, name, what))
    if len(specs) < 2:
        ap.error("give at least two series (--engine or --column): a base and one to compare")

    fens, results, whites, rows, pieces, games = read(args.games, args.every)
    series = {}
    for kind, name, what in specs:
        if kind == "engine":
            try:
                values = [float(v) for v in evals(what, fens)]
            except (OSError, subprocess.CalledProcessError) as e:
                sys.exit(f"error: --engine {name}={what}: {e}")
        else:
            at, values = int(what), []
            for fields, white in zip(rows, whites):
                try:
                    cp = float(fields[at])
                except (IndexError, ValueError):
                    sys.exit(f"error: --column {name}={at}: line '{';'.join(fields)}' has no number there")
                values.append(cp if white else -cp)
        series[name] = squared_errors(values, results, pieces)

    n_games = games[-1] + 1
    per_game = {name: [0.0] * n_games for name in series}
    count = [0] * n_games
    for i, g in enumerate(games):
        count[g] += 1
        for name, errs in series.items():
            per_game[name][g] += errs[i]
    present = [g for g in range(n_games) if count[g]]
    base = next(iter(series))
    rng = random.Random(args.seed)
    draws = [[rng.choice(present) for _ in present] for _ in range(args.boot)]
    # Positions in each resampling: the same for every series, so counted once.
    sizes = [sum(count[g] for g in draw) for draw in draws]

    print(f"{len(fens)} positions of {len(present)} games in {args.games}; "
          f"error against the results, k fitted per band of pieces; base {base}")
    print(f"{'':10}{'error':>10}{'- base':>11}   95% interval ({args.boot} resamplings of games)")
    mean_base = sum(series[base]) / len(fens)
    print(f"{base:10}{mean_base:10.5f}")
    for name in list(series)[1:]:
        diff = [a - b for a, b in zip(per_game[name], per_game[base])]
        total = sum(diff) / len(fens)
        spread = sorted(sum(diff[g] for g in draw) / n for draw, n in zip(draws, sizes))
        lo = spread[int(0.025 * (len(spread) - 1))]
        hi = spread[int(math.ceil(0.975 * (len(spread) - 1)))]
        mean = sum(series[name]) / len(fens)
        print(f"{name:10}{mean:10.5f}{total:+11.5f}   [{lo:+.5f}, {hi:+.5f}]")


if __name__ == "__main__":
    main()
