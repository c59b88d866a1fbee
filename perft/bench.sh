#!/usr/bin/env bash
# Perft benchmark: chess960 against Stockfish's `go perft`, same positions, one run.
#
# usage: perft/bench.sh [DEPTH] [COUNT|all]
#   DEPTH  plies (default 6)
#   COUNT  how many of the 960 start positions, spread evenly over the Scharnagl
#          numbers (default 24); `all` for the full suite (depth 6: 107.6 G nodes,
#          about half an hour for the three runs on 2 cores)
# environment:
#   STOCKFISH  engine binary (default /usr/games/stockfish; Debian package `stockfish`, 15.1)
#   THREADS    threads of the full-speed run (default: all cores)
#   HASH       hash MiB of the full-speed run (default 64)
#   BIN        chess960 binary (default: build target/release/chess960)
#
# Three timed runs over the same positions, each checked against perft/chess960_startpos.tsv:
#   stockfish  `go perft DEPTH` per position (UCI_Chess960 on; single-threaded by design)
#   raw        chess960 perft --threads 1 --hash 0
#   full       chess960 perft --threads $THREADS --hash $HASH
# Times are wall clock of the counting only (Stockfish's start-up and NNUE load excluded),
# and CPU time (user + system, all threads) which is steadier on a shared machine.
# The ratios are stockfish time / our time: above 1 means we are faster.
set -euo pipefail

DEPTH=${1:-6}
COUNT=${2:-24}
cd "$(dirname "$0")/.."
ROOT=$PWD
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
THREADS=${THREADS:-$(nproc)}
HASH=${HASH:-64}
TSV=$ROOT/perft/chess960_startpos.tsv

die() { echo "bench.sh: $*" >&2; exit 2; }
[[ $DEPTH =~ ^[1-6]$ ]] || die "DEPTH must be 1..6 (the reference table's depths)"
[[ $COUNT == all || $COUNT =~ ^[0-9]+$ && $COUNT -ge 1 && $COUNT -le 960 ]] || die "COUNT must be 1..960 or all"
[[ $COUNT == all ]] && COUNT=960
[[ -x $STOCKFISH ]] || die "no Stockfish at $STOCKFISH (apt-get install stockfish, or set STOCKFISH)"
if [[ -z ${BIN:-} ]]; then
    cargo build --release --quiet
    BIN=$ROOT/target/release/chess960
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The selected rows of the reference table (header kept), as a suite file.
awk -F'\t' -v n="$COUNT" '
    /^#/ { next }
    $1 == "sp" { print; next }
    { if (int(($1 * n) / 960) != int((($1 - 1) * n) / 960) || $1 == 0) print }
' "$TSV" > "$WORK/suite.tsv"
SELECTED=$(($(wc -l < "$WORK/suite.tsv") - 1))
COL=$((DEPTH + 2))
EXPECTED=$(awk -F'\t' -v c="$COL" '$1 != "sp" { s += $c } END { printf "%.0f", s }' "$WORK/suite.tsv")

now() { date +%s.%N; }
TICK=$(getconf CLK_TCK)
cpu_of() { # CPU seconds (user + system) used so far by process $1
    awk -v t="$TICK" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / t }' "/proc/$1/stat"
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

echo "perft depth $DEPTH over $SELECTED start positions ($EXPECTED nodes expected), $(nproc) cores"
echo "stockfish: $("$STOCKFISH" </dev/null 2>/dev/null | head -1)"
echo "chess960:  $BIN"
echo

# --- Stockfish, driven as a coprocess so that each `go perft` finishes before the next position.
coproc SF { exec "$STOCKFISH" 2>/dev/null; }
sf_send() { printf '%s\n' "$*" >&"${SF[1]}"; }
sf_wait() { # read until a line starting with $1; echo that line
    local line
    while IFS= read -r line <&"${SF[0]}"; do
        [[ $line == "$1"* ]] && { echo "$line"; return 0; }
    done
    die "stockfish ended before '$1'"
}
sf_send uci; sf_wait uciok >/dev/null
sf_send "setoption name UCI_Chess960 value true"
sf_send isready; sf_wait readyok >/dev/null
SF_NODES=0
C0=$(cpu_of "$SF_PID")
T0=$(now)
while IFS=$'\t' read -r sp fen _; do
    [[ $sp == sp ]] && continue
    sf_send "position fen $fen"
    sf_send "go perft $DEPTH"
    line=$(sf_wait "Nodes searched")
    SF_NODES=$((SF_NODES + ${line##*: }))
done < "$WORK/suite.tsv"
T1=$(now)
C1=$(cpu_of "$SF_PID")
sf_send quit
wait "$SF_PID" 2>/dev/null || true
SF_TIME=$(secs "$T0" "$T1")
SF_CPU=$(secs "$C0" "$C1")
[[ $SF_NODES == "$EXPECTED" ]] || echo "WARNING: stockfish counted $SF_NODES, reference says $EXPECTED"

# --- ours: wall clock around the whole process, peak RSS from /usr/bin/time when present.
ours() { # name, extra args...; prints "seconds nodes peak_kb cpu_seconds"
    local name=$1; shift
    local t0 t1 out peak=- cpu
    t0=$(now)
    if [[ -x /usr/bin/time ]]; then
        out=$(/usr/bin/time -f 'PEAK_KB %M %U %S' "$BIN" perft "$DEPTH" --epd "$WORK/suite.tsv" "$@" 2>"$WORK/$name.err") ||
            die "$name run failed: $(tail -3 "$WORK/$name.err")"
        peak=$(awk '/^PEAK_KB/ { print $2 }' "$WORK/$name.err")
        cpu=$(awk '/^PEAK_KB/ { printf "%.2f", $3 + $4 }' "$WORK/$name.err")
    else
        out=$("$BIN" perft "$DEPTH" --epd "$WORK/suite.tsv" "$@" 2>"$WORK/$name.err") ||
            die "$name run failed: $(tail -3 "$WORK/$name.err")"
        cpu=-
    fi
    t1=$(now)
    local summary nodes
    summary=$(tail -1 <<<"$out")
    nodes=$(awk '{ for (i = 1; i < NF; i++) if ($i == "nodes") { print $(i + 1); exit } }' <<<"$summary")
    [[ $summary == *"mismatches 0 "* ]] || echo "WARNING: $name: $summary"
    echo "$(secs "$t0" "$t1") $nodes $peak $cpu"
}
read -r RAW_TIME RAW_NODES RAW_PEAK RAW_CPU < <(ours raw --threads 1 --hash 0)
read -r FULL_TIME FULL_NODES FULL_PEAK FULL_CPU < <(ours full --threads "$THREADS" --hash "$HASH")
[[ $RAW_NODES == "$EXPECTED" && $FULL_NODES == "$EXPECTED" ]] ||
    echo "WARNING: chess960 counted $RAW_NODES / $FULL_NODES, reference says $EXPECTED"

row() { # name wall cpu peak config
    awk -v n="$1" -v s="$2" -v c="$3" -v p="$4" -v cfg="$5" -v nodes="$EXPECTED" \
        -v sf="$SF_TIME" -v sfc="$SF_CPU" 'BEGIN {
        printf "%-9s %9.2f %9s %9.1f %9.2fx %9s %10s  %s\n", n, s, c,
               (s > 0 ? nodes / s / 1e6 : 0), (s > 0 ? sf / s : 0),
               (c > 0 ? sprintf("%.2fx", sfc / c) : "-"), p, cfg }'
}
echo "wall/cpu in seconds; speed in Mnodes/s of wall time; ratio = stockfish time / this time"
printf '%-9s %9s %9s %9s %10s %9s %10s  %s\n' run wall cpu speed "ratio" "cpu ratio" "peak KB" config
row stockfish "$SF_TIME" "$SF_CPU" - "go perft $DEPTH, 1 thread, UCI_Chess960"
row raw "$RAW_TIME" "$RAW_CPU" "$RAW_PEAK" "--threads 1 --hash 0"
row full "$FULL_TIME" "$FULL_CPU" "$FULL_PEAK" "--threads $THREADS --hash $HASH"
