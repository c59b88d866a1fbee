#!/usr/bin/env python3
"""SPSA over the search's tunable numbers, in resumable chunks.

The engine is a `tune` build (`cargo build --release --features tune`): its
tunable search numbers (src/search/params.rs, TUNABLE) are UCI spin options.
Each iteration draws a random direction (+1 or -1 per number), plays PAIRS
game pairs of the point moved one step along it (`plus`) against the point
moved one step against it (`minus`), each opening with both colours, and
moves every number by R_k * c_k * (wins - losses of plus) * direction: the
form of the SPSA tuner of Stockfish's testing framework (Spall's schedule,
c_k = c / k^0.101, a_k = a / (A + k)^0.602, R_k = a_k / c_k^2, A = N / 10;
each number's c and a follow from the step `c_end` and the rate `r_end` it
should have at the last iteration N).

All state is one small JSON file: the values, the iteration reached, the
schedule, the match settings and a line per iteration. It is written anew
(atomically) after every iteration, so a run stopped at any point resumes
from its last finished iteration, and with fixed nodes per move (the
default) a chunk of iterations played again gives the same state: the
direction and the openings' order of iteration k come from (seed, k) alone.

usage:
  spsa.py init STATE --params PARAMS.tsv --iterations N --seed S
                     [--pairs P] [--limit nodes=10000] [--openings FILE]
  spsa.py run STATE --engine TUNE_BUILD [--fastchess FC] [--iterations K]
                    [--concurrency C] [--workdir DIR]
  spsa.py show STATE

PARAMS.tsv: name, start value ('-': the engine's default, read from its
`uci` output at the first run), c_end, r_end; '#' lines are comments.
Without --openings the games start from the 960 start positions as the
engine writes them (`ENGINE openings --all`), made anew in the work
directory at each run; either way the file's SHA-256 is kept in the state
and a run refuses openings that differ from those it started with. It also
refuses an engine whose `bench` signature (at the compiled-in defaults)
differs from the one the run started with: that is another search.
"""
import argparse
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101
VERSION = 1


def die(msg, code=1):
    print(f"spsa: {msg}", file=sys.stderr)
    sys.exit(code)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load(path):
    try:
        with open(path) as f:
            state = json.load(f)
    except (OSError, ValueError) as e:
        die(f"cannot read state {path}: {e}")
    if state.get("version") != VERSION:
        die(f"{path}: state version {state.get('version')}, this driver reads {VERSION}")
    return state


def save(path, state):
    """Write the state whole or not at all (a stop mid-write keeps the old one)."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".spsa-")
    with os.fdopen(fd, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def read_params(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 4:
                die(f"{path}:{n}: want 4 tab-separated columns (name, start, c_end, r_end)", 2)
            name, start, c_end, r_end = cols
            try:
                row = {
                    "name": name,
                    "start": None if start == "-" else float(start),
                    "c_end": float(c_end),
                    "r_end": float(r_end),
                }
            except ValueError:
                die(f"{path}:{n}: '{line}' has a value that is not a number", 2)
            if row["c_end"] <= 0 or row["r_end"] <= 0:
                die(f"{path}:{n}: c_end and r_end must be positive", 2)
            rows.append(row)
    if not rows:
        die(f"{path}: no parameters", 2)
    return rows


def engine_spins(engine):
    """name -> (default, min, max) of the engine's spin options."""
    try:
        out = subprocess.run(
            [engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        die(f"cannot run engine {engine}: {e}")
    spins = {}
    for m in re.finditer(
        r"^option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$", out, re.M
    ):
        spins[m.group(1)] = tuple(int(x) for x in m.group(2, 3, 4))
    return spins


def engine_bench(engine):
    """The engine's bench signature (nodes of `ENGINE bench`): which search
    the numbers are tuned for."""
    try:
        out = subprocess.run(
            [engine, "bench"], capture_output=True, text=True, timeout=600
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        die(f"cannot run {engine} bench: {e}")
    m = re.search(r"^Nodes searched: (\d+)", out, re.M)
    if not m:
        die(f"{engine} bench printed no 'Nodes searched' line")
    return int(m.group(1))


def schedule(p, k, n, big_a):
    """(c_k, R_k) of parameter p at iteration k (1-based) of n."""
    c = p["c_end"] * n**GAMMA
    a_end = p["r_end"] * p["c_end"] ** 2
    a = a_end * (big_a + n) ** ALPHA
    c_k = c / k**GAMMA
    a_k = a / (big_a + k) ** ALPHA
    return c_k, a_k / c_k**2


def direction(seed, k, count):
    rng = random.Random(f"spsa:{seed}:{k}")
    return [rng.choice((-1, 1)) for _ in range(count)]


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


def points(state, k):
    """The integer settings of plus and minus at iteration k, and the direction."""
    params = state["params"]
    flips = direction(state["seed"], k, len(params))
    plus, minus = {}, {}
    for p, f in zip(params, flips):
        c_k, _ = schedule(p, k, state["iterations"], state["A"])
        plus[p["name"]] = clamp(round(p["value"] + c_k * f), p["min"], p["max"])
        minus[p["name"]] = clamp(round(p["value"] - c_k * f), p["min"], p["max"])
    return plus, minus, flips


def update(state, k, flips, wins, losses):
    """Move every value by R_k * c_k * (wins - losses) * flip, within its range."""
    result = wins - losses
    for p, f in zip(state["params"], flips):
        c_k, r_k = schedule(p, k, state["iterations"], state["A"])
        p["value"] = clamp(p["value"] + r_k * c_k * result * f, p["min"], p["max"])


RESULT = re.compile(
    r"^Results of plus vs minus.*?^Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)",
    re.M | re.S,
)


def play(state, k, plus, minus, args):
    """Play iteration k's pairs; (wins, losses, draws) of plus."""
    work = os.path.join(args.workdir, f"iter-{k}")
    os.makedirs(work, exist_ok=True)
    limit = state["limit"]
    each = [limit] if limit.startswith("tc=") else ["tc=inf", limit]

    def engine(name, values):
        return ["-engine", f"cmd={args.engine}", f"name={name}"] + [
            f"option.{n}={v}" for n, v in sorted(values.items())
        ]

    cmd = (
        [args.fastchess]
        + engine("plus", plus)
        + engine("minus", minus)
        + ["-each"] + each + ["option.Hash=16", "option.Threads=1"]
        + ["-variant", "fischerandom"]
        + ["-openings", f"file={args.openings}", "format=epd", "order=random"]
        + ["-srand", str(state["seed"] * 1_000_003 + k)]
        + ["-rounds", str(state["pairs"]), "-games", "2", "-repeat"]
        + ["-concurrency", str(args.concurrency), "-ratinginterval", "0"]
        + ["-pgnout", f"file={os.path.join(work, 'games.pgn')}"]
        + ["-config", f"outname={os.path.join(work, 'fastchess.json')}"]
    )
    log = os.path.join(work, "fastchess.log")
    with open(log, "w") as out:
        rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode
    text = open(log).read()
    m = RESULT.search(text)
    if rc != 0 or not m:
        die(f"iteration {k}: fastchess gave no result (exit {rc}); see {log}")
    games, wins, losses, draws = (int(x) for x in m.groups())
    if games != 2 * state["pairs"]:
        die(f"iteration {k}: {games} games played, {2 * state['pairs']} wanted; see {log}")
    return wins, losses, draws


def cmd_init(args):
    if os.path.exists(args.state):
        die(f"{args.state} exists; remove it to start afresh", 2)
    if args.openings is not None and not os.path.isfile(args.openings):
        die(f"openings file not found: {args.openings}", 2)
    state = {
        "version": VERSION,
        "seed": args.seed,
        "iterations": args.iterations,
        "A": args.iterations / 10,
        "pairs": args.pairs,
        "limit": args.limit,
        "openings": args.openings,
        "openings_sha256": None if args.openings is None else sha256(args.openings),
        "bench": None,
        "done": 0,
        "games": 0,
        "params": read_params(args.params),
        "history": [],
    }
    save(args.state, state)
    print(f"{args.state}: {len(state['params'])} parameters, {args.iterations} iterations")


def cmd_run(args):
    state = load(args.state)
    if not args.fastchess or not os.access(args.fastchess, os.X_OK):
        die("set --fastchess or FASTCHESS to the fastchess binary", 2)
    os.makedirs(args.workdir, exist_ok=True)
    args.openings = state["openings"]
    if args.openings is None:
        args.openings = os.path.join(args.workdir, "c960.epd")
        made = subprocess.run([args.engine, "openings", "--all", "-o", args.openings])
        if made.returncode != 0:
            die(f"{args.engine} could not write the 960 starts")
    digest = sha256(args.openings)
    if state["openings_sha256"] is None:
        state["openings_sha256"] = digest
    elif digest != state["openings_sha256"]:
        die(f"openings file {args.openings} is not the one this run started with")
    bench = engine_bench(args.engine)
    if state.get("bench") is None:
        state["bench"] = bench
    elif bench != state["bench"]:
        die(
            f"engine bench {bench}, the run started with {state['bench']}: "
            "its numbers were tuned for another search"
        )
    spins = engine_spins(args.engine)
    for p in state["params"]:
        if p["name"] not in spins:
            die(f"engine {args.engine} has no spin option {p['name']} (a --features tune build?)")
        default, lo, hi = spins[p["name"]]
        if "value" not in p:
            p["value"] = float(default if p["start"] is None else p["start"])
            p["min"], p["max"] = lo, hi
        elif (p["min"], p["max"]) != (lo, hi):
            die(f"{p['name']}: engine range {lo}..{hi}, the state was made with {p['min']}..{p['max']}")
    todo = state["iterations"] - state["done"]
    if args.iterations is not None:
        todo = min(todo, args.iterations)
    for _ in range(todo):
        k = state["done"] + 1
        plus, minus, flips = points(state, k)
        wins, losses, draws = play(state, k, plus, minus, args)
        update(state, k, flips, wins, losses)
        state["done"] = k
        state["games"] += wins + losses + draws
        state["history"].append([k, wins, losses, draws])
        save(args.state, state)
        print(f"iteration {k}/{state['iterations']}: plus +{wins} -{losses} ={draws}", flush=True)
    cmd_show(args, state)


def cmd_show(args, state=None):
    state = state or load(args.state)
    print(f"iteration {state['done']} of {state['iterations']}, {state['games']} games")
    for p in state["params"]:
        if "value" in p:
            print(f"{p['name']}\t{p['value']:.2f}\t(integer setting {round(p['value'])})")
        else:
            print(f"{p['name']}\t(not started)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("init")
    i.add_argument("state")
    i.add_argument("--params", required=True)
    i.add_argument("--iterations", type=int, required=True)
    i.add_argument("--seed", type=int, required=True)
    i.add_argument("--pairs", type=int, default=8)
    i.add_argument("--limit", default="nodes=10000")
    i.add_argument("--openings")
    r = sub.add_parser("run")
    r.add_argument("state")
    r.add_argument("--engine", required=True)
    r.add_argument("--fastchess", default=os.environ.get("FASTCHESS"))
    r.add_argument("--iterations", type=int)
    r.add_argument("--concurrency", type=int, default=1)
    r.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "chess960-spsa"))
    s = sub.add_parser("show")
    s.add_argument("state")
    args = ap.parse_args()
    iterations = getattr(args, "iterations", None)  # `show` has none
    if iterations is not None and iterations < 1:
        die("--iterations must be at least 1", 2)
    {"init": cmd_init, "run": cmd_run, "show": cmd_show}[args.cmd](args)


if __name__ == "__main__":
    main()
