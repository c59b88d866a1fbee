#!/usr/bin/env bash
# stockfish.sh ENGINE_CMD OPPONENT_ELO GAMES
#
# Plays ENGINE_CMD against Stockfish (UCI_LimitStrength=true, UCI_Elo=OPPONENT_ELO)
# in Chess960 (fastchess -variant fischerandom), 5+0.05 s, concurrency 2, random
# start positions from the 960-position EPD, every position played with both colours.
# Prints the final score line and the Elo difference with its 95% error margin.
#
# ENGINE_CMD: path to a UCI engine; anything after the first space is passed as args,
#             e.g.  tools/match/stockfish.sh "/path/to/engine --uci" 1800 200
# OPPONENT_ELO: 1350..2850 (Stockfish 15.1 UCI_Elo range)
# GAMES: total games (rounded up to an even number; 2 games per opening)
#
# Optional environment overrides:
#   TC=5+0.05  CONCURRENCY=2  SF=/usr/games/stockfish  EPD=.../chess960.epd
#   FASTCHESS=.../fastchess/fastchess  NAME=<engine name>  SEED=<srand seed>
#   ENGINE_OPTS="option.Hash=16 option.Threads=1"   (extra -engine options for ENGINE_CMD, as
#     shell words: ENGINE_OPTS="'option.Move Overhead=100'" for a name with a space)
#   EXTRA_ARGS="-recover -maxmoves 200"              (extra fastchess arguments)
#   OUTDIR=<dir for pgn + full log>  (default /tmp/matches/<stamp>)
#   SF_MOVE_OVERHEAD=50  (ms, Stockfish "Move Overhead"; raise on a loaded machine)
#   QUIET=1  (do not echo per-game "Finished game" lines)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 3 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2
fi
ENGINE_CMD="$1"; OPP_ELO="$2"; GAMES="$3"

TC="${TC:-5+0.05}"
CONCURRENCY="${CONCURRENCY:-2}"
SF="${SF:-/usr/games/stockfish}"
EPD="${EPD:-${TMPDIR:-/tmp}/chess960_all.epd}"
FASTCHESS="${FASTCHESS:-$(command -v fastchess || echo fastchess)}"
SEED="${SEED:-$(date +%s)}"
SF_MOVE_OVERHEAD="${SF_MOVE_OVERHEAD:-50}"   # ms; protects the opponent against OS jitter on a loaded box

[ -x "$FASTCHESS" ] || { echo "fastchess not found: set FASTCHESS=/path/to/fastchess (a public match runner, built outside the repo)"; exit 1; }
[ -x "$SF" ] || { echo "stockfish not found at $SF (apt-get install stockfish)"; exit 1; }
# Written atomically by the generator: ethereal.sh shares the default path.
[ -f "$EPD" ] || python3 "$HERE/gen_chess960_epd.py" "$EPD"
case "$OPP_ELO" in ''|*[!0-9]*) echo "OPPONENT_ELO must be an integer"; exit 2;; esac
case "$GAMES" in ''|*[!0-9]*) echo "GAMES must be an integer"; exit 2;; esac
if [ "$OPP_ELO" -lt 1350 ] || [ "$OPP_ELO" -gt 2850 ]; then
  echo "warning: Stockfish 15.1 clamps UCI_Elo to 1350..2850" >&2
fi

# split "path args..." into cmd= and args=
ENG_BIN="${ENGINE_CMD%% *}"
ENG_ARGS=""
[ "$ENG_BIN" != "$ENGINE_CMD" ] && ENG_ARGS="${ENGINE_CMD#* }"
if [ -x "$ENG_BIN" ] && [ "${ENG_BIN#*/}" != "$ENG_BIN" ]; then ENG_BIN="$(cd "$(dirname "$ENG_BIN")" && pwd)/$(basename "$ENG_BIN")"
elif command -v "$ENG_BIN" >/dev/null 2>&1; then ENG_BIN="$(command -v "$ENG_BIN")"
else echo "engine not executable: $ENG_BIN"; exit 1; fi
NAME="${NAME:-$(basename "$ENG_BIN")}"
OPP_NAME="sf${OPP_ELO}"

ROUNDS=$(( (GAMES + 1) / 2 ))
STAMP="$(date +%Y%m%d_%H%M%S)"
mkdir -p "${TMPDIR:-/tmp}/matches"
OUTDIR="${OUTDIR:-$(mktemp -d "${TMPDIR:-/tmp}/matches/${STAMP}_${NAME}_vs_${OPP_NAME}.XXXXXX")}"
mkdir -p "$OUTDIR"
LOG="$OUTDIR/fastchess.out"
PGN="$OUTDIR/games.pgn"

ENGINE_SPEC=(cmd="$ENG_BIN" name="$NAME")
[ -n "$ENG_ARGS" ] && ENGINE_SPEC+=(args="$ENG_ARGS")
# ENGINE_OPTS as shell words (quotes keep an option whose name has a space whole), read by xargs,
# which runs nothing: a plain split made "option.Move Overhead=100" two arguments fastchess refuses.
EXTRA_OPTS=()
[ -n "${ENGINE_OPTS:-}" ] && mapfile -d '' EXTRA_OPTS < <(xargs printf '%s\0' <<<"$ENGINE_OPTS")
ENGINE_SPEC+=("${EXTRA_OPTS[@]}")

# shellcheck disable=SC2206
CMD=("$FASTCHESS"
  -engine "${ENGINE_SPEC[@]}"
  -engine cmd="$SF" name="$OPP_NAME" option.UCI_LimitStrength=true option.UCI_Elo="$OPP_ELO" "option.Move Overhead=$SF_MOVE_OVERHEAD"
  -each tc="$TC"
  -variant fischerandom
  -openings file="$EPD" format=epd order=random
  -srand "$SEED"
  -rounds "$ROUNDS" -games 2
  -concurrency "$CONCURRENCY"
  -ratinginterval 0
  -pgnout file="$PGN"
  -config outname="$OUTDIR/config.json"
  ${EXTRA_ARGS:-})

echo "# $(date -Is)  $NAME vs $OPP_NAME (Stockfish UCI_Elo=$OPP_ELO), Chess960, tc=$TC, games=$((ROUNDS*2)), concurrency=$CONCURRENCY, seed=$SEED"
echo "# output: $OUTDIR"
printf '%q ' "${CMD[@]}" > "$OUTDIR/command.txt"; echo >> "$OUTDIR/command.txt"

set +e
if [ "${QUIET:-0}" = "1" ]; then
  "${CMD[@]}" > "$LOG" 2>&1
else
  "${CMD[@]}" 2>&1 | tee "$LOG" | grep --line-buffered -E '^Finished game|^Error|[Cc]rash|[Dd]isconnect|illegal|[Ff]ailed'
fi
RC=${PIPESTATUS[0]}
set -e

# Final results block printed by fastchess (the last "Results of" section)
BLOCK="$(awk '/^Results of /{buf=""; on=1} on{buf=buf $0 "\n"} /^-{10,}/{if(on&&buf ~ /Games:/){last=buf; on=0}} END{printf "%s", (last!=""?last:buf)}' "$LOG")"
echo "----------------------------------------------------------------"
if [ -n "$BLOCK" ]; then printf '%s' "$BLOCK" | grep -v '^-\{10,\}'; else echo "(no results block found; fastchess rc=$RC; see $LOG)"; fi

# Independent trinomial estimate (W/D/L) and rating on Stockfish's UCI_Elo scale
python3 - "$LOG" "$OPP_ELO" "$NAME" <<'PY'
import re, sys, math
log, opp, name = open(sys.argv[1]).read(), int(sys.argv[2]), sys.argv[3]
m = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", log)
if not m:
    sys.exit(0)
n, w, l, d = map(int, m[-1])
if n == 0:
    sys.exit(0)
term = {}
for t in re.findall(r"^Finished game \d+ \(.*?\): \S+ \{(.*?)\}", log, re.M):
    t = re.sub(r" \(\d+ms overrun\)", "", t)
    term[t] = term.get(t, 0) + 1
s = (w + 0.5 * d) / n
def elo(p):
    if p <= 0: return -math.inf
    if p >= 1: return math.inf
    return -400 * math.log10(1 / p - 1)
def fmt(x): return ("%+.0f" % x) if math.isfinite(x) else ("+inf" if x > 0 else "-inf")
var = (w * (1 - s) ** 2 + l * (0 - s) ** 2 + d * (0.5 - s) ** 2) / n
se = math.sqrt(var / n)
print(f"SCORE {name} vs sf{opp}: +{w} -{l} ={d}  {w + 0.5*d:.1f}/{n} ({100*s:.1f}%)")
if 0 < s < 1:
    e, lo, hi = elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se)
    half = (hi - lo) / 2 if math.isfinite(lo) and math.isfinite(hi) else math.inf
    pm = ("%.0f" % half) if math.isfinite(half) else "inf"
    print(f"ELO (trinomial, 95%): {fmt(e)} +/- {pm}  [{fmt(lo)}, {fmt(hi)}]")
    rl = (opp + lo) if math.isfinite(lo) else -math.inf
    rh = (opp + hi) if math.isfinite(hi) else math.inf
    print(f"=> on Stockfish-15.1 UCI_Elo scale: ~{opp + e:.0f}  95% [{fmt(rl).lstrip('+')}, {fmt(rh).lstrip('+')}]")
else:
    # no loss / no win: one-sided 95% bound (rule of three style)
    p = 1 - 0.05 ** (1 / n)
    if s == 1:
        print(f"ELO: +inf (all wins); 95% lower bound ~{fmt(elo(1 - p))} => rating > ~{opp + elo(1 - p):.0f}")
    else:
        print(f"ELO: -inf (all losses); 95% upper bound ~{fmt(elo(p))} => rating < ~{opp + elo(p):.0f}")
if term:
    print("terminations: " + ", ".join(f"{k}: {v}" for k, v in sorted(term.items(), key=lambda x: -x[1])))
PY
warn=$(grep -c '^Warning' "$LOG" || true)
echo "fastchess rc=$RC; warnings in log: $warn (Stockfish with UCI_LimitStrength triggers 'Bestmove does not match beginning of last PV' by design); log: $LOG"
exit $RC
