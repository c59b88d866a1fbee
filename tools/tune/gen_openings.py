#!/usr/bin/env python3
"""Write random Chess960 openings as EPD for the self-play games.

Each opening is a Chess960 start position chosen at random (all 960 are
equally likely), followed by PLIES uniformly random legal moves, so that
deterministic fixed-node self-play still yields distinct games. Positions
where the game is already over are redrawn.

With --dfrc-share F about that share of the openings start from a Double
Fischer Random position instead (each side its own random back rank of the
960, castling rights for both sides' rooks).

usage: gen_openings.py OUT.epd --count N --plies P --seed S [--dfrc-share F]
"""
import argparse
import random
import sys

import chess


# See `stale` in main.
MAX_STALE_DRAWS = 100_000


def dfrc_start(white, black):
    """The Double Fischer Random start with White's back rank of Chess960
    start `white` and Black's of start `black`."""
    w = chess.Board.from_chess960_pos(white)
    b = chess.Board.from_chess960_pos(black)
    board = w.copy()
    for f in range(8):
        board.set_piece_at(chess.square(f, 7), b.piece_at(chess.square(f, 7)))
    # Castling rights: every rook on its own back rank (two per side).
    board.castling_rights = w.castling_rights & chess.BB_RANK_1 | b.castling_rights & chess.BB_RANK_8
    board.chess960 = True
    return board


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--plies", type=int, default=6)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--dfrc-share", type=float, default=0.0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seen = set()
    # Draws in a row that gave nothing new: with few plies (none: at most 960 starts, or 960 * 960
    # with DFRC) there may not be COUNT distinct openings, and the loop would never end. Counted
    # only, so the openings drawn are those of the recipe either way.
    stale = 0
    with open(a.out, "w") as f:
        while len(seen) < a.count:
            if stale >= MAX_STALE_DRAWS:
                sys.exit(
                    f"gen_openings: only {len(seen)} distinct openings found of the {a.count} asked "
                    f"for ({MAX_STALE_DRAWS} draws in a row gave none new): more --plies or a smaller --count"
                )
            stale += 1
            if rng.random() < a.dfrc_share:
                board = dfrc_start(rng.randrange(960), rng.randrange(960))
            else:
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
            stale = 0
            seen.add(epd)
            f.write(epd + "\n")


if __name__ == "__main__":
    main()
