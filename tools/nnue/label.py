#!/usr/bin/env python3
"""Label positions with Stockfish 15.1's static evaluation.

Reads lines `FEN;...` and writes `FEN;cp`, where cp is the "Final
evaluation" of Stockfish's `eval` command (its NNUE evaluation as the search
uses it, no search), in centipawns from White's point of view. Positions
Stockfish gives no evaluation for (in check) are dropped. With --part K
--parts N only lines K, K+N, K+2N, ... are labelled, so a file can be
labelled by N processes side by side and the parts concatenated.

usage: label.py IN.txt OUT.txt [--part 0 --parts 1] [--stockfish /usr/games/stockfish]
"""
import argparse
import re
import subprocess
import time

FINAL = re.compile(r"^Final evaluation\s+([+-]?\d+\.\d+)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--part", type=int, default=0)
    ap.add_argument("--parts", type=int, default=1)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    a = ap.parse_args()
    sf = subprocess.Popen(
        ["nice", "-n", "10", a.stockfish],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def send(cmd):
        sf.stdin.write(cmd + "\n")
        sf.stdin.flush()

    send("uci")
    send("setoption name UCI_Chess960 value true")
    send("isready")
    while sf.stdout.readline().strip() != "readyok":
        pass
    kept = dropped = 0
    start = time.time()
    with open(a.inp) as inp, open(a.out, "w") as out:
        for i, line in enumerate(inp):
            line = line.strip()
            if not line or i % a.parts != a.part:
                continue
            fen = line.split(";")[0]
            send(f"position fen {fen}")
            send("eval")
            send("isready")
            cp = None
            while True:
                l = sf.stdout.readline()
                if not l:
                    raise SystemExit("stockfish exited")
                if l.startswith("readyok"):
                    break
                m = FINAL.match(l)
                if m:
                    cp = round(float(m.group(1)) * 100)
            if cp is None:
                dropped += 1
                continue
            out.write(f"{fen};{cp}\n")
            kept += 1
    send("quit")
    print(f"label: {kept} kept, {dropped} dropped, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
