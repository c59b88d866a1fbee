#!/usr/bin/env bash
# match.sh OUTDIR GAMES SECONDS INC FIRST SECOND
#
# Plays GAMES Chess960 games in XBoard (Debian's xboard, headless under Xvfb, -noGUI) between two
# UCI engines, each behind one of XBoard's UCI adapters, and checks the games.
#
# FIRST, SECOND: "ADAPTER ENGINE [ARGS...]", ADAPTER one of
#   polyglot   Debian's polyglot (passes UCI through; Chess960 when the engine offers UCI_Chess960)
#   uci2wb     Debian's uci2wb (UCI_Chess960 set, castles king-takes-rook)
#   uci2wb-f   uci2wb -f, the Arena960 dialect: the engine's UCI_Chess960 option line is hidden
#              from uci2wb, so that it sends and reads castles as O-O / O-O-O
# e.g.  tools/xboard/match.sh xb-games 2 10 0.1 "uci2wb-f target/release/chess960" \
#         "polyglot target/release/chess960 wrap -- /usr/games/stockfish"
#
# Writes OUTDIR/games.pgn (XBoard's PGN), OUTDIR/debug.txt (every line between XBoard and the
# adapters), OUTDIR/first.sh and OUTDIR/second.sh (the engine commands), and prints the checker's
# JSON summary (tools/xboard/check_pgn.py: python-chess replays every game as Chess960; a game
# that is short of GAMES, has an illegal move, or ends by time, forfeit or a crash counts as bad).
# Exit 0 when every game is good, 1 otherwise, 2 on usage errors.
#
# PONDER=true lets the engines ponder (off by default, see below).
# TIMEOUT=SECONDS ends XBoard then (default: 2 * SECONDS + 120 a game, and 60 more): an adapter
# that hangs (an engine it waits on forever) fails the run instead of holding it up for good.
# Starts: XBoard draws a Chess960 start for every game; with POSITIONS=FILE (one FEN per line)
# the games start from the file's positions instead, each played twice with colours reversed.
#
# Needs xboard, xvfb-run, python-chess and the adapters named (apt-get install xboard polyglot
# uci2wb xvfb; pip install chess). XBoard lives in /usr/games on Debian; it is added to PATH.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -ne 6 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2
fi
OUT="$1"; GAMES="$2"; SECS="$3"; INC="$4"; FIRST="$5"; SECOND="$6"
case "$GAMES" in ''|*[!0-9]*) echo "GAMES must be a whole number: '$GAMES'" >&2; exit 2;; esac
case "$SECS" in ''|*[!0-9]*) echo "SECONDS must be a whole number: '$SECS'" >&2; exit 2;; esac
export PATH="$PATH:/usr/games"
for tool in xboard xvfb-run python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool not found (apt-get install xboard polyglot uci2wb xvfb)" >&2; exit 1; }
done
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
rm -f "$OUT/games.pgn" "$OUT/debug.txt"

# Writes the engine script $OUT/$2.sh for spec $1 and prints XBoard's engine command for it.
adapter() {
  local spec="$1" name="$2" kind cmd bin script
  kind="${spec%% *}"; cmd="${spec#* }"
  [ "$kind" != "$spec" ] || { echo "engine spec '$spec' names no engine" >&2; exit 2; }
  bin="${cmd%% *}"
  if [ -x "$bin" ] && [ "${bin#*/}" != "$bin" ]; then
    cmd="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")${cmd:${#bin}}"
  fi
  script="$OUT/$name.sh"
  case "$kind" in
    polyglot|uci2wb) printf '#!/bin/sh\nexec %s\n' "$cmd" > "$script" ;;
    uci2wb-f) printf '#!/bin/sh\n%s | grep --line-buffered -v "^option name UCI_Chess960 type"\n' "$cmd" > "$script" ;;
    *) echo "unknown adapter '$kind' (polyglot, uci2wb, uci2wb-f)" >&2; exit 2 ;;
  esac
  chmod +x "$script"
  case "$kind" in
    polyglot) command -v polyglot >/dev/null || { echo "polyglot not found" >&2; exit 1; }
              echo "polyglot -noini -ec $script" ;;
    uci2wb) command -v uci2wb >/dev/null || { echo "uci2wb not found" >&2; exit 1; }
            echo "uci2wb $script" ;;
    uci2wb-f) command -v uci2wb >/dev/null || { echo "uci2wb not found" >&2; exit 1; }
              echo "uci2wb -f $script" ;;
  esac
}
FCP="$(adapter "$FIRST" first)"
SCP="$(adapter "$SECOND" second)"

START=()
if [ -n "${POSITIONS:-}" ]; then
  [ -r "$POSITIONS" ] || { echo "cannot read POSITIONS file '$POSITIONS'" >&2; exit 2; }
  START=(-lpf "$(cd "$(dirname "$POSITIONS")" && pwd)/$(basename "$POSITIONS")" -lpi -2)
fi

# HOME points into OUT so that no settings file of the user is read or written.
# Pondering is off unless PONDER=true: through uci2wb on a loaded machine, pondering games now and
# then lost an engine's own last move from the position the adapter sent it (XBoard then forfeits
# the engine's next move), a fault of the adapter's threads, not of the engines.
HOME="$OUT" timeout -k 10 "${TIMEOUT:-$(( GAMES * (2 * SECS + 120) + 60 ))}" \
  xvfb-run -a xboard -noGUI -variant fischerandom -mg "$GAMES" -tc "0:$SECS" -inc "$INC" "${START[@]}" \
  -ponderNextMove "${PONDER:-false}" \
  -fcp "$FCP" -fd "$OUT" -scp "$SCP" -sd "$OUT" -sgf "$OUT/games.pgn" -xexit -autoCallFlag true \
  -saveSettingsOnExit false -debug -nameOfDebugFile "$OUT/debug.txt" > "$OUT/xboard.out" 2>&1 || true
grep -h "final score" "$OUT/xboard.out" >&2 || true
python3 "$HERE/check_pgn.py" "$OUT/games.pgn" "$GAMES"
