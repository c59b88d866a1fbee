#!/usr/bin/env bash
# ethereal.sh ENGINE GAMES
#
# Chess960 match of ENGINE against Ethereal 12 (Debian package ethereal-chess, full
# strength, default options), with the settings of stockfish.sh: fastchess
# -variant fischerandom, 5+0.05 s, random starts from the 960-position EPD, each start
# played with both colours. Prints fastchess's result block and how games ended.
#
# Environment: FASTCHESS (required), ETHEREAL=/usr/games/ethereal-chess, TC=5+0.05,
#   CONCURRENCY=1, SEED=<srand seed; default the time, printed>, EPD=<960-start EPD in
#   Shredder-FEN; made with python-chess if absent>, OUTDIR=<directory for the PGN and the log;
#   default a new folder under $TMPDIR/matches>, TIME_LIMIT=<seconds>: stop the match
#   then (for a machine lent for a fixed time; the games finished by then are in the log, and
#   those still being played are logged as "disconnects": leave them out of the count).
# Exit status: fastchess's (0 for a whole match or one TIME_LIMIT stopped); any other is said
# on stderr, with the results printed so far.
set -euo pipefail
if [ $# -lt 2 ]; then sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENGINE="$(realpath "$1")"; GAMES="$2"
ETHEREAL="${ETHEREAL:-/usr/games/ethereal-chess}"
TC="${TC:-5+0.05}"; CONCURRENCY="${CONCURRENCY:-1}"; SEED="${SEED:-$(date +%s)}"
# Not stockfish.sh's default file: that one is written in X-FEN, this one in Shredder-FEN, and
# whichever ran first would decide the notation of both.
EPD="${EPD:-${TMPDIR:-/tmp}/chess960_all_shredder.epd}"
mkdir -p "${TMPDIR:-/tmp}/matches"
OUTDIR="${OUTDIR:-$(mktemp -d "${TMPDIR:-/tmp}/matches/$(date +%Y%m%d_%H%M%S)_$(basename "$ENGINE")_vs_ethereal.XXXXXX")}"
[ -x "${FASTCHESS:-}" ] || { echo "set FASTCHESS=/path/to/fastchess" >&2; exit 1; }
[ -x "$ETHEREAL" ] || { echo "Ethereal not found at $ETHEREAL (apt-get install ethereal-chess)" >&2; exit 1; }
# Written atomically by the generator: two runs may make it at once.
[ -f "$EPD" ] || python3 "$HERE/gen_chess960_epd.py" "$EPD" --shredder
mkdir -p "$OUTDIR"
echo "# $(date -Is) $(basename "$ENGINE") vs Ethereal, tc=$TC, games=$(( (GAMES + 1) / 2 * 2 )), seed=$SEED; out: $OUTDIR"
STOP=()
[ -n "${TIME_LIMIT:-}" ] && STOP=(timeout -s INT "$TIME_LIMIT")
# fastchess's status is kept: a match an engine crash cut short is said so, and exits non-zero.
rc=0
"${STOP[@]}" "$FASTCHESS" \
  -engine cmd="$ENGINE" name=chess960 \
  -engine cmd="$ETHEREAL" name=ethereal12 \
  -each tc="$TC" -variant fischerandom \
  -openings file="$EPD" format=epd order=random -srand "$SEED" \
  -rounds $(( (GAMES + 1) / 2 )) -games 2 -concurrency "$CONCURRENCY" \
  -ratinginterval 0 -pgnout file="$OUTDIR/games.pgn" \
  -config outname="$OUTDIR/config.json" > "$OUTDIR/fastchess.out" 2>&1 || rc=$?
awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"} END{printf "%s", buf}' "$OUTDIR/fastchess.out"
grep -o '^Finished game [0-9]* ([^)]*): [^ ]* {[^}]*}' "$OUTDIR/fastchess.out" \
  | sed 's/.*{\(.*\)}/\1/' | sort | uniq -c | sort -rn || true
echo "log: $OUTDIR/fastchess.out"
if [ -n "${TIME_LIMIT:-}" ] && [ "$rc" -eq 124 ]; then
  echo "stopped by TIME_LIMIT ($TIME_LIMIT s): the games finished by then are counted above"
elif [ "$rc" -ne 0 ]; then
  echo "ethereal: fastchess exited with status $rc (an engine crash?): the match is incomplete; see $OUTDIR/fastchess.out" >&2
  exit "$rc"
fi
