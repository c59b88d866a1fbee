#!/usr/bin/env python3
"""A UCI engine with a deliberate Chess960 castling bug, for testing
`chess960 perft --engine`.

It answers `uci`, `isready`, `position` and `go perft N` (a Stockfish-style
divide) with python-chess, except that its move generator drops every castle
whose rook would cross or land on a square the opponent attacks: a rule that
does not exist (only the king's path must be safe). Everything else is
python-chess's legal move generation. Usage:
buggy_perft_engine.py [twice|total|stale|figures]

With `twice` it drops nothing but lists every castle twice in its divide (a
generator that makes a castle once per encoding, or once per rook search).
With `total` it drops nothing and counts every move right, but its
`Nodes searched` adds each castle's count twice (a total summed apart from
the lines). With `stale` it drops nothing, but a castle's line in a divide
deeper than 1 is one more than its count (a count that differs from the
engine's own divide after the move, as a stale hash entry gives). With
`figures` it drops nothing and counts right, but prints figures of its own
around the divide, as many engines do: `Time (ms): T` before its total and
`nps: N` after it.
"""
import sys

import chess


def rook_path_attacked(board, move):
    if not board.is_castling(move):
        return False
    rank = chess.square_rank(move.from_square)
    rook_from = move.to_square
    rook_to = chess.square(5 if board.is_kingside_castling(move) else 3, rank)
    lo, hi = sorted((chess.square_file(rook_from), chess.square_file(rook_to)))
    squares = [chess.square(f, rank) for f in range(lo, hi + 1) if chess.square(f, rank) != rook_from]
    return any(board.is_attacked_by(not board.turn, sq) for sq in squares)


MODE = sys.argv[1] if len(sys.argv) > 1 else ""
TWICE = MODE == "twice"


def moves(board):
    if MODE in ("twice", "total", "stale", "figures"):
        return list(board.legal_moves)
    return [m for m in board.legal_moves if not rook_path_attacked(board, m)]


def perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return len(moves(board))
    total = 0
    for m in moves(board):
        board.push(m)
        total += perft(board, depth - 1)
        board.pop()
    return total


def main():
    board = chess.Board(chess960=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            print("id name buggy-castling")
            print("option name UCI_Chess960 type check default false")
            print("uciok")
        elif cmd == "isready":
            print("readyok")
        elif cmd == "position":
            if words[1] == "startpos":
                board = chess.Board(chess960=True)
                rest = words[2:]
            else:
                end = words.index("moves") if "moves" in words else len(words)
                board = chess.Board(" ".join(words[2:end]), chess960=True)
                rest = words[end:]
            if rest and rest[0] == "moves":
                for m in rest[1:]:
                    board.push_uci(m)
        elif cmd == "go" and len(words) >= 3 and words[1] == "perft":
            depth = int(words[2])
            total = 0
            for m in moves(board):
                castle = board.is_castling(m)
                board.push(m)
                n = perft(board, depth - 1)
                board.pop()
                total += n
                if MODE == "total" and castle:
                    total += n
                if MODE == "stale" and castle and depth > 1:
                    n += 1
                print(f"{m.uci()}: {n}")
                if TWICE and board.is_castling(m):
                    print(f"{m.uci()}: {n}")
            print()
            if MODE == "figures":
                print("Time (ms): 1")
            print(f"Nodes searched: {total}")
            if MODE == "figures":
                print(f"nps: {total * 1000}")
        elif cmd == "quit":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
