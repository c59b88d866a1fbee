#!/usr/bin/env python3
"""Write perft/dfrc.perft: perft counts of random Double Fischer Random starts,
counted by two generators that share no code with chess960: Stockfish
(`go perft`, UCI_Chess960) and python-chess.

Usage: gen_dfrc_perft.py OUT COUNT SEED STOCKFISH [--sf-depth 5] [--py-depth 4]
                          [--py-deep N]

The DFRC index is white + 960 * black (Scharnagl numbers); python-chess builds
each side's back rank from its own Chess960 numbering
(chess.Board.from_chess960_pos), independently of chess960's code. Every
depth up to --py-depth is counted by both generators and must agree; depths
above it up to --sf-depth are Stockfish's alone, except for the first
--py-deep positions, where python-chess counts --sf-depth too.
"""
import argparse
import random
import subprocess
import sys

import chess


def dfrc_board(n):
    white = chess.Board.from_chess960_pos(n % 960)
    black = chess.Board.from_chess960_pos(n // 960)
    board = chess.Board(None, chess960=True)
    for f in range(8):
        board.set_piece_at(chess.square(f, 0), white.piece_at(chess.square(f, 0)))
        board.set_piece_at(chess.square(f, 1), chess.Piece(chess.PAWN, chess.WHITE))
        board.set_piece_at(chess.square(f, 6), chess.Piece(chess.PAWN, chess.BLACK))
        board.set_piece_at(chess.square(f, 7), black.piece_at(chess.square(f, 7)))
    board.castling_rights = board.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
    board.turn = chess.WHITE
    assert board.is_valid(), board.status()
    return board


def py_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += py_perft(board, depth - 1)
        board.pop()
    return total


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Chess960 value true")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("stockfish exited")
            if line.startswith(prefix):
                return line.strip()

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.until("Nodes searched").split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("count", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("stockfish")
    ap.add_argument("--sf-depth", type=int, default=5)
    ap.add_argument("--py-depth", type=int, default=4)
    ap.add_argument("--py-deep", type=int, default=0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    numbers = [rng.randrange(960 * 960) for _ in range(a.count)]
    sf = Stockfish(a.stockfish)
    with open(a.out, "w") as out:
        out.write("# Double Fischer Random perft (format: id / epd / perft DEPTH NODES).\n")
        out.write(f"# {a.count} starts drawn by Python's random.Random({a.seed}).randrange(921600);\n")
        out.write("# id dfrc-N: N = white + 960 * black (Scharnagl numbers); FEN castling in Shredder-FEN.\n")
        out.write(f"# Counted by Stockfish 15.1 (go perft, UCI_Chess960) to depth {a.sf_depth} and by\n")
        out.write(f"# python-chess {chess.__version__} to depth {a.py_depth} (depth {a.sf_depth} for the first {a.py_deep}); where both counted they agree.\n")
        out.write("# Written by tools/perft/gen_dfrc_perft.py.\n")
        for i, n in enumerate(numbers):
            board = dfrc_board(n)
            fen = board.fen(shredder=True)
            epd = " ".join(fen.split()[:4])
            out.write(f"\nid dfrc-{n}\nepd {epd}\n")
            py_max = a.sf_depth if i < a.py_deep else a.py_depth
            for d in range(1, a.sf_depth + 1):
                s = sf.perft(fen, d)
                if d <= py_max:
                    p = py_perft(board, d)
                    if p != s:
                        sys.exit(f"dfrc {n} depth {d}: stockfish {s}, python-chess {p}")
                out.write(f"perft {d} {s}\n")
            out.flush()
            print(f"{i + 1}/{a.count} dfrc {n}", file=sys.stderr)


if __name__ == "__main__":
    main()
