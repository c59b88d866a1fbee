#!/usr/bin/env python3
"""Cross-check rows of a perft table against another engine's `go perft`.

    crosscheck.py TABLE DEPTH ENGINE [--sample K] [--seed S]

TABLE is a tab-separated file with a header naming the columns (`sp` or `id`,
`fen`, `d1`, `d2`, ...; `#` lines are comments), such as perft/chess960_startpos.tsv.
For K rows drawn with Python's random.Random(S) (all rows without --sample), the
engine (a UCI engine with `go perft`, e.g. Stockfish) is sent
`setoption name UCI_Chess960 value true`, `position fen FEN`, `go perft DEPTH`,
and its `Nodes searched` is compared with the row's `dDEPTH` column.
Prints one line per row and a summary; exit status 1 on any difference.
"""
import argparse
import random
import subprocess
import sys
import time


def rows(path):
    header = None
    out = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                continue
            out.append(dict(zip(header, cols)))
    return out


def engine_perft(proc, fen, depth):
    proc.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.startswith("Nodes searched"):
            return int(line.split(":")[1])
    raise RuntimeError("engine ended without 'Nodes searched'")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table")
    ap.add_argument("depth", type=int)
    ap.add_argument("engine")
    ap.add_argument("--sample", type=int)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    table = rows(a.table)
    column = f"d{a.depth}"
    if not table or column not in table[0]:
        sys.exit(f"{a.table} has no column {column}")
    chosen = table if a.sample is None else random.Random(a.seed).sample(table, a.sample)
    proc = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    proc.stdin.write("uci\nsetoption name UCI_Chess960 value true\nisready\n")
    proc.stdin.flush()
    for line in proc.stdout:
        if line.strip() == "readyok":
            break
    bad = 0
    start = time.time()
    for r in chosen:
        name = r.get("sp", r.get("id", "?"))
        want = int(r[column])
        t = time.time()
        got = engine_perft(proc, r["fen"], a.depth)
        ok = got == want
        bad += not ok
        print(f"{name}\t{r['fen']}\ttable {want}\tengine {got}\t{'ok' if ok else 'DIFFERS'}\t{time.time() - t:.1f} s", flush=True)
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    print(f"rows {len(chosen)} differing {bad} seed {a.seed} depth {a.depth} time {time.time() - start:.0f} s")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
