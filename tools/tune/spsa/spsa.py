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

The rules a state is played by are kept in it (`rules`, version 2 states,
made by `init` since they exist): each sign is a bit of SHA-256 of (seed, k,
i); plus and minus are rounded at random (floor(x + u), one u from SHA-256 of
(seed, k, i) shared by both sides), so a step c_k under 0.5 still moves the
integer settings, in a fraction 2 c_k of iterations; and a number whose plus
and minus settings are the same integer is not moved (its games said nothing
about it). Version 1 states, which have no `rules`, keep the rules they were
played with (signs from random.Random(...).choice, rounding to the nearest,
every number moved), so they resume exactly as before.

usage:
  spsa.py init STATE --params PARAMS.tsv --iterations N --seed S
                     [--pairs P] [--limit nodes=10000] [--openings FILE]
  spsa.py run STATE --engine TUNE_BUILD [--fastchess FC] [--iterations K]
                    [--concurrency C] [--workdir DIR] [--timeout SECONDS]
  spsa.py show STATE

PARAMS.tsv: name, start value ('-': the engine's default, read from its
`uci` output at the first run), c_end, r_end; '#' lines are comments.
Without --openings the games start from the 960 start positions as the
engine writes them (`ENGINE openings --all`), made anew in the work
directory at each run; either way the file's SHA-256 is kept in the state
and a run refuses openings that differ from those it started with. It also
refuses an engine whose `bench` signature (at the compiled-in defaults)
differs from the one the run started with: that is another search.

The work folder (games, logs, the 960 starts) is by default
$TMPDIR/chess960-spsa-NAME-HASH, NAME and HASH from the state file's real path,
so that two states never share one. `run` holds a lock beside the state
(.STATE.lock) and one in the work folder while it goes, and refuses a second
run of either. Each iteration's folder is emptied before its games, so its
PGN and log are of that iteration's games alone.

fastchess is given a time limit (--timeout, else sized from the iteration;
see match_timeout): at fixed nodes it has no clock, and would wait for a hung
engine's move for ever. Past it, fastchess and its engines are killed and
the run stops, the state still at the last finished iteration.
"""
import argparse
import fcntl
import hashlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101
# The state version `init` writes. Version 1 states (no `rules`) are still read and resumed by
# their own rules; a new state is version 2 so that a driver from before the rules existed
# refuses it rather than play it by the old rules without saying so.
VERSION = 2
READS = (1, 2)
# How a state is played (see the module's docstring). Absent from version 1 states: OLD_RULES.
OLD_RULES = {"sign": "random.choice", "round": "nearest", "equal": "update"}
NEW_RULES = {"sign": "sha256", "round": "random", "equal": "skip"}

# The sizing of fastchess's time limit when --timeout is not given (match_timeout): every game
# taken as long as PLIES_MAX plies, every move at NPS_FLOOR nodes a second plus MOVE_OVERHEAD
# seconds of talk, and START_SLACK seconds for the engines' start. About a hundred times what a
# healthy iteration takes (400 plies and 2M nodes a second would be generous already), so it
# fires only on an engine that stopped answering.
PLIES_MAX = 600
NPS_FLOOR = 100_000
MOVE_OVERHEAD = 0.05
START_SLACK = 120


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
    version = state.get("version")
    if version not in READS:
        die(f"{path}: state version {version}, this driver reads {', '.join(map(str, READS))}")
    if version == 1 and "rules" in state:
        die(f"{path}: a version 1 state with rules; version 1 states have none")
    if version >= 2:
        got = state.get("rules")
        if not isinstance(got, dict) or set(got) != set(NEW_RULES):
            die(f"{path}: version {version} state without its rules ({', '.join(sorted(NEW_RULES))})")
        for key, value in sorted(got.items()):
            if value not in (OLD_RULES[key], NEW_RULES[key]):
                die(f"{path}: rule {key}={value} is not one this driver plays")
    return state


def rules(state):
    """The rules the state is played by: its own, or (version 1) those it was played with."""
    return state.get("rules", OLD_RULES)


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
    seen = {}
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
            # A second row of a name would be a second number set on one option: whichever
            # fastchess took last would play, and both would be moved by the same games.
            if name in seen:
                die(f"{path}:{n}: {name} is listed twice (first at line {seen[name]})", 2)
            seen[name] = n
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


def hashed(tag, seed, k, i):
    """A number in [0, 1) from SHA-256 of (tag, seed, k, i): the same on any Python."""
    digest = hashlib.sha256(f"spsa-{tag}:{seed}:{k}:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def direction(seed, k, count, rule=OLD_RULES["sign"]):
    if rule == "sha256":
        return [1 if hashed("sign", seed, k, i) >= 0.5 else -1 for i in range(count)]
    # Version 1 states: random.Random(str).choice, which Python does not promise to keep from
    # one version to the next (seeding from a str and choice() have changed before), kept only
    # so that those states resume as they were played.
    rng = random.Random(f"spsa:{seed}:{k}")
    return [rng.choice((-1, 1)) for _ in range(count)]


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


def points(state, k):
    """The integer settings of plus and minus at iteration k, and the direction."""
    params = state["params"]
    rule = rules(state)
    flips = direction(state["seed"], k, len(params), rule["sign"])
    plus, minus = {}, {}
    for i, (p, f) in enumerate(zip(params, flips)):
        c_k, _ = schedule(p, k, state["iterations"], state["A"])
        hi, lo = p["value"] + c_k * f, p["value"] - c_k * f
        if rule["round"] == "random":
            # floor(x + u) is x on average, so each side is where SPSA means it to be on
            # average, however small c_k; rounding to the nearest puts both sides on the same
            # integer as soon as c_k < 0.5 (and the value sits near an integer). One u for both
            # sides: their difference is then floor(2 c_k) or that plus one, never further
            # from 2 c_k. From (seed, k, i) alone, so a chunk played again rounds alike.
            u = hashed("round", state["seed"], k, i)
            hi, lo = math.floor(hi + u), math.floor(lo + u)
        else:
            hi, lo = round(hi), round(lo)
        plus[p["name"]] = clamp(hi, p["min"], p["max"])
        minus[p["name"]] = clamp(lo, p["min"], p["max"])
    return plus, minus, flips


def update(state, k, flips, wins, losses, plus, minus):
    """Move every value by R_k * c_k * (wins - losses) * flip, within its range (under the rule
    equal=skip, not a value whose plus and minus settings were the same integer)."""
    result = wins - losses
    skip = rules(state)["equal"] == "skip"
    for p, f in zip(state["params"], flips):
        # Plus and minus played this number alike: wins - losses is noise as far as it goes,
        # and moving it by that noise is a random walk. Skipping leaves the mean step as it was
        # (the noise averages to zero) with less spread.
        if skip and plus[p["name"]] == minus[p["name"]]:
            continue
        c_k, r_k = schedule(p, k, state["iterations"], state["A"])
        p["value"] = clamp(p["value"] + r_k * c_k * result * f, p["min"], p["max"])


RESULT = re.compile(
    r"^Results of plus vs minus.*?^Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)",
    re.M | re.S,
)


def limit_seconds(limit):
    """Seconds one game may take under fastchess's per-engine limit (PLIES_MAX plies), or None
    for a limit that cannot be sized (depth, or tc=inf)."""
    kind, _, val = limit.partition("=")
    try:
        if kind == "nodes":
            return PLIES_MAX * (int(val) / NPS_FLOOR + MOVE_OVERHEAD)
        if kind == "st":
            return PLIES_MAX * (float(val) + MOVE_OVERHEAD)
        if kind == "tc" and val != "inf":
            # Cute-chess form [moves/][minutes:]seconds[+increment]; with moves/, the base comes
            # back every `moves` moves of a side.
            moves, _, rest = val.rpartition("/")
            base, _, inc = rest.partition("+")
            minutes, _, seconds = base.rpartition(":")
            base = float(seconds) + 60 * float(minutes or 0)
            periods = math.ceil(PLIES_MAX / 2 / int(moves)) if moves else 1
            side = base * periods + float(inc or 0) * PLIES_MAX / 2
            return 2 * side + PLIES_MAX * MOVE_OVERHEAD
    except (ValueError, ZeroDivisionError):
        return None
    return None


def match_timeout(state, args):
    """fastchess's time limit for one iteration, in seconds: --timeout, or START_SLACK +
    ceil(2 * pairs / concurrency) * (the longest game of the limit, limit_seconds). For nodes=N:
    120 + ceil(2P / C) * 600 * (N / 100000 + 0.05): 1,560 s for 8 pairs at 10,000 nodes one game
    at a time, where the iterations of the committed runs took 6 to 12 s."""
    if args.timeout is not None:
        return args.timeout
    game = limit_seconds(state["limit"])
    if game is None:
        die(f"cannot size a time limit for --limit {state['limit']}; give run --timeout SECONDS", 2)
    return START_SLACK + math.ceil(2 * state["pairs"] / args.concurrency) * game


def kill_group(proc):
    """End fastchess and whatever it started (the engines): all are in its process group."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already
    proc.wait()


def play(state, k, plus, minus, args):
    """Play iteration k's pairs; (wins, losses, draws) of plus."""
    work = os.path.join(args.workdir, f"iter-{k}")
    # An iteration played again (a run stopped in it) starts from an empty folder: fastchess
    # appends to its PGN, which would otherwise hold the games of both tries.
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
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
    seconds = match_timeout(state, args)
    with open(log, "w") as out:
        # A process group of its own, so that a timeout or a stop of this driver ends the
        # engines too, not fastchess alone (engines left behind would hold the cores).
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            die(
                f"iteration {k}: fastchess ran past its time limit of {seconds:.0f} s (an engine "
                f"that stopped answering?) and was killed; the state stays at iteration {k - 1}; see {log}"
            )
        finally:
            # Also on Ctrl-C or SIGTERM: fastchess is not in this terminal's process group, so
            # nothing else would stop it. After a normal end this finds the group gone.
            kill_group(proc)
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
    # No floor on c_end: under random rounding a step below 0.5 still moves the integer settings
    # (in a fraction 2 c_k of iterations, with the mean step unchanged), so a small c_end is a
    # choice of the tuner's, as in Stockfish's framework, not a fault.
    state = {
        "version": VERSION,
        "rules": dict(NEW_RULES),
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


def default_workdir(state_path):
    """$TMPDIR/chess960-spsa-NAME-HASH: one folder per state file (HASH from its real path), so
    that two runs of two states never read each other's logs."""
    real = os.path.realpath(state_path)
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.splitext(os.path.basename(real))[0])
    digest = hashlib.sha256(real.encode()).hexdigest()[:12]
    return os.path.join(tempfile.gettempdir(), f"chess960-spsa-{name}-{digest}")


def take_lock(path, what):
    """Hold an exclusive lock on `path` until this process ends, or die naming `what`. The
    file stays (removing it would let a run that waits on the old one and a new run both hold
    a lock)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        die(f"cannot open lock {path}: {e.strerror}")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        die(f"{what} is in use by another run (pid {holder or '?'}; lock {path})")
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def stop_on_signal(signum, _frame):
    # Raised as SystemExit, so that play()'s `finally` kills fastchess's process group.
    sys.exit(128 + signum)


def cmd_run(args):
    if not os.path.isfile(args.state):
        die(f"no state {args.state}; make it with `spsa.py init`", 2)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        # Not where it is ignored (a run under nohup goes on after a hangup, as it always did).
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, stop_on_signal)
    # Two runs of one state would both play iteration k and both write the state.
    head, tail = os.path.split(os.path.abspath(args.state))
    take_lock(os.path.join(head, f".{tail}.lock"), args.state)
    state = load(args.state)
    if not args.fastchess or not os.access(args.fastchess, os.X_OK):
        die("set --fastchess or FASTCHESS to the fastchess binary", 2)
    if args.concurrency < 1:
        die("--concurrency must be at least 1", 2)
    if args.timeout is not None and args.timeout <= 0:
        die("--timeout must be above 0 seconds", 2)
    match_timeout(state, args)  # an unsizable limit is refused now, not at the first iteration
    if args.workdir is None:
        args.workdir = default_workdir(args.state)
        print(f"work folder {args.workdir}", flush=True)
    os.makedirs(args.workdir, exist_ok=True)
    # Two states given one --workdir would share its iteration folders.
    take_lock(os.path.join(args.workdir, ".lock"), f"work folder {args.workdir}")
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
            # The engine would refuse the setting, and clamping it would tune from a point
            # nobody asked for.
            if p["start"] is not None and not lo <= p["start"] <= hi:
                die(f"{p['name']}: start {p['start']:g} is outside the engine's range {lo}..{hi}")
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
        update(state, k, flips, wins, losses, plus, minus)
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
    r.add_argument("--workdir", help="default: $TMPDIR/chess960-spsa-NAME-HASH of the state file")
    r.add_argument("--timeout", type=float, help="seconds fastchess may take for one iteration")
    s = sub.add_parser("show")
    s.add_argument("state")
    args = ap.parse_args()
    iterations = getattr(args, "iterations", None)  # `show` has none
    if iterations is not None and iterations < 1:
        die("--iterations must be at least 1", 2)
    {"init": cmd_init, "run": cmd_run, "show": cmd_show}[args.cmd](args)


if __name__ == "__main__":
    main()
