#!/usr/bin/env python3
"""Chess960 games played by python-chess, as a GUI, against an engine command
(in the tests: `chess960 wrap ... -- ENGINE`).

Usage: wrap_games.py GAMES PLIES SECONDS -- COMMAND...

Each game starts from a different Chess960 start and lasts at most PLIES
plies of SECONDS each; the engine plays both sides. python-chess checks every
move: an illegal `bestmove` raises, and an unreadable move in an `info pv`
line is logged as an error by python-chess, which counts here as a failure.
Prints one JSON object: games, plies (in all), ended (how many games ended by
the rules before their PLIES: a mate or a draw, which a strong move among weak
ones can bring early) and errors. Exit status 1 on any error.
"""

import json
import logging
import sys

import chess
import chess.engine


class Count(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def main():
    games, plies, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    command = sys.argv[sys.argv.index("--") + 1:]
    counter = Count()
    logging.getLogger("chess.engine").addHandler(counter)
    played = 0
    ended = 0
    errors = []
    for g in range(games):
        board = chess.Board.from_chess960_pos((g * 389 + 17) % 960)
        try:
            with chess.engine.SimpleEngine.popen_uci(command) as engine:
                for _ in range(plies):
                    if board.is_game_over():
                        ended += 1
                        break
                    result = engine.play(board, chess.engine.Limit(time=seconds), info=chess.engine.INFO_PV)
                    if result.move is None or result.move not in board.legal_moves:
                        errors.append(f"game {g}: no legal move ({result.move})")
                        break
                    board.push(result.move)
                    played += 1
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            errors.append(f"game {g}: {e}")
    errors.extend(counter.messages)
    print(json.dumps({"games": games, "plies": played, "ended": ended, "errors": errors}))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
