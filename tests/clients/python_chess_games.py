#!/usr/bin/env python3
"""Play complete Chess960 games against the chess960 binary the way real
clients do, and check every move the engine sends on python-chess's board.

Clients imitated:
  pychess   python-chess's own chess.engine (engine vs itself and vs random
            moves, with clocks and pondering; analysis stopped with `stop`).
  cutechess the way cutechess-cli and fastchess drive an engine: Shredder-FEN
            start, `position fen <start> moves ...` growing each move,
            king-takes-rook castling, clocks, `go ponder` + `ponderhit` on a
            ponder hit and `stop` on a miss.
  arena     the way Arena is reported to: X-FEN (`KQkq`) start and castling
            sent as the king's two-square move wherever that is unambiguous.
  xfen      inner-rook positions: X-FEN must use the rook's file letter; the
            engine's `d` output is compared with python-chess's X-FEN and
            Shredder-FEN writers and its `go perft 2` with python-chess's
            own move generator.

Every game is played to its end (mate, stalemate, insufficient material,
repetition, 50-move rule) or adjudicated as a draw at --max-plies. A
failure (illegal or malformed move, time forfeit, crash, timeout, protocol
error) is printed and makes the exit status 1. Exit status 0 means all
checks passed; a summary line with the figures is printed last.

Usage:
  python3 tests/clients/python_chess_games.py --engine target/release/chess960 [--quick]
"""

import argparse
import asyncio
import os
import random
import subprocess
import sys
import threading
import time
import queue

import chess
import chess.engine

FAILURES = []
STATS = {
    "games": 0,
    "plies": 0,
    "engine_moves": 0,
    "castles_played": 0,
    "two_square_castles_sent": 0,
    "ponderhits": 0,
    "ponder_misses": 0,
    "stops": 0,
    "xfen_positions": 0,
    "max_move_ms": 0,
    "overruns_within_margin": 0,
}


def fail(msg):
    FAILURES.append(msg)
    print("FAIL: " + msg, flush=True)


def start_board(n):
    board = chess.Board.from_chess960_pos(n)
    board.chess960 = True
    return board


def game_over(board, max_plies):
    return board.is_game_over(claim_draw=True) or len(board.move_stack) >= max_plies


def random_move(rng, board):
    """A random legal move, biased towards castling: castle half the time
    when possible, and mostly develop the pieces standing between king and
    rooks until then (it is castling that this script is about)."""
    moves = list(board.legal_moves)
    castles = [m for m in moves if board.is_castling(m)]
    if castles and rng.random() < 0.5:
        return rng.choice(castles)
    back = 0 if board.turn == chess.WHITE else 7
    developing = [
        m for m in moves
        if chess.square_rank(m.from_square) == back
        and board.piece_type_at(m.from_square) not in (chess.KING, chess.ROOK)
    ]
    if developing and board.has_castling_rights(board.turn) and rng.random() < 0.7:
        return rng.choice(developing)
    return rng.choice(moves)


# --------------------------------------------------------------- raw UCI


class RawEngine:
    """A UCI engine over pipes, with timeouts on every read."""

    def __init__(self, path, name):
        self.name = name
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
        )
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put(raw)
        self.lines.put(None)

    def _read_err(self):
        for raw in iter(self.proc.stderr.readline, b""):
            self.stderr.append(raw.decode("utf-8", "replace").rstrip())

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read(self, timeout):
        try:
            raw = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"{self.name}: no output for {timeout} s")
        if raw is None:
            raise EOFError(f"{self.name}: engine closed stdout (crash?) stderr={self.stderr[-5:]}")
        if not raw.endswith(b"\n") or any(b < 0x20 or b > 0x7E for b in raw[:-1]):
            raise ValueError(f"{self.name}: malformed output line {raw!r}")
        return raw[:-1].decode()

    def expect(self, pred, timeout, what):
        end = time.monotonic() + timeout
        before = []
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: timed out waiting for {what}; got {before[-5:]}")
            line = self.read(left)
            if line.startswith("info string error"):
                raise ValueError(f"{self.name}: engine refused our input: {line}")
            if pred(line):
                return before, line
            before.append(line)

    def handshake(self, chess960=True, ponder=False):
        self.send("uci")
        self.expect(lambda l: l == "uciok", 10, "uciok")
        self.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
        if ponder:
            self.send("setoption name Ponder value true")
        if MOVE_OVERHEAD_MS is not None:
            self.send(f"setoption name Move Overhead value {MOVE_OVERHEAD_MS}")
        self.sync()

    def sync(self):
        self.send("isready")
        return self.expect(lambda l: l == "readyok", 10, "readyok")[0]

    def quit(self):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        try:
            rc = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail(f"{self.name}: did not exit within 5 s of quit")
            return
        if rc != 0:
            fail(f"{self.name}: exit status {rc} after quit; stderr {self.stderr[-5:]}")
        if any("panicked" in l for l in self.stderr):
            fail(f"{self.name}: panic on stderr: {self.stderr}")


def parse_bestmove(line):
    words = line.split()
    if len(words) == 2 and words[0] == "bestmove":
        return words[1], None
    if len(words) == 4 and words[0] == "bestmove" and words[2] == "ponder":
        return words[1], words[3]
    raise ValueError(f"malformed bestmove line {line!r}")


def checked_move(board, text, who):
    """The move `text` on `board` (chess960 encoding), or a failure."""
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        fail(f"{who}: bestmove {text!r} is not UCI syntax in {board.fen()}")
        return None
    if move not in board.legal_moves:
        fail(f"{who}: illegal bestmove {text!r} in {board.fen(shredder=True)}")
        return None
    return move


def two_square_text(board, move):
    """Arena's castling: the king's two-square move where unambiguous."""
    if not board.is_castling(move):
        return move.uci()
    king = move.from_square
    rank = chess.square_rank(king)
    kingside = chess.square_file(move.to_square) > chess.square_file(king)
    dest = chess.square(6 if kingside else 2, rank)
    if dest == king:
        return move.uci()  # the king does not move: only king-takes-rook exists
    ordinary = chess.Move(king, dest)
    if ordinary in board.legal_moves and not board.is_castling(ordinary):
        return move.uci()  # would read as an ordinary king step
    # Our parser and shakmaty read `dest` as the castle; a rook on `dest`
    # with castling rights would make it king-takes-rook anyway.
    return chess.square_name(king) + chess.square_name(dest)


TIME_MARGIN_MS = 0
MOVE_OVERHEAD_MS = None  # None: the engine's default


def over_time(left_ms, who, board):
    """True (and a failure) when the clock fell beyond the margin; an
    overrun within the margin is only counted."""
    if left_ms >= 0:
        return False
    if left_ms >= -TIME_MARGIN_MS:
        STATS["overruns_within_margin"] += 1
        return False
    fail(f"{who}: time forfeit ({left_ms:.0f} ms left) at ply {len(board.move_stack)}")
    return True


class Clock:
    def __init__(self, base_ms, inc_ms):
        self.ms = {chess.WHITE: base_ms, chess.BLACK: base_ms}
        self.inc = inc_ms

    def go_args(self):
        w, b = self.ms[chess.WHITE], self.ms[chess.BLACK]
        return f"wtime {max(1, int(w))} btime {max(1, int(b))} winc {self.inc} binc {self.inc}"

    def spend(self, color, elapsed_ms, who, board):
        STATS["max_move_ms"] = max(STATS["max_move_ms"], int(elapsed_ms))
        if os.environ.get("CLOCK_TRACE"):
            print(f"{who}: {'w' if color else 'b'} had {self.ms[color]:.0f} used {elapsed_ms:.0f}", flush=True)
        self.ms[color] -= elapsed_ms
        if over_time(self.ms[color], who, board):
            return False
        self.ms[color] = max(self.ms[color], 0) + self.inc
        return True


def raw_game(path, n, style, opponent, tc, max_plies, rng):
    """One game driven like cutechess/fastchess (style 'cutechess') or Arena
    (style 'arena'); opponent 'engine' (a second process) or 'random'."""
    board = start_board(n)
    start_fen = board.fen(shredder=(style == "cutechess"))
    if style == "arena" and start_fen.split()[2] != "KQkq":
        fail(f"arena #{n}: X-FEN of a start position should say KQkq: {start_fen}")
    ponder = style == "cutechess"
    engines = {chess.WHITE: RawEngine(path, f"{style}-white#{n}")}
    engines[chess.BLACK] = RawEngine(path, f"{style}-black#{n}") if opponent == "engine" else None
    sent = []  # the move texts as this client sends them
    clock = Clock(*tc)
    pondering = {}  # color -> expected opponent move text
    try:
        for e in engines.values():
            if e:
                e.handshake(chess960=True, ponder=ponder)
                e.send("ucinewgame")
                e.sync()
        while not game_over(board, max_plies):
            color = board.turn
            e = engines[color]
            who = f"{style} #{n} ply {len(board.move_stack)}"
            if e is None:
                move = random_move(rng, board)
            else:
                position = f"position fen {start_fen}" + (" moves " + " ".join(sent) if sent else "")
                t0 = time.monotonic()
                expected = pondering.pop(color, None)
                if expected is not None and sent and sent[-1] == expected:
                    e.send("ponderhit")
                    STATS["ponderhits"] += 1
                else:
                    if expected is not None:
                        # Ponder miss: stop, read (and discard) its bestmove.
                        e.send("stop")
                        e.expect(lambda l: l.startswith("bestmove"), 10, "bestmove after stop")
                        STATS["ponder_misses"] += 1
                        STATS["stops"] += 1
                        t0 = time.monotonic()
                    e.send(position)
                    e.send("go " + clock.go_args())
                _, line = e.expect(lambda l: l.startswith("bestmove"), 30, "bestmove")
                elapsed = (time.monotonic() - t0) * 1000
                best, ponder_move = parse_bestmove(line)
                move = checked_move(board, best, who)
                if move is None:
                    return
                STATS["engine_moves"] += 1
                if not clock.spend(color, elapsed, who, board):
                    return
                # Start pondering on the expected reply, as cutechess does.
                if ponder and ponder_move:
                    after = board.copy()
                    after.push(move)
                    pm = checked_move(after, ponder_move, who + " (ponder move)")
                    if pm is None:
                        return
                    line = f"position fen {start_fen} moves " + " ".join(sent + [move.uci(), ponder_move])
                    e.send(line)
                    e.send("go ponder " + clock.go_args())
                    pondering[color] = ponder_move
            if board.is_castling(move):
                STATS["castles_played"] += 1
            text = move.uci()
            if style == "arena":
                text = two_square_text(board, move)
                if text != move.uci():
                    STATS["two_square_castles_sent"] += 1
            sent.append(text)
            board.push(move)
            STATS["plies"] += 1
        STATS["games"] += 1
    except (TimeoutError, EOFError, ValueError, BrokenPipeError) as ex:
        fail(f"{style} #{n}: {ex}")
    finally:
        for color, e in engines.items():
            if e:
                if color in pondering:
                    try:
                        e.send("stop")
                        e.expect(lambda l: l.startswith("bestmove"), 10, "bestmove after final stop")
                    except Exception as ex:  # noqa: BLE001 - report anything
                        fail(f"{style} #{n}: {ex}")
                e.quit()


def xfen_checks(path, rng):
    """Inner-rook X-FEN letters and perft against python-chess."""
    fens = [
        # White: rooks a1 (no right) and b1 (right): X-FEN must say B, not Q.
        "1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Bh - 0 1",
        # Both sides, inner rooks on both wings.
        "rr2k1rr/8/8/8/8/8/8/RR2K1RR w BGbg - 0 1",
        # Inner rook on the king side only.
        "r3k1rr/pppppp2/8/8/8/8/PPPPPP2/R3K1RR w AGag - 0 1",
        # Outermost rooks: plain KQkq.
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1",
        "1r1k2rr/8/8/8/8/8/8/1R1K2RR w Gg - 0 1",
    ]
    e = RawEngine(path, "xfen")
    try:
        e.handshake(chess960=True)
        for shredder in fens:
            board = chess.Board(shredder, chess960=True)
            xfen = board.fen()
            for text in (xfen, board.fen(shredder=True)):
                e.send(f"position fen {text}")
                lines = e.sync()
                if lines:
                    fail(f"xfen: position fen {text}: {lines}")
                e.send("d")
                d = dict(l.split(": ", 1) for l in e.sync() if ": " in l)
                if d.get("Fen") != xfen:
                    fail(f"xfen: engine X-FEN {d.get('Fen')!r} != python-chess {xfen!r}")
                if d.get("Shredder-FEN") != board.fen(shredder=True):
                    fail(f"xfen: engine Shredder-FEN {d.get('Shredder-FEN')!r} != {board.fen(shredder=True)!r}")
                STATS["xfen_positions"] += 1
            # Perft 2 from python-chess's own generator, and the castling
            # moves python-chess knows must be in the engine's divide.
            want = sum(1 for m in board.legal_moves for _ in _children(board, m))
            e.send("go perft 2")
            before, total = e.expect(lambda l: l.startswith("Nodes searched"), 30, "perft total")
            if total != f"Nodes searched: {want}":
                fail(f"xfen: perft 2 of {shredder}: engine {total!r}, python-chess {want}")
            engine_moves = {l.split(":")[0] for l in before if ": " in l}
            py_moves = {m.uci() for m in board.legal_moves}
            if engine_moves != py_moves:
                fail(f"xfen: divide moves differ for {shredder}: {sorted(engine_moves ^ py_moves)}")
            e.read(10)  # the blank line after the total
    except (TimeoutError, EOFError, ValueError) as ex:
        fail(f"xfen: {ex}")
    finally:
        e.quit()


def _children(board, move):
    board.push(move)
    try:
        return list(board.legal_moves)
    finally:
        board.pop()


# ---------------------------------------------------------- chess.engine


def pychess_game(path, n, opponent, tc, max_plies, rng):
    """A game through python-chess's chess.engine with clocks and pondering."""
    board = start_board(n)
    base, inc = tc[0] / 1000, tc[1] / 1000
    clocks = {chess.WHITE: base, chess.BLACK: base}
    engines = {}
    try:
        engines[chess.WHITE] = chess.engine.SimpleEngine.popen_uci(path, timeout=10)
        engines[chess.BLACK] = chess.engine.SimpleEngine.popen_uci(path, timeout=10) if opponent == "engine" else None
        if MOVE_OVERHEAD_MS is not None:
            for e in engines.values():
                if e:
                    e.configure({"Move Overhead": MOVE_OVERHEAD_MS})
        game_id = object()
        while not game_over(board, max_plies):
            e = engines[board.turn]
            who = f"pychess #{n} ply {len(board.move_stack)}"
            if e is None:
                move = random_move(rng, board)
            else:
                limit = chess.engine.Limit(
                    white_clock=max(0.001, clocks[chess.WHITE]),
                    black_clock=max(0.001, clocks[chess.BLACK]),
                    white_inc=inc,
                    black_inc=inc,
                )
                t0 = time.monotonic()
                result = e.play(board, limit, ponder=True, game=game_id)
                elapsed = time.monotonic() - t0
                STATS["max_move_ms"] = max(STATS["max_move_ms"], int(elapsed * 1000))
                move = result.move
                if move is None or move not in board.legal_moves:
                    fail(f"{who}: illegal or no move {move} in {board.fen(shredder=True)}")
                    return
                if result.ponder is not None:
                    after = board.copy()
                    after.push(move)
                    if result.ponder not in after.legal_moves:
                        fail(f"{who}: illegal ponder move {result.ponder}")
                STATS["engine_moves"] += 1
                if os.environ.get("CLOCK_TRACE"):
                    print(f"{who}: had {clocks[board.turn] * 1000:.0f} used {elapsed * 1000:.0f}", flush=True)
                clocks[board.turn] -= elapsed
                if over_time(clocks[board.turn] * 1000, who, board):
                    return
                clocks[board.turn] = max(clocks[board.turn], 0) + inc
            if board.is_castling(move):
                STATS["castles_played"] += 1
            board.push(move)
            STATS["plies"] += 1
        STATS["games"] += 1
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, asyncio.TimeoutError, TimeoutError) as ex:
        fail(f"pychess #{n}: {type(ex).__name__}: {ex}")
    finally:
        for e in engines.values():
            if e:
                try:
                    e.quit()
                except Exception as ex:  # noqa: BLE001
                    fail(f"pychess #{n}: quit: {ex}")


def pychess_stop(path, starts, rng):
    """`go infinite` through chess.engine's analysis, then `stop`: the
    engine must answer with a legal best move at once."""
    e = chess.engine.SimpleEngine.popen_uci(path, timeout=10)
    try:
        for n in starts:
            board = start_board(n)
            for _ in range(rng.randrange(0, 12)):
                if board.is_game_over():
                    break
                board.push(random_move(rng, board))
            if board.is_game_over():
                continue
            with e.analysis(board) as analysis:
                time.sleep(0.15)
                t0 = time.monotonic()
                analysis.stop()
                best = analysis.wait()
                took = time.monotonic() - t0
            STATS["stops"] += 1
            if best.move is None or best.move not in board.legal_moves:
                fail(f"stop #{n}: illegal best move {best.move} in {board.fen(shredder=True)}")
            if took > 3.0:  # the engine stops at once; slack for a loaded machine
                fail(f"stop #{n}: bestmove came {took:.2f} s after stop")
    finally:
        e.quit()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--quick", action="store_true", help="the cargo test budget (~20 s)")
    ap.add_argument("--games", type=int, default=None, help="games per client style (default 2 quick, 20 full)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--tc", default="1+0.01", help="base+increment in seconds (default 1+0.01)")
    ap.add_argument("--max-plies", type=int, default=None, help="adjudicate a draw after this many plies")
    ap.add_argument("--time-margin", type=int, default=0,
                    help="ms a clock may go below zero before it counts as a forfeit (default 0: strict)")
    ap.add_argument("--move-overhead", type=int, default=None,
                    help="set the engine's Move Overhead option (ms); default: the engine's own default")
    args = ap.parse_args()
    global TIME_MARGIN_MS, MOVE_OVERHEAD_MS
    TIME_MARGIN_MS = args.time_margin
    MOVE_OVERHEAD_MS = args.move_overhead

    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    base, inc = args.tc.split("+")
    tc = (int(float(base) * 1000), int(float(inc) * 1000))
    games = args.games if args.games is not None else (2 if args.quick else 20)
    max_plies = args.max_plies if args.max_plies is not None else (90 if args.quick else 300)
    path = os.path.abspath(args.engine)
    print(f"python-chess {chess.__version__}, engine {path}, seed {seed}, tc {args.tc}, "
          f"{games} games per style, max plies {max_plies}, time margin {TIME_MARGIN_MS} ms, "
          f"Move Overhead {MOVE_OVERHEAD_MS if MOVE_OVERHEAD_MS is not None else 'default'}", flush=True)

    t0 = time.monotonic()
    xfen_checks(path, rng)
    pychess_stop(path, [rng.randrange(960) for _ in range(3 if args.quick else 20)], rng)
    for i in range(games):
        n = rng.randrange(960)
        opponent = "engine" if i % 2 == 0 else "random"
        pychess_game(path, n, opponent, tc, max_plies, rng)
        raw_game(path, rng.randrange(960), "cutechess", "engine" if i % 2 == 1 else "random", tc, max_plies, rng)
        raw_game(path, rng.randrange(960), "arena", opponent, tc, max_plies, rng)
    STATS["seconds"] = round(time.monotonic() - t0, 1)
    STATS["failures"] = len(FAILURES)
    print("SUMMARY " + " ".join(f"{k}={v}" for k, v in STATS.items()) + f" seed={seed}", flush=True)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
