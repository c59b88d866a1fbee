#!/usr/bin/env python3
"""check_pgn.py PGN [GAMES]: checks the Chess960 games a GUI or match runner saved.

Written for XBoard's PGN, read as well for fastchess's and cutechess-cli's. python-chess replays
every game from its FEN tag as Chess960 (the Variant tag says fischerandom or Chess960). A game
is bad when a move cannot be replayed, when it has no result, when its closing comment says it
ended by time, an illegal move, a forfeit, a crash or an engine that went away, or when a
Termination tag says anything but "normal". With GAMES, fewer games than that is bad too. Prints one JSON summary:
games, plies, castles (O-O and O-O-O played), results, the closing comments, and the bad games.
Exit 0 when nothing is bad, 1 otherwise.
"""

import collections
import io
import json
import re
import sys

import chess.pgn

# Closing comments of games that did not end by the rules of chess on the board.
BAD_END = re.compile(
    r"time|illegal|forfeit|crash|disconnect|exit|terminat|false|abort|stall|unknown",
    re.IGNORECASE,
)


def closing_comments(text):
    """The comment right before each game's result token, in file order."""
    ends = []
    for block in re.split(r"\n(?=\[Event )", text):
        m = re.search(r"\{([^{}]*)\}\s*(1-0|0-1|1/2-1/2|\*)\s*$", block.strip())
        end = m.group(1).strip() if m else ""
        # fastchess puts the last move's score and time first: "+M1/245 0.012s, White mates".
        ends.append(re.sub(r"^[^,]*\d+s, ", "", end))
    return ends


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = sys.argv[1]
    want = int(sys.argv[2]) if len(sys.argv) == 3 else None
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as err:
        print(json.dumps({"games": 0, "bad": [f"cannot read {path}: {err}"]}))
        return 1
    ends = closing_comments(text)
    games = plies = 0
    castles = collections.Counter()
    results = collections.Counter()
    comments = collections.Counter()
    bad = []
    pgn = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(pgn)
        if game is None:
            break
        games += 1
        board = game.board()
        result = game.headers.get("Result", "*")
        end = ends[games - 1] if games - 1 < len(ends) else ""
        results[result] += 1
        comments[end] += 1
        if not board.chess960:
            bad.append(f"game {games}: not read as Chess960 (Variant tag {game.headers.get('Variant')!r})")
        for err in game.errors:
            bad.append(f"game {games}: {err}")
        for move in game.mainline_moves():
            if board.is_kingside_castling(move):
                castles["O-O"] += 1
            elif board.is_queenside_castling(move):
                castles["O-O-O"] += 1
            board.push(move)
            plies += 1
        if result not in ("1-0", "0-1", "1/2-1/2"):
            bad.append(f"game {games}: no result ({result}, {end!r})")
        elif BAD_END.search(end):
            bad.append(f"game {games}: ended '{end}' ({result})")
        termination = game.headers.get("Termination", "normal")
        if termination != "normal":
            bad.append(f"game {games}: Termination {termination!r}")
    if want is not None and games < want:
        bad.append(f"{games} of {want} games were saved")
    print(json.dumps({
        "games": games,
        "plies": plies,
        "castles": dict(castles),
        "results": dict(results),
        "endings": dict(comments),
        "bad": bad,
    }))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
