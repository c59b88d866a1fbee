#!/usr/bin/env bash
# gen_games.sh ENGINE OUT_DIR [GAMES] [NODES] [SEED]
#
# Self-play games of ENGINE (a chess960 binary) from random Chess960
# openings (gen_openings.py: random start + 6 random plies, seeded), one
# game per opening, fixed nodes per move, written as PGN by fastchess.
# Draws and hopeless positions are adjudicated to save time.
#
# Environment: FASTCHESS=/path/to/fastchess (required)  PLIES=6
#              DFRC_SHARE=0 (share of openings from Double Fischer Random starts)
#              OPENINGS=FILE.epd: play these openings (GAMES of them, from the first) instead
#                of drawing new ones; a slice of a chunk's openings played apart from the rest
#                gives the games the whole file would (kit.py plays chunks in slices that way)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ENGINE="${1:?engine binary}"; OUT="${2:?output directory}"
GAMES="${3:-2400}"; NODES="${4:-6000}"; SEED="${5:-1}"
FASTCHESS="${FASTCHESS:-}"
[ -n "${FASTCHESS:-}" ] && [ -x "$FASTCHESS" ] || { echo "set FASTCHESS to the fastchess binary (a public match runner, built outside the repository)" >&2; exit 2; }
PLIES="${PLIES:-6}"
mkdir -p "$OUT"
if [ -n "${OPENINGS:-}" ]; then
  cp "$OPENINGS" "$OUT/openings.epd"
else
  python3 "$HERE/gen_openings.py" "$OUT/openings.epd" --count "$GAMES" --plies "$PLIES" --seed "$SEED" \
    --dfrc-share "${DFRC_SHARE:-0}"
fi
# fastchess appends to an existing PGN: a run made again into the same folder starts it afresh.
rm -f "$OUT/games.pgn"
nice -n 10 "$FASTCHESS" \
  -engine cmd="$ENGINE" name=a -engine cmd="$ENGINE" name=b \
  -each nodes="$NODES" tc=inf option.Hash=8 option.Threads=1 \
  -variant fischerandom \
  -openings file="$OUT/openings.epd" format=epd order=sequential \
  -rounds "$GAMES" -games 1 -concurrency 1 \
  -draw movenumber=40 movecount=8 score=10 \
  -resign movecount=4 score=800 -maxmoves 200 \
  -ratinginterval 0 \
  -pgnout file="$OUT/games.pgn" \
  -config outname="$OUT/fastchess.json" > "$OUT/fastchess.log" 2>&1
grep -c '^\[Result' "$OUT/games.pgn"
