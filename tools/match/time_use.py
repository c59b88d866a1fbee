#!/usr/bin/env python3
"""How much of its clock each engine used, from a fastchess PGN.

usage: time_use.py GAMES.pgn BASE_SECONDS INCREMENT_SECONDS

fastchess writes each move's thinking time in its comment ("{+0.31/12 0.087s}").
The clock is rebuilt from those times (start at BASE, minus each move's time,
plus INCREMENT after it), and for each engine the script prints the games it
played, the mean share of the clock it used over a game (time spent divided by
BASE + INCREMENT * its moves), the median and the lowest of its per-game
lowest clock, and its mean number of moves. Needs python-chess.
"""
import re
import statistics
import sys

import chess
import chess.pgn

TIME = re.compile(r"([\d.]+)s")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2])
    path, base, inc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    stats = {}
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            names = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
            used = {chess.WHITE: 0.0, chess.BLACK: 0.0}
            moves = {chess.WHITE: 0, chess.BLACK: 0}
            clock = {chess.WHITE: base, chess.BLACK: base}
            lowest = {chess.WHITE: base, chess.BLACK: base}
            for node in game.mainline():
                m = TIME.search(node.comment or "")
                spent = float(m.group(1)) if m else 0.0
                side = not node.board().turn  # the side that made this move
                # The lowest point is before the increment comes: a move that spent the whole
                # clock left 0, not the increment.
                clock[side] -= spent
                lowest[side] = min(lowest[side], clock[side])
                clock[side] += inc
                used[side] += spent
                moves[side] += 1
            for side in (chess.WHITE, chess.BLACK):
                s = stats.setdefault(names[side], {"share": [], "lowest": [], "moves": []})
                s["share"].append(used[side] / (base + inc * moves[side]))
                s["lowest"].append(lowest[side])
                s["moves"].append(moves[side])
    for name, s in stats.items():
        print(
            f"{name}: {len(s['share'])} games, mean share of the clock used "
            f"{statistics.mean(s['share']):.3f}, lowest clock median "
            f"{statistics.median(s['lowest']):.3f} s, min {min(s['lowest']):.3f} s, "
            f"mean moves {statistics.mean(s['moves']):.1f}"
        )


if __name__ == "__main__":
    main()
