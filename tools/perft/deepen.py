#!/usr/bin/env python3
"""Add one deeper depth to a .perft reference file, counted by Stockfish.

Reads a file of `id` / `epd` / `perft DEPTH NODES` blocks (perft/dfrc.perft,
perft/chess960_castling.perft), asks Stockfish (`go perft DEPTH`,
UCI_Chess960) for DEPTH in every block that lacks it, and writes the file
with a `perft DEPTH NODES` line after the block's last one. Stockfish first
recounts the block's deepest existing depth, which must equal the file's, so
a wrong position or a wrong FEN reading stops the run instead of adding a
count of another position. A header line names the new depth's source.

usage: deepen.py IN OUT STOCKFISH --depth D
"""
import argparse
import sys
import time

from gen_dfrc_perft import Stockfish


def blocks(lines):
    """Header lines, then (lines, fen, {depth: nodes}) per block."""
    header, out, cur = [], [], None
    for line in lines:
        if line.startswith("id "):
            cur = {"lines": [line], "epd": None, "perft": {}}
            out.append(cur)
        elif cur is None:
            header.append(line)
        else:
            cur["lines"].append(line)
            if line.startswith("epd "):
                cur["epd"] = line[4:].strip()
            elif line.startswith("perft "):
                _, d, n = line.split()
                cur["perft"][int(d)] = int(n)
    return header, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("stockfish")
    ap.add_argument("--depth", type=int, required=True)
    a = ap.parse_args()
    with open(a.inp) as f:
        header, bs = blocks(f.read().splitlines())
    sf = Stockfish(a.stockfish)
    started = time.time()
    for i, b in enumerate(bs):
        if a.depth in b["perft"] or b["epd"] is None:
            continue
        fen = b["epd"] + " 0 1"
        if b["perft"]:
            deepest = max(b["perft"])
            again = sf.perft(fen, deepest)
            if again != b["perft"][deepest]:
                sys.exit(f"{b['lines'][0]}: stockfish counts {again} at depth {deepest}, "
                         f"the file says {b['perft'][deepest]}")
        n = sf.perft(fen, a.depth)
        last = max(k for k, line in enumerate(b["lines"]) if line.startswith("perft ") or
                   line.startswith("epd "))
        b["lines"].insert(last + 1, f"perft {a.depth} {n}")
        print(f"{i + 1}/{len(bs)} {b['lines'][0][3:]} depth {a.depth} {n} "
              f"({time.time() - started:.0f} s)", file=sys.stderr)
    note = (f"# Depth {a.depth} added by Stockfish 15.1 (go perft, UCI_Chess960), each block's deepest "
            f"earlier depth recounted first (tools/perft/deepen.py).")
    insert = max((k for k, line in enumerate(header) if line.startswith("#")), default=-1) + 1
    header.insert(insert, note)
    with open(a.out, "w") as f:
        f.write("\n".join(header + [line for b in bs for line in b["lines"]]) + "\n")


if __name__ == "__main__":
    main()
