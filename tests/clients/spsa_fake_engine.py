#!/usr/bin/env python3
"""A stand-in for a `tune` build in tests/spsa.rs: it declares two spin
options after `uci`, writes two openings for `openings --all -o FILE` and
prints a bench signature, which is all the SPSA driver asks of the engine
itself (the games are the fake match runner's)."""
import sys

if sys.argv[1:2] == ["openings"]:
    with open(sys.argv[sys.argv.index("-o") + 1], "w") as f:
        f.write("start one\nstart two\n")
    sys.exit(0)
if sys.argv[1:2] == ["bench"]:
    print("Nodes searched: 4242")
    sys.exit(0)

for line in sys.stdin:
    if line.strip() == "uci":
        print("id name spsa-fake")
        print("option name Hash type spin default 16 min 1 max 64")
        print("option name ALPHA type spin default 20 min 0 max 100")
        print("option name BETA type spin default 100 min 0 max 200")
        print("uciok", flush=True)
    elif line.strip() == "quit":
        break
