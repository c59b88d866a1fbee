#!/usr/bin/env bash
# gate.sh NEW BASE [MAX_GAMES]
#
# The gate a network or a parameter set passes before it reaches main (docs/strength.md): NEW
# against BASE, the build of main it would replace, both chess960 binaries, at 5+0.05, Chess960,
# 1 thread and 16 MB each, paired openings (every start played with both colours, drawn from
# OPENINGS or from all 960), an SPRT of elo0=0 against elo1=ELO1 (alpha = beta = 0.05, fastchess's
# normalized model) that stops at MAX_GAMES (default 2000).
#
# Verdict, on the last line, from the pentanomial counts fastchess prints (tools/match/sprt.py;
# not from its closing message, which names H1 also when the game limit, not the test, ended the
# match):
#   PASS       the LLR reached the upper bound, or (this one match, its length fixed before it
#              started) at least 400 games were played and the lower end of the 95% Elo
#              interval is above zero (exit 0)
#   FAIL       the LLR reached the lower bound (exit 1)
#   UNDECIDED  neither (exit 3); go on with another SEED and OUT, and take the verdict over all
#              the games: tools/match/sprt.py OUT1/fastchess.log OUT2/fastchess.log, where only
#              the SPRT decides (an interval looked at after every part passes too easily)
# (exit 2, no verdict: bad arguments; no result in fastchess's log; fastchess exited with a
# status other than 0 (other than the stop of TIME_LIMIT); or it ended on its own before the
# planned games with the LLR inside its bounds, unless its closing line says its own SPRT stopped
# it (its LLR and sprt.py's can part in the last digits at a bound; that stop keeps its verdict).
# The last two are a match cut short, by an engine crash most likely: its games would not be the fixed-length match the 400-games rule is for, and
# a crash is looked into before anything passes. Its pairs can still count in sprt.py over
# several logs, where only the SPRT decides.)
# A PASS is then checked against Ethereal 12 (tools/match/ethereal.sh, NEW and BASE on the same
# seed): a network that gains in self-play and loses to another engine does not reach main.
#
# Environment: FASTCHESS=/path/to/fastchess (required)  TC=5+0.05 (or st=S: S seconds a move,
#   for a change that acts where a search is cut off by its time, as `go movetime` cuts it; an
#   answer up to TIME_MARGIN=50 ms late is not forfeited)
#   ELO1=5  SEED=1
#   CONCURRENCY=1  OPENINGS=<file.epd>  OUT=<dir> (default a new folder $TMPDIR/chess960-gate.XXXXXX,
#   so that two gates side by side never share a PGN or a log)
#   TIME_LIMIT=<seconds>: stop the match then (for a machine lent for a fixed time); fastchess
#     prints its counts every 10 game pairs, and the verdict is taken over the last of them
set -euo pipefail
NEW="${1:?new engine}"; BASE="${2:?base engine (the main build it would replace)}"
MAX_GAMES="${3:-2000}"
FASTCHESS="${FASTCHESS:-}"
[ -n "$FASTCHESS" ] && [ -x "$FASTCHESS" ] || { echo "gate: set FASTCHESS to the fastchess binary" >&2; exit 2; }
for e in "$NEW" "$BASE"; do [ -x "$e" ] || { echo "gate: not an executable: $e" >&2; exit 2; }; done
OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/chess960-gate.XXXXXX")}"
echo "# out: $OUT" >&2
mkdir -p "$OUT"
OPENINGS="${OPENINGS:-}"
if [ -z "$OPENINGS" ]; then
  OPENINGS="$OUT/c960.epd"
  "$BASE" openings --all -o "$OPENINGS"
fi
STOP=()
[ -n "${TIME_LIMIT:-}" ] && STOP=(timeout -s INT "$TIME_LIMIT")
ROUNDS=$(( (MAX_GAMES + 1) / 2 ))
# A clock (5+0.05), or a fixed time a move (st=0.1: `go movetime 100`), where fastchess forfeits
# an answer a millisecond late unless given a margin: a machine's load alone makes some that late.
TC="${TC:-5+0.05}"
case "$TC" in st=*) LIMIT=("$TC" timemargin="${TIME_MARGIN:-50}") ;; *) LIMIT=(tc="$TC") ;; esac
# fastchess's status is kept, not ignored: a match a crash cut short must not pass.
rc=0
nice -n 10 "${STOP[@]}" "$FASTCHESS" \
  -engine cmd="$NEW" name=new -engine cmd="$BASE" name=base \
  -each "${LIMIT[@]}" option.Hash=16 option.Threads=1 \
  -variant fischerandom \
  -openings file="$OPENINGS" format=epd order=random -srand "${SEED:-1}" \
  -rounds "$ROUNDS" -games 2 -repeat -concurrency "${CONCURRENCY:-1}" \
  -sprt elo0=0 elo1="${ELO1:-5}" alpha=0.05 beta=0.05 model=normalized \
  -ratinginterval 10 -pgnout file="$OUT/games.pgn" \
  -config outname="$OUT/fastchess.json" > "$OUT/fastchess.log" 2>&1 || rc=$?
awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"} on && /^-+$/{on=0} END{printf "%s", buf}' "$OUT/fastchess.log"
# The verdict, from the pentanomial counts (tools/match/sprt.py, which also takes the logs of a
# gate continued with another seed: `sprt.py OUT1/fastchess.log OUT2/fastchess.log`).
# --planned: a match that ended on its own short of its games without the SPRT deciding was cut
# short (fastchess stops early only for its SPRT), and gets no verdict. Not after TIME_LIMIT's
# stop (timeout's status 124), whose shorter match is the one asked for.
PLANNED=(--planned $(( 2 * ROUNDS )))
if [ -n "${TIME_LIMIT:-}" ] && [ "$rc" -eq 124 ]; then
  PLANNED=()
elif [ "$rc" -ne 0 ]; then
  echo "gate: fastchess exited with status $rc (an engine crash?): no verdict; see $OUT/fastchess.log" >&2
  exit 2
fi
exec python3 "$(dirname "${BASH_SOURCE[0]}")/sprt.py" "$OUT/fastchess.log" --elo1 "${ELO1:-5}" "${PLANNED[@]}"
