#!/usr/bin/env python3
"""Extract training positions from self-play PGN.

Writes one line per position, `FEN;result;game`, where FEN is Shredder-FEN,
result is the game result from White's point of view (1, 0.5, 0) and game
is the game's number in the file (used for the train/validation split).
Skipped: the first SKIP plies of each game, positions in check, positions
where the engine to move reported a mate score, and games without a result.
Quietness is checked later by `tune quiet`.

usage: extract.py GAMES.pgn OUT.txt [--skip 8]
"""
import argparse
import re

import chess
import chess.pgn

RESULTS = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}
MATE = re.compile(r"^[+-]?M\d+")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("out")
    ap.add_argument("--skip", type=int, default=8)
    a = ap.parse_args()
    games = positions = 0
    with open(a.pgn) as f, open(a.out, "w") as out:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            number = games
            games += 1
            result = RESULTS.get(game.headers.get("Result", "*"))
            if result is None:
                continue
            board = game.board()
            if not board.chess960:
                raise SystemExit(f"game {number}: not a Chess960 game")
            for ply, node in enumerate(game.mainline()):
                # node.comment is the mover's "score/depth time" for node.move.
                if (
                    ply >= a.skip
                    and not board.is_check()
                    and not MATE.match(node.comment.strip())
                ):
                    out.write(f"{board.fen(shredder=True)};{result};{number}\n")
                    positions += 1
                board.push(node.move)
    print(f"extract: {positions} positions from {games} games")


if __name__ == "__main__":
    main()
