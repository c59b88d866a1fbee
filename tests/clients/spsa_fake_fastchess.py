#!/usr/bin/env python3
"""A stand-in for fastchess in tests/spsa.rs: it reads the two engines'
`option.NAME=value` arguments, scores each setting by how close it is to a
known optimum (ALPHA 40, BETA 60), and draws the games' results from that
difference with a generator seeded by its arguments, so that a call made
again gives the same result. It prints the block fastchess ends with."""
import math
import random
import sys

OPTIMUM = {"ALPHA": 40, "BETA": 60}
SCALE = {"ALPHA": 20, "BETA": 40}

args = sys.argv[1:]
engines = []
rounds = srand = None
i = 0
while i < len(args):
    a = args[i]
    if a == "-engine":
        engines.append({})
    elif a.startswith("option.") and engines and "-each" not in args[: i]:
        name, value = a[len("option."):].split("=", 1)
        engines[-1][name] = int(value)
    elif a.startswith("name=") and engines:
        engines[-1]["__name"] = a[len("name="):]
    elif a == "-rounds":
        rounds = int(args[i + 1])
    elif a == "-srand":
        srand = int(args[i + 1])
    i += 1


def strength(opts):
    return -sum(((opts[n] - o) / SCALE[n]) ** 2 for n, o in OPTIMUM.items())


plus, minus = engines
diff = strength(plus) - strength(minus)
p_win = 0.35 / (1 + math.exp(-3 * diff)) + 0.1
p_loss = 0.45 - p_win + 0.1
rng = random.Random(f"{srand}:{sorted(plus.items())}:{sorted(minus.items())}")
w = l = d = 0
for _ in range(2 * rounds):
    x = rng.random()
    if x < p_win:
        w += 1
    elif x < p_win + p_loss:
        l += 1
    else:
        d += 1
print("--------------------------------------------------")
print(f"Results of {plus['__name']} vs {minus['__name']} (fake):")
print("Elo: 0.00 +/- 0.00, nElo: 0.00 +/- 0.00")
print(f"Games: {w + l + d}, Wins: {w}, Losses: {l}, Draws: {d}, Points: {w + d / 2}")
print("--------------------------------------------------")
