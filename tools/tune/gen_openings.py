#!/usr/bin/env python3
"""Write random Chess960 openings as EPD for the self-play games.

Each opening is a Chess960 start position chosen at random (all 960 are
equally likely), followed by PLIES uniformly random legal moves, so that
deterministic fixed-node self-play still yields distinct games. Positions
where the game is already over are redrawn.

usage: gen_openings.py OUT.epd --count N --plies P --seed S
"""
import argparse
import random

import chess


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--plies", type=int, default=6)
    ap.add_argument("--seed", type=int, required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seen = set()
    with open(a.out, "w") as f:
        while len(seen) < a.count:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            for _ in range(a.plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if board.is_game_over():
                continue
            epd = board.epd(shredder=True)
            if epd in seen:
                continue
            seen.add(epd)
            f.write(epd + "\n")


if __name__ == "__main__":
    main()
