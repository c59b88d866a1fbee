#!/usr/bin/env python3
"""Label positions with Stockfish scores.

Reads `FEN;result;game` lines and writes `FEN;result;game;cp` where cp is
Stockfish's score after `go nodes NODES` in centipawns from White's point of
view (UCI_Chess960 on, one thread, 1 MB hash cleared by `ucinewgame` before
every position, so each label depends on its position only and the output
is reproducible, also when a file is labelled in pieces). Positions Stockfish scores as mate are dropped.
With --every N only every N-th position is labelled and kept.

With --static the score is instead Stockfish's static evaluation (the "Final
evaluation" of its `eval` command, no search; about 30 times faster), which
is what the evaluation network is trained on (tools/nnue); positions in
check, which it does not evaluate, are dropped. With --part K --parts N only
lines K, K+N, K+2N, ... are labelled, so that N processes can label one file
side by side.

With --engine ENGINE any UCI engine labels the positions by its search (for
instance this project's own binary: labels by our own search, no Stockfish).
With --static and this project's binary as ENGINE the score is its static
evaluation as its search uses it (the `info string eval N cp` line its `eval`
command prints for the side to move): a teacher's static score beside its
search's, to see what the search adds.

usage: label.py IN.txt OUT.txt [--nodes 1000 | --static] [--every 1]
                [--part 0 --parts 1] [--stockfish /usr/games/stockfish | --engine ENGINE]
"""
import argparse
import re
import subprocess
import sys
import time

FINAL = re.compile(r"^Final evaluation\s+([+-]?\d+\.\d+)")
# This project's binary: `info string eval N cp (side to move; ...)`.
OWN = re.compile(r"^info string eval ([+-]?\d+) cp \(side to move")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--static", action="store_true")
    ap.add_argument("--part", type=int, default=0)
    ap.add_argument("--parts", type=int, default=1)
    # --engine: any UCI engine with `go nodes` and `score cp` lines, e.g. this
    # project's own binary to label with its own search (--static reads Stockfish's `eval` or
    # this project's).
    ap.add_argument("--stockfish", "--engine", dest="stockfish", default="/usr/games/stockfish")
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

    def lines_until(prefix):
        """Stockfish's output lines up to, not including, the first that
        starts with prefix (which is consumed)."""
        while True:
            line = sf.stdout.readline()
            if not line:
                raise SystemExit("stockfish exited")
            if line.startswith(prefix):
                return
            yield line

    def wait(prefix):
        for _ in lines_until(prefix):
            pass

    send("uci")
    wait("uciok")
    for name, value in (("UCI_Chess960", "true"), ("Threads", "1"), ("Hash", "1")):
        send(f"setoption name {name} value {value}")
    send("isready")
    wait("readyok")

    def static_eval(fen, white):
        """The engine's static evaluation of fen, White's view, or None."""
        send(f"position fen {fen}")
        send("eval")
        send("isready")
        cp = None
        refused = False
        for l in lines_until("readyok"):
            # A position the engine refuses is dropped, never given the score of the one before.
            refused = refused or l.startswith("info string error")
            m = FINAL.match(l)
            if m:
                cp = round(float(m.group(1)) * 100)
            m = OWN.match(l)
            if m:
                cp = int(m.group(1)) if white else -int(m.group(1))
        return None if refused else cp

    def search_eval(fen, white):
        """Stockfish's score after `go nodes`, White's view, or None for a mate."""
        send("ucinewgame")
        send("isready")
        wait("readyok")
        send(f"position fen {fen}")
        send(f"go nodes {a.nodes}")
        score = None
        for l in lines_until("bestmove"):
            if " score " in l:
                t = l.split()
                j = t.index("score")
                score = (t[j + 1], int(t[j + 2]))
        if score is None or score[0] != "cp":
            return None
        return score[1] if white else -score[1]

    kept = dropped = 0
    start = time.time()
    with open(a.inp) as inp, open(a.out, "w") as out:
        for i, line in enumerate(inp):
            line = line.strip()
            if not line or i % a.every or (i // a.every) % a.parts != a.part:
                continue
            fen = line.split(";")[0]
            white = fen.split()[1] == "w"
            cp = static_eval(fen, white) if a.static else search_eval(fen, white)
            if cp is None:
                dropped += 1
                continue
            out.write(f"{line};{cp}\n")
            kept += 1
            if kept % 5000 == 0:
                print(f"label: {kept} positions, {time.time() - start:.0f}s", file=sys.stderr)
    send("quit")
    sf.wait()
    why = "in check or refused" if a.static else "mate scores"
    print(f"label: kept {kept}, dropped {dropped} ({why})")


if __name__ == "__main__":
    main()
