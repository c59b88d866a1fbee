#!/usr/bin/env python3
"""A UCI engine that speaks one bad Chess960 dialect or fails in one way.

The front-end (`chess960 wrap`) is tested against it: whatever this engine
does, the GUI in front must get only legal moves. Moves are chosen by
python-chess (castling first when it is legal, so that castling notation is
exercised, otherwise a seeded random legal move).

Modes:
  king     writes castles as the king's destination (b1g1), as Clover 8.1 did
  oo       writes castles as O-O / O-O-O and reads only X-FEN: a Shredder
           castling letter where X-FEN has K or Q makes it exit, as Alfil did
  xfen     reads only X-FEN (exits on Shredder letters), writes king-takes-rook
  exit     exits without a word at its 3rd go
  illegal  answers its 3rd go with a move that is not legal
  hang     never answers its 3rd go, not even after stop
  hang960  as hang, and needs UCI_Chess960 set before a Chess960 position, as UCI asks: a
           Shredder castling letter with the option unset is misread, and the next go
           answered with 0000 (Stockfish without the option drops the moves from the
           first king-takes-rook castle on)
  deaf     never answers isready
  slow     exits at its 3rd go like `exit`; every later process (a restart) takes
           3 s to start (or SECONDS): `slow MARKER [SECONDS]`, the file MARKER is made
           by the first one
  early    answers `go ponder` and `go infinite` at once instead of at `stop` or `ponderhit`
  flood    at every go, writes info lines without pause and never answers
  late     answers its 3rd go 0.5 s late, whatever the limit (a stop waits too)
  crash    exits when it is sent `setoption name Crash`, at every start (as Debian's
           Ethereal 12 does on SyzygyPath)
  chatty   before each readyok, writes an info line with a pv and an info string,
           outside any search (as a search answered by the front-end, whose go
           reached a restarted engine, does)
  idlestop answers a `stop` with no search running with `bestmove` and the move it would
           play in its last position (as some engines do), 0.2 s after it (so that the
           GUI's next `go` is on its way by then)
  ok       none of the above (king-takes-rook, reads everything)

In every other mode a `go ponder` or `go infinite` keeps its bestmove until `stop` or `ponderhit`,
as UCI asks: these engines fail only in the ways above.
"""

import random
import sys
import time

import chess


def castle_side(board, move):
    if board.is_kingside_castling(move):
        return "O-O"
    if board.is_queenside_castling(move):
        return "O-O-O"
    return None


def king_destination(board, move):
    side = castle_side(board, move)
    rank = chess.square_rank(move.from_square)
    file = 6 if side == "O-O" else 2
    return chess.square_name(move.from_square) + chess.square_name(chess.square(file, rank))


def write_move(board, move, mode):
    side = castle_side(board, move)
    if side and mode == "oo":
        return side
    if side and mode == "king":
        return king_destination(board, move)
    return board.uci(move, chess960=True)


def read_move(board, text):
    """A move's squares are the plain move first (as python-chess and
    shakmaty read them); only then a castle word or a king's destination."""
    try:
        return board.parse_uci(text)
    except ValueError:
        pass
    for move in board.legal_moves:
        side = castle_side(board, move)
        if side and text in (side, king_destination(board, move)):
            return move
    raise ValueError(f"unreadable move {text}")


def read_fen(words, mode):
    fen = " ".join(words)
    board = chess.Board(fen, chess960=True)
    if mode in ("oo", "xfen"):
        field = words[2] if len(words) > 2 else "-"
        if field != board.castling_xfen():
            sys.exit(3)
    return board


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    if mode == "slow":
        marker = sys.argv[2]
        try:
            open(marker, "x").close()
        except FileExistsError:
            time.sleep(float(sys.argv[3]) if len(sys.argv) > 3 else 3)
    rng = random.Random(7)
    board = chess.Board(chess960=True)
    gos = 0
    chess960 = False
    misread = False
    held = None  # the bestmove of a ponder or infinite search, until stop or ponderhit
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            print(f"id name faulty-{mode}")
            print("id author the chess960 tests")
            print("option name UCI_Chess960 type check default false")
            print("option name Hash type spin default 16 min 1 max 1024")
            print("option name Ponder type check default false")
            print("uciok", flush=True)
        elif cmd == "setoption" and mode == "crash" and words[1:3] == ["name", "Crash"]:
            sys.exit(4)
        elif cmd == "setoption" and words[1:3] == ["name", "UCI_Chess960"]:
            chess960 = words[3:5] == ["value", "true"]
        elif cmd == "isready" and mode == "deaf":
            continue
        elif cmd == "isready":
            if mode == "chatty":
                print("info depth 1 score cp 0 nodes 1 pv a2a3")
                print("info string chatty is ready")
                print("Chatty says: ready when you are.")
            print("readyok", flush=True)
        elif cmd == "position":
            misread = False
            rest = words[1:]
            moves = []
            if "moves" in rest:
                i = rest.index("moves")
                rest, moves = rest[:i], rest[i + 1:]
            if rest and rest[0] == "fen":
                board = read_fen(rest[1:], mode)
                castling = rest[3] if len(rest) > 3 else "-"
                misread = mode == "hang960" and not chess960 and any(c not in "KQkq-" for c in castling)
            else:
                board = chess.Board(chess960=True)
            for m in moves:
                board.push(read_move(board, m))
        elif cmd == "go":
            gos += 1
            if mode == "flood":
                burst = "info depth 1 score cp 0 nodes 1\n" * 4096
                while True:
                    sys.stdout.write(burst)
                    sys.stdout.flush()
            if gos == 3 and mode in ("exit", "slow"):
                sys.exit(0)
            if gos == 3 and mode in ("hang", "hang960"):
                continue
            if misread:
                print("bestmove 0000", flush=True)
                continue
            if gos == 3 and mode == "late":
                time.sleep(0.5)
            legal = list(board.legal_moves)
            if not legal:
                print("bestmove 0000", flush=True)
                continue
            if gos == 3 and mode == "illegal":
                print("bestmove a1a1", flush=True)
                continue
            castles = [m for m in legal if castle_side(board, m)]
            move = castles[0] if castles else rng.choice(legal)
            text = write_move(board, move, mode)
            print(f"info depth 1 score cp 0 nodes 1 pv {text}", flush=True)
            if ("ponder" in words[1:] or "infinite" in words[1:]) and mode != "early":
                held = f"bestmove {text}"
            else:
                print(f"bestmove {text}", flush=True)
        elif cmd in ("stop", "ponderhit"):
            if held is not None:
                print(held, flush=True)
                held = None
            elif cmd == "stop" and mode == "idlestop":
                time.sleep(0.2)
                legal = list(board.legal_moves)
                text = write_move(board, legal[0], mode) if legal else "0000"
                print(f"info depth 1 score cp 0 nodes 1 pv {text}")
                print(f"bestmove {text}", flush=True)
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
