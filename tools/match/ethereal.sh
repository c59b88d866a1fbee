#!/usr/bin/env bash
# ethereal.sh ENGINE GAMES
#
# Chess960 match of ENGINE against Ethereal 12 (Debian package ethereal-chess, full
# strength, default options), with the settings of ../shared/tools/match.sh: fastchess
# -variant fischerandom, 5+0.05 s, random starts from the 960-position EPD, each start
# played with both colours. Prints fastchess's result block and how games ended.
#
# Environment: FASTCHESS (required), ETHEREAL=/usr/games/ethereal-chess, TC=5+0.05,
#   CONCURRENCY=1, SEED=<srand seed>, EPD=<960-start EPD; made with python-chess if
#   absent>, OUTDIR=<directory for the PGN and the log>.
set -euo pipefail
if [ $# -lt 2 ]; then sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2; fi
ENGINE="$(realpath "$1")"; GAMES="$2"
ETHEREAL="${ETHEREAL:-/usr/games/ethereal-chess}"
TC="${TC:-5+0.05}"; CONCURRENCY="${CONCURRENCY:-1}"; SEED="${SEED:-$(date +%s)}"
EPD="${EPD:-${TMPDIR:-/tmp}/chess960_all.epd}"
OUTDIR="${OUTDIR:-${TMPDIR:-/tmp}/matches/$(date +%Y%m%d_%H%M%S)_vs_ethereal}"
[ -x "${FASTCHESS:-}" ] || { echo "set FASTCHESS=/path/to/fastchess" >&2; exit 1; }
[ -x "$ETHEREAL" ] || { echo "Ethereal not found at $ETHEREAL (apt-get install ethereal-chess)" >&2; exit 1; }
if [ ! -f "$EPD" ]; then
  # Written beside its name and renamed into place: a match started at the same
  # time (tools/match/stockfish.sh shares the default path) never reads, or
  # writes into, a half-written file.
  python3 -c 'import chess, sys
with open(sys.argv[1], "w") as f:
    for n in range(960):
        print(chess.Board.from_chess960_pos(n).epd(shredder=True), file=f)' "$EPD.$$"
  mv -f "$EPD.$$" "$EPD"
fi
mkdir -p "$OUTDIR"
"$FASTCHESS" \
  -engine cmd="$ENGINE" name=chess960 \
  -engine cmd="$ETHEREAL" name=ethereal12 \
  -each tc="$TC" -variant fischerandom \
  -openings file="$EPD" format=epd order=random -srand "$SEED" \
  -rounds $(( (GAMES + 1) / 2 )) -games 2 -concurrency "$CONCURRENCY" \
  -ratinginterval 0 -pgnout file="$OUTDIR/games.pgn" \
  -config outname="$OUTDIR/config.json" > "$OUTDIR/fastchess.out" 2>&1 || true
awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"} END{printf "%s", buf}' "$OUTDIR/fastchess.out"
grep -o '^Finished game [0-9]* ([^)]*): [^ ]* {[^}]*}' "$OUTDIR/fastchess.out" \
  | sed 's/.*{\(.*\)}/\1/' | sort | uniq -c | sort -rn
echo "log: $OUTDIR/fastchess.out"
