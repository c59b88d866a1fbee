#!/usr/bin/env bash
# match.sh BASE NEW GAMES [LIMIT] [SEED]
#
# Engine NEW against engine BASE (both chess960 binaries), Chess960, starts
# drawn at random from all 960 positions (`chess960 openings --all`), each
# start played with both colours. LIMIT is a fastchess -each
# limit: "nodes=8000" (default; fixed work per move, deterministic and
# immune to the load of a shared machine) or e.g. "tc=2+0.02".
# Prints fastchess's final result block (score, Elo with error bars).
#
# Environment: FASTCHESS=/path/to/fastchess (required)  OUT=<dir> (default a new folder $TMPDIR/chess960-tune-match.XXXXXX)
#   OPENINGS=<file.epd>: starts to draw from instead of the bare 960 (e.g. gen_openings.py --plies 4:
#     at fixed nodes a start drawn twice replays the same game; random plies make repeats rare)
#   CONCURRENCY=N: games at a time (default 1)
#   NEW_OPTIONS / BASE_OPTIONS="Name=Value ...": UCI options for one side only (e.g. tuned values
#     screened as options of a tune build against the same build at its defaults)
set -euo pipefail
BASE="${1:?base engine}"; NEW="${2:?new engine}"; GAMES="${3:-300}"
LIMIT="${4:-nodes=8000}"; SEED="${5:-7}"
FASTCHESS="${FASTCHESS:-}"
[ -n "${FASTCHESS:-}" ] && [ -x "$FASTCHESS" ] || { echo "set FASTCHESS to the fastchess binary (a public match runner, built outside the repository)" >&2; exit 2; }
OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/chess960-tune-match.XXXXXX")}"
mkdir -p "$OUT"
OPENINGS="${OPENINGS:-}"
if [ -z "$OPENINGS" ]; then
  OPENINGS="$OUT/c960.epd"
  "$NEW" openings --all -o "$OPENINGS"
fi
new_opts=(); for o in ${NEW_OPTIONS:-}; do new_opts+=("option.$o"); done
base_opts=(); for o in ${BASE_OPTIONS:-}; do base_opts+=("option.$o"); done
case "$LIMIT" in tc=*) EACH=("$LIMIT") ;; *) EACH=(tc=inf "$LIMIT") ;; esac
nice -n 10 "$FASTCHESS" \
  -engine cmd="$NEW" name=new ${new_opts[@]+"${new_opts[@]}"} \
  -engine cmd="$BASE" name=base ${base_opts[@]+"${base_opts[@]}"} \
  -each "${EACH[@]}" option.Hash=16 option.Threads=1 \
  -variant fischerandom \
  -openings file="$OPENINGS" format=epd order=random -srand "$SEED" \
  -rounds $(( (GAMES + 1) / 2 )) -games 2 -concurrency "${CONCURRENCY:-1}" \
  -ratinginterval 0 -pgnout file="$OUT/games.pgn" \
  -config outname="$OUT/fastchess.json" > "$OUT/fastchess.log" 2>&1
awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"} END{printf "%s", buf}' "$OUT/fastchess.log"
