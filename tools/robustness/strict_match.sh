#!/usr/bin/env bash
# strict_match.sh ENGINE GAMES [TC]
#
# The flag-fall and protocol check: ENGINE against full-strength
# Stockfish (Debian's stockfish 15.1) in Chess960, fastchess -strict, random
# starts from all 960 positions (python-chess's list: tools/match/
# gen_chess960_epd.py), each start with both colours, concurrency 1.
#
# -strict makes fastchess stop the whole run at the first warning: an illegal
# move, a bestmove that is not the first move of the last PV, an illegal PV
# move, an engine that does not answer. Stockfish must play at full strength:
# with UCI_LimitStrength its own bestmove differs from its PV by design and
# -strict would stop on that (which is why tools/match/stockfish.sh, which
# limits Stockfish, is run without -strict).
#
# Prints fastchess's result block and a tally of how games ended, and exits
# non-zero if fastchess stopped abnormally or any game of ENGINE ended by
# time forfeit, illegal move, crash or disconnect.
#
# Environment: FASTCHESS (required: the fastchess binary), SF (/usr/games/stockfish),
#   EPD (/tmp/chess960_all.epd), SEED (default: the time), OUT (output directory),
#   SF_MOVE_OVERHEAD (default 100 ms: under -strict a Stockfish flag fall
#   stops the run too), ENGINE_OPTS (extra -engine options as shell words, e.g.
#   ENGINE_OPTS="'option.Move Overhead=100' option.Hash=32").
set -euo pipefail
ENGINE="${1:?engine binary}"; GAMES="${2:?games}"; TC="${3:-1+0.01}"
FASTCHESS="${FASTCHESS:-}"
[ -n "${FASTCHESS:-}" ] && [ -x "$FASTCHESS" ] || { echo "set FASTCHESS to the fastchess binary (a public match runner, built outside the repository)" >&2; exit 2; }
SF="${SF:-/usr/games/stockfish}"
EPD="${EPD:-/tmp/chess960_all.epd}"
SEED="${SEED:-$(date +%s)}"
mkdir -p "${TMPDIR:-/tmp}/strict"
OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/strict/$(date +%Y%m%d_%H%M%S)_${TC}.XXXXXX")}"
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$OUT"
[ -f "$EPD" ] || python3 "$HERE/../match/gen_chess960_epd.py" "$EPD"
ENGINE="$(cd "$(dirname "$ENGINE")" && pwd)/$(basename "$ENGINE")"
# ENGINE_OPTS as shell words (quotes keep an option whose name has a space whole), read by xargs,
# which runs nothing: a plain split made "option.Move Overhead=100" two arguments fastchess refuses.
EXTRA_OPTS=()
[ -n "${ENGINE_OPTS:-}" ] && mapfile -d '' EXTRA_OPTS < <(xargs printf '%s\0' <<<"$ENGINE_OPTS")
CMD=("$FASTCHESS" -engine cmd="$ENGINE" name=chess960 "${EXTRA_OPTS[@]}"
  -engine cmd="$SF" name=stockfish "option.Move Overhead=${SF_MOVE_OVERHEAD:-100}"
  -each tc="$TC" option.Hash=16 option.Threads=1
  -variant fischerandom -openings file="$EPD" format=epd order=random -srand "$SEED"
  -rounds $(( (GAMES + 1) / 2 )) -games 2 -concurrency 1 -strict
  -ratinginterval 0 -pgnout file="$OUT/games.pgn")
printf '%q ' "${CMD[@]}" > "$OUT/command.txt"; echo >> "$OUT/command.txt"
echo "# $(date -Is) chess960 vs Stockfish (full strength), tc=$TC, games=$(( (GAMES + 1) / 2 * 2 )), seed=$SEED, -strict; out: $OUT"
set +e
"${CMD[@]}" > "$OUT/fastchess.log" 2>&1
RC=$?
set -e
awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"} END{printf "%s", buf}' "$OUT/fastchess.log"
echo "terminations (all games):"
grep -o '^Finished game [0-9]* (.*): [^{]*{[^}]*}' "$OUT/fastchess.log" \
  | sed -e 's/.*{//' -e 's/}//' -e 's/ ([0-9]*ms overrun)//' | sort | uniq -c | sort -rn || true
FINISHED=$(grep -c '^Finished game' "$OUT/fastchess.log" || true)
# "Finished game N (WHITE vs BLACK): R {Reason}": which engine a bad ending hit.
OURS_BAD=$(awk '/^Finished game/ {
    s = $0; sub(/^[^(]*\(/, "", s); white = s; sub(/ vs .*/, "", white)
    black = s; sub(/^[^ ]* vs /, "", black); sub(/\).*/, "", black)
    bad = ($0 ~ /loses on time|makes an illegal move|disconnects|connection stalls/)
    if (bad && (($0 ~ /\{White/ && white == "chess960") || ($0 ~ /\{Black/ && black == "chess960"))) n++
  } END { print n + 0 }' "$OUT/fastchess.log")
WARN=$(grep -c '^Warning' "$OUT/fastchess.log" || true)
echo "games finished: $FINISHED; chess960 forfeits/illegal/disconnects: $OURS_BAD; warnings: $WARN; fastchess rc=$RC; log: $OUT/fastchess.log"
[ "$RC" -eq 0 ] && [ "$WARN" -eq 0 ] && [ "$OURS_BAD" -eq 0 ] || exit 1
