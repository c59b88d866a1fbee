#!/usr/bin/env bash
# ethereal.sh ENGINE GAMES
#
# Chess960 match of ENGINE against Ethereal 12 (Debian package ethereal-chess, full
# strength, default options), with the settings of stockfish.sh: fastchess
# -variant fischerandom, 5+0.05 s, random starts from the 960-position EPD, each start
# played with both colours. Prints fastchess's result block and how games ended.
#
# Environment: FASTCHESS (required), ETHEREAL=/usr/games/ethereal-chess, TC=5+0.05,
#   CONCURRENCY=1, SEED=<srand seed>, EPD=<960-start EPD; made with python-chess if
#   absent>, OUTDIR=<directory for the PGN and the log>, TIME_LIMIT=<seconds>: stop the match
#   then (for a machine lent for a fixed time; the games finished by then are in the log, and
#   those still being played are logged as "disconnects": leave them out of the count).
set -euo pipefail
if [ $# -lt 2 ]; then sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2; fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENGINE="$(realpath "$1")"; GAMES="$2"
ETHEREAL="${ETHEREAL:-/usr/games/ethereal-chess}"
TC="${TC:-5+0.05}"; CONCURRENCY="${CONCURRENCY:-1}"; SEED="${SEED:-$(date +%s)}"
EPD="${EPD:-${TMPDIR:-/tmp}/chess960_all.epd}"
OUTDIR="${OUTDIR:-${TMPDIR:-/tmp}/matches/$(date +%Y%m%d_%H%M%S)_vs_ethereal}"
[ -x "${FASTCHESS:-}" ] || { echo "set FASTCHESS=/path/to/fastchess" >&2; exit 1; }
[ -x "$ETHEREAL" ] || { echo "Ethereal not found at $ETHEREAL (apt-get install ethereal-chess)" >&2; exit 1; }
# Written atomically by the generator: stockfish.sh shares the default path.
[ -f "$EPD" ] || python3 "$HERE/gen_chess960_epd.py" "$EPD" --shredder
mkdir -p "$OUTDIR"
STOP=()
[ -n "${TIME_LIMIT:-}" ] && STOP=(timeout -s INT "$TIME_LIMIT")
"${STOP[@]}" "$FASTCHESS" \
  -engine cmd="$ENGINE" name=chess960 \
  -engine cmd="$ETHEREAL" name=ethereal12 \
  -each tc="$TC" -variant fischerandom \
  -openings file="$EPD" format=epd order=random -srand "$SEED" \
  -rounds $(( (GAMES + 1) / 2 )) -games 2 -concurrency "$CONCURRENCY" \
  -ratinginterval 0 -pgnout file="$OUTDIR/games.pgn" \
  -config outname="$OUTDIR/config.json" > "$OUTDIR/fastchess.out" 2>&1 || true
awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"} END{printf "%s", buf}' "$OUTDIR/fastchess.out"
grep -o '^Finished game [0-9]* ([^)]*): [^ ]* {[^}]*}' "$OUTDIR/fastchess.out" \
  | sed 's/.*{\(.*\)}/\1/' | sort | uniq -c | sort -rn || true
echo "log: $OUTDIR/fastchess.out"
